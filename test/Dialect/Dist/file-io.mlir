// RUN: dist-opt %s | dist-opt | FileCheck %s
// dist.load / dist.store round-trip through the printer and parser.

dist.grid @m [2, 2]
!T = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> xy">>
!S = !dist.tensor<f32, #dist.layout<@m, " -> **">>

// CHECK-LABEL: func.func @io
// CHECK: dist.load %{{.*}} from "in/b.dtensor" : !dist.tensor<8x6xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
// CHECK: dist.store %{{.*}} to "/tmp/out.dtensor" : !dist.tensor<8x6xf64
// CHECK: dist.load %{{.*}} from "s.dtensor" : !dist.tensor<f32
func.func @io(%t: !T, %s: !S) {
  dist.load %t from "in/b.dtensor" : !T
  dist.store %t to "/tmp/out.dtensor" : !T
  dist.load %s from "s.dtensor" : !S
  return
}
