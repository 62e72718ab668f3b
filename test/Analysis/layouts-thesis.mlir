// The thesis' (Schatz 2015) mode-tuple notation: elemental cyclic
// distributions, the first listed mesh mode varying fastest.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null | FileCheck %s

dist.grid @p [2, 3, 2]
dist.grid @g [2, 3]

func.func @example7() {
  // Example 7: I = (8, 3), D = [(0,2),(1)], P = (2,3,2). Process (1,2,0)
  // owns {(1,2),(5,2)} and process (0,0,1) owns {(2,0),(6,0)}.
  // CHECK-LABEL: alloc #0: 8x3 over @p [2, 3, 2] as [(0, 2), (1)]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1, p2] : (i0 + p0) mod 2 = 0 and (-i1 + p1) mod 3 = 0 and (-i0 + p0 + 2p2) mod 4 = 0 and 0 <= i0 <= 7 and 0 <= i1 <= 2 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and 0 <= p2 <= 1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1, p2]] -> L[l0, l1] : (i0 + p0) mod 2 = 0 and (-i1 + p1) mod 3 = 0 and (-i0 + p0 + 2p2) mod 4 = 0 and 0 <= i0 <= 7 and 0 <= i1 <= 2 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and 0 <= p2 <= 1 and -3 + i0 <= 4l0 <= i0 and -2 + i1 <= 3l1 <= i1 }
  // CHECK-NEXT: max local extents: [2, 1]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0, p2 = 0] }
  // CHECK-NEXT: owners of (7,2): { P[p0 = 1, p1 = 2, p2 = 1] }
  // CHECK-NEXT: P(0,0,0): extents [2, 1] elements {(0,0),(4,0)} owned { T[i0, i1 = 0] : (i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(0,0,1): extents [2, 1] elements {(2,0),(6,0)} owned { T[i0, i1 = 0] : (2 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(0,1,0): extents [2, 1] elements {(0,1),(4,1)} owned { T[i0, i1 = 1] : (i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(0,1,1): extents [2, 1] elements {(2,1),(6,1)} owned { T[i0, i1 = 1] : (2 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(0,2,0): extents [2, 1] elements {(0,2),(4,2)} owned { T[i0, i1 = 2] : (i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(0,2,1): extents [2, 1] elements {(2,2),(6,2)} owned { T[i0, i1 = 2] : (2 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,0,0): extents [2, 1] elements {(1,0),(5,0)} owned { T[i0, i1 = 0] : (-1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,0,1): extents [2, 1] elements {(3,0),(7,0)} owned { T[i0, i1 = 0] : (1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,1,0): extents [2, 1] elements {(1,1),(5,1)} owned { T[i0, i1 = 1] : (-1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,1,1): extents [2, 1] elements {(3,1),(7,1)} owned { T[i0, i1 = 1] : (1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,2,0): extents [2, 1] elements {(1,2),(5,2)} owned { T[i0, i1 = 2] : (-1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: P(1,2,1): extents [2, 1] elements {(3,2),(7,2)} owned { T[i0, i1 = 2] : (1 + i0) mod 4 = 0 and 0 <= i0 <= 7 }
  // CHECK-NEXT: total owned (with replication): 24
  %a = dist.alloc : !dist.tensor<8x3xf64, #dist.layout<@p, "[(0,2),(1)]">>
  return
}

func.func @vectors() {
  // (0,1): process (0,1) has linear index 0 + 2*1 = 2: it owns a2 and a8.
  // CHECK-LABEL: alloc #1: 12 over @g [2, 3] as [(0, 1)]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0, p1] : (i0 + p0) mod 2 = 0 and (-i0 + p0 + 2p1) mod 6 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and -p0 <= 2p1 <= 5 - p0 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0, p1]] -> L[l0] : (i0 + p0) mod 2 = 0 and (-i0 + p0 + 2p1) mod 6 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and -5 + i0 <= 6l0 <= i0 }
  // CHECK-NEXT: max local extents: [2]
  // CHECK-NEXT: owners of (0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (11): { P[p0 = 1, p1 = 2] }
  // CHECK-NEXT: P(0,0): extents [2] elements {0,6} owned { T[i0] : (i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,1): extents [2] elements {2,8} owned { T[i0] : (-2 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,2): extents [2] elements {4,10} owned { T[i0] : (2 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,0): extents [2] elements {1,7} owned { T[i0] : (-1 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,1): extents [2] elements {3,9} owned { T[i0] : (3 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,2): extents [2] elements {5,11} owned { T[i0] : (1 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: total owned (with replication): 12
  %v01 = dist.alloc : !dist.tensor<12xf64, #dist.layout<@g, "[(0,1)]">>
  // (1,0): process (0,1) has linear index 1 + 3*0 = 1: it owns a1 and a7.
  // CHECK-LABEL: alloc #2: 12 over @g [2, 3] as [(1, 0)]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0, p1] : (-i0 + 3p0 + p1) mod 6 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and p1 >= 0 and -3p0 <= p1 <= 5 - 3p0 and p1 <= 2 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0, p1]] -> L[l0] : (-i0 + 3p0 + p1) mod 6 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and -5 + i0 <= 6l0 <= i0 }
  // CHECK-NEXT: max local extents: [2]
  // CHECK-NEXT: owners of (0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (11): { P[p0 = 1, p1 = 2] }
  // CHECK-NEXT: P(0,0): extents [2] elements {0,6} owned { T[i0] : (i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,1): extents [2] elements {1,7} owned { T[i0] : (-1 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,2): extents [2] elements {2,8} owned { T[i0] : (-2 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,0): extents [2] elements {3,9} owned { T[i0] : (3 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,1): extents [2] elements {4,10} owned { T[i0] : (2 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,2): extents [2] elements {5,11} owned { T[i0] : (1 + i0) mod 6 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: total owned (with replication): 12
  %v10 = dist.alloc : !dist.tensor<12xf64, #dist.layout<@g, "[(1,0)]">>
  // (0): split over mesh mode 0 (stride 2), replicated over mesh mode 1.
  // CHECK-LABEL: alloc #3: 12 over @g [2, 3] as [(0)]
  // CHECK-NEXT: ownership: { T[i0] -> P[p0, p1] : (i0 + p0) mod 2 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and 0 <= p1 <= 2 }
  // CHECK-NEXT: local index: { [T[i0] -> P[p0, p1]] -> L[l0] : (i0 + p0) mod 2 = 0 and 0 <= i0 <= 11 and 0 <= p0 <= 1 and 0 <= p1 <= 2 and -1 + i0 <= 2l0 <= i0 }
  // CHECK-NEXT: max local extents: [6]
  // CHECK-NEXT: owners of (0): { P[p0 = 0, p1] : 0 <= p1 <= 2 }
  // CHECK-NEXT: owners of (11): { P[p0 = 1, p1] : 0 <= p1 <= 2 }
  // CHECK-NEXT: P(0,0): extents [6] elements {0,2,4,6,8,10} owned { T[i0] : (i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,1): extents [6] elements {0,2,4,6,8,10} owned { T[i0] : (i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(0,2): extents [6] elements {0,2,4,6,8,10} owned { T[i0] : (i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,0): extents [6] elements {1,3,5,7,9,11} owned { T[i0] : (1 + i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,1): extents [6] elements {1,3,5,7,9,11} owned { T[i0] : (1 + i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: P(1,2): extents [6] elements {1,3,5,7,9,11} owned { T[i0] : (1 + i0) mod 2 = 0 and 0 <= i0 <= 11 }
  // CHECK-NEXT: total owned (with replication): 36
  %v0 = dist.alloc : !dist.tensor<12xf64, #dist.layout<@g, "[(0)]">>
  return
}

func.func @nonreplicated() {
  // [(0),(); (1), 0]: only processes with p1 = 0 hold data; (1,0) owns the
  // odd rows, all columns.
  // CHECK-LABEL: alloc #4: 4x3 over @g [2, 3] as [(0), ()] | (1 = 0)
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1 = 0] : (i0 + p0) mod 2 = 0 and 0 <= i0 <= 3 and 0 <= i1 <= 2 and 0 <= p0 <= 1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1 = 0]] -> L[l0, l1 = i1] : (i0 + p0) mod 2 = 0 and 0 <= i0 <= 3 and 0 <= i1 <= 2 and 0 <= p0 <= 1 and -1 + i0 <= 2l0 <= i0 }
  // CHECK-NEXT: max local extents: [2, 3]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (3,2): { P[p0 = 1, p1 = 0] }
  // CHECK-NEXT: P(0,0): extents [2, 3] elements {(0,0),(0,1),(0,2),(2,0),(2,1),(2,2)} owned { T[i0, i1] : (i0) mod 2 = 0 and 0 <= i0 <= 3 and 0 <= i1 <= 2 }
  // CHECK-NEXT: P(0,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(0,2): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(1,0): extents [2, 3] elements {(1,0),(1,1),(1,2),(3,0),(3,1),(3,2)} owned { T[i0, i1] : (1 + i0) mod 2 = 0 and 0 <= i0 <= 3 and 0 <= i1 <= 2 }
  // CHECK-NEXT: P(1,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(1,2): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: total owned (with replication): 12
  %a = dist.alloc : !dist.tensor<4x3xf64, #dist.layout<@g, "[(0),(); (1), 0]">>
  return
}
