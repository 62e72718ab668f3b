// The polyhedral article's Cannon: the article pre-skews the data
// (A sharded k @ ((x + y) mod g), B likewise) so that no alignment is needed.
// dist's layouts do not express skewed shardings yet; the same algorithm is
// written with DISTAL's rotate on plain tiles: every processor starts at
// chunk (x + y) mod g, an initial alignment exchange brings the skewed
// panels, and both A and B then shift systolically.
//
//   dist-run -np 4 --check examples/article/cannon.mlir

dist.grid @mesh [2, 2]

!A = !dist.tensor<64x128xf64, #dist.layout<@mesh, "mk -> mk">>
!B = !dist.tensor<128x96xf64, #dist.layout<@mesh, "kn -> kn">>
!C = !dist.tensor<64x96xf64, #dist.layout<@mesh, "mn -> mn">>

func.func @cannon(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({m, n}, {mo, no}, {mi, ni}, Grid(2, 2)),
                divide(k, ko, ki, 2),
                reorder({mo, no, ko, mi, ni, ki}),
                rotate(ko, {mo, no}, kor),
                communicate({A, B}, kor), communicate(C, no),
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
  func.call @cannon(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
