// Library functions with dynamic (call-time) extents
// (test/Integration/emit-lib-dynamic.test): one-sided products whose M, N
// and K are given at call time, on the 1x1, 1x2 and 2x2 grids (one per
// process count the test runs on).
//
// @gemm_P: C = A * B, every extent dynamic, C stationary; C blocked over
// both axes, A's rows block-cyclic(3) over axis 0 (copies over axis 1), B's
// columns cyclic over both axes (axis 0 fastest).
// @gemm_acc_P: C += A * B, M and N dynamic and K = 24 static, B stationary;
// C block-cyclic(2, 5), A blocked rows over both axes, B blocked columns.
dist.grid @g1 [1, 1]
dist.grid @g2 [1, 2]
dist.grid @g4 [2, 2]

!C1 = !dist.tensor<?x?xf64, #dist.layout<@g1, "xy -> xy">>
!A1 = !dist.tensor<?x?xf64, #dist.layout<@g1, [(0) block_cyclic(3), ()]>>
!B1 = !dist.tensor<?x?xf64, #dist.layout<@g1, [(), (0, 1) cyclic]>>
func.func @gemm_1(%c: !C1, %a: !A1, %b: !B1) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), prefetch(2)] : !C1, !A1, !B1
  return
}

!C2 = !dist.tensor<?x?xf64, #dist.layout<@g2, "xy -> xy">>
!A2 = !dist.tensor<?x?xf64, #dist.layout<@g2, [(0) block_cyclic(3), ()]>>
!B2 = !dist.tensor<?x?xf64, #dist.layout<@g2, [(), (0, 1) cyclic]>>
func.func @gemm_2(%c: !C2, %a: !A2, %b: !B2) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), prefetch(2)] : !C2, !A2, !B2
  return
}

!C4 = !dist.tensor<?x?xf64, #dist.layout<@g4, "xy -> xy">>
!A4 = !dist.tensor<?x?xf64, #dist.layout<@g4, [(0) block_cyclic(3), ()]>>
!B4 = !dist.tensor<?x?xf64, #dist.layout<@g4, [(), (0, 1) cyclic]>>
func.func @gemm_4(%c: !C4, %a: !A4, %b: !B4) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), prefetch(2)] : !C4, !A4, !B4
  return
}

!D1 = !dist.tensor<?x?xf64, #dist.layout<@g1, [(0) block_cyclic(2), (1) block_cyclic(5)]>>
!E1 = !dist.tensor<?x24xf64, #dist.layout<@g1, [(0, 1) blocked, ()]>>
!F1 = !dist.tensor<24x?xf64, #dist.layout<@g1, [(), (1, 0) blocked]>>
func.func @gemm_acc_1(%c: !D1, %a: !E1, %b: !F1) {
  dist.compute "C(i,j) += A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(B), offset(off)] : !D1, !E1, !F1
  return
}

!D2 = !dist.tensor<?x?xf64, #dist.layout<@g2, [(0) block_cyclic(2), (1) block_cyclic(5)]>>
!E2 = !dist.tensor<?x24xf64, #dist.layout<@g2, [(0, 1) blocked, ()]>>
!F2 = !dist.tensor<24x?xf64, #dist.layout<@g2, [(), (1, 0) blocked]>>
func.func @gemm_acc_2(%c: !D2, %a: !E2, %b: !F2) {
  dist.compute "C(i,j) += A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(B), offset(off)] : !D2, !E2, !F2
  return
}

!D4 = !dist.tensor<?x?xf64, #dist.layout<@g4, [(0) block_cyclic(2), (1) block_cyclic(5)]>>
!E4 = !dist.tensor<?x24xf64, #dist.layout<@g4, [(0, 1) blocked, ()]>>
!F4 = !dist.tensor<24x?xf64, #dist.layout<@g4, [(), (1, 0) blocked]>>
func.func @gemm_acc_4(%c: !D4, %a: !E4, %b: !F4) {
  dist.compute "C(i,j) += A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(B), offset(off)] : !D4, !E4, !F4
  return
}

// ScaLAPACK arrays of any size: a column-major M x N array in 5 x 2 blocks
// on a 2x2 BLACS grid is the row-major N x M tensor
// [(1) block_cyclic(2), (0) block_cyclic(5)] (docs/interop.md), so this
// function's arguments adopt such arrays whatever M and N
// (sl_4_adopts_scalapack; the driver checks it on 4 ranks).
!SC = !dist.tensor<?x?xf64, #dist.layout<@g4, [(1) block_cyclic(2), (0) block_cyclic(5)]>>
!SA = !dist.tensor<?x?xf64, #dist.layout<@g4, [(1) block_cyclic(2), (0) block_cyclic(3)]>>
!SB = !dist.tensor<?x?xf64, #dist.layout<@g4, [(1) block_cyclic(3), (0) block_cyclic(5)]>>
func.func @sl_4(%c: !SC, %a: !SA, %b: !SB) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !SC, !SA, !SB
  return
}
