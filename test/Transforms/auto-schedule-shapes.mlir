// The grid shapes dist-auto-schedule tries besides the tensors' own
// (docs/autoschedule.md, "Other grid shapes").
//
// RUN: dist-opt %s --dist-auto-schedule=report=100000 -o /dev/null 2>&1 | FileCheck %s

// 16,384 processes on a 128 x 128 grid: the other shapes are [16384], the
// most nearly square 64 x 256 and the two most nearly cubic, 16 x 32 x 32
// and 16 x 16 x 64 (at most five whatever the count; nothing here grows
// with it).
dist.grid @big [128, 128]
!G = !dist.tensor<4096x4096xf64, #dist.layout<@big, "xy -> xy">>
// CHECK-DAG: on @auto_grid_16384{{$}}
// CHECK-DAG: on @auto_grid_64x256{{$}}
// CHECK-DAG: on @auto_grid_16x32x32{{$}}
// CHECK-DAG: on @auto_grid_16x16x64{{$}}
// CHECK-NOT: on @auto_grid_128x128
// CHECK-NOT: on @auto_grid_32x512
func.func @gemm_big(%a: !G, %b: !G, %c: !G) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !G, !G, !G
  return
}
