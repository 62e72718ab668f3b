// The dist side of the SpMTTKRP benchmark (bench_sparse3.py fills the
// @TOKENS@): A(i,l) = B(i,j,k) * C(j,l) * D(k,l) with B an order-3 CSF
// tensor (dense rows, compressed fibers and entries, 32-bit positions and
// coordinates) blocked by rows (BLAYOUT "xyz -> x", SCHED over i) or split
// by non-zeros ("xyz -> x~", SCHED by positions); A dense, rows blocked;
// C and D replicated. @main calls the MTTKRP 1 + REPS times; dist-run
// --time prints each call's time.
dist.grid @m [@P@]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed),
                                posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<@I@x@J@x@K@xf64, #dist.layout<@m, @BLAYOUT@>, #CSF>
!M = !dist.tensor<@I@x@L@xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<@J@x@L@xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<@K@x@L@xf64, #dist.layout<@m, "xy -> *">>

func.func @mttkrp(%a: !M, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [@SCHED@]
      : !M, !B, !C, !D
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !M
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  %d = dist.alloc : !D
  dist.generate %b @GEN@(@E@) seed @SEED@ : !B
  dist.fill %c seed 2 : !C
  dist.fill %d seed 3 : !D
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant @CALLS@ : index
  scf.for %it = %c0 to %n step %c1 {
    func.call @mttkrp(%a, %b, %c, %d) : (!M, !B, !C, !D) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
