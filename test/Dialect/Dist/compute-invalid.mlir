// RUN: dist-opt %s -split-input-file -verify-diagnostics

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{invalid statement "A(i,j) = B(i,k) * " at column 19: expected an access, a constant or '(' but the statement ended}}
  dist.compute "A(i,j) = B(i,k) * " (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{expected '=' or '+=' after the left-hand side}}
  dist.compute "A(i,j) B(i,j)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!U = !dist.tensor<8x4xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !U) {
  // Mismatched extents.
  // expected-error @+1 {{index variable 'j' has extent 8 in A (dimension 1) but 4 in C (dimension 1)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !T, !T, !U
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!U = !dist.tensor<4x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !U) {
  // expected-error @+1 {{index variable 'k' has extent 8 in B (dimension 1) but 4 in C (dimension 0)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !T, !T, !U
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // An undefined tensor.
  // expected-error @+1 {{tensor 'C' of the statement is not bound to a value}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{'C' is bound but not used in the statement}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b, C = %c) : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{access 'B' has 3 index variable(s) but the tensor has rank 2}}
  dist.compute "A(i,j) = B(i,j,k)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{index variable 'i' is used twice in one access of 'B'; diagonal accesses are not supported}}
  dist.compute "A(i,j) = B(i,i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!F = !dist.tensor<8x8xf32, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !F) {
  // expected-error @+1 {{all tensors of a statement have one element type; 'B' has 'f32' but 'A' has 'f64'}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b) : !T, !F
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{the output 'A' also appears on the right-hand side}}
  dist.compute "A(i,j) = A(i,j) * B(i,j)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{tensor name 'A' is bound twice}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, A = %b) : !T, !T
  return
}
