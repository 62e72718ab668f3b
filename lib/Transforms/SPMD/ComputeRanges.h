//===- ComputeRanges.h - index ranges of a computation's loops --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The ranges of a dist.compute's statement variables under its schedule,
// static (bounds known at compile time) and emitted (index arithmetic on
// the values of the fixed loops), and the boxes of tensors they make: what
// the computation's lowering (Compute.cpp), its transfers (Transfers.cpp)
// and its leaf kernels (LeafKernels.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_COMPUTERANGES_H
#define DIST_LIB_TRANSFORMS_SPMD_COMPUTERANGES_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"
#include "DistTensor/Dialect/Dist/IR/VariableRange.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace dist {
namespace spmd {

/// Static properties of the range of an index variable at a loop level.
struct StaticRange {
  bool point = false; // a single value
  bool full = false;  // all of [0, extent)
  bool exact = true;  // exactly [lo, lo + size), not a bounding box
  int64_t maxSize = 1;
};

/// Dynamic range: [lo, lo + size).
struct DynRange {
  Value lo, size;
  StaticRange info;
};

/// A buffer holding a box of a tensor: lo and size per tensor dimension.
struct BoxBuffer {
  Value memref; // memref<?xT>
  SmallVector<Value> lo, size;
};

/// The ranges of one dist.compute's variables while it is lowered.
class ComputeRanges {
public:
  ComputeRanges(ComputeOp op, IndexStatement &stmt, LoopNest &nest,
                llvm::StringMap<int64_t> &extents)
      : op(op), stmt(stmt), nest(nest), extents(extents),
        children(derivedVariables(nest)) {}

  ComputeOp op;
  IndexStatement &stmt;
  LoopNest &nest;
  llvm::StringMap<int64_t> &extents;
  /// parent variable -> derived variables.
  DerivedVariables children;
  /// Values of fixed loops (distributed loops and enclosing scf.for ivs).
  llvm::StringMap<Value> fixed;

  int64_t extentOf(StringRef v) const { return nest.extents.lookup(v); }

  bool isLoop(StringRef v) const { return nest.indexOf(v) >= 0; }

  /// The static shape of the range of `v` when the loops in `fixedSet` are
  /// fixed and the other loops run over their whole extent.
  StaticRange staticRange(StringRef v, const llvm::StringSet<> &fixedSet);

  /// An index constant.
  Value cst(OpBuilder &b, int64_t v);

  /// The range of `v` given the fixed loop values in `fixed` (other loops
  /// run over their whole extent). `guards` collects `value < extent`
  /// conditions of intermediate variables for point ranges.
  DynRange range(OpBuilder &b, StringRef v, const llvm::StringSet<> &fixedSet,
                 SmallVectorImpl<Value> *guards);
};

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_COMPUTERANGES_H
