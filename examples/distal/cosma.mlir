// DISTAL Fig. 9: a COSMA-style schedule (Kwasniewski et al., 2019): grid and
// number of steps as COSMA's scheduler would pick for square matrices on 8
// processors (2x2x2, 2 steps).
// A(i,j) = sum_k B(i,k) * C(k,j) with the schedule printed in the figure
// (leading dots dropped), plus a GEMM leaf as in DISTAL Fig. 2.
//
//   dist-opt examples/distal/cosma.mlir

dist.grid @m [2, 2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>

func.func @cosma(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                divide(ki, kio, kii, 2),
                reorder({kio, ii, ji, kii}),
                communicate(A, ko), communicate({B, C}, kio),
                substitute({ii, ji, kii}, gemm)]
      : !A, !B, !C
  return
}

// Run it: dist-run -np N --check examples/distal/cosma.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @cosma(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
