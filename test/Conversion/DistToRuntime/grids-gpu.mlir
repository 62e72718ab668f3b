// RUN: dist-opt %s --convert-dist-to-runtime | FileCheck %s

// Grids of GPUs (after dist-flatten-machines and dist-device-memory, which
// marks the module dist.device_memory) are looked up with
// distrt_grid_lookup_gpus, which checks that the NCCL backend runs; its
// last argument is the number of node axes (0 for a one-level machine).
module attributes {dist.device_memory} {
  dist.grid @g gpu[2, 2]
  dist.grid @h gpu[2, 1, 2] {dist.node_axes = 1 : i64}

  // CHECK-LABEL: func @use
  func.func @use() -> (!llvm.ptr, !llvm.ptr) {
    // CHECK: %[[S:.*]] = llvm.mlir.addressof @__dist_grid_g : !llvm.ptr
    // CHECK: %[[D:.*]] = llvm.mlir.addressof @__dist_grid_g_dims
    // CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
    // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
    // CHECK: llvm.call @distrt_grid_lookup_gpus(%[[S]], %[[N]], %[[D]], %[[Z]])
    %a = dist.grid_handle @g : !llvm.ptr
    // CHECK: %[[HS:.*]] = llvm.mlir.addressof @__dist_grid_h : !llvm.ptr
    // CHECK: %[[HD:.*]] = llvm.mlir.addressof @__dist_grid_h_dims
    // CHECK: %[[HN:.*]] = llvm.mlir.constant(3 : i64) : i64
    // CHECK: %[[NA:.*]] = llvm.mlir.constant(1 : i64) : i64
    // CHECK: llvm.call @distrt_grid_lookup_gpus(%[[HS]], %[[HN]], %[[HD]], %[[NA]])
    %b = dist.grid_handle @h : !llvm.ptr
    return %a, %b : !llvm.ptr, !llvm.ptr
  }
}
// CHECK: llvm.func @distrt_grid_lookup_gpus(!llvm.ptr, i64, !llvm.ptr, i64) -> !llvm.ptr
// CHECK-NOT: @distrt_grid_lookup(
// CHECK-NOT: @distrt_grid_lookup_nodes(
