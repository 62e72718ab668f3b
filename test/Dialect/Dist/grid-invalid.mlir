// RUN: dist-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{grid dimension 1 has extent 0; extents must be at least 1}}
dist.grid @m [2, 0]

// -----

// expected-error @+1 {{unknown processor kind 'tpu'; expected cpu, gpu or node}}
dist.grid @m tpu[2, 2]

// -----

// expected-error @+1 {{level 0 is made of gpus but has a further level inside it}}
dist.grid @m gpu[2], cpu[4]

// -----

// expected-error @+1 {{a grid level needs at least one dimension}}
dist.grid @m []

// -----

func.func @f() -> !llvm.ptr {
  // expected-error @+1 {{'@nowhere' does not name a dist.grid in scope}}
  %g = dist.grid_handle @nowhere : !llvm.ptr
  return %g : !llvm.ptr
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
dist.grid @m [2, 2]
// expected-error @+1 {{redefinition of symbol named 'm'}}
dist.grid @m [4]

// -----

// expected-error @+1 {{'dist.grid' op has more than 1048576 processors, the most dist supports}}
dist.grid @m [4611686018427387904, 2]
