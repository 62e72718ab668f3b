// The SDDMM of test/Integration/sparse-sddmm.test, with the tokens of
// sparse-spmm.mlir (K: columns of C, rows of D) and FILL2, B's entries
// replaced before the third call (A must take the new pattern).
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!A = !dist.tensor<@ROWS@x@COLS@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSR>
!B = !dist.tensor<@ROWS@x@COLS@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSR>
!C = !dist.tensor<@ROWS@x@K@x@T@, #dist.layout<@m, @CLAYOUT@>>
!D = !dist.tensor<@K@x@COLS@x@T@, #dist.layout<@m, "xy -> *">>

func.func @sddmm(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [@SCHED@]
      : !A, !B, !C, !D
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  %d = dist.alloc : !D
  @FILL@
  dist.fill %c seed 2 : !C
  dist.fill %d seed 3 : !D
  func.call @sddmm(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  func.call @sddmm(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  @FILL2@
  func.call @sddmm(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  dist.store %a to "@OUT@" : !A
  %ok = arith.constant 0 : i32
  return %ok : i32
}
