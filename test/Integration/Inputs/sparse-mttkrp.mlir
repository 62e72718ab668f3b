// SpMTTKRP A(i,l) (OP)= B(i,j,k) * C(j,l) * D(k,l) of
// test/Integration/sparse-tensor3.test (sparse-inst.py fills the tokens):
// B of order 3 (CSF with a dense root), A's rows blocked, C and D
// replicated. Two calls, B's entries replaced (FILL2), a third call; B is
// stored (BOUT, FROSTT) so that it can be compared with what was read.
dist.grid @m [@P@]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed),
                                posWidth = @PW@, crdWidth = @CW@}>
!A = !dist.tensor<@I@x@L@x@T@, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<@I@x@J@x@K@x@T@, #dist.layout<@m, @BLAYOUT@>, #CSF>
!C = !dist.tensor<@J@x@L@x@T@, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<@K@x@L@x@T@, #dist.layout<@m, "xy -> *">>

func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) @OP@ B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
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
  dist.fill %a seed 5 : !A
  dist.fill %c seed 2 : !C
  dist.fill %d seed 3 : !D
  func.call @mttkrp(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  func.call @mttkrp(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  @FILL2@
  func.call @mttkrp(%a, %b, %c, %d) : (!A, !B, !C, !D) -> ()
  dist.store %b to "@BOUT@" : !B
  %ok = arith.constant 0 : i32
  return %ok : i32
}
