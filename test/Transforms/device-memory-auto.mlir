// RUN: dist-opt %s -split-input-file --dist-device-memory=only-gpu-machines=true -verify-diagnostics | FileCheck %s

// dist-to-llvm device=auto (the default) runs dist-device-memory with
// only-gpu-machines: a module whose machines are CPUs is left alone...
// CHECK-LABEL: module {
// CHECK: dist.grid @c [2]
// CHECK: memref.alloc() : memref<4xf64>
// CHECK-NOT: dist.device_alloc
dist.grid @c [2]
func.func @f() {
  %b = memref.alloc() : memref<4xf64>
  memref.dealloc %b : memref<4xf64>
  return
}

// -----

// ... a module with a machine of GPUs gets device memory and the mark that
// convert-dist-to-runtime asks of grids of GPUs...
// CHECK-LABEL: module attributes {dist.device_memory}
// CHECK: dist.grid @g gpu[2]
// CHECK: dist.device_alloc() : memref<4xf64>
// CHECK: dist.device_free
dist.grid @g gpu[2]
func.func @f() {
  %b = memref.alloc() : memref<4xf64>
  memref.dealloc %b : memref<4xf64>
  return
}

// -----

// ... and machines of CPUs beside machines of GPUs are refused (one kind of
// memory per module).
dist.grid @g gpu[2]
// expected-error @+1 {{grid 'c' is made of CPUs, but grid 'g' of the same module is made of GPUs: every tile of a module lives in one kind of memory (dist-to-llvm device=auto); make every machine gpu[..] (or node[..], gpu[..]), or compile with device=gpu to put all tiles on the GPUs}}
dist.grid @c [2]
