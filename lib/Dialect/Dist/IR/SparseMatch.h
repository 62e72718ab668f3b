//===- SparseMatch.h - helpers of the sparse matchers -----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Not installed. What the recognizers of the sparse computations share
// (SparseOps.cpp: products, SDDMM, sums; SparseTensor3.cpp: the kernels on
// tensors of order 3): questions about a tensor's layout and the check of
// a sparse schedule.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_DIALECT_DIST_IR_SPARSEMATCH_H
#define DIST_DIALECT_DIST_IR_SPARSEMATCH_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include <string>

namespace mlir {
namespace dist {
namespace sparse_match {

/// The dimension distribution of dimension `d` of `t` (outer level).
DimDistAttr dimOf(DistTensorType t, unsigned d);
/// Whether dimension 0 of `t` is split by non-zeros over axis 0.
bool nonzerosOnAxis0(DistTensorType t);
/// Whether dimension `d` of `t` is blocked over axis 0 of a 1-D grid.
bool blockedOnAxis0(DistTensorType t, unsigned d);
/// Whether dimension `d` of `t` is not partitioned.
bool whole(DistTensorType t, unsigned d);
/// Whether dense operand `t` lies on `grid`, one level, not fixed to a
/// face (what the sparse computations' dense operands must be).
bool onOneLevelOf(DistTensorType t, FlatSymbolRefAttr grid);
/// `t` as the IR prints it.
std::string typeStr(Type t);
/// Why `nest` is not a schedule a sparse computation over `matrix` runs
/// (empty when it is): one distributed loop over the rows `levels[0]`, or
/// over the positions of fuse(levels[0], levels[1]) in `matrix` (sets
/// `positions`), or, given an order-3 tensor's three variables, over the
/// positions of all three fused (sets `positions` and `*entries`).
std::string checkSparseSchedule(const LoopNest &nest, StringRef matrix,
                                ArrayRef<StringRef> levels, bool storedNonzeros,
                                int64_t procs, bool &positions,
                                bool *entries = nullptr);
/// Appends the operands of `e` to `out` when it is accesses joined by
/// `kind` only (Mul: a product without constants or signs; Add: a sum).
bool accessesJoinedBy(const IndexExpr *e, IndexExpr::Kind kind,
                      SmallVectorImpl<const Access *> &out);

/// SpTTV and SpMTTKRP (SparseTensor3.cpp): `stmt` has a sparse operand of
/// order 3.
FailureOr<SparseProduct>
matchSparseTensor3(const IndexStatement &stmt,
                   const llvm::StringMap<DistTensorType> &types,
                   const LoopNest &nest, ArrayRef<int64_t> gridShape,
                   std::string &error);

} // namespace sparse_match
} // namespace dist
} // namespace mlir

#endif // DIST_DIALECT_DIST_IR_SPARSEMATCH_H
