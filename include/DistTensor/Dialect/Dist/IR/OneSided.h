//===- OneSided.h - the one-sided matrix products dist lowers ---*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Which dist.compute ops the one-sided lowering takes (seed 004, "Slicing
// Is All You Need"; docs/onesided.md): a schedule with `stationary`,
// `prefetch` or `offset` on `C(i,j) (+)= A(i,k) * B(k,j)` with any layouts
// of A, B and C on one grid. Shared by the verifier of dist.compute, the
// lowering (lib/Transforms/SPMD/OneSidedCompute.cpp) and the report pass,
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

/// A recognized one-sided product `C(i,j) (+)= A(i,k) * B(k,j)`.
struct OneSidedProduct {
  /// The tensors in their roles (A: rows of C by the summed index; B: the
  /// summed index by columns of C; C: the output).
  std::string a, b, c;
  /// The tensor that does not move: the schedule's, or the cost model's
  /// choice for stationary(auto).
  Stationary stationary = Stationary::C;
  bool chosenByModel = false;
  int64_t prefetch = kDefaultPrefetch;
  bool offset = true;
  /// The cost model's words moved per process for stationary A, B and C
  /// (elements got plus elements accumulated, accumulated ones counted
  /// twice; docs/onesided.md "Choosing the stationary tensor").
  std::array<double, 3> words = {0, 0, 0};
};

/// Recognizes `stmt` over `types`, scheduled as `nest` (whose schedule
/// selects the one-sided lowering, nest.isOneSided()) on the one-level grid
/// of extents `gridShape`. On failure `error` says what does not fit, in a
/// sentence that can follow "one-sided product cannot be lowered: ".
FailureOr<OneSidedProduct> matchOneSidedProduct(
    const IndexStatement &stmt, const llvm::StringMap<DistTensorType> &types,
    const LoopNest &nest, ArrayRef<int64_t> gridShape, std::string &error);

/// The stationary tensor's name in `p`.
llvm::StringRef stationaryTensor(const OneSidedProduct &p);

class ComputeOp;
/// Whether the schedule of `op` selects the one-sided lowering.
bool isOneSidedCompute(ComputeOp op);
/// The one-sided product of `op` (which must verify), or failure.
FailureOr<OneSidedProduct> getOneSidedProduct(ComputeOp op);
/// What the one-sided lowering does for `p`, for reports: the stationary
/// tensor and who chose it, the model's words and the prefetch depth.
std::string describeOneSided(const OneSidedProduct &p);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_ONESIDED_H
