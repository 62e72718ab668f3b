// RUN: dist-opt %s --dist-flatten-machines | FileCheck %s
// RUN: dist-opt %s --dist-flatten-machines | dist-opt | FileCheck %s

// dist-to-llvm runs the pass first: the hierarchical examples compile, and
// their grid handle tells the runtime which axes index nodes (the
// arguments: test/Conversion/DistToRuntime/grids.mlir).
// RUN: dist-opt %dist_src_root/examples/distal/hierarchical/summa-nodes.mlir --dist-to-llvm | FileCheck %s --check-prefix=PIPE
// RUN: dist-opt %dist_src_root/examples/distal/hierarchical/ttv-nodes.mlir --dist-to-llvm | FileCheck %s --check-prefix=PIPE
// PIPE: llvm.mlir.global internal constant @__dist_grid_h_dims
// PIPE: llvm.call @distrt_grid_lookup_nodes(
// PIPE-NOT: distrt_grid_lookup(
// RUN: dist-opt %dist_src_root/examples/distal/hierarchical/summa-gpus.mlir --dist-to-llvm | FileCheck %s --check-prefix=GPUS
// GPUS: llvm.call @distrt_device_alloc
// GPUS: llvm.call @distrt_grid_lookup_gpus(
// GPUS-NOT: distrt_grid_lookup_nodes(

// A machine of nodes becomes one grid over all its axes, outermost level
// first, with its node axes recorded; a one-level grid is left alone.
// CHECK-DAG: dist.grid @h [2, 2, 1, 2] {dist.node_axes = 2 : i64}
// CHECK-DAG: dist.grid @t [2, 3, 2] {dist.node_axes = 2 : i64}
// CHECK-DAG: dist.grid @m [4]
// A machine of nodes over GPUs keeps its processors' kind.
// CHECK-DAG: dist.grid @g gpu[2, 2, 4] {dist.node_axes = 2 : i64}
dist.grid @h node[2, 2], cpu[1, 2]
dist.grid @t node[2], node[3], cpu[2]
dist.grid @m [4]
dist.grid @g node[2, 2], gpu[4]

// SUMMA over nodes, SUMMA within each node: blocked over blocked puts the
// inner level's modes first (64 = 2 * 32 rows, 2 * 2 * 16 columns).
// CHECK-LABEL: func.func @summa
// CHECK-SAME: !dist.tensor<64x64xf64, #dist.layout<@h, [(2, 0) blocked, (3, 1) blocked]>>
// CHECK-SAME: -> !dist.tensor<64x64xf64, #dist.layout<@h, [(2, 0) blocked, (3, 1) blocked]>>
func.func @summa(%a: !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>)
    -> !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">> {
  return %a : !dist.tensor<64x64xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
}

// CHECK-LABEL: func.func @kinds
func.func @kinds() {
  // Cyclic over cyclic: outer modes first.
  // CHECK: dist.alloc : !dist.tensor<10xf64, #dist.layout<@h, [(0, 3)] | (1 = 0, 2 = 0)>>
  %c = dist.alloc : !dist.tensor<10xf64, #dist.layout<@h, "x -> x0" cyclic, "x -> 0x" cyclic>>
  // Block-cyclic over block-cyclic with one block size: outer modes first.
  // CHECK: dist.alloc : !dist.tensor<10x4xf64, #dist.layout<@h, [(1, 3) block_cyclic(2), ()]>>
  %b = dist.alloc : !dist.tensor<10x4xf64, #dist.layout<@h, "xy -> *x" block_cyclic(2), "xy -> *x" block_cyclic(2)>>
  // Partitioned at one level only (either), replicated elsewhere.
  // CHECK: dist.alloc : !dist.tensor<5x7xf64, #dist.layout<@h, [(0) blocked, (3) blocked]>>
  %o = dist.alloc : !dist.tensor<5x7xf64, #dist.layout<@h, "xy -> x*", "xy -> *y">>
  // Fixed faces at both levels (inner coordinates offset).
  // CHECK: dist.alloc : !dist.tensor<6xf64, #dist.layout<@h, [(3) blocked] | (1 = 1, 2 = 0)>>
  %f = dist.alloc : !dist.tensor<6xf64, #dist.layout<@h, "x -> *1", "x -> 0x">>
  // A skew on a dimension that one level partitions carries over.
  // CHECK: dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@h, [(0) blocked skew(1), (1) blocked]>>
  %s = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@h, [(0) blocked skew(1), (1) blocked], [(), ()]>>
  // Three levels, blocked: innermost modes first (12 = 2 * 3 * 2).
  // CHECK: dist.alloc : !dist.tensor<12xf64, #dist.layout<@t, [(2, 1, 0) blocked]>>
  %t = dist.alloc : !dist.tensor<12xf64, #dist.layout<@t, "x -> x", "x -> x", "x -> x">>
  // One-level machines are untouched.
  // CHECK: dist.alloc : !dist.tensor<6xf64, #dist.layout<@m, [(0) blocked]>>
  %m = dist.alloc : !dist.tensor<6xf64, #dist.layout<@m, "x -> x">>
  return
}

// A schedule distributing at both levels (DISTAL's Lassen schedules)
// verifies before and after flattening.
// CHECK-LABEL: func.func @two_level_schedule
// CHECK: distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2)), distribute({il, jl}, {ip, jp}, {ii, ji}, Grid(1, 2))
!T = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
func.func @two_level_schedule(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2)),
                distribute({il, jl}, {ip, jp}, {ii, ji}, Grid(1, 2))]
      : !T, !T, !T
  return
}

// `@h` in a schedule names every level at once (one variable per axis).
// CHECK-LABEL: func.func @whole_machine
!W = !dist.tensor<4x4x1x2xf64, #dist.layout<@h, "abcd -> ab", "abcd -> cd">>
func.func @whole_machine(%a: !W, %b: !W) {
  dist.compute "A(i,j,k,l) = B(i,j,k,l)" (A = %a, B = %b)
      schedule [distribute({i, j, k, l}, {io, jo, ko, lo}, {ii, ji, ki, li}, @h)]
      : !W, !W
  return
}
