//===- RuntimeLowering.h - shared state of convert-dist-to-runtime -*- C++ -*-//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// convert-dist-to-runtime is the only code that knows the names of the
// distrt functions. Its conversion patterns, one set per family of SPMD ops
// (communication on buffers: CommToRuntime.cpp; transfers, boxes and tile
// views: TransferToRuntime.cpp; leaf kernels, tiles, redistribution steps
// and instrumentation: KernelToRuntime.cpp), share one RuntimeLowering: the
// grids' globals, calls declared from the runtime table
// (RuntimeFunctions.def), descriptor and string globals, and the C ABI's
// argument forms (pointers, i64 scalars, i64 arrays on the stack).
//
// A second backend (NCCL) is one more set of patterns over the same ops.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_CONVERSION_DISTTORUNTIME_RUNTIMELOWERING_H
#define DIST_LIB_CONVERSION_DISTTORUNTIME_RUNTIMELOWERING_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace dist {
namespace rt {

/// The globals of one lowered dist.grid.
struct GridGlobals {
  LLVM::GlobalOp slot;
  LLVM::GlobalOp dims;
  /// Flattened extents (all levels, outermost first).
  SmallVector<int64_t> shape;
  /// Leading axes that index nodes (`dist.node_axes`; 0: a flat grid).
  int64_t nodeAxes = 0;
  /// A machine of GPUs (looked up with distrt_grid_lookup_gpus).
  bool gpus = false;
};

/// Shared state and emission helpers of one run of convert-dist-to-runtime.
class RuntimeLowering {
public:
  explicit RuntimeLowering(ModuleOp module);
  RuntimeLowering(const RuntimeLowering &) = delete;
  RuntimeLowering &operator=(const RuntimeLowering &) = delete;

  ModuleOp module;
  Type ptrTy, i64Ty, f64Ty;

  /// Gives up on `op` after its diagnostic was emitted: replaces its
  /// results with poison, erases it and records the error, so the
  /// conversion goes on (one diagnostic, no "failed to legalize" on top)
  /// and the pass fails at its end (hadError()).
  LogicalResult fail(ConversionPatternRewriter &rewriter, Operation *op,
                     const TypeConverter *converter = nullptr);
  bool hadError() const { return errored; }

  /// Creates the globals of `grid` (done for every grid before the
  /// patterns run).
  LogicalResult lowerGrid(GridOp grid);

  /// The runtime handle of grid `grid` (one distrt_grid_lookup through its
  /// cache slot); null after a diagnostic on `user` when `grid` names no
  /// module-level dist.grid.
  Value gridHandle(OpBuilder &b, Location loc, Operation *user,
                   FlatSymbolRefAttr grid);
  /// The flattened extents of `grid` (empty when unknown).
  ArrayRef<int64_t> gridShape(FlatSymbolRefAttr grid);

  /// A call of runtime function `name` with `args`; its result (null for a
  /// void function). A name not in the runtime table, or arguments that do
  /// not match its signature, is an internal error: failure after a
  /// diagnostic at `loc`.
  FailureOr<Value> call(OpBuilder &b, Location loc, StringRef name,
                        ValueRange args);

  // --- the C ABI's argument forms ------------------------------------------

  Value i64(OpBuilder &b, Location loc, int64_t v);
  Value f64(OpBuilder &b, Location loc, double v);
  /// An index or integer value as i64.
  Value toI64(OpBuilder &b, Location loc, Value v);
  /// The mask of grid axes `axes` (bit a for axis a).
  Value axesMask(OpBuilder &b, Location loc, ArrayRef<int64_t> axes);

  /// Pointer to the first element of a memref (its aligned pointer plus its
  /// offset, so a strided view into a tile points at the view).
  Value ptrOf(OpBuilder &b, Location loc, Value mem);

  /// A contiguous buffer as (pointer, element count, dtype code); fails
  /// with a diagnostic on `op` for non-identity layouts or element types
  /// distrt lacks.
  LogicalResult buffer(OpBuilder &b, Location loc, Operation *op, Value mem,
                       Value &ptr, Value &count, int64_t &dtype);

  /// Pointer to the runtime layout descriptor of `type`
  /// (abi::layoutDescriptor), a constant global shared by equal
  /// descriptors.
  Value descriptor(OpBuilder &b, Location loc, DistTensorType type);
  /// Pointer to a constant i64 array global holding `values`.
  Value constArray(OpBuilder &b, Location loc, ArrayRef<int64_t> values);
  /// Pointer to a constant NUL-terminated string.
  Value constString(OpBuilder &b, Location loc, StringRef text);

  /// Saves the stack pointer; arrays from stackArray() live until the
  /// matching restoreStack(). Use it around every call that takes an
  /// array of run-time values, so a call inside a loop (or an OpenMP
  /// region) does not grow or share the stack.
  Value saveStack(OpBuilder &b, Location loc);
  void restoreStack(OpBuilder &b, Location loc, Value saved);
  /// Pointer to an i64 array on the stack holding `values` (index or
  /// integer values); see saveStack.
  Value stackArray(OpBuilder &b, Location loc, ValueRange values);

private:
  bool errored = false;
  llvm::DenseMap<StringAttr, GridGlobals> grids;
  llvm::StringMap<LLVM::GlobalOp> arrayGlobals;
  llvm::StringMap<LLVM::GlobalOp> stringGlobals;
  unsigned globalCounter = 0;
  std::string freshName(StringRef prefix);
};

/// Patterns for the blocking communication ops on buffers (dist.broadcast,
/// ..., dist.recv) and dist.grid_handle.
void populateCommToRuntimePatterns(RewritePatternSet &patterns,
                                   RuntimeLowering &lowering);
/// Patterns for transfers, boxes and tile views (TransferToRuntime.cpp).
void populateTransferToRuntimePatterns(RewritePatternSet &patterns,
                                       TypeConverter &converter,
                                       RuntimeLowering &lowering);
/// Patterns for leaf kernels, tiles, redistribution steps and the
/// instrumentation (KernelToRuntime.cpp).
void populateKernelToRuntimePatterns(RewritePatternSet &patterns,
                                     TypeConverter &converter,
                                     RuntimeLowering &lowering);

/// Patterns for the ops on sparse tiles and !dist.sparse_tile itself
/// (SparseToRuntime.cpp).
void populateSparseToRuntimePatterns(RewritePatternSet &patterns,
                                     TypeConverter &converter,
                                     RuntimeLowering &lowering);

} // namespace rt
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_CONVERSION_DISTTORUNTIME_RUNTIMELOWERING_H
