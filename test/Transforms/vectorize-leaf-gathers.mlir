// RUN: dist-opt %s --dist-vectorize-leaf-gathers=gather-above=0 | FileCheck %s
// RUN: dist-opt %s --dist-vectorize-leaf-gathers="width=8 gather-above=0" | FileCheck %s --check-prefix=W8
// RUN: dist-opt %s --dist-vectorize-leaf-gathers=width=0 | FileCheck %s --check-prefix=OFF
// RUN: dist-opt %s --dist-vectorize-leaf-gathers | FileCheck %s --check-prefix=SPLIT
// RUN: dist-opt %s --dist-vectorize-leaf-gathers=gather-above=4096 | FileCheck %s --check-prefix=ABOVE
// RUN: dist-opt %s --dist-vectorize-leaf-gathers=prefetch-distance=0 | FileCheck %s --check-prefix=NOPF
// A CSR row's sum of val[p] * x[crd[p]] in a leaf marked dist.reassociate
// becomes, for rows of at least 2 x 4 terms, a loop over whole vectors of 4
// terms (the body cloned per lane, the terms put in a vector and added to a
// vector accumulator), the reduction of that accumulator into the loop's
// initial value, and a loop over the last (ub - lb) mod 4 iterations;
// shorter rows keep the original loop. The function is marked
// prefer-no-gather, so that the backend keeps the lanes' scalar loads.
// With gather-above=N (default 1 MiB), a leaf whose sums gather from one
// of its arguments keeps both versions: @f__vector (rewritten, marked) and
// @f__prefetch (the original loops, for the backend to vectorize with
// hardware gathers, prefetching the element gathered D = prefetch-distance
// entries ahead; @f__gathers, without, when D is 0), and @f calls the
// second when that argument holds more than N bytes and 32 consecutive
// pairs of index entries from the middle of the index buffer differ, more
// than 16 of them, by a cache line of x or more.

// CHECK-LABEL: func.func private @row_sum
// CHECK-SAME: (%[[CRD:.*]]: memref<?xi32>, %[[VAL:.*]]: memref<?xf64>, %[[X:.*]]: memref<?xf64>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[INIT:.*]]: f64)
// CHECK-SAME: target_features = #llvm.target_features<["+prefer-no-gather"]>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[D:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[N:.*]] = arith.maxsi %[[D]], %[[C0]] : index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %[[N]], %[[C8]] : index
// CHECK: %[[RES:.*]] = scf.if %[[LONG]] -> (f64) {
// CHECK: %[[REM:.*]] = arith.remui %[[N]], %[[C4]] : index
// CHECK: %[[WHOLE:.*]] = arith.subi %[[N]], %[[REM]] : index
// CHECK: %[[MID:.*]] = arith.addi %[[LB]], %[[WHOLE]] : index
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf64>
// CHECK: %[[V:.*]] = scf.for %[[Q:.*]] = %[[LB]] to %[[MID]] step %[[C4]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<4xf64>) {
// CHECK: memref.load %[[CRD]][%[[Q]]]
// CHECK: %[[T0:.*]] = arith.mulf {{.*}} fastmath<reassoc,contract> : f64
// CHECK: %[[Q1:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK: memref.load %[[CRD]][%[[Q1]]]
// CHECK: %[[T1:.*]] = arith.mulf
// CHECK: %[[T2:.*]] = arith.mulf
// CHECK: %[[T3:.*]] = arith.mulf
// CHECK: %[[VEC:.*]] = vector.from_elements %[[T0]], %[[T1]], %[[T2]], %[[T3]] : vector<4xf64>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[VEC]] fastmath<reassoc,contract> : vector<4xf64>
// CHECK: scf.yield %[[SUM]] : vector<4xf64>
// CHECK: } {keep = "me"}
// CHECK: %[[PART:.*]] = vector.reduction <add>, %[[V]], %[[INIT]] fastmath<reassoc,contract> : vector<4xf64> into f64
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[REM]] step %{{.*}} iter_args(%[[A:.*]] = %[[PART]]) -> (f64) {
// CHECK: %[[P:.*]] = arith.addi %[[MID]], %[[K]] : index
// CHECK: memref.load %[[CRD]][%[[P]]]
// CHECK: %[[T:.*]] = arith.mulf
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[T]] fastmath<reassoc,contract> : f64
// CHECK: scf.yield %[[S]] : f64
// CHECK: } {keep = "me"}
// CHECK: scf.yield %[[R]] : f64
// CHECK: } else {
// CHECK: %[[O:.*]] = scf.for %[[P2:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[A2:.*]] = %[[INIT]]) -> (f64) {
// CHECK-NOT: {{vector[<.]}}
// CHECK: scf.yield
// CHECK: } {keep = "me"}
// CHECK: scf.yield %[[O]] : f64
// CHECK: }
// CHECK: return %[[RES]] : f64

// W8-LABEL: func.func private @row_sum
// W8: arith.constant 16 : index
// W8: vector.from_elements {{.*}} : vector<8xf64>
// W8: vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<8xf64> into f64

// OFF-LABEL: func.func private @row_sum
// OFF-NOT: {{vector[<.]}}
// OFF: return
// OFF-NOT: target_features
// OFF-NOT: __vector

// SPLIT-LABEL: func.func private @row_sum(
// SPLIT-SAME: %[[CRD:[^:]*]]: memref<?xi32>, %[[VAL:[^:]*]]: memref<?xf64>, %[[X:[^:]*]]: memref<?xf64>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[INIT:[^:]*]]: f64) -> f64 attributes {dist.reassociate} {
// SPLIT: %[[C8:.*]] = arith.constant 8 : index
// SPLIT: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf64>
// SPLIT: %[[BYTES:.*]] = arith.muli %[[C8]], %[[N]] : index
// SPLIT: %[[LIMIT:.*]] = arith.constant 1048576 : index
// SPLIT: %[[LARGE:.*]] = arith.cmpi ugt, %[[BYTES]], %[[LIMIT]] : index
// SPLIT: %[[USE:.*]] = scf.if %[[LARGE]] -> (i1) {
// SPLIT: %[[NC:.*]] = memref.dim %[[CRD]], %{{.*}} : memref<?xi32>
// SPLIT: %[[C66:.*]] = arith.constant 66 : index
// SPLIT: %[[ENOUGH:.*]] = arith.cmpi uge, %[[NC]], %[[C66]] : index
// SPLIT: %[[SCAT:.*]] = scf.if %[[ENOUGH]] -> (i1) {
// SPLIT: %[[MID:.*]] = arith.divui %[[NC]], %{{.*}} : index
// SPLIT: %[[COUNT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[C32:.*]] step %{{.*}} iter_args(%[[N:.*]] = %{{.*}}) -> (i64) {
// SPLIT: %[[P:.*]] = arith.addi %[[MID]], %[[K]] : index
// SPLIT: %[[P1:.*]] = arith.addi %[[P]], %{{.*}} : index
// SPLIT: memref.load %[[CRD]][%[[P]]] : memref<?xi32>
// SPLIT: memref.load %[[CRD]][%[[P1]]] : memref<?xi32>
// SPLIT: %[[FAR:.*]] = arith.cmpi uge, %{{.*}}, %[[LINE:.*]] : i64
// SPLIT: }
// SPLIT: %[[HALF:.*]] = arith.constant 16 : i64
// SPLIT: %[[MANY:.*]] = arith.cmpi ugt, %[[COUNT]], %[[HALF]] : i64
// SPLIT: scf.yield %[[MANY]] : i1
// SPLIT: } else {
// SPLIT: scf.yield %false : i1
// SPLIT: }
// SPLIT: scf.yield %[[SCAT]] : i1
// SPLIT: } else {
// SPLIT: scf.yield %false : i1
// SPLIT: }
// SPLIT: %[[R:.*]] = scf.if %[[USE]] -> (f64) {
// SPLIT: %[[PF:.*]] = func.call @row_sum__prefetch(%[[CRD]], %[[VAL]], %[[X]], %[[LB]], %[[UB]], %[[INIT]])
// SPLIT: scf.yield %[[PF]] : f64
// SPLIT: } else {
// SPLIT: %[[V:.*]] = func.call @row_sum__vector(%[[CRD]], %[[VAL]], %[[X]], %[[LB]], %[[UB]], %[[INIT]])
// SPLIT: scf.yield %[[V]] : f64
// SPLIT: }
// SPLIT: return %[[R]] : f64
// SPLIT-NOT: @row_sum__gathers
// The prefetching copy: the index of the entry 128 ahead (at most the
// last), x's element there prefetched before the gathered load.
// SPLIT-LABEL: func.func private @row_sum__prefetch(
// SPLIT-SAME: %[[PCRD:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xf64>, %[[PX:[^:]*]]: memref<?xf64>
// SPLIT-SAME: attributes {dist.reassociate} {
// SPLIT: scf.for %[[IV:[^ ]*]] =
// SPLIT: %[[LEN:.*]] = memref.dim %[[PCRD]], %{{.*}} : memref<?xi32>
// SPLIT: %[[C128:.*]] = arith.constant 128 : index
// SPLIT: %[[AHEAD:.*]] = arith.addi %[[IV]], %[[C128]] : index
// SPLIT: %[[LAST:.*]] = arith.subi %[[LEN]], %{{.*}} : index
// SPLIT: %[[Q:.*]] = arith.minui %[[AHEAD]], %[[LAST]] : index
// SPLIT: %[[JQ:.*]] = memref.load %[[PCRD]][%[[Q]]] : memref<?xi32>
// SPLIT: %[[EQ:.*]] = arith.extui %[[JQ]] : i32 to i64
// SPLIT: %[[IQ:.*]] = arith.index_cast %[[EQ]] : i64 to index
// SPLIT: memref.prefetch %[[PX]][%[[IQ]]], read, locality<1>, data : memref<?xf64>
// SPLIT: memref.load %[[PX]][%{{.*}}] : memref<?xf64>
// SPLIT: } {keep = "me"}
// SPLIT-LABEL: func.func private @row_sum__vector(
// SPLIT-SAME: attributes {dist.reassociate, target_features = #llvm.target_features<["+prefer-no-gather"]>} {
// SPLIT: vector.from_elements {{.*}} : vector<4xf64>
// SPLIT: vector.reduction <add>

// Without prefetching, the original loops as they were.
// NOPF-LABEL: func.func private @row_sum(
// NOPF: arith.constant 66
// NOPF: func.call @row_sum__gathers
// NOPF: func.call @row_sum__vector
// NOPF-LABEL: func.func private @row_sum__gathers(
// NOPF-SAME: attributes {dist.reassociate} {
// NOPF-NOT: {{vector[<.]|prefetch}}
// NOPF: } {keep = "me"}
// NOPF-NOT: __prefetch

// ABOVE-LABEL: func.func private @row_sum(
// ABOVE: arith.constant 4096 : index
// ABOVE-LABEL: func.func private @row_sum_f32(
// ABOVE: %[[C4:.*]] = arith.constant 4 : index
// ABOVE: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// ABOVE: arith.muli %[[C4]], %[[N]] : index
// ABOVE: arith.constant 4096 : index
// ABOVE: arith.constant 16 : i64
// ABOVE: func.call @row_sum_f32__prefetch
// ABOVE: func.call @row_sum_f32__vector
func.func private @row_sum(%crd: memref<?xi32>, %val: memref<?xf64>,
                           %x: memref<?xf64>, %lb: index, %ub: index,
                           %init: f64) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c1 = arith.constant 1 : index
  %s = scf.for %p = %lb to %ub step %c1 iter_args(%acc = %init) -> (f64) {
    %c = memref.load %crd[%p] : memref<?xi32>
    %e = arith.extui %c : i32 to i64
    %j = arith.index_cast %e : i64 to index
    %v = memref.load %val[%p] : memref<?xf64>
    %xv = memref.load %x[%j] : memref<?xf64>
    %t = arith.mulf %v, %xv fastmath<reassoc,contract> : f64
    %a = arith.addf %acc, %t fastmath<reassoc,contract> : f64
    scf.yield %a : f64
  } {keep = "me"}
  return %s : f64
}

// f32 sums and the accumulator on the right-hand side of the add.
// CHECK-LABEL: func.func private @row_sum_f32
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<4xf32> into f32
func.func private @row_sum_f32(%crd: memref<?xindex>, %val: memref<?xf32>,
                               %x: memref<?xf32>, %lb: index, %ub: index)
    -> f32 attributes {dist.reassociate, dist.vectorize_gathers} {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %p = %lb to %ub step %c1 iter_args(%acc = %z) -> (f32) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %v = memref.load %val[%p] : memref<?xf32>
    %xv = memref.load %x[%j] : memref<?xf32>
    %t = arith.mulf %v, %xv : f32
    %a = arith.addf %t, %acc : f32
    scf.yield %a : f32
  }
  return %s : f32
}

// The gathered memref a view of an argument: the call chooses by the
// argument's bytes (two dimensions: their product). From a buffer of the
// leaf's own: the vector sums only.
// SPLIT-LABEL: func.func private @through_view(
// SPLIT-SAME: %{{[^:]*}}: memref<?xindex>, %[[X2:[^:]*]]: memref<?x?xf64>
// SPLIT: memref.dim %[[X2]], %{{.*}} : memref<?x?xf64>
// SPLIT: memref.dim %[[X2]], %{{.*}} : memref<?x?xf64>
// SPLIT: func.call @through_view__prefetch
// SPLIT: func.call @through_view__vector
func.func private @through_view(%crd: memref<?xindex>, %x: memref<?x?xf64>,
                                %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %col = memref.subview %x[0, 0] [%n, 1] [1, 1]
      : memref<?x?xf64> to memref<?xf64, strided<[?]>>
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %col[%j] : memref<?xf64, strided<[?]>>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// SPLIT-LABEL: func.func private @own_buffer(
// SPLIT-SAME: target_features = #llvm.target_features<["+prefer-no-gather"]>
// SPLIT: vector.reduction <add>
// SPLIT-NOT: __gathers
// SPLIT: return
func.func private @own_buffer(%crd: memref<?xindex>, %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %x = memref.alloca(%n) : memref<?xf64>
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// Left alone: a contiguous sum (no load through a loaded index: the
// backend's own vectorizer does better there), a loop that stores, a loop
// whose accumulator is used twice, a step other than 1, a function without
// the marks, and one with dist.reassociate only (SpTTV's, SDDMM's leaves).
// CHECK-LABEL: func.func private @contiguous
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
// SPLIT-LABEL: func.func private @contiguous(
// SPLIT-NOT: target_features
// SPLIT-NOT: __gathers
// SPLIT: return
func.func private @contiguous(%a: memref<?xf64>, %b: memref<?xf64>,
                              %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %u = memref.load %a[%k] : memref<?xf64>
    %w = memref.load %b[%k] : memref<?xf64>
    %t = arith.mulf %u, %w : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// CHECK-LABEL: func.func private @stores
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
func.func private @stores(%crd: memref<?xindex>, %x: memref<?xf64>,
                          %out: memref<?xf64>, %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    memref.store %xv, %out[%p] : memref<?xf64>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// CHECK-LABEL: func.func private @acc_twice
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
func.func private @acc_twice(%crd: memref<?xindex>, %x: memref<?xf64>,
                             %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    %t = arith.mulf %xv, %acc : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// CHECK-LABEL: func.func private @step2
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
func.func private @step2(%crd: memref<?xindex>, %x: memref<?xf64>,
                         %n: index) -> f64
    attributes {dist.reassociate, dist.vectorize_gathers} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %p = %c0 to %n step %c2 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// CHECK-LABEL: func.func private @unmarked
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
func.func private @unmarked(%crd: memref<?xindex>, %x: memref<?xf64>,
                            %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// CHECK-LABEL: func.func private @reassociate_only
// CHECK-NOT: {{vector[<.]}}
// CHECK: return
func.func private @reassociate_only(%crd: memref<?xindex>, %x: memref<?xf64>,
                                    %n: index) -> f64
    attributes {dist.reassociate} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {
    %j = memref.load %crd[%p] : memref<?xindex>
    %xv = memref.load %x[%j] : memref<?xf64>
    %r = arith.addf %acc, %xv : f64
    scf.yield %r : f64
  }
  return %s : f64
}
