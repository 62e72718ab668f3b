// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The verifier's rules for substitute({...}, gemv) and substitute({...}, dot):
// a gemv leaf is y(..., i) = M(..., i, ..., j) * v(..., j) (or M(..., j, ...,
// i)), a dot leaf a(...) = u(..., k) * v(..., k); the other indices are fixed
// by the loops around the leaf, and the vectors must be contiguous.

// A matrix multiply with j outside: the output rows A(i, j) are not
// contiguous along i.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, k}, gemv): 'A' must have 'i' as its last index (the output vector of the gemv leaf is contiguous); reorder the tensor's indices or remove the substitute command}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [reorder({j, i, k}), substitute({i, k}, gemv)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2]
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%y: !y, %a: !A, %x: !y) {
  // expected-error @+1 {{substitute({i}, gemv): gemv replaces exactly 2 loops, got 1}}
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [reorder({j, i}), substitute({i}, gemv)] : !y, !A, !y
  return
}

// -----

dist.grid @m [2]
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%y: !y, %a: !A, %x: !y, %z: !y) {
  // expected-error @+1 {{substitute({i, j}, gemv): gemv needs a statement of the form Out(i) = M(i,j) * V(j) (no constants, negation or sums; other indices are fixed by the loops around the leaf)}}
  dist.compute "y(i) = A(i,j) * x(j) * z(j)" (y = %y, A = %a, x = %x, z = %z)
      schedule [substitute({i, j}, gemv)] : !y, !A, !y, !y
  return
}

// -----

// An element-wise product has no reduction index.
dist.grid @m [2]
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%y: !y, %a: !A, %x: !y) {
  // expected-error @+1 {{substitute({i, j}, gemv): 'i' (from 'i') is not a row or reduction index of a matrix-vector product y = A * x}}
  dist.compute "y(i) = A(i,j) * x(i)" (y = %y, A = %a, x = %x)
      schedule [substitute({i, j}, gemv)] : !y, !A, !y
  return
}

// -----

dist.grid @m [2]
!a = !dist.tensor<f64, #dist.layout<@m, " -> *">>
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !y, %u: !y, %v: !y) {
  // expected-error @+1 {{substitute({k}, dot): 'k' (from 'k') is not a reduction index of a dot product a = u * v}}
  dist.compute "a(k) = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [substitute({k}, dot)] : !y, !y, !y
  return
}

// -----

dist.grid @m [2]
!a = !dist.tensor<f64, #dist.layout<@m, " -> *">>
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !a, %u: !y, %v: !y) {
  // expected-error @+1 {{unknown leaf kernel 'axpy'; known kernels: gemm, mttkrp, gemv, dot}}
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [substitute({k}, axpy)] : !a, !y, !y
  return
}

// -----

// The input vector X(j, l) is not contiguous along j.
dist.grid @m [2]
!Y = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%y: !Y, %a: !Y, %x: !Y) {
  // expected-error @+1 {{substitute({i, j}, gemv): 'X' must have 'j' as its last index (the input vector of the gemv leaf is contiguous); reorder the tensor's indices or remove the substitute command}}
  dist.compute "Y(l,i) = A(i,j) * X(j,l)" (Y = %y, A = %a, X = %x)
      schedule [reorder({l, i, j}), substitute({i, j}, gemv)] : !Y, !Y, !Y
  return
}

// -----

// The matrix A(i, j, l) has neither i nor j last.
dist.grid @m [2]
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> x">>
func.func @f(%y: !y, %a: !A, %x: !y) {
  // expected-error @+1 {{substitute({i, j}, gemv): 'A' must have 'i' or 'j' as its last index (the matrix of the gemv leaf has contiguous rows or columns); reorder the tensor's indices or remove the substitute command}}
  dist.compute "y(i) = A(i,j,l) * x(j)" (y = %y, A = %a, x = %x)
      schedule [reorder({l, i, j}), substitute({i, j}, gemv)] : !y, !A, !y
  return
}

// -----

// dot: the vectors U(k, l) and V(k, l) are not contiguous along k.
dist.grid @m [2]
!u = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
!a = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !a, %u: !u, %v: !u) {
  // expected-error @+1 {{substitute({k}, dot): 'U' must have 'k' as its last index (the vector of the dot leaf is contiguous); reorder the tensor's indices or remove the substitute command}}
  dist.compute "a(l) = U(k,l) * V(k,l)" (a = %a, U = %u, V = %v)
      schedule [reorder({l, k}), substitute({k}, dot)] : !a, !u, !u
  return
}

// -----

// Two row indices and no reduction.
dist.grid @m [2]
!Y = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%y: !Y, %a: !Y, %x: !Y) {
  // expected-error @+1 {{substitute({i, j}, gemv): the variables do not form gemv: it needs one row and one reduction variable of Out(i) = M(i,j) * V(j)}}
  dist.compute "Y(i,j) = A(i,k) * X(j,k)" (Y = %y, A = %a, X = %x)
      schedule [reorder({k, i, j}), substitute({i, j}, gemv)] : !Y, !Y, !Y
  return
}
