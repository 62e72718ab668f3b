// A 2^25 x 2^25 f64 tensor (2^53 bytes, more than any address space) on one
// rank: the compiler accepts it (tensors may have up to 2^50 elements), and
// the allocation of its tile fails at run time.
dist.grid @m [1]
!T = !dist.tensor<33554432x33554432xf64, #dist.layout<@m, [(0) blocked, ()]>>
func.func @main() -> i32 {
  %t = dist.alloc : !T
  dist.fill %t seed 1 : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
