// proptest: seed 1 index 261 ranks 6
// proptest-coverage: a one-sided product (stationary(C), C being the statement's A operand; prefetch(2)) on a 3x2 grid with transposed-grid, cyclic and block-cyclic layouts and sizes that do not divide the grid; the generator's one-sided kind (gen.generate_onesided)
// proptest-onesided: stationary(C), prefetch(2)

dist.grid @g_s1_i261 [3, 2]
!s1_i261_Out = !dist.tensor<12x3xf64, #dist.layout<@g_s1_i261, "xy -> yx">>
!s1_i261_B = !dist.tensor<17x3xf64, #dist.layout<@g_s1_i261, "xy -> *x" cyclic>>
!s1_i261_C = !dist.tensor<12x17xf64, #dist.layout<@g_s1_i261, "xy -> xy" block_cyclic(3)>>
func.func @pt_s1_i261(%Out: !s1_i261_Out, %B: !s1_i261_B, %C: !s1_i261_C) {
  dist.compute "Out(kk,p) = B(m,p) * C(kk,m)" (Out = %Out, B = %B, C = %C)
      schedule [stationary(C),
                prefetch(2)]
      : !s1_i261_Out, !s1_i261_B, !s1_i261_C
  return
}

func.func @main() -> i32 {
  // computation s1_i261
  %s1_i261_Out = dist.alloc : !s1_i261_Out
  %s1_i261_B = dist.alloc : !s1_i261_B
  %s1_i261_C = dist.alloc : !s1_i261_C
  dist.fill %s1_i261_Out seed 2611 : !s1_i261_Out
  dist.fill %s1_i261_B seed 2612 : !s1_i261_B
  dist.fill %s1_i261_C seed 2613 : !s1_i261_C
  func.call @pt_s1_i261(%s1_i261_Out, %s1_i261_B, %s1_i261_C) : (!s1_i261_Out, !s1_i261_B, !s1_i261_C) -> ()
  dist.store %s1_i261_Out to "out_s1_i261.dtensor" : !s1_i261_Out
  %ok = arith.constant 0 : i32
  return %ok : i32
}
