// RUN: dist-opt %s --dist-lower-computations | FileCheck %s
// dist-lower-computations alone: the computation becomes its loop nest on
// the local tiles of its tensors (dist.local_tile); the function's
// signature keeps its distributed tensors for dist-tensors-to-tiles.

dist.grid @m [2, 2]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>

// CHECK-LABEL: func.func @summa
// CHECK-SAME: (%[[A:.*]]: !dist.tensor<64x64xf64, {{.*}}>, %[[B:.*]]: !dist.tensor{{.*}}, %[[C:.*]]: !dist.tensor{{.*}})
// CHECK-DAG: dist.local_tile %[[A]] : {{.*}} -> memref<?xf64>
// CHECK-DAG: dist.local_tile %[[B]] : {{.*}} -> memref<?xf64>
// CHECK-DAG: dist.local_tile %[[C]] : {{.*}} -> memref<?xf64>
// CHECK: scf.for
// CHECK: dist.broadcast %{{.*}} on @m axes [1]
// CHECK: dist.broadcast %{{.*}} on @m axes [0]
// CHECK: dist.gemm
// CHECK: } {dist.time_loop}
// CHECK-NOT: dist.compute
// CHECK: return
func.func @summa(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  return
}
