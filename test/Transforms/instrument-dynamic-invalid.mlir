// RUN: dist-opt %s --dist-instrument=check=1 -verify-diagnostics
// dist-instrument's check gathers whole tensors: a computation on tensors
// with dynamic (`?`) extents cannot be checked (docs/interop.md).

dist.grid @m [2, 2]
!T = !dist.tensor<?x?xf64, #dist.layout<@m, "xy -> xy">>
func.func @gemm(%c: !T, %a: !T, %b: !T) {
  // expected-error @+1 {{'dist.compute' op check: tensor 'C' has dynamic extents ('!dist.tensor<?x?xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>'); the check gathers whole tensors and needs static shapes}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !T, !T, !T
  return
}
