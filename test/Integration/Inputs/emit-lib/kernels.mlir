// Two library functions on two grids (test/Integration/emit-lib.test):
// @gemm, C = A * B on a 2x2 grid (SUMMA), and @gemm_pair, the same product
// at another size on a 1x2 grid, called on pairs of processes.
dist.grid @m [2, 2]
dist.grid @p [1, 2]

!C = !dist.tensor<100x60xf64, #dist.layout<@m, "xy -> xy">>
!A = !dist.tensor<100x70xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<70x60xf64, #dist.layout<@m, "xy -> xy">>

func.func @gemm(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 35),
                reorder({ko, ii, ji, ki}),
                communicate(C, jo), communicate({A, B}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !C, !A, !B
  return
}

!PC = !dist.tensor<30x41xf64, #dist.layout<@p, "xy -> xy">>
!PA = !dist.tensor<30x16xf64, #dist.layout<@p, "xy -> xy">>
!PB = !dist.tensor<16x41xf64, #dist.layout<@p, "xy -> xy">>

func.func @gemm_pair(%c: !PC, %a: !PA, %b: !PB) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(1, 2)),
                split(k, ko, ki, 8),
                reorder({ko, ii, ji, ki}),
                communicate(C, jo), communicate({A, B}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !PC, !PA, !PB
  return
}
