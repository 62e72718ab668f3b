// RUN: dist-opt %s --dist-plan-redistribution -split-input-file -o /dev/null 2>&1 | FileCheck %s
// The thesis' conformance examples (../shared/design/schatz-digest.md, sec.
// 6): the collective each redistribution is, or the sequence it needs.

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>
// 2. An allgather over mesh modes {2, 3}.
// CHECK: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3, 2]
!S = !dist.tensor<12x6xf64, #dist.layout<@p, "[(0,2),(1)]">>
!D = !dist.tensor<12x6xf64, #dist.layout<@p, "[(2,0),(1)]">>
// 3. A permutation over {0, 2}.
// CHECK: remark: plan for [(0, 2), (1)] -> [(2, 0), (1)]: permutation over modes [0, 2] -> [(2, 0), (1)]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0),(2),(3)]">>
!D = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0,2,3),(),()]">>
// 4. All-to-all over {2, 3}.
// CHECK: remark: plan for [(0), (2), (3)] -> [(0, 2, 3), (), ()]: all-to-all over modes [2, 3] -> [(0, 2, 3), (), ()]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2, 2]
!S = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0),(1),(4,3,2)]">>
!D = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0,2),(1,3),(4)]">>
// 4. The second all-to-all over {2, 3}.
// CHECK: remark: plan for [(0), (1), (4, 3, 2)] -> [(0, 2), (1, 3), (4)]: all-to-all over modes [2, 3] -> [(0, 2), (1, 3), (4)]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3]
!S = !dist.tensor<12x6xf64, #dist.layout<@p, "[(0,1),()]">>
!D = !dist.tensor<12x6xf64, #dist.layout<@p, "[(1),()]">>
// 5. Negative: not an allgather over mode 0 (not a suffix): a permutation
// to (1, 0) first, then an allgather over 0.
// CHECK: remark: plan for [(0, 1), ()] -> [(1), ()]: permutation over modes [0, 1] -> [(1, 0), ()] ({{.*}} s), then allgather over modes [0] -> [(1), ()]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<8x8x8x8xf64, #dist.layout<@p, "[(0),(1),(2),(3)]">>
!D = !dist.tensor<8x8x8x8xf64, #dist.layout<@p, "[(0),(1),(3),(2)]">>
// 6. One permutation over {2, 3} when P2 = P3 ...
// CHECK: remark: plan for [(0), (1), (2), (3)] -> [(0), (1), (3), (2)]: permutation over modes [2, 3] -> [(0), (1), (3), (2)]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 3]
!S = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(2),(3)]">>
!D = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(3),(2)]">>
// 6. ... but a decomposition when P2 != P3.
// CHECK: remark: plan for [(0), (1), (2), (3)] -> [(0), (1), (3), (2)]:
// CHECK-NOT: permutation over modes [2, 3] -> [(0), (1), (3), (2)] ({{.*}}); predicted
// CHECK-SAME: then
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),()]">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),(1)]">>
// Adding a mode to replicated data is a local slice.
// CHECK: remark: plan for [(0), ()] -> [(0), (1)]: local slice over modes [1] -> [(0), (1)] (0 s); predicted 0 s
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> xy">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> x*">>
// Blocked layouts: a blocked dimension is block-cyclic with b = ceil(n/Q)
// (printed " b=4"); the rules act on block indices. Here dimension 1 drops
// its only mode: an allgather over mode 1, dimension 0 keeps its blocks.
// CHECK: remark: plan for [(0) b=4, (1) b=4] -> [(0) b=4, ()]: allgather over modes [1] -> [(0) b=4, ()] (1e-06 s); predicted 1e-06 s
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<16x8xf64, #dist.layout<@p, [(0, 1) block_cyclic(2), ()]>>
!D = !dist.tensor<16x8xf64, #dist.layout<@p, [(0) block_cyclic(2), ()]>>
// Block-cyclic(2) on both sides: dropping the tail mode 1 is an allgather
// over it (the rule on block indices).
// CHECK: remark: plan for [(0, 1) b=2, ()] -> [(0) b=2, ()]: allgather over modes [1] -> [(0) b=2, ()]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3, 2]
!S = !dist.tensor<24x6xf64, #dist.layout<@p, [(0, 2) block_cyclic(2), (1)]>>
!D = !dist.tensor<24x6xf64, #dist.layout<@p, [(2, 0) block_cyclic(2), (1)]>>
// Block-cyclic(2): the permutation of conformance example 3 on blocks.
// CHECK: remark: plan for [(0, 2) b=2, (1)] -> [(2, 0) b=2, (1)]: permutation over modes [0, 2] -> [(2, 0) b=2, (1)]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<16xf64, #dist.layout<@p, [(0, 1) blocked]>>
!D = !dist.tensor<16xf64, #dist.layout<@p, [(0) blocked]>>
// Blocked over 4 processes has blocks of 4, over 2 blocks of 8: dropping
// the tail is not an allgather of blocks. The planner keeps blocks of 4
// through the allgather and changes them last, with one all-to-all over the
// dimension's remaining mode (cheaper than changing them first over modes
// 0 and 1).
// CHECK: remark: plan for [(0, 1) b=4] -> [(0) b=8]: allgather over modes [1] -> [(0) b=4] ({{.*}} s), then redistribute-kind over modes [0] -> [(0) b=8] ({{.*}} s); predicted
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> xy">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> xy" cyclic>>
// Kind changes on the same modes: blocked -> cyclic in both dimensions is
// one all-to-all over the modes of both.
// CHECK: remark: plan for [(0) b=4, (1) b=4] -> [(0), (1)]: redistribute-kind over modes [0, 1] -> [(0), (1)] ({{.*}} s); predicted
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(3), (1)]>>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(2), (1)]>>
// Only dimension 0 changes its block: the all-to-all runs over mode 0 only.
// CHECK: remark: plan for [(0) b=3, (1)] -> [(0) b=2, (1)]: redistribute-kind over modes [0] -> [(0) b=2, (1)] ({{.*}} s); predicted
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<16x8xf64, #dist.layout<@p, [(0) block_cyclic(2), (1)]>>
!D = !dist.tensor<16x8xf64, #dist.layout<@p, [(0, 1) blocked, ()]>>
// A kind change and a tuple change: blocks of 2 -> 4 over mode 0 first
// (2 processes), then the all-to-all that moves mode 1.
// CHECK: remark: plan for [(0) b=2, (1)] -> [(0, 1) b=4, ()]: redistribute-kind over modes [0] -> [(0) b=4, (1)] ({{.*}} s), then all-to-all over modes [1] -> [(0, 1) b=4, ()]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) blocked skew(1), (1)]>>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, [(0), (1)]>>
// Skewed layouts stay with the general exchange.
// CHECK: remark: plan: general exchange (the thesis' rules apply to one-level layouts without skew on one mesh)
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) blocked, ()] | (2 = 1)>>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) blocked, ()]>>
// Blocked layouts fixed to a face stay with the general exchange.
// CHECK: remark: plan: general exchange (layouts fixed to grid coordinates are planned only when elemental-cyclic)
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 1]
!T = !dist.tensor<12x10x16xf64, #dist.layout<@p, "[(),(2,3),(0,1)]">>
!G = !dist.tensor<12x10xf64, #dist.layout<@p, "[(0,1),(2,3)]">>
// 7. Fig. 5.3: the partial sums T^{mu iota eps} on [(),(2,3),(0,1)] are
// reduce-scattered over (0,1) into G[(0,1),(2,3)].
// CHECK: remark: plan for sum over dims [2] of [(), (2, 3), (0, 1)] -> [(0, 1), (2, 3)]: reduce-scatter over modes [0, 1]; predicted {{.*}} s
func.func @f(%t: !T, %g: !G) {
  dist.redistribute %t into %g sum [2] : !T into !G
  return
}

// -----

// Non-replicated forms [D; E, w] (fixed grid axes): gather-to-one,
// broadcast, scatter; a pair that needs more than one step uses the general
// exchange.
dist.grid @p [2, 2, 2]
!S = !dist.tensor<9x7xf64, #dist.layout<@p, "[(0,1),(2)]">>
!G = !dist.tensor<9x7xf64, #dist.layout<@p, [(0), (2)] | (1 = 1)>>
!B = !dist.tensor<9x7xf64, #dist.layout<@p, "[(0),(2)]">>
!R = !dist.tensor<9x7xf64, #dist.layout<@p, "[(0),()]|(2)">>
// CHECK: remark: plan for [(0, 1), (2)] -> [(0), (2)]|(1=1): gather-to-one over modes [1] -> [(0), (2)]|(1=1)
// CHECK: remark: plan for [(0), (2)]|(1=1) -> [(0), (2)]: broadcast over modes [1] -> [(0), (2)]
// CHECK: remark: plan for [(0), (2)]|(1=1) -> [(0, 1), (2)]: scatter over modes [1] -> [(0, 1), (2)]
// CHECK: remark: plan for [(0, 1), (2)] -> [(0), ()]|(2=0): no single gather-to-one, broadcast or scatter between these non-replicated forms; general exchange
func.func @f(%s: !S, %g: !G, %b: !B, %r: !R, %s2: !S) {
  dist.redistribute %s into %g : !S into !G
  dist.redistribute %g into %b : !G into !B
  dist.redistribute %g into %s2 : !G into !S
  dist.redistribute %s into %r : !S into !R
  return
}

// -----

// Two grids of the same size: ranks are numbered row-major on both, so
// when the grids' axes nest (here [4, 2] and [2, 2, 2]: axis 0 of @a is
// modes (1, 0) of the refinement, fastest first) both layouts are rewritten
// on the common refinement and planned there.
dist.grid @a [4, 2]
dist.grid @b [2, 2, 2]
!A = !dist.tensor<13x7xf64, #dist.layout<@a, "[(0),(1)]">>
!B = !dist.tensor<13x7xf64, #dist.layout<@b, "[(0,1),(2)]">>
!B2 = !dist.tensor<13x7xf64, #dist.layout<@b, "[(1,0),(2)]">>
// CHECK: remark: on the common refinement [2, 2, 2] of the two grids, plan for [(1, 0), (2)] -> [(0, 1), (2)]: permutation over modes [0, 1] -> [(0, 1), (2)]
// CHECK: remark: on the common refinement [2, 2, 2] of the two grids, plan for [(1, 0), (2)] -> [(1, 0), (2)]: nothing to move
func.func @f(%a: !A, %b: !B, %b2: !B2) {
  dist.redistribute %a into %b : !A into !B
  dist.redistribute %a into %b2 : !A into !B2
  return
}

// -----

dist.grid @c [2, 4]
dist.grid @d [8]
!C = !dist.tensor<13x7xf64, #dist.layout<@c, [(1) blocked, (0) blocked]>>
!D = !dist.tensor<13x7xf64, #dist.layout<@d, [(0) block_cyclic(2), ()]>>
// Blocked on [2, 4] -> block-cyclic on [8] (axis 0 of @d is modes (1, 0)
// of @c): a kind change, then an all-to-all.
// CHECK: remark: on the common refinement [2, 4] of the two grids, plan for [(1) b=4, (0) b=4] -> [(1, 0) b=2, ()]: redistribute-kind over modes [1] -> [(1) b=2, (0) b=4] ({{.*}} s), then all-to-all over modes [0] -> [(1, 0) b=2, ()]
func.func @f(%c: !C, %d: !D) {
  dist.redistribute %c into %d : !C into !D
  return
}

// -----

dist.grid @e [2, 3]
dist.grid @f [3, 2]
!E = !dist.tensor<13x7xf64, #dist.layout<@e, "[(0),(1)]">>
!F = !dist.tensor<13x7xf64, #dist.layout<@f, "[(0),(1)]">>
// [2, 3] and [3, 2] split the rank at 3 and at 2: no common refinement.
// CHECK: remark: plan: general exchange (the source and destination are on grids whose axes have no common refinement)
func.func @ef(%e: !E, %f: !F) {
  dist.redistribute %e into %f : !E into !F
  return
}

// -----

dist.grid @g [4]
dist.grid @h node[2], cpu[2]
!G = !dist.tensor<13xf64, #dist.layout<@g, "[(0)]">>
!H = !dist.tensor<13xf64, #dist.layout<@h, "x -> x", "x -> *">>
// Grids of one size, one of them with two levels.
// CHECK: remark: plan: general exchange (the source and destination are on different grids (planned only for one-level grids of one processor kind and the same size))
func.func @f(%g: !G, %h: !H) {
  dist.redistribute %g into %h : !G into !H
  return
}

// -----

// [4, 4, 4, 4, 4, 4, 4, 4] and [2, 4, 4, 4, 4, 4, 4, 8] (65536 processes
// each) nest, but their common refinement has 15 axes: more than the
// runtime's grids have (DISTRT_MAX_DIMS), so the general exchange.
dist.grid @r [4, 4, 4, 4, 4, 4, 4, 4]
dist.grid @s [2, 4, 4, 4, 4, 4, 4, 8]
!R = !dist.tensor<65536xf64, #dist.layout<@r, "[(0,1,2,3,4,5,6,7)]">>
!S = !dist.tensor<65536xf64, #dist.layout<@s, "[(0,1,2,3,4,5,6,7)]">>
// CHECK: remark: plan: general exchange (the grids' common refinement has 15 axes, more than the runtime's 8)
func.func @f(%r: !R, %s: !S) {
  dist.redistribute %r into %s : !R into !S
  return
}
