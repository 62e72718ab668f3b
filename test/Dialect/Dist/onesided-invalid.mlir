// RUN: dist-opt %s -split-input-file -verify-diagnostics
// What the verifier rejects about one-sided schedules (stationary,
// prefetch, offset; docs/onesided.md), with the reason: the commands'
// arguments and repetitions, loop commands beside them, and the products
// and layouts the one-sided lowering does not take.

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{schedule: stationary(D): 'D' is not a tensor of the statement; write stationary(T) with T one of its tensors, or stationary(auto)}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(D)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{stationary(B): the schedule already has a stationary command}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(A), stationary(B)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{prefetch(0): the prefetch depth must be between 1 and 16, got 0}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [prefetch(0)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{prefetch(3): the schedule already has a prefetch command}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [prefetch(2), prefetch(3)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{offset(off): the schedule already has an offset command}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [offset(on), offset(off)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)): the one-sided lowering (stationary, prefetch, offset) takes no loop commands}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C), distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{reorder({k, i, j}): the one-sided lowering (stationary, prefetch, offset) takes no loop commands}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [reorder({k, i, j}), offset(on)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<9x5xf64, #dist.layout<@m, "xy -> y*">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: the statement must read C(i,j) = A(i,k) * B(k,j), or a contraction that matricizes to one, C(b..,i..,j..) = A(b..,i..,k..) * B(b..,k..,j..) (the operands in either order; the batch indices b.. first, then each group of indices adjacent and in one order in every tensor; no transposed accesses)}}
  dist.compute "C(i,j) = A(i,k) * B(j,k)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: it computes matrix products C(i,j) = A(i,k) * B(k,j) or C(i,j) += A(i,k) * B(k,j) (and contractions that matricize to them), without constant factors, signs or sums}}
  dist.compute "C(i,j) = 2 * A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Grids of different sizes (grids of the same processes are allowed:
// test/Transforms/onesided-compute.mlir).
dist.grid @m [2, 2]
dist.grid @n [3]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@n, [(), (0) blocked]>>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'B' is on grid @n of 3 processes and C on @m of 4; the one-sided lowering takes A, B and C on grids of the same processes (as many of them)}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xi32, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xi32, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xi32, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' has element type integer; the one-sided lowering's GEMMs take f32 or f64}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, [(0) blocked, (1) blocked skew(0)]>>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' has a skewed layout; the one-sided lowering takes blocked, cyclic and block-cyclic dimensions without skew}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(A)] : !C, !A, !B
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> *">>
!C = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' is sparse; the one-sided lowering takes dense tensors}}
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Contractions that do not matricize to a product.

dist.grid @m [2, 2]
!A = !dist.tensor<4x3x5xf64, #dist.layout<@m, [(0) blocked, (), ()]>>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<3x4x9xf64, #dist.layout<@m, [(0) blocked, (), (1) blocked]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: the statement must read C(i,j) = A(i,k) * B(k,j), or a contraction that matricizes to one, C(b..,i..,j..) = A(b..,i..,k..) * B(b..,k..,j..) (the operands in either order; the batch indices b.. first, then each group of indices adjacent and in one order in every tensor; no transposed accesses)}}
  dist.compute "C(l,i,j) = A(i,l,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5x2xf64, #dist.layout<@m, "xyz -> x**">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: index 'l' is only on 'A' (a sum over it alone); }}
  dist.compute "C(i,j) = A(i,k,l) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Two partitioned dimensions of one group.
dist.grid @m [2, 2]
!A = !dist.tensor<4x6x5xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<4x6x9xf64, #dist.layout<@m, [(0) blocked, (), (1) blocked]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' partitions both 'i' and 'l', which its matricized view merges into one dimension (i, l); partition at most one index of each group}}
  dist.compute "C(i,l,j) = A(i,l,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// An inner dimension of a group dealt in blocks that do not divide it.
dist.grid @m [2, 2]
!A = !dist.tensor<4x5x3xf64, #dist.layout<@m, [(), (0) blocked, ()]>>
!B = !dist.tensor<3x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<4x5x9xf64, #dist.layout<@m, [(), (0) blocked, (1) blocked]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: 'A' deals 'l' in blocks of 3 over 2 processes, which do not divide its extent 5, and indices come before it in the group (i, l): its matricized view is not block-cyclic; partition the group's first index, or make the blocks times the processes divide the extent}}
  dist.compute "C(i,l,j) = A(i,l,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Batch indices dealt out differently.
dist.grid @m [2, 2]
!A = !dist.tensor<4x7x5xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
!B = !dist.tensor<4x5x9xf64, #dist.layout<@m, [(), (), (1) blocked]>>
!C = !dist.tensor<4x7x9xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: the batch indices (b) are dealt out differently in 'B' and 'C'; the one-sided lowering takes them whole in all three tensors, or partitioned identically on one grid}}
  dist.compute "C(b,i,j) = A(b,i,k) * B(b,k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @n [2, 2]
!A = !dist.tensor<4x7x5xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
!B = !dist.tensor<4x5x9xf64, #dist.layout<@n, [(0) blocked, (), (1) blocked]>>
!C = !dist.tensor<4x7x9xf64, #dist.layout<@m, [(0) blocked, (1) blocked, ()]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{one-sided product cannot be lowered: the batch indices (b) are dealt out differently in 'B' and 'C'; the one-sided lowering takes them whole in all three tensors, or partitioned identically on one grid}}
  dist.compute "C(b,i,j) = A(b,i,k) * B(b,k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}

// -----

// Blocks of 2^62 over 4 processes: the cycle (2^64) overflows and is longer
// than the extent, so it does not divide it (no division by a wrapped 0).
dist.grid @m [4]
!C = !dist.tensor<4x2x8xf64, #dist.layout<@m, [(), (), (0) block_cyclic(4611686018427387904)]>>
!A = !dist.tensor<4x4xf64, #dist.layout<@m, [(0) blocked, ()]>>
!B = !dist.tensor<4x2x8xf64, #dist.layout<@m, [(0) blocked, (), ()]>>
func.func @f(%c: !C, %a: !A, %b: !B) {
  // expected-error @+1 {{'C' deals 'l' in blocks of 4611686018427387904 over 4 processes, which do not divide its extent 8}}
  dist.compute "C(i,j,l) = A(i,k) * B(k,j,l)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !C, !A, !B
  return
}
