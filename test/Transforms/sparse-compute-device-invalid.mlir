// RUN: dist-opt %s -split-input-file --dist-materialize-spmd=device=gpu -verify-diagnostics
// On device tiles the runtime runs a sparse product (cuSPARSE); a matrix
// stored with a non-zero partition is not lowered there yet, and the
// lowering says so at the computation.

dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!a = !dist.tensor<5xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<5x6xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<6xf64, #dist.layout<@m, "x -> *">>
func.func @dev(%a: !a, %b: !B, %c: !c) {
  // expected-error @+1 {{sparse computation cannot be lowered: a matrix stored or scheduled with a non-zero partition ('B') on device tiles is not supported yet}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, B),
                distribute({fp}, {fo}, {fi}, Grid(2))]
      : !a, !B, !c
  return
}
