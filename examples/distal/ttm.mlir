// DISTAL Sec. 7.2: tensor times matrix, A(i,j,l) = B(i,j,k) * C(k,l).
// Distributing i turns the kernel into independent matrix multiplies, one
// per slice of B; C is replicated and every leaf is a GEMM over (j, l, k).

dist.grid @m [4]

!A = !dist.tensor<16x32x24xf64, #dist.layout<@m, "xyz -> x">>
!B = !dist.tensor<16x32x20xf64, #dist.layout<@m, "xyz -> x">>
!C = !dist.tensor<20x24xf64, #dist.layout<@m, "xy -> *">>

func.func @ttm(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j,l) = B(i,j,k) * C(k,l)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({A, B, C}, io),
                substitute({j, l, k}, gemm)]
      : !A, !B, !C
  return
}

// Run it: dist-run -np N --check examples/distal/ttm.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @ttm(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
