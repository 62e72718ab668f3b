//===- Communication.cpp - communication of a scheduled statement -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Communication.h"
#include "CommunicationDetail.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::comm_detail;

StringRef mlir::dist::stringifyTransferKind(TransferPlan::Kind kind) {
  switch (kind) {
  case TransferPlan::Kind::Local:
    return "local";
  case TransferPlan::Kind::Broadcast:
    return "broadcast";
  case TransferPlan::Kind::Shift:
    return "shift";
  case TransferPlan::Kind::AllGather:
    return "allgather";
  case TransferPlan::Kind::PointToPoint:
    return "point-to-point";
  case TransferPlan::Kind::ReduceScatter:
    return "reduce-scatter";
  case TransferPlan::Kind::Reduce:
    return "reduce";
  case TransferPlan::Kind::AllReduce:
    return "allreduce";
  case TransferPlan::Kind::General:
    return "general";
  }
  return "general";
}

std::string TransferPlan::describe(const ComputeModel &m) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << tensor << (output ? " (output)" : "") << ": "
     << stringifyTransferKind(kind);
  if (!axes.empty()) {
    os << " over grid axes [";
    llvm::interleaveComma(axes, os);
    os << "]";
  }
  if (kind == Kind::Shift)
    os << " along grid axis " << shiftAxis << " by " << shiftOffset
       << (alignLocal ? " with no alignment (every processor holds its "
                        "first block)"
           : alignByPermutation ? " after an initial point-to-point alignment"
                                : " after an initial alignment");
  if (kind == Kind::AllGather || kind == Kind::ReduceScatter)
    os << " of pieces along tensor dimension " << splitDim;
  if (pieceBlock > 0)
    os << " (blocks of " << pieceBlock << ", the last ones shorter)";
  if (kind == Kind::Broadcast || kind == Kind::Reduce) {
    bool constant = rootTable.empty() ? root.isConstant()
                                      : llvm::all_equal(rootTable);
    if (constant)
      os << " from root "
         << (rootTable.empty() ? root.value : rootTable.front());
    else
      os << " from a root that changes with the step";
  }
  if (level == 0)
    os << ", once";
  else
    os << ", at each iteration of '" << m.localLoops[level - 1]->name << "'";
  os << " (" << steps << " step" << (steps == 1 ? "" : "s");
  if (maxElements < 0)
    os << ", size unknown)";
  else
    os << ", up to " << maxElements << " element"
       << (maxElements == 1 ? "" : "s") << ")";
  return s;
}

namespace {
/// Point-to-point tables for steps [from, to) when every box has one
/// provider and every provider serves at most one other rank per step.
bool permutationTables(const ComputeModel &m, const Owners &owners,
                       ArrayRef<SmallVector<int64_t>> coords,
                       const std::vector<std::vector<Box>> &boxes,
                       int64_t steps, int64_t rank,
                       function_ref<bool(int64_t)> stepSelected,
                       TransferPlan &plan) {
  int64_t P = coords.size();
  plan.srcTable.assign(P * steps, -1);
  plan.dstTable.assign(P * steps, -1);
  plan.dstLo.assign(P * steps * std::max<int64_t>(rank, 1), 0);
  plan.dstSize.assign(P * steps * std::max<int64_t>(rank, 1), 0);
  for (int64_t s = 0; s < steps; ++s) {
    if (!stepSelected(s))
      continue;
    for (int64_t r = 0; r < P; ++r) {
      const Box &b = boxes[r][s];
      if (b.volume() == 0)
        continue;
      std::optional<SmallVector<int64_t>> q = owners.provider(coords[r], b);
      if (!q || !owners.holdsBox(*q, b))
        return false;
      int64_t qr = rowMajorRank(*q, m.gridShape);
      plan.srcTable[r * steps + s] = qr;
      if (plan.dstTable[qr * steps + s] != -1)
        return false; // a provider serving two ranks: not a permutation
      plan.dstTable[qr * steps + s] = r;
      for (int64_t d = 0; d < rank; ++d) {
        plan.dstLo[(qr * steps + s) * rank + d] = b.lo[d];
        plan.dstSize[(qr * steps + s) * rank + d] = b.size[d];
      }
    }
  }
  return true;
}

/// Whether every group over `axis` shares box `b` at each step, the box is
/// contiguous in row-major order (dimensions before the one partitioned
/// over exactly `axis` are single indices) and member j (coordinate j on
/// `axis`) holds piece j of it: equal pieces when `block` is 0; else the
/// layout's blocks of `block` indices of a box that starts at 0, the last
/// ones shorter or empty. Returns that dimension or -1.
int64_t piecesAlong(const ComputeModel &m, const Owners &owners,
                    ArrayRef<SmallVector<int64_t>> coords,
                    const std::vector<std::vector<Box>> &boxes, int64_t steps,
                    int64_t axis, int64_t block) {
  const LevelDistribution &L = owners.level();
  int64_t dim = -1;
  for (unsigned d = 0; d < L.getRank(); ++d)
    if (L.getAxes(d).size() == 1 && L.getAxes(d).front() == axis)
      dim = d;
  if (dim < 0)
    return -1;
  int64_t G = m.gridShape[axis];
  int64_t P = coords.size();
  for (int64_t r = 0; r < P; ++r) {
    for (int64_t s = 0; s < steps; ++s) {
      const Box &b = boxes[r][s];
      // Same box on the whole group.
      for (int64_t j = 0; j < G; ++j) {
        SmallVector<int64_t> c = coords[r];
        c[axis] = j;
        if (!(boxes[rowMajorRank(c, m.gridShape)][s] == b))
          return -1;
      }
      for (int64_t d = 0; d < dim; ++d)
        if (b.size[d] != 1)
          return -1;
      int64_t n = b.size[dim];
      if (n < 1 || (block ? b.lo[dim] != 0 || n > G * block : n % G != 0))
        return -1;
      int64_t stride = block ? block : n / G;
      for (int64_t j = 0; j < G; ++j) {
        Box pb = b;
        pb.lo[dim] = b.lo[dim] + j * stride;
        pb.size[dim] = std::min(stride, n - j * stride);
        if (pb.size[dim] <= 0)
          continue;
        SmallVector<int64_t> c = coords[r];
        c[axis] = j;
        if (!owners.holdsBox(c, pb))
          return -1;
      }
    }
  }
  return dim;
}

/// The block of the dimension partitioned over exactly `axis` when it is
/// blocked over all of it without skew, else 0.
int64_t layoutBlockAlong(const Owners &owners, int64_t axis, int64_t extent) {
  const LevelDistribution &L = owners.level();
  for (unsigned d = 0; d < L.getRank(); ++d) {
    if (L.getAxes(d).size() != 1 || L.getAxes(d).front() != axis)
      continue;
    const DimDistribution &dd = L.getDim(d);
    if (dd.kind == PartitionKind::blocked && dd.block > 0 &&
        dd.parts == extent && L.getSkews(d).empty())
      return dd.block;
  }
  return 0;
}
} // namespace

namespace {
/// Classifies one tensor's transfer by looking at the box of every
/// (processor, step) pair: the enumeration oracle the symbolic analysis is
/// checked against.
class Enumeration {
public:
  Enumeration(const ComputeModel &m, ArrayRef<SmallVector<int64_t>> coords,
              TransferPlan &plan, std::vector<std::vector<Box>> boxes)
      : m(m), coords(coords), P(coords.size()), plan(plan),
        owners(m, plan.tensor), boxes(std::move(boxes)),
        rank(m.accessOf.lookup(plan.tensor)->indices.size()) {}

  void classify();

private:
  template <typename Pred> bool everyBox(Pred pred) const {
    for (int64_t r = 0; r < P; ++r)
      for (int64_t s = 0; s < plan.steps; ++s)
        if (!pred(r, s, boxes[r][s]))
          return false;
    return true;
  }
  bool cutIntoPieces(TransferPlan::Kind kind);
  bool broadcast();
  bool shift();
  void clearTables() {
    plan.srcTable.clear();
    plan.dstTable.clear();
    plan.dstLo.clear();
    plan.dstSize.clear();
  }
  void classifyInput();
  void classifyOutput();

  const ComputeModel &m;
  ArrayRef<SmallVector<int64_t>> coords;
  int64_t P;
  TransferPlan &plan;
  Owners owners;
  /// boxes[r][step]
  std::vector<std::vector<Box>> boxes;
  int64_t rank;
};

/// Allgather / reduce-scatter: a grid axis whose group shares every box
/// and holds it as equal contiguous pieces, one per member (or, for a
/// reduce-scatter, the layout's blocks).
bool Enumeration::cutIntoPieces(TransferPlan::Kind kind) {
  // Equal pieces first; a reduce-scatter may also cut in the layout's
  // blocks.
  for (bool blocks : {false, true}) {
    if (blocks && kind != TransferPlan::Kind::ReduceScatter)
      break;
    for (unsigned a = 0; a < m.gridShape.size(); ++a) {
      if (m.gridShape[a] == 1)
        continue;
      int64_t block = blocks ? layoutBlockAlong(owners, a, m.gridShape[a]) : 0;
      if (blocks && !block)
        continue;
      int64_t dim = piecesAlong(m, owners, coords, boxes, plan.steps, a, block);
      if (dim >= 0) {
        plan.kind = kind;
        plan.axes = {a};
        plan.splitDim = dim;
        plan.pieceBlock = block;
        return true;
      }
    }
  }
  return false;
}

/// Broadcast: one provider per (processor, step) inside the group over the
/// axes where providers differ, same box for the whole group.
bool Enumeration::broadcast() {
  SmallVector<int64_t> axes;
  bool single = true;
  everyBox([&](int64_t r, int64_t, const Box &b) {
    auto q = owners.provider(coords[r], b);
    if (!q) {
      single = false;
      return false;
    }
    for (unsigned a = 0; a < m.gridShape.size(); ++a)
      if ((*q)[a] != coords[r][a] && !llvm::is_contained(axes, a))
        axes.push_back(a);
    return true;
  });
  llvm::sort(axes);
  if (!single || axes.empty())
    return false;
  bool ok = true;
  std::map<std::pair<SmallVector<int64_t>, int64_t>,
           std::pair<Box, SmallVector<int64_t>>>
      seen;
  plan.rootTable.assign(P * plan.steps, 0);
  everyBox([&](int64_t r, int64_t s, const Box &b) {
    SmallVector<int64_t> q = *owners.provider(coords[r], b);
    auto key = std::make_pair(groupKey(coords[r], axes), s);
    auto it = seen.find(key);
    if (it == seen.end()) {
      seen[key] = {b, q};
    } else if (!(it->second.first == b) || it->second.second != q) {
      ok = false;
      return false;
    }
    // The provider must belong to the group.
    if (groupKey(q, axes) != groupKey(coords[r], axes)) {
      ok = false;
      return false;
    }
    plan.rootTable[r * plan.steps + s] = groupIndex(q, m.gridShape, axes);
    return true;
  });
  if (!ok) {
    plan.rootTable.clear();
    return false;
  }
  plan.kind = TransferPlan::Kind::Broadcast;
  plan.axes = axes;
  return true;
}

/// Shift: along one axis, the box of step s is the neighbour's box of step
/// s - 1 within every run of the communicate loop.
bool Enumeration::shift() {
  unsigned k = plan.level;
  if (k < 1 || m.localLoops[k - 1]->extent <= 1)
    return false;
  int64_t inner = m.localLoops[k - 1]->extent;
  for (unsigned a = 0; a < m.gridShape.size(); ++a) {
    for (int64_t off = 1; off < m.gridShape[a]; ++off) {
      bool ok = everyBox([&](int64_t r, int64_t s, const Box &b) {
        if (s % inner == 0)
          return true;
        SmallVector<int64_t> nb = coords[r];
        nb[a] = (nb[a] + off) % m.gridShape[a];
        int64_t nr = rowMajorRank(nb, m.gridShape);
        const Box &prev = boxes[nr][s - 1];
        return b == prev && b.size == boxes[r][s - 1].size;
      });
      if (!ok)
        continue;
      plan.kind = TransferPlan::Kind::Shift;
      plan.shiftAxis = a;
      plan.shiftOffset = off;
      // The alignment (first iteration) as a permutation, if it is one.
      plan.alignByPermutation = permutationTables(
          m, owners, coords, boxes, plan.steps, rank,
          [&](int64_t s) { return s % inner == 0; }, plan);
      if (plan.alignByPermutation) {
        plan.alignLocal = true;
        for (int64_t r = 0; r < P && plan.alignLocal; ++r)
          for (int64_t s = 0; s < plan.steps; s += inner)
            if (plan.srcTable[r * plan.steps + s] != -1 &&
                plan.srcTable[r * plan.steps + s] != r)
              plan.alignLocal = false;
      } else {
        clearTables();
      }
      return true;
    }
  }
  return false;
}

/// An input: broadcast, allgather, shift, point to point, else general.
void Enumeration::classifyInput() {
  if (broadcast())
    return;
  // AllGather: the group over one axis shares the box, which its members
  // hold as equal contiguous pieces.
  if (cutIntoPieces(TransferPlan::Kind::AllGather))
    return;
  if (shift())
    return;
  // Point to point: one provider per box, each serving one rank.
  if (permutationTables(
          m, owners, coords, boxes, plan.steps, rank,
          [](int64_t) { return true; }, plan)) {
    plan.kind = TransferPlan::Kind::PointToPoint;
    return;
  }
  clearTables();
  plan.kind = TransferPlan::Kind::General;
  plan.whyGeneral =
      "the boxes it needs fit no collective: not held locally, not one "
      "root per group of grid axes, not equal pieces along one axis, "
      "not a shift, not a one-to-one permutation";
}

/// The output: reduce-scatter, reduce or allreduce, else general.
void Enumeration::classifyOutput() {
  // Output: reduce-scatter when the group over one axis shares the box
  // and its members hold equal contiguous pieces of it (and nobody
  // else holds any).
  if (!owners.anyReplicated() &&
      cutIntoPieces(TransferPlan::Kind::ReduceScatter))
    return;

  // Output: reduce / allreduce over the axes of processors sharing a box.
  // Candidate axes: those along which the boxes agree at every step.
  SmallVector<int64_t> axes;
  for (unsigned a = 0; a < m.gridShape.size(); ++a) {
    if (m.gridShape[a] == 1)
      continue;
    bool same = everyBox([&](int64_t r, int64_t s, const Box &b) {
      SmallVector<int64_t> nb = coords[r];
      nb[a] = (nb[a] + 1) % m.gridShape[a];
      return boxes[rowMajorRank(nb, m.gridShape)][s] == b;
    });
    if (same)
      axes.push_back(a);
  }
  if (!axes.empty()) {
    // Holders of the box inside each group: exactly one (reduce) or all
    // (allreduce); nobody outside the group holds any of it.
    bool reduce = true, allreduce = true;
    plan.rootTable.assign(P * plan.steps, 0);
    everyBox([&](int64_t r, int64_t s, const Box &b) {
      if (b.volume() == 0) {
        reduce = allreduce = false;
        return false;
      }
      int64_t holders = 0, inGroup = 0;
      for (int64_t q = 0; q < P; ++q) {
        bool inG = groupKey(coords[q], axes) == groupKey(coords[r], axes);
        bool all = owners.holdsBox(coords[q], b);
        bool any = all || owners.holdsAny(coords[q], b);
        if (any && !all) {
          reduce = allreduce = false;
          return false;
        }
        if (all) {
          ++holders;
          if (!inG) {
            reduce = allreduce = false;
            return false;
          }
          ++inGroup;
          plan.rootTable[r * plan.steps + s] =
              groupIndex(coords[q], m.gridShape, axes);
        }
      }
      int64_t groupSize = 1;
      for (int64_t a : axes)
        groupSize *= m.gridShape[a];
      if (holders != 1)
        reduce = false;
      if (inGroup != groupSize)
        allreduce = false;
      return reduce || allreduce;
    });
    if (reduce || allreduce) {
      plan.kind =
          reduce ? TransferPlan::Kind::Reduce : TransferPlan::Kind::AllReduce;
      plan.axes = axes;
      if (!reduce)
        plan.rootTable.clear();
      return;
    }
    plan.rootTable.clear();
  }
  plan.kind = TransferPlan::Kind::General;
  plan.whyGeneral = "its partial results fit no reduction: not a "
                    "reduce-scatter, reduce or allreduce over grid axes "
                    "onto its owners";
}

void Enumeration::classify() {
  for (const std::vector<Box> &row : boxes)
    for (const Box &b : row)
      plan.maxElements = std::max(plan.maxElements, b.volume());
  // Local: every processor holds its whole box (and, for the output, is
  // its only holder).
  bool local = everyBox([&](int64_t r, int64_t, const Box &b) {
    return b.volume() == 0 || owners.holdsBox(coords[r], b);
  });
  if (local && (!plan.output || !owners.anyReplicated())) {
    plan.kind = TransferPlan::Kind::Local;
    return;
  }
  if (plan.output)
    classifyOutput();
  else
    classifyInput();
}
} // namespace

std::vector<TransferPlan>
mlir::dist::analyzeCommunicationByEnumeration(const ComputeModel &m) {
  std::vector<TransferPlan> plans;
  Evaluator eval(m);
  int64_t P = 1;
  for (int64_t e : m.gridShape)
    P *= e;
  SmallVector<SmallVector<int64_t>> coords;
  for (int64_t r = 0; r < P; ++r)
    coords.push_back(rowMajorCoord(r, m.gridShape));

  for (const std::string &t : m.names) {
    TransferPlan plan;
    plan.tensor = t;
    plan.output = t == m.stmt.lhs.tensor;
    plan.level = m.level.lookup(t);
    unsigned k = plan.level;
    plan.steps = m.stepsAt(k);
    // The classification looks at every (processor, step) pair; beyond
    // kMaxAnalysis of them the general exchange is used without looking.
    constexpr int64_t kMaxAnalysis = int64_t(1) << 18;
    if (!mulWithin(P, plan.steps, kMaxAnalysis)) {
      plan.kind = TransferPlan::Kind::General;
      plan.maxElements = -1;
      plan.whyGeneral = (Twine(P) + " processors x " + Twine(plan.steps) +
                         " steps are more (processor, step) pairs than the "
                         "analysis classifies (2^18)")
                            .str();
      plans.push_back(plan);
      continue;
    }

    // boxes[r][step]
    std::vector<std::vector<Box>> boxes(P, std::vector<Box>(plan.steps));
    for (int64_t r = 0; r < P; ++r) {
      llvm::StringMap<int64_t> fixed;
      for (auto [l, d] : llvm::zip(m.distLoops, m.gridDimOf))
        fixed[l->name] = coords[r][d];
      for (int64_t s = 0; s < plan.steps; ++s) {
        int64_t rest = s;
        for (int i = (int)k - 1; i >= 0; --i) {
          fixed[m.localLoops[i]->name] = rest % m.localLoops[i]->extent;
          rest /= m.localLoops[i]->extent;
        }
        boxes[r][s] = eval.box(t, fixed);
      }
    }
    Enumeration(m, coords, plan, std::move(boxes)).classify();
    plans.push_back(plan);
  }
  return plans;
}