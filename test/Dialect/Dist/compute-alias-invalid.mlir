// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The output of a dist.compute may not be bound to the same value as one
// of its inputs: "A(i) = B(i)" with A and B one tensor stored zeros, and
// "A(i) += B(i)" failed its check. Inputs may share a value.

dist.grid @m [2]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%x: !T) {
  // expected-error @+1 {{the output 'A' and the input 'B' are bound to the same tensor value, so the computation would overwrite data it still reads; copy the value into a separate tensor first (dist.alloc, then dist.redistribute or a dist.compute "T(...) = B(...)") and bind one of them to the copy}}
  dist.compute "A(i) = B(i)" (A = %x, B = %x) : !T, !T
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%x: !T) {
  // expected-error @+1 {{the output 'A' and the input 'B' are bound to the same tensor value}}
  dist.compute "A(i) += B(i)" (A = %x, B = %x) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%x: !T, %y: !T) {
  // expected-error @+1 {{the output 'Out' and the input 'C' are bound to the same tensor value}}
  dist.compute "Out(i,j) = B(i,k) * C(k,j)" (Out = %x, B = %y, C = %x)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !T, !T, !T
  return
}

// -----

// Two inputs bound to one value only read it: fine.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%x: !T, %y: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %x, B = %y, C = %y)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !T, !T, !T
  return
}
