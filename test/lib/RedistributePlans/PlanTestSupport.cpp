//===- PlanTestSupport.cpp - helpers of the redistribution plan test ------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "PlanTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace plantest {
uint64_t rngState;

int64_t rnd(int64_t n) {
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

int64_t checkTile(const ModeTuples &t, const std::vector<int64_t> &grid,
                  const std::vector<int64_t> &coords,
                  const std::vector<int64_t> &shape, const void *tile,
                  int64_t dtype, int64_t seed, int64_t gotSize,
                  const FixedAxes &fixed) {
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

int64_t modeMask(const RedistributionStep &step) {
  int64_t mask = 0;
  for (int64_t m : step.modes)
    mask |= int64_t(1) << m;
  return mask;
}

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

std::vector<RedistributionStep> stepsOf(const RedistributionPlan &plan,
                                        const ModeTuples &to,
                                        const Blocks &toBlocks) {
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

void expectWithinBound(const std::string &what, const RedistributionStep &s,
                       bool relaxed, int64_t tile, int64_t bound) {
  EXPECT(relaxed || tile <= bound,
         "%s: %s to %s holds %lld elements, more than the memory bound %lld",
         what.c_str(), stringifyStep(s.kind).c_str(),
         formatModeTuples(s.after, s.fixedAfter, s.blocksAfter).c_str(),
         (long long)tile, (long long)bound);
}

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
} // namespace plantest
