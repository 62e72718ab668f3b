// RUN: dist-opt %s --dist-to-llvm --mlir-print-ir-after=dist-overwrite-leaves \
// RUN:   -o /dev/null 2>&1 | FileCheck %s
// The upstream sparsifier's CSR SpMV has the shape dist-overwrite-leaves
// knows: the first leaves of a product that assigns (`_set`: ALL, and DIAG)
// start each row's sum from zero and never read the output; nothing zeroes
// the output before them. The offdiag leaf (DCSR) adds to the output. If
// the sparsifier's code changes shape, the pass zeroes the output at the
// leaf's entry instead (still correct), and this test says so.

dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: IR Dump After DistOverwriteLeaves
// CHECK: func.func @spmv(
// CHECK-NOT: distrt_layout_zero
// CHECK: return
// CHECK: func.func private @__dist_sparse_spmv_32x64_k0_p32_c32_f64_set(%{{.*}}, %[[Y:arg5]]: memref<?xf64>)
// CHECK-NOT: dist.overwrite
// CHECK-SAME: {
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NOT: memref.load %[[Y]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f64)
// CHECK-NOT: memref.load %[[Y]]
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}]
// CHECK: return
// CHECK: func.func private @__dist_sparse_spmv_32x32_k0_p32_c32_f64_set(%{{.*}}, %[[Y2:arg5]]: memref<?xf64>)
// CHECK: %[[ZERO2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NOT: memref.load %[[Y2]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO2]]) -> (f64)
// CHECK: return
// CHECK: func.func private @__dist_sparse_spmv_32x64_k0_p32_c32_f64_dcsr(
// CHECK: memref.load %arg5
func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !a, !B, !c
  return
}
