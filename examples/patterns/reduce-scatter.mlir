// A reduce-scatter: C = A * B with the reduction index k distributed over a
// 1-D grid. Every rank computes a full partial C from its slice of k; the
// partial results are summed and scattered by rows, C's distribution.
//
//   dist-run -np 4 --check examples/patterns/reduce-scatter.mlir

dist.grid @x [4]

!A = !dist.tensor<32x64xf64, #dist.layout<@x, "mk -> k">>
!B = !dist.tensor<64x24xf64, #dist.layout<@x, "kn -> k">>
!C = !dist.tensor<32x24xf64, #dist.layout<@x, "mn -> m">>

func.func @split_k(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)), reorder({ko, m, n, ki}),
                communicate({A, B, C}, ko), substitute({m, n, ki}, gemm)]
      : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @split_k(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
