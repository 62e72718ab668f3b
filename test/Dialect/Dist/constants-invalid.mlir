// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Constants of a statement are finite decimal doubles: out-of-range values
// (which used to become infinity or 0), hexadecimal floats, and inf/nan are
// rejected with the column of the constant.

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{invalid statement "A(i) = 1e999 * B(i)" at column 8: constant '1e999' is out of the range of a double (it would be infinite); write a constant of magnitude between about 4.9e-324 and 1.8e308, or 0}}
  dist.compute "A(i) = 1e999 * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{at column 15: constant '2e400' is out of the range of a double (it would be infinite)}}
  dist.compute "A(i) = B(i) - 2e400" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // A nonzero constant that would silently become 0.
  // expected-error @+1 {{at column 8: constant '1e-400' is out of the range of a double (it would round to 0)}}
  dist.compute "A(i) = 1e-400 * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // Hexadecimal floats are not constants (strtod would read 0x1p3 as 8).
  // expected-error @+1 {{at column 8: malformed number '0x1p3'; constants are decimal: digits with an optional fraction and exponent, e.g. 2, 0.5 or 1e-3}}
  dist.compute "A(i) = 0x1p3 * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{at column 8: malformed number '1e'}}
  dist.compute "A(i) = 1e * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{at column 8: malformed number '.'}}
  dist.compute "A(i) = . * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // `inf` and `nan` are names, never numbers: an unbound tensor here.
  // expected-error @+1 {{tensor 'inf' of the statement is not bound to a value}}
  dist.compute "A(i) = inf * B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{tensor 'nan' of the statement is not bound to a value}}
  dist.compute "A(i) = -nan + B(i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

// The extremes of the range are constants.
dist.grid @m [1]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  dist.compute "A(i) = 1.7976931348623157e308 * 4.9e-324 * 0e999 * .5 * 2. * 1E+2 * B(i)" (A = %a, B = %b) : !T, !T
  return
}
