// The thesis' redistributions (Schatz 2015; digest sec. 6) on a 2x2x2 mesh,
// with uneven extents: each dist.redistribute lowers to the planner's
// collectives (dist-opt --dist-plan-redistribution prints the plans).
//
//   dist-run -np 8 --check examples/redistribute/conformance.mlir
//   dist-run -np 8 --check --redistribution general examples/redistribute/conformance.mlir
//
// With --check every redistribution is compared with its gathered source.

dist.grid @p [2, 2, 2]

!A02_1 = !dist.tensor<13x7xf64, #dist.layout<@p, "[(0,2),(1)]">>
!A0_1 = !dist.tensor<13x7xf64, #dist.layout<@p, "[(0),(1)]">>
!A20_1 = !dist.tensor<13x7xf64, #dist.layout<@p, "[(2,0),(1)]">>
!A0_12 = !dist.tensor<13x7xf64, #dist.layout<@p, "[(0),(1,2)]">>
!A01_ = !dist.tensor<13x7xf64, #dist.layout<@p, "[(0,1),()]">>
!A1_ = !dist.tensor<13x7xf64, #dist.layout<@p, "[(1),()]">>
!A0_ = !dist.tensor<13x7xf64, #dist.layout<@p, "[(0),()]">>
!Ablk = !dist.tensor<13x7xf64, #dist.layout<@p, "xy -> xy*">>
!Askew = !dist.tensor<13x7xf64, #dist.layout<@p, [(0) blocked, (1) blocked skew(0)]>>
!Aroot = !dist.tensor<13x7xf64, #dist.layout<@p, [(0), (1)] | (2 = 1)>>
!T0_1_2 = !dist.tensor<5x6x9xf32, #dist.layout<@p, "[(0),(1),(2)]">>
!T012 = !dist.tensor<5x6x9xf32, #dist.layout<@p, "[(0,1,2),(),()]">>
!T0_2_1 = !dist.tensor<5x6x9xf32, #dist.layout<@p, "[(0),(2),(1)]">>

func.func @main() -> i32 {
  %a = dist.alloc : !A02_1
  dist.fill %a seed 7 : !A02_1
  // Allgather over {2}.
  %b = dist.alloc : !A0_1
  dist.redistribute %a into %b : !A02_1 into !A0_1
  // Permutation over {0, 2}.
  %c = dist.alloc : !A20_1
  dist.redistribute %a into %c : !A02_1 into !A20_1
  // All-to-all over {2}: mode 2 moves from the rows to the columns.
  %d = dist.alloc : !A0_12
  dist.redistribute %a into %d : !A02_1 into !A0_12
  // Local slice: [(0),()] -> [(0),(1)].
  %e = dist.alloc : !A0_
  dist.fill %e seed 8 : !A0_
  %f = dist.alloc : !A0_1
  dist.redistribute %e into %f : !A0_ into !A0_1
  // Not a suffix: permutation to [(1,0),()] then allgather over {0}.
  %g = dist.alloc : !A01_
  dist.fill %g seed 9 : !A01_
  %h = dist.alloc : !A1_
  dist.redistribute %g into %h : !A01_ into !A1_
  // Blocked: an allgather over {2} of the cyclic layout, then a kind change
  // over {0, 1} (cyclic -> blocks of 7 rows and 4 columns).
  %i = dist.alloc : !Ablk
  dist.redistribute %a into %i : !A02_1 into !Ablk
  // Skewed: not mode tuples, the general exchange.
  %sk = dist.alloc : !Askew
  dist.redistribute %a into %sk : !A02_1 into !Askew
  // dist-simplify-redistributions composes these two into one
  // redistribution [(0,2),(1)] -> [(1),()] (%m has no other use).
  %m = dist.alloc : !A0_12
  dist.redistribute %a into %m : !A02_1 into !A0_12
  %n = dist.alloc : !A1_
  dist.redistribute %m into %n : !A0_12 into !A1_
  // Non-replicated forms: gather-to-one over {2} onto the processes with
  // p2 = 1, then a broadcast back over {2} and a scatter to [(0,2),(1)].
  %r = dist.alloc : !Aroot
  dist.redistribute %a into %r : !A02_1 into !Aroot
  %rb = dist.alloc : !A0_1
  dist.redistribute %r into %rb : !Aroot into !A0_1
  %rs = dist.alloc : !A02_1
  dist.redistribute %r into %rs : !Aroot into !A02_1
  // 3-D, f32: all-to-all over {1, 2}, then a permutation over {1, 2}.
  %t = dist.alloc : !T0_1_2
  dist.fill %t seed 3 : !T0_1_2
  %u = dist.alloc : !T012
  dist.redistribute %t into %u : !T0_1_2 into !T012
  %v = dist.alloc : !T0_2_1
  dist.redistribute %t into %v : !T0_1_2 into !T0_2_1
  %ok = arith.constant 0 : i32
  return %ok : i32
}
