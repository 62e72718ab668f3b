// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=redistribution=general -split-input-file | FileCheck %s --check-prefix=GEN
// RUN: not dist-opt %s --dist-materialize-spmd=redistribution=fast -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: dist-opt %s --dist-materialize-spmd=relax-memory-bound=true -split-input-file | FileCheck %s --check-prefix=RELAX
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
// 6. ... but several steps (no single permutation) when P2 != P3: three
// all-to-alls (over {2}, {3}, {2}). The cheaper allgather over {2},
// all-to-all over {3}, local slice is not taken: its middle layouts hold
// twice a process's data (the memory bound; test/Analysis/
// redistribution-memory-bound.mlir).
// CHECK-LABEL: func.func @ex6b
// CHECK-NOT: call @distrt_redist_permute
// CHECK-NOT: call @distrt_redist_allgather
// CHECK: call @distrt_redist_alltoall
// CHECK: call @distrt_redist_alltoall
// CHECK: call @distrt_redist_alltoall
// CHECK-NOT: call @distrt_redist_slice
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
// Without the bound (relax-memory-bound) the cheaper plan is taken.
// RELAX-LABEL: func.func @ex6b
// RELAX: call @distrt_redist_allgather
// RELAX: call @distrt_redist_alltoall
// RELAX: call @distrt_redist_slice
// RELAX: return
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
// Blocked layouts are planned on block indices: dimension 1 drops its mode,
// an allgather over mode 1 (mask 2); the descriptors deal both dimensions
// as block-cyclic(4) (kind 3, block 4).
// CHECK-DAG: llvm.mlir.global internal constant @[[BS:.*]](dense<[2, 8, 3, 4, 1, 0, 8, 3, 4, 1, 1, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[BD:.*]](dense<[2, 8, 3, 4, 1, 0, 8, 0, 8, 0, 0]>
// CHECK-LABEL: func.func @blocked
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[BS]]
// CHECK: %[[D:.*]] = llvm.mlir.addressof @[[BD]]
// CHECK: %[[M:.*]] = arith.constant 2 : i64
// CHECK: call @distrt_redist_allgather(%{{.*}}, %[[M]], %[[S]], %{{.*}}, %[[D]],
// CHECK-NOT: call @distrt_redist
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
func.func @blocked(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<16xf64, #dist.layout<@p, [(0, 1) blocked]>>
!D = !dist.tensor<16xf64, #dist.layout<@p, [(0) blocked]>>
// Blocked over 4 -> blocked over 2: an allgather over mode 1 (mask 2) with
// blocks of 4 into an intermediate tile, then a kind change over mode 0
// (mask 1) from blocks of 4 to 8 into the destination.
// CHECK-DAG: llvm.mlir.global internal constant @[[K0:.*]](dense<[1, 16, 3, 4, 2, 0, 1, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[K1:.*]](dense<[1, 16, 3, 4, 1, 0, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[K2:.*]](dense<[1, 16, 3, 8, 1, 0, 0]>
// CHECK-LABEL: func.func @kind_after_allgather
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>)
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[S0:.*]] = llvm.mlir.addressof @[[K0]]
// CHECK: %[[S1:.*]] = llvm.mlir.addressof @[[K1]]
// CHECK: %[[M2:.*]] = arith.constant 2 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: call @distrt_redist_allgather(%{{.*}}, %[[M2]], %[[S0]], %{{.*}}, %[[S1]],
// CHECK: %[[S2:.*]] = llvm.mlir.addressof @[[K1]]
// CHECK: %[[S3:.*]] = llvm.mlir.addressof @[[K2]]
// CHECK: %[[M1:.*]] = arith.constant 1 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: call @distrt_redist_kind(%{{.*}}, %[[M1]], %[[S2]], %{{.*}}, %[[S3]],
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: call @distrt_redist
// CHECK: return
func.func @kind_after_allgather(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 2]
!S = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(3), (1)]>>
!D = !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(2), (1)]>>
// Only the block of dimension 0 changes: one kind change over mode 0
// (mask 1), nothing else.
// CHECK-DAG: llvm.mlir.global internal constant @[[KS:.*]](dense<[2, 8, 3, 3, 1, 0, 8, 2, 1, 1, 1, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[KD:.*]](dense<[2, 8, 3, 2, 1, 0, 8, 2, 1, 1, 1, 0]>
// CHECK-LABEL: func.func @kind_only
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[KS]]
// CHECK: %[[D:.*]] = llvm.mlir.addressof @[[KD]]
// CHECK: %[[M:c1_i64_[0-9]+]] = arith.constant 1 : i64
// CHECK: call @distrt_redist_kind(%{{.*}}, %[[M]], %[[S]], %{{.*}}, %[[D]],
// CHECK-NOT: call @distrt_redist
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
// GEN-LABEL: func.func @kind_only
// GEN-NOT: distrt_redist_
// GEN: call @distrt_redistribute(
// GEN-NOT: distrt_redist_
func.func @kind_only(%a: !S, %b: !D) {
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

// -----

// Two grids of 8 processes whose axes nest: [4, 2] and [2, 4] refine to
// [2, 2, 2], which no dist.grid declares: the pass declares it
// (@__dist_refined_0) and runs every step of the plan on its handle. Axis 0
// of @a is modes (1, 0) of the refinement, axis 1 of @c modes (2, 1), so
// the plan is [(1, 0), ()] -> [(2, 1), ()]: a local slice, a permutation
// and an allgather.
dist.grid @a [4, 2]
dist.grid @c [2, 4]
!A = !dist.tensor<16x8xf64, #dist.layout<@a, "[(0),()]">>
!C = !dist.tensor<16x8xf64, #dist.layout<@c, "[(1),()]">>
// CHECK: dist.grid @__dist_refined_0 [2, 2, 2]
// CHECK-LABEL: func.func @two_grids
// CHECK: %[[G:.*]] = dist.grid_handle @__dist_refined_0
// CHECK: call @distrt_redist_slice(%[[G]],
// CHECK: call @distrt_redist_permute(%[[G]],
// CHECK: call @distrt_redist_allgather(%[[G]],
// CHECK-NOT: call @distrt_redistribute
// CHECK: return
// GEN-LABEL: func.func @two_grids
// GEN: call @distrt_redistribute(
func.func @two_grids(%x: !A, %y: !C) {
  dist.redistribute %x into %y : !A into !C
  return
}
