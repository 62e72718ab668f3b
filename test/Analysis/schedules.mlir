// Statements and schedules: iteration domains, access relations, the
// schedule map onto the scheduled loops and the processor / time split.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null | FileCheck %s

dist.grid @m [2, 2]
dist.grid @c [2, 2, 2]
dist.grid @g3 [3, 3]
dist.grid @l4 [4]
dist.grid @one [1, 1]

!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!U = !dist.tensor<10x6xf64, #dist.layout<@l4, "xy -> x">>
!T3 = !dist.tensor<4x4xf64, #dist.layout<@c, "xy -> xy*">>
!N = !dist.tensor<9x9xf64, #dist.layout<@g3, "xy -> xy">>
!T1 = !dist.tensor<8x8xf64, #dist.layout<@one, "xy -> xy">>

// DISTAL Fig. 9 SUMMA: tiles of A stay put (io, jo on the grid); B and C
// are communicated per k-chunk ko.
func.func @summa(%a: !T, %b: !T, %c: !T) {
  // CHECK-LABEL: compute #0: A(i,j) = B(i,k) * C(k,j)
  // CHECK-NEXT: domain: { S[i, j, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access A write: { S[i, j, k] -> A[i, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access B read: { S[i, j, k] -> B[i, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access C read: { S[i, j, k] -> C[k, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: loop io: extent 2, processor (grid dim 0), io = floor(i/4)
  // CHECK-NEXT: loop jo: extent 2, processor (grid dim 1), communicates A, jo = floor(j/4)
  // CHECK-NEXT: loop ko: extent 2, time, communicates B C, ko = floor(k/4)
  // CHECK-NEXT: loop ii: extent 4, time, leaf gemm, ii = i mod 4
  // CHECK-NEXT: loop ji: extent 4, time, leaf gemm, ji = j mod 4
  // CHECK-NEXT: loop ki: extent 4, time, leaf gemm, ki = k mod 4
  // CHECK-NEXT: schedule: { S[i, j, k] -> [(floor((i)/4)), (floor((j)/4)), (floor((k)/4)), ((i) mod 4), ((j) mod 4), ((k) mod 4)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: processor dims: io jo
  // CHECK-NEXT: time dims: ko ii ji ki
  // CHECK-NEXT: processor map: { S[i, j, k] -> P[(floor((i)/4)), (floor((j)/4))] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: time map: { S[i, j, k] -> [(floor((k)/4)), ((i) mod 4), ((j) mod 4), ((k) mod 4)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 4),
                reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !T, !T, !T
  return
}

// DISTAL Fig. 9 Cannon: the k-blocks are rotated by the processor
// coordinates, kos = (ko - io - jo) mod 2.
func.func @cannon(%a: !T, %b: !T, %c: !T) {
  // CHECK-LABEL: compute #1: A(i,j) = B(i,k) * C(k,j)
  // CHECK-NEXT: domain: { S[i, j, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access A write: { S[i, j, k] -> A[i, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access B read: { S[i, j, k] -> B[i, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access C read: { S[i, j, k] -> C[k, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: loop io: extent 2, processor (grid dim 0), io = floor(i/4)
  // CHECK-NEXT: loop jo: extent 2, processor (grid dim 1), communicates A, jo = floor(j/4)
  // CHECK-NEXT: loop kos: extent 2, time, communicates B C, kos = (ko - io - jo) mod 2 = (floor(k/4) - floor(i/4) - floor(j/4)) mod 2
  // CHECK-NEXT: loop ii: extent 4, time, leaf gemm, ii = i mod 4
  // CHECK-NEXT: loop ji: extent 4, time, leaf gemm, ji = j mod 4
  // CHECK-NEXT: loop ki: extent 4, time, leaf gemm, ki = k mod 4
  // CHECK-NEXT: schedule: { S[i, j, k] -> [(floor((i)/4)), (floor((j)/4)), (floor((i)/4) + floor((j)/4) + floor((k)/4) - 2*floor((i + 4*floor((j)/4) + 4*floor((k)/4))/8)), ((i) mod 4), ((j) mod 4), ((k) mod 4)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: processor dims: io jo
  // CHECK-NEXT: time dims: kos ii ji ki
  // CHECK-NEXT: processor map: { S[i, j, k] -> P[(floor((i)/4)), (floor((j)/4))] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: time map: { S[i, j, k] -> [(floor((i)/4) + floor((j)/4) + floor((k)/4) - 2*floor((i + 4*floor((j)/4) + 4*floor((k)/4))/8)), ((i) mod 4), ((j) mod 4), ((k) mod 4)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 2),
                reorder({ko, ii, ji, ki}),
                rotate(ko, {io, jo}, kos),
                communicate(A, jo), communicate({B, C}, kos),
                substitute({ii, ji, ki}, gemm)]
      : !T, !T, !T
  return
}

// Cannon on a 3x3 grid: kos = (ko - io - jo) mod 3.
func.func @cannon3(%a: !N, %b: !N, %c: !N) {
  // CHECK-LABEL: compute #2: A(i,j) = B(i,k) * C(k,j)
  // CHECK-NEXT: domain: { S[i, j, k] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: access A write: { S[i, j, k] -> A[i, j] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: access B read: { S[i, j, k] -> B[i, k] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: access C read: { S[i, j, k] -> C[k, j] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: loop io: extent 3, processor (grid dim 0), io = floor(i/3)
  // CHECK-NEXT: loop jo: extent 3, processor (grid dim 1), communicates A, jo = floor(j/3)
  // CHECK-NEXT: loop kos: extent 3, time, communicates B C, kos = (ko - io - jo) mod 3 = (floor(k/3) - floor(i/3) - floor(j/3)) mod 3
  // CHECK-NEXT: loop ii: extent 3, time, ii = i mod 3
  // CHECK-NEXT: loop ji: extent 3, time, ji = j mod 3
  // CHECK-NEXT: loop ki: extent 3, time, ki = k mod 3
  // CHECK-NEXT: schedule: { S[i, j, k] -> [(floor((i)/3)), (floor((j)/3)), (-floor((i)/3) - floor((j)/3) + floor((k)/3) - 3*floor((k - 3*floor((i)/3) - 3*floor((j)/3))/9)), ((i) mod 3), ((j) mod 3), ((k) mod 3)] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: processor dims: io jo
  // CHECK-NEXT: time dims: kos ii ji ki
  // CHECK-NEXT: processor map: { S[i, j, k] -> P[(floor((i)/3)), (floor((j)/3))] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  // CHECK-NEXT: time map: { S[i, j, k] -> [(-floor((i)/3) - floor((j)/3) + floor((k)/3) - 3*floor((k - 3*floor((i)/3) - 3*floor((j)/3))/9)), ((i) mod 3), ((j) mod 3), ((k) mod 3)] : 0 <= i <= 8 and 0 <= j <= 8 and 0 <= k <= 8 }
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @g3),
                divide(k, ko, ki, 3),
                reorder({ko, ii, ji, ki}),
                rotate(ko, {io, jo}, kos),
                communicate(A, jo), communicate({B, C}, kos)]
      : !N, !N, !N
  return
}

// Johnson's 3-D algorithm: every index on a 2x2x2 grid.
func.func @johnson(%a: !T3, %b: !T3, %c: !T3) {
  // CHECK-LABEL: compute #3: A(i,j) = B(i,k) * C(k,j)
  // CHECK-NEXT: domain: { S[i, j, k] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: access A write: { S[i, j, k] -> A[i, j] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: access B read: { S[i, j, k] -> B[i, k] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: access C read: { S[i, j, k] -> C[k, j] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: loop io: extent 2, processor (grid dim 0), io = floor(i/2)
  // CHECK-NEXT: loop jo: extent 2, processor (grid dim 1), jo = floor(j/2)
  // CHECK-NEXT: loop ko: extent 2, processor (grid dim 2), communicates A B C, ko = floor(k/2)
  // CHECK-NEXT: loop ii: extent 2, time, ii = i mod 2
  // CHECK-NEXT: loop ji: extent 2, time, ji = j mod 2
  // CHECK-NEXT: loop ki: extent 2, time, ki = k mod 2
  // CHECK-NEXT: schedule: { S[i, j, k] -> [(floor((i)/2)), (floor((j)/2)), (floor((k)/2)), ((i) mod 2), ((j) mod 2), ((k) mod 2)] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: processor dims: io jo ko
  // CHECK-NEXT: time dims: ii ji ki
  // CHECK-NEXT: processor map: { S[i, j, k] -> P[(floor((i)/2)), (floor((j)/2)), (floor((k)/2))] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  // CHECK-NEXT: time map: { S[i, j, k] -> [((i) mod 2), ((j) mod 2), ((k) mod 2)] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= k <= 3 }
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j, k}, {io, jo, ko}, {ii, ji, ki}, @c),
                communicate({A, B, C}, ko)]
      : !T3, !T3, !T3
  return
}

// Uneven divide (10 into 4 parts of 3), a split of 6 by 4, collapse,
// parallelize and single-variable distribute.
func.func @uneven(%a: !U, %b: !U) {
  // CHECK-LABEL: compute #4: A(i,j) = B(i,j)
  // CHECK-NEXT: domain: { S[i, j] : 0 <= i <= 9 and 0 <= j <= 5 }
  // CHECK-NEXT: access A write: { S[i, j] -> A[i, j] : 0 <= i <= 9 and 0 <= j <= 5 }
  // CHECK-NEXT: access B read: { S[i, j] -> B[i, j] : 0 <= i <= 9 and 0 <= j <= 5 }
  // CHECK-NEXT: loop io: extent 4, processor, io = floor(i/3)
  // CHECK-NEXT: loop jo: extent 2, time, jo = floor(j/4)
  // CHECK-NEXT: loop f: extent 12, time, parallel, f = 4*ii + ji = 4*(i mod 3) + (j mod 4)
  // CHECK-NEXT: schedule: { S[i, j] -> [(floor((i)/3)), (floor((j)/4)), (4*((i) mod 3) + (j) mod 4)] : 0 <= i <= 9 and 0 <= j <= 5 }
  // CHECK-NEXT: processor dims: io
  // CHECK-NEXT: time dims: jo f
  // CHECK-NEXT: processor map: { S[i, j] -> P[(floor((i)/3))] : 0 <= i <= 9 and 0 <= j <= 5 }
  // CHECK-NEXT: time map: { S[i, j] -> [(floor((j)/4)), (4*((i) mod 3) + (j) mod 4)] : 0 <= i <= 9 and 0 <= j <= 5 }
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [divide(i, io, ii, 4), split(j, jo, ji, 4),
                reorder({io, jo, ii, ji}), distribute(io),
                collapse(ii, ji, f), parallelize(f)]
      : !U, !U
  return
}

// No schedule (on one process): one time loop per index variable; +=
// reads the output.
func.func @unscheduled(%a: !T1, %b: !T1, %c: !T1) {
  // CHECK-LABEL: compute #5: A(i,j) += B(i,k) * C(k,j)
  // CHECK-NEXT: domain: { S[i, j, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access A read-write: { S[i, j, k] -> A[i, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access B read: { S[i, j, k] -> B[i, k] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: access C read: { S[i, j, k] -> C[k, j] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: loop i: extent 8, time, i = i
  // CHECK-NEXT: loop j: extent 8, time, j = j
  // CHECK-NEXT: loop k: extent 8, time, k = k
  // CHECK-NEXT: schedule: { S[i, j, k] -> [(i), (j), (k)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: processor dims:
  // CHECK-NEXT: time dims: i j k
  // CHECK-NEXT: processor map: { S[i, j, k] -> P[] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  // CHECK-NEXT: time map: { S[i, j, k] -> [(i), (j), (k)] : 0 <= i <= 7 and 0 <= j <= 7 and 0 <= k <= 7 }
  dist.compute "A(i,j) += B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      : !T1, !T1, !T1
  return
}
