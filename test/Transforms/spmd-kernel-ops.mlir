// RUN: dist-opt %s --dist-materialize-spmd="check=1 timing=1 overlap=0" -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-to-llvm="check=1 timing=1" -split-input-file | FileCheck %s --check-prefix=LLVM
// dist-materialize-spmd emits the SPMD ops of the runtime's lifetime, local
// tiles, leaf kernels, redistribution steps and the check and timing
// instrumentation (DistKernelOps.td) and no runtime calls of its own for
// them; the whole pipeline lowers them.

dist.grid @m [2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// SUMMA (examples/distal/summa.mlir) with check and timing: the inputs are
// gathered on rank 0 before the timed region, the leaf is a dist.gemm on
// views of the panels, and rank 0's reference is compared with every copy
// of the output.
// CHECK-LABEL: func.func @summa
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>)
// CHECK: dist.runtime_init
// CHECK: %[[WA:.*]] = memref.alloc() : memref<64x64xf64>
// CHECK-NOT: dist.gather_tile %[[A]]
// CHECK: %[[WB:.*]] = memref.alloc() : memref<64x64xf64>
// CHECK: dist.gather_tile %[[B]] into %[[WB]] root 0 : memref<?xf64> of !dist.tensor<64x64xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>> into memref<64x64xf64>
// CHECK: %[[WC:.*]] = memref.alloc() : memref<64x64xf64>
// CHECK: dist.gather_tile %[[C]] into %[[WC]] root 0
// CHECK: dist.barrier on @m axes [0, 1]
// CHECK-NEXT: dist.profile_kernel_begin
// CHECK-NEXT: %[[T0:.*]] = dist.wtime
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1024xf64>
// CHECK-NEXT: dist.check_alloc %[[BUF]], "the communication buffer of tensor A" : memref<1024xf64>
// CHECK: scf.for
// CHECK: dist.gemm %{{[^ ]*}}, %{{[^ ]*}} into %{{[^ ]*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>> into memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK: dist.barrier on @m axes [0, 1]
// CHECK-NEXT: %[[T1:.*]] = dist.wtime
// CHECK-NEXT: %[[S:.*]] = arith.subf %[[T1]], %[[T0]] : f64
// CHECK-NEXT: dist.report_time "A(i,j) = B(i,k) * C(k,j)", %[[S]] on @m
// CHECK-NEXT: %[[R:.*]] = dist.grid_rank @m
// CHECK: %[[ROOT:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[ROOT]] {
// CHECK-NEXT: dist.reference "A(i,j) = B(i,k) * C(k,j)" bind ["A", "B", "C"] to %[[WA]], %[[WB]], %[[WC]] : memref<64x64xf64>, memref<64x64xf64>, memref<64x64xf64>
// CHECK-NEXT: }
// CHECK-NEXT: dist.check_result %[[A]] against %[[WA]] label "A(i,j) = B(i,k) * C(k,j)" tolerance 9.9999999999999998E-13
// CHECK-NEXT: dist.check_unchanged %[[B]] against %[[WB]] label "input B of A(i,j) = B(i,k) * C(k,j)"
// CHECK-NEXT: dist.check_unchanged %[[C]] against %[[WC]] label "input C of A(i,j) = B(i,k) * C(k,j)"
// CHECK: return
// The program's tiles.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: dist.runtime_init
// CHECK-NEXT: %[[NA:.*]] = dist.tile_capacity !dist.tensor<64x64xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
// CHECK-NEXT: %[[TA:.*]] = memref.alloc(%[[NA]]) : memref<?xf64>
// CHECK-NEXT: dist.check_alloc %[[TA]], "the local tile of a distributed tensor" : memref<?xf64>
// CHECK: %[[TB:.*]] = memref.alloc
// CHECK: %[[TC:.*]] = memref.alloc
// CHECK: dist.fill_tile %[[TB]] seed 1 : memref<?xf64> of !dist.tensor<64x64xf64
// CHECK-NEXT: dist.load_tile %[[TC]] from "c.dtensor" : memref<?xf64> of !dist.tensor<64x64xf64
// CHECK-NEXT: call @summa(%[[TA]], %[[TB]], %[[TC]])
// CHECK-NEXT: dist.store_tile %[[TA]] to "a.dtensor" : memref<?xf64> of !dist.tensor<64x64xf64
// CHECK: dist.runtime_finalize
// CHECK-NOT: call @distrt_
// CHECK-NOT: func.func private @distrt_{{(init|finalize|layout_tile_capacity|check_alloc|layout_fill|layout_load|layout_store|gemm_t_f64|barrier|profile_kernel_begin|wtime|report_time|grid_rank|layout_gather|reference_|check_result|check_unchanged)}}
// LLVM-LABEL: llvm.func @summa
// LLVM: llvm.call @distrt_layout_gather
// LLVM: llvm.call @distrt_barrier
// LLVM: llvm.call @distrt_profile_kernel_begin
// LLVM: llvm.call @distrt_wtime
// LLVM: llvm.call @distrt_gemm_t_f64
// LLVM: llvm.call @distrt_report_time
// LLVM: llvm.call @distrt_grid_rank
// LLVM: llvm.call @distrt_reference_begin
// LLVM: llvm.call @distrt_reference_bind
// LLVM: llvm.call @distrt_reference_run
// LLVM: llvm.call @distrt_check_result
// LLVM: llvm.call @distrt_check_unchanged
// LLVM-LABEL: llvm.func @main
// LLVM: llvm.call @distrt_init
// LLVM: llvm.call @distrt_layout_tile_capacity
// LLVM: llvm.call @distrt_check_alloc
// LLVM: llvm.call @distrt_layout_fill
// LLVM: llvm.call @distrt_layout_load
// LLVM: llvm.call @distrt_layout_store
// LLVM: llvm.call @distrt_finalize
func.func @summa(%a: !A, %b: !A, %c: !A) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16),
                reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !A, !A, !A
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !A
  %c = dist.alloc : !A
  dist.fill %b seed 1 : !A
  dist.load %c from "c.dtensor" : !A
  func.call @summa(%a, %b, %c) : (!A, !A, !A) -> ()
  dist.store %a to "a.dtensor" : !A
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// MTTKRP (examples/distal/mttkrp.mlir): the leaf's GEMM multiplies a view
// of B's (i, jk) block by the (transposed) Khatri-Rao buffer, which rank-1
// GEMMs filled.
dist.grid @c [2, 2, 2]
!A = !dist.tensor<16x8xf64, #dist.layout<@c, "xy -> x**">>
!B = !dist.tensor<16x16x16xf64, #dist.layout<@c, "xyz -> xyz">>
!C = !dist.tensor<16x8xf64, #dist.layout<@c, "xy -> *x*">>
!D = !dist.tensor<16x8xf64, #dist.layout<@c, "xy -> **x">>

// CHECK-LABEL: func.func @mttkrp
// CHECK: dist.check_alloc %[[KR:.*]], "the Khatri-Rao buffer of the mttkrp leaf" : memref<512xf64>
// CHECK: dist.zero_buffer %[[KR]]
// CHECK: scf.for
// CHECK: dist.gemm %{{[^ ]*}}, %{{[^ ]*}} transposed into %{{[^ ]*}} :
// CHECK: scf.if
// CHECK: %[[KV:.*]] = memref.reinterpret_cast %[[KR]] to offset: [{{[^]]*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1] : memref<512xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK: dist.gemm %{{[^ ]*}}, %[[KV]] transposed into %{{[^ ]*}} :
// CHECK: } else {
// LLVM-LABEL: llvm.func @mttkrp
// LLVM: llvm.call @distrt_zero_buffer
// LLVM: llvm.call @distrt_gemm_t_f64
func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                reorder({ko, ii, ji, ki, l}), communicate({A, B, C, D}, ko),
                substitute({ii, ji, ki, l}, mttkrp)] : !A, !B, !C, !D
  return
}

// -----

// A planned redistribution with check: one step, then the destination is
// compared with the gathered source.
dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),(1)]">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),()]">>

// CHECK-LABEL: func.func @redistribute
// CHECK-SAME: (%[[S:.*]]: memref<?xf64>, %[[D:.*]]: memref<?xf64>)
// CHECK: dist.redist_allgather %[[S]] into %[[D]] axes [1] : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), (1)]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), ()]>>
// CHECK-NEXT: %[[W:.*]] = memref.alloc() : memref<8x8xf64>
// CHECK-NEXT: dist.gather_tile %[[S]] into %[[W]] root 0 : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), (1)]>> into memref<8x8xf64>
// CHECK-NEXT: dist.check_result %[[D]] against %[[W]] label "redistribute" tolerance 0.000000e+00 : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), ()]>>, memref<8x8xf64>
// CHECK-NEXT: memref.dealloc %[[W]]
// LLVM-LABEL: llvm.func @redistribute
// LLVM: llvm.call @distrt_redist_allgather
// LLVM: llvm.call @distrt_layout_gather
// LLVM: llvm.call @distrt_check_result
func.func @redistribute(%s: !S, %d: !D) {
  dist.redistribute %s into %d : !S into !D
  return
}

// A partial sum with check: the reference sums the gathered source on
// rank 0.
!T = !dist.tensor<6x5x2xf64, #dist.layout<@p, "[(0),(),(1)]">>
!G = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),()]">>
// CHECK-LABEL: func.func @partial_sum
// CHECK-SAME: (%[[T:.*]]: memref<?xf64>, %[[G:.*]]: memref<?xf64>)
// CHECK: dist.redist_allreduce %[[T]] into %[[G]] axes [1] sum [2]
// CHECK-NEXT: %[[W:.*]] = memref.alloc() : memref<6x5x2xf64>
// CHECK-NEXT: %[[R:.*]] = memref.alloc() : memref<6x5xf64>
// CHECK-NEXT: dist.gather_tile %[[T]] into %[[W]] root 0
// CHECK-NEXT: dist.sum_reference %[[W]] into %[[R]] on @p sum [2] root 0 : memref<6x5x2xf64> into memref<6x5xf64>
// CHECK-NEXT: dist.check_result %[[G]] against %[[R]] label "redistribute sum"
// LLVM-LABEL: llvm.func @partial_sum
// LLVM: llvm.call @distrt_redist_allreduce
// LLVM: llvm.call @distrt_layout_gather
// LLVM: llvm.call @distrt_sum_reference
// LLVM: llvm.call @distrt_check_result
func.func @partial_sum(%t: !T, %g: !G) {
  dist.redistribute %t into %g sum [2] : !T into !G
  return
}
