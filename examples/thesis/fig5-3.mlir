// Schatz (2015), Fig. 5.3: G^{mu iota} = sum_eps H^{mu eps} t^{eps iota},
// stationary t, on a mesh P = (2, 2, 2, 1) (8 ranks):
//
//   H[(0,1),(2,3)] -> all-to-all over (0,1)  -> H[(),(2,3,0,1)]
//                  -> permutation            -> H[(),(0,1,2,3)]
//                  -> allgather over (2,3)   -> H[(),(0,1)]
//   local contraction: T(mu, iota, eps) = H(mu, eps) t(eps, iota) on
//                      [(),(2,3),(0,1)] (eps stays distributed over (0,1))
//   reduce-scatter over (0,1): G[(0,1),(2,3)] = sum_eps T
//
// The partial-sum temporary keeps the whole eps mode (extent 16, dealt over
// (0,1)); the `sum [2]` redistribution first adds up each process's own eps
// slices (the thesis' T^{mu iota eps'}, eps' of extent P0 P1) and then
// reduce-scatters over the freed modes (0, 1).
//
//   dist-opt --dist-plan-redistribution examples/thesis/fig5-3.mlir
//   dist-run -np 8 --check examples/thesis/fig5-3.mlir

dist.grid @p [2, 2, 2, 1]

!H0 = !dist.tensor<12x16xf64, #dist.layout<@p, "[(0,1),(2,3)]">>
!H1 = !dist.tensor<12x16xf64, #dist.layout<@p, "[(),(2,3,0,1)]">>
!H2 = !dist.tensor<12x16xf64, #dist.layout<@p, "[(),(0,1,2,3)]">>
!H3 = !dist.tensor<12x16xf64, #dist.layout<@p, "[(),(0,1)]">>
!Tt = !dist.tensor<16x10xf64, #dist.layout<@p, "[(0,1),(2,3)]">>
!TT = !dist.tensor<12x10x16xf64, #dist.layout<@p, "[(),(2,3),(0,1)]">>
!G = !dist.tensor<12x10xf64, #dist.layout<@p, "[(0,1),(2,3)]">>

func.func @fig5_3(%h: !H0, %t: !Tt, %g: !G) {
  %h1 = dist.alloc : !H1
  dist.redistribute %h into %h1 : !H0 into !H1
  %h2 = dist.alloc : !H2
  dist.redistribute %h1 into %h2 : !H1 into !H2
  %h3 = dist.alloc : !H3
  dist.redistribute %h2 into %h3 : !H2 into !H3
  %tt = dist.alloc : !TT
  dist.compute "T(m,i,e) = H(m,e) * t(e,i)" (T = %tt, H = %h3, t = %t)
      schedule [divide(e, ea, eb, 2), distribute({m, i, ea, eb}, {mo, io, eao, ebo}, {mi, ii, eai, ebi}, Grid(2, 2, 2, 1))]
      : !TT, !H3, !Tt
  dist.redistribute %tt into %g sum [2] : !TT into !G
  return
}

func.func @main() -> i32 {
  %h = dist.alloc : !H0
  %t = dist.alloc : !Tt
  %g = dist.alloc : !G
  dist.fill %h seed 11 : !H0
  dist.fill %t seed 12 : !Tt
  func.call @fig5_3(%h, %t, %g) : (!H0, !Tt, !G) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
