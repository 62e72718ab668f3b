// RUN: dist-opt %s -split-input-file -verify-diagnostics
// What the verifier rejects about SDDMM, A(i,j) = B(i,j) * C(i,k) * D(k,j),
// and sums of sparse matrices (at the end)
// (docs/sparse.md): A must be sparse of B's type, '=' only, D replicated,
// C blocked like B's rows or replicated (replicated under a non-zero
// partition), no mixed partitions, the access pattern exactly SDDMM's.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!M = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !M, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{sparse computation cannot be lowered: an SDDMM's output has the matrix's pattern: give 'A' the type of 'B' (sparse)}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !M, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
#CSR32 = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!S32 = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR32>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S32, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{an SDDMM's output gets the matrix's pattern, so it must have the matrix's type}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S32, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{an SDDMM's sparse output is assigned ('='): '+=' would add B's pattern to the output's own}}
  dist.compute "A(i,j) += B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> y">>
func.func @f(%a: !S, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{'D' (D in A(i,j) = B(i,j) * C(i,k) * D(k,j)) must be replicated ("xy -> *")}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{'C' (C in A(i,j) = B(i,j) * C(i,k) * D(k,j)) must be replicated ("xy -> *") when the matrix is split by non-zeros}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))] : !S, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{an SDDMM runs in the partition its matrix is stored in: 'B' is stored with its rows blocked and scheduled by non-zeros}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))] : !S, !S, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!Ct = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !Ct, %d: !D) {
  // expected-error @+1 {{SDDMM reads A(i,j) = B(i,j) * C(i,k) * D(k,j) with B and A sparse, C and D dense}}
  dist.compute "A(i,j) = B(i,j) * C(k,i) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !Ct, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!D = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !S, %d: !D) {
  // expected-error @+1 {{exactly one factor of an SDDMM is sparse}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !S, !D
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<8x3xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<3x8xf64, #dist.layout<@m, "xy -> *">>
func.func @f(%a: !S, %b: !S, %c: !C, %d: !D) {
  // expected-error @+1 {{schedule: substitute({ii, j, k}, gemm): gemm needs a statement of the form Out = In1 * In2}}
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4)), substitute({ii, j, k}, gemm)] : !S, !S, !C, !D
  return
}

// -----

// Sums of sparse matrices (SpAdd): all sparse of one type, rows blocked,
// '=' only.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!M = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !M, %b: !S, %c: !S) {
  // expected-error @+1 {{the output of a sum of sparse matrices is sparse (the union of the terms' patterns): give 'A' the terms' type}}
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !M, !S, !S
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!M = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !S, %b: !S, %c: !M) {
  // expected-error @+1 {{a sum of sparse matrices reads A(i,j) = B(i,j) + C(i,j) [+ D(i,j)] with every tensor sparse; 'C' is dense}}
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !M
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%a: !S, %b: !S, %c: !S) {
  // expected-error @+1 {{a sum of sparse matrices is assigned ('='): add the output as a term instead of '+='}}
  dist.compute "A(i,j) += B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !S
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x~">, #CSR>
func.func @f(%a: !S, %b: !S, %c: !S) {
  // expected-error @+1 {{a sum of sparse matrices is computed with their rows blocked ("xy -> x"): its output's pattern is the union of the terms', which one term's non-zero partition cannot split (SpDISTAL)}}
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))] : !S, !S, !S
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
#CSR64 = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), crdWidth = 64}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
!S64 = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR64>
func.func @f(%a: !S, %b: !S, %c: !S64) {
  // expected-error @+1 {{the terms of a sum of sparse matrices must have the output's type: 'C' is}}
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !S64
  return
}

// -----

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">, #CSR>
func.func @f(%a: !S, %b: !S, %c: !S) {
  // expected-error @+1 {{every term indexed as the output (C is not)}}
  dist.compute "A(i,j) = B(i,j) + C(j,i)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !S, !S, !S
  return
}
