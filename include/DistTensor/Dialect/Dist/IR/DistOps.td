//===- DistOps.td - dist dialect operations ----------------*- tablegen -*-===//

#ifndef DIST_OPS_TD
#define DIST_OPS_TD

include "DistTensor/Dialect/Dist/IR/DistBase.td"
include "DistTensor/Dialect/Dist/IR/DistAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

//===----------------------------------------------------------------------===//
// Machines
//===----------------------------------------------------------------------===//

def Dist_GridOp : Dist_Op<"grid", [Symbol]> {
  let summary = "declares a named processor grid (a machine)";
  let description = [{
    Declares a machine: a named processor grid of any rank and extent. A
    hierarchical machine lists one grid per level, outermost first; every
    processor of a level is itself a grid of the next level. Each level names
    the kind of processor it is made of (`cpu`: an MPI rank, `gpu`: a GPU,
    `node`: a host). The kind defaults to `cpu` for a one-level grid.

    ```mlir
    // DISTAL: Machine m(Grid(2, 2))
    dist.grid @m [2, 2]
    // 2x2 nodes, each a 1-D grid of 4 GPUs.
    dist.grid @h node[2, 2], gpu[4]
    ```

    Processor coordinates map to ranks row-major (the last grid dimension
    varies fastest); the grid of a program started with the wrong number of
    ranks stops at run time with a message naming both numbers.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypedArrayAttrBase<Dist_GridLevelAttr,
                         "grid levels">:$levels);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of levels of the machine (1 for a flat grid).
    unsigned getNumLevels() { return getLevels().size(); }
    /// The grid level at index `i` (0 is the outermost).
    GridLevelAttr getLevel(unsigned i);
    /// Extents of the outermost level.
    ::llvm::ArrayRef<int64_t> getShape() { return getLevel(0).getShape(); }
    /// Total number of processors at the outermost level.
    int64_t getNumProcessors();
  }];
}

def Dist_GridHandleOp : Dist_Op<"grid_handle", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the run-time handle of a declared processor grid";
  let description = [{
    Yields the `distrt` runtime handle of the grid declared by the referenced
    `dist.grid`, created on first use (MPI communicators included) and cached
    for the rest of the run. `convert-dist-to-runtime` lowers it to one call
    of `distrt_grid_lookup`; that call checks the number of ranks the program
    was started with against the grid's size.

    ```mlir
    %g = dist.grid_handle @m : !llvm.ptr
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$grid);
  let results = (outs LLVM_AnyPointer:$handle);
  let assemblyFormat = "$grid attr-dict `:` type($handle)";
}

#endif // DIST_OPS_TD
