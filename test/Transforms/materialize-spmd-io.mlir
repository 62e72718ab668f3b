// RUN: dist-opt %s --dist-materialize-spmd | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd --convert-dist-to-runtime | FileCheck %s --check-prefix=RT
// dist.load / dist.store become dist.load_tile / dist.store_tile on the
// local tile, and then one runtime call each, with the layout descriptor
// and the path as constants.

dist.grid @m [2, 2]
!T = !dist.tensor<10x7xf32, #dist.layout<@m, "[(1),(0)]">>

// CHECK-LABEL: func.func @main
// CHECK: %[[TILE:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: dist.load_tile %[[TILE]] from "in/b.dtensor" : memref<?xf32> of !dist.tensor<10x7xf32, #dist.layout<@m, [(1), (0)]>>
// CHECK: dist.store_tile %[[TILE]] to "out.dtensor" : memref<?xf32> of !dist.tensor<10x7xf32, #dist.layout<@m, [(1), (0)]>>
// CHECK: memref.dealloc %[[TILE]]

// RT-DAG: llvm.mlir.global internal constant @[[DESC:__dist_desc_[0-9]+]](dense<[2, 10, 2, 0, 1, 1, 7, 2, 0, 1, 0, 0]> : tensor<12xi64>)
// RT-DAG: llvm.mlir.global internal constant @[[IN:__dist_str_[0-9]+]]("in/b.dtensor\00")
// RT-DAG: llvm.mlir.global internal constant @[[OUT:__dist_str_[0-9]+]]("out.dtensor\00")
// RT-LABEL: func.func @main
// RT: %[[TILE:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// RT: %[[D1:.*]] = llvm.mlir.addressof @[[DESC]]
// RT: %[[F32:.*]] = llvm.mlir.constant(0 : i64) : i64
// RT: %[[P1:.*]] = llvm.mlir.addressof @[[IN]]
// RT: llvm.call @distrt_layout_load(%{{.*}}, %[[D1]], %{{.*}}, %[[F32]], %[[P1]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// RT: %[[P2:.*]] = llvm.mlir.addressof @[[OUT]]
// RT: llvm.call @distrt_layout_store(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[P2]])
// RT: memref.dealloc %[[TILE]]
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.load %t from "in/b.dtensor" : !T
  dist.store %t to "out.dtensor" : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
