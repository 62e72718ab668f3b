// Found by dist-fuzz (UBSan signed-integer-overflow, in the verifier):
// split() made the inner loop as long as the chunk (2^62) even for 8
// iterations, and collapse() multiplied the two extents in int64
// (lib/Dialect/Dist/IR/Schedule.cpp). Parsing alone reaches it.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), split(j, jo, ji, 4611686018427387904),
                reorder({io, jo, ii, ji}), collapse(ii, ji, f)] : !T, !T, !T
  return
}
