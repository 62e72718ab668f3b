// The SpMM of test/Integration/sparse-kernels.test, with the tokens of
// sparse-spmv.mlir and K (columns of C and A).
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!A = !dist.tensor<@ROWS@x@K@x@T@, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<@ROWS@x@COLS@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSR>
!C = !dist.tensor<@COLS@x@K@x@T@, #dist.layout<@m, @CLAYOUT@>>

func.func @spmm(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,k) @OP@ B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [@SCHED@]
      : !A, !B, !C
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  @FILL@
  dist.fill %c seed 2 : !C
  dist.fill %a seed 3 : !A
  func.call @spmm(%a, %b, %c) : (!A, !B, !C) -> ()
  func.call @spmm(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
