// dist-auto-schedule counts the redistributions dist-insert-redistributions
// will put around a computation (docs/autoschedule.md): B's columns are
// blocked, so distributing i needs B's rows. With insertions on (the
// default), B is redistributed once (the planner's 1.43e-05 s on the
// default numbers, plus 1.64e-05 s of copying its 16384 elements a process
// once) and its pieces are then broadcast per step; with them off, B moves
// with the general exchange at every step (more latency, no
// redistribution). The grid stays (grid-shapes=0; the other shapes are
// test/Transforms/auto-schedule-grids.mlir's).
//
// RUN: dist-opt %s --dist-auto-schedule="report=1 grid-shapes=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
// RUN: dist-opt %s --dist-auto-schedule="report=1 insert-redistributions=0 grid-shapes=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: dist-opt %s --dist-auto-schedule=grid-shapes=0 | FileCheck %s --check-prefix=CHOSEN

// ON: remark: schedule auto: chosen of 11: predicted 0.000962 s (compute 0.000839, latency 1.6e-05, bandwidth 0.000147, redistribution 3.07e-05, hidden 7.13e-05): [distribute({i}, {io}, {ii}, Grid(4)), divide(k, ko, ki, 8), reorder({ko, ii, j, ki}), communicate(A, io), communicate({B, C}, ko), substitute({ii, j, ki}, gemm)]
// OFF: remark: schedule auto: chosen of 11: predicted 0.000936 s (compute 0.000839, latency 4e-05, bandwidth 0.000164, redistribution 0, hidden 0.000107): [distribute({i}, {io}, {ii}, Grid(4)), divide(k, ko, ki, 8), reorder({ko, ii, j, ki}), communicate(A, io), communicate({B, C}, ko), substitute({ii, j, ki}, gemm)]
// CHOSEN: schedule [distribute({i}, {io}, {ii}, Grid(4)), divide(k, ko, ki, 8), reorder({ko, ii, j, ki}), communicate(A, io), communicate({B, C}, ko), substitute({ii, j, ki}, gemm)]

dist.grid @r [4]
!R = !dist.tensor<256x256xf64, #dist.layout<@r, "xy -> x">>
!K = !dist.tensor<256x256xf64, #dist.layout<@r, "xy -> y">>
func.func @cols(%a: !R, %b: !K, %c: !R) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !R, !K, !R
  return
}
