// Found by dist-fuzz (UBSan signed-integer-overflow): as
// grid-volume-overflow.mlir, in analyzeCommunication's processor count P
// (lib/Analysis/Communication.cpp). The normal build wraps P to a negative
// number, analyses no processor at all and lowers the program anyway.
// (distribute() also accepts 2^62 parts for a loop of 9 iterations.)
dist.grid @g [3, 4611686018427387904]
!N = !dist.tensor<9x9xf64, #dist.layout<@g, "xy -> xy">>
func.func @f(%a: !N, %b: !N, %c: !N) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @g)] : !N, !N, !N
  return
}
