// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -verify-diagnostics | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=redistribution=general -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=GEN
// The runtime calls partial-sum redistributions lower to: the thesis'
// reduction over the freed modes (bit mask; summed dimensions as a second
// mask), straight into the destination or into the kept layout followed by
// a redistribution. With redistribution=general: always an allreduce into
// the kept layout, then the general exchange.

dist.grid @p [2, 2, 2, 1]
!T = !dist.tensor<12x10x16xf64, #dist.layout<@p, "[(),(2,3),(0,1)]">>
!G = !dist.tensor<12x10xf64, #dist.layout<@p, "[(0,1),(2,3)]">>
// Fig. 5.3: reduce-scatter over modes {0, 1} (mask 3), summing dim 2
// (mask 4).
// CHECK-LABEL: func.func @fig5_3
// CHECK-DAG: %[[AX:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[SUM:.*]] = arith.constant 4 : i64
// CHECK: call @distrt_redist_reduce_scatter(%{{.*}}, %[[AX]], %[[SUM]],
// CHECK-NOT: call @distrt_redist
// CHECK: return
// GEN-LABEL: func.func @fig5_3
// GEN: call @distrt_redist_allreduce(
// GEN: call @distrt_redistribute(
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
// CHECK: call @distrt_redist_allreduce(
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @allreduce(%t: !T, %g: !G01) {
  dist.redistribute %t into %g sum [2] : !T into !G01
  return
}

// The reduce-to-one destination descriptor fixes axis 2 to 0: [.., 1, 2, 0].
// CHECK-LABEL: func.func @reduce_to_one
// CHECK: call @distrt_redist_reduce(
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @reduce_to_one(%t: !T, %g: !Groot) {
  dist.redistribute %t into %g sum [2] : !T into !Groot
  return
}

// CHECK-LABEL: func.func @allreduce_then_permute
// CHECK: memref.alloc
// CHECK: call @distrt_redist_allreduce(
// CHECK: call @distrt_redist_permute(
// CHECK: memref.dealloc
func.func @allreduce_then_permute(%t: !T, %g: !G10) {
  dist.redistribute %t into %g sum [2] : !T into !G10
  return
}

// CHECK-LABEL: func.func @allreduce_then_general
// CHECK: call @distrt_redist_allreduce(
// CHECK: call @distrt_redistribute(
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
