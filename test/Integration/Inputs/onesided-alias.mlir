// One-sided C(i,j) = A(i,k) * B(k,j) called with C and A the same tensor
// (onesided.test): the running program must stop, not compute.
dist.grid @m [2, 2]
!T = !dist.tensor<6x6xf64, #dist.layout<@m, "xy -> xy">>
func.func @mm(%c: !T, %a: !T, %b: !T) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(C)] : !T, !T, !T
  return
}
func.func @main() -> i32 {
  %x = dist.alloc : !T
  %b = dist.alloc : !T
  dist.fill %x seed 1 : !T
  dist.fill %b seed 2 : !T
  func.call @mm(%x, %x, %b) : (!T, !T, !T) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
