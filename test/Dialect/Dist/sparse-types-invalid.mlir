// RUN: dist-opt %s -split-input-file -verify-diagnostics
// Sparse distributed tensors: what dist cannot store is rejected where the
// type is written, and the ops that would compute with them say that
// sparse tensors are not lowered yet.

dist.grid @m [4]
// expected-error @+1 {{the sparse encoding describes 3 dimension(s) but the tensor has rank 2}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : dense, k : compressed)}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{the sparse encoding's dimToLvl must be a permutation of the dimensions}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{level 1 of the sparse encoding is loose_compressed; dist stores dense, compressed and singleton levels}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : loose_compressed)}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{the sparse encoding's posWidth is 16; dist takes 0 (index), 32 or 64 bits}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 16}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{dimension 0 of a sparse tensor is partitioned cyclic; sparse tensors take universe partitions by coordinate range (blocked) or non-zero partitions ('~', nonzeros) only}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),()]">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{expected a #sparse_tensor.encoding (the local sparse format), got}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #dist.statement<"A(i) = B(i)">>) {
  return
}

// -----

dist.grid @m [4]
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !S, %c: !V) {
  // expected-error @+1 {{sparse computation cannot be lowered: sparse computations are Y(i) = B(i,j) * X(j) or Y(i,k) = B(i,j) * X(j,k) (SpMV, SpMM), A(i,j) = B(i,j) * C(i,k) * D(k,j) (SDDMM) with B sparse, or A(i,j) = B(i,j) + C(i,j) [+ D(i,j)] (SpAdd) with all sparse, without constant factors or signs; other statements with sparse tensors are not supported yet}}
  dist.compute "a(i) = B(i,j) * c(j) + c(i)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !V, !S, !V
  return
}

// -----

dist.grid @m [4]
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>
func.func @f() {
  %b = dist.alloc : !S
  // expected-error @+1 {{must be dense distributed tensor (this op does not take sparse tensors yet)}}
  dist.fill %b seed 1 : !S
  return
}

// -----

// SpDISTAL's non-zero partition splits stored entries: dense tensors store
// every element.
dist.grid @m [4]
// expected-error @+1 {{dimension 0 of a dense tensor has a non-zero partition ('~', nonzeros); it splits the stored entries of a sparse tensor}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{'~' (a non-zero partition) must follow a tensor dimension name on the right of '->'}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> ~x">, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>) {
  return
}

// -----

dist.grid @m [4]
// expected-error @+1 {{'~' (a non-zero partition) takes no other partition kind}}
func.func @f(%a: !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~" cyclic>, #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>>) {
  return
}
