// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Every verifier rule of dist.load / dist.store.

dist.grid @m [2, 2]
!T = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> xy">>
func.func @empty(%t: !T) {
  // expected-error @+1 {{'dist.load' op path must not be empty}}
  dist.load %t from "" : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> xy">>
func.func @directory(%t: !T) {
  // expected-error @+1 {{'dist.store' op path 'out/' names a directory; expected a file name}}
  dist.store %t to "out/" : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> xy">>
func.func @nul(%t: !T) {
  // expected-error @+1 {{'dist.store' op path must not contain a NUL character}}
  dist.store %t to "a\00b" : !T
  return
}

// -----

!T = !dist.tensor<8x6xf64, #dist.layout<@nogrid, "xy -> xy">>
func.func @no_grid(%t: !T) {
  // expected-error @+1 {{nogrid}}
  dist.load %t from "a.dtensor" : !T
  return
}
