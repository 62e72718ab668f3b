// RUN: dist-opt %s --dist-materialize-spmd -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-report-communication -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// SpTTV and SpMTTKRP on a sparse tensor of order 3 on the SPMD ops
// (lib/Transforms/SPMD/SparseTensor3.cpp). SpTTV: A takes B's (i, j)
// fibers as its pattern (dist.sparse_pattern_of), then one leaf, the
// sparsifier's SpMV of the fibers as rows (DCSR over B's level-2 buffers)
// into A's values. SpMTTKRP: one leaf over the piece as CSF into A's
// block, or under a non-zero partition into the partial sums, which
// dist.sparse_reduce_rows adds into their owners. No other communication.

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed), posWidth = 32, crdWidth = 32}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<10x6x9xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<10x6xf64, #dist.layout<@m, "xy -> x">, #CSR>
!c = !dist.tensor<9xf64, #dist.layout<@m, "x -> *">>

// CHECK-LABEL: func.func @ttv(
// CHECK-SAME: %[[A:.*]]: !dist.sparse_tile, %[[B:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// CHECK-NOT: dist.zero_tile
// CHECK: dist.sparse_pattern_of %[[A]] from %[[B]]
// CHECK: %{{.*}}, %{{.*}}, %[[P2:.*]], %[[C2:.*]], %[[V:.*]], %[[NF:.*]] = dist.sparse_fibers %[[B]] of
// CHECK: %{{.*}}, %{{.*}}, %[[AV:.*]], %{{.*}} = dist.sparse_part %[[A]] all
// CHECK: call @[[LEAF:__dist_ttv_10x6x9_p32_c32_f64]](%[[P2]], %[[C2]], %[[V]], %[[NF]], %[[C]], %[[AV]])
// CHECK-NOT: dist.sparse_exchange
// CHECK-NOT: dist.sparse_reduce_rows
// REPORT: remark: SpTTV: nothing moves (the output takes the tensor's fibers, split as the tensor's; c is replicated; docs/sparse.md)
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !A, !B, !c
  return
}
// The leaf: A's values zeroed, the fibers listed 0 .. #fibers - 1 (DCSR
// over the fibers' bound 10 * 6, then the entries' k), then the sum of
// B * c over each fiber, written in place.
// CHECK: func.func private @[[LEAF]](%[[LP2:.*]]: memref<?xi32>, %[[LC2:.*]]: memref<?xi32>, %[[LV:.*]]: memref<?xf64>, %[[LN:.*]]: index, %[[LX:.*]]: memref<?xf64>, %[[LY:.*]]: memref<?xf64>) attributes {dist.reassociate} {
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[LY]] : memref<?xf64>)
// CHECK: %[[LIST:.*]] = memref.alloc(%[[LN]]) : memref<?xi32>
// CHECK: sparse_tensor.assemble {{.*}} : {{.*}} to tensor<60x9xf64, #sparse{{[0-9]*}}>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: bufferization.materialize_in_destination {{.*}} in restrict writable %[[LY]]
// CHECK: memref.dealloc %[[LIST]]

// -----

dist.grid @m [3]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed), posWidth = 64, crdWidth = 64}>
!B = !dist.tensor<10x6x9xf32, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<10x4xf32, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x4xf32, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<9x4xf32, #dist.layout<@m, "xy -> *">>

// '=': A's block zeroed, then one leaf into it (no partial sums).
// CHECK-LABEL: func.func @mttkrp(
// CHECK-SAME: %[[A:.*]]: memref<?xf32>, %[[B:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf32>, %[[D:.*]]: memref<?xf32>)
// CHECK: %[[P:.*]], %[[CR:.*]], %[[P2:.*]], %[[C2:.*]], %[[V:.*]], %{{.*}} = dist.sparse_fibers %[[B]] of
// CHECK: dist.zero_tile %[[A]]
// CHECK: %{{.*}}, %{{.*}}, %[[N:.*]] = dist.sparse_local_rows %[[B]]
// CHECK-NOT: dist.sparse_partial
// CHECK: call @[[LEAF:__dist_mttkrp_10x6x9_l4_p64_c64_f32]](%[[P]], %[[CR]], %[[P2]], %[[C2]], %[[V]], %[[N]], %[[C]], %[[D]], %[[A]])
// CHECK-NOT: dist.sparse_reduce_rows
// REPORT: remark: SpMTTKRP: nothing moves (C and D are replicated; docs/sparse.md)
func.func @mttkrp(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [reorder({i, j, k, l}), distribute({i}, {io}, {ii}, Grid(3))]
      : !A, !B, !C, !D
  return
}
// The leaf: loops over the piece's rows, fibers and entries with a
// workspace of L = 4 elements per fiber (t = sum of B * D(k, :), then
// A(i, :) += t * C(j, :)); its output (argument 8) is marked for
// dist-restrict-leaves; and prefer-no-gather, so that the backend vectorizes
// over l rather than the entries with hardware gathers of D's rows.
// CHECK: func.func private @[[LEAF]](%[[LPOS:.*]]: memref<?xi64>, %[[LCRD:.*]]: memref<?xi64>, %[[LPOS2:.*]]: memref<?xi64>, %[[LCRD2:.*]]: memref<?xi64>, %[[LVAL:.*]]: memref<?xf32>, %[[LN:.*]]: index, %[[LC:.*]]: memref<?xf32>, %[[LD:.*]]: memref<?xf32>, %[[LOUT:.*]]: memref<?xf32>) attributes {dist.reassociate, dist.restrict = {args = array<i64: 8>, type = (memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xf32>, index, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()}, target_features = #llvm.target_features<["+prefer-no-gather"]>}
// CHECK: %[[T:.*]] = memref.alloca() : memref<4xf32>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %[[LN]]
// CHECK: memref.load %[[LPOS]][%[[R]]]
// CHECK: scf.for %[[F:.*]] = 
// CHECK: memref.load %[[LCRD]][%[[F]]]
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: memref.load %[[LPOS2]][%[[F]]]
// CHECK: scf.for %[[P:.*]] =
// CHECK: memref.load %[[LCRD2]][%[[P]]]
// CHECK: memref.load %[[LVAL]][%[[P]]]
// CHECK: memref.load %[[LD]]
// CHECK: memref.load %[[T]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: memref.load %[[LOUT]]
// CHECK: memref.load %[[T]]
// CHECK: memref.load %[[LC]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[LOUT]]
// CHECK-NOT: linalg.generic
// CHECK: return

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed), posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<10x6x9xf64, #dist.layout<@m, "xyz -> x~">, #CSF>
!A = !dist.tensor<10x4xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x4xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<9x4xf64, #dist.layout<@m, "xy -> *">>

// Fibers split by non-zeros, '+=': no zeroing; the leaf writes the partial
// sums of the piece's rows, which are reduced into A's owners.
// CHECK-LABEL: func.func @mttkrp_nz(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[B:.*]]: !dist.sparse_tile
// CHECK-NOT: dist.zero_tile
// CHECK: %{{.*}}, %{{.*}}, %[[N:.*]] = dist.sparse_local_rows %[[B]]
// CHECK: %[[PS:.*]] = dist.sparse_partial %[[B]] rows %[[N]] cols 4 :
// CHECK: call @__dist_mttkrp_10x6x9_l4_p32_c32_f64({{.*}}, %[[N]], %{{.*}}, %{{.*}}, %[[PS]])
// CHECK: dist.sparse_reduce_rows %[[B]], %[[PS]], %[[A]] cols 4 :
// REPORT: remark: SpMTTKRP: the partial sums of the rows split between processes move to their owners (C and D are replicated; docs/sparse.md)
func.func @mttkrp_nz(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) += B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [reorder({i, j, k, l}), fuse(i, j, f), pos(f, fp, B), distribute({fp}, {fo}, {fi}, Grid(4))]
      : !A, !B, !C, !D
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed), posWidth = 32, crdWidth = 32}>
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<10x6x9xf64, #dist.layout<@m, "xyz -> x~">, #CSF>
!A = !dist.tensor<10x6xf64, #dist.layout<@m, "xy -> x~">, #CSR>
!c = !dist.tensor<9xf64, #dist.layout<@m, "x -> *">>

// All three levels fused: A still takes the stored B's fibers; the leaf
// runs on B's entries companion in three runs of its fibers: those in A's
// own block straight into A's values (zeroed by dist.sparse_fiber_runs),
// the ones before and after into the partial sums, which
// dist.sparse_reduce_fibers ... foreign adds into their owners' values.
// CHECK-LABEL: func.func @ttv_entries(
// CHECK-SAME: %[[A:.*]]: !dist.sparse_tile, %[[B:.*]]: !dist.sparse_tile, %[[C:.*]]: memref<?xf64>)
// CHECK: dist.sparse_pattern_of %[[A]] from %[[B]]
// CHECK: %[[E:.*]] = dist.sparse_entries %[[B]] : !dist.sparse_tile
// CHECK: %{{.*}}, %{{.*}}, %[[P2:.*]], %[[C2:.*]], %[[V:.*]], %[[NF:.*]] = dist.sparse_fibers %[[E]] of
// CHECK: %{{.*}}, %{{.*}}, %[[AV:.*]], %{{.*}} = dist.sparse_part %[[A]] all
// CHECK: %[[OB:.*]], %[[OE:.*]], %[[OY:.*]] = dist.sparse_fiber_runs %[[E]], %[[AV]] : !dist.sparse_tile, memref<?xf64>
// CHECK: %[[PS:.*]] = dist.sparse_fiber_partial %[[E]] fibers %[[NF]] foreign : !dist.sparse_tile -> memref<?xf64>
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[SH:.*]] = arith.subi %[[OY]], %[[OB]] : index
// CHECK: call @[[LEAFR:__dist_ttv_run_10x6x9_p32_c32_f64]](%[[P2]], %[[C2]], %[[V]], %[[NF]], %[[Z]], %[[OB]], %[[Z]], %[[C]], %[[PS]])
// CHECK: call @[[LEAFR]](%[[P2]], %[[C2]], %[[V]], %[[NF]], %[[OB]], %[[OE]], %[[SH]], %[[C]], %[[AV]])
// CHECK: call @[[LEAFR]](%[[P2]], %[[C2]], %[[V]], %[[NF]], %[[OE]], %[[NF]], %[[Z]], %[[C]], %[[PS]])
// CHECK: dist.sparse_reduce_fibers %[[E]], %[[PS]] into %[[AV]] foreign :
// CHECK-NOT: dist.sparse_reduce_rows
// The run leaf: the listed level holds f + shift at the positions
// [begin, end), and the output is not zeroed.
// CHECK: func.func private @[[LEAFR]](
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.addi %[[P]], %{{.*}} : index
// CHECK: sparse_tensor.assemble
// CHECK: linalg.generic
// CHECK: return
// REPORT: remark: SpTTV over the entries split equally: the entries whose owner differs move once per tensor's entries, then every call the partial sums of the fibers split between processes or lying outside the process's block of the output's fibers (c is replicated; docs/sparse.md)
func.func @ttv_entries(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [fuse(i, j, f), fuse(f, k, g), pos(g, gp, B), distribute({gp}, {go}, {gi}, Grid(4))]
      : !A, !B, !c
  return
}

// -----

dist.grid @m [4]
#CSF = #sparse_tensor.encoding<{map = (i, j, k) -> (i : dense, j : compressed, k : compressed), posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<10x6x9xf64, #dist.layout<@m, "xyz -> x">, #CSF>
!A = !dist.tensor<10x4xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<6x4xf64, #dist.layout<@m, "xy -> *">>
!D = !dist.tensor<9x4xf64, #dist.layout<@m, "xy -> *">>

// Rows blocked and all three levels fused: the leaf runs on the entries
// companion's rows into their partial sums, reduced into A's owners.
// CHECK-LABEL: func.func @mttkrp_entries(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[B:.*]]: !dist.sparse_tile
// CHECK: %[[E:.*]] = dist.sparse_entries %[[B]] : !dist.sparse_tile
// CHECK: dist.sparse_fibers %[[E]] of
// CHECK: dist.zero_tile %[[A]]
// CHECK: %{{.*}}, %{{.*}}, %[[N:.*]] = dist.sparse_local_rows %[[E]]
// CHECK: %[[PS:.*]] = dist.sparse_partial %[[E]] rows %[[N]] cols 4 :
// CHECK: call @__dist_mttkrp_10x6x9_l4_p32_c32_f64({{.*}}, %[[N]], %{{.*}}, %{{.*}}, %[[PS]])
// CHECK: dist.sparse_reduce_rows %[[E]], %[[PS]], %[[A]] cols 4 :
// REPORT: remark: SpMTTKRP: the entries whose owner differs move once per tensor's entries (all three levels fused); the partial sums of the rows split between processes move to their owners (C and D are replicated; docs/sparse.md)
func.func @mttkrp_entries(%a: !A, %b: !B, %c: !C, %d: !D) {
  dist.compute "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)" (A = %a, B = %b, C = %c, D = %d)
      schedule [reorder({i, j, k, l}), fuse(i, j, f), fuse(f, k, g), pos(g, gp, B), distribute({gp}, {go}, {gi}, Grid(4))]
      : !A, !B, !C, !D
  return
}
