// DISTAL Fig. 9: Johnson's 3D algorithm (Agrawal et al., 1995) on a 2x2x2 grid.
// The figure writes communicate({A, B, C}, kn); kn is the innermost
// distributed variable, ko here.
// A(i,j) = sum_k B(i,k) * C(k,j) with the schedule printed in the figure
// (leading dots dropped), plus a GEMM leaf as in DISTAL Fig. 2.
//
//   dist-opt examples/distal/johnson.mlir

dist.grid @m [2, 2, 2]

!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy0">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xz -> x0z">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "zy -> 0yz">>

func.func @johnson(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, Grid(2, 2, 2)),
                communicate({A, B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  return
}

// Run it: dist-run -np N --check examples/distal/johnson.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @johnson(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
