// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s --check-prefix=OFF
// Overlap (double buffering) of time-stepped communication: step 0's
// transfer starts before the time loop; at each step the rank waits for
// that step's transfer, starts the next step's non-blocking transfer into
// the other buffer (a second buffer allocated once, outside the loop), and
// then runs the leaf. overlap=false, and the schedule command overlap(off),
// keep the blocking transfers.

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// SUMMA: the panel broadcasts become ibcast / wait.
// CHECK-LABEL: func.func @summa
// CHECK-DAG: %[[B0:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: %[[B1:.*]] = memref.alloc() : memref<512xf64>
// CHECK-DAG: %[[RB:.*]] = memref.alloca() : memref<1xi64>
// CHECK: call @distrt_copy_box_local
// CHECK: %[[R0:.*]] = call @distrt_ibcast
// CHECK: memref.store %[[R0]], %[[RB]]
// CHECK: call @distrt_ibcast
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : memref<512xf64>
// CHECK: %[[REQ:.*]] = memref.load %[[RB]]
// CHECK: scf.if
// CHECK-NEXT: func.call @distrt_wait(%[[REQ]])
// CHECK: scf.if
// CHECK: func.call @distrt_copy_box_local
// CHECK: %[[RN:.*]] = func.call @distrt_ibcast
// CHECK: memref.store %[[RN]], %[[RB]]
// CHECK: } else {
// CHECK: call @distrt_wait
// CHECK: func.call @distrt_ibcast
// CHECK: call @distrt_gemm_t_f64
// CHECK: }
// CHECK: call @distrt_add_box_local
// CHECK-DAG: memref.dealloc %[[B0]]
// CHECK-DAG: memref.dealloc %[[B1]]
// OFF-LABEL: func.func @summa
// OFF-NOT: distrt_ibcast
// OFF-NOT: distrt_wait
// OFF: scf.for
// OFF: dist.broadcast
// OFF: dist.broadcast
// OFF: call @distrt_gemm_t_f64
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

// Cannon: the alignment (a blocking permutation) comes before the loop;
// the shifts become ishift from the current buffer into the other one.
// CHECK-LABEL: func.func @cannon
// CHECK: call @distrt_permute
// CHECK: call @distrt_permute
// CHECK: scf.for
// CHECK: call @distrt_wait
// CHECK: func.call @distrt_ishift(%{{.*}}, %c1_i64{{.*}}, %c1_i64
// CHECK: call @distrt_wait
// CHECK: func.call @distrt_ishift(%{{.*}}, %c0_i64{{.*}}, %c1_i64
// CHECK: call @distrt_gemm_t_f64
// OFF-LABEL: func.func @cannon
// OFF-NOT: distrt_ishift
// OFF: scf.for
// OFF: call @distrt_permute
// OFF: dist.shift %{{.*}} on @m axis 1 offset 1
// OFF: call @distrt_permute
// OFF: dist.shift %{{.*}} on @m axis 0 offset 1
// OFF: call @distrt_gemm_t_f64
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

// A per-step allgather becomes iallgather from the send buffer.
// CHECK-LABEL: func.func @allgather_steps
// CHECK: call @distrt_iallgather
// CHECK: scf.for
// CHECK: call @distrt_wait
// CHECK: func.call @distrt_iallgather
// CHECK: call @distrt_gemm_t_f64
// OFF-LABEL: func.func @allgather_steps
// OFF-NOT: distrt_iallgather
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
// CHECK-NOT: distrt_ibcast
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
// CHECK: distrt_ibcast
// OFF-LABEL: func.func @summa_on
// OFF: distrt_ibcast
func.func @summa_on(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm), overlap(on)] : !T, !T, !T
  return
}
