// SpTTV A(i,j) = B(i,j,k) * c(k) of test/Integration/sparse-tensor3.test
// (sparse-inst.py fills the tokens): B of order 3 (CSF with a dense root),
// A CSR with B's fibers as its pattern, c replicated. Two calls (the
// second reuses A's pattern), B's entries replaced (FILL2), a third call;
// A is stored (OUT) so that its pattern can be compared with B's fibers.
dist.grid @m [@P@]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!A = !dist.tensor<@I@x@J@x@T@, #dist.layout<@m, @ALAYOUT@>, #CSR>
!B = !dist.tensor<@I@x@J@x@K@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSF>
!c = !dist.tensor<@K@x@T@, #dist.layout<@m, "x -> *">>

func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [@SCHED@]
      : !A, !B, !c
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  @FILL@
  dist.fill %c seed 2 : !c
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  @FILL2@
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  dist.store %a to "@OUT@" : !A
  %ok = arith.constant 0 : i32
  return %ok : i32
}
