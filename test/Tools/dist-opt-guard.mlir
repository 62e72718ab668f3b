// RUN: dist-opt %s -split-input-file -verify-diagnostics
// dist-opt's guard (tools/dist-opt/dist-opt.cpp) runs before any pass:
// upstream MLIR 22 accepts these and then crashes printing them.

shard.grid @g4(shape = 4)
func.func @offsets(%b: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'shard.sharding' op has a static halo size or sharded-dims offset of -9223372036854775808, which MLIR reserves to mark a dynamic value, without a dynamic operand for it}}
  %o = shard.sharding @g4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, -9223372036854775808] : !shard.sharding
  %b1 = shard.shard %b to %o : tensor<10x4xf32>
  return %b1 : tensor<10x4xf32>
}

// -----

shard.grid @g4(shape = 4)
func.func @halo(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'shard.sharding' op has a static halo size or sharded-dims offset of -9223372036854775808}}
  %h = shard.sharding @g4 split_axes = [[0]] halo_sizes = [-9223372036854775808, 1] : !shard.sharding
  %a1 = shard.shard %a to %h : tensor<8x16xf32>
  return %a1 : tensor<8x16xf32>
}

// -----

// A well-formed sharding passes the guard.
shard.grid @g4(shape = 4)
func.func @fine(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %h = shard.sharding @g4 split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %a1 = shard.shard %a to %h : tensor<8x16xf32>
  return %a1 : tensor<8x16xf32>
}
