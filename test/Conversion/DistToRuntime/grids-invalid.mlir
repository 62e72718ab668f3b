// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file -verify-diagnostics

// A machine of GPUs whose tiles dist-device-memory did not move to the
// GPUs (dist-to-llvm device=host).
// expected-error @+1 {{grid 'g' is made of GPUs, but the program's tiles are in host memory: compile with dist-to-llvm device=auto (the default) or device=gpu, which run dist-device-memory (dist-run: the default backend, or --backend nccl)}}
dist.grid @g gpu[2, 4] {dist.node_axes = 1 : i64}

// -----

// A machine of nodes that dist-flatten-machines has not flattened.
// expected-error @+1 {{grid 'h' is hierarchical; convert-dist-to-runtime lowers one-level grids: run dist-flatten-machines first (dist-to-llvm does)}}
dist.grid @h node[2], cpu[2]

// -----

// expected-error @+1 {{grid 'n': 'dist.node_axes' must be an integer from 1 to 1 (the leading axes that index nodes; at least one axis must index the processors of a node)}}
dist.grid @n [2, 2] {dist.node_axes = 2 : i64}

// -----

// expected-error @+1 {{symbol 'distrt_grid_lookup' is reserved for the distrt runtime and has the wrong type}}
llvm.func @distrt_grid_lookup(i64) -> i64
dist.grid @m [2]
func.func @f() -> !llvm.ptr {
  %g = dist.grid_handle @m : !llvm.ptr
  return %g : !llvm.ptr
}

// -----

dist.grid @m [2]
func.func @f(%t: memref<4xf16>) {
  // expected-error @+1 {{communicates 'f16' elements; the runtime handles f32, f64, i32 and i64}}
  dist.allreduce %t on @m axes [0] sum : memref<4xf16>
  return
}

// -----

dist.grid @m [2]
func.func @f(%t: memref<4xf64, strided<[2]>>) {
  // expected-error @+1 {{needs a contiguous buffer with the identity layout}}
  dist.allreduce %t on @m axes [0] sum : memref<4xf64, strided<[2]>>
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f() {
  // expected-error @+1 {{'dist.alloc' cannot be lowered by convert-dist-to-runtime}}
  %a = dist.alloc : !T
  return
}
