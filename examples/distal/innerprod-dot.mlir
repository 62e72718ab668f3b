// DISTAL Sec. 7.2's inner product, a = B(i,j,k) * C(i,j,k), with a BLAS
// leaf: the same distribution as innerprod.mlir, and substitute({k}, dot)
// makes each point of the local loops ii, ji one dot product of the rows
// B(ii, ji, :) and C(ii, ji, :) added into a (cblas_ddot; cuBLAS with
// dist-run --backend nccl, where the local loops cannot be compiled loops
// over device memory).

dist.grid @m [2, 2]

!a = !dist.tensor<f64, #dist.layout<@m, " -> **">>
!B = !dist.tensor<32x32x32xf64, #dist.layout<@m, "xyz -> xy">>

func.func @innerprod(%a: !a, %b: !B, %c: !B) {
  dist.compute "a = B(i,j,k) * C(i,j,k)" (a = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({a, B, C}, jo),
                substitute({k}, dot)]
      : !a, !B, !B
  return
}

// Run it: dist-run -np N --check examples/distal/innerprod.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !a
  %b = dist.alloc : !B
  %c = dist.alloc : !B
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !B
  func.call @innerprod(%a, %b, %c) : (!a, !B, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
