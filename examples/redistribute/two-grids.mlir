// Redistributions between two grids of 8 processes. Both grids number the
// ranks row-major, so where their axes nest ([4, 2], [2, 2, 2], [2, 4],
// [8]) both layouts are rewritten on the grids' common refinement (the
// same rank holds the same elements: nothing moves) and planned there with
// the thesis' collectives. dist-opt --dist-plan-redistribution prints the
// plans.
//
//   dist-run -np 8 --check examples/redistribute/two-grids.mlir
//   dist-run -np 8 --check --redistribution general examples/redistribute/two-grids.mlir

dist.grid @a [4, 2]
dist.grid @b [2, 2, 2]
dist.grid @c [2, 4]
dist.grid @d [8]

!A = !dist.tensor<13x7xf64, #dist.layout<@a, "[(0),(1)]">>
!B = !dist.tensor<13x7xf64, #dist.layout<@b, "[(0,1),(2)]">>
!B2 = !dist.tensor<13x7xf64, #dist.layout<@b, "[(1,0),(2)]">>
!C = !dist.tensor<13x7xf64, #dist.layout<@c, [(1) blocked, (0) blocked]>>
!D = !dist.tensor<13x7xf64, #dist.layout<@d, [(0) block_cyclic(2), ()]>>
!D2 = !dist.tensor<13x7xf64, #dist.layout<@d, [(0), ()]>>

func.func @main() -> i32 {
  %a = dist.alloc : !A
  dist.fill %a seed 3 : !A
  // A permutation over modes {0, 1} of the refinement [2, 2, 2].
  %b = dist.alloc : !B
  dist.redistribute %a into %b : !A into !B
  // The same elements on every rank: a local copy.
  %b2 = dist.alloc : !B2
  dist.redistribute %a into %b2 : !A into !B2
  // Cyclic on [4, 2] -> blocked on [2, 4]: a kind change and a permutation.
  %c = dist.alloc : !C
  dist.redistribute %a into %c : !A into !C
  // Blocked on [2, 4] -> block-cyclic rows on [8]: a kind change and an
  // all-to-all.
  %c2 = dist.alloc : !C
  dist.fill %c2 seed 4 : !C
  %d = dist.alloc : !D
  dist.redistribute %c2 into %d : !C into !D
  // Block-cyclic(2) -> cyclic on [8]: one kind change over the whole grid.
  %d2 = dist.alloc : !D2
  dist.redistribute %d into %d2 : !D into !D2
  %ok = arith.constant 0 : i32
  return %ok : i32
}
