// The layout a schedule implies, suggested for every tensor that moves with
// the general exchange (LayoutSuggestion.h, shown by
// dist-report-communication): each dimension indexed by a distributed loop
// blocked over that loop's grid axis, the others whole; "then" is the
// pattern the analysis picks under it, with the memory it costs when its
// tiles are larger.
//
// RUN: dist-opt %s --dist-report-communication=quiet=1 -split-input-file 2>&1 | FileCheck %s '--implicit-check-not=; suggestion:'
// RUN: dist-opt %s '--dist-report-communication=quiet=1 general-only=1' -split-input-file 2>&1 | FileCheck %s --check-prefix=GENERAL --implicit-check-not=remark:

// A by columns under a row schedule: A by rows makes it local.
// CHECK-LABEL: remark: y (output): local
// CHECK: remark: A: general, once
// CHECK-SAME: ; suggestion: give 'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)
// CHECK: remark: x: local
// GENERAL: remark: tensor 'A' moves with the general exchange at every call of 'y(i) = A(i,j) * x(j)': the boxes it needs fit no collective{{.*}}; suggestion: give 'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)
dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x">>
func.func @cols(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  return
}

// -----

// The matching layout: nothing to suggest.
// CHECK-LABEL: remark: y (output): local
// CHECK: remark: A: local
// CHECK: remark: x: local
dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x">>
func.func @rows(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  return
}

// -----

// Every process needs all of C: the suggestion replicates it, and says
// what that costs.
// CHECK-LABEL: remark: A (output): local
// CHECK: remark: C: general
// CHECK-SAME: ; suggestion: give 'C' the layout #dist.layout<@m, [(), ()]> (then: local, up to 96 elements per process instead of 24)
// GENERAL: remark: tensor 'C' moves {{.*}}; suggestion: give 'C' the layout #dist.layout<@m, [(), ()]> (then: local, up to 96 elements per process instead of 24)
dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<16x12xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<12x8xf64, #dist.layout<@m, "xy -> y" cyclic>>
func.func @replicate(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !A, !B, !C
  return
}

// -----

// A distributed summed index and a cyclic output: its partial sums fit no
// reduction; replicated, they are one allreduce.
// CHECK-LABEL: remark: y (output): general
// CHECK-SAME: ; suggestion: give 'y' the layout #dist.layout<@m, [()]> (then: allreduce, up to 16 elements per process instead of 4)
// CHECK: remark: A: local
// CHECK: remark: x: local
// GENERAL: remark: tensor 'y' moves with the general exchange at every call of 'y(i) = A(i,j) * x(j)': its partial results fit no reduction{{.*}}; suggestion: give 'y' the layout #dist.layout<@m, [()]> (then: allreduce, up to 16 elements per process instead of 4)
dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x" cyclic>>
func.func @summed(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({j}, {jo}, {ji}, Grid(4)), reorder({jo, i, ji})]
      : !y, !A, !x
  return
}

// -----

// i divided over both grid axes: no layout of one dimension per grid axis
// expresses that schedule, so there is no suggestion.
// CHECK-LABEL: remark: y (output): general
// CHECK: remark: A: general
// CHECK: remark: x: local
// GENERAL: remark: tensor 'y' moves with the general exchange at every call of 'y(i) = A(i,j) * x(j)': {{.*}}; no layout of 'y' alone makes it local or a collective under this schedule
// GENERAL: remark: tensor 'A' moves with the general exchange at every call of 'y(i) = A(i,j) * x(j)': {{.*}}; no layout of 'A' alone makes it local or a collective under this schedule
dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> yx">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> **">>
!y = !dist.tensor<8xf64, #dist.layout<@m, "x -> x*">>
func.func @both(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [divide(i, ia, ib, 2),
                distribute({ia, ib}, {iao, ibo}, {iai, ibi}, Grid(2, 2))]
      : !y, !A, !x
  return
}

