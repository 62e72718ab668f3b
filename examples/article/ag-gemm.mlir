// The polyhedral article's "AllGather + GEMM" (after cuBLASMp's tensor
// parallel GEMM): C[m @ x, n] = A[k, m @ x]^T @ B[k, n @ x] on a 1-D mesh.
// The article's schedule, in the dialect:
//   distribute([m], [mo], [mi], Mesh(x)).divide(n, no, ni, x.extent)
//   .reorder(mo, no, mi, ni, k).communicate('B', no)
//   .tensorize([mi, ni, k], MatMulTransA)
// Communicating B under no brings each rank one column panel of B per step
// (the all-gather of B, overlapped step by step with the GEMMs); A is used
// transposed by the leaf.
//
//   dist-run -np 4 --check examples/article/ag-gemm.mlir

dist.grid @x [4]

!A = !dist.tensor<64x128xf64, #dist.layout<@x, "km -> m">>
!B = !dist.tensor<64x96xf64, #dist.layout<@x, "kn -> n">>
!C = !dist.tensor<128x96xf64, #dist.layout<@x, "mn -> m">>

func.func @ag_gemm(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(k,m) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({m}, {mo}, {mi}, Grid(4)),
                divide(n, no, ni, 4),
                reorder({mo, no, mi, ni, k}),
                communicate(B, no), communicate({A, C}, mo),
                substitute({mi, ni, k}, gemm)]
      : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @ag_gemm(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
