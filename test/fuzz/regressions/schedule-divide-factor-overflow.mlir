// Found by dist-fuzz (UBSan signed-integer-overflow, in the verifier): the
// schedule model computes ceil(n / factor) as (n + factor - 1) / factor
// (ScheduleApplier::divideOrSplit, lib/Dialect/Dist/IR/Schedule.cpp), which
// overflows int64 for a factor near INT64_MAX. Parsing alone reaches it.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(k, ko, ki, 9223372036854775807)] : !T, !T, !T
  return
}
