// RUN: dist-opt %s | dist-opt | FileCheck %s

dist.grid @m [2, 2]
dist.grid @l [4]
!Tiles = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!Rows = !dist.tensor<8x8xf64, #dist.layout<@l, "xy -> x">>
// CHECK-LABEL: func @f
// CHECK: dist.redistribute %{{.*}} into %{{.*}} : !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>> into !dist.tensor<8x8xf64, #dist.layout<@l, [(0) blocked, ()]>>
func.func @f(%a: !Tiles, %b: !Rows) {
  dist.redistribute %a into %b : !Tiles into !Rows
  return
}

// A partial-sum temporary summed over its distributed dimension 2.
!T3 = !dist.tensor<8x8x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G2 = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>
// CHECK-LABEL: func @sum
// CHECK: dist.redistribute %{{.*}} into %{{.*}} sum [2] : !dist.tensor<8x8x4xf64, #dist.layout<@m, [(), (1), (0)]>> into !dist.tensor<8x8xf64, #dist.layout<@m, [(0), (1)]>>
func.func @sum(%a: !T3, %b: !G2) {
  dist.redistribute %a into %b sum [2] : !T3 into !G2
  return
}
