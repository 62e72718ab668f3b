// DISTAL Fig. 5: the tensor distribution notation on small matrices.
// For every alloc: the ownership relation and, per processor (row-major),
// the local tile extents and the owned elements.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null | FileCheck %s

dist.grid @line [2]
dist.grid @m [2, 2]
dist.grid @cube [2, 2, 2]

func.func @fig5() {
  // (a) Rows over a 1-D machine: "xy -> x".
  // CHECK-LABEL: alloc #0: 4x4 over @line [2] as [(0) blocked, ()]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i0 <= 2p0 <= i0 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0]] -> L[l0 = i0 - 2p0, l1 = i1] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i0 <= 2p0 <= i0 }
  // CHECK-NEXT: max local extents: [2, 4]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1] }
  // CHECK-NEXT: P(0): extents [2, 4] elements {(0,0),(0,1),(0,2),(0,3),(1,0),(1,1),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(1): extents [2, 4] elements {(2,0),(2,1),(2,2),(2,3),(3,0),(3,1),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 16
  %rows = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@line, "xy -> x">>
  // (b) Columns: "xy -> y".
  // CHECK-LABEL: alloc #1: 4x4 over @line [2] as [(), (0) blocked]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i1 <= 2p0 <= i1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0]] -> L[l0 = i0, l1 = i1 - 2p0] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i1 <= 2p0 <= i1 }
  // CHECK-NEXT: max local extents: [4, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0] }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1] }
  // CHECK-NEXT: P(0): extents [4, 2] elements {(0,0),(0,1),(1,0),(1,1),(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 0 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1): extents [4, 2] elements {(0,2),(0,3),(1,2),(1,3),(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 0 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 16
  %cols = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@line, "xy -> y">>
  // Rows on a 2-D machine, replicated along the machine's second dimension.
  // CHECK-LABEL: alloc #2: 4x4 over @m [2, 2] as [(0) blocked, ()]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1]] -> L[l0 = i0 - 2p0, l1 = i1] : 0 <= i0 <= 3 and 0 <= i1 <= 3 and 0 <= p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 }
  // CHECK-NEXT: max local extents: [2, 4]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1] : 0 <= p1 <= 1 }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1, p1] : 0 <= p1 <= 1 }
  // CHECK-NEXT: P(0,0): extents [2, 4] elements {(0,0),(0,1),(0,2),(0,3),(1,0),(1,1),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(0,1): extents [2, 4] elements {(0,0),(0,1),(0,2),(0,3),(1,0),(1,1),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(1,0): extents [2, 4] elements {(2,0),(2,1),(2,2),(2,3),(3,0),(3,1),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 3 }
  // CHECK-NEXT: P(1,1): extents [2, 4] elements {(2,0),(2,1),(2,2),(2,3),(3,0),(3,1),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 32
  %rows2 = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@m, "xy -> x*">>
  // (c) Tiles: "xy -> xy".
  // CHECK-LABEL: alloc #3: 4x4 over @m [2, 2] as [(0) blocked, (1) blocked]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1]] -> L[l0 = i0 - 2p0, l1 = i1 - 2p1] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 }
  // CHECK-NEXT: max local extents: [2, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0] }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1, p1 = 1] }
  // CHECK-NEXT: P(0,0): extents [2, 2] elements {(0,0),(0,1),(1,0),(1,1)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(0,1): extents [2, 2] elements {(0,2),(0,3),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(1,0): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,1): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 16
  %tiles = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@m, "xy -> xy">>
  // (d) Tiles on the face z = 0 of a 2x2x2 machine: "xy -> xy0".
  // CHECK-LABEL: alloc #4: 4x4 over @cube [2, 2, 2] as [(0) blocked, (1) blocked] | (2 = 0)
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1, p2 = 0] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1, p2 = 0]] -> L[l0 = i0 - 2p0, l1 = i1 - 2p1] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 }
  // CHECK-NEXT: max local extents: [2, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0, p2 = 0] }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1, p1 = 1, p2 = 0] }
  // CHECK-NEXT: P(0,0,0): extents [2, 2] elements {(0,0),(0,1),(1,0),(1,1)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(0,0,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(0,1,0): extents [2, 2] elements {(0,2),(0,3),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(0,1,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(1,0,0): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,0,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: P(1,1,0): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(1,1,1): extents [0, 0] elements {} owned { T[i0, i1] : false }
  // CHECK-NEXT: total owned (with replication): 16
  %face = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@cube, "xy -> xy0">>
  // (e) Tiles replicated along z: "xy -> xy*".
  // CHECK-LABEL: alloc #5: 4x4 over @cube [2, 2, 2] as [(0) blocked, (1) blocked]
  // CHECK-NEXT: ownership: { T[i0, i1] -> P[p0, p1, p2] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 and 0 <= p2 <= 1 }
  // CHECK-NEXT: local index: { [T[i0, i1] -> P[p0, p1, p2]] -> L[l0 = i0 - 2p0, l1 = i1 - 2p1] : i0 >= 0 and 0 <= i1 <= 3 and p0 <= 1 and -1 + i0 <= 2p0 <= i0 and 0 <= p1 <= 1 and -1 + i1 <= 2p1 <= i1 and 0 <= p2 <= 1 }
  // CHECK-NEXT: max local extents: [2, 2]
  // CHECK-NEXT: owners of (0,0): { P[p0 = 0, p1 = 0, p2] : 0 <= p2 <= 1 }
  // CHECK-NEXT: owners of (3,3): { P[p0 = 1, p1 = 1, p2] : 0 <= p2 <= 1 }
  // CHECK-NEXT: P(0,0,0): extents [2, 2] elements {(0,0),(0,1),(1,0),(1,1)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(0,0,1): extents [2, 2] elements {(0,0),(0,1),(1,0),(1,1)} owned { T[i0, i1] : 0 <= i0 <= 1 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(0,1,0): extents [2, 2] elements {(0,2),(0,3),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(0,1,1): extents [2, 2] elements {(0,2),(0,3),(1,2),(1,3)} owned { T[i0, i1] : 0 <= i0 <= 1 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(1,0,0): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,0,1): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)} owned { T[i0, i1] : 2 <= i0 <= 3 and 0 <= i1 <= 1 }
  // CHECK-NEXT: P(1,1,0): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: P(1,1,1): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)} owned { T[i0, i1] : 2 <= i0 <= 3 and 2 <= i1 <= 3 }
  // CHECK-NEXT: total owned (with replication): 32
  %repl = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@cube, "xy -> xy*">>
  return
}
