// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// A sparse product whose matrix is stored with SpDISTAL's non-zero
// partition (coordinate fusion, "xy -> x~"; lib/Transforms/SPMD/
// SparseCompute.cpp): a process's entries span rows that may be shared
// with its neighbours, so every part is multiplied as compressed rows
// (DCSR, over the row ids of dist.sparse_local_rows) into the partial sums
// of its rows, and dist.sparse_reduce_rows adds them into the output's
// owners; the rows of the process's own output block go straight into it
// (dist.sparse_row_targets). With X blocked, on one node (as with rows
// blocked) the ALL part reads the whole of X in node-shared memory
// (dist.sparse_share_x); otherwise the exchange plan moves X.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<10x10xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @spmv(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[H:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// CHECK: dist.zero_tile %[[A]]
// CHECK: %{{.*}}, %{{.*}}, %[[NR:.*]] = dist.sparse_local_rows %[[H]] of {{.*}} -> memref<?xi32>
// CHECK: %[[YP:.*]] = dist.sparse_partial %[[H]] rows %[[NR]] cols 1 foreign : !dist.sparse_tile -> memref<?xf64>
// CHECK: %[[W:.*]], %[[SH:.*]] = dist.sparse_share_x %[[H]], %[[C]] rows %{{.*}} cols 1
// CHECK-NEXT: scf.if %[[SH]] {
// CHECK-NEXT: %[[AP:.*]], %[[AC:.*]], %[[AV:.*]], %{{.*}} = dist.sparse_part %[[H]] all
// CHECK-NEXT: arith.constant 10 : index
// CHECK-NEXT: %[[AT:.*]], %[[AB:.*]], %[[AE:.*]], %[[AN:.*]] = dist.sparse_row_targets %[[H]] all
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: call @[[ALL:__dist_sparse_spmv_10x10_k0_p32_c32_f64_dcsr]](%[[AP]], %[[AC]], %[[AV]], %[[W]], %{{.*}}, %[[YP]], %[[AT]], %{{.*}}, %[[AB]])
// CHECK-NEXT: call @[[ALL]](%[[AP]], %[[AC]], %[[AV]], %[[W]], %{{.*}}, %[[A]], %[[AT]], %[[AB]], %[[AE]])
// CHECK-NEXT: call @[[ALL]](%[[AP]], %[[AC]], %[[AV]], %[[W]], %{{.*}}, %[[YP]], %[[AT]], %[[AE]], %[[AN]])
// CHECK-NEXT: } else {
// CHECK-NEXT: dist.sparse_plan %[[H]]
// CHECK: %[[OP:.*]], %[[OC:.*]], %[[OV:.*]], %[[ON:.*]] = dist.sparse_part %[[H]] offdiag
// CHECK: %[[G:.*]] = dist.sparse_exchange_begin %[[H]], %[[C]] ghosts %[[ON]] cols 1
// CHECK: %[[DP:.*]], %[[DC:.*]], %[[DV:.*]], %[[DN:.*]] = dist.sparse_part %[[H]] diag
// The diag part in three runs: the rows before the process's own output
// block into the partial sums, its own rows straight into a, the rows
// after it into the partial sums.
// CHECK: %[[T:.*]], %[[OB:.*]], %[[OE:.*]], %[[TN:.*]] = dist.sparse_row_targets %[[H]] diag of {{.*}} -> memref<?xi32>
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: call @[[DIAG:__dist_sparse_spmv_10x3_k0_p32_c32_f64_dcsr]](%[[DP]], %[[DC]], %[[DV]], %[[C]], %[[DN]], %[[YP]], %[[T]], %[[Z]], %[[OB]])
// CHECK: call @[[DIAG]](%[[DP]], %[[DC]], %[[DV]], %[[C]], %[[DN]], %[[A]], %[[T]], %[[OB]], %[[OE]])
// CHECK: call @[[DIAG]](%[[DP]], %[[DC]], %[[DV]], %[[C]], %[[DN]], %[[YP]], %[[T]], %[[OE]], %[[TN]])
// CHECK: dist.sparse_exchange_end %[[H]]
// CHECK: %[[RR:.*]], %[[RP:.*]], %[[RN:.*]] = dist.sparse_offdiag_rows %[[H]]
// CHECK: %[[U:.*]], %[[UB:.*]], %[[UE:.*]], %[[UN:.*]] = dist.sparse_row_targets %[[H]] offdiag
// CHECK: call @[[ALL]](%[[RP]], %[[OC]], %[[OV]], %[[G]], %[[ON]], %[[YP]], %[[U]], %{{.*}}, %[[UB]])
// CHECK: call @[[ALL]](%[[RP]], %[[OC]], %[[OV]], %[[G]], %[[ON]], %[[A]], %[[U]], %[[UB]], %[[UE]])
// CHECK: call @[[ALL]](%[[RP]], %[[OC]], %[[OV]], %[[G]], %[[ON]], %[[YP]], %[[U]], %[[UE]], %[[UN]])
// CHECK-NEXT: }
// CHECK-NEXT: dist.sparse_reduce_rows %[[H]], %[[YP]], %[[A]] cols 1 foreign
// CHECK-NEXT: return
func.func @spmv(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, B),
                distribute({fp}, {fo}, {fi}, Grid(4)),
                communicate({a, B, c}, fo)]
      : !a, !B, !c
  return
}

// The leaves: compressed rows whose ids are bounded by the matrix's rows
// (ALL and offdiag share one: global columns).
// CHECK: func.func private @[[ALL]](
// CHECK: sparse_tensor.assemble {{.*}} to tensor<10x10xf64, #sparse{{[0-9]*}}>
// CHECK: func.func private @[[DIAG]](
// CHECK: sparse_tensor.assemble {{.*}} to tensor<10x3xf64, #sparse{{[0-9]*}}>

// -----

// SpMM with C replicated: the ALL part (global columns) as compressed rows
// into the partial sums; the 2-D view of those has as many rows as the
// buffer holds.
dist.grid @m [2]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>
!A = !dist.tensor<5x4xf32, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<5x6xf32, #dist.layout<@m, "xy -> x" nonzeros>, #CSR>
!C = !dist.tensor<6x4xf32, #dist.layout<@m, "xy -> *">>

// CHECK-LABEL: func.func @spmm(
// CHECK-NOT: dist.zero_tile
// CHECK: %{{.*}}, %{{.*}}, %[[NR:.*]] = dist.sparse_local_rows %[[H:.*]] of {{.*}} -> memref<?xindex>
// CHECK: %[[YP:.*]] = dist.sparse_partial %[[H]] rows %[[NR]] cols 4 foreign : !dist.sparse_tile -> memref<?xf32>
// CHECK-NOT: dist.sparse_plan
// CHECK: %[[P:.*]], %[[Cr:.*]], %[[V:.*]], %{{.*}} = dist.sparse_part %[[H]] all
// CHECK: %[[T:.*]], %[[OB:.*]], %[[OE:.*]], %[[TN:.*]] = dist.sparse_row_targets %[[H]] all
// CHECK: call @[[LEAF:__dist_sparse_spmm_5x6_k4_p0_c0_f32_dcsr]](%[[P]], %[[Cr]], %[[V]], %{{.*}}, %{{.*}}, %[[YP]], %[[T]], %{{.*}}, %[[OB]])
// CHECK: call @[[LEAF]](
// CHECK: call @[[LEAF]](
// CHECK: dist.sparse_reduce_rows %[[H]], %[[YP]], %{{.*}} cols 4 foreign
// CHECK: func.func private @[[LEAF]](
// CHECK: sparse_tensor.assemble {{.*}} to tensor<5x6xf32, #sparse{{[0-9]*}}>
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
// CHECK: memref.dim
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1] : memref<?xf32> to memref<?x4xf32>
func.func @spmm(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,k) += B(i,j) * C(j,k)" (A = %a, B = %b, C = %c)
      schedule [reorder({i, j, k}), fuse(i, j, f), pos(f, fp, B),
                distribute({fp}, {fo}, {fi}, Grid(2))]
      : !A, !B, !C
  return
}

// -----

// Mixed partitions (SpDISTAL): B stored with its rows blocked and scheduled
// by positions computes on B's entries moved to the non-zero partition
// (made once per entries by the runtime); the parts are those of the
// non-zero partition.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<10x10xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<10xf64, #dist.layout<@m, "x -> *">>

// CHECK-LABEL: func.func @rows_as_nonzeros(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[H:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// CHECK: %[[N:.*]] = dist.sparse_in_partition %[[H]] nonzeros : !dist.sparse_tile
// CHECK: dist.sparse_local_rows %[[N]] of !dist.tensor<10x10xf64, #dist.layout<@m, [(0) nonzeros, ()]>
// CHECK: dist.sparse_part %[[N]] all
// CHECK: dist.sparse_row_targets %[[N]] all
// CHECK: dist.sparse_reduce_rows %[[N]]
func.func @rows_as_nonzeros(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), pos(f, fp, B),
                distribute({fp}, {fo}, {fi}, Grid(4))]
      : !a, !B, !c
  return
}

// -----

// And the other way: stored by non-zeros, scheduled by rows.
dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!a = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>
!B = !dist.tensor<10x10xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<10xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @nonzeros_as_rows(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[H:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// CHECK: %[[R:.*]] = dist.sparse_in_partition %[[H]] rows : !dist.sparse_tile
// CHECK: dist.sparse_share_x %[[R]], %[[C]]
// CHECK: dist.sparse_plan %[[R]]
// CHECK-NOT: dist.sparse_reduce_rows
func.func @nonzeros_as_rows(%a: !a, %b: !B, %c: !c) {
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !a, !B, !c
  return
}
