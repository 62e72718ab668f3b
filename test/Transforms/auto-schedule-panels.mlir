// dist-auto-schedule and the GEMM rate of thin panels (gamma.gemm.k.K,
// docs/autoschedule.md): a 4096^3 product on a 2 x 2 grid, each process's
// leaf 2048 x 2048 x (the panel width). With panels as fast per flop as
// cubes, SUMMA in panels of 64 (the most of the broadcasts hidden behind
// the GEMMs); with panels of 64 14 % slower per flop than 256 and up, in
// panels of 256 (the compute 1.51 s x 5e-11 / 4.4e-11 = 1.72 s in panels
// of 64).
//
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 report=100 cost-file=%S/Inputs/autosched-thick-panels.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THICK
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 report=100 cost-file=%S/Inputs/autosched-thin-panels.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THIN

// THICK: remark: schedule auto: chosen of {{[0-9]+}}: predicted 1.55 s (compute 1.51, {{.*}}): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), split(k, ko, ki, 64), reorder({ko, ii, ji, ki}), communicate(A, jo), communicate({B, C}, ko), substitute({ii, ji, ki}, gemm)]
// THICK: remark: schedule auto: rank 2 of {{[0-9]+}}: predicted 1.55 s (compute 1.51, {{.*}}): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), split(k, ko, ki, 256),

// THIN: remark: schedule auto: chosen of {{[0-9]+}}: predicted 1.55 s (compute 1.51, {{.*}}): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), split(k, ko, ki, 256), reorder({ko, ii, ji, ki}), communicate(A, jo), communicate({B, C}, ko), substitute({ii, ji, ki}, gemm)]
// THIN: remark: schedule auto: rank {{[0-9]+}} of {{[0-9]+}}: predicted {{[0-9.]+}} s (compute 1.72, {{.*}}): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), split(k, ko, ki, 64),
dist.grid @m [2, 2]
!T = !dist.tensor<4096x4096xf64, #dist.layout<@m, "xy -> xy">>
func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !T, !T, !T
  return
}
