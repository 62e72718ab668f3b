// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The marks dist-lower-computations puts on time loops for
// dist-double-buffer are checked by the dialect: dist.time_loop is a unit
// attribute and dist.overlap a bool, both on scf.for only.
func.func @bad_marks(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'dist.overlap' must be true or false}}
  scf.for %k = %c0 to %n step %c1 {
  } {dist.time_loop, dist.overlap = 1 : i64}
  return
}

// -----

// expected-error @below {{'dist.time_loop' is for scf.for time loops}}
func.func @not_a_loop() attributes {dist.time_loop} {
  return
}

// -----

// expected-error @below {{'dist.reassociate' is for leaf functions}}
module attributes {dist.reassociate} {
}

// -----

// expected-error @below {{'dist.reassociate' must be a unit attribute}}
func.func private @leaf() attributes {dist.reassociate = 1 : i64}
