// Found by fuzz-smoke (a mutant of test/Transforms/import-shard.mlir): upstream
// MLIR 22 parses and verifies a shard.sharding whose static offsets hold
// -9223372036854775808 (the dynamic-value marker) with no dynamic operand,
// then crashes printing it. dist-opt's guard (tools/dist-opt) makes it an
// error at the op.
shard.grid @g4(shape = 4)
func.func @halo_and_offsets(%a: tensor<8x16xf32>, %b: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %h = shard.sharding @g4 split_axes = [[0]] halo_sizes = [-1, 1] : !shard.sharding
  %a1 = shard.shard %a to %h : tensor<8x16xf32>
  %o = shard.sharding @g4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, -9223372036854775808] : !shard.sharding
  %b1 = shard.shard %b to %o : tensor<10x4xf32>
  return %b1 : tensor<10x4xf32>
}
