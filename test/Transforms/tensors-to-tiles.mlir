// RUN: dist-opt %s --dist-tensors-to-tiles --allow-unregistered-dialect -split-input-file -verify-diagnostics | FileCheck %s
// dist-tensors-to-tiles: a type conversion from distributed tensors to
// local tiles over functions, calls and returns; dist.alloc, dist.fill and
// dist.local_tile become operations on tiles; the runtime starts in every
// function that uses tensors and ends before @main returns.

dist.grid @m [2, 2]
!T = !dist.tensor<10x7xf64, #dist.layout<@m, "[(1),(0)]">>

// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%[[T:.*]]: memref<?xf64>)
// CHECK: dist.runtime_init
// CHECK: "test.use"(%[[T]]) : (memref<?xf64>) -> ()
// CHECK-NOT: dist.local_tile
func.func @callee(%t: !T) {
  %tile = dist.local_tile %t : !T -> memref<?xf64>
  "test.use"(%tile) : (memref<?xf64>) -> ()
  return
}

// CHECK-LABEL: func.func @main
// CHECK: dist.runtime_init
// CHECK: %[[N:.*]] = dist.tile_capacity
// CHECK: %[[TILE:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: dist.check_alloc %[[TILE]]
// CHECK: dist.fill_tile %[[TILE]]
// CHECK: call @callee(%[[TILE]]) : (memref<?xf64>) -> ()
// CHECK: dist.runtime_finalize
// CHECK: memref.dealloc %[[TILE]]
// CHECK: return
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.fill %t seed 3 : !T
  func.call @callee(%t) : (!T) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

func.func @unlowered(%a: !T, %b: !T) {
  // expected-error @below {{'dist.compute' must be lowered before dist-tensors-to-tiles (run dist-lower-computations and dist-lower-redistributions first)}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// expected-error @below {{functions cannot return distributed tensors; pass the result tensor as an argument}}
func.func @returns(%a: !T) -> !T {
  return %a : !T
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

func.func @wrong_tile(%a: !T) {
  // expected-error @below {{'dist.local_tile' op tile element type 'f32' differs from the tensor's 'f64'}}
  %t = dist.local_tile %a : !T -> memref<?xf32>
  return
}

// -----

dist.grid @m [4]
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : compressed, j : compressed)}>>

// A sparse tensor the runtime cannot store (DCSR) is rejected by name.
// expected-error @below {{cannot be lowered: only CSR matrices (map = (i, j) -> (i : dense, j : compressed)) are stored yet; other formats parse and verify (sparse II) (docs/sparse.md)}}
func.func @sparse_arg(%b: !S) {
  return
}
