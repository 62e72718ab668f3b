// RUN: dist-opt %s -split-input-file -verify-diagnostics
// One test per schedule rule of the verifier.

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Unknown variable.
  // expected-error @+1 {{schedule: divide(q, qo, qi, 2): unknown index variable 'q'}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(q, qo, qi, 2)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Already-consumed variable.
  // expected-error @+1 {{schedule: reorder({k, i}): index variable 'k' no longer exists: it was consumed by split(k, ko, ki, 4)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [split(k, ko, ki, 4), reorder({k, i})] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{schedule: split(k, i, ki, 4): index variable 'i' is already defined}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [split(k, i, ki, 4)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Distribute onto a grid of the wrong rank.
  // expected-error @+1 {{distributes 2 variable(s) onto a grid of rank 3; the grid must have one dimension per variable}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2, 2))]
      : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @l [4]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{distributes 2 variable(s) onto a grid of rank 1}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @l)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Rotate over a variable that is not distributed.
  // expected-error @+1 {{rotate(ko, {io, ki}, kos): rotates by 'ki', which is not distributed}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                divide(k, ko, ki, 2), rotate(ko, {io, ki}, kos)]
      : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Communicate under a loop that does not enclose the tensor's accesses.
  // expected-error @+1 {{communicate(B, k): loop 'k' does not enclose the accesses of the communicated tensor(s): it was consumed by split(k, ko, ki, 2)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [communicate(B, k), split(k, ko, ki, 2)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{communicate(B, ki): loop 'ki' is inside the substituted gemm leaf}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 2), reorder({ko, ii, ji, ki}),
                communicate(B, ki), substitute({ii, ji, ki}, gemm)]
      : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{communicate(D, i): 'D' is not a tensor of the statement}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [communicate(D, i)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // Substitute over variables that do not form the kernel: two row indices.
  // expected-error @+1 {{substitute({ii, io, ki}, gemm): 'io' is distributed and cannot be part of a leaf}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), distribute(io), split(k, ko, ki, 2),
                reorder({j, ko, io, ii, ki}),
                substitute({ii, io, ki}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({ii, io, k}, gemm): the variables do not form gemm: it needs one row, one column and one reduction variable}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), reorder({j, io, ii, k}),
                substitute({ii, io, k}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, k}, gemm): gemm replaces exactly 3 loops, got 2}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [reorder({j, i, k}), substitute({i, k}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, j, k}, gemm): gemm needs a statement of the form Out = In1 * In2}}
  dist.compute "A(i,j) = B(i,k) * C(k,j) + B(i,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, j}, gemm): 'i' is not among the 2 innermost loops}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, j, k}, syrk): unknown leaf kernel 'syrk'; known kernels: gemm, mttkrp}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, syrk)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{collapse(i, k, f): 'k' must be the loop directly inside 'i'}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [collapse(i, k, f)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{parallelize(io): 'io' is distributed; parallelize is for loops inside a processor}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii, 2), distribute(io), parallelize(io)]
      : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+2 {{unknown scheduling command 'tile'}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [tile(i, 2)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{malformed schedule: divide takes (var, outer, inner, integer)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(i, io, ii)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{split(k, ko, ki, 0): the chunk size must be at least 1, got 0}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [split(k, ko, ki, 0)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, j, k}, mttkrp): mttkrp replaces exactly 4 loops, got 3}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, mttkrp)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> xy">>
func.func @f(%a: !A, %b: !B, %c: !A, %d: !A) {
  // expected-error @+1 {{mttkrp needs a statement of the form A(i,l) = B(i,j,k) * C(j,l) * D(k,l)}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) + D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [substitute({i, l, j, k}, mttkrp)] : !A, !B, !A, !A
  return
}

// -----

// A constant or a negation in the product has no place in a library call
// (the mttkrp leaf used to drop the minus sign silently).
dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x8x8xf64, #dist.layout<@m, "xyz -> xy">>
func.func @f(%a: !A, %b: !B, %c: !A, %d: !A) {
  // expected-error @+1 {{mttkrp needs a statement of the form A(i,l) = B(i,j,k) * C(j,l) * D(k,l)}}
  dist.compute "A(i,l) = -B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [substitute({i, l, j, k}, mttkrp)] : !A, !B, !A, !A
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{substitute({i, j, k}, gemm): gemm needs a statement of the form Out = In1 * In2 (no constants, negation or sums)}}
  dist.compute "A(i,j) = 2 * B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [substitute({i, j, k}, gemm)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{divide(k, ko, ki, 9223372036854775807): cannot divide 8 iterations into 9223372036854775807 parts (at most 1048576)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [divide(k, ko, ki, 9223372036854775807)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{malformed schedule: overlap takes (on) or (off)}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [overlap(maybe)] : !T, !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T, %c: !T) {
  // expected-error @+1 {{overlap(off): the schedule already has an overlap command}}
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [overlap(on), overlap(off)] : !T, !T, !T
  return
}
