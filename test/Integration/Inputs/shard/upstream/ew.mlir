// Y = X * W + X, element-wise over 4 processes (shard-upstream.test substitutes NNN).
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
shard.grid @line(shape = 4)
func.func @ew(%x: tensor<NNNxf64>, %w: tensor<NNNxf64>) -> tensor<NNNxf64> attributes {llvm.emit_c_interface} {
  %s = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %x1 = shard.shard %x to %s : tensor<NNNxf64>
  %x2 = shard.shard %x1 to %s annotate_for_users : tensor<NNNxf64>
  %w1 = shard.shard %w to %s : tensor<NNNxf64>
  %w2 = shard.shard %w1 to %s annotate_for_users : tensor<NNNxf64>
  %e = tensor.empty() : tensor<NNNxf64>
  %e1 = shard.shard %e to %s : tensor<NNNxf64>
  %e2 = shard.shard %e1 to %s annotate_for_users : tensor<NNNxf64>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x2, %w2 : tensor<NNNxf64>, tensor<NNNxf64>) outs(%e2 : tensor<NNNxf64>) {
  ^bb0(%p: f64, %q: f64, %o: f64):
    %m0 = arith.mulf %p, %q : f64
    %m = arith.addf %m0, %p : f64
    linalg.yield %m : f64
  } -> tensor<NNNxf64>
  %y1 = shard.shard %y to %s : tensor<NNNxf64>
  %y2 = shard.shard %y1 to %s annotate_for_users : tensor<NNNxf64>
  return %y2 : tensor<NNNxf64>
}
}
