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

#endif // DIST_CONVERSION_PASSES_TD
