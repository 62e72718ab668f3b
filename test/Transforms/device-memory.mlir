// RUN: dist-opt %s --dist-materialize-spmd=check=1 --dist-device-memory | FileCheck %s
// RUN: dist-opt %s --dist-to-llvm="check=1 device=gpu" | FileCheck %s --check-prefix=LLVM
// RUN: dist-opt %s --dist-to-llvm="check=1" | FileCheck %s --check-prefix=HOST

// SUMMA with the check instrumentation: the tiles in @main and the
// transfer buffers of @summa become device allocations (freed on the
// device), the zeroing loop of A's partial result a dist.zero_buffer; the
// host copies the check gathers into and compares against stay host
// memory. Lowered, no f64 element is loaded or stored by the host. Without
// device=gpu nothing changes (host allocations, the zeroing loop).

dist.grid @m [2, 2]
!A = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!C = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
dist.grid @n [4]
!y = !dist.tensor<64xf64, #dist.layout<@n, "x -> x">>
!M = !dist.tensor<64x48xf64, #dist.layout<@n, "xy -> x">>
!x = !dist.tensor<48xf64, #dist.layout<@n, "y -> *">>

// CHECK-LABEL: func.func @summa(
// CHECK-DAG: %[[G0:.*]] = memref.alloc() : memref<64x64xf64>
// CHECK-DAG: dist.gather_tile %{{.*}} into %[[G1:.*]] root 0
// CHECK-DAG: %[[BUF:.*]] = dist.device_alloc() : memref<1024xf64>
// CHECK-DAG: dist.check_alloc %[[BUF]], "the communication buffer of tensor A"
// CHECK-DAG: dist.device_alloc() : memref<512xf64>
// CHECK: scf.if
// CHECK-NOT: memref.store
// CHECK: dist.zero_buffer %[[BUF]], %{{.*}} : memref<1024xf64>
// CHECK: dist.gemm
// CHECK: dist.device_free %[[BUF]] : memref<1024xf64>
// CHECK: dist.check_result %{{.*}} against %[[G0]]
// CHECK: memref.dealloc %[[G0]]
// CHECK-NOT: memref.store
func.func @summa(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16),
                reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)]
      : !A, !B, !C
  return
}

// A 1-D tensor's gathered copy is a flat buffer too: it stays on the host.
// CHECK-LABEL: func.func @gemv(
// CHECK: %[[H:.*]] = memref.alloc() : memref<64xf64>
// CHECK: %[[HX:.*]] = memref.alloc() : memref<48xf64>
// CHECK: dist.gather_tile %{{.*}} into %[[HX]]
// CHECK: dist.zero_buffer
// CHECK: dist.gemv
// CHECK: dist.reference {{.*}} to %[[H]], %{{.*}}, %[[HX]]
// CHECK-LABEL: func.func @main(
// CHECK: %[[T:.*]] = dist.device_alloc(%{{.*}}) : memref<?xf64>
// CHECK: dist.check_alloc %[[T]], "the local tile of a distributed tensor"
// CHECK: dist.device_free %[[T]] : memref<?xf64>
func.func @gemv(%y: !y, %a: !M, %x: !x) {
  dist.compute "y(i) = A(i,j) * x(j)" (y = %y, A = %a, x = %x)
      schedule [distribute({i}, {io}, {ii}, Grid(4)),
                communicate({y, A, x}, io),
                substitute({ii, j}, gemv)]
      : !y, !M, !x
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @summa(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// LLVM-LABEL: llvm.func @summa(
// LLVM: llvm.call @distrt_device_alloc(
// LLVM: llvm.call @distrt_zero_buffer(
// LLVM: llvm.call @distrt_gemm_t_f64(
// LLVM: llvm.call @distrt_device_free(
// LLVM-LABEL: llvm.func @main(
// LLVM: llvm.call @distrt_device_alloc(
// LLVM-NOT: llvm.call @_mlir_memref_to_llvm_alloc(
// LLVM: llvm.call @distrt_device_free(

// HOST-NOT: distrt_device_alloc
// HOST-NOT: distrt_zero_buffer
