// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s --check-prefix=OFF
// Overlap (double buffering) of time-stepped communication: step 0's
// transfer starts before the time loop; at each step the rank waits for
// that step's transfer, starts the next step's non-blocking transfer into
// the other buffer (a second buffer allocated once, outside the loop), and
// then runs the leaf (dist-double-buffer, after dist-lower-computations).
// The requests and the two buffers are the time loop's iteration
// arguments; the last step yields the null request. overlap=false, and the schedule
// command overlap(off), keep the blocking transfers.

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// SUMMA: the panel broadcasts become start_broadcast / wait; the loop
// carries each panel's request, this step's buffer and the other one.
// CHECK-LABEL: func.func @summa
// CHECK-DAG: %[[B0:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: %[[B1:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: dist.check_alloc %[[B1]], "the second communication buffer of tensor B"
// CHECK: dist.copy_box %{{.*}} into %[[B0]]
// CHECK: %[[V0:.*]] = memref.reinterpret_cast %[[B0]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<512xf64> to memref<?xf64>
// CHECK: %[[R0:.*]] = dist.start_broadcast %[[V0]] on @m axes [1] root %{{.*}} : memref<?xf64>
// CHECK: %[[R1:.*]] = dist.start_broadcast %{{.*}} on @m axes [0] root %{{.*}} : memref<?xf64>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[REQB:.*]] = %[[R0]], %[[CURB:.*]] = %[[B0]], %[[NEXTB:.*]] = %[[B1]], %[[REQC:.*]] = %[[R1]], %[[CURC:.*]] = %{{.*}}, %[[NEXTC:.*]] = %{{.*}}) -> (!dist.request, memref<512xf64>, memref<512xf64>, !dist.request, memref<512xf64>, memref<512xf64>) {
// CHECK-NOT: memref.alloc
// CHECK: dist.wait %[[REQB]]
// CHECK: %[[RB:.*]] = scf.if %{{.*}} -> (!dist.request) {
// CHECK: dist.copy_box %{{.*}} into %[[NEXTB]]
// CHECK: %[[RN:.*]] = dist.start_broadcast
// CHECK: scf.yield %[[RN]] : !dist.request
// CHECK: } else {
// CHECK: %[[NONE:.*]] = dist.null_request
// CHECK: scf.yield %[[NONE]] : !dist.request
// CHECK: dist.wait %[[REQC]]
// CHECK: %[[RC:.*]] = scf.if %{{.*}} -> (!dist.request) {
// CHECK: dist.start_broadcast
// CHECK: memref.reinterpret_cast %[[CURB]]
// CHECK: memref.reinterpret_cast %[[CURC]]
// CHECK: dist.gemm
// CHECK: scf.yield %[[RB]], %[[NEXTB]], %[[CURB]], %[[RC]], %[[NEXTC]], %[[CURC]]
// CHECK: } {dist.time_loop}
// CHECK: dist.add_box
// CHECK-DAG: memref.dealloc %[[B0]]
// CHECK-DAG: memref.dealloc %[[B1]]
// OFF-LABEL: func.func @summa
// OFF-NOT: dist.start_broadcast
// OFF-NOT: dist.wait
// OFF: scf.for
// OFF: dist.broadcast
// OFF: dist.broadcast
// OFF: dist.gemm
func.func @summa(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// Cannon: the alignment (a blocking permutation) comes before the loop,
// which starts with null requests; the shifts become start_shift from the
// current buffer into the other one.
// CHECK-LABEL: func.func @cannon
// CHECK: dist.permute
// CHECK: %[[N0:.*]] = dist.null_request
// CHECK: dist.permute
// CHECK: %[[N1:.*]] = dist.null_request
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[N0]], %[[CB:.*]] = %{{.*}}, %[[NB:.*]] = %{{.*}}, %{{.*}} = %[[N1]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (!dist.request, memref<1024xf64>, memref<1024xf64>, !dist.request, memref<1024xf64>, memref<1024xf64>)
// CHECK: dist.wait
// CHECK-DAG: %[[TO:.*]] = memref.reinterpret_cast %[[NB]]
// CHECK-DAG: %[[FROM:.*]] = memref.reinterpret_cast %[[CB]]
// CHECK: dist.start_shift %[[FROM]] into %[[TO]] on @m axis 1 offset 1 : memref<?xf64> into memref<?xf64>
// CHECK: dist.wait
// CHECK: dist.start_shift %{{.*}} into %{{.*}} on @m axis 0 offset 1
// CHECK: dist.gemm
// OFF-LABEL: func.func @cannon
// OFF-NOT: dist.start_shift
// OFF: scf.for
// OFF: dist.permute
// OFF: dist.shift %{{.*}} on @m axis 1 offset 1
// OFF: dist.permute
// OFF: dist.shift %{{.*}} on @m axis 0 offset 1
// OFF: dist.gemm
func.func @cannon(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 2), reorder({ko, ii, ji, ki}),
                rotate(ko, {io, jo}, kos),
                communicate(A, jo), communicate({B, C}, kos),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @x [4]
!A = !dist.tensor<64x32xf64, #dist.layout<@x, "mk -> m">>
!B = !dist.tensor<32x48xf64, #dist.layout<@x, "kn -> n">>
!C = !dist.tensor<64x48xf64, #dist.layout<@x, "mn -> n">>

// A per-step allgather becomes start_allgather from the send buffer (this
// rank's piece, cut along the split dimension by its grid coordinate).
// CHECK-LABEL: func.func @allgather_steps
// CHECK: dist.grid_coord on @x axis 0 : index
// CHECK: dist.copy_box
// CHECK: dist.start_allgather %{{.*}} into %{{.*}} on @x axes [0] : memref<?xf64> into memref<?xf64>
// CHECK: scf.for
// CHECK: dist.wait
// CHECK: dist.start_allgather
// CHECK: dist.gemm
// OFF-LABEL: func.func @allgather_steps
// OFF-NOT: dist.start_allgather
// OFF: dist.allgather
func.func @allgather_steps(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(m,n) = A(m,k) * B(k,n)" (C = %c, A = %a, B = %b)
      schedule [distribute({n}, {no}, {ni}, Grid(4)),
                split(k, ko, ki, 16), reorder({no, ko, m, ni, ki}),
                communicate(C, no), communicate({A, B}, ko),
                substitute({m, ni, ki}, gemm)]
      : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// overlap(off) in the schedule wins over the pass default.
// CHECK-LABEL: func.func @summa_off
// CHECK-NOT: dist.start_broadcast
// CHECK: dist.broadcast
// OFF-LABEL: func.func @summa_off
// OFF: dist.broadcast
func.func @summa_off(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm), overlap(off)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// overlap(on) in the schedule wins over overlap=false.
// CHECK-LABEL: func.func @summa_on
// CHECK: dist.start_broadcast
// OFF-LABEL: func.func @summa_on
// OFF: dist.start_broadcast
func.func @summa_on(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm), overlap(on)] : !T, !T, !T
  return
}
