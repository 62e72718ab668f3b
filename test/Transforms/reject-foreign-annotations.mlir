// RUN: dist-opt %s --dist-reject-foreign-annotations -split-input-file -verify-diagnostics
// RUN: not dist-opt %s --dist-to-llvm -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// Upstream shard operations that are still there are refused, each at its
// own location, rather than folded away (which would compile the function
// undistributed). In dist-to-llvm, dist-import-shard runs first and imports
// what it can; what it cannot import stops the pipeline with its errors.

// expected-error@+1 {{upstream 'shard' operation that dist-import-shard did not import}}
shard.grid @g(shape = 2)
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{upstream 'shard' operation that dist-import-shard did not import}}
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  // expected-error@+1 {{upstream 'shard' operation that dist-import-shard did not import}}
  %b = shard.shard %a to %s : tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// PIPE: reject-foreign-annotations.mlir:33:8: error: dist-import-shard: 'shard.all_gather' is not imported

// -----

// An annotated function dist-import-shard cannot import: its error stops
// dist-to-llvm before the rejection.
// expected-error@+1 {{did not import}}
shard.grid @g(shape = 2)
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{did not import}}
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  // expected-error@+1 {{did not import}}
  %b = shard.shard %a to %s : tensor<4x4xf32>
  // expected-error@+1 {{did not import}}
  %c = shard.all_gather %b on @g grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
  return %b : tensor<4x4xf32>
}

// -----

// A module without shard operations passes unchanged.
func.func @g() {
  return
}
