// Found by an audit of integer divisions (SIGFPE): the one-sided
// matricization (lib/Dialect/Dist/IR/OneSided.cpp) took the extent modulo
// block * processes, which wrapped to 0, inside dist.compute's verifier:
// parsing the file crashed. Now a diagnostic (the cycle does not divide).
dist.grid @m [4]
!C = !dist.tensor<4x2x8xf64, #dist.layout<@m, [(), (), (0) block_cyclic(4611686018427387904)]>>
!A = !dist.tensor<4x4xf64, #dist.layout<@m, [(0) blocked, ()]>>
!B = !dist.tensor<4x2x8xf64, #dist.layout<@m, [(0) blocked, (), ()]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j,l) = A(i,k) * B(k,j,l)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}
