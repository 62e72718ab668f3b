// RUN: dist-opt %s -split-input-file --convert-dist-to-runtime | FileCheck %s
// dist.onesided_matmul becomes one distrt_onesided_matmul call: the grid
// handle, the dtype code (f64: 1), each tensor's layout descriptor and tile
// pointer, then the stationary code (DISTRT_STATIONARY_B: 1), offset,
// prefetch and accumulate.

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>

// The descriptors: [ndims, per dim: n, kind, block, naxes, axes..., nfixed].
// CHECK-DAG: llvm.mlir.global internal constant @[[DA:__dist_desc_[0-9]+]](dense<[2, 7, 1, 0, 1, 0, 5, 0, 0, 0, 0]> : tensor<11xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[DB:__dist_desc_[0-9]+]](dense<[2, 5, 0, 0, 0, 9, 1, 0, 1, 1, 0]> : tensor<11xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[DC:__dist_desc_[0-9]+]](dense<[2, 7, 1, 0, 1, 0, 9, 1, 0, 1, 1, 0]> : tensor<12xi64>)
// CHECK-LABEL: func.func @mm(
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[T:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[PA:.*]] = llvm.mlir.addressof @[[DA]]
// CHECK: %[[A:.*]] = llvm.inttoptr
// CHECK: %[[PB:.*]] = llvm.mlir.addressof @[[DB]]
// CHECK: %[[B:.*]] = llvm.inttoptr
// CHECK: %[[PC:.*]] = llvm.mlir.addressof @[[DC]]
// CHECK: %[[C:.*]] = llvm.inttoptr
// CHECK: %[[S:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[O:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[P:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[ACC:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @distrt_onesided_matmul(%[[G]], %[[T]], %[[PA]], %[[A]], %[[PB]], %[[B]], %[[PC]], %[[C]], %[[S]], %[[O]], %[[P]], %[[ACC]])
func.func @mm(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  dist.onesided_matmul %a, %b accumulate into %c stationary B prefetch 4 offset false
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

// Grids of the same processes: distrt_onesided_matmul_grids with each
// tensor's grid handle first.
dist.grid @m [2, 2]
dist.grid @n [4]
!A = !dist.tensor<7x5xf64, #dist.layout<@n, [(0) blocked, ()]>>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @grids(
// CHECK: %[[GA:.*]] = llvm.call @distrt_grid_lookup(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}}
// CHECK: %[[GB:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[GC:.*]] = llvm.call @distrt_grid_lookup
// CHECK: llvm.call @distrt_onesided_matmul_grids(%[[GA]], %[[GB]], %[[GC]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> ()
func.func @grids(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

// A batch: distrt_onesided_matmul_batched with the three grid handles, the
// dtype, then the batch's descriptor (3 elements dealt out blocked over
// axis 0) before the operands'.
dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf32, #dist.layout<@m, [(1) blocked, ()]>>
!B = !dist.tensor<5x9xf32, #dist.layout<@m, [(), (1) blocked]>>
!C = !dist.tensor<7x9xf32, #dist.layout<@m, [(), ()]>>
!T = !dist.tensor<3xf32, #dist.layout<@m, [(0) blocked]>>
// CHECK-DAG: llvm.mlir.global internal constant @[[DT:__dist_desc_[0-9]+]](dense<[1, 3, 1, 0, 1, 0, 0]> : tensor<7xi64>)
// CHECK-LABEL: func.func @batch(
// CHECK: %[[T:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[PT:.*]] = llvm.mlir.addressof @[[DT]]
// CHECK: llvm.call @distrt_onesided_matmul_batched(%{{.*}}, %{{.*}}, %{{.*}}, %[[T]], %[[PT]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> ()
func.func @batch(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C batch !T : memref<?xf32>, memref<?xf32>, memref<?xf32>
  return
}

// -----

// Dynamic extents: A's descriptor is its template (DISTRT_DESC_DYNAMIC, -1,
// for the ?) filled in on the stack by distrt_layout_with_extents with the
// extent operands, then checked against the tile's size by
// distrt_layout_check_tile, both naming the operand; B is static.
dist.grid @m [2, 2]
!A = !dist.tensor<?x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<?x9xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-DAG: llvm.mlir.global internal constant @[[TA:__dist_desc_[0-9]+]](dense<[2, -1, 1, 0, 1, 0, 5, 0, 0, 0, 0]> : tensor<11xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[DB:__dist_desc_[0-9]+]](dense<[2, 5, 0, 0, 0, 9, 1, 0, 1, 1, 0]> : tensor<11xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[TC:__dist_desc_[0-9]+]](dense<[2, -1, 1, 0, 1, 0, 9, 1, 0, 1, 1, 0]> : tensor<12xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[WA:[_a-z0-9]+]]("'A' (argument 1 of @f) of type !dist.tensor<?x5xf64, #dist.layout<@m, [(0) blocked, ()]>>\00")
// CHECK-LABEL: func.func @dyn(
// CHECK-SAME: %[[M:[a-z0-9]+]]: i64, %[[M2:[a-z0-9]+]]: i64)
// CHECK: llvm.intr.stacksave
// CHECK: %[[EA:.*]] = llvm.alloca
// CHECK: llvm.store %[[M]], %{{[0-9]+}} : i64
// CHECK: %[[OA:.*]] = llvm.alloca
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: %[[W:.*]] = llvm.mlir.addressof @[[WA]]
// CHECK: %[[TT:.*]] = llvm.mlir.addressof @[[TA]]
// CHECK: llvm.call @distrt_layout_with_extents(%[[TT]], %[[EA]], %[[OA]], %[[FN]], %[[W]])
// CHECK: llvm.call @distrt_layout_check_tile(%{{.*}}, %[[OA]], %{{.*}}, %[[FN]], %[[W]])
// CHECK: llvm.store %[[M2]]
// CHECK: llvm.call @distrt_layout_with_extents
// CHECK: llvm.call @distrt_layout_check_tile
// CHECK: %[[PB:.*]] = llvm.mlir.addressof @[[DB]]
// CHECK: llvm.call @distrt_onesided_matmul(%{{.*}}, %{{.*}}, %[[OA]], %{{.*}}, %[[PB]],
// CHECK: llvm.intr.stackrestore
func.func @dyn(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>, %m: i64, %m2: i64) {
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C extents(%m, %m2)
      {operand_names = ["'A' (argument 1 of @f)", "'B' (argument 2 of @f)", "'C' (argument 0 of @f)"]}
      : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}
