// proptest: seed 1 index 169 ranks 1
// proptest-failure: dist-opt --dist-to-llvm crashes (SIGSEGV in dist-materialize-spmd, lowerCompute building an arith.andi from a null value) on a statement with no index variables (a scalar computed from scalars) on a one-rank machine; also seed 1 index 203 and seed 3 index 174. Minimized by hand.
// Expected: rejected with a located diagnostic, or A = B computed.

dist.grid @g [1]
!S = !dist.tensor<f64, #dist.layout<@g, " -> *">>
func.func @f(%A: !S, %B: !S) {
  dist.compute "A = B" (A = %A, B = %B) : !S, !S
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !S
  %b = dist.alloc : !S
  dist.fill %a seed 1 : !S
  dist.fill %b seed 2 : !S
  func.call @f(%a, %b) : (!S, !S) -> ()
  dist.store %a to "out_a.dtensor" : !S
  %ok = arith.constant 0 : i32
  return %ok : i32
}
