// RUN: dist-opt %s -split-input-file --dist-materialize-spmd | FileCheck %s
// RUN: dist-opt %s -split-input-file --dist-report-communication -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// A schedule with stationary, prefetch or offset lowers a matrix product
// to one dist.onesided_matmul on the three tiles (docs/onesided.md), after
// run-time checks that the output's tile is neither input's. The cost
// model's choice for stationary(auto) is marked, and the report says what
// runs and the model's words.

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
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'C' (chosen by the cost model); the model's words per process: stationary A 27, B 24.5, C 0; slices of the moving tensors are got with MPI_Rget, 3 get(s) in flight ahead of the GEMM, with the iteration offset
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
