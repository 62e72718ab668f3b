// dist-auto-schedule without report or pick drops a candidate whose
// arithmetic alone takes longer than the cheapest total found so far
// before analysing its communication (docs/autoschedule.md): the same
// choice as the full search (report=1 prices all 144 candidates), in about
// a third of the time here. The fuzz smoke test found this MTTKRP on a
// 2 x 2 x 3 grid taking 20 s to schedule before (4 s after).
//
// RUN: dist-opt %s --dist-auto-schedule=grid-shapes=0 | FileCheck %s
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 report=1" 2>%t.report | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report

// CHECK-LABEL: func.func @mttkrp(
// CHECK: schedule [distribute({i, j, l}, {io, jo, lo}, {ii, ji, li}, Grid(2, 2, 1)), communicate({A, B, C, D}, lo), reorder({ii, ji, k, li}), substitute({ii, ji, k, li}, mttkrp)] :
// REPORT: remark: schedule auto: chosen of 144: {{.*}}: [distribute({i, j, l}, {io, jo, lo}, {ii, ji, li}, Grid(2, 2, 1)), communicate({A, B, C, D}, lo), reorder({ii, ji, k, li}), substitute({ii, ji, k, li}, mttkrp)]
dist.grid @g [2, 2, 1]
!MA = !dist.tensor<20x12xf64, #dist.layout<@g, "il -> i**">>
!MB = !dist.tensor<20x16x18xf64, #dist.layout<@g, "ijk -> ijk">>
!MC = !dist.tensor<16x12xf64, #dist.layout<@g, "jl -> *j*">>
!MD = !dist.tensor<18x12xf64, #dist.layout<@g, "kl -> **k">>
func.func @mttkrp(%a: !MA, %b: !MB, %c: !MC, %d: !MD) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d) schedule auto : !MA, !MB, !MC, !MD
  return
}
