// The polyhedral article's Cannon: A is sharded m @ x, k @ ((x + y) mod g)
// and B k @ ((x + y) mod g), n @ y -- pre-skewed, so processor (x, y) already
// holds the blocks it multiplies first. In dist the skew is part of the
// layout (`skew(0)`: rotate the owners of k by the coordinate on mesh mode
// 0). With DISTAL's rotate every processor starts at chunk (x + y) mod g, so
// no alignment is needed: A shifts along grid rows and B along grid columns
// from the first step (dist-report-communication says "with no alignment").
//
//   dist-run -np 4 --check examples/article/cannon.mlir

dist.grid @mesh [2, 2]

!A = !dist.tensor<64x128xf64, #dist.layout<@mesh, [(0) blocked, (1) blocked skew(0)]>>
!B = !dist.tensor<128x96xf64, #dist.layout<@mesh, [(0) blocked skew(1), (1) blocked]>>
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
