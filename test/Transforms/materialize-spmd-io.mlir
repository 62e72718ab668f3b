// RUN: dist-opt %s --dist-materialize-spmd | FileCheck %s
// dist.load / dist.store become one runtime call each on the local tile,
// with the layout descriptor and the path as constants.

dist.grid @m [2, 2]
!T = !dist.tensor<10x7xf32, #dist.layout<@m, "[(1),(0)]">>

// CHECK-DAG: llvm.mlir.global internal constant @[[DESC:__dist_desc_[0-9]+]](dense<[2, 10, 2, 0, 1, 1, 7, 2, 0, 1, 0, 0]> : tensor<12xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[IN:__dist_str_[0-9]+]]("in/b.dtensor\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[OUT:__dist_str_[0-9]+]]("out.dtensor\00")
// CHECK-LABEL: func.func @main
// CHECK: %[[TILE:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: %[[D1:.*]] = llvm.mlir.addressof @[[DESC]]
// CHECK: %[[P1:.*]] = llvm.mlir.addressof @[[IN]]
// CHECK: call @distrt_layout_load(%{{.*}}, %[[D1]], %{{.*}}, %c0_i64{{.*}}, %[[P1]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: %[[P2:.*]] = llvm.mlir.addressof @[[OUT]]
// CHECK: call @distrt_layout_store(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %[[P2]])
// CHECK: memref.dealloc %[[TILE]]
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.load %t from "in/b.dtensor" : !T
  dist.store %t to "out.dtensor" : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
