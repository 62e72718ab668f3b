// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -verify-diagnostics | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=redistribution=general -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=GEN
// The ops partial-sum redistributions lower to: the thesis' reduction over
// the freed modes (the grid axes; the summed dimensions), straight into the
// destination or into the kept layout followed by a redistribution. With
// redistribution=general: always an allreduce into the kept layout, then
// the general exchange.

dist.grid @p [2, 2, 2, 1]
!T = !dist.tensor<12x10x16xf64, #dist.layout<@p, "[(),(2,3),(0,1)]">>
!G = !dist.tensor<12x10xf64, #dist.layout<@p, "[(0,1),(2,3)]">>
// Fig. 5.3: reduce-scatter over modes {0, 1}, summing dim 2.
// CHECK-LABEL: func.func @fig5_3
// CHECK: dist.redist_reduce_scatter %{{.*}} into %{{.*}} axes [0, 1] sum [2] : memref<?xf64> of !dist.tensor<12x10x16xf64, #dist.layout<@p, [(), (2, 3), (0, 1)]>> into memref<?xf64> of !dist.tensor<12x10xf64, #dist.layout<@p, [(0, 1), (2, 3)]>>
// CHECK-NOT: dist.redist
// CHECK: return
// GEN-LABEL: func.func @fig5_3
// GEN: dist.redist_allreduce
// GEN: dist.redistribute_tile
func.func @fig5_3(%t: !T, %g: !G) {
  dist.redistribute %t into %g sum [2] : !T into !G
  return
}

// -----

dist.grid @p [2, 2, 2]
!T = !dist.tensor<6x5x7xf64, #dist.layout<@p, "[(0),(1),(2)]">>
!G01 = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),(1)]">>
!Groot = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),(1)]|(2)">>
!G10 = !dist.tensor<6x5xf64, #dist.layout<@p, "[(1),(0)]">>
!Gblk = !dist.tensor<6x5xf64, #dist.layout<@p, "xy -> xy*">>

// CHECK-LABEL: func.func @allreduce
// CHECK: dist.redist_allreduce %{{.*}} into %{{.*}} axes [2] sum [2]
// CHECK-NOT: dist.redist
// CHECK: return
func.func @allreduce(%t: !T, %g: !G01) {
  dist.redistribute %t into %g sum [2] : !T into !G01
  return
}

// The reduce-to-one destination layout fixes axis 2 to 0.
// CHECK-LABEL: func.func @reduce_to_one
// CHECK: dist.redist_reduce %{{.*}} into %{{.*}} axes [2] sum [2] : {{.*}} into memref<?xf64> of !dist.tensor<6x5xf64, #dist.layout<@p, [(0), (1)] | (2 = 0)>>
// CHECK-NOT: dist.redist
// CHECK: return
func.func @reduce_to_one(%t: !T, %g: !Groot) {
  dist.redistribute %t into %g sum [2] : !T into !Groot
  return
}

// CHECK-LABEL: func.func @allreduce_then_permute
// CHECK: %[[K:.*]] = memref.alloc
// CHECK: dist.redist_allreduce %{{.*}} into %[[K]] axes [2] sum [2]
// CHECK: dist.redist_permute %[[K]] into %{{.*}} axes [0, 1]
// CHECK: memref.dealloc %[[K]]
func.func @allreduce_then_permute(%t: !T, %g: !G10) {
  dist.redistribute %t into %g sum [2] : !T into !G10
  return
}

// CHECK-LABEL: func.func @allreduce_then_general
// CHECK: dist.redist_allreduce
// CHECK: dist.redistribute_tile
func.func @allreduce_then_general(%t: !T, %g: !Gblk) {
  dist.redistribute %t into %g sum [2] : !T into !Gblk
  return
}

// -----

dist.grid @p [2, 2]
!T = !dist.tensor<8x8x4xf64, #dist.layout<@p, "xyz -> zy">>
!G = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> xy">>
// Blocked partial sums (blocks of two along z) are outside the thesis' rules.
func.func @blocked(%t: !T, %g: !G) {
  // expected-error @+1 {{cannot lower this partial-sum redistribution: the partial-sum source must be elemental-cyclic (mode tuples) with no fixed grid axes}}
  dist.redistribute %t into %g sum [2] : !T into !G
  return
}
