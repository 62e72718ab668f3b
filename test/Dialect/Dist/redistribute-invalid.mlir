// RUN: dist-opt %s -split-input-file -verify-diagnostics
// A redistribution between grids of different sizes could never run: a
// program starts with one number of ranks, and each grid checks it.

dist.grid @a [2, 2]
dist.grid @b [2]
!A = !dist.tensor<8x8xf64, #dist.layout<@a, "xy -> xy">>
!B = !dist.tensor<8x8xf64, #dist.layout<@b, "xy -> x">>
func.func @f(%x: !A, %y: !B) {
  // expected-error @+1 {{'dist.redistribute' op source is on grid @a of 4 processes but the destination is on grid @b of 2; a program runs on one number of ranks, so both grids need the same number of processes (put the destination on a grid of 4 processes)}}
  dist.redistribute %x into %y : !A into !B
  return
}

// -----

// Grids of one size and different shapes are fine.
dist.grid @a [2, 2]
dist.grid @b [4]
!A = !dist.tensor<8x8xf64, #dist.layout<@a, "xy -> xy">>
!B = !dist.tensor<8x8xf64, #dist.layout<@b, "xy -> x">>
func.func @f(%x: !A, %y: !B) {
  dist.redistribute %x into %y : !A into !B
  dist.redistribute %y into %x : !B into !A
  return
}

// -----

// Every level of a hierarchical machine counts: 2 nodes of 2 are 4 ranks.
dist.grid @h node[2], cpu[2]
dist.grid @l [2]
!H = !dist.tensor<8xf64, #dist.layout<@h, "x -> x", "x -> *">>
!L = !dist.tensor<8xf64, #dist.layout<@l, "x -> x">>
func.func @f(%x: !L, %y: !H) {
  // expected-error @+1 {{'dist.redistribute' op source is on grid @l of 2 processes but the destination is on grid @h of 4}}
  dist.redistribute %x into %y : !L into !H
  return
}
