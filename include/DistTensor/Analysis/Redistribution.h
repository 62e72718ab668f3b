//===- Redistribution.h - the thesis' redistribution rules ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Plans a redistribution between two elemental-cyclic layouts of one tensor
// on one mesh (Schatz 2015, ch. 3-4; ../shared/design/schatz-digest.md):
// each step is one of the thesis' collectives acting on suffixes of the
// mode tuples, and the cheapest sequence under the alpha-beta cost model is
// chosen.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_REDISTRIBUTION_H
#define DISTTENSOR_ANALYSIS_REDISTRIBUTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace dist {

/// Mode tuples, one per tensor dimension (first listed mode fastest).
using ModeTuples = std::vector<std::vector<int64_t>>;

/// One step of a plan.
struct RedistributionStep {
  enum class Kind { LocalSlice, AllGather, Permutation, AllToAll };
  Kind kind;
  /// Mesh modes the collective runs over.
  llvm::SmallVector<int64_t> modes;
  /// The layout after the step.
  ModeTuples after;
  /// Predicted seconds.
  double cost = 0;
};

struct RedistributionPlan {
  std::vector<RedistributionStep> steps;
  double cost = 0;
};

/// The alpha-beta model: seconds per message and per element.
struct CostModel {
  double alpha = 1e-6;
  double beta = 1e-9;
};

/// The single thesis collective that takes `from` to `to`, if one applies
/// (no-op plans have no steps). `mesh` gives the extent of every mode and
/// `shape` the tensor's extents.
std::optional<RedistributionStep>
classifyRedistribution(const ModeTuples &from, const ModeTuples &to,
                       llvm::ArrayRef<int64_t> mesh,
                       llvm::ArrayRef<int64_t> shape, const CostModel &model);

/// The cheapest sequence of collectives (at most `maxSteps`) from `from` to
/// `to`, or nothing if none is found within the bound.
std::optional<RedistributionPlan>
planRedistribution(const ModeTuples &from, const ModeTuples &to,
                   llvm::ArrayRef<int64_t> mesh, llvm::ArrayRef<int64_t> shape,
                   const CostModel &model, unsigned maxSteps = 5);

/// "[(0, 2), (1)]".
std::string formatModeTuples(const ModeTuples &t);
/// "allgather", "permutation", "all-to-all", "local slice".
std::string stringifyStep(RedistributionStep::Kind kind);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_REDISTRIBUTION_H
