// RUN: dist-opt %s --dist-report-communication -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// The analysis does not depend on tensor extents, grid extents or trip
// counts: it is symbolic in the coordinates and the steps (isl), so 2^40
// elements and 131072 steps classify as fast as 4. The lowering says why a
// tensor moves with the general exchange, and which layout would avoid it.

dist.grid @m [2]
!T = !dist.tensor<1099511627776xf64, #dist.layout<@m, "x -> x">>
// CHECK: remark: A (output): local, once (1 step, up to 549755813888 elements)
// CHECK: remark: B: local, once
func.func @f(%a: !T, %b: !T) {
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  return
}

// -----

// SUMMA with 131072 steps: broadcasts whose root is a function of the step
// (beyond the 2^18 (processor, step) pairs the old enumeration gave up at).
dist.grid @m [2, 2]
!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x131072xf64, #dist.layout<@m, "xy -> xy">>
!C = !dist.tensor<131072x8xf64, #dist.layout<@m, "xy -> xy">>
// CHECK: remark: B: broadcast over grid axes [1] from a root that changes with the step, at each iteration of 'ko' (131072 steps, up to 4 elements)
// CHECK: remark: C: broadcast over grid axes [0] from a root that changes with the step, at each iteration of 'ko' (131072 steps, up to 4 elements)
// LOWER-NOT: moves with the general exchange
func.func @f(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 1), reorder({ko, ii, ji, ki}),
                communicate({B, C}, ko)] : !A, !B, !C
  return
}

// -----

// A by columns under a row schedule: the lowering's remark names the
// reason and the layout that makes the transfer local.
dist.grid @m [4]
!A = !dist.tensor<16x8xf64, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
!y = !dist.tensor<16xf64, #dist.layout<@m, "x -> x">>
// LOWER: remark: tensor 'A' moves with the general exchange: the boxes it needs fit no collective{{.*}}; suggestion: give 'A' the layout #dist.layout<@m, [(0) blocked, ()]> (then: local)
func.func @cols(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !y, !A, !x
  return
}

// -----

// A schedule the symbolic analysis cannot express (a collapsed loop split
// with a partial last chunk: the range of the collapsed variable is a
// single value on some steps only) falls back to the general exchange, and
// the remark says so.
dist.grid @g [1]
!T = !dist.tensor<5x2xf64, #dist.layout<@g, "xy -> *">>
// LOWER: remark: tensor 'C' moves with the general exchange: the analysis could not derive its pattern symbolically (the range of 'f' is a single value on some processors and steps only)
func.func @f(%A: !T, %C: !T) {
  dist.compute "A(l,k) = C(l,k)" (A = %A, C = %C)
      schedule [collapse(l, k, f), split(f, fo, fi, 3), communicate(C, fi)] : !T, !T
  return
}
