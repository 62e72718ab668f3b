// RUN: dist-opt %s --convert-dist-to-runtime | FileCheck %s
// The ops on sparse tiles become distrt_spmat_* calls on the matrix's
// pointer; the views the runtime hands out become memref descriptors over
// its storage (pos: ceil(rows / P) + 1 entries; crd and values: the part's
// entry count; the ghost buffer: ghosts x cols).

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32}>
!B = !dist.tensor<10x12xf32, #dist.layout<@m, "xy -> x">, #CSR>

// CHECK-LABEL: func.func @ops(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[W:.*]]: memref<10x12xf32>)
func.func @ops(%x: memref<?xf32>, %whole: memref<10x12xf32>) {
  // rows, cols, pos bits, crd bits (0: 64), dtype (f32: 0).
  // CHECK-DAG: %[[R:.*]] = llvm.mlir.constant(10 : i64)
  // CHECK-DAG: %[[Cc:.*]] = llvm.mlir.constant(12 : i64)
  // CHECK-DAG: %[[PB:.*]] = llvm.mlir.constant(32 : i64)
  // CHECK-DAG: %[[CB:.*]] = llvm.mlir.constant(64 : i64)
  // CHECK: %[[H:.*]] = llvm.call @distrt_spmat_create(%{{.*}}, %[[R]], %[[Cc]], %[[PB]], %[[CB]], %{{.*}}) : (!llvm.ptr, i64, i64, i64, i64, i64) -> !llvm.ptr
  %h = dist.sparse_new : !dist.sparse_tile of !B
  // CHECK: llvm.call @distrt_spmat_read(%[[H]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
  dist.sparse_read %h from "b.mtx" : !dist.sparse_tile
  // CHECK: llvm.call @distrt_spmat_write_mm(%[[H]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
  dist.sparse_write %h to "c.mtx" : !dist.sparse_tile
  // CHECK: %[[K:.*]] = llvm.mlir.constant(1 : i64)
  // CHECK: %[[P:.*]] = llvm.mlir.constant(11 : i64)
  // CHECK: %[[S:.*]] = llvm.mlir.constant(5 : i64)
  // CHECK: llvm.call @distrt_spmat_generate(%[[H]], %[[K]], %[[P]], %[[S]])
  dist.sparse_generate %h rmat(11) seed 5 : !dist.sparse_tile
  // CHECK: llvm.call @distrt_spmat_plan(%[[H]])
  dist.sparse_plan %h : !dist.sparse_tile
  // CHECK: %[[SP:.*]] = llvm.intr.stacksave
  // CHECK: llvm.call @distrt_spmat_part(%[[H]], %{{.*}}, %[[PP:.*]], %[[PC:.*]], %[[PV:.*]], %[[PN:.*]], %[[PK:.*]])
  // CHECK: llvm.load %[[PP]] : !llvm.ptr -> !llvm.ptr
  // CHECK: llvm.intr.stackrestore %[[SP]]
  // pos: 3 + 1 entries.
  // CHECK: %[[L:.*]] = llvm.mlir.constant(4 : i64)
  // CHECK: llvm.insertvalue %[[L]], %{{.*}}[3, 0]
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xi32>
  // CHECK: to memref<?xindex>
  // CHECK: to memref<?xf32>
  %p, %c, %v, %n = dist.sparse_part %h offdiag of !B : !dist.sparse_tile -> memref<?xi32>, memref<?xindex>, memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_offdiag_rows(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  // CHECK: to memref<?xindex>
  // CHECK: to memref<?xi32>
  %rr, %rp, %rn = dist.sparse_offdiag_rows %h of !B : !dist.sparse_tile -> memref<?xindex>, memref<?xi32>
  // CHECK: %[[G:.*]] = llvm.call @distrt_spmat_exchange_begin(%[[H]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
  // CHECK: arith.muli
  // CHECK: to memref<?xf32>
  %g = dist.sparse_exchange_begin %h, %x ghosts %n cols 3 : !dist.sparse_tile, memref<?xf32> -> memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_exchange_end(%[[H]])
  dist.sparse_exchange_end %h : !dist.sparse_tile
  // CHECK: llvm.call @distrt_spmat_gather_dense(%[[H]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
  dist.sparse_gather %h into %whole root 0 : !dist.sparse_tile, memref<10x12xf32>
  // CHECK: llvm.call @distrt_spmat_free(%[[H]])
  dist.sparse_free %h : !dist.sparse_tile
  return
}

// A matrix stored with the non-zero partition: created by
// distrt_spmat_create_nonzeros; its parts' pos has the piece's rows + 1
// entries, known at run time (distrt_spmat_local_rows); the ops of its
// products and of mixed partitions (DISTRT_SPMAT_ROWS = 0, NONZEROS = 1).
!N = !dist.tensor<10x12xf32, #dist.layout<@m, "xy -> x~">, #CSR>

// CHECK-LABEL: func.func @nonzeros(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[Y:.*]]: memref<?xf32>)
func.func @nonzeros(%x: memref<?xf32>, %y: memref<?xf32>) {
  // CHECK: %[[H:.*]] = llvm.call @distrt_spmat_create_nonzeros(
  %h = dist.sparse_new : !dist.sparse_tile of !N
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64)
  // CHECK: %[[C:.*]] = llvm.call @distrt_spmat_in_partition(%[[H]], %[[ONE]]) : (!llvm.ptr, i64) -> !llvm.ptr
  %c = dist.sparse_in_partition %h nonzeros : !dist.sparse_tile
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
  // CHECK: llvm.call @distrt_spmat_in_partition(%[[C]], %[[ZERO]])
  %r = dist.sparse_in_partition %c rows : !dist.sparse_tile
  // CHECK: llvm.call @distrt_spmat_part(%[[H]],
  // CHECK: llvm.call @distrt_spmat_local_rows(%[[H]],
  // CHECK: %[[L:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.insertvalue %[[L]], %{{.*}}[3, 0]
  %p, %cr, %v, %n = dist.sparse_part %h all of !N : !dist.sparse_tile -> memref<?xi32>, memref<?xindex>, memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_local_rows(%[[H]],
  // CHECK: to memref<?xindex>
  %ids, %first, %nrows = dist.sparse_local_rows %h of !N : !dist.sparse_tile -> memref<?xindex>
  // CHECK: llvm.call @distrt_spmat_row_targets(%[[H]],
  // CHECK: to memref<?xindex>
  %t, %ob, %oe, %tn = dist.sparse_row_targets %h all of !N : !dist.sparse_tile -> memref<?xindex>
  // CHECK: %[[P:.*]] = llvm.call @distrt_spmat_partial(%[[H]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
  %yp = dist.sparse_partial %h rows %nrows cols 3 : !dist.sparse_tile -> memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_partial_foreign(%[[H]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
  %yf = dist.sparse_partial %h rows %nrows cols 3 foreign : !dist.sparse_tile -> memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_reduce_rows(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  dist.sparse_reduce_rows %h, %yp, %y cols 3 : !dist.sparse_tile, memref<?xf32>, memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_reduce_foreign(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  dist.sparse_reduce_rows %h, %yf, %y cols 3 foreign : !dist.sparse_tile, memref<?xf32>, memref<?xf32>
  // The entries partition of an order-3 tensor: DISTRT_SPMAT_ENTRIES = 2,
  // the fibers' partial sums (a view of nfibers elements) and their sum
  // into y (its size passed).
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64)
  // CHECK: %[[E:.*]] = llvm.call @distrt_spmat_in_partition(%[[H]], %[[TWO]]) : (!llvm.ptr, i64) -> !llvm.ptr
  %e = dist.sparse_entries %h : !dist.sparse_tile
  // CHECK: llvm.call @distrt_spmat_fiber_partial(%[[E]]) : (!llvm.ptr) -> !llvm.ptr
  %fp = dist.sparse_fiber_partial %e fibers %nrows : !dist.sparse_tile -> memref<?xf32>
  // CHECK: %[[NY:.*]] = memref.dim
  // CHECK: %[[NY64:.*]] = arith.index_cast %[[NY]] : index to i64
  // CHECK: llvm.call @distrt_spmat_reduce_fibers(%[[E]], %{{.*}}, %{{.*}}, %[[NY64]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  dist.sparse_reduce_fibers %e, %fp into %y : !dist.sparse_tile, memref<?xf32>, memref<?xf32>
  // The own run (three i64 results through pointers), the foreign partial
  // sums and their reduction.
  // CHECK: llvm.call @distrt_spmat_fiber_runs(%[[E]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %rb, %re, %ry = dist.sparse_fiber_runs %e, %y : !dist.sparse_tile, memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_fiber_partial_foreign(%[[E]]) : (!llvm.ptr) -> !llvm.ptr
  %ff = dist.sparse_fiber_partial %e fibers %re foreign : !dist.sparse_tile -> memref<?xf32>
  // CHECK: llvm.call @distrt_spmat_reduce_fibers_foreign(%[[E]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  dist.sparse_reduce_fibers %e, %ff into %y foreign : !dist.sparse_tile, memref<?xf32>, memref<?xf32>
  dist.sparse_free %h : !dist.sparse_tile
  return
}

// The ops of sparse outputs (SDDMM, sums): another matrix's pattern, room
// for entries and their count, and the check of a sparse result.
// CHECK-LABEL: func.func @outputs(
// CHECK-SAME: %[[REF:.*]]: memref<10x12xf32>, %[[N:.*]]: index)
func.func @outputs(%ref: memref<10x12xf32>, %n: index) {
  // CHECK: %[[A:.*]] = llvm.call @distrt_spmat_create(
  // CHECK: %[[B:.*]] = llvm.call @distrt_spmat_create(
  %a = dist.sparse_new : !dist.sparse_tile of !B
  %b = dist.sparse_new : !dist.sparse_tile of !B
  // CHECK: llvm.call @distrt_spmat_pattern_of(%[[A]], %[[B]]) : (!llvm.ptr, !llvm.ptr) -> ()
  dist.sparse_pattern_of %a from %b : !dist.sparse_tile, !dist.sparse_tile
  // The room: crd and values of `capacity` entries, pos of the piece's
  // rows + 1 (asked at run time).
  // CHECK: %[[CAP:.*]] = arith.index_cast %[[N]] : index to i64
  // CHECK: llvm.call @distrt_spmat_reserve(%[[A]], %[[B]], %[[CAP]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  // CHECK: llvm.call @distrt_spmat_local_rows(%[[A]],
  // CHECK: %[[PL:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.insertvalue %[[PL]], %{{.*}}[3, 0]
  // CHECK: llvm.insertvalue %[[CAP]], %{{.*}}[3, 0]
  // CHECK: llvm.insertvalue %[[CAP]], %{{.*}}[3, 0]
  %p, %c, %v = dist.sparse_reserve %a like %b capacity %n : !dist.sparse_tile, !dist.sparse_tile -> memref<?xi32>, memref<?xindex>, memref<?xf32>
  // CHECK: %[[K:.*]] = arith.index_cast %[[N]] : index to i64
  // CHECK: llvm.call @distrt_spmat_commit(%[[A]], %[[K]]) : (!llvm.ptr, i64) -> ()
  dist.sparse_commit %a count %n : !dist.sparse_tile
  // CHECK: %[[TOL:.*]] = llvm.mlir.constant(1.000000e-04 : f64)
  // CHECK: llvm.call @distrt_spmat_check_result(%[[A]], %{{.*}}, %{{.*}}, %[[TOL]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, f64) -> i64
  dist.sparse_check_result %a against %ref label "A(i,j) = B(i,j) + C(i,j)" tolerance 1.0e-4 : !dist.sparse_tile, memref<10x12xf32>
  dist.sparse_free %a : !dist.sparse_tile
  dist.sparse_free %b : !dist.sparse_tile
  return
}
