// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// The SPMD ops of the runtime's lifetime, local tiles, leaf kernels,
// redistribution steps and the check and timing instrumentation, and their
// memory effects.

dist.grid @m [2, 2]

!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!R = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x*">>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),()]">>
!P = !dist.tensor<8x8x2xf64, #dist.layout<@m, "[(),(0),(1)]">>
!K = !dist.tensor<8x8xf64, #dist.layout<@m, "[(),(0)]">>

// CHECK-LABEL: func @tiles
func.func @tiles() {
  // CHECK: dist.runtime_init
  dist.runtime_init
  // CHECK: %[[N:.*]] = dist.tile_capacity !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
  %n = dist.tile_capacity !A
  // CHECK: %[[T:.*]] = memref.alloc(%[[N]])
  %t = memref.alloc(%n) : memref<?xf64>
  // CHECK: dist.check_alloc %[[T]], "the local tile" : memref<?xf64>
  dist.check_alloc %t, "the local tile" : memref<?xf64>
  // CHECK: dist.fill_tile %[[T]] seed 3 : memref<?xf64> of !dist.tensor<8x8xf64
  dist.fill_tile %t seed 3 : memref<?xf64> of !A
  // CHECK: dist.load_tile %[[T]] from "a.dtensor" : memref<?xf64> of !dist.tensor<8x8xf64
  dist.load_tile %t from "a.dtensor" : memref<?xf64> of !A
  // CHECK: dist.store_tile %[[T]] to "b.dtensor" : memref<?xf64> of !dist.tensor<8x8xf64
  dist.store_tile %t to "b.dtensor" : memref<?xf64> of !A
  memref.dealloc %t : memref<?xf64>
  // CHECK: dist.runtime_finalize
  dist.runtime_finalize
  return
}

!V2 = memref<?x?xf64, strided<[?, 1], offset: ?>>
!V1 = memref<?xf64, strided<[1], offset: ?>>

// CHECK-LABEL: func @leaves
func.func @leaves(%a: !V2, %b: !V2, %c: !V2, %x: !V1, %y: !V1,
                  %s: memref<f64, strided<[], offset: ?>>,
                  %f: memref<4x4xf32>, %v: memref<4xf32>) {
  // CHECK: dist.gemm %{{.*}}, %{{.*}} into %{{.*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>> into memref<?x?xf64, strided<[?, 1], offset: ?>>
  dist.gemm %a, %b into %c : !V2, !V2 into !V2
  // CHECK: dist.gemm %{{.*}} transposed, %{{.*}} transposed into %{{.*}} :
  dist.gemm %a transposed, %b transposed into %c : !V2, !V2 into !V2
  // CHECK: dist.gemm %{{.*}}, %{{.*}} transposed into %{{.*}} : memref<4x4xf32>
  dist.gemm %f, %f transposed into %f : memref<4x4xf32>, memref<4x4xf32> into memref<4x4xf32>
  // CHECK: dist.gemv %{{.*}} transposed, %{{.*}} into %{{.*}} :
  dist.gemv %a transposed, %x into %y : !V2, !V1 into !V1
  // CHECK: dist.gemv %{{.*}}, %{{.*}} into %{{.*}} : memref<4x4xf32>, memref<4xf32> into memref<4xf32>
  dist.gemv %f, %v into %v : memref<4x4xf32>, memref<4xf32> into memref<4xf32>
  // CHECK: dist.dot %{{.*}}, %{{.*}} into %{{.*}} : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>> into memref<f64, strided<[], offset: ?>>
  dist.dot %x, %y into %s : !V1, !V1 into memref<f64, strided<[], offset: ?>>
  return
}

// CHECK-LABEL: func @redistribution
func.func @redistribution(%a: memref<?xf64>, %b: memref<?xf64>,
                          %p: memref<?xf64>) {
  // CHECK: dist.redistribute_tile %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<8x8xf64, {{.*}}> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, ()]>>
  dist.redistribute_tile %a into %b : memref<?xf64> of !A into memref<?xf64> of !R
  // CHECK: dist.redist_slice %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), ()]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@m, [(0), (1)]>>
  dist.redist_slice %a into %b : memref<?xf64> of !T into memref<?xf64> of !S
  // CHECK: dist.redist_allgather %{{.*}} into %{{.*}} axes [1] :
  dist.redist_allgather %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !T
  // CHECK: dist.redist_permute %{{.*}} into %{{.*}} axes [0, 1] :
  dist.redist_permute %a into %b axes [0, 1] : memref<?xf64> of !S into memref<?xf64> of !S
  // CHECK: dist.redist_all_to_all %{{.*}} into %{{.*}} axes [1] :
  dist.redist_all_to_all %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !S
  // CHECK: dist.redist_gather %{{.*}} into %{{.*}} axes [1] :
  dist.redist_gather %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !T
  // CHECK: dist.redist_broadcast %{{.*}} into %{{.*}} axes [1] :
  dist.redist_broadcast %a into %b axes [1] : memref<?xf64> of !T into memref<?xf64> of !T
  // CHECK: dist.redist_scatter %{{.*}} into %{{.*}} axes [1] :
  dist.redist_scatter %a into %b axes [1] : memref<?xf64> of !T into memref<?xf64> of !S
  // CHECK: dist.redist_change_kind %{{.*}} into %{{.*}} axes [0] :
  dist.redist_change_kind %a into %b axes [0] : memref<?xf64> of !S into memref<?xf64> of !S
  // CHECK: dist.redist_allreduce %{{.*}} into %{{.*}} axes [1] sum [2] : memref<?xf64> of !dist.tensor<8x8x2xf64
  dist.redist_allreduce %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  // CHECK: dist.redist_reduce_scatter %{{.*}} into %{{.*}} axes [1] sum [2] :
  dist.redist_reduce_scatter %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  // CHECK: dist.redist_reduce %{{.*}} into %{{.*}} axes [1] sum [2] :
  dist.redist_reduce %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  return
}

// CHECK-LABEL: func @instrumentation
func.func @instrumentation(%t: memref<?xf64>, %w: memref<8x8xf64>,
                           %p: memref<8x8x2xf64>) {
  // CHECK: dist.barrier on @m axes [0, 1]
  dist.barrier on @m axes [0, 1]
  // CHECK: dist.profile_kernel_begin
  dist.profile_kernel_begin
  // CHECK: %[[T0:.*]] = dist.wtime
  %t0 = dist.wtime
  %t1 = dist.wtime
  %s = arith.subf %t1, %t0 : f64
  // CHECK: dist.report_time "A(i,j) = B(i,j)", %{{.*}} on @m
  dist.report_time "A(i,j) = B(i,j)", %s on @m
  // CHECK: %{{.*}} = dist.grid_rank @m
  %r = dist.grid_rank @m
  // CHECK: dist.gather_tile %{{.*}} into %{{.*}} root 0 : memref<?xf64> of !dist.tensor<8x8xf64, {{.*}}> into memref<8x8xf64>
  dist.gather_tile %t into %w root 0 : memref<?xf64> of !A into memref<8x8xf64>
  // CHECK: dist.reference "A(i,j) = B(i,j)" bind ["A", "B"] to %{{.*}}, %{{.*}} : memref<8x8xf64>, memref<8x8xf64>
  dist.reference "A(i,j) = B(i,j)" bind ["A", "B"] to %w, %w : memref<8x8xf64>, memref<8x8xf64>
  // CHECK: dist.check_result %{{.*}} against %{{.*}} label "A(i,j) = B(i,j)" tolerance 9.9999999999999998E-13 : memref<?xf64> of !dist.tensor<8x8xf64, {{.*}}>, memref<8x8xf64>
  dist.check_result %t against %w label "A(i,j) = B(i,j)" tolerance 1.0e-12 : memref<?xf64> of !A, memref<8x8xf64>
  // CHECK: dist.check_unchanged %{{.*}} against %{{.*}} label "input B" : memref<?xf64> of
  dist.check_unchanged %t against %w label "input B" : memref<?xf64> of !A, memref<8x8xf64>
  // CHECK: dist.sum_reference %{{.*}} into %{{.*}} on @m sum [2] root 0 : memref<8x8x2xf64> into memref<8x8xf64>
  dist.sum_reference %p into %w on @m sum [2] root 0 : memref<8x8x2xf64> into memref<8x8xf64>
  return
}

// Ops with effects survive canonicalization; unused queries do not.
// RUN: dist-opt %s --canonicalize --cse | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func @kept
// CANON-NOT: dist.tile_capacity
// CANON-NOT: dist.grid_rank
// CANON: dist.fill_tile
// CANON: dist.store_tile
// CANON: dist.check_alloc
// CANON: dist.gemm
// CANON: dist.redist_slice
// CANON: dist.barrier
// CANON: dist.wtime
// CANON: dist.wtime
// CANON: dist.check_result
func.func @kept(%t: memref<?xf64>, %a: memref<4x4xf64>, %w: memref<8x8xf64>) {
  %n = dist.tile_capacity !A
  %r = dist.grid_rank @m
  dist.fill_tile %t seed 3 : memref<?xf64> of !A
  dist.store_tile %t to "b.dtensor" : memref<?xf64> of !A
  dist.check_alloc %t, "x" : memref<?xf64>
  dist.gemm %a, %a into %a : memref<4x4xf64>, memref<4x4xf64> into memref<4x4xf64>
  dist.redist_slice %t into %t : memref<?xf64> of !T into memref<?xf64> of !S
  dist.barrier on @m axes [0]
  %t0 = dist.wtime
  %t1 = dist.wtime
  dist.check_result %t against %w label "x" tolerance 0.0 : memref<?xf64> of !A, memref<8x8xf64>
  return
}
