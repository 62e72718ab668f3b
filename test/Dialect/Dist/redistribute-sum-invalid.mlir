// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The rules of partial-sum redistributions (dist.redistribute ... sum).

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<8x6xf64, #dist.layout<@m, "[(0),(1)]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{summed dimension 3 is out of range for a tensor of rank 3}}
  dist.redistribute %a into %b sum [3] : !T into !G
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<6xf64, #dist.layout<@m, "[(1)]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{summed dimensions must be listed in increasing order without repeats}}
  dist.redistribute %a into %b sum [2, 0] : !T into !G
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<6x4xf64, #dist.layout<@m, "[(1),(0)]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{summed dimension 0 is not distributed over any grid axis; a partial-sum mode must be distributed}}
  dist.redistribute %a into %b sum [0] : !T into !G
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<8x4xf64, #dist.layout<@m, "[(0),(1)]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{destination must have the source's shape without the summed dimensions}}
  dist.redistribute %a into %b sum [2] : !T into !G
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(0),(1),()]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{'sum' lists no dimensions}}
  dist.redistribute %a into %b sum [] : !T into !G
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6x4xf64, #dist.layout<@m, "[(),(1),(0)]">>
!G = !dist.tensor<8x6xf32, #dist.layout<@m, "[(0),(1)]">>
func.func @f(%a: !T, %b: !G) {
  // expected-error @+1 {{source and destination must have the same element type}}
  dist.redistribute %a into %b sum [2] : !T into !G
  return
}
