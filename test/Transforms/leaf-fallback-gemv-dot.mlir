// RUN: dist-opt %s --dist-materialize-spmd=leaf-fallback=true -split-input-file -verify-diagnostics | FileCheck %s
// With leaf-fallback, a gemv or dot substitute that cannot apply becomes
// scalar loops with one warning, as for gemm (leaf-fallback.mlir; without
// the option: materialize-spmd-gemv-dot-invalid.mlir).

dist.grid @m [2]
!y = !dist.tensor<8xi32, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8xi32, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<8xi32, #dist.layout<@m, "y -> *">>
// CHECK-LABEL: func.func @f
// CHECK-NOT: dist.gemv
// CHECK: arith.muli
// CHECK-NOT: dist.gemv
// CHECK: return
func.func @f(%y: !y, %a: !A, %x: !x) {
  // expected-warning @+1 {{substitute(..., gemv) cannot apply (the element type is not f32 or f64); using scalar loops (leaf-fallback)}}
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(2)),
                communicate({y, A, x}, io),
                substitute({ii, j}, gemv)] : !y, !A, !x
  return
}

// -----

dist.grid @m [2]
!a = !dist.tensor<i32, #dist.layout<@m, " -> *">>
!u = !dist.tensor<8xi32, #dist.layout<@m, "x -> x">>
// CHECK-LABEL: func.func @f
// CHECK-NOT: dist.dot
// CHECK: arith.muli
// CHECK-NOT: dist.dot
// CHECK: return
func.func @f(%a: !a, %u: !u, %v: !u) {
  // expected-warning @+1 {{substitute(..., dot) cannot apply (the element type is not f32 or f64); using scalar loops (leaf-fallback)}}
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(2)),
                communicate({a, u, v}, ko),
                substitute({ki}, dot)] : !a, !u, !u
  return
}
