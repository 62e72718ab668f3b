// The SpMV of test/Integration/sparse-kernels.test, with tokens @NAME@ that
// Inputs/sparse-inst.py replaces: P (ranks), ROWS, COLS, T (f32 | f64), CLAYOUT ("x -> x"
// blocked or "x -> *" replicated), PW / CW (pos / crd widths), OP (= or
// +=), FILL (the dist.load or dist.generate of B), PART (rows or nonzeros:
// B's layout BLAYOUT and the schedule SCHED).
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!a = !dist.tensor<@ROWS@x@T@, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<@ROWS@x@COLS@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSR>
!c = !dist.tensor<@COLS@x@T@, #dist.layout<@m, @CLAYOUT@>>

func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) @OP@ B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [@SCHED@]
      : !a, !B, !c
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !a
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  @FILL@
  dist.fill %c seed 2 : !c
  dist.fill %a seed 3 : !a
  // Twice: the second call reuses the exchange plan.
  func.call @spmv(%a, %b, %c) : (!a, !B, !c) -> ()
  func.call @spmv(%a, %b, %c) : (!a, !B, !c) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
