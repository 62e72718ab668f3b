// Redistributions whose planned steps (all-to-alls, kind changes,
// permutations) the lowering runs as one all-to-all over the union of their
// grid axes (test/Integration/redistribute-merged.test): tiles large
// enough that the alpha-beta model prefers one pass, extents that divide
// by neither the grid nor the blocks. @GRID@ is replaced by the test.
dist.grid @m [@GRID@]
!R = !dist.tensor<301x211xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
!C = !dist.tensor<301x211xf64, #dist.layout<@m, [(), (0, 1) blocked]>>
!X = !dist.tensor<301x211xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
!Y = !dist.tensor<301x211xf64, #dist.layout<@m, [(1) block_cyclic(7), (0) cyclic]>>
!Z = !dist.tensor<301x211xf64, #dist.layout<@m, [(1, 0) block_cyclic(5), ()]>>
!F = !dist.tensor<301x211xf32, #dist.layout<@m, [(0, 1) blocked, ()]>>
!G = !dist.tensor<301x211xf32, #dist.layout<@m, [(1) block_cyclic(3), (0) blocked]>>
func.func @main() -> i32 {
  %r = dist.alloc : !R
  %c = dist.alloc : !C
  %x = dist.alloc : !X
  %y = dist.alloc : !Y
  %z = dist.alloc : !Z
  %y2 = dist.alloc : !Y
  %x2 = dist.alloc : !X
  %c2 = dist.alloc : !C
  %f = dist.alloc : !F
  %g = dist.alloc : !G
  dist.fill %r seed 1 : !R
  dist.fill %c seed 2 : !C
  dist.fill %y2 seed 3 : !Y
  dist.fill %x2 seed 4 : !X
  dist.fill %f seed 5 : !F
  dist.redistribute %r into %x : !R into !X
  dist.redistribute %c into %y : !C into !Y
  dist.redistribute %y2 into %z : !Y into !Z
  dist.redistribute %x2 into %c2 : !X into !C
  dist.redistribute %f into %g : !F into !G
  %ok = arith.constant 0 : i32
  return %ok : i32
}
