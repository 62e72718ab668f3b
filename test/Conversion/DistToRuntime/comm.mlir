// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file | FileCheck %s

dist.grid @m [2, 3]

// CHECK-LABEL: func @bcast
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[P:.*]] = llvm.inttoptr
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK-DAG: %[[MASK:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[F64:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[ROOT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: llvm.call @distrt_bcast(%[[G]], %[[MASK]], %[[P]], %[[N]], %[[F64]], %[[ROOT]])
func.func @bcast(%t: memref<3x4xf64>, %r: index) {
  dist.broadcast %t on @m axes [1] root %r : memref<3x4xf64>
  return
}

// Dynamic sizes multiply in; the element type code of i32 is 2; max is 3.
// CHECK-LABEL: func @allreduce_dynamic
// CHECK: %[[D:.*]] = memref.dim
// CHECK: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[N:.*]] = llvm.mul %{{.*}}, %[[D64]]
// CHECK: llvm.call @distrt_allreduce(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %{{.*}})
func.func @allreduce_dynamic(%t: memref<4x?xi32>) {
  dist.allreduce %t on @m axes [0, 1] max : memref<4x?xi32>
  return
}

// all_to_all sends count / group size to each member (group of 3 on axis 1).
// CHECK-LABEL: func @alltoall
// CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: %[[PER:.*]] = llvm.sdiv %{{.*}}, %[[THREE]]
// CHECK: llvm.call @distrt_alltoall(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PER]], %{{.*}})
func.func @alltoall(%a: memref<6xf32>, %b: memref<6xf32>) {
  dist.all_to_all %a into %b on @m axes [1] : memref<6xf32> into memref<6xf32>
  return
}

// A reduce-scatter in blocks passes both element counts and the block.
// CHECK-LABEL: func @reduce_scatter_blocks
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(10 : i64) : i64
// CHECK-DAG: %[[M:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG: %[[B:.*]] = arith.index_cast %arg2 : index to i64
// CHECK: llvm.call @distrt_reduce_scatter_blocks(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %[[M]], %[[B]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, i64, i64) -> ()
func.func @reduce_scatter_blocks(%a: memref<10xf64>, %b: memref<4xf64>, %blk: index) {
  dist.reduce_scatter_blocks %a into %b on @m axes [1] sum block %blk : memref<10xf64> into memref<4xf64>
  return
}

// CHECK-LABEL: func @others
// CHECK: llvm.call @distrt_reduce(
// CHECK: llvm.call @distrt_allgather(
// CHECK: llvm.call @distrt_reduce_scatter(
// CHECK: llvm.call @distrt_gather(
// CHECK: llvm.call @distrt_scatter(
// CHECK: llvm.call @distrt_shift(
// CHECK: llvm.call @distrt_send(
// CHECK: llvm.call @distrt_recv(
// CHECK-NOT: dist.
func.func @others(%a: memref<4xf64>, %b: memref<8xf64>, %r: index) {
  dist.reduce %a on @m axes [0] sum root %r : memref<4xf64>
  dist.allgather %a into %b on @m axes [0] : memref<4xf64> into memref<8xf64>
  dist.reduce_scatter %b into %a on @m axes [0] sum : memref<8xf64> into memref<4xf64>
  dist.gather %a into %b on @m axes [0] root %r : memref<4xf64> into memref<8xf64>
  dist.scatter %b into %a on @m axes [0] root %r : memref<8xf64> into memref<4xf64>
  dist.shift %a on @m axis 1 offset -1 : memref<4xf64>
  dist.send %a to %r on @m tag 3 : memref<4xf64>
  dist.recv %a from %r on @m tag 3 : memref<4xf64>
  return
}
// CHECK-DAG: llvm.func @distrt_bcast(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64)
// CHECK-DAG: llvm.func @distrt_grid_lookup(!llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
