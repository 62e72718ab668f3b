// RUN: dist-opt %s --dist-import-shard -split-input-file | FileCheck %s
// dist-import-shard: upstream shard annotations become dist grids, layouts,
// redistributions and computations. The cases follow upstream's own tests
// (mlir/test/Dialect/Shard/partition.mlir, Linalg/shard-partition.mlir) with
// element types dist holds (f32, f64, i32, i64).

// A 1-D grid, element-wise linalg.generic on shards of dimension 0; the
// result becomes a destination argument that the computation writes.
// CHECK: dist.grid @grid_1d [2]
// CHECK-NOT: shard.
// CHECK-LABEL: func.func @elementwise_1d
// CHECK-SAME: (%[[A:.*]]: !dist.tensor<2xf32, #dist.layout<@grid_1d, [(0) blocked]>>, %[[B:.*]]: !dist.tensor<2xf32, #dist.layout<@grid_1d, [(0) blocked]>>, %[[O:.*]]: !dist.tensor<2xf32, #dist.layout<@grid_1d, [(0) blocked]>>, %[[R:.*]]: !dist.tensor<2xf32, #dist.layout<@grid_1d, [(0) blocked]>>)
// CHECK-NOT: dist.alloc
// CHECK: dist.compute "Y(i) = (A(i) * B(i))" (Y = %[[R]], A = %[[A]], B = %[[B]])
// CHECK-SAME: schedule [divide(i, ig0, il, 2), reorder({ig0, il}), distribute({ig0})]
// CHECK-NEXT: return
shard.grid @grid_1d(shape = 2)
func.func @elementwise_1d(%in1: tensor<2xf32>, %in2: tensor<2xf32>,
                          %out: tensor<2xf32>) -> tensor<2xf32> {
  %s = shard.sharding @grid_1d split_axes = [[0]] : !shard.sharding
  %a = shard.shard %in1 to %s : tensor<2xf32>
  %a2 = shard.shard %a to %s annotate_for_users : tensor<2xf32>
  %b = shard.shard %in2 to %s : tensor<2xf32>
  %b2 = shard.shard %b to %s annotate_for_users : tensor<2xf32>
  %o = shard.shard %out to %s : tensor<2xf32>
  %o2 = shard.shard %o to %s annotate_for_users : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a2, %b2 : tensor<2xf32>, tensor<2xf32>) outs(%o2 : tensor<2xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %r1 = shard.shard %r to %s : tensor<2xf32>
  %r2 = shard.shard %r1 to %s annotate_for_users : tensor<2xf32>
  return %r2 : tensor<2xf32>
}

// -----

// A 2-D grid, a matrix product on 2-D tiles with a zero-filled output:
// C = A * B with the one-sided schedule. A replicated B is resharded to
// the tiles its use asks for.
// CHECK: dist.grid @g [2, 2]
// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.*]]: !dist.tensor<8x6xf64, #dist.layout<@g, [(0) blocked, (1) blocked]>>, %[[B:.*]]: !dist.tensor<6x4xf64, #dist.layout<@g, [(), ()]>>, %[[C:.*]]: !dist.tensor<8x4xf64, #dist.layout<@g, [(0) blocked, (1) blocked]>>)
// CHECK: %[[B2:.*]] = dist.alloc : !dist.tensor<6x4xf64, #dist.layout<@g, [(0) blocked, (1) blocked]>>
// CHECK: dist.redistribute %[[B]] into %[[B2]]
// CHECK-NOT: dist.alloc
// CHECK: dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %[[C]], A = %[[A]], B = %[[B2]]) schedule [stationary(auto), prefetch(2)]
// CHECK-NEXT: return
shard.grid @g(shape = 2x2)
func.func @matmul_2d(%a: tensor<8x6xf64>, %b: tensor<6x4xf64>) -> tensor<8x4xf64> {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x6xf64>
  %b1 = shard.shard %b to %r : tensor<6x4xf64>
  %b2 = shard.shard %b1 to %s annotate_for_users : tensor<6x4xf64>
  %e = tensor.empty() : tensor<8x4xf64>
  %zero = arith.constant 0.0 : f64
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<8x4xf64>) -> tensor<8x4xf64>
  %m = linalg.matmul ins(%a1, %b2 : tensor<8x6xf64>, tensor<6x4xf64>)
                     outs(%f : tensor<8x4xf64>) -> tensor<8x4xf64>
  %m1 = shard.shard %m to %s : tensor<8x4xf64>
  return %m1 : tensor<8x4xf64>
}

// -----

// Several grid axes on one dimension: upstream numbers the shards of
// [[0, 1]] p0 * P1 + p1 (axis 1 fastest), dist lists the fastest mode
// first: (1, 0). Unused grid axes replicate; a 3-D grid.
// CHECK: dist.grid @g3 [2, 3, 2]
// CHECK-LABEL: func.func @multi_axis
// CHECK-SAME: !dist.tensor<12x6xf32, #dist.layout<@g3, [(1, 0) blocked, ()]>>
// CHECK-SAME: !dist.tensor<12x6xf32, #dist.layout<@g3, [(2) blocked, (0, 1) blocked]>>
// The copy into the second layout, computed on it, written to the result:
// CHECK: %[[T:.*]] = dist.alloc : !dist.tensor<12x6xf32, #dist.layout<@g3, [(2) blocked, (0, 1) blocked]>>
// CHECK: dist.redistribute %{{.*}} into %[[T]]
// CHECK: dist.compute "Y(i,j) = -A(i,j)" (Y = %{{.*}}, A = %[[T]])
// CHECK-SAME: schedule [divide(i, ig2, il, 2), divide(j, jq, jl, 6), divide(jq, jg1, jr1, 3), reorder({jr1, jg1, ig2, il, jl}), distribute({jr1, jg1, ig2})]
shard.grid @g3(shape = 2x3x2)
func.func @multi_axis(%a: tensor<12x6xf32>) -> tensor<12x6xf32> {
  %s = shard.sharding @g3 split_axes = [[0, 1]] : !shard.sharding
  %t = shard.sharding @g3 split_axes = [[2], [1, 0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<12x6xf32>
  %a2 = shard.shard %a1 to %t annotate_for_users : tensor<12x6xf32>
  %n = arith.negf %a2 : tensor<12x6xf32>
  %n1 = shard.shard %n to %t : tensor<12x6xf32>
  return %n1 : tensor<12x6xf32>
}

// -----

// A product onto a live output (linalg.matmul adds to its outs): a copy of
// the initial value into the result's layout, then C += A * B.
// CHECK-LABEL: func.func @matmul_accumulate
// CHECK-SAME: %[[C0:[a-z0-9]+]]: !dist.tensor<8x8xf32, #dist.layout<@g4, [(), ()]>>, %[[R:[a-z0-9]+]]: !dist.tensor<8x8xf32, #dist.layout<@g4, [(), (0) blocked]>>)
// CHECK: dist.redistribute %[[C0]] into %[[R]]
// CHECK: dist.compute "C(i,j) += A(i,k) * B(k,j)" (C = %[[R]],
shard.grid @g4(shape = 4)
func.func @matmul_accumulate(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>,
                             %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<8x8xf32>
  %m = linalg.matmul ins(%a1, %b : tensor<8x8xf32>, tensor<8x8xf32>)
                     outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m1 = shard.shard %m to %s : tensor<8x8xf32>
  return %m1 : tensor<8x8xf32>
}

// -----

// Integer products and reductions of linalg.generic: the initial value is
// added (Z), the reduction index summed inside the product; owner-computes.
// CHECK-LABEL: func.func @int_matmul
// CHECK: dist.compute "Y(i,j) = Z(i,j) + (A(i,k) * B(k,j))"
// CHECK-SAME: schedule [divide(i, ig0, il, 4), reorder({ig0, il, j}), distribute({ig0})]
// CHECK-LABEL: func.func @matvec_broadcast
// CHECK: dist.compute "Y(i) = ((A(i,j) * B(j)) * 2)"
shard.grid @g4(shape = 4)
func.func @int_matmul(%a: tensor<250x8xi64>, %b: tensor<8x8xi64>,
                      %c: tensor<250x8xi64>) -> tensor<250x8xi64> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<250x8xi64>
  %c1 = shard.shard %c to %s : tensor<250x8xi64>
  %m = linalg.matmul ins(%a1, %b : tensor<250x8xi64>, tensor<8x8xi64>)
                     outs(%c1 : tensor<250x8xi64>) -> tensor<250x8xi64>
  %m1 = shard.shard %m to %s : tensor<250x8xi64>
  return %m1 : tensor<250x8xi64>
}
func.func @matvec_broadcast(%a: tensor<250x3xf32>, %v: tensor<3xf32>) -> tensor<250xf32> {
  %s = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<250x3xf32>
  %e = tensor.empty() : tensor<250xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a1, %v : tensor<250x3xf32>, tensor<3xf32>) outs(%e : tensor<250xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %two : f32
    %t = arith.addf %o, %q : f32
    linalg.yield %t : f32
  } -> tensor<250xf32>
  %r1 = shard.shard %r to %s : tensor<250xf32>
  return %r1 : tensor<250xf32>
}

// -----

// Named element-wise ops, a transpose, splat constants (written as
// literals; a returned constant is computed into its destination) and an
// unannotated value (replicated on the function's grid).
// CHECK-LABEL: func.func @named
// CHECK: dist.compute "Y(i,j) = A(j,i)"
// CHECK: dist.compute "Y(i,j) = (A(i,j) + B(i,j))"
// CHECK: dist.compute "Y(i,j) = A(i,j) * 0.5"
// CHECK: dist.compute "Y(i,j) = (-1.25)"
shard.grid @g2(shape = 2)
func.func @named(%a: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %s = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<4x4xf64>
  %e = tensor.empty() : tensor<4x4xf64>
  %t = linalg.transpose ins(%a1 : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) permutation = [1, 0]
  %sum = linalg.add ins(%t, %a1 : tensor<4x4xf64>, tensor<4x4xf64>)
                    outs(%e : tensor<4x4xf64>) -> tensor<4x4xf64>
  %half = arith.constant dense<0.5> : tensor<4x4xf64>
  %w = arith.mulf %sum, %half : tensor<4x4xf64>
  %w1 = shard.shard %w to %s : tensor<4x4xf64>
  %k = arith.constant dense<-1.25> : tensor<4x4xf64>
  return %w1, %k : tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

// Halos keep the blocked layout (dist moves what each computation reads);
// sharded_dims_offsets that are dist's ceil(n/p) blocks are accepted.
// CHECK-LABEL: func.func @halo_and_offsets
// CHECK-SAME: !dist.tensor<8x16xf32, #dist.layout<@g4, [(0) blocked, ()]>>
// CHECK-SAME: !dist.tensor<10x4xf32, #dist.layout<@g4, [(0) blocked, ()]>>
shard.grid @g4(shape = 4)
func.func @halo_and_offsets(%a: tensor<8x16xf32>, %b: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %h = shard.sharding @g4 split_axes = [[0]] halo_sizes = [2, 1] : !shard.sharding
  %a1 = shard.shard %a to %h : tensor<8x16xf32>
  %o = shard.sharding @g4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !shard.sharding
  %b1 = shard.shard %b to %o : tensor<10x4xf32>
  return %b1 : tensor<10x4xf32>
}
