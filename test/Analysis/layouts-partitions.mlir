// Partition kinds with uneven extents, hierarchical machines, scalars and
// tensors too large to list.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null | FileCheck %s

dist.grid @l [4]
dist.grid @m [2, 2]
dist.grid @h node[2], cpu[2]
dist.grid @big [16, 8]

func.func @uneven() {
  // n = 10 in blocks of ceil(10/4) = 3: 3, 3, 3, 1.
  // CHECK-LABEL: alloc #0: 10 over @l [4] as [(0) blocked]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0] : 0 <= i0 <= 9 and 0 <= p0 <= 3 and -2 + i0 <= 3p0 <= i0 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0]] -> L[l0 = i0 - 3p0] : 0 <= i0 <= 9 and 0 <= p0 <= 3 and -2 + i0 <= 3p0 <= i0 }
  // CHECK-NEXT: max local extents: [3]
  // CHECK-NEXT: owners of (0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (9): { P[p0 = 3] }
  // CHECK-NEXT: P(0): extents [3] elements {0,1,2} owned { T[i0] : 0 <= i0 <= 2 }
  // CHECK-NEXT: P(1): extents [3] elements {3,4,5} owned { T[i0] : 3 <= i0 <= 5 }
  // CHECK-NEXT: P(2): extents [3] elements {6,7,8} owned { T[i0] : 6 <= i0 <= 8 }
  // CHECK-NEXT: P(3): extents [1] elements {9} owned { T[i0 = 9] }
  // CHECK-NEXT: total owned (with replication): 10
  %b = dist.alloc : !dist.tensor<10xf64, #dist.layout<@l, "x -> x">>
  // n = 5 over 4: blocks of 2: 2, 2, 1, 0 (the last processor is empty).
  // CHECK-LABEL: alloc #1: 5 over @l [4] as [(0) blocked]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0] : 0 <= i0 <= 4 and 0 <= p0 <= 3 and -1 + i0 <= 2p0 <= i0 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0]] -> L[l0 = i0 - 2p0] : 0 <= i0 <= 4 and 0 <= p0 <= 3 and -1 + i0 <= 2p0 <= i0 }
  // CHECK-NEXT: max local extents: [2]
  // CHECK-NEXT: owners of (0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (4): { P[p0 = 2] }
  // CHECK-NEXT: P(0): extents [2] elements {0,1} owned { T[i0] : 0 <= i0 <= 1 }
  // CHECK-NEXT: P(1): extents [2] elements {2,3} owned { T[i0] : 2 <= i0 <= 3 }
  // CHECK-NEXT: P(2): extents [1] elements {4} owned { T[i0 = 4] }
  // CHECK-NEXT: P(3): extents [0] elements {} owned { T[i0] : false }
  // CHECK-NEXT: total owned (with replication): 5
  %e = dist.alloc : !dist.tensor<5xf64, #dist.layout<@l, "x -> x">>
  // Cyclic, n = 10 over 4: 3, 3, 2, 2.
  // CHECK-LABEL: alloc #2: 10 over @l [4] as [(0)]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0] : (-i0 + p0) mod 4 = 0 and 0 <= i0 <= 9 and 0 <= p0 <= 3 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0]] -> L[l0] : (-i0 + p0) mod 4 = 0 and 0 <= i0 <= 9 and 0 <= p0 <= 3 and -3 + i0 <= 4l0 <= i0 }
  // CHECK-NEXT: max local extents: [3]
  // CHECK-NEXT: owners of (0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (9): { P[p0 = 1] }
  // CHECK-NEXT: P(0): extents [3] elements {0,4,8} owned { T[i0] : (i0) mod 4 = 0 and 0 <= i0 <= 9 }
  // CHECK-NEXT: P(1): extents [3] elements {1,5,9} owned { T[i0] : (-1 + i0) mod 4 = 0 and 0 <= i0 <= 9 }
  // CHECK-NEXT: P(2): extents [2] elements {2,6} owned { T[i0] : (2 + i0) mod 4 = 0 and 0 <= i0 <= 9 }
  // CHECK-NEXT: P(3): extents [2] elements {3,7} owned { T[i0] : (1 + i0) mod 4 = 0 and 0 <= i0 <= 9 }
  // CHECK-NEXT: total owned (with replication): 10
  %c = dist.alloc : !dist.tensor<10xf64, #dist.layout<@l, "x -> x" cyclic>>
  // Block-cyclic with blocks of 2, n = 11 over 4: {0,1,8,9}, {2,3,10},
  // {4,5}, {6,7}.
  // CHECK-LABEL: alloc #3: 11 over @l [4] as [(0) block_cyclic(2)]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0] : 0 <= i0 <= 10 and 0 <= p0 <= 3 and -1 + i0 - 2p0 <= 8*floor((i0)/8) <= i0 - 2p0 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0]] -> L[l0] : (i0) mod 2 = l0 - 2*floor((i0)/8) and 0 <= i0 <= 10 and 0 <= p0 <= 3 and -1 + l0 <= 2*floor((i0)/8) <= l0 and -1 + i0 - 2p0 <= 8*floor((i0)/8) <= i0 - 2p0 }
  // CHECK-NEXT: max local extents: [4]
  // CHECK-NEXT: owners of (0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (10): { P[p0 = 1] }
  // CHECK-NEXT: P(0): extents [4] elements {0,1,8,9} owned { T[i0] : 0 <= i0 <= 10 and 8*floor((i0)/8) >= -1 + i0 }
  // CHECK-NEXT: P(1): extents [3] elements {2,3,10} owned { T[i0] : 0 <= i0 <= 10 and -3 + i0 <= 8*floor((i0)/8) <= -2 + i0 }
  // CHECK-NEXT: P(2): extents [2] elements {4,5} owned { T[i0] : 4 <= i0 <= 5 }
  // CHECK-NEXT: P(3): extents [2] elements {6,7} owned { T[i0] : 6 <= i0 <= 7 }
  // CHECK-NEXT: total owned (with replication): 11
  %bc = dist.alloc : !dist.tensor<11xf64, #dist.layout<@l, "x -> x" block_cyclic(2)>>
  return
}

func.func @block_cyclic_2d() {
  // Rows over mesh mode 1, columns over mesh mode 0, blocks of 2.
  // CHECK-LABEL: alloc #4: 6x4 over @m [2, 2] as [(1) block_cyclic(2), (0) block_cyclic(2)]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1] : 0 <= i0 <= 5 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and 0 <= p1 <= 1 and -1 + i0 - 2p1 <= 4*floor((i0)/4) <= i0 - 2p1 and -1 + i1 - 2p0 <= 4*floor((i1)/4) <= i1 - 2p0 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1]] -> L[l0, l1] : (i0) mod 2 = l0 - 2*floor((i0)/4) and (i1) mod 2 = l1 - 2*floor((i1)/4) and 0 <= i0 <= 5 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and 0 <= p1 <= 1 and -1 + l0 <= 2*floor((i0)/4) <= l0 and -1 + i0 - 2p1 <= 4*floor((i0)/4) <= i0 - 2p1 and -1 + l1 <= 2*floor((i1)/4) <= l1 and -1 + i1 - 2p0 <= 4*floor((i1)/4) <= i1 - 2p0 }
  // CHECK-NEXT: max local extents: [4, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (5,3): { P[p0 = 1, p1 = 0] }
  // CHECK-NEXT: P(0,0): extents [4, 2] elements {(0,0),(0,1),(1,0),(1,1),(4,0),(4,1),(5,0),(5,1)} owned { T[i0, i1] : 0 <= i0 <= 5 and 0 <= i1 <= 1 and 4*floor((i0)/4) >= -1 + i0 }
  // CHECK-NEXT: P(0,1): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,0): extents [4, 2] elements {(0,2),(0,3),(1,2),(1,3),(4,2),(4,3),(5,2),(5,3)} owned { T[i0, i1] : 0 <= i0 <= 5 and 2 <= i1 <= 3 and 4*floor((i0)/4) >= -1 + i0 }
  // CHECK-NEXT: P(1,1): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 24
  %a = dist.alloc : !dist.tensor<6x4xf64, #dist.layout<@m, "xy -> yx" block_cyclic(2)>>
  return
}

func.func @hierarchical() {
  // 2 nodes x 2 CPUs: level 0 gives each node 5 of 10 rows (blocked),
  // level 1 deals the node's rows cyclically to its CPUs.
  // CHECK-LABEL: alloc #5: 10x2 over @h [2] x [2] as [(0) blocked, ()], [(0), ()]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0 = 1, p1] : (1 + i0 + p1) mod 2 = 0 and 5 <= i0 <= 9 and 0 <= i1 <= 1 and 0 <= p1 <= 1; T[i0, i1] -> P[p0 = 0, p1] : (i0 + p1) mod 2 = 0 and 0 <= i0 <= 4 and 0 <= i1 <= 1 and 0 <= p1 <= 1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0 = 1, p1]] -> L[l0, l1 = i1] : (1 + i0 + p1) mod 2 = 0 and 5 <= i0 <= 9 and 0 <= i1 <= 1 and 0 <= p1 <= 1 and -6 + i0 <= 2l0 <= -5 + i0; [T[i0, i1] -> P[p0 = 0, p1]] -> L[l0, l1 = i1] : (i0 + p1) mod 2 = 0 and 0 <= i0 <= 4 and 0 <= i1 <= 1 and 0 <= p1 <= 1 and -1 + i0 <= 2l0 <= i0 }
  // CHECK-NEXT: max local extents: [3, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (9,1): { P[p0 = 1, p1 = 0] }
  // CHECK-NEXT: P(0,0): extents [3, 2] elements {(0,0),(0,1),(2,0),(2,1),(4,0),(4,1)} owned { T[i0, i1] : (i0) mod 2 = 0 and 0 <= i0 <= 4 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(0,1): extents [2, 2] elements {(1,0),(1,1),(3,0),(3,1)} owned { T[i0, i1] : (1 + i0) mod 2 = 0 and 0 <= i0 <= 4 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,0): extents [3, 2] elements {(5,0),(5,1),(7,0),(7,1),(9,0),(9,1)} owned { T[i0, i1] : (1 + i0) mod 2 = 0 and 5 <= i0 <= 9 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,1): extents [2, 2] elements {(6,0),(6,1),(8,0),(8,1)} owned { T[i0, i1] : (i0) mod 2 = 0 and 5 <= i0 <= 9 and 0 <= i1 <= 1 }
  // CHECK-NEXT: total owned (with replication): 20
  %a = dist.alloc : !dist.tensor<10x2xf64, #dist.layout<@h, "xy -> x", "xy -> x" cyclic>>
  return
}

func.func @scalar_and_large() {
  // A scalar replicated everywhere.
  // CHECK-LABEL: alloc #6: scalar over @m [2, 2] as []
  // CHECK-NEXT: ownership: { T[] -> P[p0, p1] : 0 <= p0 <= 1 and 0 <= p1 <= 1 }
  // CHECK-NEXT: local index: { [T[] -> P[p0, p1]] -> L[] : 0 <= p0 <= 1 and 0 <= p1 <= 1 }
  // CHECK-NEXT: max local extents: []
  // CHECK-NEXT: owners of (): { P[p0, p1] : 0 <= p0 <= 1 and 0 <= p1 <= 1 }
  // CHECK-NEXT: P(0,0): extents [] elements {()} owned { T[] }
  // CHECK-NEXT: P(0,1): extents [] elements {()} owned { T[] }
  // CHECK-NEXT: P(1,0): extents [] elements {()} owned { T[] }
  // CHECK-NEXT: P(1,1): extents [] elements {()} owned { T[] }
  // CHECK-NEXT: total owned (with replication): 4
  %s = dist.alloc : !dist.tensor<f64, #dist.layout<@m, " -> **">>
  // 128 elements: extents and isl sets, no element lists.
  // CHECK-LABEL: alloc #7: 16x8 over @m [2, 2] as [(0) blocked, (1) blocked]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1] : i0 >= 0 and 0 <= i1 <= 7 and p0 <= 1 and -7 + i0 <= 8p0 <= i0 and 0 <= p1 <= 1 and -3 + i1 <= 4p1 <= i1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1]] -> L[l0 = i0 - 8p0, l1 = i1 - 4p1] : i0 >= 0 and 0 <= i1 <= 7 and p0 <= 1 and -7 + i0 <= 8p0 <= i0 and 0 <= p1 <= 1 and -3 + i1 <= 4p1 <= i1 }
  // CHECK-NEXT: max local extents: [8, 4]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (15,7): { P[p0 = 1, p1 = 1] }
  // CHECK-NEXT: P(0,0): extents [8, 4] owned { T[i0, i1] : 0 <= i0 <= 7 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(0,1): extents [8, 4] owned { T[i0, i1] : 0 <= i0 <= 7 and 4 <= i1 <= 7 }
  // CHECK-NEXT: P(1,0): extents [8, 4] owned { T[i0, i1] : 8 <= i0 <= 15 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(1,1): extents [8, 4] owned { T[i0, i1] : 8 <= i0 <= 15 and 4 <= i1 <= 7 }
  // CHECK-NEXT: total owned (with replication): 128
  %t = dist.alloc : !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> xy">>
  // 128 processors: no per-processor listing.
  // CHECK-LABEL: alloc #8: 32x32 over @big [16, 8] as [(0) blocked, (1) blocked]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1] : i0 >= 0 and 0 <= i1 <= 31 and p0 <= 15 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 7 and -3 + i1 <= 4p1 <= i1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1]] -> L[l0 = i0 - 2p0, l1 = i1 - 4p1] : i0 >= 0 and 0 <= i1 <= 31 and p0 <= 15 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 7 and -3 + i1 <= 4p1 <= i1 }
  // CHECK-NEXT: max local extents: [2, 4]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (31,31): { P[p0 = 15, p1 = 7] }
  // CHECK-NEXT: (128 processors: per-processor listing skipped)
  // CHECK-NEXT: total owned (with replication): 1024
  %u = dist.alloc : !dist.tensor<32x32xf64, #dist.layout<@big, "xy -> xy">>
  return
}
