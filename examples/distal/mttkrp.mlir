// DISTAL Sec. 7.2: MTTKRP, A(i,l) = B(i,j,k) * C(j,l) * D(k,l), with the
// algorithm of Ballard et al.: the 3-tensor B stays in place on a 2x2x2 grid,
// C and D are partitioned along the grid dimensions of j and k, and the
// partial results are reduced into A. The output's own index l is moved
// inside the distributed loops, which must be outermost to be lowered. The
// leaf casts the local MTTKRP to a GEMM with the Khatri-Rao product of the C
// and D tiles, as DISTAL and CTF do.

dist.grid @m [2, 2, 2]

!A = !dist.tensor<16x8xf64, #dist.layout<@m, "il -> i**">>
!B = !dist.tensor<16x16x16xf64, #dist.layout<@m, "ijk -> ijk">>
!C = !dist.tensor<16x8xf64, #dist.layout<@m, "jl -> *j*">>
!D = !dist.tensor<16x8xf64, #dist.layout<@m, "kl -> **k">>

func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki},
                           Grid(2, 2, 2)),
                reorder({ko, ii, ji, ki, l}),
                communicate({A, B, C, D}, ko),
                substitute({ii, ji, ki, l}, mttkrp)]
      : !A, !B, !C, !D
  return
}

// Run it: dist-run -np N --check examples/distal/mttkrp.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  %d = dist.alloc : !D
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  dist.fill %d seed 3 : !D
  func.call @mttkrp(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
