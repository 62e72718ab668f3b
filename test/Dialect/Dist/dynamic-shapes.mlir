// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt --dist-report-communication=quiet=1 %s 2>&1 | FileCheck %s --check-prefix=REPORT
// Dynamic (`?`) extents where they lower: arguments of exported functions
// used by one-sided products (docs/interop.md, "Dynamic shapes"). They
// print back as `?`, match any extent of the same index, and the report
// says that the cost model has no extents to work with.

dist.grid @m [2, 2]
!C = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
!A = !dist.tensor<?x16xf64, #dist.layout<@m, [(0) block_cyclic(3), ()]>>
!B = !dist.tensor<16x?xf64, #dist.layout<@m, [(), (0, 1) cyclic]>>

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: !dist.tensor<?x?xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
// CHECK-SAME: !dist.tensor<?x16xf64
// CHECK-SAME: !dist.tensor<16x?xf64
// CHECK: dist.compute "C(i,j) = A(i,k) * B(k,j)"
// CHECK-SAME: schedule [stationary(C), prefetch(2)]
func.func @gemm(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), prefetch(2)] : !C, !A, !B
  return
}

// A static extent beside a dynamic one of the same index.
!S = !dist.tensor<8x?xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @mixed
func.func @mixed(%c: !S, %a: !A, %b: !B) {
  dist.compute "C(i,j) += A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(A)] : !S, !A, !B
  return
}

// REPORT: remark: one-sided product (docs/onesided.md): stationary 'C' (the schedule's); no model estimates: the extents are given at call time; slices of the moving tensors are got with MPI_Rget
// REPORT: remark: one-sided product (docs/onesided.md): stationary 'A' (the schedule's); no model estimates: the extents are given at call time;
