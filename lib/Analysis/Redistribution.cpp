//===- Redistribution.cpp - the thesis' redistribution rules --------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Redistribution.h"

#include "llvm/ADT/STLExtras.h"
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

/// Largest number of elements a process holds under `t`.
double nbar(const ModeTuples &t, llvm::ArrayRef<int64_t> mesh,
            llvm::ArrayRef<int64_t> shape) {
  double n = 1;
  for (auto [d, tuple] : llvm::enumerate(t)) {
    int64_t p = prodModes(mesh, tuple);
    n *= double((shape[d] + p - 1) / p);
  }
  return n;
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
    return std::log2(std::max(p, 1.0)) * m.alpha + (p - 1) * (n / p) * m.beta;
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

std::string mlir::dist::formatModeTuples(const ModeTuples &t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(t, os, [&](const Tuple &x) {
    os << "(";
    llvm::interleaveComma(x, os);
    os << ")";
  });
  os << "]";
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

std::optional<RedistributionPlan>
mlir::dist::planRedistribution(const ModeTuples &from, const ModeTuples &to,
                               llvm::ArrayRef<int64_t> mesh,
                               llvm::ArrayRef<int64_t> shape,
                               const CostModel &model, unsigned maxSteps) {
  RedistributionPlan plan;
  if (from == to)
    return plan;
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
