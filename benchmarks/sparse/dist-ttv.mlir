// The dist side of the SpTTV benchmark (bench_sparse3.py fills the
// @TOKENS@): A(i,j) = B(i,j,k) * c(k) with B an order-3 CSF tensor (dense
// rows, compressed fibers and entries, 32-bit positions and coordinates)
// and A CSR with B's (i,j) pattern; B and A blocked by rows (BLAYOUT
// "xyz -> x", ALAYOUT "xy -> x", SCHED over i) or split by non-zeros
// ("xyz -> x~", "xy -> x~", SCHED by positions); c replicated. @main calls
// the TTV 1 + REPS times; dist-run --time prints each call's time.
dist.grid @m [@P@]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed),
                                posWidth = 32, crdWidth = 32}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<@I@x@J@x@K@xf64, #dist.layout<@m, @BLAYOUT@>, #CSF>
!A = !dist.tensor<@I@x@J@xf64, #dist.layout<@m, @ALAYOUT@>, #CSR>
!c = !dist.tensor<@K@xf64, #dist.layout<@m, "x -> *">>

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
  dist.generate %b @GEN@(@E@) seed @SEED@ : !B
  dist.fill %c seed 2 : !c
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant @CALLS@ : index
  scf.for %it = %c0 to %n step %c1 {
    func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
