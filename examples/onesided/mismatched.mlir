// A matrix product on layouts that match no DISTAL Fig. 9 pattern, run
// one-sided (docs/onesided.md; seed 004, "Slicing Is All You Need"): A by
// rows over all four processes, B by columns, C 2-D block-cyclic. Nothing
// is redistributed: the cost model picks the tensor that stays (here C),
// and every process gets the slices of A and B its C blocks need with
// MPI_Rget, two chunks ahead of the GEMM it runs.
//
//   dist-opt --dist-report-communication examples/onesided/mismatched.mlir
//   dist-run -np 4 --check examples/onesided/mismatched.mlir

dist.grid @m [2, 2]

!A = !dist.tensor<1000x600xf64, #dist.layout<@m, [(0, 1) blocked, ()]>>
!B = !dist.tensor<600x800xf64, #dist.layout<@m, [(), (0, 1) blocked]>>
!C = !dist.tensor<1000x800xf64,
       #dist.layout<@m, [(0) block_cyclic(64), (1) block_cyclic(64)]>>

func.func @product(%c: !C, %a: !A, %b: !B) {
  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)
      schedule [stationary(auto), prefetch(2)] : !C, !A, !B
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 1 : !A
  dist.fill %b seed 2 : !B
  func.call @product(%c, %a, %b) : (!C, !A, !B) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
