// The dist side of the SDDMM benchmark (bench_sparse2.py fills the
// @TOKENS@): A(i,j) = B(i,j) * C(i,k) * D(k,j) with B and A CSR (32-bit
// positions and coordinates), rows blocked over the ranks or (BLAYOUT
// "xy -> x~", SCHED by positions) entries split by non-zeros; C blocked
// like B's rows (CLAYOUT "xy -> x") or replicated, D replicated. @main
// calls the SDDMM 1 + REPS times; dist-run --time prints each call's time.
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!S = !dist.tensor<@ROWS@x@COLS@xf64, #dist.layout<@m, @BLAYOUT@>, #CSR>
!C = !dist.tensor<@ROWS@x@K@xf64, #dist.layout<@m, @CLAYOUT@>>
!D = !dist.tensor<@K@x@COLS@xf64, #dist.layout<@m, "xy -> *">>

func.func @sddmm(%a: !S, %b: !S, %c: !C, %d: !D) {
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [@SCHED@]
      : !S, !S, !C, !D
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !S
  %b = dist.alloc : !S
  %c = dist.alloc : !C
  %d = dist.alloc : !D
  @FILL@
  dist.fill %c seed 2 : !C
  dist.fill %d seed 3 : !D
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant @CALLS@ : index
  scf.for %it = %c0 to %n step %c1 {
    func.call @sddmm(%a, %b, %c, %d) : (!S, !S, !C, !D) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
