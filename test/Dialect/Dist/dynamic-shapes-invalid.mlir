// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Dynamic (`?`) extents are rejected, with the reason, wherever they do not
// lower: every op but a one-sided dist.compute (and what it lowers to),
// sparse tensors, non-matrix one-sided products and stationary(auto)
// (docs/interop.md, "Dynamic shapes").

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f() {
  // expected-error @+1 {{'dist.alloc' op result #0 must be distributed tensor of static shape (dynamic extents `?` are supported on exported function arguments used by one-sided products; docs/interop.md)}}
  %t = dist.alloc : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%t: !T) {
  // expected-error @+1 {{'dist.fill' op operand #0 must be dense distributed tensor (this op does not take sparse tensors yet) of static shape (dynamic extents `?` are supported on exported function arguments used by one-sided products; docs/interop.md)}}
  dist.fill %t seed 1 : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%t: !T) {
  // expected-error @+1 {{'dist.store' op operand #0 must be distributed tensor of static shape}}
  dist.store %t to "t.dtensor" : !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
!U = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> x*">>
func.func @f(%t: !T, %u: !U) {
  // expected-error @+1 {{'dist.redistribute' op operand #0 must be dense distributed tensor (this op does not take sparse tensors yet) of static shape (dynamic extents `?` are supported on exported function arguments used by one-sided products; docs/interop.md)}}
  dist.redistribute %t into %u : !T into !U
  return
}

// -----

// A collective schedule needs the extents.
dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !T, %a: !T, %b: !T) {
  // expected-error @+1 {{tensor 'C' has dynamic extents ('!dist.tensor<?x?xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>'), which only one-sided products take: a schedule of stationary(T), prefetch and offset alone (dynamic extents are supported on exported function arguments used by one-sided products; docs/interop.md)}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                substitute({ii, ji}, gemm)] : !T, !T, !T
  return
}

// -----

// No schedule at all.
dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !T, %a: !T, %b: !T) {
  // expected-error @+1 {{tensor 'C' has dynamic extents}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b) : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !T, %a: !T, %b: !T) {
  // expected-error @+1 {{one-sided product cannot be lowered: the cost model of stationary(auto) needs the extents, and some are dynamic; name the tensor that stays, stationary(C) for instance}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [prefetch(2)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!C = !dist.tensor<3x?x9xf64, #dist.layout<@m, [(0) blocked, (), ()]>>
!A = !dist.tensor<3x7x5xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
!B = !dist.tensor<3x5x9xf64, #dist.layout<@m, [(0) blocked, (), (1) blocked]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' has rank 3 and the product has dynamic extents; with dynamic extents the one-sided lowering takes matrix products C(i,j) = A(i,k) * B(k,j) of 2-D tensors}}
  dist.compute "C(b,i,j) = A(b,i,k) * B(b,k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Static extents that differ are still an error beside dynamic ones.
dist.grid @m [2, 2]
!C = !dist.tensor<?x9xf64, #dist.layout<@m, "xy -> xy">>
!A = !dist.tensor<?x5xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<6x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{index variable 'k' has extent 5 in A (dimension 1) but 6 in B (dimension 0)}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{a sparse tensor has static extents; dynamic extents (`?`) are supported on dense tensors only (docs/interop.md)}}
func.func @f(%t: !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>) {
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%t: !T) {
  // expected-error @+1 {{'dist.tensor_extent' op dimension 2 is out of range for '!dist.tensor<?x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>'}}
  %e = dist.tensor_extent %t[2] : !T
  return
}

// -----

dist.grid @m [2, 2]
func.func @f(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{'dist.onesided_matmul' op takes one extent per dynamic dimension of A, B and C (2), got 0}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>,
         !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>,
         !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
      : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%t: !T) {
  // expected-error @+1 {{'dist.tensor_extent' op dimension -1 is out of range}}
  %e = dist.tensor_extent %t[-1] : !T
  return
}
