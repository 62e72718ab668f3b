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

// C = A * B on ScaLAPACK arrays (column-major, 2-D block-cyclic on a 2x2
// BLACS grid): C 37x29 in 5x2 blocks, A 37x23 in 4x5, B 23x29 in 3x7.
// dist sees a column-major M x N array with MB x NB blocks as the row-major
// N x M tensor [(1) block_cyclic(NB), (0) block_cyclic(MB)]
// (distrt_layout_from_scalapack), so C^T = B^T * A^T on those tensors, with
// the one-sided product (any layouts).
!BC = !dist.tensor<29x37xf64, #dist.layout<@m, [(1) block_cyclic(2), (0) block_cyclic(5)]>>
!BB = !dist.tensor<29x23xf64, #dist.layout<@m, [(1) block_cyclic(7), (0) block_cyclic(3)]>>
!BA = !dist.tensor<23x37xf64, #dist.layout<@m, [(1) block_cyclic(5), (0) block_cyclic(4)]>>

func.func @gemm_bc(%ct: !BC, %bt: !BB, %at: !BA) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %ct, A = %bt, B = %at)
      schedule [stationary(auto), prefetch(2)] : !BC, !BB, !BA
  return
}
