// Found by dist-fuzz (UBSan signed-integer-overflow): a tensor whose element
// count does not fit in int64 verifies, and Box::volume
// (lib/Analysis/Communication.cpp) overflows computing a tile's size, which
// then sizes the communication buffers.
dist.grid @m [2, 2]
!a = !dist.tensor<f64, #dist.layout<@m, " -> **">>
!B = !dist.tensor<4611686018427387904x32x32xf64, #dist.layout<@m, "xyz -> xy">>
func.func @f(%a: !a, %b: !B, %c: !B) {
  dist.compute "a = B(i,j,k) * C(i,j,k)" (a = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !a, !B, !B
  return
}
