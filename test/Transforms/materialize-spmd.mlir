// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s
// The SPMD form: tiles, buffers allocated once outside the time loop, the
// communication op the analysis picked inside it, and the leaf
// (overlap=false: the blocking form; materialize-spmd-overlap.mlir has the
// double-buffered one).

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// SUMMA: panels of B and C are broadcast at every step of ko, then GEMM.
// CHECK-LABEL: func.func @summa
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>)
// CHECK: dist.runtime_init
// CHECK-DAG: %[[BA:.*]] = memref.alloc() : memref<1024xf64>
// CHECK-DAG: %[[BB:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: %[[BC:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: %[[ROW:.*]] = dist.grid_coord on @m axis 0 : index
// CHECK-DAG: %[[COL:.*]] = dist.grid_coord on @m axis 1 : index
// CHECK: dist.check_distinct %[[A]], %[[B]] named "B" in "{{.*}}A(i,j) = B(i,k) * C(k,j)" : memref<?xf64>, memref<?xf64>
// CHECK: dist.check_distinct %[[A]], %[[C]] named "C"
// CHECK: dist.zero_tile %[[A]] as !dist.tensor<64x64xf64, #dist.layout<@m, {{.*}}>> : memref<?xf64>
// CHECK: %[[VIEW:.*]], %[[INSIDE:.*]] = dist.tile_view %[[A]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<64x64xf64, {{.*}}> : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: %[[ME:.*]] = dist.axes_rank on @m axes [1] : index
// CHECK: %[[ISROOT:.*]] = arith.cmpi eq, %[[ME]]
// CHECK: scf.if %[[ISROOT]] {
// CHECK-NEXT: dist.copy_box %[[B]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %[[BB]] as !dist.tensor<64x64xf64, {{.*}}> : memref<?xf64>, memref<512xf64>
// CHECK: dist.broadcast %{{.*}} on @m axes [1] root %{{.*}} : memref<?xf64>
// CHECK: dist.copy_box %[[C]]
// CHECK: dist.broadcast %{{.*}} on @m axes [0] root %{{.*}} : memref<?xf64>
// CHECK: dist.gemm
// CHECK: }
// CHECK: dist.add_box %{{.*}} into %[[A]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<64x64xf64, {{.*}}> : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
// CHECK: memref.dealloc %[[BA]]
func.func @summa(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// Cannon: a point-to-point permutation aligns at the first step, systolic
// shifts follow.
// CHECK-LABEL: func.func @cannon
// CHECK: scf.for
// CHECK: scf.if
// CHECK: dist.copy_box
// CHECK: dist.permute %{{.*}} to %{{.*}}, %{{.*}} from %{{.*}} on @m : memref<?xf64>, memref<?xf64>
// CHECK: } else {
// CHECK: dist.shift %{{.*}} on @m axis 1 offset 1 : memref<?xf64>
// CHECK: scf.if
// CHECK: dist.permute
// CHECK: } else {
// CHECK: dist.shift %{{.*}} on @m axis 0 offset 1 : memref<?xf64>
// CHECK: dist.gemm
func.func @cannon(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 2), reorder({ko, ii, ji, ki}),
                rotate(ko, {io, jo}, kos),
                communicate(A, jo), communicate({B, C}, kos),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @c [2, 2, 2]
!A = !dist.tensor<64x64xf64, #dist.layout<@c, "xy -> xy0">>
!B = !dist.tensor<64x64xf64, #dist.layout<@c, "xz -> x0z">>
!C = !dist.tensor<64x64xf64, #dist.layout<@c, "zy -> 0yz">>

// Johnson: broadcast B and C once, multiply, reduce partial sums to z = 0.
// CHECK-LABEL: func.func @johnson
// CHECK-NOT: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: dist.broadcast %{{.*}} on @c axes [1]
// CHECK: dist.broadcast %{{.*}} on @c axes [0]
// CHECK: dist.gemm
// CHECK: dist.reduce %{{.*}} on @c axes [2] sum root
// CHECK: scf.if
// CHECK: dist.add_box
func.func @johnson(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                communicate({A, B, C}, ko), substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!S = !dist.tensor<f64, #dist.layout<@m, " -> **">>

// Without a leaf kernel, the local loops are one linalg.generic on strided
// views of the tiles (every range is an exact interval); an output
// replicated on every processor is allreduced.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @inner
// CHECK: %[[B:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}] : memref<{{.*}}> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[C:.*]] = memref.reinterpret_cast
// CHECK: %[[S:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [], strides: [] : memref<{{.*}}xf64> to memref<f64, strided<[], offset: ?>>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[SCALAR]]], iterator_types = ["reduction", "reduction"]} ins(%[[B]], %[[C]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OUT]], %[[P]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[SUM]] : f64
// CHECK: dist.allreduce %{{.*}} on @m axes [0, 1] sum
// CHECK: dist.add_box
func.func @inner(%s: !S, %b: !T, %c: !T) {
  dist.compute "s = B(i,j) * C(i,j)" (s = %s, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !S, !T, !T
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>

// The leaf visits a strided set of i (ili fixed by the communicate point,
// ilo runs): not an interval, so scalar loops with bounds checks instead.
// CHECK-LABEL: func.func @strided
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2
// CHECK: dist.copy_box
// CHECK: scf.for %{{.*}} = %{{.*}} to %c3
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store
func.func @strided(%a: !T, %b: !T) {
  dist.compute "A(i) = B(i) * B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {il}, Grid(2)),
                split(il, ilo, ili, 2), reorder({io, ili, ilo}),
                communicate({A, B}, ili)]
      : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<8xf64, #dist.layout<@m, "z -> **">>

// parallelize: the loop becomes scf.parallel (threads inside the rank), and
// the pipeline turns it into an OpenMP worksharing loop.
// Inside it, the remaining loops (ji, k) are one linalg.generic.
// CHECK-LABEL: func.func @ttv
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// CHECK-NOT: scf.for
// The sum over k may be reassociated (vectorised).
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf {{.*}} fastmath<reassoc> : f64
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo), parallelize(ii)]
      : !A, !B, !c
  return
}

// -----

dist.grid @c [2, 2, 2]
!A = !dist.tensor<16x8xf64, #dist.layout<@c, "il -> i**">>
!B = !dist.tensor<16x16x16xf64, #dist.layout<@c, "ijk -> ijk">>
!C = !dist.tensor<16x8xf64, #dist.layout<@c, "jl -> *j*">>
!D = !dist.tensor<16x8xf64, #dist.layout<@c, "kl -> **k">>

// MTTKRP leaf: the Khatri-Rao product of the C and D tiles, transposed,
// into a scratch buffer allocated once (zeroed, then one rank-1 GEMM per
// l), then one GEMM with B's (j, k) block when it is contiguous, one per j
// otherwise. Library calls only: no loads or stores in the leaf.
// CHECK-LABEL: func.func @mttkrp
// CHECK: dist.check_alloc %[[KR:.*]], "the Khatri-Rao buffer of the mttkrp leaf"
// CHECK: dist.zero_buffer %[[KR]], %{{.*}} : memref<512xf64>
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK-NOT: memref.store
// CHECK: %[[ROW:.*]] = memref.reinterpret_cast %[[KR]]
// CHECK-NEXT: dist.gemm %{{[^ ]*}}, %{{[^ ]*}} transposed into %[[ROW]]
// CHECK-NEXT: }
// CHECK-NOT: memref.store
// CHECK: scf.if
// CHECK: dist.gemm %{{[^ ]*}}, %{{[^ ]*}} transposed into
// CHECK: } else {
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK-NOT: memref.store
// CHECK: dist.gemm %{{[^ ]*}}, %{{[^ ]*}} transposed into
// CHECK: dist.allreduce %{{.*}} on @c axes [1, 2] sum
func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                reorder({ko, ii, ji, ki, l}), communicate({A, B, C, D}, ko),
                substitute({ii, ji, ki, l}, mttkrp)] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>

// Every allocation is checked, naming what it holds; the tile's size is
// the largest tile of its layout.
// CHECK-LABEL: func.func @main
// CHECK: dist.runtime_init
// CHECK: %[[N:.*]] = dist.tile_capacity !dist.tensor<8xf64, #dist.layout<@m, [(0) blocked]>>
// CHECK: %[[T:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: dist.check_alloc %[[T]], "the local tile of a distributed tensor" : memref<?xf64>
// CHECK: dist.fill_tile %[[T]] seed 1 : memref<?xf64> of !dist.tensor<8xf64, #dist.layout<@m, [(0) blocked]>>
// CHECK: dist.runtime_finalize
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.fill %t seed 1 : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// A leaf without reduction loops keeps the exact floating-point add.
// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf %{{[^ ]*}}, %{{[^ ]*}} : f64
func.func @elementwise(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,j) * C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !T, !T, !T
  return
}

// -----

// RUN: dist-opt %s --dist-materialize-spmd=timing=1 -split-input-file | FileCheck %s --check-prefix=TIMING

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// timing: the clock starts after a barrier over the whole grid and stops
// after another one, so that the maximum over the processes is the makespan
// even when the computation does not communicate.
// TIMING-LABEL: func.func @timed
// TIMING: dist.barrier on @m axes [0, 1]
// TIMING-NEXT: dist.profile_kernel_begin
// TIMING-NEXT: %[[T0:.*]] = dist.wtime
// TIMING: linalg.generic
// TIMING: dist.barrier on @m axes [0, 1]
// TIMING-NEXT: %[[T1:.*]] = dist.wtime
// TIMING-NEXT: %[[S:.*]] = arith.subf %[[T1]], %[[T0]]
// TIMING: dist.report_time "A(i,j) = B(i,j) * C(i,j)", %[[S]] on @m
func.func @timed(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,j) * C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !T, !T, !T
  return
}
