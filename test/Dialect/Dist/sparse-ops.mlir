// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// The ops on sparse tensors and sparse tiles print and parse back.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> x">, #CSR>
!V = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @high
func.func @high(%a: !V, %c: !V) {
  // CHECK: %[[B:.*]] = dist.alloc
  %b = dist.alloc : !B
  // CHECK: dist.generate %[[B]] banded(5) seed 3
  dist.generate %b banded(5) seed 3 : !B
  // CHECK: dist.generate %[[B]] rmat(8) seed 1
  dist.generate %b rmat(8) seed 1 : !B
  // CHECK: dist.generate %[[B]] uniform(0) seed 2
  dist.generate %b uniform(0) seed 2 : !B
  // CHECK: dist.load %[[B]] from "b.mtx"
  dist.load %b from "b.mtx" : !B
  // CHECK: dist.load %[[B]] from "B.RSA"
  dist.load %b from "B.RSA" : !B
  // CHECK: dist.store %[[B]] to "out.mtx"
  dist.store %b to "out.mtx" : !B
  // CHECK: dist.compute "a(i) = B(i,j) * c(j)"
  dist.compute "a(i) = B(i,j) * c(j)" (a = %a, B = %b, c = %c)
      schedule [distribute({i}, {io}, {ii}, Grid(4)), communicate({a, B, c}, io)]
      : !V, !B, !V
  return
}

// CHECK-LABEL: func.func @spmd
func.func @spmd(%b: !B, %x: memref<?xf64>, %whole: memref<64x64xf64>) {
  // CHECK: dist.sparse_local %{{.*}} : !dist.tensor<{{.*}}> -> !dist.sparse_tile
  %l = dist.sparse_local %b : !B -> !dist.sparse_tile
  // CHECK: %[[H:.*]] = dist.sparse_new : !dist.sparse_tile of !dist.tensor<64x64xf64
  %h = dist.sparse_new : !dist.sparse_tile of !B
  // CHECK: dist.sparse_read %[[H]] from "b.mtx" : !dist.sparse_tile
  dist.sparse_read %h from "b.mtx" : !dist.sparse_tile
  // CHECK: dist.sparse_write %[[H]] to "c.mtx" : !dist.sparse_tile
  dist.sparse_write %h to "c.mtx" : !dist.sparse_tile
  // CHECK: dist.sparse_generate %[[H]] uniform(3) seed 9 : !dist.sparse_tile
  dist.sparse_generate %h uniform(3) seed 9 : !dist.sparse_tile
  // CHECK: dist.sparse_plan %[[H]]
  dist.sparse_plan %h : !dist.sparse_tile
  // CHECK: dist.sparse_part %[[H]] offdiag of {{.*}} -> memref<?xi32>, memref<?xi32>, memref<?xf64>
  %p, %c, %v, %n = dist.sparse_part %h offdiag of !B : !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xf64>
  // CHECK: dist.sparse_offdiag_rows %[[H]] of {{.*}} -> memref<?xi32>, memref<?xi32>
  %rr, %rp, %rn = dist.sparse_offdiag_rows %h of !B : !dist.sparse_tile -> memref<?xi32>, memref<?xi32>
  // The non-zero partition's ops (and the mixed partitions' companion).
  // CHECK: %[[N:.*]] = dist.sparse_in_partition %[[H]] nonzeros : !dist.sparse_tile
  %nz = dist.sparse_in_partition %h nonzeros : !dist.sparse_tile
  // CHECK: dist.sparse_in_partition %[[N]] rows : !dist.sparse_tile
  %rw = dist.sparse_in_partition %nz rows : !dist.sparse_tile
  // CHECK: dist.sparse_local_rows %[[N]] of {{.*}} -> memref<?xi32>
  %ids, %first, %nr = dist.sparse_local_rows %nz of !B : !dist.sparse_tile -> memref<?xi32>
  // CHECK: dist.sparse_row_targets %[[N]] diag of {{.*}} -> memref<?xi32>
  %t, %ob, %oe, %tn = dist.sparse_row_targets %nz diag of !B : !dist.sparse_tile -> memref<?xi32>
  // CHECK: %[[YP:.*]] = dist.sparse_partial %[[N]] rows %{{.*}} cols 2 : !dist.sparse_tile -> memref<?xf64>
  %yp = dist.sparse_partial %nz rows %nr cols 2 : !dist.sparse_tile -> memref<?xf64>
  // CHECK: dist.sparse_partial %[[N]] rows %{{.*}} cols 2 foreign : !dist.sparse_tile -> memref<?xf64>
  %yf = dist.sparse_partial %nz rows %nr cols 2 foreign : !dist.sparse_tile -> memref<?xf64>
  // CHECK: dist.sparse_reduce_rows %[[N]], %[[YP]], %{{.*}} cols 2 : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  dist.sparse_reduce_rows %nz, %yp, %x cols 2 : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  // CHECK: dist.sparse_reduce_rows %[[N]], %{{.*}}, %{{.*}} cols 2 foreign : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  dist.sparse_reduce_rows %nz, %yf, %x cols 2 foreign : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  // The entries partition of an order-3 tensor (all three levels fused).
  // CHECK: %[[E:.*]] = dist.sparse_entries %[[H]] : !dist.sparse_tile
  %e = dist.sparse_entries %h : !dist.sparse_tile
  // CHECK: %[[FP:.*]] = dist.sparse_fiber_partial %[[E]] fibers %{{.*}} : !dist.sparse_tile -> memref<?xf64>
  %fp = dist.sparse_fiber_partial %e fibers %nr : !dist.sparse_tile -> memref<?xf64>
  // CHECK: dist.sparse_reduce_fibers %[[E]], %[[FP]] into %{{.*}} : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  dist.sparse_reduce_fibers %e, %fp into %x : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = dist.sparse_fiber_runs %[[E]], %{{.*}} : !dist.sparse_tile, memref<?xf64>
  %rb, %re, %ry = dist.sparse_fiber_runs %e, %x : !dist.sparse_tile, memref<?xf64>
  // CHECK: %[[FF:.*]] = dist.sparse_fiber_partial %[[E]] fibers %{{.*}} foreign : !dist.sparse_tile -> memref<?xf64>
  %ff = dist.sparse_fiber_partial %e fibers %nr foreign : !dist.sparse_tile -> memref<?xf64>
  // CHECK: dist.sparse_reduce_fibers %[[E]], %[[FF]] into %{{.*}} foreign : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  dist.sparse_reduce_fibers %e, %ff into %x foreign : !dist.sparse_tile, memref<?xf64>, memref<?xf64>
  // CHECK: dist.sparse_exchange_begin %[[H]], %{{.*}} ghosts %{{.*}} cols 2 : !dist.sparse_tile, memref<?xf64> -> memref<?xf64>
  %g = dist.sparse_exchange_begin %h, %x ghosts %n cols 2 : !dist.sparse_tile, memref<?xf64> -> memref<?xf64>
  // CHECK: dist.sparse_exchange_end %[[H]]
  dist.sparse_exchange_end %h : !dist.sparse_tile
  // CHECK: dist.sparse_gather %[[H]] into %{{.*}} root 0 : !dist.sparse_tile, memref<64x64xf64>
  dist.sparse_gather %h into %whole root 0 : !dist.sparse_tile, memref<64x64xf64>
  // CHECK: dist.sparse_free %[[H]]
  dist.sparse_free %h : !dist.sparse_tile
  return
}

// The ops of sparse outputs (SDDMM, sums of sparse matrices).
// CHECK-LABEL: func.func @outputs
func.func @outputs(%whole: memref<64x64xf64>, %n: index) {
  // CHECK: %[[A:.*]] = dist.sparse_new
  // CHECK: %[[B:.*]] = dist.sparse_new
  %a = dist.sparse_new : !dist.sparse_tile of !B
  %b = dist.sparse_new : !dist.sparse_tile of !B
  // CHECK: dist.sparse_pattern_of %[[A]] from %[[B]] : !dist.sparse_tile, !dist.sparse_tile
  dist.sparse_pattern_of %a from %b : !dist.sparse_tile, !dist.sparse_tile
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = dist.sparse_reserve %[[A]] like %[[B]] capacity %{{.*}} : !dist.sparse_tile, !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xf64>
  %p, %c, %v = dist.sparse_reserve %a like %b capacity %n : !dist.sparse_tile, !dist.sparse_tile -> memref<?xi32>, memref<?xi32>, memref<?xf64>
  // CHECK: dist.sparse_commit %[[A]] count %{{.*}} : !dist.sparse_tile
  dist.sparse_commit %a count %n : !dist.sparse_tile
  // CHECK: dist.sparse_check_result %[[A]] against %{{.*}} label "A(i,j) = B(i,j) * C(i,k) * D(k,j)" tolerance {{.*}} : !dist.sparse_tile, memref<64x64xf64>
  dist.sparse_check_result %a against %whole label "A(i,j) = B(i,j) * C(i,k) * D(k,j)" tolerance 1.0e-12 : !dist.sparse_tile, memref<64x64xf64>
  dist.sparse_free %a : !dist.sparse_tile
  dist.sparse_free %b : !dist.sparse_tile
  return
}
