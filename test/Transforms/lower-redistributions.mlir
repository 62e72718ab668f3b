// RUN: dist-opt %s --dist-lower-redistributions -split-input-file | FileCheck %s
// RUN: not dist-opt %s --dist-lower-redistributions=redistribution=fast -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// dist-lower-redistributions alone: each dist.redistribute becomes its
// plan's steps on the local tiles of its source and destination
// (dist.local_tile); the tensors, their allocation and the functions'
// signatures stay for dist-tensors-to-tiles.

// BAD: redistribution='fast' is not 'balanced' or 'general'

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>

// CHECK-LABEL: func.func @allgather
// CHECK-SAME: (%[[A:.*]]: !dist.tensor<16x16xf64, {{.*}}>, %[[B:.*]]: !dist.tensor<16x16xf64, {{.*}}>)
// CHECK-DAG: %[[TA:.*]] = dist.local_tile %[[A]] : {{.*}} -> memref<?xf64>
// CHECK-DAG: %[[TB:.*]] = dist.local_tile %[[B]] : {{.*}} -> memref<?xf64>
// CHECK: dist.redist_allgather %[[TA]] into %[[TB]] axes
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @allgather(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @m [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!D = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> yx">>

// A redistribution between allocated tensors: the allocations stay.
// CHECK-LABEL: func.func @local
// CHECK: %[[A:.*]] = dist.alloc
// CHECK: dist.local_tile %[[A]]
// CHECK: %[[B:.*]] = dist.alloc
// CHECK: dist.local_tile %[[B]]
// CHECK-NOT: dist.redistribute
// CHECK: dist.fill %[[A]]
func.func @local() {
  %a = dist.alloc : !S
  %b = dist.alloc : !D
  dist.fill %a seed 1 : !S
  dist.redistribute %a into %b : !S into !D
  return
}
