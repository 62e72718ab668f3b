// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -verify-diagnostics | FileCheck %s
// Dynamic (`?`) extents through dist-lower-computations and
// dist-tensors-to-tiles: the one-sided product reads each dynamic extent
// with dist.tensor_extent, which becomes an i64 argument of the function
// after the tiles (arguments in order, dimensions in order); a static
// extent of the same tensor is a constant. Anything else that holds a tensor
// with dynamic extents is an error naming the op (docs/interop.md).

dist.grid @m [2, 2]
!C = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
!A = !dist.tensor<?x16xf64, #dist.layout<@m, [(0) block_cyclic(3), ()]>>
!B = !dist.tensor<16x?xf64, #dist.layout<@m, [(), (0, 1) cyclic]>>

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<?xf64>, %[[A:[a-z0-9]+]]: memref<?xf64>, %[[B:[a-z0-9]+]]: memref<?xf64>,
// CHECK-SAME: %[[C0:[a-z0-9]+]]: i64, %[[C1:[a-z0-9]+]]: i64, %[[A0:[a-z0-9]+]]: i64, %[[B1:[a-z0-9]+]]: i64)
// CHECK: dist.onesided_matmul %[[A]], %[[B]] into %[[C]] stationary C
// CHECK-SAME: extents(%[[A0]], %[[B1]], %[[C0]], %[[C1]])
// CHECK-SAME: operand_names = ["'A' (argument 1 of @gemm)", "'B' (argument 2 of @gemm)", "'C' (argument 0 of @gemm)"]
func.func @gemm(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
// expected-error @+1 {{'func.func' op has a tensor with dynamic extents ('!dist.tensor<?x?xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>') that is not an argument of a public function other than @main; dynamic extents are supported on exported function arguments used by one-sided products; docs/interop.md}}
func.func private @hidden(%c: !T, %a: !T, %b: !T) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
func.func @callee(%c: !T, %a: !T, %b: !T) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !T, !T, !T
  return
}
func.func @caller(%c: !T, %a: !T, %b: !T) {
  // expected-error @+1 {{'func.call' op takes a tensor with dynamic extents ('!dist.tensor<?x?xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>'), which it cannot lower; dynamic extents are supported on exported function arguments used by one-sided products; docs/interop.md}}
  func.call @callee(%c, %a, %b) : (!T, !T, !T) -> ()
  return
}
