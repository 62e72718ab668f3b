// dist-auto-schedule's compute term (docs/autoschedule.md "The model"): the
// larger of the flops at the leaf's or the loops' rate and the elements
// streamed from memory at beta.stream (a roofline), and the scalar loops
// at gamma.vec when they vectorize (the innermost statement variable is
// the last index of every access that has it) and gamma.loop otherwise.
// The tensors' own grids (grid-shapes=0).
//
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 report=1 cost-file=%S/Inputs/autosched-slow-memory.txt" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLOWMEM
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 cost-file=%S/Inputs/autosched-fast-vec.txt" -split-input-file | FileCheck %s --check-prefix=FASTVEC
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 report=100 cost-file=%S/Inputs/autosched-fast-vec.txt" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRIDED

// TTV on 2 x 2: a process streams its 32 x 24 x 40 block of B (30720
// elements), its 32 x 24 block of A (768) and c (40): 31528 elements, at
// 1e-6 s each 0.031528 s, far above any leaf's flops. With the gemv and
// dot leaves slow and vectorized loops fast, the loops (i, j, k: k is the
// last index of B and of c).
dist.grid @m [2, 2]
!A = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<64x48x40xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<40xf64, #dist.layout<@m, "z -> **">>
// SLOWMEM: remark: schedule auto: chosen of {{[0-9]+}}: predicted {{.*}} (compute 0.0315{{[0-9]*}},
// The loops' 30720 iterations, 2 flops each, at gamma.vec (1e-12 s):
// STRIDED: remark: schedule auto: chosen of {{[0-9]+}}: predicted {{.*}} (compute 6.14e-08, {{.*}}): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, c}, jo)]
// FASTVEC-LABEL: func.func @ttv(
// FASTVEC: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, c}, jo)] :
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule auto : !A, !B, !c
  return
}

// -----

// A GEMM's loops (i, j, k) walk C(k,j) by rows, a stride: they stay at
// gamma.loop whatever gamma.vec is (64 x 128 x 128 iterations a process,
// 2 flops each, at 1e-9 s: 0.0021 s), and a candidate with a GEMM (the
// one-sided product) is chosen.
dist.grid @g [2]
!T = !dist.tensor<128x128xf64, #dist.layout<@g, "xy -> x">>
// FASTVEC-LABEL: func.func @gemm(
// FASTVEC: schedule [stationary(auto)] :
// STRIDED: remark: schedule auto: rank {{[0-9]+}} of {{[0-9]+}}: predicted {{.*}} (compute 0.0021, {{.*}}): [distribute({i}, {io}, {ii}, Grid(2)), communicate({A, B, C}, io)]
func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !T, !T, !T
  return
}
