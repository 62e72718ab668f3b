// Skewed layouts (the polyhedral article's `k @ ((x + y) mod g)`): the owner
// part of a skewed dimension is rotated by the coordinates of its skew mesh
// modes. The test pass cross-checks the closed form against isl on every
// processor and fails on any mismatch.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null | FileCheck %s

dist.grid @m [2, 2]
dist.grid @n [3, 3]

func.func @skew() {
  // Cannon's pre-skewed A: processor (x, y) holds block (x, (x + y) mod 2).
  // CHECK-LABEL: alloc #0: 4x4 over @m [2, 2] as [(0) blocked, (1) blocked skew(0)]
  // CHECK: ownership: {{.*}}4*floor((p0 + p1)/2)
  // CHECK: P(0,0): extents [2, 2] elements {(0,0),(0,1),(1,0),(1,1)}
  // CHECK-NEXT: P(0,1): extents [2, 2] elements {(0,2),(0,3),(1,2),(1,3)}
  // CHECK-NEXT: P(1,0): extents [2, 2] elements {(2,2),(2,3),(3,2),(3,3)}
  // CHECK-NEXT: P(1,1): extents [2, 2] elements {(2,0),(2,1),(3,0),(3,1)}
  // CHECK-NEXT: total owned (with replication): 16
  %a = dist.alloc : !dist.tensor<4x4xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>>
  // Cyclic, skewed by the other mode, uneven extents on 3x3.
  // CHECK-LABEL: alloc #1: 6x7 over @n [3, 3] as [(0) skew(1), (1) blocked]
  // CHECK: P(0,0): extents [2, 3] elements {(0,0),(0,1),(0,2),(3,0),(3,1),(3,2)}
  // CHECK: P(1,2): extents [2, 1] elements {(0,6),(3,6)}
  // CHECK: P(2,1): extents [2, 3] elements {(0,3),(0,4),(0,5),(3,3),(3,4),(3,5)}
  // CHECK: total owned (with replication): 42
  %b = dist.alloc : !dist.tensor<6x7xf64, #dist.layout<@n, [(0) cyclic skew(1), (1) blocked]>>
  // Skewed by a replicated mode: every anti-diagonal holds the same blocks.
  // CHECK-LABEL: alloc #2: 7 over @n [3, 3] as [(0) block_cyclic(2) skew(1)]
  // CHECK: owners of (0): { P[p0, p1] : (p0 + p1) mod 3 = 0 and 0 <= p0 <= 2 and 0 <= p1 <= 2 }
  // CHECK: P(0,0): extents [3] elements {0,1,6}
  // CHECK: P(1,2): extents [3] elements {0,1,6}
  // CHECK: total owned (with replication): 21
  %c = dist.alloc : !dist.tensor<7xf64, #dist.layout<@n, [(0) block_cyclic(2) skew(1)]>>
  return
}
