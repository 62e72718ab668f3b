//===- TestRedistributePlansGrids.cpp - plans between grids, collectives --===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Two sections of dist-test-redistribute-plans (TestRedistributePlans.cpp):
// pairs of layouts on two different grids, and non-replicated forms that
// the planner must recognise as one gather-to-one, broadcast or scatter.
//
//===----------------------------------------------------------------------===//

#include "PlanTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace plantest {
/// Pairs on two different grids of P ranks (below).
void checkTwoGridPairs(int64_t cases, int64_t P) {
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
            return planBlockedRedistribution(rf, rfB, rt, rtB, fgrid, shape, m);
          },
          relaxed);
      int64_t bound = std::max(distrt_layout_tile_capacity(ga, sdesc.data()),
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
        distrt_grid *gf =
            distrt_grid_create(int64_t(fgrid.size()), fgrid.data());
        std::vector<int64_t> coordsF(fgrid.size());
        for (size_t a = 0; a < fgrid.size(); ++a)
          coordsF[a] = distrt_grid_coord(gf, int64_t(a));
        std::vector<RedistributionStep> steps = stepsOf(*plan, rt, rtB);
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
                 what.c_str(), (long long)bad, stringifyStep(step.kind).c_str(),
                 (long long)mask,
                 formatModeTuples(step.after, {}, step.blocksAfter).c_str());
          expectWithinBound(what, step, relaxed,
                            distrt_layout_tile_size(gf, b.data()), bound);
          if (cur != stile)
            std::free(cur);
          cur = next;
          a = b;
        }
        // The last tile is the destination's tile on its own grid.
        int64_t bad =
            checkBlockedTile(to, toB, gridB, coordsB, shape, cur, dtype, seed,
                             distrt_layout_tile_size(gb, ddesc.data()));
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
    int64_t bad =
        checkBlockedTile(to, toB, gridB, coordsB, shape, gtile, dtype, seed,
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
             (long long)tgSteps, (long long)tgUnbounded, (long long)tgNoRefine,
             (long long)tgFallback);
}

/// Non-replicated forms built to be one collective step (below).
void checkNonReplicatedForms(int64_t cases, int64_t P) {
  // Non-replicated forms [D; E, w]: pairs built to be one gather-to-one,
  // broadcast or scatter (random tails, random other fixed axes E at
  // random coordinates); the planner must recognise the step, and both
  // paths are checked.
  int64_t nrKinds[3] = {0, 0, 0}, nrCases = cases / 2;
  for (int64_t k = 0; k < nrCases; ++k) {
    rngState = 0x2545f4914f6cdd1dULL * uint64_t(k + 1) + uint64_t(P) * 104729;
    std::vector<int64_t> grid = randomGrid(P);
    int64_t gdims = int64_t(grid.size());
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
    std::optional<RedistributionStep> step =
        classifyNonReplicated(from, fromF, to, toF, grid, shape, CostModel());
    if (EXPECT(step && step->kind == want, "%s: the planner finds no %s",
               what.c_str(), stringifyStep(want).c_str())) {
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
}
} // namespace plantest
