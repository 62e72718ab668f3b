// RUN: dist-opt %s --dist-insert-redistributions -split-input-file 2>/dev/null | FileCheck %s
// RUN: dist-opt %s --dist-insert-redistributions -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Tensors whose layout does not match the schedule's distribute (here:
// elemental-cyclic against blocked tiles) would move with the general
// exchange; the pass redistributes them to the layout the schedule
// implies, and back for the output.

dist.grid @m [2, 2]
!Blk = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>

// REMARK: remark: inserted a redistribution of 'C' to #dist.layout<@m, [(0) blocked, (1) blocked]>: its schedule needs it there (it moved with the general exchange; now {{.*}}: local, once
// CHECK-LABEL: func.func @input
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: {{.*}}, %[[B:[a-z0-9_]+]]: {{.*}}, %[[C:[a-z0-9_]+]]: {{.*}})
// CHECK: %[[C2:.*]] = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>>
// CHECK: dist.redistribute %[[C]] into %[[C2]]
// CHECK: dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %[[A]], B = %[[B]], C = %[[C2]])
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @input(%a: !Blk, %b: !Blk, %c: !Cyc) {
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !Blk, !Blk, !Cyc
  return
}

// -----

dist.grid @m [2, 2]
!Blk = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>

// The output: redistributed in before and back after.
// REMARK: remark: inserted a redistribution of 'A' to #dist.layout<@m, [(0) blocked, (1) blocked]> (and back after the computation): its schedule needs it there (it moved with the general exchange; now {{.*}}: local, once
// CHECK-LABEL: func.func @output
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: {{.*}}, %[[B:[a-z0-9_]+]]: {{.*}})
// CHECK: %[[A2:.*]] = dist.alloc
// CHECK: dist.redistribute %[[A]] into %[[A2]]
// CHECK: dist.compute "A(i,j) = B(i,j) * 2" (A = %[[A2]], B = %[[B]])
// CHECK: dist.redistribute %[[A2]] into %[[A]]
// CHECK: return
func.func @output(%a: !Cyc, %b: !Blk) {
  dist.compute "A(i,j) = B(i,j) * 2" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !Cyc, !Blk
  return
}

// -----

dist.grid @m [2, 2]
!Blk = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// Already matching: nothing inserted.
// REMARK-NOT: remark
// CHECK-LABEL: func.func @matching
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @matching(%a: !Blk, %b: !Blk) {
  dist.compute "A(i,j) = B(i,j) * 2" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !Blk, !Blk
  return
}

// -----

dist.grid @m [2, 2]
!Blk = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>

// SUMMA's B(i,k) stored cyclic: the layout the schedule implies keeps k
// whole, i.e. replicates B over the grid's second dimension (32 of the 64
// elements per process instead of 16). The pass never takes more memory per
// process than the tensor's own tiles: nothing is inserted for B, which
// keeps the general exchange.
// REMARK-NOT: remark: inserted a redistribution of 'B'
// CHECK-LABEL: func.func @replicating
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @replicating(%a: !Blk, %b: !Cyc, %c: !Blk) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, C}, jo)]
      : !Blk, !Cyc, !Blk
  return
}
