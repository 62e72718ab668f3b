// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s
// RUN: dist-opt %s --dist-materialize-spmd=overlap=false --convert-dist-to-runtime -split-input-file | FileCheck %s --check-prefix=RT
// The gemv and dot library leaves: substitute({...}, gemv) makes the leaf of
// y(i) = A(i,j) * x(j) one dist.gemv (cblas_?gemv on a view of A's
// row-major box, transposed when A's last index is the row index; a
// distrt_gemv_t_* call) and substitute({...}, dot) the leaf of
// a = u(k) * v(k) one dist.dot (cblas_?dot added into the output; a
// distrt_dot_acc_* call), instead of a linalg.generic.

dist.grid @m [4]
!y = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<48xf64, #dist.layout<@m, "y -> *">>

// CHECK-LABEL: func.func @gemv
// CHECK-NOT: linalg.generic
// CHECK: dist.gemv %{{[^ ]*}}, %{{[^ ]*}} into %{{[^ ]*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>> into memref<?xf64, strided<[1], offset: ?>>
// CHECK-NOT: linalg.generic
// CHECK: return
// RT-LABEL: func.func @gemv
// RT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// RT-NEXT: %[[NT:.*]] = llvm.mlir.constant(0 : i64) : i64
// RT: llvm.call @distrt_gemv_t_f64(%[[NT]], %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}) : (i64, i64, i64, f64, !llvm.ptr, i64, !llvm.ptr, i64, f64, !llvm.ptr, i64) -> ()
func.func @gemv(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({y, A, x}, io),
                substitute({ii, j}, gemv)] : !y, !A, !x
  return
}

// -----

// A stored as (j, i): the transposed call.
dist.grid @m [4]
!y = !dist.tensor<64xf32, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<48x64xf32, #dist.layout<@m, "xy -> y">>
!x = !dist.tensor<48xf32, #dist.layout<@m, "y -> *">>

// CHECK-LABEL: func.func @gemv_t
// CHECK: dist.gemv %{{[^ ]*}} transposed, %{{[^ ]*}} into %{{[^ ]*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>
// RT-LABEL: func.func @gemv_t
// RT: llvm.mlir.constant(1.000000e+00 : f64) : f64
// RT-NEXT: %[[T:.*]] = llvm.mlir.constant(1 : i64) : i64
// RT: llvm.call @distrt_gemv_t_f32(%[[T]],
func.func @gemv_t(%y: !y, %a: !A, %x: !x) {
  dist.compute "y(i) = A(j,i) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({y, A, x}, io),
                substitute({ii, j}, gemv)] : !y, !A, !x
  return
}

// -----

dist.grid @m [4]
!a = !dist.tensor<f64, #dist.layout<@m, " -> *">>
!u = !dist.tensor<1000xf64, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @dot
// CHECK-NOT: linalg.generic
// CHECK: dist.dot %{{[^ ]*}}, %{{[^ ]*}} into %{{[^ ]*}} : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>> into memref<f64, strided<[], offset: ?>>
// CHECK-NOT: linalg.generic
// CHECK: return
// RT-LABEL: func.func @dot
// RT: llvm.call @distrt_dot_acc_f64(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
func.func @dot(%a: !a, %u: !u, %v: !u) {
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)),
                communicate({a, u, v}, ko),
                substitute({ki}, dot)] : !a, !u, !u
  return
}

// -----

// TTV, A(i,j) = B(i,j,k) * c(k): substitute({ji, k}, gemv) makes one gemv
// per point of the loop ii around it, on the matrix B(ii, :, :) (its rows
// K apart) into the row A(ii, :).
dist.grid @m [2, 2]
!A = !dist.tensor<8x6xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<5xf64, #dist.layout<@m, "z -> **">>

// CHECK-LABEL: func.func @ttv
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK: dist.gemv %{{[^ ]*}}, %{{[^ ]*}} into %{{[^ ]*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>> into memref<?xf64, strided<[1], offset: ?>>
// CHECK-NOT: linalg.generic
// CHECK: return
// RT-LABEL: func.func @ttv
// RT: llvm.call @distrt_gemv_t_f64(
func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo),
                substitute({ji, k}, gemv)] : !A, !B, !c
  return
}

// -----

// innerprod, a = B(i,j,k) * C(i,j,k): one dot per point of ii and ji.
dist.grid @m [2, 2]
!a = !dist.tensor<f64, #dist.layout<@m, " -> **">>
!B = !dist.tensor<8x6x5xf64, #dist.layout<@m, "xyz -> xy">>

// CHECK-LABEL: func.func @innerprod
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK: scf.for
// CHECK: dist.dot %{{[^ ]*}}, %{{[^ ]*}} into %{{[^ ]*}} : memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>> into memref<f64, strided<[], offset: ?>>
// CHECK-NOT: linalg.generic
// CHECK: return
// RT-LABEL: func.func @innerprod
// RT: llvm.call @distrt_dot_acc_f64(
func.func @innerprod(%a: !a, %b: !B, %c: !B) {
  dist.compute "a = B(i,j,k) * C(i,j,k)" (a = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({a, B, C}, jo),
                substitute({k}, dot)] : !a, !B, !B
  return
}

// -----

// Without a substitute the same statements keep their linalg leaf (the
// automatic choice does not change).
dist.grid @m [4]
!a = !dist.tensor<f32, #dist.layout<@m, " -> *">>
!u = !dist.tensor<1000xf32, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @dot_linalg
// CHECK-NOT: dist.dot
// CHECK: linalg.generic
// CHECK-NOT: dist.dot
// CHECK: return
func.func @dot_linalg(%a: !a, %u: !u, %v: !u) {
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)),
                communicate({a, u, v}, ko)] : !a, !u, !u
  return
}
