// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=redistribution=general -split-input-file | FileCheck %s --check-prefix=GEN
// RUN: not dist-opt %s --dist-materialize-spmd=redistribution=fast -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// The runtime calls each of the digest's conformance examples
// (../shared/design/schatz-digest.md, sec. 6) lowers to: one collective per
// step of the plan, over the grid axes of the step (a bit mask), through
// intermediate tiles. With redistribution=general every pair becomes the
// general exchange.

// BAD: redistribution='fast' is not 'balanced' or 'general'

// GEN-LABEL: func.func @ex2
// GEN-NOT: distrt_redist_
// GEN: call @distrt_redistribute(
// GEN-NOT: distrt_redist_

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>
// 2. An allgather over mesh modes {2, 3} (mask 12).
// CHECK-LABEL: func.func @ex2
// CHECK: %[[M:.*]] = arith.constant 12 : i64
// CHECK: call @distrt_redist_allgather(%{{.*}}, %[[M]],
// CHECK-NOT: call @distrt_redist
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
func.func @ex2(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3, 2]
!S = !dist.tensor<12x6xf64, #dist.layout<@p, "[(0,2),(1)]">>
!D = !dist.tensor<12x6xf64, #dist.layout<@p, "[(2,0),(1)]">>
// 3. A permutation over {0, 2} (mask 5).
// CHECK-LABEL: func.func @ex3
// CHECK: %[[M:.*]] = arith.constant 5 : i64
// CHECK: call @distrt_redist_permute(%{{.*}}, %[[M]],
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @ex3(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0),(2),(3)]">>
!D = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0,2,3),(),()]">>
// 4. All-to-all over {2, 3}.
// CHECK-LABEL: func.func @ex4a
// CHECK: %[[M:.*]] = arith.constant 12 : i64
// CHECK: call @distrt_redist_alltoall(%{{.*}}, %[[M]],
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @ex4a(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2, 2]
!S = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0),(1),(4,3,2)]">>
!D = !dist.tensor<16x16x16xf64, #dist.layout<@p, "[(0,2),(1,3),(4)]">>
// 4. The second all-to-all over {2, 3}.
// CHECK-LABEL: func.func @ex4b
// CHECK: %[[M:.*]] = arith.constant 12 : i64
// CHECK: call @distrt_redist_alltoall(%{{.*}}, %[[M]],
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @ex4b(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3]
!S = !dist.tensor<12x6xf64, #dist.layout<@p, "[(0,1),()]">>
!D = !dist.tensor<12x6xf64, #dist.layout<@p, "[(1),()]">>
// 5. Not an allgather over mode 0: a permutation over {0, 1} into an
// intermediate tile of layout [(1,0),()], then an allgather over {0} into
// the destination.
// CHECK-LABEL: func.func @ex5
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>)
// CHECK: %[[CAP:.*]] = call @distrt_layout_tile_capacity
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[M1:.*]] = arith.constant 3 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: call @distrt_redist_permute(%{{.*}}, %[[M1]],
// CHECK: %[[M2:.*]] = arith.constant 1 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: call @distrt_redist_allgather(%{{.*}}, %[[M2]],
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @ex5(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<8x8x8x8xf64, #dist.layout<@p, "[(0),(1),(2),(3)]">>
!D = !dist.tensor<8x8x8x8xf64, #dist.layout<@p, "[(0),(1),(3),(2)]">>
// 6. One permutation over {2, 3} when P2 = P3 ...
// CHECK-LABEL: func.func @ex6a
// CHECK: %[[M:.*]] = arith.constant 12 : i64
// CHECK: call @distrt_redist_permute(%{{.*}}, %[[M]],
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @ex6a(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2, 3]
!S = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(2),(3)]">>
!D = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(3),(2)]">>
// 6. ... but several steps (no single permutation) when P2 != P3: with
// the default costs, allgather over {2}, all-to-all over {3}, local slice.
// CHECK-LABEL: func.func @ex6b
// CHECK-NOT: call @distrt_redist_permute
// CHECK: call @distrt_redist_allgather
// CHECK: call @distrt_redist_alltoall
// CHECK: call @distrt_redist_slice
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
func.func @ex6b(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),()]">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),(1)]">>
// Adding a mode to replicated data is a local slice: no communication.
// CHECK-LABEL: func.func @slice
// CHECK: call @distrt_redist_slice(
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @slice(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> xy">>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, "xy -> x*">>
// Blocked layouts (blocks of more than one element) use the general
// exchange.
// CHECK-LABEL: func.func @blocked
// CHECK-NOT: call @distrt_redist_
// CHECK: call @distrt_redistribute(
func.func @blocked(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<2x2xf64, #dist.layout<@p, "xy -> xy">>
!D = !dist.tensor<2x2xf64, #dist.layout<@p, "xy -> *y" cyclic>>
// Blocked with one element per process is elemental-cyclic: an allgather
// over x.
// CHECK-LABEL: func.func @blocked_unit
// CHECK: call @distrt_redist_allgather(%{{.*}}, %c1_i64{{.*}},
func.func @blocked_unit(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2, 2]
!S = !dist.tensor<9x7xf64, #dist.layout<@p, "[(0,1),(2)]">>
!G = !dist.tensor<9x7xf64, #dist.layout<@p, [(0), (2)] | (1 = 1)>>
!B = !dist.tensor<9x7xf64, #dist.layout<@p, "[(0),(2)]">>
// Non-replicated forms: gather-to-one, broadcast, scatter over mode 1
// (mask 2); the descriptors carry the fixed axis (1, coordinate 1).
// CHECK-LABEL: func.func @nonreplicated
// CHECK: call @distrt_redist_gather(%{{.*}}, %c2_i64{{.*}},
// CHECK: call @distrt_redist_bcast(%{{.*}}, %c2_i64{{.*}},
// CHECK: call @distrt_redist_scatter(%{{.*}}, %c2_i64{{.*}},
// CHECK-NOT: call @distrt_redistribute
func.func @nonreplicated(%s: !S, %g: !G, %b: !B, %s2: !S) {
  dist.redistribute %s into %g : !S into !G
  dist.redistribute %g into %b : !G into !B
  dist.redistribute %g into %s2 : !G into !S
  return
}
