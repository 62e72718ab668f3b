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

#include "DistTensor/Analysis/Redistribution.h"

extern "C" {
#include "test_util.h"
}

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

using namespace mlir::dist;

namespace {
uint64_t rngState;
int64_t rnd(int64_t n) { // 0 .. n-1
  rngState = rngState * 6364136223846793005ULL + 1442695040888963407ULL;
  return int64_t((rngState >> 33) % uint64_t(n));
}

/// Random mode tuples: every grid axis partitions a random dimension (in a
/// random position of its tuple) or is left for replication.
ModeTuples randomTuples(int64_t ndims, int64_t gdims) {
  ModeTuples t(ndims);
  for (int64_t a = 0; a < gdims; ++a) {
    int64_t r = rnd(ndims + 1);
    if (r == ndims)
      continue;
    auto &tuple = t[r];
    tuple.insert(tuple.begin() + rnd(tuple.size() + 1), a);
  }
  return t;
}

/// Independent model: checks this rank's tile under `t`. Returns the number
/// of wrong elements (or 1 + expected size when the size is wrong).
int64_t checkTile(const ModeTuples &t, const std::vector<int64_t> &grid,
                  const std::vector<int64_t> &coords,
                  const std::vector<int64_t> &shape, const void *tile,
                  int64_t dtype, int64_t seed, int64_t gotSize,
                  const FixedAxes &fixed = {}) {
  size_t nd = shape.size();
  std::vector<int64_t> Q(nd, 1), q(nd, 0), ext(nd);
  int64_t total = 1;
  for (auto [a, c] : fixed)
    if (coords[a] != c)
      return gotSize == 0 ? 0 : 1; // holds nothing
  for (size_t d = 0; d < nd; ++d) {
    // First-listed mode fastest (the thesis' multi2linear).
    int64_t mult = 1;
    for (int64_t a : t[d]) {
      q[d] += coords[a] * mult;
      mult *= grid[a];
    }
    Q[d] = mult;
    ext[d] = 0;
    for (int64_t g = q[d]; g < shape[d]; g += Q[d])
      ++ext[d];
    total *= ext[d];
  }
  if (total != gotSize)
    return 1 + total;
  int64_t bad = 0;
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, linear = 0;
    std::vector<int64_t> g(nd);
    for (int64_t d = int64_t(nd) - 1; d >= 0; --d) {
      g[d] = (rest % ext[d]) * Q[d] + q[d];
      rest /= ext[d];
    }
    for (size_t d = 0; d < nd; ++d)
      linear = linear * shape[d] + g[d];
    double want = distrt_value(seed, linear);
    if (dtype == DISTRT_F32)
      want = double(float(want));
    if (tu_get(tile, dtype, i) != want)
      ++bad;
  }
  return bad;
}
/// The grid axes a step runs over, as the runtime's bit mask.
int64_t modeMask(const RedistributionStep &step) {
  int64_t mask = 0;
  for (int64_t m : step.modes)
    mask |= int64_t(1) << m;
  return mask;
}

/// One step, as dist-materialize-spmd emits it.
void runStep(distrt_grid *g, const RedistributionStep &step, const int64_t *a,
             const void *cur, const int64_t *b, void *next, int64_t dtype) {
  int64_t mask = modeMask(step);
  switch (step.kind) {
  case RedistributionStep::Kind::LocalSlice:
    distrt_redist_slice(g, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::AllGather:
    distrt_redist_allgather(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::Permutation:
    distrt_redist_permute(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::AllToAll:
    distrt_redist_alltoall(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::Gather:
    distrt_redist_gather(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::Broadcast:
    distrt_redist_bcast(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::Scatter:
    distrt_redist_scatter(g, mask, a, cur, b, next, dtype);
    break;
  case RedistributionStep::Kind::KindChange:
    distrt_redist_kind(g, mask, a, cur, b, next, dtype);
    break;
  }
}

/// A plan's steps; an empty plan (the layouts are equal) runs as one local
/// slice into the destination layout, as the lowering does.
std::vector<RedistributionStep> stepsOf(const RedistributionPlan &plan,
                                        const ModeTuples &to,
                                        const Blocks &toBlocks = {}) {
  std::vector<RedistributionStep> steps = plan.steps;
  if (steps.empty()) {
    RedistributionStep copy;
    copy.kind = RedistributionStep::Kind::LocalSlice;
    copy.after = to;
    copy.blocksAfter = toBlocks;
    steps.push_back(copy);
  }
  return steps;
}

/// The plan the compiler lowers with (within the memory bound) or, where
/// the bound leaves the pair to the general exchange, the unbounded plan,
/// so that its steps run too (`relaxed` says which).
template <typename PlanFn>
std::optional<RedistributionPlan> boundedOrRelaxed(PlanFn plan,
                                                   bool &relaxed) {
  CostModel model;
  relaxed = false;
  if (std::optional<RedistributionPlan> p = plan(model))
    return p;
  model.memoryBound = false;
  relaxed = true;
  return plan(model);
}

/// The memory bound, checked with the runtime's own tile sizes: under a
/// bounded plan no step's tile on this process (`tile`) is larger than the
/// larger of the source's and destination's largest tiles (`bound`).
void expectWithinBound(const std::string &what, const RedistributionStep &s,
                       bool relaxed, int64_t tile, int64_t bound) {
  EXPECT(relaxed || tile <= bound,
         "%s: %s to %s holds %lld elements, more than the memory bound %lld",
         what.c_str(), stringifyStep(s.kind).c_str(),
         formatModeTuples(s.after, s.fixedAfter, s.blocksAfter).c_str(),
         (long long)tile, (long long)bound);
}

/// The runtime descriptor of a layout whose dimension d is of kind
/// `kind[d]` (1 blocked, 2 cyclic, 3 block-cyclic) with block `block[d]`
/// over the axes `t[d]` (whole when empty).
llvm::SmallVector<int64_t> kindDescriptor(const std::vector<int64_t> &shape,
                                          const ModeTuples &t,
                                          const std::vector<int64_t> &kind,
                                          const std::vector<int64_t> &block) {
  int64_t ndims = int64_t(shape.size());
  llvm::SmallVector<int64_t> desc{ndims};
  for (int64_t d = 0; d < ndims; ++d) {
    desc.push_back(shape[d]);
    desc.push_back(t[d].empty() ? 0 : kind[d]);
    desc.push_back(t[d].empty() ? shape[d] : block[d]);
    desc.push_back(int64_t(t[d].size()));
    llvm::append_range(desc, t[d]);
  }
  desc.push_back(0);
  return desc;
}

/// The planner's blocks for that layout on `grid` (what
/// blockedModeTuplesOf derives): a blocked dimension's block is its extent
/// over the processes it is split across.
Blocks plannerBlocks(const std::vector<int64_t> &shape, const ModeTuples &t,
                     const std::vector<int64_t> &grid,
                     const std::vector<int64_t> &kind,
                     const std::vector<int64_t> &block) {
  int64_t ndims = int64_t(shape.size());
  Blocks b(ndims, 0);
  for (int64_t d = 0; d < ndims; ++d) {
    if (t[d].empty())
      continue;
    int64_t Q = 1;
    for (int64_t a : t[d])
      Q *= grid[a];
    int64_t x = kind[d] == 1 ? (shape[d] + Q - 1) / Q : block[d];
    b[d] = std::max<int64_t>(1, std::min<int64_t>(x, shape[d]));
  }
  return b;
}

/// Independent model of block-cyclic ownership: in dimension d the
/// process with digit q holds the global indices g with (g / B) mod Q = q
/// (B the dimension's block; every index when its tuple is empty), in
/// increasing order. Found by enumeration, not by the runtime's closed
/// forms. Returns the number of wrong elements (or 1 + expected size when
/// the size is wrong).
int64_t checkBlockedTile(const ModeTuples &t, const Blocks &blocks,
                         const std::vector<int64_t> &grid,
                         const std::vector<int64_t> &coords,
                         const std::vector<int64_t> &shape, const void *tile,
                         int64_t dtype, int64_t seed, int64_t gotSize) {
  size_t nd = shape.size();
  std::vector<std::vector<int64_t>> owned(nd);
  int64_t total = 1;
  for (size_t d = 0; d < nd; ++d) {
    int64_t q = 0, Q = 1;
    for (int64_t a : t[d]) {
      q += coords[a] * Q;
      Q *= grid[a];
    }
    int64_t b = t[d].empty() ? 1 : blocks[d];
    for (int64_t g = 0; g < shape[d]; ++g)
      if ((g / b) % Q == q)
        owned[d].push_back(g);
    total *= int64_t(owned[d].size());
  }
  if (total != gotSize)
    return 1 + total;
  int64_t bad = 0;
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, linear = 0;
    std::vector<int64_t> g(nd);
    for (int64_t d = int64_t(nd) - 1; d >= 0; --d) {
      int64_t e = int64_t(owned[d].size());
      g[d] = owned[d][rest % e];
      rest /= e;
    }
    for (size_t d = 0; d < nd; ++d)
      linear = linear * shape[d] + g[d];
    double want = distrt_value(seed, linear);
    if (dtype == DISTRT_F32)
      want = double(float(want));
    if (tu_get(tile, dtype, i) != want)
      ++bad;
  }
  return bad;
}

/// A random grid of P ranks with 1-3 axes.
std::vector<int64_t> randomGrid(int64_t P) {
  int64_t gdims = 1 + rnd(3), rest = P;
  std::vector<int64_t> grid(gdims);
  for (int64_t a = 0; a < gdims - 1; ++a) {
    int64_t f = 1;
    for (int64_t t = 2; t <= rest; ++t)
      if (rest % t == 0 && rnd(2)) {
        f = t;
        break;
      }
    grid[a] = f;
    rest /= f;
  }
  grid[gdims - 1] = rest;
  return grid;
}
} // namespace

int main(int argc, char **argv) {
  tu_init("dist-test-redistribute-plans");
  int64_t cases = argc > 1 ? std::atoll(argv[1]) : 60;
  int64_t P = tu_size();
  int64_t planned = 0, fallback = 0, kinds[4] = {0, 0, 0, 0}, multi = 0;
  int64_t unbounded = 0;
  for (int64_t k = 0; k < cases; ++k) {
    rngState = 0x9e3779b97f4a7c15ULL * uint64_t(k + 1) + uint64_t(P) * 7919;
    // A grid of P ranks with 1-3 axes.
    int64_t gdims = 1 + rnd(3), rest = P;
    std::vector<int64_t> grid(gdims);
    for (int64_t a = 0; a < gdims - 1; ++a) {
      int64_t f = 1;
      for (int64_t t = 2; t <= rest; ++t)
        if (rest % t == 0 && rnd(2)) {
          f = t;
          break;
        }
      grid[a] = f;
      rest /= f;
    }
    grid[gdims - 1] = rest;
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

  // Two grids of the same size: random grids and layouts (blocked, cyclic,
  // block-cyclic per dimension) on each; where the grids' axes have a
  // common refinement, both layouts are rewritten on it and the plan runs
  // there step by step (every tile checked on the refined grid), and the
  // result is checked against the model on the destination's own grid.
  // The general exchange between the two grids is checked too.
  int64_t tgPlanned = 0, tgNoRefine = 0, tgFallback = 0, tgSteps = 0;
  int64_t tgUnbounded = 0;
  for (int64_t k = 0; k < cases; ++k) {
    rngState = 0xbb67ae8584caa73bULL * uint64_t(k + 1) + uint64_t(P) * 7121;
    std::vector<int64_t> gridA = randomGrid(P), gridB = randomGrid(P);
    int64_t ndims = 1 + rnd(3);
    std::vector<int64_t> shape(ndims);
    for (int64_t d = 0; d < ndims; ++d)
      shape[d] = 1 + rnd(14);
    ModeTuples from = randomTuples(ndims, int64_t(gridA.size()));
    ModeTuples to = randomTuples(ndims, int64_t(gridB.size()));
    std::vector<int64_t> fk(ndims), fb(ndims), tk(ndims), tb(ndims);
    for (int64_t d = 0; d < ndims; ++d) {
      fk[d] = 1 + rnd(3);
      fb[d] = fk[d] == 3 ? 2 + rnd(2) : 1;
      tk[d] = 1 + rnd(3);
      tb[d] = tk[d] == 3 ? 2 + rnd(2) : 1;
    }
    Blocks fromB = plannerBlocks(shape, from, gridA, fk, fb);
    Blocks toB = plannerBlocks(shape, to, gridB, tk, tb);
    distrt_grid *ga = distrt_grid_create(int64_t(gridA.size()), gridA.data());
    distrt_grid *gb = distrt_grid_create(int64_t(gridB.size()), gridB.data());
    std::vector<int64_t> coordsB(gridB.size());
    for (size_t a = 0; a < gridB.size(); ++a)
      coordsB[a] = distrt_grid_coord(gb, int64_t(a));
    int64_t dtype = k % 2 ? DISTRT_F32 : DISTRT_F64;
    int64_t es = tu_esize(dtype), seed = 2500 + k;
    llvm::SmallVector<int64_t> sdesc = kindDescriptor(shape, from, fk, fb);
    llvm::SmallVector<int64_t> ddesc = kindDescriptor(shape, to, tk, tb);
    auto alloc = [&](distrt_grid *g, const llvm::SmallVector<int64_t> &desc) {
      return std::calloc(size_t(distrt_layout_tile_capacity(g, desc.data())),
                         size_t(es));
    };
    void *stile = alloc(ga, sdesc);
    distrt_layout_fill(ga, sdesc.data(), stile, dtype, seed);
    std::string what = "two-grid case " + std::to_string(k) + " " +
                       formatModeTuples(from, {}, fromB) + " on [";
    for (int64_t x : gridA)
      what += " " + std::to_string(x);
    what += " ] -> " + formatModeTuples(to, {}, toB) + " on [";
    for (int64_t x : gridB)
      what += " " + std::to_string(x);
    what += " ]";
    std::vector<std::vector<int64_t>> axesA, axesB;
    std::optional<llvm::SmallVector<int64_t>> fine =
        commonRefinement(gridA, gridB, axesA, axesB);
    if (!fine) {
      ++tgNoRefine;
    } else {
      ModeTuples rf = refineModeTuples(from, axesA);
      ModeTuples rt = refineModeTuples(to, axesB);
      Blocks rfB = fromB, rtB = toB;
      for (int64_t d = 0; d < ndims; ++d) {
        if (rf[d].empty())
          rfB[d] = 0;
        if (rt[d].empty())
          rtB[d] = 0;
      }
      std::vector<int64_t> fgrid(fine->begin(), fine->end());
      bool relaxed;
      std::optional<RedistributionPlan> plan = boundedOrRelaxed(
          [&](const CostModel &m) {
            return planBlockedRedistribution(rf, rfB, rt, rtB, fgrid, shape,
                                             m);
          },
          relaxed);
      int64_t bound =
          std::max(distrt_layout_tile_capacity(ga, sdesc.data()),
                   distrt_layout_tile_capacity(gb, ddesc.data()));
      if (std::getenv("DIST_TEST_VERBOSE") && tu_rank() == 0) {
        std::string text = what + ", shape";
        for (int64_t x : shape)
          text += " " + std::to_string(x);
        text += "; refined " + formatModeTuples(rf, {}, rfB) + " -> " +
                formatModeTuples(rt, {}, rtB);
        if (plan)
          for (const RedistributionStep &st : plan->steps)
            text += "; " + stringifyStep(st.kind) + " -> " +
                    formatModeTuples(st.after, {}, st.blocksAfter);
        std::printf("%s\n", text.c_str());
        std::fflush(stdout);
      }
      if (!plan) {
        ++tgFallback;
      } else {
        ++tgPlanned;
        tgUnbounded += relaxed;
        distrt_grid *gf = distrt_grid_create(int64_t(fgrid.size()),
                                             fgrid.data());
        std::vector<int64_t> coordsF(fgrid.size());
        for (size_t a = 0; a < fgrid.size(); ++a)
          coordsF[a] = distrt_grid_coord(gf, int64_t(a));
        std::vector<RedistributionStep> steps =
            stepsOf(*plan, rt, rtB);
        void *cur = stile;
        llvm::SmallVector<int64_t> a = modeTupleDescriptor(rf, shape, {}, rfB);
        for (const RedistributionStep &step : steps) {
          llvm::SmallVector<int64_t> b =
              modeTupleDescriptor(step.after, shape, {}, step.blocksAfter);
          void *next = alloc(gf, b);
          int64_t mask = modeMask(step);
          runStep(gf, step, a.data(), cur, b.data(), next, dtype);
          ++tgSteps;
          int64_t bad = checkBlockedTile(step.after, step.blocksAfter, fgrid,
                                         coordsF, shape, next, dtype, seed,
                                         distrt_layout_tile_size(gf, b.data()));
          EXPECT(bad == 0, "%s: %lld wrong elements after %s over %lld to %s",
                 what.c_str(), (long long)bad,
                 stringifyStep(step.kind).c_str(), (long long)mask,
                 formatModeTuples(step.after, {}, step.blocksAfter).c_str());
          expectWithinBound(what, step, relaxed,
                            distrt_layout_tile_size(gf, b.data()), bound);
          if (cur != stile)
            std::free(cur);
          cur = next;
          a = b;
        }
        // The last tile is the destination's tile on its own grid.
        int64_t bad = checkBlockedTile(to, toB, gridB, coordsB, shape, cur,
                                       dtype, seed,
                                       distrt_layout_tile_size(gb,
                                                               ddesc.data()));
        EXPECT(bad == 0, "%s: %lld wrong elements on the destination grid",
               what.c_str(), (long long)bad);
        if (cur != stile)
          std::free(cur);
        distrt_grid_free(gf);
      }
    }
    void *gtile = alloc(gb, ddesc);
    distrt_redistribute(ga, sdesc.data(), stile, gb, ddesc.data(), gtile,
                        dtype);
    int64_t bad = checkBlockedTile(to, toB, gridB, coordsB, shape, gtile,
                                   dtype, seed,
                                   distrt_layout_tile_size(gb, ddesc.data()));
    EXPECT(bad == 0, "%s: %lld wrong elements after the general exchange",
           what.c_str(), (long long)bad);
    std::free(gtile);
    std::free(stile);
    distrt_grid_free(gb);
    distrt_grid_free(ga);
  }
  tu_section("%lld two-grid pairs on %lld ranks: %lld planned on a common "
             "refinement (%lld steps, %lld only without the memory bound), "
             "%lld without a common refinement, %lld general only",
             (long long)cases, (long long)P, (long long)tgPlanned,
             (long long)tgSteps, (long long)tgUnbounded,
             (long long)tgNoRefine, (long long)tgFallback);

  // Non-replicated forms [D; E, w]: pairs built to be one gather-to-one,
  // broadcast or scatter (random tails, random other fixed axes E at
  // random coordinates); the planner must recognise the step, and both
  // paths are checked.
  int64_t nrKinds[3] = {0, 0, 0}, nrCases = cases / 2;
  for (int64_t k = 0; k < nrCases; ++k) {
    rngState = 0x2545f4914f6cdd1dULL * uint64_t(k + 1) + uint64_t(P) * 104729;
    int64_t gdims = 1 + rnd(3), rest = P;
    std::vector<int64_t> grid(gdims);
    for (int64_t a = 0; a < gdims - 1; ++a) {
      int64_t f = 1;
      for (int64_t t = 2; t <= rest; ++t)
        if (rest % t == 0 && rnd(2)) {
          f = t;
          break;
        }
      grid[a] = f;
      rest /= f;
    }
    grid[gdims - 1] = rest;
    int64_t ndims = 1 + rnd(3);
    std::vector<int64_t> shape(ndims);
    for (int64_t d = 0; d < ndims; ++d)
      shape[d] = 1 + rnd(13);
    // Long tuples, then tails cut off (the step's axes S) and other unused
    // axes fixed (E).
    ModeTuples longT = randomTuples(ndims, gdims), shortT = longT;
    std::set<int64_t> S;
    for (auto &t : shortT) {
      size_t cut = rnd(t.size() + 1);
      S.insert(t.end() - cut, t.end());
      t.resize(t.size() - cut);
    }
    std::set<int64_t> usedLong;
    for (auto &t : longT)
      usedLong.insert(t.begin(), t.end());
    FixedAxes E;
    for (int64_t a = 0; a < gdims; ++a)
      if (!usedLong.count(a) && rnd(2))
        E.emplace_back(a, rnd(grid[a]));
    int kind = int(rnd(3)); // 0 gather, 1 broadcast, 2 scatter
    if (S.empty() && kind != 1)
      kind = 1;
    if (kind == 1) {
      // Broadcast: fix some axes that the layout does not use.
      S.clear();
      for (int64_t a = 0; a < gdims; ++a)
        if (!usedLong.count(a) &&
            llvm::none_of(E, [&](auto &f) { return f.first == a; }))
          S.insert(a);
      if (S.empty())
        continue;
    }
    FixedAxes ES = E;
    for (int64_t a : S)
      ES.emplace_back(a, rnd(grid[a]));
    llvm::sort(ES);
    ModeTuples from, to;
    FixedAxes fromF, toF;
    RedistributionStep::Kind want;
    if (kind == 0) {
      from = longT, fromF = E, to = shortT, toF = ES;
      want = RedistributionStep::Kind::Gather;
    } else if (kind == 1) {
      from = longT, fromF = ES, to = longT, toF = E;
      want = RedistributionStep::Kind::Broadcast;
    } else {
      from = shortT, fromF = ES, to = longT, toF = E;
      want = RedistributionStep::Kind::Scatter;
    }
    distrt_grid *g = distrt_grid_create(gdims, grid.data());
    std::vector<int64_t> coords(gdims);
    for (int64_t a = 0; a < gdims; ++a)
      coords[a] = distrt_grid_coord(g, a);
    int64_t dtype = k % 2 ? DISTRT_F64 : DISTRT_F32;
    int64_t es = tu_esize(dtype), seed = 900 + k;
    llvm::SmallVector<int64_t> sdesc = modeTupleDescriptor(from, shape, fromF);
    llvm::SmallVector<int64_t> ddesc = modeTupleDescriptor(to, shape, toF);
    auto alloc = [&](const llvm::SmallVector<int64_t> &desc) {
      return std::calloc(size_t(distrt_layout_tile_capacity(g, desc.data())),
                         size_t(es));
    };
    std::string what = "non-replicated case " + std::to_string(k) + " " +
                       formatModeTuples(from, fromF) + " -> " +
                       formatModeTuples(to, toF);
    void *stile = alloc(sdesc);
    distrt_layout_fill(g, sdesc.data(), stile, dtype, seed);
    std::optional<RedistributionStep> step = classifyNonReplicated(
        from, fromF, to, toF, grid, shape, CostModel());
    if (EXPECT(step && step->kind == want, "%s: the planner finds no %s",
               what.c_str(),
               stringifyStep(want).c_str())) {
      ++nrKinds[kind];
      void *dtile = alloc(ddesc);
      runStep(g, *step, sdesc.data(), stile, ddesc.data(), dtile, dtype);
      int64_t bad = checkTile(to, grid, coords, shape, dtile, dtype, seed,
                              distrt_layout_tile_size(g, ddesc.data()), toF);
      EXPECT(bad == 0, "%s: %lld wrong elements after the %s", what.c_str(),
             (long long)bad, stringifyStep(want).c_str());
      std::free(dtile);
    }
    void *gtile = alloc(ddesc);
    distrt_redistribute(g, sdesc.data(), stile, g, ddesc.data(), gtile, dtype);
    int64_t bad = checkTile(to, grid, coords, shape, gtile, dtype, seed,
                            distrt_layout_tile_size(g, ddesc.data()), toF);
    EXPECT(bad == 0, "%s: %lld wrong elements after the general exchange",
           what.c_str(), (long long)bad);
    std::free(gtile);
    std::free(stile);
    distrt_grid_free(g);
  }
  tu_section("non-replicated forms on %lld ranks: gather-to-one %lld, "
             "broadcast %lld, scatter %lld",
             (long long)P, (long long)nrKinds[0], (long long)nrKinds[1],
             (long long)nrKinds[2]);
  return tu_finish();
}
