// C0 + A * B, rows of A, C0 and the result over 4 processes, B replicated
// (shard-upstream.test substitutes NNN).
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
shard.grid @line(shape = 4)
func.func @mm(%a: tensor<NNNxNNNxf64>, %b: tensor<NNNxNNNxf64>, %c: tensor<NNNxNNNxf64>) -> tensor<NNNxNNNxf64> attributes {llvm.emit_c_interface} {
  %s = shard.sharding @line split_axes = [[0]] : !shard.sharding
  %r = shard.sharding @line split_axes = [[]] : !shard.sharding
  %a1 = shard.shard %a to %s : tensor<NNNxNNNxf64>
  %a2 = shard.shard %a1 to %s annotate_for_users : tensor<NNNxNNNxf64>
  %b1 = shard.shard %b to %r : tensor<NNNxNNNxf64>
  %b2 = shard.shard %b1 to %r annotate_for_users : tensor<NNNxNNNxf64>
  %c1 = shard.shard %c to %s : tensor<NNNxNNNxf64>
  %c2 = shard.shard %c1 to %s annotate_for_users : tensor<NNNxNNNxf64>
  %d = linalg.matmul ins(%a2, %b2 : tensor<NNNxNNNxf64>, tensor<NNNxNNNxf64>) outs(%c2 : tensor<NNNxNNNxf64>) -> tensor<NNNxNNNxf64>
  %d1 = shard.shard %d to %s : tensor<NNNxNNNxf64>
  %d2 = shard.shard %d1 to %s annotate_for_users : tensor<NNNxNNNxf64>
  return %d2 : tensor<NNNxNNNxf64>
}
}
