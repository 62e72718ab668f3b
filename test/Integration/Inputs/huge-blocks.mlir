// Block-cyclic blocks far above the extent (2^62 elements: the first process
// holds the whole dimension) next to blocked and cyclic layouts: block times
// processes overflows 64 bits, and every owner and local index must still
// come out as for one block (no division by a wrapped 0).
dist.grid @m [4]
!H = !dist.tensor<10x6xf64, #dist.layout<@m, [(0) block_cyclic(4611686018427387904), ()]>>
!K = !dist.tensor<10x6xf64, #dist.layout<@m, [(), (0) block_cyclic(1152921504606846976)]>>
!C = !dist.tensor<10x6xf64, #dist.layout<@m, [(0) cyclic, ()]>>
!B = !dist.tensor<10x6xf64, #dist.layout<@m, [(0) blocked, ()]>>
func.func @main() -> i32 {
  %h = dist.alloc : !H
  dist.fill %h seed 3 : !H
  %k = dist.alloc : !K
  dist.fill %k seed 4 : !K
  %c = dist.alloc : !C
  // A sum over operands of three layouts, into a cyclic output.
  dist.compute "C(i,j) = H(i,j) + K(i,j)" (C = %c, H = %h, K = %k)
      schedule [distribute({i}, {io}, {ii}, Grid(4)), communicate({C, H, K}, io)]
      : !C, !H, !K
  // Redistributions out of and into the huge blocks.
  %b = dist.alloc : !B
  dist.redistribute %h into %b : !H into !B
  %h2 = dist.alloc : !H
  dist.redistribute %c into %h2 : !C into !H
  %ok = arith.constant 0 : i32
  return %ok : i32
}
