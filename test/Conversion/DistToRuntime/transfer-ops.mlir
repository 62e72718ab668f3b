// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file | FileCheck %s
// The SPMD ops of transfers, boxes and tile views become distrt calls: the
// grid handle, the tensor's layout descriptor, the tile's pointer and
// dtype code, a box as two i64 arrays on the stack, buffers as pointer and
// element count; a !dist.request becomes the runtime's i64 request id.

dist.grid @m [2, 3]

// CHECK-LABEL: func @grid
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[AXIS:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[C:.*]] = llvm.call @distrt_grid_coord(%[[G]], %[[AXIS]]) : (!llvm.ptr, i64) -> i64
// CHECK: %[[CI:.*]] = arith.index_cast %[[C]] : i64 to index
// CHECK: %[[G2:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: %[[R:.*]] = llvm.call @distrt_axes_rank(%[[G2]], %[[MASK]]) : (!llvm.ptr, i64) -> i64
// CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK: return %[[CI]], %[[RI]]
func.func @grid() -> (index, index) {
  %c = dist.grid_coord on @m axis 1 : index
  %r = dist.axes_rank on @m axes [0, 1] : index
  return %c, %r : index, index
}

// -----

dist.grid @m [2, 3]
!T = !dist.tensor<8x9xf32, #dist.layout<@m, "xy -> xy">>

// The descriptor: [ndims, per dimension: n, kind, block, naxes, axes...,
// nfixed]; f32 is dtype 0.
// CHECK: llvm.mlir.global internal constant @[[DESC:.*]](dense<[2, 8, 1, 0, 1, 0, 9, 1, 0, 1, 1, 0]> : tensor<12xi64>)
// CHECK-LABEL: func @zero
// CHECK-SAME: (%[[TILE:.*]]: memref<?xf32>)
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[D:.*]] = llvm.mlir.addressof @[[DESC]]
// CHECK: %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK: %[[AI:.*]] = arith.index_cast %[[AP]]
// CHECK: %[[P:.*]] = llvm.inttoptr %[[AI]]
// CHECK: %[[F32:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @distrt_layout_zero(%[[G]], %[[D]], %[[P]], %[[F32]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
func.func @zero(%tile: memref<?xf32>) {
  dist.zero_tile %tile as !T : memref<?xf32>
  return
}

// A box's bounds go on the stack for the one call that reads them.
// CHECK-LABEL: func @copy
// CHECK-SAME: (%[[TILE:.*]]: memref<?xf32>, %[[BUF:.*]]: memref<16xf32>, %[[I:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[D:.*]] = llvm.mlir.addressof
// CHECK: %[[TP:.*]] = llvm.inttoptr
// CHECK: %[[DT:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[SP:.*]] = llvm.intr.stacksave
// CHECK: %[[LO:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: llvm.store %[[I64]]
// CHECK: %[[SZ:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: llvm.store %[[N64]]
// CHECK: memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[BP:.*]] = llvm.inttoptr
// CHECK: llvm.call @distrt_copy_box_local(%[[G]], %[[D]], %[[TP]], %[[DT]], %[[LO]], %[[SZ]], %[[BP]])
// CHECK: llvm.intr.stackrestore %[[SP]]
func.func @copy(%tile: memref<?xf32>, %buf: memref<16xf32>, %i: index,
                %n: index) {
  dist.copy_box %tile[%i, %i] [%n, %n] into %buf as !T
      : memref<?xf32>, memref<16xf32>
  return
}

// CHECK-LABEL: func @others
// CHECK: llvm.call @distrt_add_box_local(
// CHECK: llvm.call @distrt_fetch_box(
// CHECK: llvm.call @distrt_accumulate_box(
// CHECK-NOT: dist.
func.func @others(%tile: memref<?xf32>, %buf: memref<16xf32>, %i: index) {
  dist.add_box %buf into %tile[%i, %i] [%i, %i] as !T
      : memref<16xf32>, memref<?xf32>
  dist.fetch_box %tile[%i, %i] [%i, %i] into %buf as !T
      : memref<?xf32>, memref<16xf32>
  dist.accumulate_box %buf into %tile[%i, %i] [%i, %i] as !T
      : memref<16xf32>, memref<?xf32>
  return
}

// A box in a strided view of a tile: its pointer includes the view's offset.
// CHECK-LABEL: func @strided
// CHECK: memref.extract_strided_metadata
// CHECK: %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[PTR:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.call @distrt_add_box_local(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PTR]])
func.func @strided(%tile: memref<?xf32>,
                   %view: memref<?xf32, strided<[1], offset: ?>>, %i: index) {
  dist.add_box %view into %tile[%i, %i] [%i, %i] as !T
      : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>
  return
}

// The view of a box inside the tile: its offset from distrt_box_in_tile
// (0 when it is not inside), its size the box's element count.
// CHECK-LABEL: func @view
// CHECK-SAME: (%[[TILE:.*]]: memref<?xf32>, %[[I:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[AT:.*]] = llvm.call @distrt_box_in_tile(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: llvm.intr.stackrestore
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[IN:.*]] = arith.cmpi sge, %[[AT]], %[[ZERO]] : i64
// CHECK: %[[SEL:.*]] = arith.select %[[IN]], %[[AT]], %[[ZERO]] : i64
// CHECK: %[[OFF:.*]] = arith.index_cast %[[SEL]] : i64 to index
// CHECK: %[[V1:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK: %[[VOL:.*]] = arith.muli %[[V1]], %[[N]] : index
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[TILE]] to offset: [%[[OFF]]], sizes: [%[[VOL]]], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: return %[[VIEW]], %[[IN]]
func.func @view(%tile: memref<?xf32>, %i: index, %n: index)
    -> (memref<?xf32, strided<[1], offset: ?>>, i1) {
  %view, %inside = dist.tile_view %tile[%i, %i] [%n, %n] as !T
      : memref<?xf32> -> memref<?xf32, strided<[1], offset: ?>>
  return %view, %inside : memref<?xf32, strided<[1], offset: ?>>, i1
}

// -----

dist.grid @m [2]
!S = !dist.tensor<f64, #dist.layout<@m, " -> *">>

// An order-0 tensor's box is the point [0] of size [1].
// CHECK-LABEL: func @scalar
// CHECK: %[[SP:.*]] = llvm.intr.stacksave
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[LO:.*]] = llvm.alloca
// CHECK: llvm.store %[[ZERO]]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[SZ:.*]] = llvm.alloca
// CHECK: llvm.store %[[ONE]]
// CHECK: llvm.call @distrt_copy_box_local(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LO]], %[[SZ]], %{{.*}})
func.func @scalar(%tile: memref<?xf64>, %buf: memref<1xf64>) {
  dist.copy_box %tile[] [] into %buf as !S : memref<?xf64>, memref<1xf64>
  return
}

// -----

dist.grid @m [2, 3]

// CHECK-LABEL: func @check
// CHECK: %[[W:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: llvm.call @distrt_check_distinct(%{{.*}}, %{{.*}}, %[[W]], %[[NAME]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
func.func @check(%a: memref<?xf64>, %b: memref<?xf64>) {
  dist.check_distinct %a, %b named "B" in "A(i) = B(i)"
      : memref<?xf64>, memref<?xf64>
  return
}

// Permutations: partners as i64 ranks (-1: none), counts from the buffers.
// CHECK-LABEL: func @permute
// CHECK-SAME: (%[[S:.*]]: memref<?xf64>, %[[R:.*]]: memref<8xf64>, %[[DST:.*]]: index, %[[SRC:.*]]: index)
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[SP:.*]] = llvm.inttoptr
// CHECK: %[[SDIM:.*]] = memref.dim %[[S]]
// CHECK: %[[SD64:.*]] = arith.index_cast %[[SDIM]]
// CHECK: %[[SN:.*]] = llvm.mul %{{.*}}, %[[SD64]]
// CHECK: %[[RP:.*]] = llvm.inttoptr
// CHECK: %[[RN:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[D64:.*]] = arith.index_cast %[[DST]] : index to i64
// CHECK: %[[S64:.*]] = arith.index_cast %[[SRC]] : index to i64
// CHECK: %[[F64:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @distrt_permute(%[[G]], %[[SP]], %[[SN]], %[[D64]], %[[RP]], %[[RN]], %[[S64]], %[[F64]])
// CHECK: %[[REQ:.*]] = llvm.call @distrt_ipermute(
// CHECK-SAME: -> i64
func.func @permute(%s: memref<?xf64>, %r: memref<8xf64>, %dst: index,
                   %src: index) {
  dist.permute %s to %dst, %r from %src on @m : memref<?xf64>, memref<8xf64>
  %q = dist.start_permute %s to %dst, %r from %src on @m
      : memref<?xf64>, memref<8xf64>
  dist.wait %q
  return
}

// Non-blocking collectives return request ids; dist.wait waits unless the
// id is 0 (the null request).
// CHECK-LABEL: func @async
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[N:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[I32:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[ROOT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[B:.*]] = llvm.call @distrt_ibcast(%[[G]], %[[MASK]], %{{.*}}, %[[N]], %[[I32]], %[[ROOT]]) : (!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> i64
// CHECK: %[[AXIS:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK: %[[S:.*]] = llvm.call @distrt_ishift(%{{.*}}, %[[AXIS]], %[[OFF]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64) -> i64
// CHECK: %[[PIECE:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[M1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[A:.*]] = llvm.call @distrt_iallgather(%{{.*}}, %[[M1]], %{{.*}}, %{{.*}}, %[[PIECE]], %{{.*}}) : (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, i64) -> i64
// CHECK: %[[NONE:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[PB:.*]] = arith.cmpi ne, %[[B]], %[[Z]] : i64
// CHECK: scf.if %[[PB]] {
// CHECK-NEXT: llvm.call @distrt_wait(%[[B]]) : (i64) -> ()
// CHECK: arith.cmpi ne, %[[S]]
// CHECK: llvm.call @distrt_wait(%[[S]])
// CHECK: arith.cmpi ne, %[[A]]
// CHECK: llvm.call @distrt_wait(%[[A]])
// CHECK: arith.cmpi ne, %[[NONE]]
// CHECK: llvm.call @distrt_wait(%[[NONE]])
// CHECK-NOT: dist.
func.func @async(%a: memref<4xi32>, %b: memref<4xi32>, %big: memref<8xi32>,
                 %r: index) {
  %0 = dist.start_broadcast %a on @m axes [1] root %r : memref<4xi32>
  %1 = dist.start_shift %a into %b on @m axis 0 offset -1
      : memref<4xi32> into memref<4xi32>
  %2 = dist.start_allgather %a into %big on @m axes [0]
      : memref<4xi32> into memref<8xi32>
  %3 = dist.null_request
  dist.wait %0
  dist.wait %1
  dist.wait %2
  dist.wait %3
  return
}

// Requests carried by loops and branches become i64 iteration arguments
// and results.
// CHECK-LABEL: func @carried
// CHECK: %[[FIRST:.*]] = llvm.call @distrt_ibcast
// CHECK: scf.for %{{.*}} iter_args(%[[REQ:.*]] = %[[FIRST]]) -> (i64) {
// CHECK: arith.cmpi ne, %[[REQ]]
// CHECK: llvm.call @distrt_wait(%[[REQ]])
// CHECK: %[[NEXT:.*]] = scf.if %{{.*}} -> (i64) {
// CHECK: %[[S:.*]] = llvm.call @distrt_ibcast
// CHECK: scf.yield %[[S]] : i64
// CHECK: } else {
// CHECK: %[[NONE:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: scf.yield %[[NONE]] : i64
// CHECK: scf.yield %[[NEXT]] : i64
// CHECK-NOT: dist.
// CHECK-NOT: unrealized_conversion_cast
func.func @carried(%a: memref<?xf64>, %r: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = dist.start_broadcast %a on @m axes [0] root %r : memref<?xf64>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%req = %first)
      -> (!dist.request) {
    dist.wait %req
    %more = arith.cmpi slt, %i, %n : index
    %next = scf.if %more -> (!dist.request) {
      %s = dist.start_broadcast %a on @m axes [0] root %r : memref<?xf64>
      scf.yield %s : !dist.request
    } else {
      %none = dist.null_request
      scf.yield %none : !dist.request
    }
    scf.yield %next : !dist.request
  }
  dist.wait %last
  return
}
