// proptest: seed 1 index 474 ranks 8
// proptest-coverage: a one-sided mistake: one tensor as both operands, refused with the message its proptest-expect-error line names (the corpus checks that line too)
// proptest-onesided: stationary(Y), prefetch(2), offset(off)
// proptest-options: --insert-redistributions off
// proptest-mistake: same-tensor
// proptest-expect-error: one-sided product cannot be lowered: A, B and C must be three different tensors

dist.grid @g_s1_i474 [4, 2]
!s1_i474_C = !dist.tensor<15x15xf64, #dist.layout<@g_s1_i474, "xy -> x*">>
!s1_i474_Y = !dist.tensor<15x15xf64, #dist.layout<@g_s1_i474, [(), (1, 0) blocked]>>
func.func @pt_s1_i474(%C: !s1_i474_C, %Y: !s1_i474_Y) {
  dist.compute "C(q,r) = Y(q,k) * Y(k,r)" (C = %C, Y = %Y)
      schedule [stationary(Y),
                prefetch(2),
                offset(off)]
      : !s1_i474_C, !s1_i474_Y
  return
}

func.func @main() -> i32 {
  // computation s1_i474
  %s1_i474_C = dist.alloc : !s1_i474_C
  %s1_i474_Y = dist.alloc : !s1_i474_Y
  dist.fill %s1_i474_C seed 4741 : !s1_i474_C
  dist.fill %s1_i474_Y seed 4742 : !s1_i474_Y
  func.call @pt_s1_i474(%s1_i474_C, %s1_i474_Y) : (!s1_i474_C, !s1_i474_Y) -> ()
  dist.store %s1_i474_C to "out_s1_i474.dtensor" : !s1_i474_C
  %ok = arith.constant 0 : i32
  return %ok : i32
}
