// RUN: dist-opt %s --dist-materialize-spmd=overlap=false -split-input-file | FileCheck %s
// The gemv and dot library leaves: substitute({...}, gemv) makes the leaf of
// y(i) = A(i,j) * x(j) one distrt_gemv_t_* call (cblas_?gemv on A's
// row-major box, transposed when A's last index is the row index) and
// substitute({...}, dot) the leaf of a = u(k) * v(k) one distrt_dot_acc_*
// call (cblas_?dot added into the output), instead of a linalg.generic.

dist.grid @m [4]
!y = !dist.tensor<64xf64, #dist.layout<@m, "x -> x">>
!A = !dist.tensor<64x48xf64, #dist.layout<@m, "xy -> x">>
!x = !dist.tensor<48xf64, #dist.layout<@m, "y -> *">>

// CHECK-LABEL: func.func @gemv
// CHECK-NOT: linalg.generic
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[NT:.*]] = arith.constant 0 : i64
// CHECK: call @distrt_gemv_t_f64(%[[NT]], %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}) : (i64, i64, i64, f64, !llvm.ptr, i64, !llvm.ptr, i64, f64, !llvm.ptr, i64) -> ()
// CHECK-NOT: linalg.generic
// CHECK: return
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
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[T:.*]] = arith.constant 1 : i64
// CHECK: call @distrt_gemv_t_f32(%[[T]],
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
// CHECK: call @distrt_dot_acc_f64(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @dot(%a: !a, %u: !u, %v: !u) {
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)),
                communicate({a, u, v}, ko),
                substitute({ki}, dot)] : !a, !u, !u
  return
}

// -----

// Without a substitute the same statements keep their linalg leaf (the
// automatic choice does not change).
dist.grid @m [4]
!a = !dist.tensor<f32, #dist.layout<@m, " -> *">>
!u = !dist.tensor<1000xf32, #dist.layout<@m, "x -> x">>

// CHECK-LABEL: func.func @dot_linalg
// CHECK-NOT: call @distrt_dot
// CHECK: linalg.generic
// CHECK-NOT: call @distrt_dot
// CHECK: return
func.func @dot_linalg(%a: !a, %u: !u, %v: !u) {
  dist.compute "a = u(k) * v(k)" (a = %a, u = %u, v = %v)
      schedule [distribute({k}, {ko}, {ki}, Grid(4)),
                communicate({a, u, v}, ko)] : !a, !u, !u
  return
}
