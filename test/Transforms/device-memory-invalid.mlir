// RUN: dist-opt %s -split-input-file --dist-materialize-spmd --dist-device-memory -verify-diagnostics -o /dev/null
// RUN: not dist-opt %s -split-input-file --dist-to-llvm=device=gpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: dist-opt %s -split-input-file --dist-to-llvm -o /dev/null
// RUN: not dist-opt %dist_src_root/examples/distal/summa.mlir --dist-to-llvm=device=tpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT

// With device=gpu (dist-run --backend nccl), what has no device form yet
// is refused at the statement, saying what to use instead; without it the
// same programs compile (host tiles). Leaves that are not library calls
// become GPU kernels (gpu-kernels.mlir), MTTKRP's leaf is library calls,
// sparse products run in the runtime.

// PIPE: error: one-sided products are not supported on device tiles yet
// BADOPT: for the --device option: Cannot find option named 'tpu'!

// MTTKRP runs on device tiles: its leaf is library calls only (zeroing,
// rank-1 GEMMs for the Khatri-Rao product, then the GEMM); no error.
dist.grid @m [2, 2, 2]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "il -> i**">>
!B = !dist.tensor<16x16x16xf64, #dist.layout<@m, "ijk -> ijk">>
!C = !dist.tensor<16x8xf64, #dist.layout<@m, "jl -> *j*">>
!D = !dist.tensor<16x8xf64, #dist.layout<@m, "kl -> **k">>
func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki},
                           Grid(2, 2, 2)),
                reorder({ko, ii, ji, ki, l}),
                communicate({A, B, C, D}, ko),
                substitute({ii, ji, ki, l}, mttkrp)]
      : !A, !B, !C, !D
  return
}

// -----

// Sparse products: dist-to-llvm lowers them for device tiles
// (dist.sparse_mul_add, gpu-emu-sparse.test); lowered for host tiles (the
// first RUN line), their leaves would read the tiles on the host.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<100xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<100x100xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<100xf64, #dist.layout<@m, "x -> x">>
func.func @spmv(%a: !a, %b: !B, %c: !c) {
  // expected-error@+1 {{this sparse product was lowered for host tiles (its leaves read the tiles on the host); lower it with dist-materialize-spmd device=gpu or device=auto, as dist-to-llvm does, so that it runs in the runtime (dist.sparse_mul_add, cuSPARSE)}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({a, B, c}, io)]
      : !a, !B, !c
  return
}

// -----

// One-sided products.
dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @onesided(%c: !C, %a: !A, %b: !B) {
  // expected-error@+1 {{one-sided products are not supported on device tiles yet (issue #16); use a two-sided schedule, or compile without device=gpu (dist-run --backend mpi)}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), prefetch(2)] : !C, !A, !B
  return
}
