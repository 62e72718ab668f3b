// DISTAL Fig. 9: Solomonik's 2.5D algorithm (2011), p = 8, c = 2: Grid(2, 2, 2),
// divide by sqrt(p / c^3) = 1. The figure's reorder({kio, il, jl, kii})
// names the local variables ii and ji.
// A(i,j) = sum_k B(i,k) * C(k,j) with the schedule printed in the figure
// (leading dots dropped), plus a GEMM leaf as in DISTAL Fig. 2.
//
//   dist-opt examples/distal/solomonik.mlir

dist.grid @m [2, 2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>

func.func @solomonik(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                divide(ki, kio, kii, 1),
                reorder({kio, ii, ji, kii}),
                rotate(kio, {io, jo}, kios),
                communicate(A, jo), communicate({B, C}, kios),
                substitute({ii, ji, kii}, gemm)]
      : !A, !B, !C
  return
}

// Run it: dist-run -np N --check examples/distal/solomonik.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @solomonik(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
