// dist-auto-schedule counts the redistributions dist-insert-redistributions
// will put around a computation (docs/autoschedule.md): B's columns are
// blocked, so distributing i needs B's rows; with insertions on (the
// default), B is redistributed once (the planner's 1.43e-05 s on the
// default numbers) and read locally, which beats the one-sided product;
// with them off, B would move with the general exchange at every call, and
// the one-sided product wins.
//
// RUN: dist-opt %s --dist-auto-schedule=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// RUN: dist-opt %s --dist-auto-schedule="report=1 insert-redistributions=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: dist-opt %s --dist-auto-schedule | FileCheck %s --check-prefix=CHOSEN

// ON: remark: schedule auto: chosen of 11: predicted 0.000904 s (compute 0.000839, latency 2e-06, bandwidth 4.92e-05, redistribution 1.43e-05): [distribute({i}, {io}, {ii}, Grid(4)), communicate({A, B, C}, io), substitute({ii, j, k}, gemm)]
// OFF: remark: schedule auto: chosen of 11: predicted 0.000906 s (compute 0.000839, latency 6e-06, bandwidth 6.14e-05, redistribution 0): [stationary(auto)]
// CHOSEN: schedule [distribute({i}, {io}, {ii}, Grid(4)), communicate({A, B, C}, io), substitute({ii, j, k}, gemm)]

dist.grid @r [4]
!R = !dist.tensor<256x256xf64, #dist.layout<@r, "xy -> x">>
!K = !dist.tensor<256x256xf64, #dist.layout<@r, "xy -> y">>
func.func @cols(%a: !R, %b: !K, %c: !R) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !R, !K, !R
  return
}
