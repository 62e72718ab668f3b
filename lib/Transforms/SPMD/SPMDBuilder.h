//===- SPMDBuilder.h - shared state of dist-materialize-spmd ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What the passes of dist-materialize-spmd (dist-instrument,
// dist-lower-redistributions, dist-lower-computations, dist-tensors-to-tiles)
// build SPMD ops with: the options, the local tile of each distributed
// tensor (dist.local_tile, created once right after the tensor's
// definition), constants, checked allocations and grid handles. No runtime
// function is named here: convert-dist-to-runtime lowers the ops.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_SPMDBUILDER_H
#define DIST_LIB_TRANSFORMS_SPMD_SPMDBUILDER_H

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir {
namespace dist {
namespace spmd {

/// The options of dist-materialize-spmd (Passes.td) the parts read.
struct SPMDOptions {
  bool check = false;
  bool timing = false;
  double tolerance = -1.0;
  std::string redistribution = "balanced";
  bool leafFallback = false;
  /// The tiles will be device memory (dist-device-memory runs next):
  /// sparse products run in the runtime (dist.sparse_mul_add).
  bool deviceTiles = false;
};

/// The dist ops dist-materialize-spmd rewrites.
bool isDistOp(Operation *op);

/// Shared state and emission helpers of one run of dist-materialize-spmd.
class SPMDBuilder {
public:
  SPMDBuilder(ModuleOp module, const SPMDOptions &options,
              const CostModel &costModel);
  SPMDBuilder(const SPMDBuilder &) = delete;
  SPMDBuilder &operator=(const SPMDBuilder &) = delete;

  ModuleOp module;
  const SPMDOptions &options;
  /// The redistribution planner's cost model.
  const CostModel &costModel;
  Type indexTy;
  /// dist tensor value -> its local tile (memref<?xT>).
  IRMapping tiles;

  // --- constants and conversions -------------------------------------------

  Value idx(OpBuilder &b, Location loc, int64_t v);
  /// The zero of element type `elt` (float or integer).
  Value zero(OpBuilder &b, Location loc, Type elt);

  /// memref.alloc followed by a check (dist.check_alloc) that stops the
  /// program with a clear message (naming `what` and the byte count) if
  /// the allocation failed.
  Value allocChecked(OpBuilder &b, Location loc, MemRefType type,
                     ValueRange dynSizes, StringRef what);

  /// `body` under `if (!cond)`.
  void unless(OpBuilder &b, Location loc, Value cond,
              function_ref<void(OpBuilder &)> body);

  // --- tiles ---------------------------------------------------------------

  /// The type of a local tile of `t`.
  MemRefType tileType(DistTensorType t);
  /// Fails with a diagnostic on `where` for layouts and grids this pass
  /// cannot lower (hierarchical ones, a grid that is not a dist.grid), and
  /// for sparse tensors unless `allowSparse` (then for sparse tensors the
  /// runtime cannot store, SparseCompute.h).
  LogicalResult checkTensorType(Operation *where, DistTensorType t,
                                bool allowSparse = false);
  /// The local tile of `tensor` (dist.local_tile; for a sparse tensor its
  /// handle, dist.sparse_local); null after a diagnostic on `user` when it
  /// has none.
  Value tileOf(Operation *user, Value tensor);

  /// A fresh symbol name `prefix` + N that the module does not use.
  std::string freshName(StringRef prefix, unsigned &counter);

  /// The counter of `__dist_refined_N` grids (Redistribute.cpp).
  unsigned refinedCounter = 0;
};

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_SPMDBUILDER_H
