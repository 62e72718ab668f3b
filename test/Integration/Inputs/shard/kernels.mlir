// Functions annotated with upstream MLIR's shard dialect, as a front end
// that runs --sharding-propagation leaves them, for dist-import-shard
// (test/Integration/shard-import.test; main.mlir calls them in dist IR).
// Element types are those dist holds; every grid has 4 processes.

shard.grid @tiles(shape = 2x2)
shard.grid @line(shape = 4)

// C = A * B on 2-D tiles (upstream's shard-partition segfaults on this
// sharding of a matmul).
func.func @matmul_tiles(%a: tensor<64x48xf64>, %b: tensor<48x40xf64>) -> tensor<64x40xf64> {
  %s = shard.sharding @tiles split_axes = [[0], [1]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<64x48xf64>
  %a2 = shard.shard %a1 to %s annotate_for_users : tensor<64x48xf64>
  %b1 = shard.shard %b to %s : tensor<48x40xf64>
  %b2 = shard.shard %b1 to %s annotate_for_users : tensor<48x40xf64>
  %e = tensor.empty() : tensor<64x40xf64>
  %zero = arith.constant 0.0 : f64
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<64x40xf64>) -> tensor<64x40xf64>
  %z1 = shard.shard %z to %s : tensor<64x40xf64>
  %z2 = shard.shard %z1 to %s annotate_for_users : tensor<64x40xf64>
  %c = linalg.matmul ins(%a2, %b2 : tensor<64x48xf64>, tensor<48x40xf64>)
                     outs(%z2 : tensor<64x40xf64>) -> tensor<64x40xf64>
  %c1 = shard.shard %c to %s : tensor<64x40xf64>
  %c2 = shard.shard %c1 to %s annotate_for_users : tensor<64x40xf64>
  return %c2 : tensor<64x40xf64>
}

// D = C0 + A * B with rows of A, C0 and D over 4 processes and B
// replicated, n = 250 (not a multiple of 4).
func.func @matmul_rows_250(%a: tensor<250x250xf64>, %b: tensor<250x250xf64>,
                           %c0: tensor<250x250xf64>) -> tensor<250x250xf64> {
  %s = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %r = shard.sharding @line split_axes = [[]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<250x250xf64>
  %b1 = shard.shard %b to %r : tensor<250x250xf64>
  %c1 = shard.shard %c0 to %s : tensor<250x250xf64>
  %d = linalg.matmul ins(%a1, %b1 : tensor<250x250xf64>, tensor<250x250xf64>)
                     outs(%c1 : tensor<250x250xf64>) -> tensor<250x250xf64>
  %d1 = shard.shard %d to %s : tensor<250x250xf64>
  return %d1 : tensor<250x250xf64>
}

// Y = X * W + X, element-wise on 250 elements over 4 processes (f32).
func.func @elementwise_250(%x: tensor<250xf32>, %w: tensor<250xf32>) -> tensor<250xf32> {
  %s = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<250xf32>
  %w1 = shard.shard %w to %s : tensor<250xf32>
  %e = tensor.empty() : tensor<250xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x1, %w1 : tensor<250xf32>, tensor<250xf32>) outs(%e : tensor<250xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %t = arith.addf %m, %p : f32
    linalg.yield %t : f32
  } -> tensor<250xf32>
  %y1 = shard.shard %y to %s : tensor<250xf32>
  return %y1 : tensor<250xf32>
}

// Reduction over the columns of a 2-D-sharded integer matrix, broadcast
// vector and a replicated initial value: y(i) = y0(i) + sum_k A(i,k) * v(k).
func.func @matvec_i64(%a: tensor<30x20xi64>, %v: tensor<20xi64>,
                      %y0: tensor<30xi64>) -> tensor<30xi64> {
  %s = shard.sharding @tiles split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @tiles split_axes = [[0]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<30x20xi64>
  %y1 = shard.shard %y0 to %r : tensor<30xi64>
  %y = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>,
                                        affine_map<(i, k) -> (k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a1, %v : tensor<30x20xi64>, tensor<20xi64>) outs(%y1 : tensor<30xi64>) {
  ^bb0(%p: i64, %q: i64, %o: i64):
    %m = arith.muli %p, %q : i64
    %t = arith.addi %o, %m : i64
    linalg.yield %t : i64
  } -> tensor<30xi64>
  %y2 = shard.shard %y to %r : tensor<30xi64>
  return %y2 : tensor<30xi64>
}

// Two grid axes on one dimension ([[0, 1]]: axis 1 fastest), resharded to
// columns over axis 1 and rows over axis 0, then transposed and scaled:
// T = 2 * X^T - X^T... written with linalg.transpose and arith.
func.func @multi_axis(%x: tensor<12x10xf64>) -> (tensor<12x10xf64>, tensor<10x12xf64>) {
  %s = shard.sharding @tiles split_axes = [[0, 1]] : !shard.sharding
  %t = shard.sharding @tiles split_axes = [[1], [0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<12x10xf64>
  %x2 = shard.shard %x1 to %t annotate_for_users : tensor<12x10xf64>
  %e = tensor.empty() : tensor<10x12xf64>
  %xt = linalg.transpose ins(%x2 : tensor<12x10xf64>) outs(%e : tensor<10x12xf64>) permutation = [1, 0]
  %three = arith.constant dense<3.0> : tensor<10x12xf64>
  %y = arith.subf %xt, %three : tensor<10x12xf64>
  %y1 = shard.shard %y to %s : tensor<10x12xf64>
  return %x2, %y1 : tensor<12x10xf64>, tensor<10x12xf64>
}
