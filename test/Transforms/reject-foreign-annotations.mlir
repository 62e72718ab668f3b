// RUN: dist-opt %s --dist-reject-foreign-annotations -split-input-file -verify-diagnostics
// RUN: not dist-opt %s --dist-to-llvm -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// Upstream shard annotations are refused, each at its own location, rather
// than folded away (which would compile the function undistributed).

// expected-error@+1 {{upstream 'shard' annotations are not imported by dist yet}}
shard.grid @g(shape = 2)
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{upstream 'shard' annotations are not imported by dist yet}}
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  // expected-error@+1 {{upstream 'shard' annotations are not imported by dist yet}}
  %b = shard.shard %a to %s : tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}

// PIPE: reject-foreign-annotations.mlir:8:1: error: upstream 'shard' annotations are not imported by dist yet: write the program with dist.grid, #dist.layout and dist.compute (docs/interop.md)

// -----

// A module without shard operations passes unchanged.
func.func @g() {
  return
}
