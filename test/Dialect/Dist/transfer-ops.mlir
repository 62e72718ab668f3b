// RUN: dist-opt %s | FileCheck %s
// RUN: dist-opt %s | dist-opt | FileCheck %s
// RUN: dist-opt %s --mlir-print-op-generic | dist-opt | FileCheck %s
// RUN: dist-opt %s --canonicalize --cse | FileCheck %s --check-prefix=CANON
// The SPMD ops of transfers, boxes and tile views (DistTransferOps.td):
// the rank's place in its grid, local tiles and boxes, permutations and the
// asynchronous transfers with their requests; and their memory effects.

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
!S = !dist.tensor<f32, #dist.layout<@m, " -> **">>

// CHECK-LABEL: func @grid
func.func @grid() -> (index, index) {
  // CHECK: dist.grid_coord on @m axis 1 : index
  %c = dist.grid_coord on @m axis 1 : index
  // CHECK: dist.axes_rank on @m axes [0, 1] : index
  %r = dist.axes_rank on @m axes [0, 1] : index
  return %c, %r : index, index
}

// CHECK-LABEL: func @boxes
func.func @boxes(%tile: memref<?xf64>, %buf: memref<16xf64>, %i: index,
                 %n: index) -> memref<?xf64, strided<[1], offset: ?>> {
  // CHECK: dist.zero_tile %{{.*}} as !dist.tensor<8x8xf64, #dist.layout<@m, {{.*}}>> : memref<?xf64>
  dist.zero_tile %tile as !T : memref<?xf64>
  // CHECK: %{{.*}}, %{{.*}} = dist.tile_view %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<8x8xf64, {{.*}}> : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  %view, %inside = dist.tile_view %tile[%i, %i] [%n, %n] as !T
      : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  // CHECK: dist.copy_box %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %{{.*}} as !dist.tensor<8x8xf64, {{.*}}> : memref<?xf64>, memref<16xf64>
  dist.copy_box %tile[%i, %i] [%n, %n] into %buf as !T
      : memref<?xf64>, memref<16xf64>
  // CHECK: dist.add_box %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<8x8xf64, {{.*}}> : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
  dist.add_box %view into %tile[%i, %i] [%n, %n] as !T
      : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>
  // CHECK: dist.fetch_box %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] into %{{.*}} as !dist.tensor<8x8xf64, {{.*}}> : memref<?xf64>, memref<16xf64>
  dist.fetch_box %tile[%i, %i] [%n, %n] into %buf as !T
      : memref<?xf64>, memref<16xf64>
  // CHECK: dist.accumulate_box %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] as !dist.tensor<8x8xf64, {{.*}}> : memref<16xf64>, memref<?xf64>
  dist.accumulate_box %buf into %tile[%i, %i] [%n, %n] as !T
      : memref<16xf64>, memref<?xf64>
  // CHECK: dist.check_distinct %{{.*}}, %{{.*}} named "B" in "f.mlir:3:3: A(i,j) = B(i,j)" : memref<?xf64>, memref<?xf64>
  dist.check_distinct %tile, %tile named "B" in "f.mlir:3:3: A(i,j) = B(i,j)"
      : memref<?xf64>, memref<?xf64>
  return %view : memref<?xf64, strided<[1], offset: ?>>
}

// An order-0 tensor's box has no bounds.
// CHECK-LABEL: func @scalar
func.func @scalar(%tile: memref<?xf32>, %buf: memref<1xf32>) {
  // CHECK: dist.copy_box %{{.*}}[] [] into %{{.*}} as !dist.tensor<f32, {{.*}}> : memref<?xf32>, memref<1xf32>
  dist.copy_box %tile[] [] into %buf as !S : memref<?xf32>, memref<1xf32>
  return
}

// CHECK-LABEL: func @transfers
func.func @transfers(%a: memref<?xf64>, %b: memref<?xf64>, %r: index) {
  // CHECK: dist.permute %{{.*}} to %{{.*}}, %{{.*}} from %{{.*}} on @m : memref<?xf64>, memref<?xf64>
  dist.permute %a to %r, %b from %r on @m : memref<?xf64>, memref<?xf64>
  // CHECK: %[[B:.*]] = dist.start_broadcast %{{.*}} on @m axes [1] root %{{.*}} : memref<?xf64>
  %0 = dist.start_broadcast %a on @m axes [1] root %r : memref<?xf64>
  // CHECK: %[[S:.*]] = dist.start_shift %{{.*}} into %{{.*}} on @m axis 0 offset 1 : memref<?xf64> into memref<?xf64>
  %1 = dist.start_shift %a into %b on @m axis 0 offset 1
      : memref<?xf64> into memref<?xf64>
  // CHECK: %[[G:.*]] = dist.start_allgather %{{.*}} into %{{.*}} on @m axes [0] : memref<?xf64> into memref<?xf64>
  %2 = dist.start_allgather %a into %b on @m axes [0]
      : memref<?xf64> into memref<?xf64>
  // CHECK: %[[P:.*]] = dist.start_permute %{{.*}} to %{{.*}}, %{{.*}} from %{{.*}} on @m : memref<?xf64>, memref<?xf64>
  %3 = dist.start_permute %a to %r, %b from %r on @m
      : memref<?xf64>, memref<?xf64>
  // CHECK: %[[N:.*]] = dist.null_request
  %4 = dist.null_request
  // CHECK: dist.wait %[[B]]
  dist.wait %0
  // CHECK: dist.wait %[[S]]
  dist.wait %1
  // CHECK: dist.wait %[[G]]
  dist.wait %2
  // CHECK: dist.wait %[[P]]
  dist.wait %3
  // CHECK: dist.wait %[[N]]
  dist.wait %4
  return
}

// Requests flow through loops and branches.
// CHECK-LABEL: func @carried
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!dist.request)
// CHECK: scf.if %{{.*}} -> (!dist.request)
func.func @carried(%a: memref<?xf64>, %r: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = dist.start_broadcast %a on @m axes [0] root %r : memref<?xf64>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%req = %first)
      -> (!dist.request) {
    dist.wait %req
    %more = arith.cmpi slt, %i, %n : index
    %next = scf.if %more -> (!dist.request) {
      %s = dist.start_broadcast %a on @m axes [0] root %r : memref<?xf64>
      scf.yield %s : !dist.request
    } else {
      %none = dist.null_request
      scf.yield %none : !dist.request
    }
    scf.yield %next : !dist.request
  }
  dist.wait %last
  return
}

// Unused views, coordinates (they only read the communication resource)
// and null requests go. Box copies and transfers stay (they write memory
// or the network), and so does every wait.
// CANON-LABEL: func @effects
// CANON-NOT: dist.grid_coord
// CANON-NOT: dist.tile_view
// CANON: dist.copy_box
// CANON-NEXT: dist.copy_box
// CANON-NEXT: dist.fetch_box
// CANON-NEXT: dist.start_broadcast
// CANON-NEXT: dist.start_broadcast
// CANON-NEXT: dist.wait
// CANON-NEXT: dist.wait
// CANON-NEXT: return
func.func @effects(%tile: memref<?xf64>, %buf: memref<16xf64>, %i: index,
                   %r: index) {
  %c = dist.grid_coord on @m axis 1 : index
  %view, %inside = dist.tile_view %tile[%i, %i] [%i, %i] as !T
      : memref<?xf64> -> memref<?xf64, strided<[1], offset: ?>>
  dist.copy_box %tile[%i, %i] [%i, %i] into %buf as !T
      : memref<?xf64>, memref<16xf64>
  dist.copy_box %tile[%i, %i] [%i, %i] into %buf as !T
      : memref<?xf64>, memref<16xf64>
  dist.fetch_box %tile[%i, %i] [%i, %i] into %buf as !T
      : memref<?xf64>, memref<16xf64>
  %none = dist.null_request
  %r1 = dist.start_broadcast %buf on @m axes [1] root %r : memref<16xf64>
  %r2 = dist.start_broadcast %buf on @m axes [1] root %r : memref<16xf64>
  dist.wait %r1
  dist.wait %r2
  return
}
