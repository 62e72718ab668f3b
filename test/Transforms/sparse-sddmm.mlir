// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// SDDMM A(i,j) = B(i,j) * C(i,k) * D(k,j) on the SPMD ops
// (lib/Transforms/SPMD/SparseSddmm.cpp): A takes B's pattern
// (dist.sparse_pattern_of, once per B's entries), then one leaf over the
// process's piece, with no communication (D replicated; C's rows blocked
// like B's, or replicated). The leaf is a linalg.generic with the
// sparsifier's sampled ("spy") semantics on A's piece assembled as DCSR,
// D read transposed, and a loop that multiplies the sums by B's values.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!S = !dist.tensor<10x12xf64, #dist.layout<@m, "xy -> x">, #CSR>
!C = !dist.tensor<10x5xf64, #dist.layout<@m, "xy -> x">>
!D = !dist.tensor<5x12xf64, #dist.layout<@m, "xy -> *">>

// CHECK-LABEL: func.func @sddmm(
// CHECK-SAME: %[[A:.*]]: !dist.sparse_tile, %[[B:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>, %[[D:.*]]: memref<?xf64>)
// CHECK-NOT: dist.zero_tile
// CHECK: dist.sparse_pattern_of %[[A]] from %[[B]]
// CHECK: %{{.*}}, %{{.*}}, %[[N:.*]] = dist.sparse_local_rows %[[B]]
// CHECK: %[[AP:.*]], %[[AC:.*]], %[[AV:.*]], %{{.*}} = dist.sparse_part %[[A]] all
// CHECK: %{{.*}}, %{{.*}}, %[[BV:.*]], %{{.*}} = dist.sparse_part %[[B]] all
// C blocked: the block's 3 rows (ceil(10 / 4)), numbered from 0.
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: call @[[LEAF:__dist_sddmm_3x12_k5_p32_c32_f64]](%[[AP]], %[[AC]], %[[AV]], %[[BV]], %[[N]], %[[Z]], %[[C]], %[[D]])
// CHECK-NOT: dist.sparse_exchange
func.func @sddmm(%a: !S, %b: !S, %c: !C, %d: !D) {
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !S, !S, !C, !D
  return
}

// CHECK: func.func private @[[LEAF]](%[[P:.*]]: memref<?xi32>, %[[CR:.*]]: memref<?xi32>, %[[V:.*]]: memref<?xf64>, %[[BVAL:.*]]: memref<?xf64>, %[[NR:.*]]: index, %[[BASE:.*]]: index, %[[CT:.*]]: memref<?xf64>, %[[DT:[^:]*]]: memref<?xf64>) attributes {dist.reassociate}
// The row list base .. base + n - 1, level 0 of the DCSR piece.
// CHECK: %[[ROWS:.*]] = memref.alloc(%[[NR]]) : memref<?xi32>
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %[[BASE]]
// CHECK: sparse_tensor.assemble {{.*}} to tensor<3x12xf64, #sparse{{[0-9]*}}>
// CHECK: %[[T:.*]] = memref.alloc() : memref<12x5xf64>
// CHECK: linalg.transpose ins(%{{.*}} : memref<5x12xf64>) outs(%[[T]] : memref<12x5xf64>) permutation = [1, 0]
// CHECK: %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: sparse_tensor.unary
// CHECK: present = {
// CHECK: arith.mulf
// CHECK: absent = {
// CHECK: sparse_tensor.reduce
// CHECK: arith.addf
// CHECK: %[[SUMS:.*]] = sparse_tensor.values %[[G]]
// CHECK: scf.for %[[PP:.*]] =
// CHECK: memref.load %[[SUMS]][%[[PP]]]
// CHECK: memref.load %[[BVAL]][%[[PP]]]
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[V]][%[[PP]]]
// CHECK: memref.dealloc %[[T]]
// CHECK: memref.dealloc %[[ROWS]]

// -----

// C replicated: the whole of C, the piece's rows numbered from its first
// (global) row; under a non-zero partition the same.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 64, crdWidth = 64}>
!S = !dist.tensor<10x12xf32, #dist.layout<@m, "xy -> x~">, #CSR>
!C = !dist.tensor<10x5xf32, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<5x12xf32, #dist.layout<@m, "xy -> *">>

// CHECK-LABEL: func.func @sddmm_nz(
// CHECK: dist.sparse_pattern_of
// CHECK: %{{.*}}, %[[FIRST:.*]], %[[N:.*]] = dist.sparse_local_rows
// CHECK: call @__dist_sddmm_10x12_k5_p64_c64_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[FIRST]], %{{.*}}, %{{.*}})
// CHECK-NOT: dist.sparse_reduce_rows
func.func @sddmm_nz(%a: !S, %b: !S, %c: !C, %d: !D) {
  dist.compute "A(i,j) = B(i,j) * C(i,k) * D(k,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))]
      : !S, !S, !C, !D
  return
}
