// RUN: dist-opt %s --dist-flatten-machines --convert-dist-to-runtime | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal @__dist_grid_m() {{.*}} : !llvm.ptr
// CHECK-DAG: llvm.mlir.global internal constant @__dist_grid_m_dims(dense<[2, 3]> : tensor<2xi64>)
// Machines of nodes are flattened (dist-flatten-machines), outermost level
// first, and their handle says how many leading axes index nodes.
// CHECK-DAG: llvm.mlir.global internal constant @__dist_grid_h_dims(dense<[2, 2, 4]> : tensor<3xi64>)
// CHECK-NOT: dist.grid
dist.grid @m [2, 3]
dist.grid @h node[2, 2], cpu[4]

// CHECK-LABEL: func @use
func.func @use() -> (!llvm.ptr, !llvm.ptr) {
  // CHECK: %[[S:.*]] = llvm.mlir.addressof @__dist_grid_m : !llvm.ptr
  // CHECK: %[[D:.*]] = llvm.mlir.addressof @__dist_grid_m_dims
  // CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @distrt_grid_lookup(%[[S]], %[[N]], %[[D]])
  %a = dist.grid_handle @m : !llvm.ptr
  // CHECK: %[[HS:.*]] = llvm.mlir.addressof @__dist_grid_h : !llvm.ptr
  // CHECK: %[[HD:.*]] = llvm.mlir.addressof @__dist_grid_h_dims
  // CHECK: %[[HN:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK: %[[NA:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @distrt_grid_lookup_nodes(%[[HS]], %[[HN]], %[[HD]], %[[NA]])
  %b = dist.grid_handle @h : !llvm.ptr
  return %a, %b : !llvm.ptr, !llvm.ptr
}
// CHECK-DAG: llvm.func @distrt_grid_lookup(!llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @distrt_grid_lookup_nodes(!llvm.ptr, i64, !llvm.ptr, i64) -> !llvm.ptr
