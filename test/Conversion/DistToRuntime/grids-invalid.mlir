// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file -verify-diagnostics

// expected-error @+1 {{grid 'g' has a level of GPUs (level 1); GPU machines need the NCCL backend}}
dist.grid @g node[2], gpu[4]

// -----

// expected-error @+1 {{symbol 'distrt_grid_lookup' is reserved for the distrt runtime and has the wrong type}}
llvm.func @distrt_grid_lookup(i64) -> i64
dist.grid @m [2]
func.func @f() -> !llvm.ptr {
  %g = dist.grid_handle @m : !llvm.ptr
  return %g : !llvm.ptr
}
