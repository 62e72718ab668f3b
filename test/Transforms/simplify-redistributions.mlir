// RUN: dist-opt %s --dist-simplify-redistributions -split-input-file | FileCheck %s

dist.grid @p [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),(1)]">>
!B = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0,1),()]">>
!C = !dist.tensor<8x8xf64, #dist.layout<@p, "[(),(1,0)]">>

// A redistribution to the same layout disappears: the reader of %b reads %a.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !dist.tensor
// CHECK-NOT: dist.alloc
// CHECK-NOT: dist.redistribute
// CHECK: dist.redistribute %[[A]] into %{{.*}} : {{.*}}[(0), (1)]{{.*}} into {{.*}}[(0, 1), ()]
// CHECK-NEXT: return
func.func @identity(%a: !A, %out: !B) {
  %b = dist.alloc : !A
  dist.redistribute %a into %b : !A into !A
  dist.redistribute %b into %out : !A into !B
  return
}

// Not when the destination is written afterwards (it would write %a) ...
// CHECK-LABEL: func.func @identity_written
// CHECK: %[[B:.*]] = dist.alloc
// CHECK: dist.redistribute %{{.*}} into %[[B]]
// CHECK: dist.fill %[[B]]
func.func @identity_written(%a: !A) {
  %b = dist.alloc : !A
  dist.redistribute %a into %b : !A into !A
  dist.fill %b seed 1 : !A
  return
}

// ... nor when the source is written while the destination is still read.
// CHECK-LABEL: func.func @identity_source_written
// CHECK: %[[B:.*]] = dist.alloc
// CHECK: dist.redistribute %{{.*}} into %[[B]]
func.func @identity_source_written(%a: !A, %out: !B) {
  %b = dist.alloc : !A
  dist.redistribute %a into %b : !A into !A
  dist.fill %a seed 1 : !A
  dist.redistribute %b into %out : !A into !B
  return
}

// ... nor when the destination is the caller's tensor.
// CHECK-LABEL: func.func @identity_argument
// CHECK: dist.redistribute
func.func @identity_argument(%a: !A, %b: !A) {
  dist.redistribute %a into %b : !A into !A
  return
}

// Consecutive redistributions compose when the middle tensor has no other
// use.
// CHECK-LABEL: func.func @compose
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !dist.tensor{{.*}}, %[[C:[a-z0-9_]+]]: !dist.tensor
// CHECK-NOT: dist.alloc
// CHECK: dist.redistribute %[[A]] into %[[C]] : {{.*}}[(0), (1)]{{.*}} into {{.*}}[(), (1, 0)]
// CHECK-NEXT: return
func.func @compose(%a: !A, %c: !C) {
  %m = dist.alloc : !B
  dist.redistribute %a into %m : !A into !B
  dist.redistribute %m into %c : !B into !C
  return
}

// A chain of three composes into one; composing back to the source's
// layout into a local tensor then folds away too.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !dist.tensor{{.*}}, %[[OUT:[a-z0-9_]+]]: !dist.tensor
// CHECK-NEXT: dist.redistribute %[[A]] into %[[OUT]] : {{.*}}[(0), (1)]{{.*}} into {{.*}}[(), (1, 0)]
// CHECK-NEXT: return
func.func @chain(%a: !A, %out: !C) {
  %m1 = dist.alloc : !B
  dist.redistribute %a into %m1 : !A into !B
  %m2 = dist.alloc : !C
  dist.redistribute %m1 into %m2 : !B into !C
  %m3 = dist.alloc : !A
  dist.redistribute %m2 into %m3 : !C into !A
  dist.redistribute %m3 into %out : !A into !C
  return
}

// Not when the middle tensor is also read elsewhere ...
// CHECK-LABEL: func.func @compose_other_use
// CHECK: dist.redistribute %{{.*}} into %[[M:.*]] :
// CHECK: dist.redistribute %[[M]] into
// CHECK: dist.redistribute %[[M]] into
func.func @compose_other_use(%a: !A, %c: !C, %d: !A) {
  %m = dist.alloc : !B
  dist.redistribute %a into %m : !A into !B
  dist.redistribute %m into %c : !B into !C
  dist.redistribute %m into %d : !B into !A
  return
}

// ... nor when the source changes in between.
// CHECK-LABEL: func.func @compose_source_written
// CHECK: dist.alloc
// CHECK: dist.redistribute
// CHECK: dist.fill
// CHECK: dist.redistribute
func.func @compose_source_written(%a: !A, %c: !C) {
  %m = dist.alloc : !B
  dist.redistribute %a into %m : !A into !B
  dist.fill %a seed 2 : !A
  dist.redistribute %m into %c : !B into !C
  return
}

// A sum followed by a copy is one sum (here: reduce-scatter then allgather
// of the partial sums becomes an allreduce into [(0),(1)]).
!P = !dist.tensor<8x8x4xf64, #dist.layout<@p, "[(0),(),(1)]">>
!RS = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),(1)]">>
!AR = !dist.tensor<8x8xf64, #dist.layout<@p, "[(0),()]">>
// CHECK-LABEL: func.func @compose_sum
// CHECK-SAME: (%[[P:[a-z0-9_]+]]: !dist.tensor{{.*}}, %[[OUT:[a-z0-9_]+]]: !dist.tensor
// CHECK-NEXT: dist.redistribute %[[P]] into %[[OUT]] sum [2] :
// CHECK-NEXT: return
func.func @compose_sum(%p: !P, %out: !AR) {
  %m = dist.alloc : !RS
  dist.redistribute %p into %m sum [2] : !P into !RS
  dist.redistribute %m into %out : !RS into !AR
  return
}

// A sum into the same-shaped layout is never folded away.
// CHECK-LABEL: func.func @sum_kept
// CHECK: dist.redistribute %{{.*}} into %{{.*}} sum [2]
func.func @sum_kept(%p: !P, %out: !RS) {
  %m = dist.alloc : !RS
  dist.redistribute %p into %m sum [2] : !P into !RS
  dist.redistribute %m into %out : !RS into !RS
  return
}

// -----

dist.grid @g [2, 4]

// Reduce-scatter then allgather over the same axes: one allreduce.
// (The unused buffer is left to the canonicalizer.)
// CHECK-LABEL: func.func @rs_ag
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<64xf64>, %[[OUT:[a-z0-9_]+]]: memref<64xf64>)
// CHECK-NOT: dist.reduce_scatter
// CHECK: memref.copy %[[IN]], %[[OUT]]
// CHECK-NEXT: dist.allreduce %[[OUT]] on @g axes [1] sum : memref<64xf64>
// CHECK-NOT: dist.allgather
// CHECK: return
func.func @rs_ag(%in: memref<64xf64>, %out: memref<64xf64>) {
  %mid = memref.alloc() : memref<16xf64>
  dist.reduce_scatter %in into %mid on @g axes [1] sum : memref<64xf64> into memref<16xf64>
  dist.allgather %mid into %out on @g axes [1] : memref<16xf64> into memref<64xf64>
  memref.dealloc %mid : memref<16xf64>
  return
}

// Different axes: unchanged.
// CHECK-LABEL: func.func @rs_ag_axes
// CHECK: dist.reduce_scatter
// CHECK: dist.allgather
func.func @rs_ag_axes(%in: memref<16xf64>, %out: memref<16xf64>) {
  %mid = memref.alloc() : memref<8xf64>
  dist.reduce_scatter %in into %mid on @g axes [0] sum : memref<16xf64> into memref<8xf64>
  dist.allgather %mid into %out on @g axes [0, 1] : memref<8xf64> into memref<16xf64>
  return
}

// The scattered piece is read elsewhere: unchanged.
// CHECK-LABEL: func.func @rs_ag_used
// CHECK: dist.reduce_scatter
// CHECK: dist.allgather
func.func @rs_ag_used(%in: memref<64xf64>, %out: memref<64xf64>, %x: memref<16xf64>) {
  %mid = memref.alloc() : memref<16xf64>
  dist.reduce_scatter %in into %mid on @g axes [1] sum : memref<64xf64> into memref<16xf64>
  dist.allgather %mid into %out on @g axes [1] : memref<16xf64> into memref<64xf64>
  memref.copy %mid, %x : memref<16xf64> to memref<16xf64>
  return
}

// An op with effects in between: unchanged.
// CHECK-LABEL: func.func @rs_ag_between
// CHECK: dist.reduce_scatter
// CHECK: memref.store
// CHECK: dist.allgather
func.func @rs_ag_between(%in: memref<64xf64>, %out: memref<64xf64>) {
  %mid = memref.alloc() : memref<16xf64>
  dist.reduce_scatter %in into %mid on @g axes [1] sum : memref<64xf64> into memref<16xf64>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  memref.store %z, %in[%c0] : memref<64xf64>
  dist.allgather %mid into %out on @g axes [1] : memref<16xf64> into memref<64xf64>
  return
}
