// Found by dist-fuzz (UBSan signed-integer-overflow, in the verifier): as
// schedule-divide-factor-overflow.mlir, for split's outer extent
// (n + factor - 1) / factor (lib/Dialect/Dist/IR/Schedule.cpp).
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [split(k, ko, ki, 9223372036854775807)] : !T, !T, !T
  return
}
