// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// The explicit communication ops of the SPMD form, and their memory effects.

dist.grid @m [2, 2]

// CHECK-LABEL: func @collectives
func.func @collectives(%t: memref<4x4xf64>, %big: memref<8x4xf64>,
                       %r: index, %v: memref<16xf32>, %w: memref<4xf32>) {
  // CHECK: dist.broadcast %{{.*}} on @m axes [1] root %{{.*}} : memref<4x4xf64>
  dist.broadcast %t on @m axes [1] root %r : memref<4x4xf64>
  // CHECK: dist.allreduce %{{.*}} on @m axes [0, 1] sum : memref<4x4xf64>
  dist.allreduce %t on @m axes [0, 1] sum : memref<4x4xf64>
  // CHECK: dist.reduce %{{.*}} on @m axes [0] max root %{{.*}} : memref<4x4xf64>
  dist.reduce %t on @m axes [0] max root %r : memref<4x4xf64>
  // CHECK: dist.allgather %{{.*}} into %{{.*}} on @m axes [0] : memref<4x4xf64> into memref<8x4xf64>
  dist.allgather %t into %big on @m axes [0] : memref<4x4xf64> into memref<8x4xf64>
  // CHECK: dist.reduce_scatter %{{.*}} into %{{.*}} on @m axes [0, 1] sum : memref<16xf32> into memref<4xf32>
  dist.reduce_scatter %v into %w on @m axes [0, 1] sum : memref<16xf32> into memref<4xf32>
  // CHECK: dist.reduce_scatter_blocks %{{.*}} into %{{.*}} on @m axes [0] sum block %{{.*}} : memref<16xf32> into memref<4xf32>
  dist.reduce_scatter_blocks %v into %w on @m axes [0] sum block %r : memref<16xf32> into memref<4xf32>
  // CHECK: dist.all_to_all %{{.*}} into %{{.*}} on @m axes [1] : memref<16xf32> into memref<16xf32>
  dist.all_to_all %v into %v on @m axes [1] : memref<16xf32> into memref<16xf32>
  // CHECK: dist.gather %{{.*}} into %{{.*}} on @m axes [0] root %{{.*}} : memref<4x4xf64> into memref<8x4xf64>
  dist.gather %t into %big on @m axes [0] root %r : memref<4x4xf64> into memref<8x4xf64>
  // CHECK: dist.scatter %{{.*}} into %{{.*}} on @m axes [0] root %{{.*}} : memref<8x4xf64> into memref<4x4xf64>
  dist.scatter %big into %t on @m axes [0] root %r : memref<8x4xf64> into memref<4x4xf64>
  // CHECK: dist.shift %{{.*}} on @m axis 1 offset 1 : memref<4x4xf64>
  dist.shift %t on @m axis 1 offset 1 : memref<4x4xf64>
  // CHECK: dist.send %{{.*}} to %{{.*}} on @m tag 7 : memref<4x4xf64>
  dist.send %t to %r on @m tag 7 : memref<4x4xf64>
  // CHECK: dist.recv %{{.*}} from %{{.*}} on @m tag 7 : memref<4x4xf64>
  dist.recv %t from %r on @m tag 7 : memref<4x4xf64>
  return
}

// Communication has effects: canonicalization must not drop it.
// CHECK-LABEL: func @kept
// CHECK: dist.allreduce
// CHECK: dist.broadcast
func.func @kept(%t: memref<4xf64>, %r: index) {
  dist.allreduce %t on @m axes [0] sum : memref<4xf64>
  dist.broadcast %t on @m axes [1] root %r : memref<4xf64>
  return
}
// RUN: dist-opt %s --canonicalize --cse | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func @kept
// CANON: dist.allreduce
// CANON: dist.broadcast

// A send only reads its buffer, but it pairs with a receive on another
// rank: the communication resource keeps it (and two identical sends stay
// two messages).
func.func @kept_send(%t: memref<4xf64>, %r: index) {
  dist.send %t to %r on @m tag 1 : memref<4xf64>
  dist.send %t to %r on @m tag 1 : memref<4xf64>
  return
}
// CANON-LABEL: func @kept_send
// CANON: dist.send
// CANON-NEXT: dist.send
