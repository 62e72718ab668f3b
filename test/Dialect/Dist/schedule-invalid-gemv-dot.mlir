// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The verifier's rules for substitute({...}, gemv) and substitute({...}, dot):
// a gemv leaf is y(i) = M(i,j) * v(j), a dot leaf a = u(k) * v(k).

// A matrix multiply is not a matrix-vector product.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, k}, gemv): gemv needs a statement of the form Out(i) = M(i,j) * V(j) (no constants, negation or sums)}}
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
  // expected-error @+1 {{substitute({i, j}, gemv): gemv needs a statement of the form Out(i) = M(i,j) * V(j) (no constants, negation or sums)}}
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
  // expected-error @+1 {{substitute({k}, dot): dot needs a statement of the form Out() = U(k) * V(k) (no constants, negation or sums)}}
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
