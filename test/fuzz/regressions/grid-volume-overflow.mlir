// Found by dist-fuzz (UBSan signed-integer-overflow): nothing bounds the
// number of processors of a grid, and buildComputeModel
// (lib/Analysis/Communication.cpp) multiplies the extents in int64.
dist.grid @m [4611686018427387904, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !T, !T, !T
  return
}
