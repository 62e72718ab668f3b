// RUN: dist-opt %s -split-input-file -verify-diagnostics
// RUN: not dist-opt %s -split-input-file 2>/dev/null | FileCheck %s
// RUN: not dist-opt %s --dist-materialize-spmd -split-input-file 2>&1 | FileCheck %s --check-prefix=LOWER

// `schedule auto` round-trips, and verifies on a machine of several
// processes without a distributed loop (dist-auto-schedule writes them).
// CHECK-LABEL: func.func @gemm(
// CHECK: dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %{{.*}}, B = %{{.*}}, C = %{{.*}}) schedule auto : !dist.tensor
// The lowering without the pass says what to run.
// LOWER: error: 'dist.compute' op has 'schedule auto' and no schedule yet: run dist-auto-schedule first (dist-to-llvm runs it; docs/autoschedule.md)
dist.grid @m [2, 2]
!T = !dist.tensor<16x16xf64, #dist.layout<@m, "xy -> xy">>
func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<16x16xf64, #dist.layout<@m, "xy -> xy">>
func.func @both(%a: !T, %b: !T) {
  // expected-error @below {{'dist.compute' op has both a schedule and 'schedule auto'; keep one}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] {auto_schedule} : !T, !T
  return
}

// -----

dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!v = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @spmv(%a: !v, %b: !S, %c: !v) {
  // expected-error @below {{'dist.compute' op schedule auto is for dense computations; a sparse product takes one of the schedules in docs/sparse.md}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c) schedule auto : !v, !S, !v
  return
}

// -----

// Layouts are still checked against their machines.
dist.grid @m [2, 2]
!T = !dist.tensor<16x16xf64, #dist.layout<@m, "xy -> xy">>
// expected-error @below {{layout describes 3 tensor dimension(s) but the tensor has rank 2}}
!U = !dist.tensor<16x16xf64, #dist.layout<@m, "xyz -> xyz">>
func.func @layout(%a: !T, %b: !U) {
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b) schedule auto : !T, !U
  return
}
