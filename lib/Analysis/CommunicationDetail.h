//===- CommunicationDetail.h - footprints and owners, concretely -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Private to lib/Analysis: concrete boxes (variableRange on integers) and a
// tensor's owners per dimension, shared by the enumerating classifier (the
// cross-check oracle) and the symbolic one (which samples a few points to
// pick candidates before proving them with isl).
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_LIB_ANALYSIS_COMMUNICATIONDETAIL_H
#define DISTTENSOR_LIB_ANALYSIS_COMMUNICATIONDETAIL_H

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/Semantics.h"
#include "DistTensor/Dialect/Dist/IR/VariableRange.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir {
namespace dist {
//===----------------------------------------------------------------------===//
// Concrete footprints
//===----------------------------------------------------------------------===//

namespace comm_detail {
struct Box {
  SmallVector<int64_t> lo, size;
  bool operator==(const Box &o) const { return lo == o.lo && size == o.size; }
  int64_t volume() const {
    int64_t v = 1;
    for (int64_t s : size)
      v *= s;
    return v;
  }
};

/// Evaluates ranges of variables with fixed loop values: the arithmetic of
/// variableRange on integers, the same that dist-materialize-spmd emits.
class Evaluator {
public:
  explicit Evaluator(const ComputeModel &m)
      : m(m), derived(derivedVariables(m.nest)) {}

  std::pair<int64_t, int64_t> range(StringRef v,
                                    const llvm::StringMap<int64_t> &fixed) {
    Integers a{fixed};
    VariableRange<Integers> r = variableRange(m.nest, derived, v, a);
    return {r.lo, r.size};
  }

  Box box(StringRef tensor, const llvm::StringMap<int64_t> &fixed) {
    Box b;
    for (const std::string &x : m.accessOf.lookup(tensor)->indices) {
      auto r = range(x, fixed);
      b.lo.push_back(r.first);
      b.size.push_back(r.second);
    }
    return b;
  }

private:
  /// variableRange's arithmetic on integers.
  struct Integers {
    using Value = int64_t;
    const llvm::StringMap<int64_t> &fixed;
    int64_t constant(int64_t c) { return c; }
    int64_t add(int64_t x, int64_t y) { return x + y; }
    int64_t sub(int64_t x, int64_t y) { return x - y; }
    int64_t mul(int64_t x, int64_t y) { return x * y; }
    int64_t min(int64_t x, int64_t y) { return std::min(x, y); }
    int64_t max(int64_t x, int64_t y) { return std::max(x, y); }
    int64_t rem(int64_t x, int64_t y) { return x % y; }
    int64_t div(int64_t x, int64_t y) { return x / y; }
    std::optional<int64_t> fixedLoop(StringRef loop) {
      auto it = fixed.find(loop);
      if (it == fixed.end())
        return std::nullopt;
      return it->second;
    }
    bool isPoint(StringRef, const VariableRange<Integers> &r) {
      return r.size == 1;
    }
    void onDerivedPoint(StringRef, int64_t, int64_t) {}
  };

  const ComputeModel &m;
  DerivedVariables derived;
};

/// Ownership facts of a one-level layout, per dimension.
class Owners {
public:
  Owners(const ComputeModel &m, StringRef tensor)
      : dist(m.types.lookup(tensor).getShape(),
             m.types.lookup(tensor).getLayout().getOuter(), m.gridShape) {
    replicated.assign(m.gridShape.size(), true);
    for (unsigned d = 0; d < dist.getRank(); ++d)
      for (int64_t a : dist.getAxes(d))
        replicated[a] = false;
    for (int64_t a : dist.getFixedAxes())
      replicated[a] = false;
  }

  /// The single owner part of dimension d over [lo, lo + size), if any.
  /// Constant time: whole blocks of the partition share an owner.
  std::optional<int64_t> singlePart(unsigned d, int64_t lo,
                                    int64_t size) const {
    const DimDistribution &dd = dist.getDim(d);
    if (dd.kind == PartitionKind::none || size == 0)
      return std::nullopt;
    int64_t hi = lo + size - 1;
    int64_t q = dd.ownerPart(lo);
    if (dd.parts == 1 || size == 1)
      return q;
    if (dd.kind == PartitionKind::blocked)
      // Owners never decrease along a blocked dimension.
      return dd.ownerPart(hi) == q ? std::optional<int64_t>(q) : std::nullopt;
    int64_t b = dd.kind == PartitionKind::cyclic ? 1 : dd.block;
    if (b <= 0 || lo / b != hi / b)
      return std::nullopt; // spans blocks of different owners
    return q;
  }

  /// Whether processor part q of dimension d owns any index of
  /// [lo, lo + size). At most `parts` + 1 blocks are looked at.
  bool partTouches(unsigned d, int64_t q, int64_t lo, int64_t size) const {
    const DimDistribution &dd = dist.getDim(d);
    if (size == 0)
      return false;
    if (dd.kind == PartitionKind::none || dd.parts == 1)
      return true;
    int64_t hi = lo + size - 1;
    if (dd.kind == PartitionKind::blocked)
      return dd.ownerPart(lo) <= q && q <= dd.ownerPart(hi);
    int64_t b = dd.kind == PartitionKind::cyclic ? 1 : dd.block;
    if (b <= 0)
      return false;
    if (hi / b - lo / b + 1 >= dd.parts)
      return true;
    for (int64_t blk = lo / b; blk <= hi / b; ++blk)
      if (blk % dd.parts == q)
        return true;
    return false;
  }

  /// Whether processor `c` holds every element of the box.
  bool holdsBox(ArrayRef<int64_t> c, const Box &b) const {
    if (!dist.isHolder(c))
      return false;
    for (unsigned d = 0; d < dist.getRank(); ++d) {
      if (dist.getDim(d).kind == PartitionKind::none || b.size[d] == 0)
        continue;
      std::optional<int64_t> q = singlePart(d, b.lo[d], b.size[d]);
      if (!q || *q != dist.getPart(d, c))
        return false;
    }
    return true;
  }

  /// Whether processor `c` holds any element of the box.
  bool holdsAny(ArrayRef<int64_t> c, const Box &b) const {
    if (!dist.isHolder(c))
      return false;
    for (unsigned d = 0; d < dist.getRank(); ++d)
      if (!partTouches(d, dist.getPart(d, c), b.lo[d], b.size[d]))
        return false;
    return true;
  }

  /// The processor that provides the box to requester `r` when one
  /// processor holds all of it: owner digits on partition axes, fixed
  /// coordinates, r's coordinates on replicated axes.
  std::optional<SmallVector<int64_t>> provider(ArrayRef<int64_t> r,
                                               const Box &b) const {
    SmallVector<int64_t> c(r.begin(), r.end());
    for (auto [a, v] : llvm::zip(dist.getFixedAxes(), dist.getFixedCoords()))
      c[a] = v;
    // Unskewed dimensions first: a skewed dimension's digits depend on the
    // coordinates of its skew modes, which are replicated, fixed or belong
    // to unskewed dimensions (the layout verifier rejects chains).
    for (bool skewedPass : {false, true}) {
      for (unsigned d = 0; d < dist.getRank(); ++d) {
        if (dist.getDim(d).kind == PartitionKind::none ||
            dist.getSkews(d).empty() == skewedPass)
          continue;
        if (b.size[d] == 0)
          return std::nullopt;
        std::optional<int64_t> q = singlePart(d, b.lo[d], b.size[d]);
        if (!q)
          return std::nullopt;
        int64_t rest = *q, parts = dist.getDim(d).parts;
        for (int64_t s : dist.getSkews(d))
          rest -= c[s] % parts;
        rest = ((rest % parts) + parts) % parts;
        for (int64_t a : dist.getAxes(d)) {
          c[a] = rest % dist.getGridShape()[a];
          rest /= dist.getGridShape()[a];
        }
      }
    }
    return c;
  }

  bool anyReplicated() const { return llvm::is_contained(replicated, true); }
  ArrayRef<bool> replicatedAxes() const { return replicated; }
  const LevelDistribution &level() const { return dist; }

private:
  LevelDistribution dist;
  SmallVector<bool> replicated;
};

/// Index of coordinates `c` in its group over `axes` (row-major over the
/// axes, last fastest), as distrt numbers group members.
inline int64_t groupIndex(ArrayRef<int64_t> c, ArrayRef<int64_t> gridShape,
                   ArrayRef<int64_t> axes) {
  int64_t idx = 0;
  for (int64_t a : axes)
    idx = idx * gridShape[a] + c[a];
  return idx;
}

/// The key of a processor's group: its coordinates outside `axes`.
inline SmallVector<int64_t> groupKey(ArrayRef<int64_t> c, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> k(c.begin(), c.end());
  for (int64_t a : axes)
    k[a] = -1;
  return k;
}
} // namespace comm_detail

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_LIB_ANALYSIS_COMMUNICATIONDETAIL_H
