// An allgather: C = A * B on a 1-D grid where C and B are split by columns
// and A by rows. Every rank needs all of A, whose rows its peers hold as
// equal contiguous pieces, so A is allgathered once; B's columns are local.
//
//   dist-run -np 4 --check examples/patterns/allgather.mlir

dist.grid @x [4]

!A = !dist.tensor<64x32xf64, #dist.layout<@x, "mk -> m">>
!B = !dist.tensor<32x48xf64, #dist.layout<@x, "kn -> n">>
!C = !dist.tensor<64x48xf64, #dist.layout<@x, "mn -> n">>

func.func @allgather_gemm(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({n}, {no}, {ni}, Grid(4)), reorder({no, m, ni, k}),
                communicate({A, B, C}, no), substitute({m, ni, k}, gemm)]
      : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @allgather_gemm(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
