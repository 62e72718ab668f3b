// SpDISTAL's conformance SpMV (../shared/design/spdistal-digest.md, section
// 6) for Integration/sparse-conformance.test: B from fixture.mtx, c from
// c.dtensor (c[j] = j + 1), a = B c stored to a.dtensor. @P@: the ranks
// (Inputs/sparse-inst.py replaces it).
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, @BLAYOUT@>, #CSR>
!c = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>

func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [@SCHED@]
      : !a, !B, !c
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !a
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  dist.load %b from "fixture.mtx" : !B
  dist.load %c from "c.dtensor" : !c
  dist.fill %a seed 3 : !a
  func.call @spmv(%a, %b, %c) : (!a, !B, !c) -> ()
  dist.store %a to "a.dtensor" : !a
  %ok = arith.constant 0 : i32
  return %ok : i32
}
