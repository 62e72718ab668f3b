// Matrix-vector product, y(i) = A(i,j) * x(j), with a BLAS leaf.
// The rows of A and y are block-distributed over a 1-D grid and x is
// replicated, so each processor multiplies its row panel of A by x with
// no communication: substitute({ii, j}, gemv) makes the leaf one
// cblas_dgemv call on the panel (A's box is row-major and contiguous).

dist.grid @m [4]

!y = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<48xf64, #dist.layout<@m, "y -> *">>

func.func @gemv(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({y, A, x}, io),
                substitute({ii, j}, gemv)]
      : !y, !A, !x
  return
}

// Run it: dist-run -np N --check examples/distal/gemv.mlir
func.func @main() -> i32 {
  %y = dist.alloc : !y
  %a = dist.alloc : !A
  %x = dist.alloc : !x
  dist.fill %a seed 1 : !A
  dist.fill %x seed 2 : !x
  func.call @gemv(%y, %a, %x) : (!y, !A, !x) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
