// RUN: dist-opt %s --dist-materialize-spmd=leaf-fallback=true -verify-diagnostics | FileCheck %s
// With leaf-fallback, a substitute that cannot apply becomes scalar loops
// with one warning (without it, materialize-spmd-invalid.mlir: an error).

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xi32, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @f
// CHECK-NOT: dist.gemm
// CHECK: scf.for
// CHECK: arith.muli
// CHECK-NOT: dist.gemm
// CHECK: return
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-remark @+2 {{tensor 'B' moves with the general exchange}}
  // expected-warning @+1 {{substitute(..., gemm) cannot apply (the element type is not f32 or f64); using scalar loops (leaf-fallback)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                substitute({ii, ji, k}, gemm)] : !T, !T, !T
  return
}
