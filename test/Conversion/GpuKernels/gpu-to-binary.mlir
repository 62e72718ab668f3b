// REQUIRES: cuda-ptxas
// RUN: dist-opt %s --dist-gpu-to-binary | FileCheck %s
// RUN: dist-opt %s --dist-gpu-to-binary=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: dist-opt %s --dist-gpu-to-binary --dist-gpu-launch-to-llvm --convert-to-llvm | FileCheck %s --check-prefix=LAUNCH
// RUN: not dist-opt %s --dist-gpu-to-binary=toolkit=%t.nowhere 2>&1 | FileCheck %s --check-prefix=NOTOOLS
// RUN: not dist-opt %s --dist-gpu-to-binary=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=BADCHIP

// A kernel (what dist-gpu-kernels makes) becomes an embedded fat binary for
// the chip (sm_90 by default) and a launch of it; the launch then runs on
// the runtime's stream.

func.func @twice(%a: memref<?xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %blocks = arith.ceildivui %n, %c256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %o = arith.muli %bx, %sx : index
    %i = arith.addi %o, %tx : index
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %v = memref.load %a[%i] : memref<?xf64>
      %w = arith.addf %v, %v : f64
      memref.store %w, %a[%i] : memref<?xf64>
    }
    gpu.terminator
  }
  return
}

// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.launch_func  @twice_kernel::@twice_kernel blocks in
// CHECK: gpu.binary @twice_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {{.*}}, "{{.+}}">]
// CHECK-NOT: gpu.launch blocks
// SM80: gpu.binary @twice_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">,

// LAUNCH: llvm.func @twice(
// LAUNCH:   %[[S:.*]] = llvm.call @distrt_gpu_stream() : () -> !llvm.ptr
// LAUNCH:   gpu.launch_func <%[[S]] : !llvm.ptr> @twice_kernel::@twice_kernel
// LAUNCH: llvm.func @distrt_gpu_stream() -> !llvm.ptr

// NOTOOLS: error: this leaf is a GPU kernel, which needs CUDA's ptxas and fatbinary to compile, but '{{.*}}nowhere/bin/ptxas' is not there; install the CUDA toolkit or name it with dist-to-llvm gpu-toolkit=DIR (dist-gpu-to-binary toolkit=DIR)
// BADCHIP: error: gpu-chip 'gfx90a' is not an sm_XX name
