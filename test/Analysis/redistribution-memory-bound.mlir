// RUN: dist-opt %s --dist-plan-redistribution -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --dist-plan-redistribution=relax-memory-bound -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=RELAX
// The planner's memory bound: no layout a plan passes through holds more
// per process than the larger of the source and destination tiles (the
// rule dist-insert-redistributions applies to its copies). For small
// tensors the alpha-beta model alone prefers an allgather that holds
// several times a process's data; the bound keeps the balanced plans.

dist.grid @p [2, 2]
!S = !dist.tensor<13xf64, #dist.layout<@p, "[(1)]">>
!D = !dist.tensor<13xf64, #dist.layout<@p, "[(0)]">>
// Unbounded: gather the whole vector (13 elements per process, tiles hold
// 7), then slice. Bounded: slice to 4, permute, allgather to 7.
// CHECK: remark: plan for [(1)] -> [(0)]: local slice over modes [0] -> [(1, 0)] (0 s), then permutation over modes [0, 1] -> [(0, 1)] ({{.*}} s), then allgather over modes [1] -> [(0)] ({{.*}} s); predicted 2e-06 s
// RELAX: remark: plan for [(1)] -> [(0)]: allgather over modes [1] -> [()] ({{.*}} s), then local slice over modes [0] -> [(0)] (0 s); predicted 1e-06 s
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

// The thesis' example 6 with P2 != P3 (12^4 elements, 864 per process):
// unbounded, an allgather over mode 2 to [(0), (1), (), (3)] holds 1728.
dist.grid @p [2, 2, 2, 3]
!S = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(2),(3)]">>
!D = !dist.tensor<12x12x12x12xf64, #dist.layout<@p, "[(0),(1),(3),(2)]">>
// CHECK: remark: plan for [(0), (1), (2), (3)] -> [(0), (1), (3), (2)]: all-to-all over modes [2] -> [(0), (1, 2), (), (3)] ({{.*}} s), then all-to-all over modes [3] -> [(0), (1, 2), (3), ()] ({{.*}} s), then all-to-all over modes [2] -> [(0), (1), (3), (2)] ({{.*}} s); predicted 5e-06 s
// RELAX: remark: plan for [(0), (1), (2), (3)] -> [(0), (1), (3), (2)]: allgather over modes [2] -> [(0), (1), (), (3)] ({{.*}} s), then all-to-all over modes [3] -> [(0), (1), (3), ()] ({{.*}} s), then local slice over modes [2] -> [(0), (1), (3), (2)] (0 s); predicted 4.6e-06 s
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

// Blocked: every plan on blocks passes through a layout of 40 elements per
// process (tiles hold 24), so the bounded planner leaves it to the general
// exchange, which holds nothing in between.
dist.grid @p [2, 3]
!S = !dist.tensor<16x8xf64, #dist.layout<@p, [(1) blocked, (0) blocked]>>
!D = !dist.tensor<16x8xf64, #dist.layout<@p, [(0) blocked, (1) blocked]>>
// CHECK: remark: plan for [(1) b=6, (0) b=4] -> [(0) b=8, (1) b=3]: no sequence of at most 5 collectives found that holds at most the larger of the source and destination tiles per process; general exchange
// RELAX: remark: plan for [(1) b=6, (0) b=4] -> [(0) b=8, (1) b=3]: redistribute-kind over modes [0, 1] -> [(1) b=8, (0) b=3]
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}

// -----

// A destination larger than the source is the bound itself: the thesis'
// single allgather either way.
dist.grid @p [2, 2, 2, 2]
!S = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0,2),(1,3)]">>
!D = !dist.tensor<16x16xf64, #dist.layout<@p, "[(0),(1)]">>
// CHECK: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)] ({{.*}} s); predicted
// RELAX: remark: plan for [(0, 2), (1, 3)] -> [(0), (1)]: allgather over modes [2, 3] -> [(0), (1)] ({{.*}} s); predicted
func.func @f(%a: !S, %b: !D) {
  dist.redistribute %a into %b : !S into !D
  return
}
