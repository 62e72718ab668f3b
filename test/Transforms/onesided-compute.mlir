// RUN: dist-opt %s -split-input-file --dist-materialize-spmd | FileCheck %s
// RUN: dist-opt %s -split-input-file --dist-report-communication -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// A schedule with stationary, prefetch or offset lowers a matrix product
// to one dist.onesided_matmul on the three tiles (docs/onesided.md), after
// run-time checks that the output's tile is neither input's. The cost
// model's choice for stationary(auto) is marked, and the report says what
// runs and the model's estimates (test/Transforms/onesided-cost.mlir for
// the choice). Tensors on grids of the same processes keep their own
// grids; contractions that matricize get the matrices' layouts, and a
// batch its own.

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @auto(
// CHECK-SAME: %[[C:[^:]*]]: memref<?xf64>, %[[A:[^:]*]]: memref<?xf64>, %[[B:[^:]*]]: memref<?xf64>)
// CHECK: dist.check_distinct %[[C]], %[[A]] named "A"
// CHECK: dist.check_distinct %[[C]], %[[B]] named "B"
// CHECK: dist.onesided_matmul %[[A]], %[[B]] into %[[C]] stationary C prefetch 3 offset true
// CHECK-SAME: {dist.stationary_chosen}
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'C' (chosen by the cost model); the model's seconds per process (alpha 1e-06, beta 1e-09, gamma 1e-10): stationary A 1.04e-06 = 1e-06 + 2.7e-08 + 1.58e-08 (1 messages, 27 words, 158 flops); stationary B 1.04e-06 = 1e-06 + 2.45e-08 + 1.58e-08 (1 messages, 24.5 words, 158 flops); stationary C 1.58e-08 = 0 + 0 + 1.58e-08 (0 messages, 0 words, 158 flops); slices of the moving tensors are got with MPI_Rget, 3 get(s) in flight ahead of the GEMM, with the iteration offset
func.func @auto(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(auto), prefetch(3)] : !C, !A, !B
  return
}

// -----

// Mismatched layouts, the operands in the other order, +=, stationary A
// chosen by the schedule, no offset, the default prefetch depth (2).
dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf32, #dist.layout<@m, "xy -> yx">>
!B = !dist.tensor<5x9xf32, #dist.layout<@m, "xy -> x*">>
!C = !dist.tensor<7x9xf32, #dist.layout<@m, [(0, 1) block_cyclic(2), ()]>>
// CHECK-LABEL: func.func @mismatched(
// CHECK-SAME: %[[C:[^:]*]]: memref<?xf32>, %[[A:[^:]*]]: memref<?xf32>, %[[B:[^:]*]]: memref<?xf32>)
// CHECK: dist.onesided_matmul %[[A]], %[[B]] accumulate into %[[C]] stationary A prefetch 2 offset false
// CHECK-NOT: dist.stationary_chosen
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'X' (the schedule's); {{.*}}partial results of 'Y' added into its owners with MPI_Raccumulate, 2 get(s) in flight ahead of the GEMM, without the iteration offset
func.func @mismatched(%c: !C, %a: !A, %b: !B) {
  dist.compute "Y(i,j) += W(k,j) * X(i,k)" (Y = %c, X = %a, W = %b)
      schedule [offset(off), stationary(X)] : !C, !A, !B
  return
}

// -----

// A on a grid of its own (the same four processes).
dist.grid @m [2, 2]
dist.grid @n [4]
!A = !dist.tensor<7x5xf64, #dist.layout<@n, [(0) blocked, ()]>>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @grids(
// CHECK: dist.onesided_matmul {{.*}} stationary C prefetch 2 offset true as !dist.tensor<7x5xf64, #dist.layout<@n, [(0) blocked, ()]>>, !dist.tensor<5x9xf64, #dist.layout<@m, [(), (1) blocked]>>, !dist.tensor<7x9xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>> :
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'C' (the schedule's)
func.func @grids(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Groups of indices: i.. = (i, l), k.. = (k, q). A's i (3 over 2: blocks
// of 2) is its group's first: the 12 rows of the matrix are dealt in blocks
// of 2 * 4 = 8; B's k is cyclic over axis 1 with q (5) after it: blocks of
// 5; C's j keeps its layout.
dist.grid @m [2, 2]
!A = !dist.tensor<3x4x2x5xf64, #dist.layout<@m, [(0) blocked, (), (), ()]>>
!B = !dist.tensor<2x5x6xf64, #dist.layout<@m, [(1) cyclic, (), ()]>>
!C = !dist.tensor<3x4x6xf64, #dist.layout<@m, [(), (), (0, 1) block_cyclic(2)]>>
// CHECK-LABEL: func.func @groups(
// CHECK: dist.onesided_matmul {{.*}} accumulate into {{.*}} as !dist.tensor<12x10xf64, #dist.layout<@m, [(0) block_cyclic(8), ()]>>, !dist.tensor<10x6xf64, #dist.layout<@m, [(1) block_cyclic(5), ()]>>, !dist.tensor<12x6xf64, #dist.layout<@m, [(), (0, 1) block_cyclic(2)]>> {dist.stationary_chosen} :
func.func @groups(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,l,j) += A(i,l,k,q) * B(k,q,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(auto)] : !C, !A, !B
  return
}

// -----

// An inner index dealt out in blocks that divide it (8 = 2 blocks of 2 x
// 2 processes): block_cyclic(2 * 1) of the merged 3 * 8 rows.
dist.grid @m [2, 2]
!A = !dist.tensor<3x8x5xf64, #dist.layout<@m, [(), (0) block_cyclic(2), ()]>>
!B = !dist.tensor<5x6xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<3x8x6xf64, #dist.layout<@m, [(), (0) blocked, ()]>>
// CHECK-LABEL: func.func @inner(
// CHECK: dist.onesided_matmul {{.*}} as !dist.tensor<24x5xf64, #dist.layout<@m, [(0) block_cyclic(2), ()]>>, !dist.tensor<5x6xf64, #dist.layout<@m, [(), (1) blocked]>>, !dist.tensor<24x6xf64, #dist.layout<@m, [(0) block_cyclic(4), ()]>> :
func.func @inner(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,l,j) = A(i,l,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(B)] : !C, !A, !B
  return
}

// -----

// Batch indices: whole (one product per batch element, 3 of them), or
// dealt out identically over axis 0.
dist.grid @m [2, 2]
!A = !dist.tensor<3x7x5xf32, #dist.layout<@m, [(), (0) blocked, ()]>>
!B = !dist.tensor<3x5x9xf32, #dist.layout<@m, [(), (), (1) blocked]>>
!C = !dist.tensor<3x7x9xf32, #dist.layout<@m, [(), (0) cyclic, ()]>>
!D = !dist.tensor<3x7x5xf32, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
!E = !dist.tensor<3x5x9xf32, #dist.layout<@m, [(0) blocked, (), (1) blocked]>>
!F = !dist.tensor<3x7x9xf32, #dist.layout<@m, [(0) blocked, (), ()]>>
// CHECK-LABEL: func.func @batch(
// CHECK: dist.onesided_matmul {{.*}} stationary A prefetch 2 offset true as !dist.tensor<7x5xf32, #dist.layout<@m, [(0) blocked, ()]>>, !dist.tensor<5x9xf32, #dist.layout<@m, [(), (1) blocked]>>, !dist.tensor<7x9xf32, #dist.layout<@m, [(0), ()]>> batch !dist.tensor<3xf32, #dist.layout<@m, [()]>> :
// CHECK: dist.onesided_matmul {{.*}} as !dist.tensor<7x5xf32, #dist.layout<@m, [(1) blocked, ()]>>, !dist.tensor<5x9xf32, #dist.layout<@m, [(), (1) blocked]>>, !dist.tensor<7x9xf32, #dist.layout<@m, [(), ()]>> batch !dist.tensor<3xf32, #dist.layout<@m, [(0) blocked]>> :
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'A' (the schedule's); {{.*}}, one product per batch element (3 in all)
func.func @batch(%c: !C, %a: !A, %b: !B, %f: !F, %d: !D, %e: !E) {
  dist.compute "C(b,i,j) = A(b,i,k) * B(b,k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(A)] : !C, !A, !B
  dist.compute "F(b,i,j) = D(b,i,k) * E(b,k,j)" (F = %f, D = %d, E = %e)
      schedule [stationary(F)] : !F, !D, !E
  return
}
