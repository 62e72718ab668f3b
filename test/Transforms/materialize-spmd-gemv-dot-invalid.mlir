// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -verify-diagnostics
// A gemv or dot substitute that the verifier accepts but the lowering cannot
// apply is an error, as for gemm (leaf-fallback turns it into a warning and
// compiled loops).

dist.grid @m [2]
!y = !dist.tensor<8xi32, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<8x8xi32, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<8xi32, #dist.layout<@m, "y -> *">>
func.func @f(%y: !y, %a: !A, %x: !x) {
  // expected-error @+1 {{substitute(..., gemv) cannot apply: the element type is not f32 or f64; change the schedule or the layouts, remove the substitute command, or ask for scalar loops in its place with the pass option leaf-fallback (dist-run --leaf-fallback)}}
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
func.func @f(%a: !a, %u: !u, %v: !u) {
  // expected-error @+1 {{substitute(..., dot) cannot apply: the element type is not f32 or f64}}
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(2)),
                communicate({a, u, v}, ko),
                substitute({ki}, dot)] : !a, !u, !u
  return
}
