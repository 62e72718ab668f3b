// RUN: dist-opt %s --dist-report-communication -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// The lowering says why a tensor moves with the general exchange.
// The analysis does not depend on tensor extents (constant-time ownership
// per dimension), and gives up - using the general exchange - instead of
// enumerating more than 2^18 (processor, step) pairs.

dist.grid @m [2]
!T = !dist.tensor<1099511627776xf64, #dist.layout<@m, "x -> x">>
// CHECK: remark: A (output): local, once (1 step, up to 549755813888 elements)
// CHECK: remark: B: local, once
func.func @f(%a: !T, %b: !T) {
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x131072xf64, #dist.layout<@m, "xy -> xy">>
!C = !dist.tensor<131072x8xf64, #dist.layout<@m, "xy -> xy">>
// CHECK: remark: B: general, at each iteration of 'ko' (131072 steps, too many to classify)
// LOWER: remark: tensor 'B' moves with the general exchange: 4 processors x 131072 steps are more (processor, step) pairs than the analysis classifies (2^18)
// LOWER: remark: tensor 'C' moves with the general exchange: 4 processors x 131072 steps
func.func @f(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 1), reorder({ko, ii, ji, ki}),
                communicate({B, C}, ko)] : !A, !B, !C
  return
}
