// RUN: dist-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// dist.onesided_matmul round-trips, and its verifier checks the tiles'
// element types, the shapes, the grids (of the same processes), the batch
// and the prefetch depth.

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
// CHECK-LABEL: func.func @ok(
// CHECK: dist.onesided_matmul %{{.*}}, %{{.*}} into %{{.*}} stationary C prefetch 2 offset true as
// CHECK: dist.onesided_matmul %{{.*}}, %{{.*}} accumulate into %{{.*}} stationary A prefetch 1 offset false as
func.func @ok(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  dist.onesided_matmul %a, %b accumulate into %c stationary A prefetch 1 offset false
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

// Grids of the same processes, and a batch.
dist.grid @m [2, 2]
dist.grid @n [4]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@n, [(), (0) blocked]>>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
!T = !dist.tensor<3xf64, #dist.layout<@m, [()]>>
// CHECK-LABEL: func.func @grids_batch(
// CHECK: dist.onesided_matmul %{{.*}}, %{{.*}} into %{{.*}} stationary B prefetch 2 offset true as {{.*}} batch !dist.tensor<3xf64
func.func @grids_batch(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  dist.onesided_matmul %a, %b into %c stationary B prefetch 2 offset true
      as !A, !B, !C batch !T : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
!T = !dist.tensor<3x2xf64, #dist.layout<@m, [(), ()]>>
func.func @batch(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{the batch is a dense 1-D tensor}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C batch !T : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<6x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @shapes(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{the shapes do not multiply: A is 7x5, B 6x9, C 7x9}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @prefetch(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{prefetch depth 0 is not between 1 and 16}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 0 offset true
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@m, "xy -> *y">>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @elements(%a: memref<?xf32>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{A tile}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C : memref<?xf32>, memref<?xf64>, memref<?xf64>
  return
}

// -----

dist.grid @m [2, 2]
dist.grid @n [3]
!A = !dist.tensor<7x5xf64, #dist.layout<@m, "xy -> x*">>
!B = !dist.tensor<5x9xf64, #dist.layout<@n, [(), (0) blocked]>>
!C = !dist.tensor<7x9xf64, #dist.layout<@m, "xy -> xy">>
func.func @grids(%a: memref<?xf64>, %b: memref<?xf64>, %c: memref<?xf64>) {
  // expected-error @+1 {{A, B and C must be on grids of the same processes: @n has 3, @m 4}}
  dist.onesided_matmul %a, %b into %c stationary C prefetch 2 offset true
      as !A, !B, !C : memref<?xf64>, memref<?xf64>, memref<?xf64>
  return
}
