// The sum of sparse matrices of test/Integration/sparse-add.test, with the
// tokens of sparse-spmm.mlir, STMT (the statement, over A, B, C, D), BINDS
// (its bindings: "A = %a, B = %b, ...") and TYPES (theirs: "!S, !S, ..."),
// and
// FILL2 (B's entries replaced before the third call: A must take the new
// union). D is allocated and filled whether the statement reads it or not.
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!S = !dist.tensor<@ROWS@x@COLS@x@T@, #dist.layout<@m, "xy -> x">, #CSR>

func.func @add(%a: !S, %b: !S, %c: !S, %d: !S) {
  dist.compute "@STMT@" (@BINDS@)
      schedule [distribute({i}, {io}, {ii}, Grid(@P@))]
      : @TYPES@
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !S
  %b = dist.alloc : !S
  %c = dist.alloc : !S
  %d = dist.alloc : !S
  @FILL@
  dist.generate %c uniform(2) seed 5 : !S
  dist.generate %d uniform(1) seed 6 : !S
  func.call @add(%a, %b, %c, %d) : (!S, !S, !S, !S) -> ()
  func.call @add(%a, %b, %c, %d) : (!S, !S, !S, !S) -> ()
  @FILL2@
  func.call @add(%a, %b, %c, %d) : (!S, !S, !S, !S) -> ()
  dist.store %a to "@OUT@" : !S
  %ok = arith.constant 0 : i32
  return %ok : i32
}
