// DISTAL Fig. 9: PUMMA (Choi et al., 1994) on a 2x2 grid.
// A(i,j) = sum_k B(i,k) * C(k,j) with the schedule printed in the figure
// (leading dots dropped), plus a GEMM leaf as in DISTAL Fig. 2.
//
//   dist-opt examples/distal/pumma.mlir

dist.grid @m [2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

func.func @pumma(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 2),
                reorder({ko, ii, ji, ki}),
                rotate(ko, {io}, kos),
                communicate(A, jo), communicate({B, C}, kos),
                substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  return
}

// Run it: dist-run -np N --check examples/distal/pumma.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @pumma(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
