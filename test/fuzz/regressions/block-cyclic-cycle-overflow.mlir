// Found by an audit of integer divisions (SIGFPE, 'trap divide error' in the
// kernel log): block_cyclic(2^62) over 4 processes; block * processes wrapped
// to 0 and DimDistribution::localExtent (lib/Analysis/LayoutSemantics.cpp)
// divided by it under every lowering pass. The cycle now saturates.
dist.grid @m [4]
!T = !dist.tensor<8xf64, #dist.layout<@m, "x -> x" block_cyclic(4611686018427387904)>>
func.func @f(%a: !T, %b: !T) {
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !T, !T
  return
}
