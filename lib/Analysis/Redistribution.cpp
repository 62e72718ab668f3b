//===- Redistribution.cpp - the thesis' redistribution rules --------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Analysis/Semantics.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::dist;

namespace {
using Tuple = std::vector<int64_t>;

int64_t prodModes(llvm::ArrayRef<int64_t> mesh, llvm::ArrayRef<int64_t> m) {
  int64_t p = 1;
  for (int64_t x : m)
    p *= mesh[x];
  return p;
}

bool isPrefix(const Tuple &a, const Tuple &b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

std::set<int64_t> used(const ModeTuples &t) {
  std::set<int64_t> s;
  for (const Tuple &x : t)
    s.insert(x.begin(), x.end());
  return s;
}

double stepCost(RedistributionStep::Kind kind, llvm::ArrayRef<int64_t> modes,
                const ModeTuples &after, llvm::ArrayRef<int64_t> mesh,
                llvm::ArrayRef<int64_t> shape, const CostModel &m) {
  double n = nbar(after, mesh, shape);
  double p = double(prodModes(mesh, modes));
  switch (kind) {
  case RedistributionStep::Kind::LocalSlice:
    return 0;
  case RedistributionStep::Kind::Permutation:
    return m.alpha + n * m.beta;
  case RedistributionStep::Kind::AllGather:
  case RedistributionStep::Kind::AllToAll:
  case RedistributionStep::Kind::KindChange:
  case RedistributionStep::Kind::Gather:
    return std::log2(std::max(p, 1.0)) * m.alpha + (p - 1) * (n / p) * m.beta;
  case RedistributionStep::Kind::Broadcast:
    return std::log2(std::max(p, 1.0)) * m.alpha + n * m.beta;
  case RedistributionStep::Kind::Scatter:
    return std::log2(std::max(p, 1.0)) * m.alpha + (p - 1) * n * m.beta;
  }
  return 0;
}

RedistributionStep makeStep(RedistributionStep::Kind kind,
                            std::set<int64_t> modes, const ModeTuples &after,
                            llvm::ArrayRef<int64_t> mesh,
                            llvm::ArrayRef<int64_t> shape,
                            const CostModel &m) {
  RedistributionStep s;
  s.kind = kind;
  s.modes.assign(modes.begin(), modes.end());
  s.after = after;
  s.cost = stepCost(kind, s.modes, after, mesh, shape, m);
  return s;
}
} // namespace

double mlir::dist::nbar(const ModeTuples &t, llvm::ArrayRef<int64_t> mesh,
                        llvm::ArrayRef<int64_t> shape) {
  double n = 1;
  for (auto [d, tuple] : llvm::enumerate(t)) {
    int64_t p = prodModes(mesh, tuple);
    n *= double(shape[d] / p + (shape[d] % p != 0));
  }
  return n;
}

std::string mlir::dist::formatModeTuples(const ModeTuples &t,
                                         const FixedAxes &fixed,
                                         const Blocks &blocks) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  size_t d = 0;
  llvm::interleaveComma(t, os, [&](const Tuple &x) {
    os << "(";
    llvm::interleaveComma(x, os);
    os << ")";
    if (!x.empty() && d < blocks.size() && blocks[d] > 1)
      os << " b=" << blocks[d];
    ++d;
  });
  os << "]";
  if (!fixed.empty()) {
    os << "|(";
    llvm::interleaveComma(fixed, os, [&](const std::pair<int64_t, int64_t> &f) {
      os << f.first << "=" << f.second;
    });
    os << ")";
  }
  return s;
}

std::string mlir::dist::stringifyStep(RedistributionStep::Kind kind) {
  switch (kind) {
  case RedistributionStep::Kind::LocalSlice:
    return "local slice";
  case RedistributionStep::Kind::AllGather:
    return "allgather";
  case RedistributionStep::Kind::Permutation:
    return "permutation";
  case RedistributionStep::Kind::AllToAll:
    return "all-to-all";
  case RedistributionStep::Kind::Gather:
    return "gather-to-one";
  case RedistributionStep::Kind::Broadcast:
    return "broadcast";
  case RedistributionStep::Kind::Scatter:
    return "scatter";
  case RedistributionStep::Kind::KindChange:
    return "redistribute-kind";
  }
  return "?";
}

std::optional<RedistributionStep>
mlir::dist::classifyRedistribution(const ModeTuples &from,
                                   const ModeTuples &to,
                                   llvm::ArrayRef<int64_t> mesh,
                                   llvm::ArrayRef<int64_t> shape,
                                   const CostModel &model) {
  if (from.size() != to.size() || from == to)
    return std::nullopt;
  size_t n = from.size();
  std::set<int64_t> usedFrom = used(from), usedTo = used(to);

  // Allgather: every tuple keeps a prefix; the dropped suffixes become
  // replication.
  {
    bool ok = true;
    std::set<int64_t> removed;
    for (size_t m = 0; m < n && ok; ++m) {
      if (!isPrefix(to[m], from[m]))
        ok = false;
      else
        removed.insert(from[m].begin() + to[m].size(), from[m].end());
    }
    for (int64_t x : removed)
      if (usedTo.count(x))
        ok = false;
    if (ok && !removed.empty())
      return makeStep(RedistributionStep::Kind::AllGather, removed, to, mesh,
                      shape, model);
  }
  // Local slice: tuples gain suffixes made of replicated modes.
  {
    bool ok = true;
    std::set<int64_t> added;
    for (size_t m = 0; m < n && ok; ++m) {
      if (!isPrefix(from[m], to[m]))
        ok = false;
      else
        added.insert(to[m].begin() + from[m].size(), to[m].end());
    }
    for (int64_t x : added)
      if (usedFrom.count(x))
        ok = false;
    if (ok && !added.empty())
      return makeStep(RedistributionStep::Kind::LocalSlice, added, to, mesh,
                      shape, model);
  }
  // All-to-all: suffix modes move from losers to the ends of gainers.
  {
    bool ok = true;
    std::multiset<int64_t> lost, gained;
    for (size_t m = 0; m < n && ok; ++m) {
      if (from[m] == to[m])
        continue;
      if (isPrefix(to[m], from[m]))
        lost.insert(from[m].begin() + to[m].size(), from[m].end());
      else if (isPrefix(from[m], to[m]))
        gained.insert(to[m].begin() + from[m].size(), to[m].end());
      else
        ok = false;
    }
    if (ok && !lost.empty() && lost == gained)
      return makeStep(RedistributionStep::Kind::AllToAll,
                      std::set<int64_t>(lost.begin(), lost.end()), to, mesh,
                      shape, model);
  }
  // Permutation: same modes, every tuple keeps a common prefix and swaps
  // its tail for one whose modes have the same product (the per-mode
  // stride condition).
  if (usedFrom == usedTo) {
    bool ok = true;
    std::set<int64_t> involved;
    for (size_t m = 0; m < n && ok; ++m) {
      size_t c = 0;
      while (c < from[m].size() && c < to[m].size() &&
             from[m][c] == to[m][c])
        ++c;
      Tuple tf(from[m].begin() + c, from[m].end());
      Tuple tt(to[m].begin() + c, to[m].end());
      if (prodModes(mesh, tf) != prodModes(mesh, tt))
        ok = false;
      involved.insert(tf.begin(), tf.end());
      involved.insert(tt.begin(), tt.end());
    }
    if (ok && !involved.empty())
      return makeStep(RedistributionStep::Kind::Permutation, involved, to,
                      mesh, shape, model);
  }
  return std::nullopt;
}

bool mlir::dist::withinMemoryBound(int64_t tile, ArrayRef<int64_t> ownTiles) {
  return llvm::any_of(ownTiles, [&](int64_t own) { return tile <= own; });
}

int64_t mlir::dist::largestTile(const ModeTuples &t, const Blocks &blocks,
                                ArrayRef<int64_t> mesh,
                                ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (auto [d, tuple] : llvm::enumerate(t)) {
    int64_t b = d < blocks.size() ? std::max<int64_t>(blocks[d], 1) : 1;
    PartitionKind kind = tuple.empty() ? PartitionKind::none
                         : b == 1      ? PartitionKind::cyclic
                                       : PartitionKind::block_cyclic;
    // Each factor is at most the extent: the product at most the tensor's
    // element count.
    n *= DimDistribution::get(kind, shape[d], prodModes(mesh, tuple), b)
             .maxLocalExtent();
  }
  return n;
}

/// The cheapest sequence from `from` to `to`, every layout on the way
/// (the destination included) dealt in `blocks` and, with a `limit`, holding
/// at most that many elements per process.
static std::optional<RedistributionPlan>
planSteps(const ModeTuples &from, const ModeTuples &to, ArrayRef<int64_t> mesh,
          ArrayRef<int64_t> shape, const CostModel &model, unsigned maxSteps,
          const Blocks &blocks, std::optional<int64_t> limit) {
  auto fits = [&](const ModeTuples &t) {
    return !limit || withinMemoryBound(largestTile(t, blocks, mesh, shape),
                                       {*limit});
  };
  RedistributionPlan plan;
  if (from == to)
    return plan;
  if (!fits(to))
    return std::nullopt;
  if (std::optional<RedistributionStep> s =
          classifyRedistribution(from, to, mesh, shape, model)) {
    plan.steps.push_back(*s);
    plan.cost = s->cost;
    return plan;
  }
  // Dijkstra over layouts; each edge is one single-mode collective.
  struct Node {
    double cost;
    ModeTuples state;
    std::vector<RedistributionStep> path;
    bool operator>(const Node &o) const { return cost > o.cost; }
  };
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> queue;
  std::map<ModeTuples, double> best;
  queue.push({0, from, {}});
  best[from] = 0;
  int64_t nmodes = mesh.size();
  while (!queue.empty()) {
    Node node = queue.top();
    queue.pop();
    if (node.state == to) {
      plan.steps = node.path;
      plan.cost = node.cost;
      return plan;
    }
    if (node.cost > best[node.state] || node.path.size() >= maxSteps)
      continue;
    std::vector<ModeTuples> next;
    const ModeTuples &s = node.state;
    std::set<int64_t> u = used(s);
    for (size_t a = 0; a < s.size(); ++a) {
      // Drop the last mode (allgather), move it to another tuple
      // (all-to-all), or replace it by an unused mode of equal extent
      // (permutation).
      if (!s[a].empty()) {
        ModeTuples t = s;
        int64_t last = t[a].back();
        t[a].pop_back();
        next.push_back(t);
        for (size_t b = 0; b < s.size(); ++b) {
          if (b == a)
            continue;
          ModeTuples t2 = t;
          t2[b].push_back(last);
          next.push_back(t2);
        }
        for (int64_t x = 0; x < nmodes; ++x)
          if (!u.count(x) && mesh[x] == mesh[last]) {
            ModeTuples t3 = s;
            t3[a].back() = x;
            next.push_back(t3);
          }
      }
      // Reorder a tuple (permutation).
      if (s[a].size() >= 2 && s[a].size() <= 4) {
        Tuple perm = s[a];
        std::sort(perm.begin(), perm.end());
        do {
          if (perm != s[a]) {
            ModeTuples t = s;
            t[a] = perm;
            next.push_back(t);
          }
        } while (std::next_permutation(perm.begin(), perm.end()));
      }
      // Append a replicated mode (local slice).
      for (int64_t x = 0; x < nmodes; ++x)
        if (!u.count(x)) {
          ModeTuples t = s;
          t[a].push_back(x);
          next.push_back(t);
        }
    }
    for (const ModeTuples &t : next) {
      if (!fits(t))
        continue;
      std::optional<RedistributionStep> step =
          classifyRedistribution(s, t, mesh, shape, model);
      if (!step)
        continue;
      double c = node.cost + step->cost;
      auto it = best.find(t);
      if (it != best.end() && it->second <= c)
        continue;
      best[t] = c;
      std::vector<RedistributionStep> path = node.path;
      path.push_back(*step);
      queue.push({c, t, path});
    }
  }
  return std::nullopt;
}

std::optional<RedistributionPlan>
mlir::dist::planRedistribution(const ModeTuples &from, const ModeTuples &to,
                               ArrayRef<int64_t> mesh, ArrayRef<int64_t> shape,
                               const CostModel &model, unsigned maxSteps) {
  std::optional<int64_t> limit;
  if (model.memoryBound)
    limit = std::max(largestTile(from, {}, mesh, shape),
                     largestTile(to, {}, mesh, shape));
  return planSteps(from, to, mesh, shape, model, maxSteps, {}, limit);
}

std::optional<RedistributionPlan> mlir::dist::planBlockedRedistribution(
    const ModeTuples &from, const Blocks &fromBlocks, const ModeTuples &to,
    const Blocks &toBlocks, ArrayRef<int64_t> mesh, ArrayRef<int64_t> shape,
    const CostModel &model, unsigned maxSteps) {
  size_t n = from.size();
  if (to.size() != n || fromBlocks.size() != n || toBlocks.size() != n)
    return std::nullopt;
  // Blocks for the steps on either side of the kind change: a dimension
  // partitioned on one side only keeps that side's block.
  Blocks before(n), after(n);
  std::vector<size_t> changed;
  for (size_t d = 0; d < n; ++d) {
    int64_t s = fromBlocks[d], t = toBlocks[d];
    before[d] = s ? s : (t ? t : 1);
    after[d] = t ? t : (s ? s : 1);
    if (before[d] != after[d])
      changed.push_back(d);
  }
  // The kind change runs first (the other steps on blocks `after`) or last
  // (on `before`). Under the memory bound each way is planned on its own
  // blocks, and no layout on the way may hold more per process than the
  // source or the destination.
  std::optional<int64_t> limit;
  if (model.memoryBound)
    limit = std::max(largestTile(from, before, mesh, shape),
                     largestTile(to, after, mesh, shape));
  std::optional<RedistributionPlan> restAfter =
      planSteps(from, to, mesh, shape, model, maxSteps, after, limit);
  std::optional<RedistributionPlan> restBefore =
      !limit || changed.empty()
          ? restAfter
          : planSteps(from, to, mesh, shape, model, maxSteps, before, limit);
  // The kind change over `tuples`: the modes of the changed dimensions
  // dealt over more than one process (others hold the whole dimension, in
  // the same order under any block, so their tile is unchanged).
  auto kindStep = [&](const ModeTuples &tuples)
      -> std::optional<RedistributionStep> {
    std::set<int64_t> modes;
    for (size_t d : changed)
      if (prodModes(mesh, tuples[d]) > 1)
        modes.insert(tuples[d].begin(), tuples[d].end());
    if (modes.empty())
      return std::nullopt;
    RedistributionStep k = makeStep(RedistributionStep::Kind::KindChange,
                                    modes, tuples, mesh, shape, model);
    k.blocksAfter = after;
    return k;
  };
  std::optional<RedistributionStep> first = kindStep(from);
  std::optional<RedistributionStep> last = kindStep(to);
  bool canFirst =
      restAfter && (!first || !limit ||
                    withinMemoryBound(largestTile(from, after, mesh, shape),
                                      {*limit}));
  bool canLast = restBefore && last;
  if (!canFirst && !canLast)
    return std::nullopt;
  bool kindFirst =
      canFirst && (!canLast || !last || (first && first->cost <= last->cost));
  const std::optional<RedistributionPlan> &rest =
      kindFirst ? restAfter : restBefore;
  RedistributionPlan plan;
  if (kindFirst && first)
    plan.steps.push_back(*first);
  for (RedistributionStep s : rest->steps) {
    s.blocksAfter = kindFirst ? after : before;
    plan.steps.push_back(std::move(s));
  }
  if (!kindFirst)
    plan.steps.push_back(*last);
  for (const RedistributionStep &s : plan.steps)
    plan.cost += s.cost;
  return plan;
}

std::optional<ModeTuples> mlir::dist::modeTuplesOf(DistTensorType type) {
  FixedAxes fixed;
  std::optional<ModeTuples> t = modeTuplesOf(type, fixed);
  if (!t || !fixed.empty())
    return std::nullopt;
  return t;
}

std::optional<ModeTuples> mlir::dist::modeTuplesOf(DistTensorType type,
                                                   FixedAxes &fixed) {
  LayoutAttr layout = type.getLayout();
  if (layout.getLevels().size() != 1)
    return std::nullopt;
  LevelLayoutAttr level = layout.getOuter();
  fixed.clear();
  for (auto [a, c] : llvm::zip(level.getFixedAxes(), level.getFixedCoords()))
    fixed.emplace_back(a, c);
  llvm::sort(fixed);
  ModeTuples t;
  for (DimDistAttr d : level.getDims()) {
    // Skewed owners are not the thesis' notation: the general exchange.
    if (!d.getSkew().empty())
      return std::nullopt;
    Tuple axes(d.getAxes().begin(), d.getAxes().end());
    switch (d.getKind()) {
    case PartitionKind::none:
    case PartitionKind::cyclic:
      break;
    case PartitionKind::block_cyclic:
      if (d.getBlock() != 1)
        return std::nullopt;
      break;
    case PartitionKind::nonzeros: // sparse tensors only: not thesis notation
      return std::nullopt;
    case PartitionKind::blocked:
      // Blocked is elemental-cyclic only when every block has one element;
      // that depends on the grid, so planRedistributeOp decides.
      break;
    }
    t.push_back(std::move(axes));
  }
  return t;
}

std::optional<ModeTuples>
mlir::dist::blockedModeTuplesOf(DistTensorType type, ArrayRef<int64_t> mesh,
                                FixedAxes &fixed, Blocks &blocks) {
  LayoutAttr layout = type.getLayout();
  if (layout.getLevels().size() != 1)
    return std::nullopt;
  LevelLayoutAttr level = layout.getOuter();
  fixed.clear();
  blocks.clear();
  for (auto [a, c] : llvm::zip(level.getFixedAxes(), level.getFixedCoords()))
    fixed.emplace_back(a, c);
  llvm::sort(fixed);
  ModeTuples t;
  for (auto [n, d] : llvm::zip(type.getShape(), level.getDims())) {
    if (!d.getSkew().empty())
      return std::nullopt;
    Tuple axes(d.getAxes().begin(), d.getAxes().end());
    for (int64_t a : axes)
      if (a < 0 || a >= int64_t(mesh.size()))
        return std::nullopt;
    int64_t q = prodModes(mesh, axes), b = 0;
    if (!axes.empty()) {
      switch (d.getKind()) {
      case PartitionKind::none:
        return std::nullopt;
      case PartitionKind::cyclic:
        b = 1;
        break;
      case PartitionKind::block_cyclic:
        b = d.getBlock();
        break;
      case PartitionKind::blocked:
        b = (n + q - 1) / q;
        break;
      case PartitionKind::nonzeros: // sparse tensors only: not thesis notation
        return std::nullopt;
      }
      // A block of the whole extent or more is one block owned by the
      // first process: all such blocks deal the same way.
      b = std::max<int64_t>(1, std::min<int64_t>(b, n));
    }
    blocks.push_back(b);
    t.push_back(std::move(axes));
  }
  return t;
}

SmallVector<int64_t>
mlir::dist::modeTupleDescriptor(const ModeTuples &t, ArrayRef<int64_t> shape,
                                const FixedAxes &fixed, const Blocks &blocks) {
  SmallVector<int64_t> d{int64_t(t.size())};
  for (auto [i, n, tuple] : llvm::enumerate(shape, t)) {
    int64_t b = i < blocks.size() && blocks[i] > 1 ? blocks[i] : 1;
    d.push_back(n);
    d.push_back(tuple.empty() ? 0 : b > 1 ? 3 : 2);
    d.push_back(tuple.empty() ? n : b);
    d.push_back(tuple.size());
    llvm::append_range(d, tuple);
  }
  d.push_back(fixed.size());
  for (auto [a, c] : fixed) {
    d.push_back(a);
    d.push_back(c);
  }
  return d;
}

std::optional<RedistributionStep> mlir::dist::classifyNonReplicated(
    const ModeTuples &from, const FixedAxes &fromFixed, const ModeTuples &to,
    const FixedAxes &toFixed, ArrayRef<int64_t> mesh, ArrayRef<int64_t> shape,
    const CostModel &model) {
  if (from.size() != to.size())
    return std::nullopt;
  std::map<int64_t, int64_t> ff(fromFixed.begin(), fromFixed.end());
  std::map<int64_t, int64_t> tf(toFixed.begin(), toFixed.end());
  // `big` fixes everything `small` fixes, at the same coordinates; the
  // extra axes are the step's.
  auto extra = [](const std::map<int64_t, int64_t> &big,
                  const std::map<int64_t, int64_t> &small)
      -> std::optional<std::set<int64_t>> {
    std::set<int64_t> e;
    for (auto [a, c] : small) {
      auto it = big.find(a);
      if (it == big.end() || it->second != c)
        return std::nullopt;
    }
    for (auto [a, c] : big)
      if (!small.count(a))
        e.insert(a);
    if (e.empty())
      return std::nullopt;
    return e;
  };
  // Tails: `longer[m]` extends `shorter[m]`; the union of the extensions
  // must be exactly `axes`.
  auto tailsAre = [&](const ModeTuples &shorter, const ModeTuples &longer,
                      const std::set<int64_t> &axes) {
    std::multiset<int64_t> tails;
    for (auto [s, l] : llvm::zip(shorter, longer)) {
      if (!isPrefix(s, l))
        return false;
      tails.insert(l.begin() + s.size(), l.end());
    }
    return tails.size() == axes.size() &&
           std::set<int64_t>(tails.begin(), tails.end()) == axes;
  };
  auto step = [&](RedistributionStep::Kind kind, const std::set<int64_t> &m) {
    RedistributionStep s = makeStep(kind, m, to, mesh, shape, model);
    s.fixedAfter = toFixed;
    return s;
  };
  if (std::optional<std::set<int64_t>> e = extra(tf, ff)) {
    // Gather-to-one: tails e dropped, fixed at the root.
    if (tailsAre(to, from, *e))
      return step(RedistributionStep::Kind::Gather, *e);
    return std::nullopt;
  }
  if (std::optional<std::set<int64_t>> e = extra(ff, tf)) {
    // Broadcast: the fixed axes become replication; scatter: they become
    // tails.
    if (from == to)
      return step(RedistributionStep::Kind::Broadcast, *e);
    if (tailsAre(from, to, *e))
      return step(RedistributionStep::Kind::Scatter, *e);
  }
  return std::nullopt;
}

/// Whether a blocked dimension of `type` deals one element per process.
static bool blockedIsCyclic(DistTensorType type, ArrayRef<int64_t> mesh) {
  LevelLayoutAttr level = type.getLayout().getOuter();
  for (auto [n, d] : llvm::zip(type.getShape(), level.getDims())) {
    if (d.getKind() != PartitionKind::blocked)
      continue;
    int64_t q = 1;
    for (int64_t a : d.getAxes())
      q *= mesh[a];
    if ((n + q - 1) / q != 1)
      return false;
  }
  return true;
}

std::string mlir::dist::stringifyPartialSum(PartialSumPlan::Kind kind) {
  switch (kind) {
  case PartialSumPlan::Kind::AllReduce:
    return "allreduce";
  case PartialSumPlan::Kind::ReduceScatter:
    return "reduce-scatter";
  case PartialSumPlan::Kind::ReduceToOne:
    return "reduce-to-one";
  }
  return "?";
}

static PartialSumPlan planPartialSumImpl(RedistributeOp op,
                                         const CostModel &model,
                                         bool general) {
  PartialSumPlan r;
  DistTensorType src = op.getSource().getType();
  DistTensorType dst = op.getDest().getType();
  auto gs = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, src.getLayout().getGrid());
  auto gd = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, dst.getLayout().getGrid());
  if (!gs || !gd || gs != gd) {
    r.error = "partial sums need the source and destination on one grid";
    return r;
  }
  SmallVector<int64_t> mesh(gs.getShape());
  std::optional<ModeTuples> from = modeTuplesOf(src);
  if (!from || !blockedIsCyclic(src, mesh)) {
    r.error = "the partial-sum source must be elemental-cyclic (mode "
              "tuples) with no fixed grid axes";
    return r;
  }
  r.from = *from;
  ArrayRef<int64_t> sum = *op.getSum();
  std::set<int64_t> freed;
  for (int64_t d = 0; d < int64_t(r.from.size()); ++d) {
    if (llvm::is_contained(sum, d)) {
      r.sumMask |= int64_t(1) << d;
      freed.insert(r.from[d].begin(), r.from[d].end());
    } else {
      r.kept.push_back(r.from[d]);
    }
  }
  r.freed.assign(freed.begin(), freed.end());
  for (int64_t a : r.freed)
    r.axesMask |= int64_t(1) << a;
  SmallVector<int64_t> shape(dst.getShape());
  auto viaKept = [&](std::optional<ModeTuples> to) {
    r.kind = PartialSumPlan::Kind::AllReduce;
    r.direct = false;
    if (to && !general)
      r.then = planRedistribution(r.kept, *to, mesh, shape, model);
    return r;
  };
  if (general)
    return viaKept(std::nullopt);
  // Reduce-to-one: the kept layout, fixed to coordinate 0 on the freed
  // modes.
  LayoutAttr layout = dst.getLayout();
  if (layout.getLevels().size() == 1 &&
      !layout.getOuter().getFixedAxes().empty()) {
    LevelLayoutAttr level = layout.getOuter();
    ModeTuples tuples;
    for (DimDistAttr d : level.getDims())
      tuples.emplace_back(d.getAxes().begin(), d.getAxes().end());
    std::set<int64_t> fixed(level.getFixedAxes().begin(),
                            level.getFixedAxes().end());
    bool zero = llvm::all_of(level.getFixedCoords(),
                             [](int64_t c) { return c == 0; });
    bool cyclic = llvm::all_of(level.getDims(), [](DimDistAttr d) {
      return d.getKind() == PartitionKind::none ||
             d.getKind() == PartitionKind::cyclic;
    });
    if (tuples == r.kept && fixed == freed && zero && cyclic) {
      r.kind = PartialSumPlan::Kind::ReduceToOne;
      return r;
    }
    return viaKept(std::nullopt);
  }
  std::optional<ModeTuples> to = modeTuplesOf(dst);
  if (!to || !blockedIsCyclic(dst, mesh))
    return viaKept(std::nullopt);
  if (*to == r.kept) {
    r.kind = PartialSumPlan::Kind::AllReduce;
    return r;
  }
  // Reduce-scatter: every kept tuple is a prefix of the destination's, and
  // the appended tails are exactly the freed modes.
  std::multiset<int64_t> tails;
  bool prefix = true;
  for (auto [k, t] : llvm::zip(r.kept, *to)) {
    if (!isPrefix(k, t)) {
      prefix = false;
      break;
    }
    tails.insert(t.begin() + k.size(), t.end());
  }
  if (prefix && std::set<int64_t>(tails.begin(), tails.end()) == freed &&
      tails.size() == freed.size()) {
    r.kind = PartialSumPlan::Kind::ReduceScatter;
    return r;
  }
  return viaKept(to);
}

PartialSumPlan mlir::dist::planPartialSum(RedistributeOp op,
                                          const CostModel &model,
                                          bool general) {
  PartialSumPlan r = planPartialSumImpl(op, model, general);
  if (!r.error.empty())
    return r;
  // The thesis' costs (gamma = 0): n is the largest output tile.
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, op.getSource().getType().getLayout().getGrid());
  SmallVector<int64_t> mesh(grid.getShape());
  SmallVector<int64_t> shape(op.getDest().getType().getShape());
  double p = double(prodModes(mesh, r.freed));
  double lg = std::log2(std::max(p, 1.0)) * model.alpha;
  switch (r.kind) {
  case PartialSumPlan::Kind::AllReduce:
    r.cost = lg + (p - 1) * (nbar(r.kept, mesh, shape) / p) * 2 * model.beta;
    break;
  case PartialSumPlan::Kind::ReduceScatter:
    r.cost = lg + (p - 1) *
                      nbar(*modeTuplesOf(op.getDest().getType()), mesh,
                           shape) *
                      model.beta;
    break;
  case PartialSumPlan::Kind::ReduceToOne:
    r.cost = lg + nbar(r.kept, mesh, shape) * model.beta;
    break;
  }
  if (r.then)
    r.cost += r.then->cost;
  return r;
}
