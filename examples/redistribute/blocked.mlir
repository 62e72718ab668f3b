// Balanced redistributions of blocked and block-cyclic layouts on a 2x2x2
// mesh, uneven extents. A block-cyclic(b) dimension is elemental-cyclic
// over its blocks (blocked: b = ceil(n/Q)), so the thesis' rules apply to
// block indices; a dimension whose block changes adds one kind change (an
// all-to-all over its modes). dist-opt --dist-plan-redistribution prints
// the plans.
//
//   dist-run -np 8 --check examples/redistribute/blocked.mlir
//   dist-run -np 8 --check --redistribution general examples/redistribute/blocked.mlir

dist.grid @p [2, 2, 2]

!B02_1 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0, 2) block_cyclic(2), (1) block_cyclic(3)]>>
!B0_1 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0) block_cyclic(2), (1) block_cyclic(3)]>>
!B20_1 = !dist.tensor<19x11xf64, #dist.layout<@p, [(2, 0) block_cyclic(2), (1) block_cyclic(3)]>>
!B0_12 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0) block_cyclic(2), (1, 2) block_cyclic(3)]>>
!C02_1 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0, 2), (1)]>>
!K02_1 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0, 2) blocked, (1) block_cyclic(3)]>>
!L012 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0, 1, 2) blocked, ()]>>
!L01 = !dist.tensor<19x11xf64, #dist.layout<@p, [(0, 1) blocked, ()]>>
!T = !dist.tensor<6x5x7xf32, #dist.layout<@p, "xyz -> xyz" block_cyclic(2)>>
!U = !dist.tensor<6x5x7xf32, #dist.layout<@p, [(0, 1, 2) block_cyclic(2), (), ()]>>

func.func @main() -> i32 {
  %a = dist.alloc : !B02_1
  dist.fill %a seed 5 : !B02_1
  // Allgather over {2} (tail of dimension 0, blocks of 2 kept).
  %b = dist.alloc : !B0_1
  dist.redistribute %a into %b : !B02_1 into !B0_1
  // Permutation over {0, 2}.
  %c = dist.alloc : !B20_1
  dist.redistribute %a into %c : !B02_1 into !B20_1
  // All-to-all over {2}: mode 2 moves to the columns.
  %d = dist.alloc : !B0_12
  dist.redistribute %a into %d : !B02_1 into !B0_12
  // Local slice: replicated columns get mode 1 (blocks of 3).
  %e0 = dist.alloc : !B0_1
  dist.fill %e0 seed 8 : !B0_1
  %e = dist.alloc : !B0_12
  dist.redistribute %e0 into %e : !B0_1 into !B0_12
  // Kind changes on the same modes: block-cyclic -> cyclic (both
  // dimensions, over {0, 1, 2}) and block-cyclic(2) -> blocked (dimension
  // 0 only, over {0, 2}).
  %f = dist.alloc : !C02_1
  dist.redistribute %a into %f : !B02_1 into !C02_1
  %g = dist.alloc : !K02_1
  dist.redistribute %a into %g : !B02_1 into !K02_1
  // Blocked over 8 -> blocked over 4: blocks of 3 -> 5, an allgather over
  // {2} and a kind change.
  %h = dist.alloc : !L012
  dist.fill %h seed 6 : !L012
  %i = dist.alloc : !L01
  dist.redistribute %h into %i : !L012 into !L01
  // 3-D, f32: all-to-all over {1, 2} with blocks of 2.
  %t = dist.alloc : !T
  dist.fill %t seed 4 : !T
  %u = dist.alloc : !U
  dist.redistribute %t into %u : !T into !U
  %ok = arith.constant 0 : i32
  return %ok : i32
}
