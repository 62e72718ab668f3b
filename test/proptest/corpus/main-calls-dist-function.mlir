// proptest: seed 1 index 35 ranks 2
// proptest-failure: runtime fatal "exit: the process is exiting without distrt_finalize()" on every rank: dist-materialize-spmd inserts distrt_finalize before main returns only when @main itself uses a distributed tensor; a @main that only calls a function which allocates, fills, computes and stores never finalizes. Found (on 1 rank) by the first version of gen.py (every computation in its own function, @main only calls them); every generated computation failed this way. Minimized by hand.
// Expected: the program runs (A = B * 2) and exits 0.

dist.grid @g [2]
!T = !dist.tensor<4xf64, #dist.layout<@g, "x -> x">>
func.func @compute() {
  %a = dist.alloc : !T
  %b = dist.alloc : !T
  dist.fill %a seed 1 : !T
  dist.fill %b seed 2 : !T
  dist.compute "A(i) = B(i) * 2" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  dist.store %a to "out_a.dtensor" : !T
  return
}

func.func @main() -> i32 {
  func.call @compute() : () -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
