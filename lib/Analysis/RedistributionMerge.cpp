//===- RedistributionMerge.cpp - a plan's exchanges as one --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// mergeExchangeSteps: runs of consecutive exchange steps of a redistribution
// plan replaced by one all-to-all over the union of their grid axes where
// the alpha-beta model prices that lower (dist-materialize-spmd lowers
// plans through it; the plan itself stays the thesis' steps).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Redistribution.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dist;

/// Whether a step moves data only within the groups of its axes and keeps
/// the set of grid axes the tensor is dealt over: one all-to-all-v (or a
/// send-receive) in the runtime, with no replication before or after.
static bool isExchange(const RedistributionStep &step) {
  using Kind = RedistributionStep::Kind;
  return (step.kind == Kind::AllToAll || step.kind == Kind::KindChange ||
          step.kind == Kind::Permutation) &&
         step.fixedAfter.empty();
}

/// The grid axes `modes`, as a mask.
static int64_t modesMask(ArrayRef<int64_t> modes) {
  int64_t mask = 0;
  for (int64_t a : modes)
    mask |= int64_t(1) << a;
  return mask;
}

/// The grid axes tuples `t` deal a tensor over, as a mask.
static int64_t axesMask(const ModeTuples &t) {
  int64_t mask = 0;
  for (const auto &tuple : t)
    mask |= modesMask(tuple);
  return mask;
}

/// The processes of the group of the grid axes in `mask`.
static int64_t groupSize(ArrayRef<int64_t> mesh, int64_t mask) {
  int64_t p = 1;
  for (auto [a, e] : llvm::enumerate(mesh))
    if (mask >> a & 1)
      p *= e;
  return p;
}

/// Predicted seconds of one exchange over a group of `p` processes of a
/// tile of `n` elements: all-to-all-v messages to the other members and
/// the part that moves, plus packing and unpacking (the runtime copies the
/// tile once either way); a permutation sends the whole tile unpacked.
static double exchangeCost(const CostModel &m, RedistributionStep::Kind kind,
                           double p, double n) {
  if (kind == RedistributionStep::Kind::Permutation)
    return m.get("alpha.permute", m.alpha) + n * m.get("beta.permute", m.beta);
  return (p - 1) * m.get("alpha.alltoall", m.alpha) +
         n * (p - 1) / p * m.get("beta.alltoall", m.beta) +
         2 * n * m.get("beta.copy", m.beta);
}

/// Redistribution.h states the rule and the model. The runtime's all-to-all
/// takes any two layouts that deal the tensor over the group's axes and
/// keep each element within the group; every step of a run keeps it within
/// its own axes, so the run keeps it within their union.
std::vector<RedistributionStep>
mlir::dist::mergeExchangeSteps(std::vector<RedistributionStep> steps,
                               const ModeTuples &from, bool fromFixed,
                               ArrayRef<int64_t> mesh, ArrayRef<int64_t> shape,
                               const CostModel &m) {
  std::vector<RedistributionStep> out;
  int64_t beforeMask = axesMask(from);
  bool beforeFixed = fromFixed;
  for (size_t i = 0; i < steps.size();) {
    size_t j = i;
    int64_t unionMask = 0;
    bool sameAxes = !beforeFixed;
    while (j < steps.size() && sameAxes && isExchange(steps[j]) &&
           axesMask(steps[j].after) == beforeMask) {
      unionMask |= modesMask(steps[j].modes);
      ++j;
    }
    sameAxes = (unionMask & ~beforeMask) == 0;
    if (j - i >= 2 && sameAxes) {
      double n = nbar(steps[j - 1].after, mesh, shape);
      double apart = 0;
      for (size_t k = i; k < j; ++k)
        apart +=
            exchangeCost(m, steps[k].kind,
                         double(groupSize(mesh, modesMask(steps[k].modes))), n);
      double merged = exchangeCost(m, RedistributionStep::Kind::AllToAll,
                                   double(groupSize(mesh, unionMask)), n);
      if (merged < apart) {
        RedistributionStep step = steps[j - 1];
        step.kind = RedistributionStep::Kind::AllToAll;
        step.modes.clear();
        for (int64_t a = 0; a < int64_t(mesh.size()); ++a)
          if (unionMask >> a & 1)
            step.modes.push_back(a);
        step.cost = merged;
        out.push_back(step);
        i = j;
        continue;
      }
    }
    j = std::max(j, i + 1);
    for (; i < j; ++i)
      out.push_back(steps[i]);
    beforeMask = axesMask(out.back().after);
    beforeFixed = !out.back().fixedAfter.empty();
  }
  return out;
}
