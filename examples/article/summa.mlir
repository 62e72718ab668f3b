// The polyhedral article's SUMMA: C[m, n] = A[m, k] * B[k, n] on a 2-D mesh
// with A sharded (m @ x, k @ y), B (k @ x, n @ y), C (m @ x, n @ y),
//   distribute([m, n], [mo, no], [mi, ni], Mesh(x, y))
//   .divide(k, ko, ki, x.extent).reorder(mo, no, ko, mi, ni, ki)
//   .communicate('A', ko).communicate('B', ko).tensorize([mi, ni, ki], MatMul)
// The article runs it on an 8x8 mesh; here 2x2 (sed the extents to scale).
// At each ko step A's panel is broadcast along grid rows, B's along columns.
//
//   dist-run -np 4 --check examples/article/summa.mlir

dist.grid @mesh [2, 2]

!A = !dist.tensor<64x128xf64, #dist.layout<@mesh, "mk -> mk">>
!B = !dist.tensor<128x96xf64, #dist.layout<@mesh, "kn -> kn">>
!C = !dist.tensor<64x96xf64, #dist.layout<@mesh, "mn -> mn">>

func.func @summa(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({m, n}, {mo, no}, {mi, ni}, Grid(2, 2)),
                divide(k, ko, ki, 2),
                reorder({mo, no, ko, mi, ni, ki}),
                communicate({A, B}, ko), communicate(C, no),
                substitute({mi, ni, ki}, gemm)]
      : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @summa(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
