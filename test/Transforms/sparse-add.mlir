// RUN: dist-opt %s --dist-materialize-spmd | FileCheck %s
// A sum of sparse matrices A(i,j) = B(i,j) + C(i,j) + D(i,j) on the SPMD
// ops (lib/Transforms/SPMD/SparseAdd.cpp): room for A's entries (the
// terms' entries together), one leaf over the terms' pieces that
// assembles A's (the union of their patterns), then the count. No
// communication.

dist.grid @m [4]
#CSR = #sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32}>
!S = !dist.tensor<10x12xf64, #dist.layout<@m, "xy -> x">, #CSR>

// CHECK-LABEL: func.func @add3(
// CHECK-SAME: %[[A:.*]]: !dist.sparse_tile, %[[B:.*]]: !dist.sparse_tile, %[[C:.*]]: !dist.sparse_tile, %[[D:.*]]: !dist.sparse_tile)
// CHECK-NOT: dist.zero_tile
// CHECK: %[[BP:.*]], %[[BC:.*]], %[[BV:.*]], %{{.*}} = dist.sparse_part %[[B]] all
// CHECK: %[[NB:.*]] = memref.dim %[[BC]]
// CHECK: %[[CP:.*]], %[[CC:.*]], %[[CV:.*]], %{{.*}} = dist.sparse_part %[[C]] all
// CHECK: %[[DP:.*]], %[[DC:.*]], %[[DV:.*]], %{{.*}} = dist.sparse_part %[[D]] all
// CHECK: %[[AP:.*]], %[[AC:.*]], %[[AV:.*]] = dist.sparse_reserve %[[A]] like %[[B]] capacity %[[CAP:.*]] :
// CHECK: %[[K:.*]] = call @[[LEAF:__dist_sparse_add3_3x12_p32_c32_f64]](%[[BP]], %[[BC]], %[[BV]], %[[CP]], %[[CC]], %[[CV]], %[[DP]], %[[DC]], %[[DV]], %[[AP]], %[[AC]], %[[AV]])
// CHECK: dist.sparse_commit %[[A]] count %[[K]]
// CHECK-NOT: dist.sparse_exchange
func.func @add3(%a: !S, %b: !S, %c: !S, %d: !S) {
  dist.compute "A(i,j) = B(i,j) + C(i,j) + D(i,j)" (A = %a, B = %b, C = %c, D = %d)
      schedule [distribute({i}, {io}, {ii}, Grid(4))]
      : !S, !S, !S, !S
  return
}

// CHECK: func.func private @[[LEAF]]({{.*}}) -> index {
// CHECK-COUNT-3: sparse_tensor.assemble
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x12xf64, #sparse>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[E]]
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: sparse_tensor.disassemble %[[R]]
// CHECK-COUNT-3: bufferization.materialize_in_destination
// CHECK: return
