// Found by dist-fuzz (timeout in dist-materialize-spmd): the communication
// analysis visits every index of every box it checks (Owners::holdsBox and
// Owners::singlePart in lib/Analysis/Communication.cpp), so compile time grows
// with the tensor's extent: about 0.6 s for 1e8 elements, hours for 2^40.
// It must not depend on the extents.
dist.grid @m [2]
!T = !dist.tensor<1099511627776xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  return
}
