// RUN: dist-opt %s -split-input-file -verify-diagnostics
// The marks dist-lower-computations puts on time loops for
// dist-double-buffer are checked by the dialect: dist.time_loop is a unit
// attribute and dist.overlap a bool, both on scf.for only; the leaf marks
// dist.reassociate, dist.vectorize_gathers and dist.overwrite go on
// functions.
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

// -----

// expected-error @below {{'dist.vectorize_gathers' is for leaf functions}}
module attributes {dist.vectorize_gathers} {
}

// -----

// expected-error @below {{'dist.vectorize_gathers' must be a unit attribute}}
func.func private @leaf() attributes {dist.vectorize_gathers = 4 : i64}

// -----

// dist.overwrite names the output argument of a leaf function: a 1-D memref
// of floats.
// expected-error @below {{'dist.overwrite' is for leaf functions}}
module attributes {dist.overwrite = 0 : i64} {
}

// -----

// expected-error @below {{'dist.overwrite' must be an integer: the index of the output argument}}
func.func private @leaf(%y: memref<?xf64>) attributes {dist.overwrite}

// -----

// expected-error @below {{'dist.overwrite' names argument 2, but the function has 1 argument(s)}}
func.func private @leaf(%y: memref<?xf64>) attributes {dist.overwrite = 2 : i64}

// -----

// expected-error @below {{'dist.overwrite' names argument 0 of type 'memref<?xi32>', but the output must be a 1-D memref of floats}}
func.func private @leaf(%y: memref<?xi32>) attributes {dist.overwrite = 0 : i64}

// -----

// expected-error @below {{'dist.overwrite' names argument 0 of type 'memref<4x4xf64>', but the output must be a 1-D memref of floats}}
func.func private @leaf(%y: memref<4x4xf64>) attributes {dist.overwrite = 0 : i64}
