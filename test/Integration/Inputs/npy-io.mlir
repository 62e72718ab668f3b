// Reads the .npy files Inputs/npy-check.py makes with numpy (f64, f32, i32
// and i64; C and Fortran order; format versions 1.0, 2.0 and 3.0; 1-D and
// 0-d arrays) into tensors of several layouts, stores each one back as
// out-*.npy, and computes 2 * A + B and A * G from loaded tensors; the test
// compares every output with numpy. Row-blocked, 2-D blocked, cyclic and
// block-cyclic layouts (cyclic and small blocks go through the span reads,
// blocks of 64 or more elements through the in-place and run reads, in both
// orders). npy.test runs it on grids [2, 2], [2, 1] and [1, 1] (with the
// Grid(...) of the schedules to match).

dist.grid @m [2, 2]

!Rows = !dist.tensor<10x7xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
!Blk = !dist.tensor<10x7xf64, #dist.layout<@m, "xy -> xy">>
!Cyc = !dist.tensor<10x7xf64, #dist.layout<@m, "[(1),(0)]">>
!BC = !dist.tensor<10x7xf64, #dist.layout<@m, "xy -> yx" block_cyclic(2)>>
!G = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> xy">>
!P = !dist.tensor<10x5xf64, #dist.layout<@m, "xy -> xy">>
!F32 = !dist.tensor<10x7xf32, #dist.layout<@m, "[(0),(1)]">>
!I3 = !dist.tensor<5x3x4xi32, #dist.layout<@m, [(1) blocked, (), (0)]>>
!W = !dist.tensor<6x301xi64, #dist.layout<@m, "xy -> yx" block_cyclic(70)>>
!T = !dist.tensor<301x6xi64, #dist.layout<@m, "xy -> xy">>
!V = !dist.tensor<13xf64, #dist.layout<@m, "[(1)]">>
!Sc = !dist.tensor<f64, #dist.layout<@m, " -> **">>

func.func @main() -> i32 {
  // The 10x7 f64 array, C and Fortran order, into four layouts.
  %r0 = dist.alloc : !Rows
  dist.load %r0 from "a64-c.npy" : !Rows
  dist.store %r0 to "out-a64c-rows.npy" : !Rows
  %r1 = dist.alloc : !Rows
  dist.load %r1 from "a64-f.npy" : !Rows
  dist.store %r1 to "out-a64f-rows.npy" : !Rows
  %b0 = dist.alloc : !Blk
  dist.load %b0 from "a64-c.npy" : !Blk
  dist.store %b0 to "out-a64c-blk.npy" : !Blk
  %b1 = dist.alloc : !Blk
  dist.load %b1 from "a64-f.npy" : !Blk
  dist.store %b1 to "out-a64f-blk.npy" : !Blk
  %c0 = dist.alloc : !Cyc
  dist.load %c0 from "a64-c.npy" : !Cyc
  dist.store %c0 to "out-a64c-cyc.npy" : !Cyc
  %c1 = dist.alloc : !Cyc
  dist.load %c1 from "a64-f.npy" : !Cyc
  dist.store %c1 to "out-a64f-cyc.npy" : !Cyc
  %k0 = dist.alloc : !BC
  dist.load %k0 from "a64-c.npy" : !BC
  dist.store %k0 to "out-a64c-bc.npy" : !BC
  %k1 = dist.alloc : !BC
  dist.load %k1 from "a64-f.npy" : !BC
  dist.store %k1 to "out-a64f-bc.npy" : !BC
  // Format versions 2.0 and 3.0.
  %v2 = dist.alloc : !Cyc
  dist.load %v2 from "a64-v2.npy" : !Cyc
  dist.store %v2 to "out-a64v2.npy" : !Cyc
  %v3 = dist.alloc : !Blk
  dist.load %v3 from "a64-v3.npy" : !Blk
  dist.store %v3 to "out-a64v3.npy" : !Blk
  // f32, i32 (3-D) and i64 (wide and tall: blocks of 64 or more).
  %f0 = dist.alloc : !F32
  dist.load %f0 from "a32-c.npy" : !F32
  dist.store %f0 to "out-a32c.npy" : !F32
  %f1 = dist.alloc : !F32
  dist.load %f1 from "a32-f.npy" : !F32
  dist.store %f1 to "out-a32f.npy" : !F32
  %i0 = dist.alloc : !I3
  dist.load %i0 from "i32-c.npy" : !I3
  dist.store %i0 to "out-i32c.npy" : !I3
  %i1 = dist.alloc : !I3
  dist.load %i1 from "i32-f.npy" : !I3
  dist.store %i1 to "out-i32f.npy" : !I3
  %w0 = dist.alloc : !W
  dist.load %w0 from "w64-c.npy" : !W
  dist.store %w0 to "out-w64c.npy" : !W
  %w1 = dist.alloc : !W
  dist.load %w1 from "w64-f.npy" : !W
  dist.store %w1 to "out-w64f.npy" : !W
  %t0 = dist.alloc : !T
  dist.load %t0 from "t64-c.npy" : !T
  dist.store %t0 to "out-t64c.npy" : !T
  %t1 = dist.alloc : !T
  dist.load %t1 from "t64-f.npy" : !T
  dist.store %t1 to "out-t64f.npy" : !T
  // A 1-D and a 0-d array.
  %v = dist.alloc : !V
  dist.load %v from "v64-c.npy" : !V
  dist.store %v to "out-v64.npy" : !V
  %s = dist.alloc : !Sc
  dist.load %s from "s64-c.npy" : !Sc
  dist.store %s to "out-s64.npy" : !Sc
  // Computations on loaded tensors: B and G from Fortran-order files.
  %bb = dist.alloc : !Blk
  dist.load %bb from "b64-f.npy" : !Blk
  %sum = dist.alloc : !Blk
  dist.compute "S(i,j) = 2 * A(i,j) + B(i,j)" (S = %sum, A = %b0, B = %bb)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))]
      : !Blk, !Blk, !Blk
  dist.store %sum to "out-sum.npy" : !Blk
  %g = dist.alloc : !G
  dist.load %g from "g64-f.npy" : !G
  %p = dist.alloc : !P
  dist.compute "P(i,j) = A(i,k) * G(k,j)" (P = %p, A = %b0, G = %g)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 4),
                reorder({ko, ii, ji, ki}),
                communicate(P, jo), communicate({A, G}, ko)]
      : !P, !Blk, !G
  dist.store %p to "out-prod.npy" : !P
  %ok = arith.constant 0 : i32
  return %ok : i32
}
