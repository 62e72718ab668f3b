// RUN: dist-opt %s -split-input-file -verify-diagnostics
// What the verifier rejects about sparse tensors of order 3 and their
// kernels, SpTTV A(i,j) = B(i,j,k) * c(k) and SpMTTKRP A(i,l) =
// B(i,j,k) * C(j,l) * D(k,l) (docs/sparse.md): the storage (CSF with a
// dense root, rows blocked or fibers split by non-zeros), A of SpTTV a
// CSR matrix matching B, '=' for SpTTV, the dense operands replicated, no
// mixed partitions, the access patterns exactly the kernels'; and which
// generators, files and stores apply (.tns only for order 3).

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!M = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !M, %b: !B, %c: !c) {
  // expected-error @+1 {{sparse computation cannot be lowered: an SpTTV's output has the tensor's (i, j) fibers as its pattern: SpTTV reads A(i,j) = B(i,j,k) * c(k) with B sparse of order 3, A sparse, c dense}}
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !M, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !A, %b: !B, %c: !c) {
  // expected-error @+1 {{an SpTTV's sparse output is assigned ('='): its pattern is the tensor's fibers}}
  dist.compute "A(i,j) += B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !A, %b: !B, %c: !c) {
  // expected-error @+1 {{'c' (c in A(i,j) = B(i,j,k) * c(k)) must be replicated ("x -> *")}}
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !A, %b: !B, %c: !c) {
  // expected-error @+1 {{an SpTTV's output gets the tensor's (i, j) fibers, so it is a CSR matrix of the tensor's first two extents, element type, index widths, grid and partition}}
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x~">, #CSF>
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !A, %b: !B, %c: !c) {
  // expected-error @+1 {{an SpTTV runs in the partition its tensor is stored in, or on its entries split equally (all three levels fused): 'B' is stored by fibers and scheduled by rows}}
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : compressed, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{tensors of order 3 are stored as CSF with a dense root (map = (i, j, k) -> (i : dense, j : compressed, k : compressed)) only}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{'C' (C in A(i,l) = B(i,j,k) * C(j,l) * D(k,l)) must be replicated ("xy -> *")}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<3x5xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{SpMTTKRP reads A(i,l) = B(i,j,k) * C(j,l) * D(k,l) with B sparse of order 3, A, C and D dense}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(l,k)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> *">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{the output's rows must be blocked like the tensor's ("xy -> x")}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{the kernels on sparse tensors of order 3 are SpTTV, A(i,j) = B(i,j,k) * c(k), and SpMTTKRP, A(i,l) = B(i,j,k) * C(j,l) * D(k,l), without constant factors or signs}}
  dist.compute "A(i,l) = 2.0 * B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> y">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{sparse tensors of order 3 are stored with their rows blocked over the grid (#dist.layout<@m, "xyz -> x">) or their (i, j) fibers split by non-zeros (#dist.layout<@m, "xyz -> x~">), the other dimensions whole}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x8x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
func.func @f(%b: !B) {
  // expected-error @+1 {{a tensor of order 3 is generated uniform(e) or rmat(e) (e * 8 coordinates, uniform or power-law); banded makes matrices}}
  dist.generate %b banded(3) seed 1 : !B
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x8x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
func.func @f(%b: !B) {
  // expected-error @+1 {{a sparse tensor of order 3 is read from a FROSTT (.tns) file; 'b.mtx' does not end in .tns}}
  dist.load %b from "b.mtx" : !B
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x8x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
func.func @f(%b: !B) {
  // expected-error @+1 {{a sparse tensor of order 3 is written as a FROSTT (.tns) file; 'b.mtx' does not end in .tns}}
  dist.store %b to "b.mtx" : !B
  return
}

// -----

// All three levels fused: SpTTV sums the partial sums of a split fiber into
// the output's fiber blocks, so B and A are stored by fibers.
dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<5xf64, #dist.layout<@m, "x -> *">>
func.func @f(%a: !A, %b: !B, %c: !c) {
  // expected-error @+1 {{an SpTTV over its entries split equally adds the partial sums of a fiber split between processes into the output's blocks of fibers: store 'B' and 'A' by fibers ("xyz -> x~" and "xy -> x~")}}
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), fuse(f, k, g), pos(g, gp, B), distribute({gp}, {go}, {gi}, Grid(4))] : !A, !B, !c
  return
}

// -----

// The positions of the three levels fused with l are not a partition of
// the tensor's entries.
dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed)}>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x3xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !A, %b: !B, %c: !C, %d: !D) {
  // expected-error @+1 {{loop 'ho' distributes positions other than those of 'B''s fused levels; a non-zero partition is scheduled fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4)) (or, all three levels fused, fuse(i, j, f), fuse(f, k, g), pos(g, gp, B), distribute({gp}, {go}, {gi}, Grid(4)))}}
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [reorder({i, j, k, l}), fuse(i, j, f), fuse(f, k, g), fuse(g, l, h), pos(h, hp, B), distribute({hp}, {ho}, {hi}, Grid(4))]
      : !A, !B, !C, !D
  return
}
