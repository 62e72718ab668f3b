// RUN: dist-opt %s --split-input-file --dist-overwrite-leaves | FileCheck %s
// A leaf marked dist.overwrite = N sets argument N: a CSR row sum that
// starts from the loaded element (the sparsifier's SpMV) starts from zero;
// any other code zeroes the output at entry. The attribute is removed.

// The sparsifier's CSR SpMV: the sum starts from 0.0, nothing else changes.
// CHECK-LABEL: func.func private @spmv(
// CHECK-NOT:     dist.overwrite
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:         scf.for %[[I:.*]] = %c0 to %c32 step %c1 {
// CHECK-NOT:       memref.load %arg5
// CHECK:           %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f64) {
// CHECK:           memref.store %[[SUM]], %arg5[%[[I]]] : memref<?xf64>
// CHECK:         memref.copy %arg5, %arg5
func.func private @spmv(%arg0: memref<?xi32>, %arg1: memref<?xi32>,
    %arg2: memref<?xf64>, %arg3: memref<?xf64>, %arg4: index,
    %arg5: memref<?xf64>) attributes {dist.overwrite = 5 : i64} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %init = memref.load %arg5[%i] : memref<?xf64>
    %b = memref.load %arg0[%i] : memref<?xi32>
    %lo = arith.index_cast %b : i32 to index
    %i1 = arith.addi %i, %c1 : index
    %e = memref.load %arg0[%i1] : memref<?xi32>
    %hi = arith.index_cast %e : i32 to index
    %sum = scf.for %p = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
      %c = memref.load %arg1[%p] : memref<?xi32>
      %j = arith.index_cast %c : i32 to index
      %v = memref.load %arg2[%p] : memref<?xf64>
      %x = memref.load %arg3[%j] : memref<?xf64>
      %m = arith.mulf %v, %x : f64
      %a = arith.addf %acc, %m : f64
      scf.yield %a : f64
    }
    memref.store %sum, %arg5[%i] : memref<?xf64>
  }
  memref.copy %arg5, %arg5 : memref<?xf64> to memref<?xf64>
  return
}

// -----

// The output is read elsewhere too (here: after the loop): zeroed at entry,
// the loop left as it is.
// CHECK-LABEL: func.func private @read_again(
// CHECK-NOT:     dist.overwrite
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[N:.*]] = memref.dim %arg0, %c0
// CHECK:         scf.for %[[K:.*]] = %c0{{.*}} to %[[N]] step %c1{{.*}} {
// CHECK-NEXT:      memref.store %[[Z]], %arg0[%[[K]]] : memref<?xf32>
// CHECK:         scf.for
// CHECK:           memref.load %arg0
// CHECK:         memref.load %arg0
func.func private @read_again(%arg0: memref<?xf32>, %n: index) -> f32
    attributes {dist.overwrite = 0 : i64} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c1 {
    %init = memref.load %arg0[%i] : memref<?xf32>
    %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
      %a = arith.addf %acc, %acc : f32
      scf.yield %a : f32
    }
    memref.store %sum, %arg0[%i] : memref<?xf32>
  }
  %r = memref.load %arg0[%c0] : memref<?xf32>
  return %r : f32
}

// -----

// A row loop with step 2 or a lower bound other than 0 would leave elements
// unset: zeroed at entry.
// CHECK-LABEL: func.func private @step_two(
// CHECK:         memref.dim %arg0
// CHECK:         memref.store %{{.*}}, %arg0
// CHECK:         memref.load %arg0
func.func private @step_two(%arg0: memref<?xf64>, %n: index)
    attributes {dist.overwrite = 0 : i64} {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c2 {
    %init = memref.load %arg0[%i] : memref<?xf64>
    %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %init) -> (f64) {
      %a = arith.addf %acc, %acc : f64
      scf.yield %a : f64
    }
    memref.store %sum, %arg0[%i] : memref<?xf64>
  }
  return
}

// -----

// The loaded element is used for more than starting the sum.
// CHECK-LABEL: func.func private @init_used_twice(
// CHECK:         memref.dim %arg0
// CHECK:         memref.load %arg0
func.func private @init_used_twice(%arg0: memref<?xf64>, %n: index)
    attributes {dist.overwrite = 0 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %init = memref.load %arg0[%i] : memref<?xf64>
    %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %init) -> (f64) {
      %a = arith.addf %acc, %init : f64
      scf.yield %a : f64
    }
    memref.store %sum, %arg0[%i] : memref<?xf64>
  }
  return
}

// -----

// A loop nested in another visits the elements more than once.
// CHECK-LABEL: func.func private @nested(
// CHECK:         memref.dim %arg0
// CHECK:         memref.load %arg0
func.func private @nested(%arg0: memref<?xf64>, %n: index)
    attributes {dist.overwrite = 0 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %init = memref.load %arg0[%i] : memref<?xf64>
      %sum = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %init) -> (f64) {
        %a = arith.addf %acc, %acc : f64
        scf.yield %a : f64
      }
      memref.store %sum, %arg0[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// SpMM-like code (the output viewed in 2-D): zeroed at entry.
// CHECK-LABEL: func.func private @viewed(
// CHECK:         memref.dim %arg0
// CHECK:         memref.reinterpret_cast %arg0
func.func private @viewed(%arg0: memref<?xf64>) attributes {dist.overwrite = 0 : i64} {
  %v = memref.reinterpret_cast %arg0 to offset: [0], sizes: [4, 8], strides: [8, 1]
      : memref<?xf64> to memref<4x8xf64, strided<[8, 1]>>
  return
}

// -----

// Unmarked functions are left alone.
// CHECK-LABEL: func.func private @unmarked(
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.load %arg0[%[[C]]]
func.func private @unmarked(%arg0: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %arg0[%c0] : memref<?xf64>
  return %v : f64
}
