// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s
// Packing: a box that is one contiguous block of the rank's tile (the whole
// tile, or whole rows of it) is used in place, through a view at its offset.
// distrt_box_in_tile decides at run time; the copy into the buffer (inputs)
// and the zeroing of the buffer and the add back into the tile (a local
// output) run only when it is not.

dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<8xf64, #dist.layout<@m, "z -> **">>

// TTV communicated at the distributed loop: B's box is B's tile, A's box
// A's tile, c is replicated (its box, all of c, is its tile too).
// CHECK-LABEL: func.func @ttv
// CHECK-SAME: (%[[A:[^:]*]]: memref<?xf64>, %[[B:[^:]*]]: memref<?xf64>, %[[C:[^:]*]]: memref<?xf64>)
// CHECK: %[[OT:.*]] = call @distrt_box_in_tile
// CHECK: %[[OIS:.*]] = arith.cmpi sge, %[[OT]]
// CHECK: %[[OOFF:.*]] = arith.select %[[OIS]], %[[OT]]
// CHECK: %[[OIDX:.*]] = arith.index_cast %[[OOFF]]
// CHECK: %[[OVIEW:.*]] = memref.reinterpret_cast %[[A]] to offset: [%[[OIDX]]], sizes: [%{{.*}}], strides: [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[OBUF:.*]] = memref.cast %{{.*}} : memref<16xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[OBOX:.*]] = arith.select %[[OIS]], %[[OVIEW]], %[[OBUF]] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[ONOT:.*]] = arith.xori %[[OIS]], %true
// CHECK: scf.if %[[ONOT]] {
// CHECK-NOT: }
// CHECK: scf.for
// CHECK: memref.store
// CHECK: %[[BT:.*]] = call @distrt_box_in_tile
// CHECK: %[[BIS:.*]] = arith.cmpi sge, %[[BT]]
// CHECK: memref.reinterpret_cast %[[B]]
// CHECK: arith.select %[[BIS]], %{{.*}}, %{{.*}} : memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.if
// CHECK-NOT: }
// CHECK: func.call @distrt_copy_box_local
// CHECK: call @distrt_box_in_tile
// CHECK: memref.reinterpret_cast %[[C]]
// The leaf's views start at the boxes' offsets in their tiles.
// CHECK: memref.extract_strided_metadata
// CHECK: linalg.generic
// CHECK: %[[ONOT2:.*]] = arith.xori %[[OIS]], %{{.*}}
// CHECK-NEXT: scf.if %[[ONOT2]] {
// CHECK: func.call @distrt_add_box_local
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo)]
      : !A, !B, !c
  return
}
