// dist-auto-schedule's leaf kernels other than GEMM and its overlap(off)
// candidates (docs/autoschedule.md): the gemv and dot leaves of a TTV, the
// MTTKRP leaf, the choice between them following gamma.gemv, and
// single-buffered steps under a memory cap. The tensors' own grids
// (grid-shapes=0).
//
// RUN: dist-opt %s --dist-auto-schedule=grid-shapes=0 -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 cost-file=%S/Inputs/autosched-slow-gemv.txt" -split-input-file | FileCheck %s --check-prefix=SLOWGEMV
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 max-memory=500000" -split-input-file | FileCheck %s --check-prefix=CAP
// RUN: dist-opt %s "--dist-auto-schedule=grid-shapes=0 cost-file=%S/Inputs/autosched-costly-leaf-call.txt" -split-input-file | FileCheck %s --check-prefix=LEAFCALL

// TTV: with the default numbers (every leaf at gamma, 1e-10 s a flop, the
// scalar loops at gamma.loop, 1e-9) a gemv leaf over (j, k), TTV's form in
// DISTAL; with gemv slow (1e-8), the dot leaf over k; with a leaf call
// costing 10 us (alpha.leaf; 32 gemv or 768 dot calls a process), the
// scalar loops.
dist.grid @m [2, 2]
!A = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<64x48x40xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<40xf64, #dist.layout<@m, "z -> **">>
// DEFAULT-LABEL: func.func @ttv(
// DEFAULT: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, c}, jo), reorder({ii, ji, k}), substitute({ji, k}, gemv)] :
// SLOWGEMV-LABEL: func.func @ttv(
// SLOWGEMV: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, c}, jo), reorder({ii, ji, k}), substitute({k}, dot)] :
// LEAFCALL-LABEL: func.func @ttv(
// LEAFCALL: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, c}, jo)] :
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule auto : !A, !B, !c
  return
}

// -----

// MTTKRP on DISTAL's 2 x 2 x 1 layouts: the MTTKRP leaf over i, j, k, l,
// reordered innermost.
dist.grid @g [2, 2, 1]
!MA = !dist.tensor<20x12xf64, #dist.layout<@g, "il -> i**">>
!MB = !dist.tensor<20x16x18xf64, #dist.layout<@g, "ijk -> ijk">>
!MC = !dist.tensor<16x12xf64, #dist.layout<@g, "jl -> *j*">>
!MD = !dist.tensor<18x12xf64, #dist.layout<@g, "kl -> **k">>
// DEFAULT-LABEL: func.func @mttkrp(
// DEFAULT: schedule [{{.*}}substitute({{{[a-z]+}}, {{[a-z]+}}, {{[a-z]+}}, {{[a-z]+}}}, mttkrp)] :
func.func @mttkrp(%a: !MA, %b: !MB, %c: !MC, %d: !MD) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"
      (A = %a, B = %b, C = %c, D = %d) schedule auto : !MA, !MB, !MC, !MD
  return
}

// -----

// A 256^3 product over 2 x 2: without a cap, the one-sided product. SUMMA
// in 8 steps holds 524288 bytes a process with its panels double-buffered
// (three 128 x 128 tiles and two of each 4096-element panel) and 458752
// with one; the one-sided product's slices in flight are over 500000 too:
// under that cap, SUMMA with overlap(off).
dist.grid @s [2, 2]
!T = !dist.tensor<256x256xf64, #dist.layout<@s, "xy -> xy">>
// DEFAULT-LABEL: func.func @gemm(
// DEFAULT: schedule [stationary(auto)] :
// CAP-LABEL: func.func @gemm(
// CAP: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), divide(k, ko, ki, 8), reorder({ko, ii, ji, ki}), communicate(A, jo), communicate({B, C}, ko), overlap(off), substitute({ii, ji, ki}, gemm)] :
func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !T, !T, !T
  return
}
