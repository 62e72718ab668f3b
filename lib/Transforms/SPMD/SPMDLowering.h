//===- SPMDLowering.h - the lowerings of dist-materialize-spmd --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The entry points of the parts of dist-materialize-spmd the pass driver
// (MaterializeSPMD.cpp, which lowers dist.alloc, dist.fill, dist.load and
// dist.store itself) hands the other dist ops to.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_SPMDLOWERING_H
#define DIST_LIB_TRANSFORMS_SPMD_SPMDLOWERING_H

#include "SPMDBuilder.h"

#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace dist {
namespace spmd {

/// dist.compute: the computation's loop nest with its transfers and leaf
/// (Compute.cpp).
LogicalResult lowerCompute(SPMDBuilder &rt, ComputeOp op);

/// dist.compute with a sparse operand: the exchange plan and sparsifier
/// leaves (SparseCompute.cpp).
LogicalResult lowerSparseCompute(SPMDBuilder &rt, ComputeOp op);

/// The SDDMM `prod` of `op` (SparseSddmm.cpp), on a grid of `procs`
/// processes; `types` and `values` by the statement's tensor names.
LogicalResult lowerSparseSddmm(SPMDBuilder &rt, ComputeOp op,
                               const SparseProduct &prod,
                               llvm::StringMap<DistTensorType> &types,
                               llvm::StringMap<Value> &values, int64_t procs);

/// The sum of sparse matrices `prod` of `op` (SparseAdd.cpp), on a grid of
/// `procs` processes.
LogicalResult lowerSparseAdd(SPMDBuilder &rt, ComputeOp op,
                             const SparseProduct &prod,
                             llvm::StringMap<DistTensorType> &types,
                             llvm::StringMap<Value> &values, int64_t procs);

/// SpTTV or SpMTTKRP `prod` (statement `stmt`) of `op`, on a sparse tensor
/// of order 3 (SparseTensor3.cpp).
LogicalResult lowerSparseTensor3(SPMDBuilder &rt, ComputeOp op,
                                 const SparseProduct &prod,
                                 const IndexStatement &stmt,
                                 llvm::StringMap<DistTensorType> &types,
                                 llvm::StringMap<Value> &values);

/// A computation as the runtime's messages name it: "FILE:LINE:COL: " (when
/// `loc` has one) and the statement.
std::string runtimeWhere(Location loc, const IndexStatement &stmt);

/// dist.compute of a matrix product scheduled one-sided: one
/// dist.onesided_matmul (OneSidedCompute.cpp).
LogicalResult lowerOneSidedCompute(SPMDBuilder &rt, ComputeOp op);

/// dist.redistribute: planned steps, partial sums or the general exchange
/// (Redistribute.cpp).
LogicalResult lowerRedistribute(SPMDBuilder &rt, RedistributeOp op);

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_SPMDLOWERING_H
