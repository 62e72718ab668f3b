// Found by dist-fuzz (out of memory; the normal build aborts with "LLVM
// ERROR: out of memory"): divide() accepts more parts than the loop has
// iterations, so ko has 2^32 steps, and analyzeCommunication
// (lib/Analysis/Communication.cpp) allocates a box for every (processor,
// step) pair before looking at any of them. With 10^6 parts it takes
// seconds and gigabytes instead.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 4294967296), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko)] : !T, !T, !T
  return
}
