// RUN: dist-opt %s --dist-double-buffer -split-input-file -verify-diagnostics | FileCheck %s
// RUN: dist-opt %s --dist-double-buffer=overlap=false -split-input-file | FileCheck %s --check-prefix=OFF
// dist-double-buffer on hand-written SPMD IR: in a time loop (tagged
// dist.time_loop), a blocking transfer into a buffer allocated outside the
// loop becomes a non-blocking one started a step ahead into a second
// buffer; the loop carries the request and the two buffers.

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// A broadcast whose root copies its box into the buffer first.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[TILE:.*]]: memref<?xf64>, %[[OUT:.*]]: memref<4xf64>)
// CHECK: %[[B0:.*]] = memref.alloc() : memref<16xf64>
// CHECK: %[[B1:.*]] = memref.alloc() : memref<16xf64>
// CHECK: dist.check_alloc %[[B0]], "the communication buffer of tensor B"
// CHECK: dist.check_alloc %[[B1]], "the second communication buffer of tensor B"
// Step 0, before the loop: the root is 0 % 2.
// CHECK: %[[ME0:.*]] = dist.axes_rank on @m axes [1]
// CHECK: scf.if
// CHECK: dist.copy_box %[[TILE]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %[[B0]]
// CHECK: %[[V0:.*]] = memref.reinterpret_cast %[[B0]]
// CHECK: %[[R0:.*]] = dist.start_broadcast %[[V0]] on @m axes [1] root
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[REQ:.*]] = %[[R0]], %[[CUR:.*]] = %[[B0]], %[[NEXT:.*]] = %[[B1]]) -> (!dist.request, memref<16xf64>, memref<16xf64>) {
// CHECK: dist.wait %[[REQ]]
// CHECK: %[[K1:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[K1]], %{{.*}} : index
// CHECK: %[[RN:.*]] = scf.if %[[HAS]] -> (!dist.request) {
// CHECK: arith.remui %[[K1]]
// CHECK: dist.copy_box %[[TILE]][%[[K1]], %{{.*}}] [%{{.*}}, %{{.*}}] into %[[NEXT]]
// CHECK: %[[VN:.*]] = memref.reinterpret_cast %[[NEXT]]
// CHECK: %[[S:.*]] = dist.start_broadcast %[[VN]] on @m axes [1] root
// CHECK: scf.yield %[[S]] : !dist.request
// CHECK: } else {
// CHECK: %[[NONE:.*]] = dist.null_request
// CHECK: scf.yield %[[NONE]] : !dist.request
// CHECK: }
// CHECK-NOT: dist.broadcast
// CHECK: memref.load %[[CUR]][%[[K]]]
// CHECK: scf.yield %[[RN]], %[[NEXT]], %[[CUR]] : !dist.request, memref<16xf64>, memref<16xf64>
// CHECK: } {dist.time_loop}
// CHECK: memref.dealloc %[[B0]]
// CHECK: memref.dealloc %[[B1]]
// OFF-LABEL: func.func @broadcast
// OFF-NOT: dist.start_broadcast
// OFF: dist.broadcast
func.func @broadcast(%tile: memref<?xf64>, %out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf64>
  dist.check_alloc %buf, "the communication buffer of tensor B" : memref<16xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    %me = dist.axes_rank on @m axes [1] : index
    %root = arith.remui %k, %c2 : index
    %isRoot = arith.cmpi eq, %me, %root : index
    scf.if %isRoot {
      dist.copy_box %tile[%k, %c0] [%c4, %c4] into %buf as !T : memref<?xf64>, memref<16xf64>
    }
    %v = memref.reinterpret_cast %buf to offset: [0], sizes: [%c16], strides: [1] : memref<16xf64> to memref<?xf64>
    dist.broadcast %v on @m axes [1] root %root : memref<?xf64>
    %x = memref.load %buf[%k] : memref<16xf64>
    memref.store %x, %out[%k] : memref<4xf64>
  } {dist.time_loop}
  memref.dealloc %buf : memref<16xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// A shift: step 0's alignment (here a local copy) runs blocking before the
// loop, which starts with the null request; each step shifts the current
// buffer into the other one.
// CHECK-LABEL: func.func @shift
// CHECK: dist.copy_box %{{.*}} into %[[B0:[^ ]*]]
// CHECK: %[[N:.*]] = dist.null_request
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[N]], %[[CUR:.*]] = %[[B0]], %[[NEXT:.*]] = %{{.*}}) -> (!dist.request, memref<16xf64>, memref<16xf64>)
// CHECK: dist.wait
// CHECK: scf.if %{{.*}} -> (!dist.request) {
// CHECK-DAG: %[[TO:.*]] = memref.reinterpret_cast %[[NEXT]]
// CHECK-DAG: %[[FROM:.*]] = memref.reinterpret_cast %[[CUR]]
// CHECK: dist.start_shift %[[FROM]] into %[[TO]] on @m axis 1 offset 1 : memref<?xf64> into memref<?xf64>
// CHECK-NOT: dist.shift
// CHECK: memref.load %[[CUR]]
func.func @shift(%tile: memref<?xf64>, %out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    %first = arith.cmpi eq, %k, %c0 : index
    scf.if %first {
      dist.copy_box %tile[%c0, %c0] [%c4, %c4] into %buf as !T : memref<?xf64>, memref<16xf64>
    } else {
      %v = memref.reinterpret_cast %buf to offset: [0], sizes: [%c16], strides: [1] : memref<16xf64> to memref<?xf64>
      dist.shift %v on @m axis 1 offset 1 : memref<?xf64>
    }
    %x = memref.load %buf[%k] : memref<16xf64>
    memref.store %x, %out[%k] : memref<4xf64>
  } {dist.time_loop}
  memref.dealloc %buf : memref<16xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// An allgather from a send buffer and a permutation: the piece copied into
// the send buffer is copied again for the next step, after the wait.
// CHECK-LABEL: func.func @allgather_permute
// CHECK: dist.copy_box %{{.*}} into %[[SEND:[^ ]*]]
// CHECK: dist.start_allgather
// CHECK: dist.copy_box %{{.*}} into %[[PSEND:[^ ]*]]
// CHECK: dist.start_permute
// CHECK: scf.for
// CHECK: dist.wait
// CHECK: scf.if
// CHECK: dist.copy_box %{{.*}} into %[[SEND]]
// CHECK: dist.start_allgather
// CHECK: dist.wait
// CHECK: scf.if
// CHECK: dist.copy_box %{{.*}} into %[[PSEND]]
// CHECK: dist.start_permute
// CHECK-NOT: dist.allgather
// CHECK-NOT: dist.permute
// CHECK: } {dist.time_loop}
func.func @allgather_permute(%tile: memref<?xf64>, %out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf64>
  %send = memref.alloc() : memref<8xf64>
  %pbuf = memref.alloc() : memref<16xf64>
  %psend = memref.alloc() : memref<16xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    %me = dist.grid_coord on @m axis 0 : index
    %lo = arith.addi %k, %me : index
    dist.copy_box %tile[%lo, %c0] [%c2, %c4] into %send as !T : memref<?xf64>, memref<8xf64>
    %sv = memref.reinterpret_cast %send to offset: [0], sizes: [%c8], strides: [1] : memref<8xf64> to memref<?xf64>
    %rv = memref.reinterpret_cast %buf to offset: [0], sizes: [%c16], strides: [1] : memref<16xf64> to memref<?xf64>
    dist.allgather %sv into %rv on @m axes [0] : memref<?xf64> into memref<?xf64>
    %peer = arith.subi %c1, %me : index
    dist.copy_box %tile[%k, %c0] [%c4, %c4] into %psend as !T : memref<?xf64>, memref<16xf64>
    %psv = memref.reinterpret_cast %psend to offset: [0], sizes: [%c16], strides: [1] : memref<16xf64> to memref<?xf64>
    %prv = memref.reinterpret_cast %pbuf to offset: [0], sizes: [%c16], strides: [1] : memref<16xf64> to memref<?xf64>
    dist.permute %psv to %peer, %prv from %peer on @m : memref<?xf64>, memref<?xf64>
    %x = memref.load %buf[%k] : memref<16xf64>
    %y = memref.load %pbuf[%k] : memref<16xf64>
    %z = arith.addf %x, %y : f64
    memref.store %z, %out[%k] : memref<4xf64>
  } {dist.time_loop}
  memref.dealloc %buf : memref<16xf64>
  memref.dealloc %send : memref<8xf64>
  memref.dealloc %pbuf : memref<16xf64>
  memref.dealloc %psend : memref<16xf64>
  return
}

// -----

dist.grid @m [2, 2]

// Left alone: a loop that is not a time loop, a time loop whose schedule
// said overlap(off) (dist.overlap = false), and a loop of one step. A
// loop whose schedule said overlap(on) is transformed also under
// overlap=false.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: dist.start_broadcast
// CHECK: dist.broadcast
// CHECK: dist.broadcast
// CHECK: dist.broadcast
// CHECK-NOT: dist.broadcast
// CHECK: dist.start_broadcast
// CHECK: } {dist.overlap = true, dist.time_loop}
// OFF-LABEL: func.func @left_alone
// OFF-NOT: dist.start_broadcast
// OFF: dist.broadcast
// OFF: dist.broadcast
// OFF: dist.broadcast
// OFF-NOT: dist.broadcast
// OFF: dist.start_broadcast
// OFF: } {dist.overlap = true, dist.time_loop}
func.func @left_alone(%out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf64>
  %v = memref.cast %buf : memref<4xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    dist.broadcast %v on @m axes [0] root %c0 : memref<?xf64>
  }
  scf.for %k = %c0 to %c4 step %c1 {
    dist.broadcast %v on @m axes [0] root %c0 : memref<?xf64>
  } {dist.time_loop, dist.overlap = false}
  scf.for %k = %c0 to %c1 step %c1 {
    dist.broadcast %v on @m axes [0] root %c0 : memref<?xf64>
  } {dist.time_loop}
  %buf2 = memref.alloc() : memref<4xf64>
  %v2 = memref.cast %buf2 : memref<4xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    dist.broadcast %v2 on @m axes [0] root %c0 : memref<?xf64>
  } {dist.time_loop, dist.overlap = true}
  memref.dealloc %buf : memref<4xf64>
  memref.dealloc %buf2 : memref<4xf64>
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// Illegal: moving the copy a step ahead would read the tile before this
// step writes it; the buffer is written after the transfer; the buffer
// is read after the loop; the buffer is read before the transfer. Each
// stays blocking, with a remark.
// CHECK-LABEL: func.func @illegal
// CHECK-NOT: dist.start_broadcast
// CHECK: return
func.func @illegal(%tile: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 1.0 : f64
  %a = memref.alloc() : memref<16xf64>
  %va = memref.cast %a : memref<16xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    dist.copy_box %tile[%k, %c0] [%c4, %c4] into %a as !T : memref<?xf64>, memref<16xf64>
    // expected-remark @below {{dist-double-buffer: this transfer stays blocking: the loop writes memory the transfer reads ('memref.store')}}
    dist.broadcast %va on @m axes [0] root %c0 : memref<?xf64>
    memref.store %cst, %tile[%k] : memref<?xf64>
  } {dist.time_loop}
  %b = memref.alloc() : memref<16xf64>
  %vb = memref.cast %b : memref<16xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    // expected-remark @below {{dist-double-buffer: this transfer stays blocking: the loop uses its buffer other than by reading it after the transfer ('memref.store')}}
    dist.broadcast %vb on @m axes [0] root %c0 : memref<?xf64>
    memref.store %cst, %b[%k] : memref<16xf64>
  } {dist.time_loop}
  %c = memref.alloc() : memref<16xf64>
  %vc = memref.cast %c : memref<16xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    // expected-remark @below {{dist-double-buffer: this transfer stays blocking: its buffers are used outside the loop ('memref.load')}}
    dist.broadcast %vc on @m axes [0] root %c0 : memref<?xf64>
  } {dist.time_loop}
  %last = memref.load %c[%c0] : memref<16xf64>
  %d = memref.alloc() : memref<16xf64>
  %vd = memref.cast %d : memref<16xf64> to memref<?xf64>
  scf.for %k = %c0 to %c4 step %c1 {
    %old = memref.load %d[%k] : memref<16xf64>
    memref.store %old, %tile[%k] : memref<?xf64>
    // expected-remark @below {{dist-double-buffer: this transfer stays blocking: the ops that compute it do more than compute, copy boxes into its buffers and read the grid}}
    dist.broadcast %vd on @m axes [0] root %c0 : memref<?xf64>
  } {dist.time_loop}
  return
}

