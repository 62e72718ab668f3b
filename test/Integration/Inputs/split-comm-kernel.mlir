// The kernel of split-comm.test: SUMMA on a 1x2 grid (broadcasts on cached
// sub-communicators and a GEMM), compiled with check=1 so that every call
// compares its product with the runtime's reference on grid rank 0.

dist.grid @m [1, 2]

!T = !dist.tensor<16x16xf64, #dist.layout<@m, "xy -> xy">>

func.func @kernel() {
  %a = dist.alloc : !T
  %b = dist.alloc : !T
  %c = dist.alloc : !T
  dist.fill %b seed 1 : !T
  dist.fill %c seed 2 : !T
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(1, 2)),
                split(k, ko, ki, 8), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !T, !T, !T
  return
}
