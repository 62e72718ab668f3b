// RUN: dist-opt %s -split-input-file --dist-materialize-spmd=device=gpu | FileCheck %s
// RUN: dist-opt %s -split-input-file --dist-materialize-spmd=device=auto | FileCheck %s --check-prefix=AUTO
// RUN: not dist-opt %s -split-input-file --dist-materialize-spmd=device=tpu 2>&1 | FileCheck %s --check-prefix=BAD

// With device tiles a sparse product runs in the runtime
// (dist.sparse_mul_add: cuSPARSE on the NCCL backend): no sparsifier leaf,
// no plan or exchange in the IR. '=' zeroes the output first.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<100xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<100x90xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<90xf64, #dist.layout<@m, "x -> x">>
func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !a, !B, !c
  return
}
// CHECK-LABEL: func.func @spmv
// CHECK:         dist.zero_tile
// CHECK:         dist.sparse_mul_add %{{.*}}, %{{.*}}, %{{.*}} cols 1 :
// CHECK-NOT:     dist.sparse_exchange_begin
// CHECK-NOT:     call @__dist_sparse
// AUTO-LABEL: func.func @spmv
// AUTO:         dist.sparse_exchange_begin
// BAD: dist-lower-computations: device='tpu' is not 'host', 'gpu' or 'auto'

// -----

// SpMM (k = 3) with C replicated and '+=': one product over the whole of C.
dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!A = !dist.tensor<10x3xf32, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<10x7xf32, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<7x3xf32, #dist.layout<@m, "xy -> **">>
func.func @spmm(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,k) += B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !A, !B, !C
  return
}
// CHECK-LABEL: func.func @spmm
// CHECK-NOT:     dist.zero_tile
// CHECK:         dist.sparse_mul_add %{{.*}}, %{{.*}}, %{{.*}} cols 3 whole :

// -----

// device=auto: device tiles when a machine is made of GPUs.
dist.grid @g gpu[2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!a = !dist.tensor<10xf64, #dist.layout<@g, "x -> x">>
!B = !dist.tensor<10x10xf64, #dist.layout<@g, "xy -> x">, #CSR>
func.func @gpus(%a: !a, %b: !B, %c: !a) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !a, !B, !a
  return
}
// AUTO-LABEL: func.func @gpus
// AUTO:         dist.sparse_mul_add
