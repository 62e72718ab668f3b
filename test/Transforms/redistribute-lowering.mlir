// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=redistribution=general -split-input-file | FileCheck %s --check-prefix=GEN
// RUN: not dist-opt %s --dist-materialize-spmd=redistribution=fast -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: dist-opt %s --dist-materialize-spmd=relax-memory-bound=true -split-input-file | FileCheck %s --check-prefix=RELAX
// RUN: dist-opt %s --dist-materialize-spmd --convert-dist-to-runtime -split-input-file | FileCheck %s --check-prefix=RT
// RUN: dist-opt %s --dist-materialize-spmd=cost-file=%S/Inputs/redistribute-no-merge.txt -split-input-file | FileCheck %s --check-prefix=STEPS
// The ops each of the digest's conformance examples
// (../shared/design/schatz-digest.md, sec. 6) lowers to: one collective per
// step of the plan (dist.redist_*), over the grid axes of the step, through
// intermediate tiles, each layout a !dist.tensor type (mode tuples) whose
// descriptor convert-dist-to-runtime builds (RT). With
// redistribution=general every pair becomes the general exchange
// (dist.redistribute_tile). Consecutive exchanges (all-to-all, kind
// change, permutation) run as one all-to-all over the union of their axes
// where the alpha-beta model prices that lower (fewer passes over the tile
// for more messages); with all-to-all messages priced high (STEPS) every
// step stays.

// BAD: redistribution='fast' is not 'balanced' or 'general'

// GEN-LABEL: func.func @ex2
// GEN-NOT: dist.redist_
// GEN: dist.redistribute_tile
// GEN-NOT: dist.redist_

dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>
// 2. An allgather over mesh modes {2, 3} (mask 12).
// CHECK-LABEL: func.func @ex2
// CHECK: dist.redist_allgather %{{.*}} into %{{.*}} axes [2, 3] : memref<?xf64> of !dist.tensor<16x16xf64, #dist.layout<@p, [(0, 2), (1, 3)]>> into memref<?xf64> of !dist.tensor<16x16xf64, #dist.layout<@p, [(0), (1)]>>
// CHECK-NOT: dist.redist
// CHECK: return
// RT-LABEL: func.func @ex2
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M:.*]] = llvm.mlir.constant(12 : i64) : i64
// RT: llvm.call @distrt_redist_allgather(%{{.*}}, %[[M]],
// RT-NOT: llvm.call @distrt_redist
// RT: return
func.func @ex2(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

dist.grid @p [2, 3, 2]
!S = !dist.tensor<12x6xf64, #dist.layout<@p, "[(0,2),(1)]">>
!D = !dist.tensor<12x6xf64, #dist.layout<@p, "[(2,0),(1)]">>
// 3. A permutation over {0, 2}.
// CHECK-LABEL: func.func @ex3
// CHECK: dist.redist_permute %{{.*}} into %{{.*}} axes [0, 2] :
// CHECK-NOT: dist.redist
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
// CHECK: dist.redist_all_to_all %{{.*}} into %{{.*}} axes [2, 3] :
// CHECK-NOT: dist.redist
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
// CHECK: dist.redist_all_to_all %{{.*}} into %{{.*}} axes [2, 3] :
// CHECK-NOT: dist.redist
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
// CHECK: %[[CAP:.*]] = dist.tile_capacity !dist.tensor<12x6xf64, #dist.layout<@p, [(1, 0), ()]>>
// CHECK: %[[T:.*]] = memref.alloc(%[[CAP]]) : memref<?xf64>
// CHECK: dist.check_alloc %[[T]], "an intermediate tile of a redistribution"
// CHECK: dist.redist_permute %[[A]] into %[[T]] axes [0, 1] : memref<?xf64> of !dist.tensor<12x6xf64, #dist.layout<@p, [(0, 1), ()]>> into memref<?xf64> of !dist.tensor<12x6xf64, #dist.layout<@p, [(1, 0), ()]>>
// CHECK: dist.redist_allgather %[[T]] into %[[B]] axes [0] : memref<?xf64> of !dist.tensor<12x6xf64, #dist.layout<@p, [(1, 0), ()]>> into memref<?xf64> of !dist.tensor<12x6xf64, #dist.layout<@p, [(1), ()]>>
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: dist.redist
// RT-LABEL: func.func @ex5
// RT: llvm.call @distrt_layout_tile_capacity
// RT: llvm.call @distrt_check_alloc
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M1:.*]] = llvm.mlir.constant(3 : i64) : i64
// RT: llvm.call @distrt_redist_permute(%{{.*}}, %[[M1]],
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M2:.*]] = llvm.mlir.constant(1 : i64) : i64
// RT: llvm.call @distrt_redist_allgather(%{{.*}}, %[[M2]],
// RT: memref.dealloc
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
// CHECK: dist.redist_permute %{{.*}} into %{{.*}} axes [2, 3] :
// CHECK-NOT: dist.redist
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
// The lowering runs the three as one all-to-all over {2, 3} (6 processes):
// 5 messages instead of 4 but one pass over the tile of 864 elements
// instead of three, straight from the source into the destination.
// CHECK-LABEL: func.func @ex6b
// CHECK-NOT: memref.alloc
// CHECK-NOT: dist.redist_permute
// CHECK-NOT: dist.redist_allgather
// CHECK: dist.redist_all_to_all %arg0 into %arg1 axes [2, 3] : {{.*}}[(0), (1), (2), (3)]>> into {{.*}}[(0), (1), (3), (2)]>>
// CHECK-NOT: dist.redist
// CHECK-NOT: dist.redistribute_tile
// CHECK: return
// STEPS-LABEL: func.func @ex6b
// STEPS: dist.redist_all_to_all {{.*}} axes [2] :
// STEPS: dist.redist_all_to_all {{.*}} axes [3] :
// STEPS: dist.redist_all_to_all {{.*}} axes [2] :
// STEPS-NOT: dist.redist
// STEPS: return
// Without the bound (relax-memory-bound) the cheaper plan is taken.
// RELAX-LABEL: func.func @ex6b
// RELAX: dist.redist_allgather
// RELAX: dist.redist_all_to_all
// RELAX: dist.redist_slice
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
// CHECK: dist.redist_slice %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), ()]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0), (1)]>>
// CHECK-NOT: dist.redist
// RT-LABEL: func.func @slice
// RT: llvm.call @distrt_redist_slice(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
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
// an allgather over mode 1 (mask 2); the step's layouts deal both
// dimensions as block-cyclic(4) (descriptor kind 3, block 4).
// CHECK-LABEL: func.func @blocked
// CHECK: dist.redist_allgather %{{.*}} into %{{.*}} axes [1] : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(4), (1) block_cyclic(4)]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(4), ()]>>
// CHECK-NOT: dist.redist
// CHECK: return
// RT-DAG: llvm.mlir.global internal constant @[[BS:.*]](dense<[2, 8, 3, 4, 1, 0, 8, 3, 4, 1, 1, 0]>
// RT-DAG: llvm.mlir.global internal constant @[[BD:.*]](dense<[2, 8, 3, 4, 1, 0, 8, 0, 0, 0, 0]>
// RT-LABEL: func.func @blocked
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M:.*]] = llvm.mlir.constant(2 : i64) : i64
// RT-NEXT: %[[S:.*]] = llvm.mlir.addressof @[[BS]]
// RT: %[[D:.*]] = llvm.mlir.addressof @[[BD]]
// RT: llvm.call @distrt_redist_allgather(%{{.*}}, %[[M]], %[[S]], %{{.*}}, %[[D]],
// RT-NOT: llvm.call @distrt_redist
// RT: return
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
// CHECK-LABEL: func.func @kind_after_allgather
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>)
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: dist.redist_allgather %[[A]] into %[[T]] axes [1] : memref<?xf64> of !dist.tensor<16xf64, #dist.layout<@p, [(0, 1) block_cyclic(4)]>> into memref<?xf64> of !dist.tensor<16xf64, #dist.layout<@p, [(0) block_cyclic(4)]>>
// CHECK: dist.redist_change_kind %[[T]] into %[[B]] axes [0] : memref<?xf64> of !dist.tensor<16xf64, #dist.layout<@p, [(0) block_cyclic(4)]>> into memref<?xf64> of !dist.tensor<16xf64, #dist.layout<@p, [(0) block_cyclic(8)]>>
// CHECK: memref.dealloc %[[T]]
// CHECK-NOT: dist.redist
// CHECK: return
// RT-DAG: llvm.mlir.global internal constant @[[K0:.*]](dense<[1, 16, 3, 4, 2, 0, 1, 0]>
// RT-DAG: llvm.mlir.global internal constant @[[K1:.*]](dense<[1, 16, 3, 4, 1, 0, 0]>
// RT-DAG: llvm.mlir.global internal constant @[[K2:.*]](dense<[1, 16, 3, 8, 1, 0, 0]>
// RT-LABEL: func.func @kind_after_allgather
// RT-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>)
// RT: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M2:.*]] = llvm.mlir.constant(2 : i64) : i64
// RT-NEXT: %[[S0:.*]] = llvm.mlir.addressof @[[K0]]
// RT-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// RT: %[[S1:.*]] = llvm.mlir.addressof @[[K1]]
// RT-NEXT: memref.extract_aligned_pointer_as_index %[[T]]
// RT: llvm.call @distrt_redist_allgather(%{{.*}}, %[[M2]], %[[S0]], %{{.*}}, %[[S1]],
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M1:.*]] = llvm.mlir.constant(1 : i64) : i64
// RT-NEXT: %[[S2:.*]] = llvm.mlir.addressof @[[K1]]
// RT-NEXT: memref.extract_aligned_pointer_as_index %[[T]]
// RT: %[[S3:.*]] = llvm.mlir.addressof @[[K2]]
// RT-NEXT: memref.extract_aligned_pointer_as_index %[[B]]
// RT: llvm.call @distrt_redist_kind(%{{.*}}, %[[M1]], %[[S2]], %{{.*}}, %[[S3]],
// RT: memref.dealloc %[[T]]
// RT-NOT: llvm.call @distrt_redist
// RT: return
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
// CHECK-LABEL: func.func @kind_only
// CHECK: dist.redist_change_kind %{{.*}} into %{{.*}} axes [0] : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(3), (1)]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(2), (1)]>>
// CHECK-NOT: dist.redist
// CHECK: return
// RT-DAG: llvm.mlir.global internal constant @[[KS:.*]](dense<[2, 8, 3, 3, 1, 0, 8, 2, 0, 1, 1, 0]>
// RT-DAG: llvm.mlir.global internal constant @[[KD:.*]](dense<[2, 8, 3, 2, 1, 0, 8, 2, 0, 1, 1, 0]>
// RT-LABEL: func.func @kind_only
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M:.*]] = llvm.mlir.constant(1 : i64) : i64
// RT-NEXT: %[[S:.*]] = llvm.mlir.addressof @[[KS]]
// RT: %[[D:.*]] = llvm.mlir.addressof @[[KD]]
// RT: llvm.call @distrt_redist_kind(%{{.*}}, %[[M]], %[[S]], %{{.*}}, %[[D]],
// RT-NOT: llvm.call @distrt_redist
// RT: return
// GEN-LABEL: func.func @kind_only
// GEN-NOT: dist.redist_
// GEN: dist.redistribute_tile %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(3), (1)]>> into memref<?xf64> of !dist.tensor<8x8xf64, #dist.layout<@p, [(0) block_cyclic(2), (1)]>>
// GEN-NOT: dist.redist_
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
// CHECK: dist.redist_allgather %{{.*}} into %{{.*}} axes [0] : memref<?xf64> of !dist.tensor<2x2xf64, #dist.layout<@p, [(0), (1)]>> into memref<?xf64> of !dist.tensor<2x2xf64, #dist.layout<@p, [(), (1)]>>
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
// (mask 2); the layouts carry the fixed axis (1, coordinate 1).
// CHECK-LABEL: func.func @nonreplicated
// CHECK: dist.redist_gather %{{.*}} into %{{.*}} axes [1] : {{.*}} into memref<?xf64> of !dist.tensor<9x7xf64, #dist.layout<@p, [(0), (2)] | (1 = 1)>>
// CHECK: dist.redist_broadcast %{{.*}} into %{{.*}} axes [1] : memref<?xf64> of !dist.tensor<9x7xf64, #dist.layout<@p, [(0), (2)] | (1 = 1)>> into
// CHECK: dist.redist_scatter %{{.*}} into %{{.*}} axes [1] :
// CHECK-NOT: dist.redistribute_tile
// RT-LABEL: func.func @nonreplicated
// RT: llvm.call @distrt_grid_lookup
// RT-NEXT: %[[M:.*]] = llvm.mlir.constant(2 : i64) : i64
// RT: llvm.call @distrt_redist_gather(%{{.*}}, %[[M]],
// RT: llvm.call @distrt_redist_bcast(
// RT: llvm.call @distrt_redist_scatter(
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
// CHECK: dist.redist_slice %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<16x8xf64, #dist.layout<@__dist_refined_0, [(1, 0), ()]>> into memref<?xf64> of !dist.tensor<16x8xf64, #dist.layout<@__dist_refined_0, [(1, 0, 2), ()]>>
// CHECK: dist.redist_permute %{{.*}} into %{{.*}} axes [0, 1, 2] : {{.*}}@__dist_refined_0
// CHECK: dist.redist_allgather %{{.*}} into %{{.*}} axes [0] : {{.*}} into memref<?xf64> of !dist.tensor<16x8xf64, #dist.layout<@__dist_refined_0, [(2, 1), ()]>>
// CHECK-NOT: dist.redistribute_tile
// CHECK: return
// RT-LABEL: func.func @two_grids
// RT: llvm.call @distrt_check_alloc
// RT: %[[S:.*]] = llvm.mlir.addressof @__dist_grid___dist_refined_0 :
// RT: %[[G:.*]] = llvm.call @distrt_grid_lookup(%[[S]],
// RT: llvm.call @distrt_redist_slice(%[[G]],
// RT: llvm.call @distrt_check_alloc
// RT: %[[S2:.*]] = llvm.mlir.addressof @__dist_grid___dist_refined_0 :
// RT: %[[G2:.*]] = llvm.call @distrt_grid_lookup(%[[S2]],
// RT: llvm.call @distrt_redist_permute(%[[G2]],
// RT: llvm.call @distrt_redist_allgather(
// RT-NOT: llvm.call @distrt_redistribute
// RT: return
// GEN-LABEL: func.func @two_grids
// GEN: dist.redistribute_tile %{{.*}} into %{{.*}} : memref<?xf64> of !dist.tensor<16x8xf64, #dist.layout<@a, [(0), ()]>> into memref<?xf64> of !dist.tensor<16x8xf64, #dist.layout<@c, [(1), ()]>>
func.func @two_grids(%x: !A, %y: !C) {
  dist.redistribute %x into %y : !A into !C
  return
}

// -----

// On a 16 x 16 grid, a tile of 16 elements keeps the plan's two steps (15
// messages each, against 255 for one all-to-all over both axes); a tile of
// 16 M elements runs them as one (a pass over the tile saved outweighs 225
// more messages).
dist.grid @q [16, 16]
!S = !dist.tensor<64x64xf64, #dist.layout<@q, [(0, 1) blocked, ()]>>
!D = !dist.tensor<64x64xf64, #dist.layout<@q, [(0) blocked, (1) blocked]>>
!SB = !dist.tensor<65536x65536xf64, #dist.layout<@q, [(0, 1) blocked, ()]>>
!DB = !dist.tensor<65536x65536xf64, #dist.layout<@q, [(0) blocked, (1) blocked]>>
// CHECK-LABEL: func.func @grid16_small
// CHECK: dist.redist_all_to_all %arg0 into %[[T:.*]] axes [1] :
// CHECK: dist.redist_change_kind %[[T]] into %arg1 axes [0] :
// CHECK-NOT: dist.redist
// CHECK: return
func.func @grid16_small(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}
// CHECK-LABEL: func.func @grid16_large
// CHECK-NOT: memref.alloc
// CHECK: dist.redist_all_to_all %arg0 into %arg1 axes [0, 1] :
// CHECK-NOT: dist.redist
// CHECK: return
// STEPS-LABEL: func.func @grid16_large
// STEPS: dist.redist_all_to_all %arg0 into %[[T:.*]] axes [1] :
// STEPS: dist.redist_change_kind %[[T]] into %arg1 axes [0] :
// STEPS: return
func.func @grid16_large(%a: !SB, %b: !DB) {
  dist.redistribute %a into %b : !SB into !DB
  return
}
