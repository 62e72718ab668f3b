// DISTAL Sec. 7.2's tensor times vector, A(i,j) = B(i,j,k) * c(k), with a
// BLAS leaf: the same distribution as ttv.mlir, and substitute({ji, k},
// gemv) makes each step of the local loop ii one matrix-vector product,
// A(ii, :) += B(ii, :, :) * c (cblas_dgemv; cuBLAS with dist-run --backend
// nccl, where the local loops cannot be compiled loops over device memory
// and parallelize() does not apply).

dist.grid @m [2, 2]

!A = !dist.tensor<32x32xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<32x32x32xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<32xf64, #dist.layout<@m, "z -> **">>

func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo),
                substitute({ji, k}, gemv)]
      : !A, !B, !c
  return
}

// Run it: dist-run -np N --check examples/distal/ttv.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !c
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
