// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The runtime's limits are verifier errors, not run-time stops: at most
// DISTRT_MAX_DIMS (8) grid axes over all levels and tensor dimensions, and
// 32-bit BLAS sizes for substituted leaves.

// expected-error @+1 {{'dist.grid' op has 9 grid axes (all levels together) but the runtime supports at most 8 (DISTRT_MAX_DIMS); merge axes, e.g. [2, 2] into [4]}}
dist.grid @m [1, 1, 1, 1, 1, 1, 1, 1, 1]

// -----

// The runtime flattens the levels into one grid.
// expected-error @+1 {{'dist.grid' op has 9 grid axes (all levels together)}}
dist.grid @h node[2, 1, 1, 1, 1], cpu[1, 1, 1, 2]

// -----

// Eight axes, and a rank-8 tensor, are fine.
dist.grid @m [1, 1, 1, 1, 1, 1, 1, 2]
func.func @f(%a: !dist.tensor<2x1x1x1x1x1x1x1xf64, #dist.layout<@m, [(7), (), (), (), (), (), (), ()]>>) {
  return
}

// -----

dist.grid @m [2]
// expected-error @+1 {{tensor has rank 9 but the runtime supports at most 8 dimensions (DISTRT_MAX_DIMS); merge dimensions into fewer}}
func.func @f(%a: !dist.tensor<2x1x1x1x1x1x1x1x1xf64, #dist.layout<@m, [(0), (), (), (), (), (), (), (), ()]>>) {
  return
}

// -----

dist.grid @m [2]
// Element counts never overflow int64: the shape's product is bounded.
// expected-error @+1 {{tensor has more than 2^50 elements, the most dist supports}}
func.func @f(%a: !dist.tensor<4294967296x4294967296xf64, #dist.layout<@m, "xy -> x">>) {
  return
}

// -----

// A gemm leaf passes m, n and k to BLAS as 32-bit integers.
dist.grid @m [1]
!A = !dist.tensor<2147483648x1xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<1x1xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !A, %b: !A, %c: !C) {
  // expected-error @+1 {{schedule: substitute({i, j, k}, gemm): 'A' has extent 2147483648 along 'i' (dimension 0), more than 2147483647, the gemm leaf's BLAS call can take; BLAS sizes and leading dimensions are 32-bit. Remove the substitute command (the leaf then runs as compiled loops) or use smaller tensors}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, gemm)] : !A, !A, !C
  return
}

// -----

// INT32_MAX itself fits.
dist.grid @m [1]
!A = !dist.tensor<2147483647x1xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<1x1xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !A, %b: !A, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, gemm)] : !A, !A, !C
  return
}

// -----

// Without the substitution the same computation is loops: accepted.
dist.grid @m [1]
!A = !dist.tensor<2147483648x1xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<1x1xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !A, %b: !A, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !A, !A, !C
  return
}

// -----

// mttkrp multiplies B's (j, k) rows by a Khatri-Rao product: B's leading
// dimension is J * K = 2^32, although every extent fits.
dist.grid @m [1]
!A = !dist.tensor<2x1xf64, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<2x65536x65536xf32, #dist.layout<@m, "xyz -> x">>
!M = !dist.tensor<65536x1xf32, #dist.layout<@m, "xy -> x">>
!Af = !dist.tensor<2x1xf32, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !Af, %b: !B, %c: !M, %d: !M) {
  // expected-error @+1 {{schedule: substitute({i, l, j, k}, mttkrp): 'B' has rows of 4294967296 elements behind 'i' (dimension 0), a leading dimension of more than 2147483647 for the mttkrp leaf's BLAS call}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [substitute({i, l, j, k}, mttkrp)] : !Af, !B, !M, !M
  return
}
