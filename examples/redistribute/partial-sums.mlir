// Partial-sum redistributions (Schatz 2015, sec. 2; digest sec. 2): a
// temporary T whose summed dimensions are distributed over grid axes is
// reduced into G, with the collective the destination layout calls for.
//
//   dist-opt --dist-plan-redistribution examples/redistribute/partial-sums.mlir
//   dist-run -np 8 --check examples/redistribute/partial-sums.mlir

dist.grid @p [2, 2, 2]

!T = !dist.tensor<6x5x7xf64, #dist.layout<@p, "[(0),(1),(2)]">>
!G01 = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),(1)]">>
!G0_12 = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),(1,2)]">>
!Groot = !dist.tensor<6x5xf64, #dist.layout<@p, "[(0),(1)]|(2)">>
!G10 = !dist.tensor<6x5xf64, #dist.layout<@p, "[(1),(0)]">>
!Gblk = !dist.tensor<6x5xf64, #dist.layout<@p, "xy -> xy*">>
!T3 = !dist.tensor<4x9x3xf32, #dist.layout<@p, "[(0),(1),(2)]">>
!H1 = !dist.tensor<9xf32, #dist.layout<@p, "[(1)]">>
!H102 = !dist.tensor<9xf32, #dist.layout<@p, "[(1,0,2)]">>

func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.fill %t seed 21 : !T
  // Allreduce over {2}: the freed mode replicates G.
  %a = dist.alloc : !G01
  dist.redistribute %t into %a sum [2] : !T into !G01
  // Reduce-scatter over {2}: the freed mode becomes a tail of (1).
  %b = dist.alloc : !G0_12
  dist.redistribute %t into %b sum [2] : !T into !G0_12
  // Reduce-to-one over {2}: G lives on the processes with p2 = 0.
  %c = dist.alloc : !Groot
  dist.redistribute %t into %c sum [2] : !T into !Groot
  // No single collective: allreduce into [(0),(1)], then a permutation.
  %d = dist.alloc : !G10
  dist.redistribute %t into %d sum [2] : !T into !G10
  // Blocked destination: allreduce, then the general exchange.
  %e = dist.alloc : !Gblk
  dist.redistribute %t into %e sum [2] : !T into !Gblk
  // Two summed dimensions (f32): allreduce and reduce-scatter over {0, 2}.
  %t3 = dist.alloc : !T3
  dist.fill %t3 seed 22 : !T3
  %h = dist.alloc : !H1
  dist.redistribute %t3 into %h sum [0, 2] : !T3 into !H1
  %k = dist.alloc : !H102
  dist.redistribute %t3 into %k sum [0, 2] : !T3 into !H102
  %ok = arith.constant 0 : i32
  return %ok : i32
}
