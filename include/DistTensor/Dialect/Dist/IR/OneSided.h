//===- OneSided.h - the one-sided matrix products dist lowers ---*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Which dist.compute ops the one-sided lowering takes (seed 004, "Slicing
// Is All You Need"; docs/onesided.md): a schedule with `stationary`,
// `prefetch` or `offset` on `C(i,j) (+)= A(i,k) * B(k,j)`, or a contraction
// that matricizes to one (batch indices allowed), with any layouts of A, B
// and C on grids of the same processes. Shared by the verifier of dist.compute,
// the lowering (lib/Transforms/SPMD/OneSidedCompute.cpp) and the report pass,
// so that what verifies lowers and the report says what runs.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_ONESIDED_H
#define DISTTENSOR_DIALECT_DIST_IR_ONESIDED_H

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/StringMap.h"

#include <array>
#include <string>

namespace mlir {
namespace dist {

/// The prefetch depth when the schedule has no prefetch command.
constexpr int64_t kDefaultPrefetch = 2;

/// The alpha-beta-gamma model's parameters (seconds per message, per
/// element moved, per flop): the redistribution planner's alpha and beta
/// (CostModel in Analysis/Redistribution.h, read from the same cost file)
/// and gamma. The defaults are CostModel's.
struct OneSidedCosts {
  double alpha = 1e-6;
  double beta = 1e-9;
  double gamma = 1e-10;
};

/// What one choice of the stationary tensor costs a process that holds a
/// tile of it, by the model (docs/onesided.md "Choosing the stationary
/// tensor").
struct OneSidedEstimate {
  /// One-sided operations (gets and accumulates of merged pieces) and the
  /// messages of the allreduce of a replicated C.
  double messages = 0;
  /// Elements got plus elements accumulated (counted twice) plus the
  /// allreduce of a replicated C.
  double words = 0;
  /// Flops of the GEMMs.
  double flops = 0;
  double seconds(const OneSidedCosts &c) const {
    return c.alpha * messages + c.beta * words + c.gamma * flops;
  }
};

/// A recognized one-sided product: `C(i,j) (+)= A(i,k) * B(k,j)`, or a
/// contraction that matricizes to one, `C(b.., i.., j..) (+)= A(b.., i..,
/// k..) * B(b.., k.., j..)` (each group of indices adjacent and in one
/// order in every tensor; b.. the batch indices).
struct OneSidedProduct {
  /// The tensors in their roles (A: rows of C by the summed index; B: the
  /// summed index by columns of C; C: the output).
  std::string a, b, c;
  /// The matrices the runtime multiplies: each tensor's matricized view
  /// (M x K, K x N, M x N) without the batch indices, with a 2-D layout on
  /// the tensor's grid whose tile is the tensor's tile of one batch
  /// element. For matrices, the tensors' own types.
  DistTensorType matA, matB, matC;
  /// With batch indices: a 1-D tensor type whose extent is the number of
  /// products and whose layout deals them out as all three tensors do (on
  /// C's grid); null without batch indices. A process multiplies its own
  /// batch elements, one after the other, each tile's batch elements
  /// consecutive in it.
  DistTensorType batch;
  /// The tensor that does not move: the schedule's, or the cost model's
  /// choice for stationary(auto).
  Stationary stationary = Stationary::C;
  bool chosenByModel = false;
  int64_t prefetch = kDefaultPrefetch;
  bool offset = true;
  /// The model's parameters and its estimates for stationary A, B and C.
  OneSidedCosts costs;
  std::array<OneSidedEstimate, 3> estimates;
  /// False when an extent is dynamic (`?`): the model needs the extents, so
  /// the schedule names the stationary tensor and `estimates` are zero.
  bool estimated = true;
};

/// The grids' extents by name, as matchOneSidedProduct takes them.
using GridShapes = llvm::StringMap<llvm::SmallVector<int64_t>>;

/// Recognizes `stmt` over `types`, scheduled as `nest` (whose schedule
/// selects the one-sided lowering, nest.isOneSided()), the tensors on the
/// one-level grids `grids` (by name). `costs` is the model that chooses
/// for stationary(auto). On failure `error` says what does not fit, in a
/// sentence that can follow "one-sided product cannot be lowered: ".
FailureOr<OneSidedProduct>
matchOneSidedProduct(const IndexStatement &stmt,
                     const llvm::StringMap<DistTensorType> &types,
                     const LoopNest &nest, const GridShapes &grids,
                     const OneSidedCosts &costs, std::string &error);

/// The stationary tensor's name in `p`.
llvm::StringRef stationaryTensor(const OneSidedProduct &p);

class ComputeOp;
/// Whether the schedule of `op` selects the one-sided lowering.
bool isOneSidedCompute(ComputeOp op);
/// The one-level grids of the tensors of `op` by name, or the reason one is
/// not in scope or not one-level.
FailureOr<GridShapes>
oneSidedGrids(ComputeOp op, const llvm::StringMap<DistTensorType> &types,
              std::string &error);
/// The one-sided product of `op` (which must verify) under `costs`, or
/// failure.
FailureOr<OneSidedProduct> getOneSidedProduct(ComputeOp op,
                                              const OneSidedCosts &costs = {});
/// What the one-sided lowering does for `p`, for reports: the stationary
/// tensor and who chose it, the model's estimates and the prefetch depth.
std::string describeOneSided(const OneSidedProduct &p);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_ONESIDED_H
