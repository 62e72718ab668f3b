// Sparse matrix times vector, a(i) = B(i,j) * c(j) (SpDISTAL's SpMV).
// B is CSR with its rows blocked over a 1-D grid; a and c are blocked the
// same way. Each process multiplies the columns of its rows that fall in
// its own block of c while the entries of c it needs from the others
// arrive (the exchange plan, built once for B), then the rest.

dist.grid @m [4]

#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                                posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<1000xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<1000x1000xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<1000xf64, #dist.layout<@m, "x -> x">>

func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({a, B, c}, io)]
      : !a, !B, !c
  return
}

// Run it: dist-run -np 4 --check examples/sparse/spmv.mlir
func.func @main() -> i32 {
  %a = dist.alloc : !a
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  dist.generate %b rmat(8) seed 7 : !B
  dist.fill %c seed 2 : !c
  func.call @spmv(%a, %b, %c) : (!a, !B, !c) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
