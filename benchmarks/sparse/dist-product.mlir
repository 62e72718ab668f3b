// The dist side of the sparse benchmark suite (bench.py dist_sparse_cmd
// fills the @TOKENS@): SpMV (K = 0: y(i) = B(i,j) * x(j)) or SpMM
// (Y(i,k) = B(i,j) * X(j,k)) with B CSR, rows blocked over the ranks or
// (BLAYOUT "xy -> x~", SCHED by positions) its entries split by non-zeros,
// the dense operand blocked by rows (the exchange plan and its overlap),
// 32-bit positions and coordinates as PETSc's. @main calls the product
// 1 + REPS times; dist-run --time prints each call's time.
dist.grid @m [@P@]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!Y = !dist.tensor<@YSHAPE@xf64, #dist.layout<@m, @YLAYOUT@>>
!B = !dist.tensor<@ROWS@x@COLS@xf64, #dist.layout<@m, @BLAYOUT@>, #CSR>
!X = !dist.tensor<@XSHAPE@xf64, #dist.layout<@m, @YLAYOUT@>>

func.func @product(%y: !Y, %b: !B, %x: !X) {
  dist.compute @STMT@ (Y = %y, B = %b, X = %x)
      schedule [@SCHED@]
      : !Y, !B, !X
  return
}

func.func @main() -> i32 {
  %y = dist.alloc : !Y
  %b = dist.alloc : !B
  %x = dist.alloc : !X
  @FILL@
  dist.fill %x seed 2 : !X
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant @CALLS@ : index
  scf.for %it = %c0 to %n step %c1 {
    func.call @product(%y, %b, %x) : (!Y, !B, !X) -> ()
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
