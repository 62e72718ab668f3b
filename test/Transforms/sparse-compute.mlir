// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// A sparse product on the SPMD ops (lib/Transforms/SPMD/SparseCompute.cpp):
// with the dense operand blocked, either (every process on one node, which
// dist.sparse_share_x decides at run time) the whole operand in shared
// memory and one product with the whole piece, or the exchange plan and
// MPIAIJ's overlap
// (start the exchange, multiply the diag part, wait, multiply the offdiag
// part into the ghosts); with it replicated, one product with the whole
// piece. Each local product calls a leaf: a linalg.generic on a CSR
// tensor assembled from the part's buffers, for the sparsifier.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<10x10xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @spmv(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[H:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// '=': no zero_tile; the first leaf (ALL, or DIAG) covers every row of the
// block and sets it (`_set`, dist.overwrite); the offdiag part adds to it.
// CHECK-NOT: dist.zero_tile
// On one node, the whole of C in shared memory and one product over the
// ALL part (global columns); otherwise the exchange plan with overlap.
// CHECK: %[[W:.*]], %[[SH:.*]] = dist.sparse_share_x %[[H]], %[[C]] rows %{{.*}} cols 1 : !dist.sparse_tile, memref<?xf64> -> memref<?xf64>
// CHECK-NEXT: scf.if %[[SH]] {
// CHECK-NEXT: %[[AP:.*]], %[[AC:.*]], %[[AV:.*]], %{{.*}} = dist.sparse_part %[[H]] all
// CHECK: call @[[ALL:__dist_sparse_spmv_3x10_k0_p32_c32_f64_set]](%[[AP]], %[[AC]], %[[AV]], %[[W]], %{{.*}}, %[[A]])
// CHECK-NEXT: } else {
// CHECK-NEXT: dist.sparse_plan %[[H]]
// CHECK: %[[OP:.*]], %[[OC:.*]], %[[OV:.*]], %[[ON:.*]] = dist.sparse_part %[[H]] offdiag
// CHECK: %[[G:.*]] = dist.sparse_exchange_begin %[[H]], %[[C]] ghosts %[[ON]] cols 1
// CHECK: %[[DP:.*]], %[[DC:.*]], %[[DV:.*]], %[[DN:.*]] = dist.sparse_part %[[H]] diag
// CHECK: call @[[DIAG:__dist_sparse_spmv_3x3_k0_p32_c32_f64_set]](%[[DP]], %[[DC]], %[[DV]], %[[C]], %[[DN]], %[[A]])
// CHECK: dist.sparse_exchange_end %[[H]]
// The offdiag product runs over the rows that hold ghosts (DCSR).
// CHECK: %[[RR:.*]], %[[RP:.*]], %[[RN:.*]] = dist.sparse_offdiag_rows %[[H]] of {{.*}} -> memref<?xi32>, memref<?xi32>
// CHECK: call @[[OFF:__dist_sparse_spmv_3x10_k0_p32_c32_f64_dcsr]](%[[RP]], %[[OC]], %[[OV]], %[[G]], %[[ON]], %[[A]], %[[RR]], %{{.*}}, %[[RN]])
func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)), communicate({a, B, c}, io)]
      : !a, !B, !c
  return
}

// The main function: a sparse dist.alloc is the runtime's matrix, freed at
// the end of its block; dist.generate and dist.load fill it.
// CHECK-LABEL: func.func @main()
// CHECK: %[[M:.*]] = dist.sparse_new : !dist.sparse_tile of !dist.tensor<10x10xf64
// CHECK: dist.sparse_generate %[[M]] banded(3) seed 1
// CHECK: dist.sparse_read %[[M]] from "b.mtx"
// CHECK: dist.sparse_write %[[M]] to "out.mtx"
// CHECK: dist.sparse_free %[[M]]
// CHECK-NEXT: return
func.func @main() -> i32 {
  %b = dist.alloc : !B
  dist.generate %b banded(3) seed 1 : !B
  dist.load %b from "b.mtx" : !B
  dist.store %b to "out.mtx" : !B
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// The leaves: CSR of 3 rows (ceil(10 / 4)) by the part's column extent (3
// for diag: the process's block of c; 10 for offdiag: an upper bound of
// the ghost numbers), accumulating into the output's tile, marked for
// dist-reassociate-leaves and dist-vectorize-leaf-gathers; the first leaves
// also for dist-overwrite-leaves (argument 5, the output, is set), the
// offdiag leaf adds. Every leaf's output (argument 5) is marked for
// dist-restrict-leaves.
// CHECK: func.func private @[[DIAG]](%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xf64>, %{{.*}}: memref<?xf64>, %{{.*}}: index, %[[Y:.*]]: memref<?xf64>) attributes {dist.overwrite = 5 : i64, dist.reassociate, dist.restrict = {args = array<i64: 5>, type = (memref<?xi32>, memref<?xi32>, memref<?xf64>, memref<?xf64>, index, memref<?xf64>) -> ()}, dist.vectorize_gathers}
// CHECK: sparse_tensor.assemble {{.*}} to tensor<3x3xf64, #sparse>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: bufferization.materialize_in_destination {{.*}} in restrict writable %[[Y]]
// CHECK: func.func private @[[OFF]](
// CHECK-NOT: dist.overwrite
// CHECK-SAME: attributes {dist.reassociate, dist.restrict = {args = array<i64: 5>
// CHECK-SAME: dist.vectorize_gathers}
// CHECK: memref.alloca() : memref<2xi32>
// CHECK: sparse_tensor.assemble {{.*}} to tensor<3x10xf64, #sparse1>

// -----

// SpMM with C replicated: no plan, no exchange; the whole piece (global
// columns) times C, through 2-D views of the flat tiles.
dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!A = !dist.tensor<5x4xf32, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<5x6xf32, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<6x4xf32, #dist.layout<@m, "xy -> *">>

// CHECK-LABEL: func.func @spmm(
// CHECK-NOT: dist.zero_tile
// CHECK-NOT: dist.sparse_plan
// CHECK: %[[P:.*]], %[[Cr:.*]], %[[V:.*]], %[[N:.*]] = dist.sparse_part %{{.*}} all of {{.*}} -> memref<?xindex>, memref<?xindex>, memref<?xf32>
// CHECK-NOT: dist.sparse_exchange_begin
// CHECK: call @[[LEAF:__dist_sparse_spmm_3x6_k4_p0_c0_f32]](%[[P]], %[[Cr]], %[[V]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: func.func private @[[LEAF]](
// CHECK: sparse_tensor.assemble {{.*}} to tensor<3x6xf32, #sparse>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [3, 4], strides: [4, 1] : memref<?xf32> to memref<3x4xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
func.func @spmm(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,k) += B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !A, !B, !C
  return
}
