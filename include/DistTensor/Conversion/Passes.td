//===- Passes.td - dist conversion passes ------------------*- tablegen -*-===//

#ifndef DIST_CONVERSION_PASSES_TD
#define DIST_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDistToRuntime : Pass<"convert-dist-to-runtime", "ModuleOp"> {
  let summary = "Lower machine declarations and handles to distrt runtime calls";
  let description = [{
    Lowers every `dist.grid` to an internal LLVM global that caches the
    runtime grid (communicators included) and a constant array of its
    extents, and every `dist.grid_handle` to one call of
    `distrt_grid_lookup(slot, ndims, dims)`, which creates the grid on first
    use and checks the number of ranks the program runs on against the grid
    size. Levels of a hierarchical machine of CPU kinds are flattened into
    one grid (outermost level first); levels of GPUs need the NCCL backend
    and are rejected with a diagnostic until it exists.

    The communication ops on buffers (`dist.broadcast`, `dist.allreduce`,
    ..., `dist.send`, `dist.recv`) become calls of the matching `distrt_*`
    function with the grid handle, a mask of the group's axes, the buffer's
    aligned pointer, its element count and element-type code. Buffers must
    have the identity layout. Distributed tensors and computations must
    have been lowered by `dist-materialize-spmd` before; any other dist
    operation is an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def DistGpuToBinary : Pass<"dist-gpu-to-binary", "ModuleOp"> {
  let summary = "Compile the module's GPU kernels (gpu.launch) into an "
                "embedded CUDA binary";
  let description = [{
    Does nothing in a module without `gpu.launch` (`dist-gpu-kernels` makes
    them from the leaves over device tiles). Otherwise it runs upstream's
    GPU compilation on the module: `gpu-kernel-outlining`,
    `nvvm-attach-target` (the `chip` option, `-O3`), then in each
    `gpu.module` `expand-strided-metadata`, `lower-affine`,
    `convert-scf-to-cf`, `convert-gpu-to-nvvm` and
    `reconcile-unrealized-casts`, and last `gpu-module-to-binary` with
    `format=fatbin`: CUDA's `ptxas` and `fatbinary` make one fat binary with
    the chip's code and its PTX (which the driver compiles for newer GPUs).
    The binary is embedded in the program (`gpu.binary`).

    The CUDA toolkit is the `toolkit` option, or else the one the project
    was configured with (`/usr/local/cuda` by default). Without `ptxas`
    there it is an error at the first kernel naming the path.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "The GPU architecture the kernels are compiled for (sm_XX)">,
    Option<"toolkit", "toolkit", "std::string", "\"\"",
           "The CUDA toolkit directory holding bin/ptxas and bin/fatbinary "
           "(default: the one found when the project was configured)">,
  ];
}

def DistGpuLaunchToLLVM : Pass<"dist-gpu-launch-to-llvm", "ModuleOp"> {
  let summary = "Lower the kernel launches to LLVM, queued on the runtime's "
                "CUDA stream";
  let description = [{
    Does nothing in a module without `gpu.launch_func`. Otherwise it runs
    upstream's `gpu-to-llvm` on the module, then gives every launch the
    stream of the distrt backend (`distrt_gpu_stream()`), so that a kernel
    is ordered after the transfers and library leaves queued before it and
    the host does not wait for it. `dist-translate` then turns each launch
    into calls of `mgpuModuleGetFunction` and `mgpuLaunchKernel`, and the
    embedded binary into `mgpuModuleLoad` / `mgpuModuleUnload` in global
    constructors and destructors; distrt implements these four functions
    over the backend (runtime/lib/gpu_kernels.c).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // DIST_CONVERSION_PASSES_TD
