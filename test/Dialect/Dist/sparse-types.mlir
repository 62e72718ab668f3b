// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// Sparse distributed tensors (issue 14): an upstream #sparse_tensor.encoding
// gives each process's local format, the layout a universe partition
// (coordinate ranges). They parse, print and verify; no op computes with
// them yet (sparse-types-invalid.mlir).

dist.grid @m [4]
dist.grid @g [2, 2]

// CHECK-DAG: #[[CSR:.*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32, crdWidth = 32 }>
// CHECK-DAG: #[[CSC:.*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d1 : dense, d0 : compressed) }>
// CHECK-DAG: #[[DCSR:.*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed), posWidth = 64, crdWidth = 64 }>
// CHECK-DAG: #[[COO:.*]] = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>
// CHECK-DAG: #[[CSF:.*]] = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed, d1 : compressed, d2 : compressed) }>

!CSR = !dist.tensor<1000x1000xf64, #dist.layout<@m, "xy -> x">,
    #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                             posWidth = 32, crdWidth = 32}>>
!CSC = !dist.tensor<1000x800xf32, #dist.layout<@m, "xy -> y">,
    #sparse_tensor.encoding<{map = (i, j) -> (j : dense, i : compressed)}>>
// A universe partition of a compressed level: rows of a DCSR matrix by
// coordinate range, columns by coordinate range over the second grid axis.
!DCSR = !dist.tensor<64x64xf64, #dist.layout<@g, "xy -> xy">,
    #sparse_tensor.encoding<{map = (i, j) -> (i : compressed, j : compressed),
                             posWidth = 64, crdWidth = 64}>>
!COO = !dist.tensor<100x100xi64, #dist.layout<@m, "xy -> *">,
    #sparse_tensor.encoding<{map = (i, j) -> (i : compressed(nonunique), j : singleton)}>>
!CSF = !dist.tensor<10x20x30xf64, #dist.layout<@m, "xyz -> x">,
    #sparse_tensor.encoding<{map = (i, j, k) -> (i : compressed, j : compressed, k : compressed)}>>

// CHECK-LABEL: func @formats
// CHECK-SAME: !dist.tensor<1000x1000xf64, #dist.layout<@m, [(0) blocked, ()]>, #[[CSR]]>
// CHECK-SAME: !dist.tensor<1000x800xf32, #dist.layout<@m, [(), (0) blocked]>, #[[CSC]]>
// CHECK-SAME: !dist.tensor<64x64xf64, #dist.layout<@g, [(0) blocked, (1) blocked]>, #[[DCSR]]>
// CHECK-SAME: !dist.tensor<100x100xi64, #dist.layout<@m, [(), ()]>, #[[COO]]>
// CHECK-SAME: !dist.tensor<10x20x30xf64, #dist.layout<@m, [(0) blocked, (), ()]>, #[[CSF]]>
func.func @formats(%a: !CSR, %b: !CSC, %c: !DCSR, %d: !COO, %e: !CSF) {
  return
}

// SpDISTAL's non-zero partition (coordinate fusion, B_xy -(xy->f)-> |->_f~ M):
// the string's '~', the kind `nonzeros` and the canonical form are one
// attribute.
// CHECK-LABEL: func @nonzeros
// CHECK-SAME: !dist.tensor<1000x1000xf64, #dist.layout<@m, [(0) nonzeros, ()]>, #[[CSR]]>
// CHECK-SAME: !dist.tensor<1000x1000xf64, #dist.layout<@m, [(0) nonzeros, ()]>, #[[CSR]]>
// CHECK-SAME: !dist.tensor<1000x1000xf64, #dist.layout<@m, [(0) nonzeros, ()]>, #[[CSR]]>
#NZ = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed),
                               posWidth = 32, crdWidth = 32}>
func.func @nonzeros(
    %a: !dist.tensor<1000x1000xf64, #dist.layout<@m, "xy -> x~">, #NZ>,
    %b: !dist.tensor<1000x1000xf64, #dist.layout<@m, "xy -> x" nonzeros>, #NZ>,
    %c: !dist.tensor<1000x1000xf64, #dist.layout<@m, [(0) nonzeros, ()]>, #NZ>) {
  return
}
