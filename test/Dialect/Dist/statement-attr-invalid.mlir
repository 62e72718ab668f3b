// RUN: dist-opt %s -split-input-file -verify-diagnostics

// A malformed statement in the generic form is an error where the
// attribute is written, with the column in the statement.

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{invalid statement "A(i,j) = B(i,j) *" at column 18: expected an access, a constant or '(' but the statement ended}}
  "dist.compute"(%a, %b) <{names = ["A", "B"], statement = #dist.statement<"A(i,j) = B(i,j) *">}> : (!T, !T) -> ()
  return
}

// -----

// The same for the attribute on its own.
// expected-error @+1 {{invalid statement "A(i) B(i)" at column 6: expected '=' or '+=' after the left-hand side}}
func.func @g() attributes {dist.stmt = #dist.statement<"A(i) B(i)">} {
  return
}

// -----

// The statement is a #dist.statement, not a string (the generic form
// before the statement was typed).
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{Invalid attribute `statement` in property conversion: "A(i,j) = B(i,j)"}}
  "dist.compute"(%a, %b) <{names = ["A", "B"], statement = "A(i,j) = B(i,j)"}> : (!T, !T) -> ()
  return
}

// -----

// A generic op that parses is verified as the pretty form is.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{'dist.compute' op tensor 'C' of the statement is not bound to a value}}
  "dist.compute"(%a, %b) <{names = ["A", "B"], statement = #dist.statement<"A(i,j) = B(i,j) * C(i,j)">}> : (!T, !T) -> ()
  return
}

// -----

// In the pretty form the error is the op's, in the verifier's words.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{'dist.compute' op invalid statement "A(i,j) = B(i,j) C(i,j)" at column 17: unexpected 'C' after the end of the statement}}
  dist.compute "A(i,j) = B(i,j) C(i,j)" (A = %a, B = %b) : !T, !T
  return
}
