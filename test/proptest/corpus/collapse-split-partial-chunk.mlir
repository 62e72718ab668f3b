// proptest: seed 3 index 70 ranks 1
// proptest-failure: runtime fatal "distrt_box_in_tile: box [5, 6) of dimension 0 is outside the tensor's extent 5": a loop collapsed from l (5) and k (2) into f (10) and split by 3 (4 chunks, the last one partial) communicates C at the chunk's inner loop; the box of the iterations past the end of f is not clipped (an output communicated there fails the same way in distrt_accumulate_box). split without collapse, or a split that divides evenly, is fine. Minimized by hand from a 3-rank MTTKRP-shaped program. The same iterations past the end stop seed 11 index 981 with "distrt_copy_box_local: index 1 of dimension 1 is not in this process's tile" (2 ranks: A(l,m) = B(m,l), A 2x3 replicated, B 3x2 "xy -> 1", distribute({l}, {lo}, {li}, Grid(2)), collapse(li, m, f), split(f, fo, fi, 2), communicate(B, fi)).
// Expected: A = C.

dist.grid @g [1]
!T = !dist.tensor<5x2xf64, #dist.layout<@g, "xy -> *">>
func.func @f(%A: !T, %C: !T) {
  dist.compute "A(l,k) = C(l,k)" (A = %A, C = %C)
      schedule [collapse(l, k, f), split(f, fo, fi, 3), communicate(C, fi)] : !T, !T
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !T
  %c = dist.alloc : !T
  dist.fill %a seed 1 : !T
  dist.fill %c seed 2 : !T
  func.call @f(%a, %c) : (!T, !T) -> ()
  dist.store %a to "out_a.dtensor" : !T
  %ok = arith.constant 0 : i32
  return %ok : i32
}
