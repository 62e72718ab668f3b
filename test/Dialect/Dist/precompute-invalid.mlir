// RUN: dist-opt %s -split-input-file -verify-diagnostics
// DISTAL's precompute (a sub-expression staged in a workspace) is not
// supported: rejected at the command, whatever its arguments, with what to
// write instead.

dist.grid @m [2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x*">>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !T, %c: !V) {
  dist.compute "A(i) = B(i,j) * C(j)" (A = %a, B = %b, C = %c)
      // expected-error @+1 {{precompute is not supported yet: a computation has no temporaries of its own (DISTAL's precompute stages a sub-expression in a workspace whose layout the schedule would have to give); write the temporary as its own dist.compute with its own distribution and use its result in this statement}}
      schedule [precompute(B(i,j) * C(j), j, jw, W)] : !V, !T, !V
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x*">>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !T, %c: !V) {
  dist.compute "A(i) = B(i,j) * C(j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2)),
                // expected-error @+1 {{precompute is not supported yet}}
                precompute(e, j, jw, w)] : !V, !T, !V
  return
}

// -----

dist.grid @m [2]
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
// The schedule attribute spelled on its own is checked the same way.
// expected-error @+1 {{precompute is not supported yet}}
func.func @f(%a: !V) attributes {s = #dist.schedule<[precompute(e, i, iw, w)]>} {
  return
}
