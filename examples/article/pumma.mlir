// The polyhedral article's PUMMA: the SUMMA program with the k loop rotated
// by the mesh's y coordinate (the article's communicate('A', ko, [no])):
// A's panels then travel systolically along grid rows while B's are still
// broadcast along grid columns.
//
//   dist-run -np 4 --check examples/article/pumma.mlir

dist.grid @mesh [2, 2]

!A = !dist.tensor<64x128xf64, #dist.layout<@mesh, "mk -> mk">>
!B = !dist.tensor<128x96xf64, #dist.layout<@mesh, "kn -> kn">>
!C = !dist.tensor<64x96xf64, #dist.layout<@mesh, "mn -> mn">>

func.func @pumma(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({m, n}, {mo, no}, {mi, ni}, Grid(2, 2)),
                divide(k, ko, ki, 2),
                reorder({mo, no, ko, mi, ni, ki}),
                rotate(ko, {no}, kor),
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
  func.call @pumma(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
