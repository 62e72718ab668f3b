// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
//
// Every spelling of a layout prints in the one canonical form, so the same
// distribution written in DISTAL's notation and in the thesis' mode tuples
// gives the same attribute.

dist.grid @m [2, 2]
dist.grid @c [2, 2, 2]
dist.grid @p [2, 3, 2]
dist.grid @l [4]
dist.grid @h node[2, 2], cpu[4]

// CHECK-LABEL: func @distal
func.func @distal() {
  // Tiles (DISTAL Fig. 5c).
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
  %0 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
  // Rows (Fig. 5b) and columns: the other machine dimension broadcasts.
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, ()]>>
  %1 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x*">>
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@m, [(), (0) blocked]>>
  %2 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> y*">>
  // Fixed to a face of a 2x2x2 machine (Fig. 5d).
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@c, [(0) blocked, (1) blocked] | (2 = 0)>>
  %3 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@c, "xy -> xy0">>
  // Replicated over the third dimension (Fig. 5e).
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@c, [(0) blocked, (1) blocked]>>
  %4 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@c, "xy -> xy*">>
  // Johnson's B: x0z.
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@c, [(0) blocked, (2) blocked] | (1 = 0)>>
  %5 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@c, "xz -> x0z">>
  // Transposed onto the machine, block-cyclic.
  // CHECK: !dist.tensor<8x8xf32, #dist.layout<@m, [(1) block_cyclic(2), (0) block_cyclic(2)]>>
  %6 = dist.alloc : !dist.tensor<8x8xf32, #dist.layout<@m, "xy -> yx" block_cyclic(2)>>
  // Uneven blocked.
  // CHECK: !dist.tensor<10xi32, #dist.layout<@l, [(0) blocked]>>
  %7 = dist.alloc : !dist.tensor<10xi32, #dist.layout<@l, "x -> x">>
  // Hierarchical: tiles over nodes, rows over each node's CPUs.
  // CHECK: !dist.tensor<16x16xi64, #dist.layout<@h, [(0) blocked, (1) blocked], [(0) blocked, ()]>>
  %8 = dist.alloc : !dist.tensor<16x16xi64, #dist.layout<@h, "xy -> xy", "zw -> z">>
  return
}

// CHECK-LABEL: func @thesis
func.func @thesis() {
  // Example 7.
  // CHECK: !dist.tensor<8x3xf64, #dist.layout<@p, [(0, 2), (1)]>>
  %0 = dist.alloc : !dist.tensor<8x3xf64, #dist.layout<@p, "[(0,2),(1)]">>
  // Replicated mode.
  // CHECK: !dist.tensor<8x3xf64, #dist.layout<@p, [(0), ()]>>
  %1 = dist.alloc : !dist.tensor<8x3xf64, #dist.layout<@p, "[(0),()]">>
  // Non-replicated form [D; E, w] and the library's "|" spelling.
  // CHECK: !dist.tensor<8x3xf64, #dist.layout<@p, [(0), ()] | (1 = 2)>>
  %2 = dist.alloc : !dist.tensor<8x3xf64, #dist.layout<@p, "[(0),(); (1), 2]">>
  // CHECK: !dist.tensor<8x3xf64, #dist.layout<@p, [(0), (1)] | (2 = 0)>>
  %3 = dist.alloc : !dist.tensor<8x3xf64, #dist.layout<@p, "[(0),(1)]|(2)">>
  return
}

// The same distribution in three spellings: identical canonical forms.
// CHECK-LABEL: func @same
// CHECK-COUNT-3: !dist.tensor<6x6xf64, #dist.layout<@m, [(0), (1)]>>
func.func @same() {
  %0 = dist.alloc : !dist.tensor<6x6xf64, #dist.layout<@m, "xy -> xy" cyclic>>
  %1 = dist.alloc : !dist.tensor<6x6xf64, #dist.layout<@m, "[(0),(1)]">>
  %2 = dist.alloc : !dist.tensor<6x6xf64, #dist.layout<@m, [(0), (1)]>>
  return
}

// Skewed owners (the article's Cannon): the skew prints after the kind and
// survives the generic form.
// CHECK-LABEL: func @skewed
func.func @skewed() {
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>>
  %0 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>>
  // CHECK: !dist.tensor<8x8xf64, #dist.layout<@m, [(0) skew(1), (1) block_cyclic(2)]>>
  %1 = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, [(0) cyclic skew(1), (1) block_cyclic(2)]>>
  // CHECK: !dist.tensor<8xf64, #dist.layout<@c, [(0, 1) skew(2)]>>
  %2 = dist.alloc : !dist.tensor<8xf64, #dist.layout<@c, [(0, 1) skew(2)]>>
  return
}
