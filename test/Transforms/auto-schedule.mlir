// dist-auto-schedule on fixed cost files (docs/autoschedule.md): the
// schedule it writes, how the choice follows the numbers, the memory cap,
// the report, and its errors.
//
// RUN: dist-opt %s --dist-auto-schedule -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: dist-opt %s --dist-auto-schedule=cost-file=%S/Inputs/autosched-cheap-loops.txt -split-input-file | FileCheck %s --check-prefix=LOOPS
// RUN: dist-opt %s --dist-auto-schedule="cost-file=%S/Inputs/autosched-slow-broadcast.txt max-memory=700000" -split-input-file | FileCheck %s --check-prefix=SLOWBCAST
// RUN: dist-opt %s --dist-auto-schedule="cost-file=%S/Inputs/autosched-slow-shift.txt max-memory=700000" -split-input-file | FileCheck %s --check-prefix=SLOWSHIFT
// RUN: dist-opt %s --dist-auto-schedule="cost-file=%S/Inputs/autosched-gemm-sizes.txt report=2" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not dist-opt %s --dist-auto-schedule=max-memory=1000 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not dist-opt %s --dist-auto-schedule=cost-file=%S/Inputs/no-such-file.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE

// A 256 x 256 x 256 product on a 2 x 2 grid, every matrix blocked both ways.
dist.grid @m [2, 2]
!T = !dist.tensor<256x256xf64, #dist.layout<@m, "xy -> xy">>

// Default numbers: the one-sided product, which gets only the slices other
// processes hold (half the words SUMMA's broadcast panels carry, each
// copied once into a buffer, 6.55e-05 s against SUMMA's 1.31e-04 less
// 7.1e-05 hidden behind its 8 steps' GEMMs).
// DEFAULT-LABEL: func.func @gemm(
// DEFAULT: dist.compute "A(i,j) = B(i,k) * C(k,j)" {{.*}} schedule [stationary(auto)] :
// DEFAULT-NOT: auto_schedule

// Scalar loops (gamma.loop) cheaper than a GEMM (gamma): a schedule
// without a GEMM leaf, whichever moves the least.
// LOOPS-LABEL: func.func @gemm(
// LOOPS: dist.compute "A(i,j) = B(i,k) * C(k,j)" {{.*}} schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, C}, jo)] :

// Under a cap that rules out moving whole panels at once: with broadcasts
// slow, no candidate that broadcasts (the distribution transposed to the
// layouts, so that B and C move point to point with the general exchange
// in eight steps and A is redistributed; the (i, k) distribution that
// also avoids them is over the cap with its transfers double-buffered and
// hides nothing with overlap(off)); with point-to-point messages slow,
// SUMMA's broadcasts in eight steps (not Cannon's shifts, which move as
// much plus the alignment), the most overlap.
// SLOWBCAST-LABEL: func.func @gemm(
// SLOWBCAST: schedule [distribute({j, i}, {jo, io}, {ji, ii}, Grid(2, 2)), divide(k, ko, ki, 8), reorder({ko, ii, ji, ki}), communicate(A, io), communicate({B, C}, ko), substitute({ii, ji, ki}, gemm)] :
// SLOWSHIFT-LABEL: func.func @gemm(
// SLOWSHIFT: schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), divide(k, ko, ki, 8), reorder({ko, ii, ji, ki}), communicate(A, jo), communicate({B, C}, ko), substitute({ii, ji, ki}, gemm)] :

// The GEMM rate at the leaf's size: 128 x 128 x 256 (cube root 161.3)
// between gamma.gemm.32 = 4e-11 and gamma.gemm.512 = 1e-11, 2.25e-11 s a
// flop: 2 * 128 * 128 * 256 flops in 0.000189 s, for the one-sided product
// (its process's flops as one GEMM) as for the GEMM leaf; the one-sided
// product moves less (its latency: 2 gets, and an allreduce and a barrier
// over 4 processes per call, 2 + 4 alpha).
// REPORT: remark: schedule auto: chosen of {{[0-9]+}}: predicted 0.00026 s (compute 0.000189, latency 6e-06, bandwidth 6.55e-05, redistribution 0, hidden 0): [stationary(auto)]
// REPORT: remark: schedule auto: rank 2 of {{[0-9]+}}: predicted 0.000307 s (compute 0.000189, latency 4e-06, bandwidth 0.000115, redistribution 0, hidden 0): [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)), communicate({A, B, C}, jo), substitute({ii, ji, k}, gemm)]
// The second function's only candidate.
// REPORT: remark: schedule auto: chosen of 1:

// CAP: error: 'dist.compute' op schedule auto: every candidate schedule holds more than max-memory = 1000 bytes per process; the least holds 458752 bytes
// NOFILE: error: cannot read cost file '{{.*}}no-such-file.txt'
func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !T, !T, !T
  return
}

// -----

// One variable on a 4 x 1 grid: the unit grid dimension takes a loop of one
// iteration (k divided by 1), the other k's blocks.
dist.grid @g [4, 1]
!V = !dist.tensor<12xf64, #dist.layout<@g, "x -> x*">>

// DEFAULT-LABEL: func.func @axpy(
// DEFAULT: dist.compute "A(k) = B(k) + 2 * C(k)" {{.*}} schedule [divide(k, u, kr, 1), distribute({kr, u}, {kro, uo}, {kri, ui}, Grid(4, 1)), communicate({A, B, C}, uo)] :
func.func @axpy(%a: !V, %b: !V, %c: !V) {
  dist.compute "A(k) = B(k) + 2 * C(k)" (A = %a, B = %b, C = %c)
      schedule auto : !V, !V, !V
  return
}
