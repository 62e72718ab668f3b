// RUN: dist-opt %s --convert-dist-to-runtime -split-input-file | FileCheck %s
// The runtime calls of the SPMD ops of the runtime's lifetime, local tiles,
// leaf kernels, redistribution steps and the check and timing
// instrumentation.

dist.grid @m [2, 2]

!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>

// Tiles: the descriptor of the tensor's layout, the handle of its grid,
// the tile's pointer and the dtype code (f64: 1).
// CHECK-DAG: llvm.mlir.global internal constant @[[DESC:__dist_desc_[0-9]+]](dense<[2, 8, 1, 0, 1, 0, 8, 1, 0, 1, 1, 0]> : tensor<12xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[WHAT:__dist_str_[0-9]+]]("the local tile\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[PATH:__dist_str_[0-9]+]]("a.dtensor\00")
// CHECK-LABEL: func @tiles
// CHECK: llvm.call @distrt_init()
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[D:.*]] = llvm.mlir.addressof @[[DESC]]
// CHECK: %[[CAP:.*]] = llvm.call @distrt_layout_tile_capacity(%[[G]], %[[D]]) : (!llvm.ptr, !llvm.ptr) -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[CAP]] : i64 to index
// CHECK: %[[T:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[DIM:.*]] = memref.dim %[[T]]
// CHECK: %[[DIM64:.*]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[EIGHT]], %[[DIM64]] : i64
// CHECK: %[[P:.*]] = llvm.inttoptr
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[WHAT]]
// CHECK: llvm.call @distrt_check_alloc(%[[P]], %[[BYTES]], %[[S]]) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: %[[G2:.*]] = llvm.call @distrt_grid_lookup
// CHECK-DAG: %[[F64:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[SEED:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.call @distrt_layout_fill(%[[G2]], %{{.*}}, %{{.*}}, %[[F64]], %[[SEED]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK: %[[LP:.*]] = llvm.mlir.addressof @[[PATH]]
// CHECK: llvm.call @distrt_layout_load(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LP]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: llvm.call @distrt_layout_store(
// CHECK: llvm.call @distrt_finalize()
// CHECK-NOT: dist.
func.func @tiles() {
  dist.runtime_init
  %n = dist.tile_capacity !A
  %t = memref.alloc(%n) : memref<?xf64>
  dist.check_alloc %t, "the local tile" : memref<?xf64>
  dist.fill_tile %t seed 3 : memref<?xf64> of !A
  dist.load_tile %t from "a.dtensor" : memref<?xf64> of !A
  dist.store_tile %t to "b.dtensor" : memref<?xf64> of !A
  memref.dealloc %t : memref<?xf64>
  dist.runtime_finalize
  return
}

// -----

!V2 = memref<?x?xf64, strided<[?, 1], offset: ?>>
!V1 = memref<?xf32, strided<[1], offset: ?>>

// GEMM: flags, m and n from c, k from a (its rows when transposed), alpha
// and beta 1, each view's pointer (aligned pointer + offset) and leading
// dimension (its first stride).
// CHECK-LABEL: func @gemm
// CHECK-DAG: %{{.*}}, %{{.*}}, %[[A:sizes[_0-9]*]]:2, %[[AS:strides[_0-9]*]]:2 = memref.extract_strided_metadata %arg0
// CHECK-DAG: %[[AK:.*]] = arith.index_cast %[[A]]#0 : index to i64
// CHECK-DAG: %[[LDA:.*]] = arith.index_cast %[[AS]]#0 : index to i64
// CHECK-DAG: %{{.*}}, %{{.*}}, %[[B:sizes[_0-9]*]]:2, %[[BS:strides[_0-9]*]]:2 = memref.extract_strided_metadata %arg1
// CHECK-DAG: %[[LDB:.*]] = arith.index_cast %[[BS]]#0 : index to i64
// CHECK-DAG: %{{.*}}, %{{.*}}, %[[C:sizes[_0-9]*]]:2, %[[CS:strides[_0-9]*]]:2 = memref.extract_strided_metadata %arg2
// CHECK-DAG: %[[M:.*]] = arith.index_cast %[[C]]#0 : index to i64
// CHECK-DAG: %[[N:.*]] = arith.index_cast %[[C]]#1 : index to i64
// CHECK-DAG: %[[LDC:.*]] = arith.index_cast %[[CS]]#0 : index to i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// CHECK-NEXT: %[[TA:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[TB:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[PA:.*]] = llvm.getelementptr
// CHECK: %[[PB:.*]] = llvm.getelementptr
// CHECK: %[[PC:.*]] = llvm.getelementptr
// CHECK: llvm.call @distrt_gemm_t_f64(%[[TA]], %[[TB]], %[[M]], %[[N]], %[[AK]], %[[ONE]], %[[PA]], %[[LDA]], %[[PB]], %[[LDB]], %[[ONE]], %[[PC]], %[[LDC]])
func.func @gemm(%a: !V2, %b: !V2, %c: !V2) {
  dist.gemm %a transposed, %b into %c : !V2, !V2 into !V2
  return
}

// Static shapes are constants; f32 picks the f32 function.
// CHECK-LABEL: func @gemm_static
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: llvm.call @distrt_gemm_t_f32(
func.func @gemm_static(%a: memref<4x5xf32>, %b: memref<5x6xf32>, %c: memref<4x6xf32>) {
  dist.gemm %a, %b into %c : memref<4x5xf32>, memref<5x6xf32> into memref<4x6xf32>
  return
}

// GEMV: the matrix's rows and columns and leading dimension, the vectors'
// strides (static 1 here).
// CHECK-LABEL: func @gemv
// CHECK-DAG: %{{.*}}, %{{.*}}, %[[A:sizes[_0-9]*]]:2, %[[AS:strides[_0-9]*]]:2 = memref.extract_strided_metadata %arg0
// CHECK-DAG: %[[R:.*]] = arith.index_cast %[[A]]#0 : index to i64
// CHECK-DAG: %[[C:.*]] = arith.index_cast %[[A]]#1 : index to i64
// CHECK-DAG: %[[LDA:.*]] = arith.index_cast %[[AS]]#0 : index to i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// CHECK-NEXT: %[[T:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @distrt_gemv_t_f64(%[[T]], %[[R]], %[[C]], %[[ONE]], %{{.*}}, %[[LDA]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, f64, !llvm.ptr, i64, !llvm.ptr, i64, f64, !llvm.ptr, i64) -> ()
func.func @gemv(%a: !V2, %x: memref<?xf64, strided<[1], offset: ?>>,
                %y: memref<?xf64, strided<[1], offset: ?>>) {
  dist.gemv %a transposed, %x into %y : !V2, memref<?xf64, strided<[1], offset: ?>> into memref<?xf64, strided<[1], offset: ?>>
  return
}

// DOT: the length of x, both strides, the accumulator's pointer.
// CHECK-LABEL: func @dot
// CHECK: %{{.*}}, %{{.*}}, %[[X:sizes[_0-9]*]], %[[XS:strides[_0-9]*]] = memref.extract_strided_metadata %arg0
// CHECK: %[[N:.*]] = arith.index_cast %[[X]] : index to i64
// CHECK: %[[INC:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @distrt_dot_acc_f32(%[[N]], %{{.*}}, %[[INC]], %{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
func.func @dot(%x: !V1, %y: !V1, %s: memref<f32, strided<[], offset: ?>>) {
  dist.dot %x, %y into %s : !V1, !V1 into memref<f32, strided<[], offset: ?>>
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @n [4]

!A = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!L = !dist.tensor<8x8xf64, #dist.layout<@n, "xy -> x">>
!S = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),(1)]">>
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "[(0),()]">>
!P = !dist.tensor<8x8x2xf64, #dist.layout<@m, "[(),(0),(1)]">>
!K = !dist.tensor<8x8xf64, #dist.layout<@m, "[(),(0)]">>

// The general exchange: each layout with the handle of its own grid.
// CHECK-DAG: llvm.mlir.global internal constant @[[SA:__dist_desc_[0-9]+]](dense<[2, 8, 1, 0, 1, 0, 8, 1, 0, 1, 1, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[SL:__dist_desc_[0-9]+]](dense<[2, 8, 1, 0, 1, 0, 8, 0, 0, 0, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[SS:__dist_desc_[0-9]+]](dense<[2, 8, 2, 0, 1, 0, 8, 2, 0, 1, 1, 0]>
// CHECK-DAG: llvm.mlir.global internal constant @[[ST:__dist_desc_[0-9]+]](dense<[2, 8, 2, 0, 1, 0, 8, 0, 0, 0, 0]>
// CHECK-LABEL: func @redistribution
// CHECK: %[[GM:.*]] = llvm.call @distrt_grid_lookup(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[GN:.*]] = llvm.call @distrt_grid_lookup(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[DA:.*]] = llvm.mlir.addressof @[[SA]]
// CHECK: %[[DL:.*]] = llvm.mlir.addressof @[[SL]]
// CHECK: llvm.call @distrt_redistribute(%[[GM]], %[[DA]], %{{.*}}, %[[GN]], %[[DL]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// A step: the mask of its axes, then the two layouts.
// CHECK: llvm.call @distrt_grid_lookup
// CHECK-NEXT: %[[AX:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[DS:.*]] = llvm.mlir.addressof @[[SS]]
// CHECK: %[[DT:.*]] = llvm.mlir.addressof @[[ST]]
// CHECK: llvm.call @distrt_redist_allgather(%{{.*}}, %[[AX]], %[[DS]], %{{.*}}, %[[DT]], %{{.*}}, %{{.*}})
// CHECK: llvm.call @distrt_redist_slice(%{{.*}}, %[[DT2:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.call @distrt_redist_permute(
// CHECK: llvm.call @distrt_redist_alltoall(
// CHECK: llvm.call @distrt_redist_gather(
// CHECK: llvm.call @distrt_redist_bcast(
// CHECK: llvm.call @distrt_redist_scatter(
// CHECK: llvm.call @distrt_redist_kind(
// Partial sums: the mask of the axes, then of the summed dimensions.
// CHECK: llvm.call @distrt_grid_lookup
// CHECK-NEXT: %[[PAX:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[SUM:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.call @distrt_redist_allreduce(%{{.*}}, %[[PAX]], %[[SUM]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.call @distrt_redist_reduce_scatter(
// CHECK: llvm.call @distrt_redist_reduce(
// CHECK-NOT: dist.
func.func @redistribution(%a: memref<?xf64>, %b: memref<?xf64>,
                          %p: memref<?xf64>) {
  dist.redistribute_tile %a into %b : memref<?xf64> of !A into memref<?xf64> of !L
  dist.redist_allgather %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !T
  dist.redist_slice %a into %b : memref<?xf64> of !T into memref<?xf64> of !S
  dist.redist_permute %a into %b axes [0, 1] : memref<?xf64> of !S into memref<?xf64> of !S
  dist.redist_all_to_all %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !S
  dist.redist_gather %a into %b axes [1] : memref<?xf64> of !S into memref<?xf64> of !T
  dist.redist_broadcast %a into %b axes [1] : memref<?xf64> of !T into memref<?xf64> of !T
  dist.redist_scatter %a into %b axes [1] : memref<?xf64> of !T into memref<?xf64> of !S
  dist.redist_change_kind %a into %b axes [0] : memref<?xf64> of !S into memref<?xf64> of !S
  dist.redist_allreduce %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  dist.redist_reduce_scatter %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  dist.redist_reduce %p into %a axes [1] sum [2] : memref<?xf64> of !P into memref<?xf64> of !K
  return
}

// -----

dist.grid @m [2, 2]

!A = !dist.tensor<8x8xi32, #dist.layout<@m, "xy -> xy">>

// Timing.
// CHECK-DAG: llvm.mlir.global internal constant @[[LABEL:__dist_str_[0-9]+]]("A(i,j) = B(i,j)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[STMT:__dist_str_[0-9]+]]("a() = B(i,j)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[SHAPE:__dist_desc_[0-9]+]](dense<8> : tensor<2xi64>)
// CHECK-DAG: llvm.mlir.global internal constant @[[ONE:__dist_desc_[0-9]+]](dense<1> : tensor<1xi64>)
// CHECK-LABEL: func @timing
// CHECK: %[[G:.*]] = llvm.call @distrt_grid_lookup
// CHECK: %[[ALL:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.call @distrt_barrier(%[[G]], %[[ALL]]) : (!llvm.ptr, i64) -> ()
// CHECK: llvm.call @distrt_profile_kernel_begin() : () -> ()
// CHECK: %[[T0:.*]] = llvm.call @distrt_wtime() : () -> f64
// CHECK: %[[T1:.*]] = llvm.call @distrt_wtime() : () -> f64
// CHECK: %[[S:.*]] = arith.subf %[[T1]], %[[T0]] : f64
// CHECK: %[[L:.*]] = llvm.mlir.addressof @[[LABEL]]
// CHECK: llvm.call @distrt_report_time(%{{.*}}, %[[L]], %[[S]]) : (!llvm.ptr, !llvm.ptr, f64) -> ()
func.func @timing() {
  dist.barrier on @m axes [0, 1]
  dist.profile_kernel_begin
  %t0 = dist.wtime
  %t1 = dist.wtime
  %s = arith.subf %t1, %t0 : f64
  dist.report_time "A(i,j) = B(i,j)", %s on @m
  return
}

// The reference check: the rank, a gather to rank 0, the reference (the
// statement with the dtype code, i32: 2; every tensor with its rank, its
// shape and its buffer; an order-0 tensor as rank 0 with shape [1]) and
// the comparisons.
// CHECK-LABEL: func @check
// CHECK: %[[R:.*]] = llvm.call @distrt_grid_rank(%{{.*}}) : (!llvm.ptr) -> i64
// CHECK: arith.index_cast %[[R]] : i64 to index
// CHECK: %[[ROOT:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @distrt_layout_gather(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ROOT]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> ()
// CHECK: %[[ST:.*]] = llvm.mlir.addressof @[[STMT]]
// CHECK: %[[I32:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[REF:.*]] = llvm.call @distrt_reference_begin(%[[ST]], %[[I32]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[R0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[D0:.*]] = llvm.mlir.addressof @[[ONE]]
// CHECK: llvm.call @distrt_reference_bind(%[[REF]], %{{.*}}, %[[R0]], %[[D0]], %{{.*}})
// CHECK: %[[R2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[D2:.*]] = llvm.mlir.addressof @[[SHAPE]]
// CHECK: llvm.call @distrt_reference_bind(%[[REF]], %{{.*}}, %[[R2]], %[[D2]], %{{.*}})
// CHECK: llvm.call @distrt_reference_run(%[[REF]]) : (!llvm.ptr) -> ()
// CHECK: %[[TOL:.*]] = llvm.mlir.constant(5.000000e-01 : f64) : f64
// CHECK: llvm.call @distrt_check_result(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TOL]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, f64) -> i64
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
// CHECK: llvm.call @distrt_check_unchanged(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK: llvm.call @distrt_grid_lookup
// CHECK-NEXT: %[[SROOT:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.inttoptr
// CHECK-NEXT: %[[SDT:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[SRANK:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[SSHAPE:.*]] = llvm.mlir.addressof @[[SHAPE]]
// CHECK-NEXT: %[[SMASK:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: llvm.call @distrt_sum_reference(%{{.*}}, %[[SROOT]], %{{.*}}, %[[SDT]], %[[SRANK]], %[[SSHAPE]], %[[SMASK]], %{{.*}}) : (!llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NOT: dist.
func.func @check(%t: memref<?xi32>, %w: memref<8x8xi32>, %s: memref<i32>,
                 %v: memref<8xi32>) {
  %r = dist.grid_rank @m
  dist.gather_tile %t into %w root 0 : memref<?xi32> of !A into memref<8x8xi32>
  dist.reference "a() = B(i,j)" bind ["a", "B"] to %s, %w : memref<i32>, memref<8x8xi32>
  dist.check_result %t against %w label "a" tolerance 0.5 : memref<?xi32> of !A, memref<8x8xi32>
  dist.check_unchanged %t against %w label "input B" : memref<?xi32> of !A, memref<8x8xi32>
  dist.sum_reference %w into %v on @m sum [1] root 0 : memref<8x8xi32> into memref<8xi32>
  return
}
