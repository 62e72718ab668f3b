//===- RedistributeOpPlan.cpp - plans for dist.redistribute ops -----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What the planner decides for one dist.redistribute: both layouts on one
// grid, or on two grids of the same size rewritten on their common
// refinement (Redistribution.h).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Redistribution.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace mlir::dist;

std::optional<SmallVector<int64_t>> mlir::dist::commonRefinement(
    ArrayRef<int64_t> a, ArrayRef<int64_t> b,
    std::vector<std::vector<int64_t>> &axesA,
    std::vector<std::vector<int64_t>> &axesB) {
  // Cumulative products from the fastest (last) axis: the boundaries of
  // each grid's digits in the rank.
  auto bounds = [](ArrayRef<int64_t> m) {
    std::vector<int64_t> v{1};
    for (int64_t i = int64_t(m.size()) - 1; i >= 0; --i)
      v.push_back(v.back() * m[i]);
    return v;
  };
  std::vector<int64_t> ba = bounds(a), bb = bounds(b);
  if (ba.back() != bb.back())
    return std::nullopt;
  std::set<int64_t> all(ba.begin(), ba.end());
  all.insert(bb.begin(), bb.end());
  std::vector<int64_t> chain(all.begin(), all.end());
  for (size_t i = 1; i < chain.size(); ++i)
    if (chain[i] % chain[i - 1] != 0)
      return std::nullopt;
  // Fine axes, fastest first: fine axis j (from the fast end) spans
  // [chain[j], chain[j+1]); grid axis index f = nfine - 1 - j.
  int64_t nfine = int64_t(chain.size()) - 1;
  if (nfine == 0) {
    // One process: a grid of one axis of extent 1, used by no tuple.
    axesA.assign(a.size(), {});
    axesB.assign(b.size(), {});
    return SmallVector<int64_t>{1};
  }
  SmallVector<int64_t> fine(nfine);
  for (int64_t j = 0; j < nfine; ++j)
    fine[nfine - 1 - j] = chain[j + 1] / chain[j];
  auto axesOf = [&](ArrayRef<int64_t> m, const std::vector<int64_t> &bd,
                    std::vector<std::vector<int64_t>> &out) {
    out.assign(m.size(), {});
    for (int64_t i = int64_t(m.size()) - 1, k = 0; i >= 0; --i, ++k) {
      // Axis i covers [bd[k], bd[k+1]).
      for (int64_t j = 0; j < nfine; ++j)
        if (chain[j] >= bd[k] && chain[j + 1] <= bd[k + 1])
          out[i].push_back(nfine - 1 - j);
    }
  };
  axesOf(a, ba, axesA);
  axesOf(b, bb, axesB);
  return fine;
}

ModeTuples
mlir::dist::refineModeTuples(const ModeTuples &t,
                             const std::vector<std::vector<int64_t>> &axes) {
  ModeTuples r;
  for (const std::vector<int64_t> &tuple : t) {
    std::vector<int64_t> x;
    for (int64_t a : tuple)
      x.insert(x.end(), axes[a].begin(), axes[a].end());
    r.push_back(std::move(x));
  }
  return r;
}

/// Why the planner found no plan.
static std::string noPlanReason(const CostModel &model, unsigned maxSteps) {
  return "no sequence of at most " + std::to_string(maxSteps) +
         " collectives found" +
         (model.memoryBound ? " that holds at most the larger of the source "
                              "and destination tiles per process"
                            : "");
}

/// Plans a redistribution between two grids of the same size on their
/// common refinement.
static OpRedistributionPlan planTwoGrids(GridOp gs, GridOp gd,
                                         DistTensorType src,
                                         DistTensorType dst,
                                         const CostModel &model,
                                         unsigned maxSteps) {
  OpRedistributionPlan r;
  auto flat = [](GridOp g) { return g.getNumLevels() == 1; };
  if (!flat(gs) || !flat(gd) ||
      gs.getLevel(0).getKind() != gd.getLevel(0).getKind() ||
      gs.getNumProcessors() != gd.getNumProcessors()) {
    r.reason = "the source and destination are on different grids (planned "
               "only for one-level grids of one processor kind and the "
               "same size)";
    return r;
  }
  SmallVector<int64_t> ms(gs.getShape()), md(gd.getShape());
  std::vector<std::vector<int64_t>> axesS, axesD;
  std::optional<SmallVector<int64_t>> fine =
      commonRefinement(ms, md, axesS, axesD);
  if (!fine) {
    r.reason = "the source and destination are on grids whose axes have no "
               "common refinement";
    return r;
  }
  if (int64_t(fine->size()) > kMaxDims) {
    r.reason = "the grids' common refinement has " +
               std::to_string(fine->size()) +
               " axes, more than the runtime's " + std::to_string(kMaxDims);
    return r;
  }
  Blocks bs, bd;
  FixedAxes fs, fd;
  std::optional<ModeTuples> from = blockedModeTuplesOf(src, ms, fs, bs);
  std::optional<ModeTuples> to = blockedModeTuplesOf(dst, md, fd, bd);
  if (!from || !to || !fs.empty() || !fd.empty()) {
    r.reason = "layouts on two grids are planned only with mode tuples "
               "and no fixed axes";
    return r;
  }
  r.applies = true;
  r.refinedGrid = *fine;
  r.mesh = *fine;
  r.from = refineModeTuples(*from, axesS);
  r.to = refineModeTuples(*to, axesD);
  // Blocks stay (each tuple keeps its number of processes); a tuple made
  // only of extent-1 axes becomes empty.
  for (size_t d = 0; d < bs.size(); ++d) {
    if (r.from[d].empty())
      bs[d] = 0;
    if (r.to[d].empty())
      bd[d] = 0;
  }
  r.fromBlocks = bs;
  r.toBlocks = bd;
  SmallVector<int64_t> shape(src.getShape());
  r.plan = planBlockedRedistribution(r.from, r.fromBlocks, r.to, r.toBlocks,
                                     r.mesh, shape, model, maxSteps);
  if (!r.plan)
    r.reason = noPlanReason(model, maxSteps);
  return r;
}

OpRedistributionPlan mlir::dist::planRedistributeOp(RedistributeOp op,
                                                    const CostModel &model,
                                                    unsigned maxSteps) {
  OpRedistributionPlan r;
  DistTensorType src = op.getSource().getType();
  DistTensorType dst = op.getDest().getType();
  auto gs = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, src.getLayout().getGrid());
  auto gd = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, dst.getLayout().getGrid());
  if (!gs || !gd) {
    r.reason = "the source or destination grid is not declared";
    return r;
  }
  if (gs != gd)
    return planTwoGrids(gs, gd, src, dst, model, maxSteps);
  r.mesh.assign(gs.getShape().begin(), gs.getShape().end());
  std::optional<ModeTuples> from =
      blockedModeTuplesOf(src, r.mesh, r.fromFixed, r.fromBlocks);
  std::optional<ModeTuples> to =
      blockedModeTuplesOf(dst, r.mesh, r.toFixed, r.toBlocks);
  if (!from || !to) {
    r.reason = "the thesis' rules apply to one-level layouts without skew "
               "on one mesh";
    return r;
  }
  SmallVector<int64_t> shape(src.getShape());
  auto elemental = [](const Blocks &b) {
    return llvm::all_of(b, [](int64_t x) { return x <= 1; });
  };
  bool cyclic = elemental(r.fromBlocks) && elemental(r.toBlocks);
  if (!cyclic && (!r.fromFixed.empty() || !r.toFixed.empty())) {
    r.reason = "layouts fixed to grid coordinates are planned only when "
               "elemental-cyclic";
    return r;
  }
  r.applies = true;
  r.from = *from;
  r.to = *to;
  if (cyclic) {
    r.fromBlocks.clear();
    r.toBlocks.clear();
  } else {
    r.plan = planBlockedRedistribution(r.from, r.fromBlocks, r.to,
                                       r.toBlocks, r.mesh, shape, model,
                                       maxSteps);
    if (!r.plan)
      r.reason = noPlanReason(model, maxSteps);
    return r;
  }
  if (!r.fromFixed.empty() || !r.toFixed.empty()) {
    // Non-replicated forms: one gather-to-one, broadcast or scatter.
    if (r.fromFixed == r.toFixed && r.from == r.to) {
      r.reason = "identical non-replicated layouts (a copy by the general "
                 "exchange)";
    } else if (std::optional<RedistributionStep> s = classifyNonReplicated(
                   r.from, r.fromFixed, r.to, r.toFixed, r.mesh, shape,
                   model)) {
      r.plan = RedistributionPlan();
      r.plan->steps.push_back(*s);
      r.plan->cost = s->cost;
    } else {
      r.reason = "no single gather-to-one, broadcast or scatter between "
                 "these non-replicated forms";
    }
    return r;
  }
  r.plan = planRedistribution(r.from, r.to, r.mesh, shape, model, maxSteps);
  if (!r.plan)
    r.reason = noPlanReason(model, maxSteps);
  return r;
}
