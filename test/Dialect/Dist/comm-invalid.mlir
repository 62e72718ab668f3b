// RUN: dist-opt %s -split-input-file -verify-diagnostics

dist.grid @m [2, 2]
func.func @f(%t: memref<4xf64>, %r: index) {
  // expected-error @+1 {{grid axis 2 is out of range for @m of rank 2}}
  dist.broadcast %t on @m axes [2] root %r : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<4xf64>) {
  // expected-error @+1 {{grid axis 0 is listed twice}}
  dist.allreduce %t on @m axes [0, 0] sum : memref<4xf64>
  return
}

// -----

func.func @f(%t: memref<4xf64>) {
  // expected-error @+1 {{'@nowhere' does not name a dist.grid in scope}}
  dist.allreduce %t on @nowhere axes [0] sum : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<4xf64>) {
  // expected-error @+1 {{grid axis 5 is out of range for @m of rank 2}}
  dist.shift %t on @m axis 5 offset 1 : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>, %b: memref<8xf32>) {
  // expected-error @+1 {{input and output element types differ: 'f64' vs 'f32'}}
  dist.allgather %a into %b on @m axes [0] : memref<4xf64> into memref<8xf32>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%t: memref<4xf64>) {
  // expected-error @+1 {{enum values for attribute 'kind' [sum, prod, min, max]}}
  dist.allreduce %t on @m axes [0] avg : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!U = !dist.tensor<8x4xf64, #dist.layout<@m, "xy -> x*">>
func.func @f(%a: !T, %b: !U) {
  // expected-error @+1 {{source and destination must have the same shape}}
  dist.redistribute %a into %b : !T into !U
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>, %b: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{block 0 is not positive}}
  dist.reduce_scatter_blocks %a into %b on @m axes [0] sum block %c0 : memref<4xf64> into memref<2xf64>
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<4xf64>, %b: memref<2xf32>, %n: index) {
  // expected-error @+1 {{input and output element types differ}}
  dist.reduce_scatter_blocks %a into %b on @m axes [0] sum block %n : memref<4xf64> into memref<2xf32>
  return
}
