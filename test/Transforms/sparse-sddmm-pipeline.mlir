// RUN: dist-opt %s --dist-to-llvm --mlir-print-ir-after=sparsification-and-bufferization \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// What the upstream sparsifier makes of SDDMM's leaf
// (lib/Transforms/SPMD/SparseSddmm.cpp), which the lowering relies on:
// the piece assembled over A's own buffers is updated in place (no copy
// of A's or B's arrays, no allocation but the row list and D transposed),
// each entry's sum over k starts from 0.0 and is stored (A's old values
// are not read), and the sums are then multiplied by B's values. If the
// sparsifier starts copying or accumulating, this test says so (the
// integration test's --check would then fail on the second call).

dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!S = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<64x8xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<8x48xf64, #dist.layout<@m, "xy -> *">>

// CHECK-LABEL: IR Dump After SparsificationAndBufferization
// CHECK: func.func private @__dist_sddmm_32x48_k8_p32_c32_f64(%[[POS:.*]]: memref<?xi32>, %[[CRD:.*]]: memref<?xi32>, %[[AV:.*]]: memref<?xf64>, %[[BV:.*]]: memref<?xf64>, %[[N:.*]]: index, %[[BASE:.*]]: index, %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NOT: memref.copy
// CHECK: %[[ROWS:.*]] = memref.alloc(%[[N]]) : memref<?xi32>
// CHECK-NOT: memref.copy
// CHECK: %[[DT:.*]] = memref.alloc() : memref<48x8xf64>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: %[[VALS:.*]] = memref.subview %[[AV]][0]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f64)
// CHECK: memref.load %[[DT]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %[[SUM]], %[[VALS]][
// CHECK-NOT: memref.copy
// CHECK: scf.for %[[P:.*]] =
// CHECK: memref.load %[[BV]][%[[P]]]
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[AV]][%[[P]]]
// CHECK-NOT: memref.copy
// CHECK: memref.dealloc %[[DT]]
// CHECK: memref.dealloc %[[ROWS]]
// CHECK: return
func.func @sddmm(%a: !S, %b: !S, %c: !C, %d: !D) {
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !S, !S, !C, !D
  return
}
