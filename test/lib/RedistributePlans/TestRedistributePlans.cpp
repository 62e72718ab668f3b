//===- TestRedistributePlans.cpp - property test of planned redistributions ==//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-test-redistribute-plans [cases]   (default 60; run under mpirun)
//
// For random pairs of elemental-cyclic layouts (mode tuples; fixed seeds) of
// random 1-3-D tensors on random 1-, 2- and 3-D grids made of all this job's
// ranks, runs BOTH lowerings of dist.redistribute:
//   - balanced: the planner's plan (planRedistribution, the code
//     dist-materialize-spmd lowers with), one distrt_redist_* step per plan
//     step through intermediate tiles, exactly as the compiler emits them;
//   - general: distrt_redistribute (one all-to-all-v);
// and checks every element of every tile after every step (intermediate
// layouts included) against an independent model of elemental-cyclic
// ownership: right tile size, and every local element holds the value of
// the global element the layout maps it to.
//
//===----------------------------------------------------------------------===//

#include "PlanTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

namespace plantest {
/// Random pairs of mode tuples on random grids of P ranks: the plan runs
/// step by step, every tile checked against the enumerating model, and so
/// is the general exchange.
void checkModeTuplePairs(int64_t cases, int64_t P) {
  int64_t planned = 0, fallback = 0, kinds[4] = {0, 0, 0, 0}, multi = 0;
  int64_t unbounded = 0;
  for (int64_t k = 0; k < cases; ++k) {
    rngState = 0x9e3779b97f4a7c15ULL * uint64_t(k + 1) + uint64_t(P) * 7919;
    // A grid of P ranks with 1-3 axes.
    std::vector<int64_t> grid = randomGrid(P);
    int64_t gdims = int64_t(grid.size());
    distrt_grid *g = distrt_grid_create(gdims, grid.data());
    std::vector<int64_t> coords(gdims);
    for (int64_t a = 0; a < gdims; ++a)
      coords[a] = distrt_grid_coord(g, a);
    int64_t ndims = 1 + rnd(3);
    std::vector<int64_t> shape(ndims);
    for (int64_t d = 0; d < ndims; ++d)
      shape[d] = 1 + rnd(13);
    ModeTuples from = randomTuples(ndims, gdims);
    ModeTuples to = randomTuples(ndims, gdims);
    int64_t dtype = k % 2 ? DISTRT_F32 : DISTRT_F64;
    int64_t es = tu_esize(dtype), seed = 300 + k;
    llvm::SmallVector<int64_t> sdesc = modeTupleDescriptor(from, shape);
    llvm::SmallVector<int64_t> ddesc = modeTupleDescriptor(to, shape);
    auto alloc = [&](const llvm::SmallVector<int64_t> &desc) {
      return std::calloc(size_t(distrt_layout_tile_capacity(g, desc.data())),
                         size_t(es));
    };
    void *stile = alloc(sdesc);
    distrt_layout_fill(g, sdesc.data(), stile, dtype, seed);
    std::string what = "case " + std::to_string(k) + " " +
                       formatModeTuples(from) + " -> " + formatModeTuples(to);

    // Balanced path.
    bool relaxed;
    std::optional<RedistributionPlan> plan = boundedOrRelaxed(
        [&](const CostModel &m) {
          return planRedistribution(from, to, grid, shape, m);
        },
        relaxed);
    int64_t bound = std::max(distrt_layout_tile_capacity(g, sdesc.data()),
                             distrt_layout_tile_capacity(g, ddesc.data()));
    if (std::getenv("DIST_TEST_VERBOSE") && tu_rank() == 0) {
      std::string text = what + " on grid";
      for (int64_t x : grid)
        text += " " + std::to_string(x);
      text += ", shape";
      for (int64_t x : shape)
        text += " " + std::to_string(x);
      if (plan)
        for (const RedistributionStep &s : plan->steps)
          text += "; " + stringifyStep(s.kind) + " -> " +
                  formatModeTuples(s.after);
      std::printf("%s\n", text.c_str());
      std::fflush(stdout);
    }
    if (plan) {
      ++planned;
      unbounded += relaxed;
      std::vector<RedistributionStep> steps =
          stepsOf(*plan, to);
      multi += steps.size() > 1;
      void *cur = stile;
      ModeTuples curT = from;
      for (const RedistributionStep &step : steps) {
        llvm::SmallVector<int64_t> a = modeTupleDescriptor(curT, shape);
        llvm::SmallVector<int64_t> b = modeTupleDescriptor(step.after, shape);
        void *next = alloc(b);
        int64_t mask = modeMask(step);
        runStep(g, step, a.data(), cur, b.data(), next, dtype);
        ++kinds[int(step.kind)];
        int64_t bad =
            checkTile(step.after, grid, coords, shape, next, dtype, seed,
                      distrt_layout_tile_size(g, b.data()));
        EXPECT(bad == 0, "%s: %lld wrong elements after %s over %lld to %s",
               what.c_str(), (long long)bad, stringifyStep(step.kind).c_str(),
               (long long)mask, formatModeTuples(step.after).c_str());
        expectWithinBound(what, step, relaxed,
                          distrt_layout_tile_size(g, b.data()), bound);
        if (cur != stile)
          std::free(cur);
        cur = next;
        curT = step.after;
      }
      if (cur != stile)
        std::free(cur);
    } else {
      ++fallback;
    }

    // General path, against the same model.
    void *dtile = alloc(ddesc);
    distrt_redistribute(g, sdesc.data(), stile, g, ddesc.data(), dtile, dtype);
    int64_t bad = checkTile(to, grid, coords, shape, dtile, dtype, seed,
                            distrt_layout_tile_size(g, ddesc.data()));
    EXPECT(bad == 0, "%s: %lld wrong elements after the general exchange",
           what.c_str(), (long long)bad);
    std::free(dtile);
    std::free(stile);
    distrt_grid_free(g);
  }
  tu_section("%lld random pairs on %lld ranks: %lld planned (%lld with "
             "several steps, %lld only without the memory bound), %lld "
             "general only; steps: slice %lld, allgather %lld, permutation "
             "%lld, all-to-all %lld",
             (long long)cases, (long long)P, (long long)planned,
             (long long)multi, (long long)unbounded, (long long)fallback,
             (long long)kinds[0],
             (long long)kinds[1], (long long)kinds[2], (long long)kinds[3]);
}

/// Random pairs with blocked, cyclic or block-cyclic dimensions (below).
void checkBlockedPairs(int64_t cases, int64_t P) {
  // Blocked and block-cyclic layouts: random tuples, every partitioned
  // dimension blocked, cyclic or block-cyclic(2-4) on each side (half the
  // time the same kind on both sides, so only the thesis' rules on block
  // indices are needed; otherwise a kind change joins the plan). The plan
  // of planBlockedRedistribution runs step by step (the first step reads
  // the source's own descriptor, kind 1 for blocked, and the last writes
  // into the destination's), every tile is checked against the
  // enumerating model, and so is the general exchange.
  int64_t bPlanned = 0, bFallback = 0, bMulti = 0, bWithKind = 0;
  int64_t bMerged = 0;
  int64_t bUnbounded = 0;
  int64_t bKinds[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int64_t k = 0; k < cases; ++k) {
    rngState = 0x6a09e667f3bcc909ULL * uint64_t(k + 1) + uint64_t(P) * 31337;
    std::vector<int64_t> grid = randomGrid(P);
    int64_t gdims = int64_t(grid.size());
    int64_t ndims = 1 + rnd(3);
    std::vector<int64_t> shape(ndims);
    for (int64_t d = 0; d < ndims; ++d)
      shape[d] = 1 + rnd(16);
    ModeTuples from = randomTuples(ndims, gdims);
    ModeTuples to = randomTuples(ndims, gdims);
    // Per dimension: descriptor kind (1 blocked, 2 cyclic, 3 block-cyclic)
    // and block, for each side.
    std::vector<int64_t> fk(ndims), fb(ndims), tk(ndims), tb(ndims);
    for (int64_t d = 0; d < ndims; ++d) {
      fk[d] = 1 + rnd(3);
      fb[d] = fk[d] == 3 ? 2 + rnd(3) : 1;
      if (rnd(2)) {
        tk[d] = fk[d];
        tb[d] = fb[d];
      } else {
        tk[d] = 1 + rnd(3);
        tb[d] = tk[d] == 3 ? 2 + rnd(3) : 1;
      }
    }
    Blocks fromB = plannerBlocks(shape, from, grid, fk, fb);
    Blocks toB = plannerBlocks(shape, to, grid, tk, tb);
    distrt_grid *g = distrt_grid_create(gdims, grid.data());
    std::vector<int64_t> coords(gdims);
    for (int64_t a = 0; a < gdims; ++a)
      coords[a] = distrt_grid_coord(g, a);
    int64_t dtype = k % 2 ? DISTRT_F64 : DISTRT_F32;
    int64_t es = tu_esize(dtype), seed = 1700 + k;
    llvm::SmallVector<int64_t> sdesc = kindDescriptor(shape, from, fk, fb);
    llvm::SmallVector<int64_t> ddesc = kindDescriptor(shape, to, tk, tb);
    auto alloc = [&](const llvm::SmallVector<int64_t> &desc) {
      return std::calloc(size_t(distrt_layout_tile_capacity(g, desc.data())),
                         size_t(es));
    };
    void *stile = alloc(sdesc);
    distrt_layout_fill(g, sdesc.data(), stile, dtype, seed);
    std::string what = "blocked case " + std::to_string(k) + " " +
                       formatModeTuples(from, {}, fromB) + " -> " +
                       formatModeTuples(to, {}, toB);
    bool relaxed;
    std::optional<RedistributionPlan> plan = boundedOrRelaxed(
        [&](const CostModel &m) {
          return planBlockedRedistribution(from, fromB, to, toB, grid, shape,
                                           m);
        },
        relaxed);
    int64_t bound = std::max(distrt_layout_tile_capacity(g, sdesc.data()),
                             distrt_layout_tile_capacity(g, ddesc.data()));
    if (std::getenv("DIST_TEST_VERBOSE") && tu_rank() == 0) {
      std::string text = what + " on grid";
      for (int64_t x : grid)
        text += " " + std::to_string(x);
      text += ", shape";
      for (int64_t x : shape)
        text += " " + std::to_string(x);
      if (plan)
        for (const RedistributionStep &s : plan->steps)
          text += "; " + stringifyStep(s.kind) + " -> " +
                  formatModeTuples(s.after, {}, s.blocksAfter);
      std::printf("%s\n", text.c_str());
      std::fflush(stdout);
    }
    // The steps as dist-materialize-spmd runs them when it merges every
    // run of exchanges it can (mergeExchangeSteps under a model that makes
    // one all-to-all always cheaper): checked the same way.
    CostModel mergeAll;
    mergeAll.keys["alpha.alltoall"] = 0;
    mergeAll.keys["beta.copy"] = 1e-6;
    auto runSteps = [&](const std::vector<RedistributionStep> &steps,
                        bool count) {
      bool sawKind = false;
      void *cur = stile;
      llvm::SmallVector<int64_t> a = sdesc;
      for (auto [i, step] : llvm::enumerate(steps)) {
        bool last = i + 1 == steps.size();
        llvm::SmallVector<int64_t> b =
            last ? ddesc
                 : modeTupleDescriptor(step.after, shape, {}, step.blocksAfter);
        void *next = alloc(b);
        int64_t mask = modeMask(step);
        runStep(g, step, a.data(), cur, b.data(), next, dtype);
        bKinds[int(step.kind)] += count;
        sawKind |= step.kind == RedistributionStep::Kind::KindChange;
        int64_t bad = checkBlockedTile(step.after, step.blocksAfter, grid,
                                       coords, shape, next, dtype, seed,
                                       distrt_layout_tile_size(g, b.data()));
        EXPECT(bad == 0, "%s: %lld wrong elements after %s over %lld to %s",
               what.c_str(), (long long)bad, stringifyStep(step.kind).c_str(),
               (long long)mask,
               formatModeTuples(step.after, {}, step.blocksAfter).c_str());
        expectWithinBound(what, step, relaxed,
                          distrt_layout_tile_size(g, b.data()), bound);
        if (cur != stile)
          std::free(cur);
        cur = next;
        a = b;
      }
      if (cur != stile)
        std::free(cur);
      return sawKind;
    };
    if (plan) {
      ++bPlanned;
      bUnbounded += relaxed;
      std::vector<RedistributionStep> steps = stepsOf(*plan, to, toB);
      bMulti += steps.size() > 1;
      bWithKind += runSteps(steps, true);
      std::vector<RedistributionStep> merged =
          mergeExchangeSteps(steps, from, false, grid, shape, mergeAll);
      if (merged.size() < steps.size()) {
        ++bMerged;
        runSteps(merged, false);
      }
    } else {
      ++bFallback;
    }
    void *gtile = alloc(ddesc);
    distrt_redistribute(g, sdesc.data(), stile, g, ddesc.data(), gtile, dtype);
    int64_t bad = checkBlockedTile(to, toB, grid, coords, shape, gtile, dtype,
                                   seed,
                                   distrt_layout_tile_size(g, ddesc.data()));
    EXPECT(bad == 0, "%s: %lld wrong elements after the general exchange",
           what.c_str(), (long long)bad);
    std::free(gtile);
    std::free(stile);
    distrt_grid_free(g);
  }
  tu_section("%lld blocked/block-cyclic pairs on %lld ranks: %lld planned "
             "(%lld with several steps, %lld with a kind change, %lld only "
             "without the memory bound), %lld general only; steps: slice "
             "%lld, allgather %lld, permutation %lld, all-to-all %lld, "
             "redistribute-kind %lld; %lld also run with their exchanges "
             "merged",
             (long long)cases, (long long)P, (long long)bPlanned,
             (long long)bMulti, (long long)bWithKind, (long long)bUnbounded,
             (long long)bFallback, (long long)bKinds[0], (long long)bKinds[1],
             (long long)bKinds[2], (long long)bKinds[3],
             (long long)bKinds[int(RedistributionStep::Kind::KindChange)],
             (long long)bMerged);
}
} // namespace plantest

int main(int argc, char **argv) {
  using namespace plantest;
  tu_init("dist-test-redistribute-plans");
  int64_t cases = argc > 1 ? std::atoll(argv[1]) : 60;
  int64_t P = tu_size();
  checkModeTuplePairs(cases, P);
  checkBlockedPairs(cases, P);
  checkTwoGridPairs(cases, P);
  checkNonReplicatedForms(cases, P);
  return tu_finish();
}
