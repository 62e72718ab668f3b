// RUN: dist-opt %s | FileCheck %s
// Round trip: print -> parse -> print is stable.
// RUN: dist-opt %s | dist-opt | FileCheck %s
// Generic form round-trips too.
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s

// CHECK: dist.grid @m [2, 2]{{$}}
dist.grid @m [2, 2]
// CHECK: dist.grid @line [8]{{$}}
dist.grid @line [8]
// CHECK: dist.grid @cube [2, 2, 2]{{$}}
dist.grid @cube cpu[2, 2, 2]
// CHECK: dist.grid @g1 gpu[4]{{$}}
dist.grid @g1 gpu[4]
// A hierarchical machine: 2x2 nodes of 4 GPUs each.
// CHECK: dist.grid @h node[2, 2], gpu[4]{{$}}
dist.grid @h node[2, 2], gpu[4]
// CHECK: dist.grid @h3 node[2], cpu[2, 2]{{$}}
dist.grid @h3 node[2], cpu[2, 2]

// CHECK-LABEL: func @handles
func.func @handles() -> !llvm.ptr {
  // CHECK: dist.grid_handle @m : !llvm.ptr
  %g = dist.grid_handle @m : !llvm.ptr
  return %g : !llvm.ptr
}
