// RUN: dist-opt %s -split-input-file -verify-diagnostics
// What the verifier rejects about sparse tensors, with the reason: the
// products dist lowers are SpMV and SpMM with a CSR matrix whose rows are
// blocked over a 1-D grid (docs/sparse.md); dist.generate's parameters;
// the file kinds dist.load reads; the SPMD ops' types.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !B) {
  // expected-error @+1 {{sparse computation cannot be lowered: exactly one operand of a sparse product is sparse}}
  dist.compute "a(i) = B(i,j) * C(j,i)" (a = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !V, !B, !B
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !B, %b: !B, %c: !V) {
  // expected-error @+1 {{sparse computation cannot be lowered: a sparse output is supported for SDDMM only (A(i,j) = B(i,j) * C(i,k) * D(k,j)); a product's output is dense}}
  dist.compute "A(i,j) = B(i,j) * c(j)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !B, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{the statement must read Y(i) = B(i,j) * X(j) or Y(i,k) = B(i,j) * X(j,k) with B sparse}}
  dist.compute "a(j) = B(i,j) * c(i)" (a = %a, B = %b, c = %c)
      schedule [distribute({j}, {jo}, {ji}, Grid(4)), reorder({jo, i, ji})] : !V, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSC = #sparse_tensor.encoding<{map = (i, j) -> (j : dense, i : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSC>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{only CSR matrices (map = (i, j) -> (i : dense, j : compressed)) are stored yet}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !V, !B, !V
  return
}

// -----

dist.grid @m [2, 2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x*">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{sparse matrices are stored on 1-D, one-level grids only}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))] : !V, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> y">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{sparse matrices are stored with their rows blocked over the grid and their columns whole}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !V, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!R = !dist.tensor<8xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !R, %b: !B, %c: !V) {
  // expected-error @+1 {{the output's rows must be blocked like the matrix's}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !R, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!C = !dist.tensor<8xf64, #dist.layout<@m, "x -> x" cyclic>>
func.func @f(%a: !V, %b: !B, %c: !C) {
  // expected-error @+1 {{the dense operand's rows must be blocked over the grid or replicated}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !V, !B, !C
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!M = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!N = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> y">>
func.func @f(%a: !M, %b: !B, %c: !N) {
  // expected-error @+1 {{the columns of the dense operand must not be partitioned}}
  dist.compute "A(i,k) = B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !M, !B, !N
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{loop 'jo' distributes a column or reduction variable; sparse products distribute the rows ('i') or the positions of the matrix (fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4)))}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({j}, {jo}, {ji}, Grid(4)), reorder({jo, i, ji})] : !V, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!M = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !M, %b: !B, %c: !M) {
  // expected-error @+1 {{the leaf of a sparse product is compiled by the sparsifier; substitute(..., gemm) does not apply}}
  dist.compute "A(i,k) = B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)), substitute({ii, j, k}, gemm)] : !M, !B, !M
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f() {
  %b = dist.alloc : !B
  // expected-error @+1 {{banded(4): the band width must be odd and at least 1}}
  dist.generate %b banded(4) seed 1 : !B
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f() {
  %b = dist.alloc : !B
  // expected-error @+1 {{a rmat matrix is square; the tensor is 8x6}}
  dist.generate %b rmat(4) seed 1 : !B
  return
}

// -----

dist.grid @m [4]
!D = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%d: !D) {
  // expected-error @+1 {{operand #0 must be sparse distributed tensor}}
  dist.generate %d uniform(2) seed 1 : !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f() {
  %b = dist.alloc : !B
  // expected-error @+1 {{a sparse tensor is read from a MatrixMarket (.mtx), Harwell-Boeing (.rua, .rsa, .rra, .pua, .psa, .pra) or FROSTT (.tns) file; 'b.dtensor' has none of these extensions}}
  dist.load %b from "b.dtensor" : !B
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%h: !dist.sparse_tile) {
  // expected-error @+1 {{the positions must be a memref<?xi32>, got 'memref<?xindex>'}}
  %p, %c, %v, %n = dist.sparse_part %h all of !B : !dist.sparse_tile -> memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}

// -----

dist.grid @m [4]
!D = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f() {
  // expected-error @+1 {{expects a sparse tensor type}}
  %h = dist.sparse_new : !dist.sparse_tile of !D
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %x: memref<?xf64>, %n: index) {
  // expected-error @+1 {{the ghost buffer's element type 'f32' differs from the operand's 'f64'}}
  %g = dist.sparse_exchange_begin %h, %x ghosts %n cols 1 : !dist.sparse_tile, memref<?xf64> -> memref<?xf32>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %x: memref<?xf64>, %n: index) {
  // expected-error @+1 {{the shared operand must be a memref<?xf64>}}
  %w, %s = dist.sparse_share_x %h, %x rows %n cols 1 : !dist.sparse_tile, memref<?xf64> -> memref<8xf64>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %x: memref<?xf64>, %n: index) {
  // expected-error @+1 {{cols must be at least 1, got 0}}
  %w, %s = dist.sparse_share_x %h, %x rows %n cols 0 : !dist.sparse_tile, memref<?xf64> -> memref<?xf64>
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%b: !B) {
  // expected-error @+1 {{a sparse tensor is written as a MatrixMarket file; 'b.rua' does not end in .mtx}}
  dist.store %b to "b.rua" : !B
  return
}

// -----

// A constant factor or a sign is rejected, not dropped (found by the
// property test).
dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!a = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%a: !a, %b: !B, %c: !a) {
  // expected-error @+1 {{without constant factors or signs}}
  dist.compute "a(i) = 2 * B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !a, !B, !a
  return
}

// -----

dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!a = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%a: !a, %b: !B, %c: !a) {
  // expected-error @+1 {{without constant factors or signs}}
  dist.compute "a(i) = -B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !a, !B, !a
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), crdWidth = 32}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%h: !dist.sparse_tile) {
  // expected-error @+1 {{the rows must be a memref<?xi32>, got 'memref<?xi64>'}}
  %r, %p, %n = dist.sparse_offdiag_rows %h of !B : !dist.sparse_tile -> memref<?xi64>, memref<?xindex>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %x: memref<?xf64>, %y: memref<?xf32>) {
  // expected-error @+1 {{the output's element type 'f32' differs from the operand's 'f64'}}
  dist.sparse_mul_add %h, %x, %y cols 1 : !dist.sparse_tile, memref<?xf64>, memref<?xf32>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %x: memref<?xi32>, %y: memref<?xi32>) {
  // expected-error @+1 {{multiplies f32 or f64, not 'i32'}}
  dist.sparse_mul_add %h, %x, %y cols 2 whole : !dist.sparse_tile, memref<?xi32>, memref<?xi32>
  return
}

// -----

// pos over the dense operand, and positions of something other than the
// fused rows and columns.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{sparse computation cannot be lowered: pos(f, fp, c) needs a sparse tensor; 'c' is dense}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, c), distribute({fp}, {fo}, {fi}, Grid(4))] : !V, !B, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{sparse computation cannot be lowered: loop 'io' distributes positions other than those of 'B''s fused rows and columns; a non-zero partition is scheduled fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [pos(i, ip, B), distribute({ip}, {io}, {ii}, Grid(4))] : !V, !B, !V
  return
}

// -----

// pos in a statement without sparse tensors.
dist.grid @m [4]
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
!M = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !V, %b: !M, %c: !V) {
  // expected-error @+1 {{schedule cannot be lowered: pos(...) iterates over the stored entries of a sparse tensor, and this statement has none}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))] : !V, !M, !V
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !V, %b: !B, %c: !V) {
  // expected-error @+1 {{'Q' is not a tensor of the statement}}
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, Q), distribute({fp}, {fo}, {fi}, Grid(4))] : !V, !B, !V
  return
}

// -----

// The non-zero partition's ops check their buffers.
func.func @f(%h: !dist.sparse_tile, %p: memref<?xf32>, %y: memref<?xf64>) {
  // expected-error @+1 {{the partial sums ('f32') and the output ('f64') must have one element type}}
  dist.sparse_reduce_rows %h, %p, %y cols 1 : !dist.sparse_tile, memref<?xf32>, memref<?xf64>
  return
}

// -----

// The entries partition's ops (order-3 tensors) check theirs.
func.func @f(%h: !dist.sparse_tile, %p: memref<?xf64>, %y: memref<?xf32>) {
  // expected-error @+1 {{the partial sums ('f64') and the output ('f32') must have one element type}}
  dist.sparse_reduce_fibers %h, %p into %y : !dist.sparse_tile, memref<?xf64>, memref<?xf32>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %p: memref<?xf64>, %y: memref<?xf64, strided<[2]>>) {
  // expected-error @+1 {{the output must be contiguous, got 'memref<?xf64, strided<[2]>>'}}
  dist.sparse_reduce_fibers %h, %p into %y : !dist.sparse_tile, memref<?xf64>, memref<?xf64, strided<[2]>>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %n: index) {
  // expected-error @+1 {{the partial sums must be a memref<?xf64>, got 'memref<8xf64>'}}
  %p = dist.sparse_fiber_partial %h fibers %n : !dist.sparse_tile -> memref<8xf64>
  return
}

// -----

func.func @f(%h: !dist.sparse_tile, %n: index) {
  // expected-error @+1 {{cols must be at least 1, got 0}}
  %p = dist.sparse_partial %h rows %n cols 0 : !dist.sparse_tile -> memref<?xf64>
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), crdWidth = 32}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
func.func @f(%h: !dist.sparse_tile) {
  // expected-error @+1 {{the row targets must be a memref<?xi32>, got 'memref<?xi64>'}}
  %t, %b, %e, %n = dist.sparse_row_targets %h diag of !B : !dist.sparse_tile -> memref<?xi64>
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), crdWidth = 32}>
!B = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
func.func @f(%h: !dist.sparse_tile) {
  // expected-error @+1 {{the row ids must be a memref<?xi32>, got 'memref<?xindex>'}}
  %i, %f, %n = dist.sparse_local_rows %h of !B : !dist.sparse_tile -> memref<?xindex>
  return
}
