// RUN: dist-opt %s -split-input-file -verify-diagnostics
// A .npy file holds a dense tensor: dist.load and dist.store of a sparse
// tensor reject the extension (any case) at the op; a dense tensor takes it.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f() {
  %b = dist.alloc : !B
  // expected-error @+1 {{'dist.load' op 'b.npy' is a NumPy .npy file, which holds a dense tensor; a sparse tensor is read from a .mtx, Harwell-Boeing or .tns file}}
  dist.load %b from "b.npy" : !B
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%b: !B) {
  // expected-error @+1 {{'dist.store' op 'dir/B.NPY' is a NumPy .npy file, which holds a dense tensor; a sparse tensor is written as a MatrixMarket (.mtx) file}}
  dist.store %b to "dir/B.NPY" : !B
  return
}

// -----

dist.grid @m [4]
!D = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%d: !D) {
  dist.load %d from "d.npy" : !D
  dist.store %d to "D.Npy" : !D
  return
}
