// RUN: dist-opt --dist-materialize-spmd %dist_src_root/examples/distal/summa.mlir | FileCheck %s --check-prefix=SUMMA
// RUN: dist-opt --dist-materialize-spmd %dist_src_root/examples/distal/solomonik.mlir | FileCheck %s --check-prefix=GENERAL-IN
// RUN: sed -e 's/!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>/!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> yx">>/' %dist_src_root/examples/distal/summa.mlir | dist-opt --dist-materialize-spmd | FileCheck %s --check-prefix=GENERAL-OUT
// RUN: dist-opt --dist-materialize-spmd %s | FileCheck %s
// RUN: (dist-opt --dist-materialize-spmd %dist_src_root/examples/distal/summa.mlir && dist-opt --dist-materialize-spmd %dist_src_root/examples/distal/cannon.mlir && dist-opt --dist-materialize-spmd %dist_src_root/examples/distal/solomonik.mlir && dist-opt --dist-materialize-spmd %s) | FileCheck %s --check-prefix=NOCALL
// dist-materialize-spmd emits a computation's transfers, boxes and tile
// views as dist ops (DistTransferOps.td), not runtime calls: the rank's
// grid coordinates, the checks and zeroing of the output, boxes read in
// place or copied, broadcasts started and waited for (overlap), the
// general exchange for inputs and outputs, and permutations.

// SUMMA (examples/distal/summa.mlir): A is local and read in place when
// its box is its tile; the panels of B and C are double buffered.
// SUMMA-LABEL: func.func @summa
// SUMMA-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>)
// SUMMA: dist.grid_coord on @m axis 0 : index
// SUMMA: dist.grid_coord on @m axis 1 : index
// SUMMA: dist.check_distinct %[[A]], %[[B]] named "B"
// SUMMA: dist.check_distinct %[[A]], %[[C]] named "C"
// SUMMA: dist.zero_tile %[[A]] as !dist.tensor<64x64xf64
// SUMMA: %[[VIEW:.*]], %[[IN:.*]] = dist.tile_view %[[A]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<64x64xf64
// SUMMA: %[[BOX:.*]] = arith.select %[[IN]], %[[VIEW]], %{{.*}} : memref<?xf64, strided<[1], offset: ?>>
// SUMMA: dist.axes_rank on @m axes [1] : index
// SUMMA: dist.copy_box %[[B]]
// SUMMA: %[[RB:.*]] = dist.start_broadcast %{{.*}} on @m axes [1] root
// SUMMA: dist.axes_rank on @m axes [0] : index
// SUMMA: dist.copy_box %[[C]]
// SUMMA: %[[RC:.*]] = dist.start_broadcast %{{.*}} on @m axes [0] root
// SUMMA: scf.for {{.*}} iter_args(%[[QB:.*]] = %[[RB]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[QC:.*]] = %[[RC]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (!dist.request, memref<512xf64>, memref<512xf64>, !dist.request, memref<512xf64>, memref<512xf64>)
// SUMMA: dist.wait %[[QB]]
// SUMMA: dist.null_request
// SUMMA: dist.wait %[[QC]]
// SUMMA: dist.null_request
// SUMMA: dist.gemm
// SUMMA: dist.add_box %[[BOX]] into %[[A]]

// None of the runtime functions these ops stand for is called directly.
// NOCALL-NOT: @distrt_{{[a-z_]*(grid_coord|axes_rank|box|wait|bcast|ishift|iallgather|permute|layout_zero|distinct)}}

// Solomonik's 2.5D algorithm: B and C move with the general exchange.
// GENERAL-IN-LABEL: func.func @solomonik
// GENERAL-IN: scf.for
// GENERAL-IN: dist.fetch_box %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %{{.*}} as !dist.tensor<{{.*}}> : memref<?xf64>, memref<{{[0-9]+}}xf64>
// GENERAL-IN: dist.fetch_box
// GENERAL-IN: dist.reduce

// An output whose layout does not match the schedule: partial results are
// accumulated into their owners with the general exchange.
// GENERAL-OUT-LABEL: func.func @summa
// GENERAL-OUT: scf.for
// GENERAL-OUT: }
// GENERAL-OUT: dist.accumulate_box %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<64x64xf64, #dist.layout<@m, [(1) blocked, (0) blocked]>> : memref<1024xf64>, memref<?xf64>

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// A transpose: every rank's box of B is the tile of one other rank, a
// point-to-point permutation. The rank sends its partner's box from its
// tile through the send buffer; -1 is no partner.
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>)
// CHECK: %[[HAS:.*]] = arith.cmpi sge, %[[DST:.*]], %c0{{.*}} : index
// CHECK: scf.if %[[HAS]] {
// CHECK-NEXT: dist.copy_box %[[B]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %[[SEND:.*]] as
// CHECK: %[[SV:.*]] = memref.reinterpret_cast %[[SEND]]
// CHECK: %[[RV:.*]] = memref.reinterpret_cast
// CHECK: dist.permute %[[SV]] to %[[DST]], %[[RV]] from %{{.*}} on @m : memref<?xf64>, memref<?xf64>
func.func @transpose(%a: !T, %b: !T) {
  dist.compute "A(i,j) = B(j,i)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B}, jo)] : !T, !T
  return
}

// The same permutation at every step of a time loop is double buffered.
// CHECK-LABEL: func.func @transpose_steps
// CHECK: %[[R0:.*]] = dist.start_permute
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %[[R0]], %[[CUR:.*]] = %{{.*}}, %[[OTHER:.*]] = %{{.*}}) -> (!dist.request, memref<8xf64>, memref<8xf64>)
// CHECK: dist.wait %[[Q]]
// CHECK: %[[NEXT:.*]] = scf.if %{{.*}} -> (!dist.request) {
// CHECK: %[[R:.*]] = dist.start_permute
// CHECK: scf.yield %[[R]] : !dist.request
// CHECK: scf.yield %[[NEXT]], %[[OTHER]], %[[CUR]] : !dist.request, memref<8xf64>, memref<8xf64>
func.func @transpose_steps(%a: !T, %b: !T) {
  dist.compute "A(i,j) = B(j,i)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(ii, iio, iii, 2), reorder({iio, iii, ji}),
                communicate(A, jo), communicate(B, iio)] : !T, !T
  return
}
