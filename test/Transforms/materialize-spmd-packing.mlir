// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s
// Packing: a box that is one contiguous block of the rank's tile (the whole
// tile, or whole rows of it) is used in place, through a view at its offset.
// dist.tile_view decides at run time; the copy into the buffer (inputs)
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
// CHECK: %[[OVIEW:.*]], %[[OIS:.*]] = dist.tile_view %[[A]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<8x8xf64, {{.*}}> : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[OBUF:.*]] = memref.cast %{{.*}} : memref<16xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[OBOX:.*]] = arith.select %[[OIS]], %[[OVIEW]], %[[OBUF]] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[ONOT:.*]] = arith.xori %[[OIS]], %true
// CHECK: scf.if %[[ONOT]] {
// CHECK-NOT: }
// CHECK: scf.for
// CHECK: memref.store
// CHECK: %[[BVIEW:.*]], %[[BIS:.*]] = dist.tile_view %[[B]][%{{.*}}, %{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}, %{{.*}}] as !dist.tensor<8x8x8xf64, {{.*}}>
// CHECK: %[[BBUF:.*]] = memref.cast %[[BB:.*]] : memref<{{.*}}xf64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: arith.select %[[BIS]], %[[BVIEW]], %[[BBUF]] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.if
// CHECK-NOT: }
// CHECK: dist.copy_box %[[B]][%{{.*}}, %{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}, %{{.*}}] into %[[BB]]
// CHECK: dist.tile_view %[[C]][%{{.*}}] [%{{.*}}] as !dist.tensor<8xf64
// The leaf's views start at the boxes' offsets in their tiles.
// CHECK: memref.extract_strided_metadata
// CHECK: linalg.generic
// CHECK: %[[ONOT2:.*]] = arith.xori %[[OIS]], %{{.*}}
// CHECK-NEXT: scf.if %[[ONOT2]] {
// CHECK: dist.add_box %[[OBOX]] into %[[A]]
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo)]
      : !A, !B, !c
  return
}
