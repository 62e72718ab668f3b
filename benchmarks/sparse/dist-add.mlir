// The dist side of the sum benchmark (bench_sparse2.py fills the
// @TOKENS@): A(i,j) = B(i,j) + C(i,j) + D(i,j), CSR with 32-bit positions
// and coordinates, rows blocked over the ranks; B, C and D generated with
// seeds 1, 2 and 3 (the baseline's matrices). @main calls the sum
// 1 + REPS times; dist-run --time prints each call's time.
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!S = !dist.tensor<@ROWS@x@COLS@xf64, #dist.layout<@m, "xy -> x">, #CSR>

func.func @add(%a: !S, %b: !S, %c: !S, %d: !S) {
  dist.compute "A(i,j) = B(i,j) + C(i,j) + D(i,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(@P@))]
      : !S, !S, !S, !S
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !S
  %b = dist.alloc : !S
  %c = dist.alloc : !S
  %d = dist.alloc : !S
  dist.generate %b @GEN@ seed 1 : !S
  dist.generate %c @GEN@ seed 2 : !S
  dist.generate %d @GEN@ seed 3 : !S
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant @CALLS@ : index
  scf.for %it = %c0 to %n step %c1 {
    func.call @add(%a, %b, %c, %d) : (!S, !S, !S, !S) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
