// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// Statements without a schedule run on one process (the verifier rejects
// a computation that distributes no loop on a larger machine: every
// process would compute everything).
dist.grid @one [1, 1]
dist.grid @c [1, 1, 1]
!T1 = !dist.tensor<8x8xf64, #dist.layout<@one, "xy -> xy">>
!V = !dist.tensor<8xf64, #dist.layout<@one, "x -> x*">>
!S = !dist.tensor<f64, #dist.layout<@one, " -> **">>
!T3 = !dist.tensor<8x8x8xf64, #dist.layout<@c, "xyz -> xyz">>
!M3 = !dist.tensor<8x4xf64, #dist.layout<@c, "xy -> x**">>

// CHECK-LABEL: func @statements
func.func @statements(%a: !T1, %b: !T1, %c: !T1, %v: !V, %w: !V, %s: !S,
                      %t: !T3, %m: !M3, %n: !M3, %o: !M3) {
  // CHECK: %[[A:.*]] = dist.alloc : !dist.tensor<8x8xf64, #dist.layout<@one, [(0) blocked, (1) blocked]>>
  %x = dist.alloc : !T1
  // CHECK: dist.fill %[[A]] seed 42 : !dist.tensor<8x8xf64
  dist.fill %x seed 42 : !T1
  // CHECK: dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %{{.*}}, B = %{{.*}}, C = %{{.*}}) : !dist.tensor
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c) : !T1, !T1, !T1
  // Sums, differences, constants, parentheses, accumulation.
  // CHECK: dist.compute "A(i,j) += 2.5 * (B(i,j) - C(j,i)) + B(i,j)"
  dist.compute "A(i,j) += 2.5 * (B(i,j) - C(j,i)) + B(i,j)" (A = %a, B = %b, C = %c) : !T1, !T1, !T1
  // Matrix-vector and a full reduction into a scalar.
  // CHECK: dist.compute "y(i) = M(i,j) * x(j)"
  dist.compute "y(i) = M(i,j) * x(j)" (y = %v, M = %a, x = %w) : !V, !T1, !V
  // CHECK: dist.compute "s = B(i,j) * C(i,j)"
  dist.compute "s = B(i,j) * C(i,j)" (s = %s, B = %b, C = %c) : !S, !T1, !T1
  // Three operands, implicit sums over j and k (MTTKRP).
  // CHECK: dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %m, B = %t, C = %n, D = %o) : !M3, !T3, !M3, !M3
  return
}

// Every command, as DISTAL writes them.
// CHECK-LABEL: func @schedules
func.func @schedules(%a: !T, %b: !T, %c: !T) {
  // CHECK: schedule [divide(i, io, ii, 2), split(j, jo, ji, 4), reorder({io, jo, ii, ji}), distribute(io), distribute({jo}), collapse(ii, ji, f), parallelize(f), communicate({B, C}, jo), communicate(A, io)]
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), split(j, jo, ji, 4),
                reorder({io, jo, ii, ji}), distribute(io), distribute({jo}),
                collapse(ii, ji, f), parallelize(f),
                communicate({B, C}, jo), communicate(A, io)]
      : !T, !T, !T
  // CHECK: schedule [distribute({i, j}, {io, jo}, {ii, ji}, @m), fuse(ii, ji, f)]
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @m), fuse(ii, ji, f)]
      : !T, !T, !T
  return
}
