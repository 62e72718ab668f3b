//===- LayoutSemantics.cpp - layouts in closed form and in isl --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Ownership, local indices and local extents of distributed tensors, in
// closed form and as exact isl relations. The isl relations are built as
// text (quasi-affine constraints with floor / mod, which isl turns into
// existentially quantified variables) and parsed; every name in the text is
// generated here (T, P, L, i<d>, p<a>, l<d>), so no user name can clash
// with isl's syntax.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Semantics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// Coordinates
//===----------------------------------------------------------------------===//

int64_t mlir::dist::multiToLinear(ArrayRef<int64_t> coord,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> axes) {
  int64_t linear = 0, stride = 1;
  for (int64_t a : axes) {
    linear += coord[a] * stride;
    stride *= shape[a];
  }
  return linear;
}

int64_t mlir::dist::rowMajorRank(ArrayRef<int64_t> coord,
                                 ArrayRef<int64_t> shape) {
  int64_t rank = 0;
  for (auto [c, e] : llvm::zip(coord, shape))
    rank = rank * e + c;
  return rank;
}

SmallVector<int64_t> mlir::dist::rowMajorCoord(int64_t rank,
                                               ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coord(shape.size(), 0);
  for (int d = (int)shape.size() - 1; d >= 0; --d) {
    coord[d] = rank % shape[d];
    rank /= shape[d];
  }
  return coord;
}

void mlir::dist::forEachCoordinate(
    ArrayRef<int64_t> shape, llvm::function_ref<void(ArrayRef<int64_t>)> fn) {
  for (int64_t e : shape)
    if (e <= 0)
      return;
  SmallVector<int64_t> coord(shape.size(), 0);
  while (true) {
    fn(coord);
    int d = (int)shape.size() - 1;
    for (; d >= 0; --d) {
      if (++coord[d] < shape[d])
        break;
      coord[d] = 0;
    }
    if (d < 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// DimDistribution
//===----------------------------------------------------------------------===//

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

DimDistribution DimDistribution::get(PartitionKind kind, int64_t extent,
                                     int64_t parts, int64_t blockCyclicBlock) {
  DimDistribution d;
  d.kind = kind;
  d.extent = extent;
  d.parts = kind == PartitionKind::none ? 1 : std::max<int64_t>(parts, 1);
  switch (kind) {
  case PartitionKind::none:
    d.block = extent;
    break;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    d.block = ceilDiv(extent, d.parts);
    break;
  case PartitionKind::cyclic:
    d.block = 1;
    break;
  case PartitionKind::block_cyclic:
    d.block = std::max<int64_t>(blockCyclicBlock, 1);
    break;
  }
  return d;
}

bool DimDistribution::owns(int64_t q, int64_t g) const {
  if (g < 0 || g >= extent)
    return false;
  if (kind == PartitionKind::none)
    return true;
  return ownerPart(g) == q;
}

int64_t DimDistribution::ownerPart(int64_t g) const {
  switch (kind) {
  case PartitionKind::none:
    return -1;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    return block > 0 ? g / block : 0;
  case PartitionKind::cyclic:
  case PartitionKind::block_cyclic:
    return (g / block) % parts;
  }
  return -1;
}

int64_t DimDistribution::localExtent(int64_t q) const {
  switch (kind) {
  case PartitionKind::none:
    return extent;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    return std::clamp<int64_t>(extent - q * block, 0, block);
  case PartitionKind::cyclic:
  case PartitionKind::block_cyclic: {
    int64_t cycle = mulSaturated(block, parts);
    int64_t full = extent / cycle, rem = extent % cycle;
    return full * block +
           std::clamp<int64_t>(rem - mulSaturated(q, block), 0, block);
  }
  }
  return 0;
}

int64_t DimDistribution::maxLocalExtent() const {
  // Part 0 owns the first block of every cycle: never less than any other.
  return localExtent(0);
}

int64_t DimDistribution::toLocal(int64_t q, int64_t g) const {
  switch (kind) {
  case PartitionKind::none:
    return g;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    return g - q * block;
  case PartitionKind::cyclic:
  case PartitionKind::block_cyclic:
    return (g / mulSaturated(block, parts)) * block + g % block;
  }
  return g;
}

int64_t DimDistribution::toGlobal(int64_t q, int64_t l) const {
  switch (kind) {
  case PartitionKind::none:
    return l;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    return q * block + l;
  case PartitionKind::cyclic:
  case PartitionKind::block_cyclic:
    return (l / block) * mulSaturated(block, parts) + q * block + l % block;
  }
  return l;
}

//===----------------------------------------------------------------------===//
// LevelDistribution
//===----------------------------------------------------------------------===//

LevelDistribution::LevelDistribution(ArrayRef<int64_t> shape,
                                     LevelLayoutAttr level,
                                     ArrayRef<int64_t> gridShape)
    : shape(shape), gridShape(gridShape),
      fixedAxes(level.getFixedAxes()), fixedCoords(level.getFixedCoords()) {
  for (auto [d, dim] : llvm::enumerate(level.getDims())) {
    axes.emplace_back(dim.getAxes());
    skews.emplace_back(dim.getSkew());
    int64_t n = d < shape.size() ? shape[d] : 0;
    dims.push_back(DimDistribution::get(
        dim.getKind(), n, productOfAxes(gridShape, dim.getAxes()),
        dim.getBlock()));
  }
}

int64_t LevelDistribution::getPart(unsigned d, ArrayRef<int64_t> coord) const {
  int64_t q = multiToLinear(coord, gridShape, axes[d]);
  if (skews[d].empty())
    return q;
  int64_t parts = productOfAxes(gridShape, axes[d]);
  for (int64_t s : skews[d])
    q += coord[s];
  return q % parts;
}

bool LevelDistribution::isHolder(ArrayRef<int64_t> coord) const {
  for (auto [a, c] : llvm::zip(fixedAxes, fixedCoords))
    if (coord[a] != c)
      return false;
  return true;
}

bool LevelDistribution::owns(ArrayRef<int64_t> coord,
                             ArrayRef<int64_t> index) const {
  if (!isHolder(coord))
    return false;
  for (unsigned d = 0; d < dims.size(); ++d)
    if (!dims[d].owns(getPart(d, coord), index[d]))
      return false;
  return true;
}

SmallVector<int64_t>
LevelDistribution::getLocalExtents(ArrayRef<int64_t> coord) const {
  SmallVector<int64_t> extents(dims.size(), 0);
  if (!isHolder(coord))
    return extents;
  for (unsigned d = 0; d < dims.size(); ++d)
    extents[d] = dims[d].localExtent(getPart(d, coord));
  return extents;
}

SmallVector<int64_t> LevelDistribution::getMaxLocalExtents() const {
  SmallVector<int64_t> extents;
  for (const DimDistribution &d : dims)
    extents.push_back(d.maxLocalExtent());
  return extents;
}

std::optional<SmallVector<int64_t>>
LevelDistribution::toLocal(ArrayRef<int64_t> coord,
                           ArrayRef<int64_t> index) const {
  if (!owns(coord, index))
    return std::nullopt;
  SmallVector<int64_t> local;
  for (unsigned d = 0; d < dims.size(); ++d)
    local.push_back(dims[d].toLocal(getPart(d, coord), index[d]));
  return local;
}

SmallVector<int64_t>
LevelDistribution::toGlobal(ArrayRef<int64_t> coord,
                            ArrayRef<int64_t> local) const {
  SmallVector<int64_t> global;
  for (unsigned d = 0; d < dims.size(); ++d)
    global.push_back(dims[d].toGlobal(getPart(d, coord), local[d]));
  return global;
}

//===----------------------------------------------------------------------===//
// LayoutSemantics: construction and closed form
//===----------------------------------------------------------------------===//

FailureOr<LayoutSemantics>
LayoutSemantics::get(ArrayRef<int64_t> shape, LayoutAttr layout,
                     ArrayRef<SmallVector<int64_t>> gridLevels,
                     EmitErrorFn emitError) {
  if (!layout)
    return emitError() << "no layout to analyse";
  if (layout.getLevels().size() != gridLevels.size())
    return emitError() << "layout has " << layout.getLevels().size()
                       << " level(s) but its machine has "
                       << gridLevels.size();
  if (layout.getRank() != shape.size())
    return emitError() << "layout describes " << layout.getRank()
                       << " tensor dimension(s) but the tensor has rank "
                       << shape.size();
  for (auto [d, e] : llvm::enumerate(shape))
    if (e < 0 || ShapedType::isDynamic(e))
      return emitError() << "tensor dimension " << d << " has extent " << e
                         << "; the semantics needs static extents";
  int64_t processors = 1;
  for (auto [l, grid] : llvm::enumerate(gridLevels)) {
    if (grid.empty())
      return emitError() << "grid level " << l << " has no dimensions";
    for (int64_t e : grid) {
      if (e < 1)
        return emitError() << "grid level " << l << " has extent " << e;
      processors *= e;
      if (processors > (int64_t(1) << 40))
        return emitError() << "the machine has more than 2^40 processors";
    }
    LevelLayoutAttr level = layout.getLevels()[l];
    int64_t rank = grid.size();
    for (auto [d, dim] : llvm::enumerate(level.getDims()))
      for (int64_t a : dim.getAxes())
        if (a < 0 || a >= rank)
          return emitError() << "level " << l << ": tensor dimension " << d
                             << " names mesh mode " << a
                             << ", but the grid level has rank " << rank;
    for (auto [d, dim] : llvm::enumerate(level.getDims()))
      for (int64_t a : dim.getSkew())
        if (a < 0 || a >= rank)
          return emitError() << "level " << l << ": tensor dimension " << d
                             << " is skewed by mesh mode " << a
                             << ", but the grid level has rank " << rank;
    for (auto [a, c] :
         llvm::zip(level.getFixedAxes(), level.getFixedCoords())) {
      if (a < 0 || a >= rank)
        return emitError() << "level " << l << ": fixed mesh mode " << a
                           << " is out of range for a grid of rank " << rank;
      if (c < 0 || c >= grid[a])
        return emitError() << "level " << l << ": mesh mode " << a
                           << " is fixed to coordinate " << c
                           << ", outside its extent " << grid[a];
    }
  }
  LayoutSemantics sem;
  sem.shape.assign(shape.begin(), shape.end());
  sem.layout = layout;
  for (const SmallVector<int64_t> &grid : gridLevels) {
    sem.levelGrids.push_back(grid);
    llvm::append_range(sem.gridShape, grid);
  }
  sem.outermost.emplace(sem.shape, layout.getLevels()[0], sem.levelGrids[0]);
  return sem;
}

FailureOr<LayoutSemantics> LayoutSemantics::get(DistTensorType type,
                                                GridOp grid,
                                                EmitErrorFn emitError) {
  if (!grid)
    return emitError() << "layout names '" << type.getLayout().getGrid()
                       << "', which is not a dist.grid in scope";
  SmallVector<SmallVector<int64_t>> levels;
  for (unsigned l = 0; l < grid.getNumLevels(); ++l)
    levels.emplace_back(grid.getLevel(l).getShape());
  return get(type.getShape(), type.getLayout(), levels, emitError);
}

FailureOr<LayoutSemantics> LayoutSemantics::get(DistTensorType type,
                                                Operation *user,
                                                EmitErrorFn emitError) {
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      user, type.getLayout().getGrid());
  return get(type, grid, emitError);
}

int64_t LayoutSemantics::getNumProcessors() const {
  int64_t n = 1;
  for (int64_t e : gridShape)
    n *= e;
  return n;
}

unsigned LayoutSemantics::getLevelOffset(unsigned level) const {
  unsigned offset = 0;
  for (unsigned l = 0; l < level; ++l)
    offset += levelGrids[l].size();
  return offset;
}

LevelDistribution LayoutSemantics::getLevel(unsigned level,
                                            ArrayRef<int64_t> coord) const {
  if (level == 0)
    return *outermost;
  SmallVector<int64_t> levelShape = shape;
  for (unsigned l = 0; l < level; ++l) {
    std::optional<LevelDistribution> inner;
    const LevelDistribution &dist =
        l == 0 ? *outermost
               : inner.emplace(levelShape, layout.getLevels()[l], levelGrids[l]);
    levelShape = dist.getLocalExtents(
        coord.slice(getLevelOffset(l), levelGrids[l].size()));
  }
  return LevelDistribution(levelShape, layout.getLevels()[level],
                           levelGrids[level]);
}

bool LayoutSemantics::isHolder(ArrayRef<int64_t> coord) const {
  for (unsigned l = 0; l < getNumLevels(); ++l)
    if (!getLevel(l, coord).isHolder(
            coord.slice(getLevelOffset(l), levelGrids[l].size())))
      return false;
  return true;
}

std::optional<SmallVector<int64_t>>
LayoutSemantics::toLocal(ArrayRef<int64_t> coord,
                         ArrayRef<int64_t> index) const {
  SmallVector<int64_t> levelShape = shape;
  SmallVector<int64_t> current(index.begin(), index.end());
  for (unsigned l = 0; l < getNumLevels(); ++l) {
    std::optional<LevelDistribution> inner;
    const LevelDistribution &dist =
        l == 0 ? *outermost
               : inner.emplace(levelShape, layout.getLevels()[l], levelGrids[l]);
    ArrayRef<int64_t> c = coord.slice(getLevelOffset(l), levelGrids[l].size());
    std::optional<SmallVector<int64_t>> local = dist.toLocal(c, current);
    if (!local)
      return std::nullopt;
    current = *local;
    levelShape = dist.getLocalExtents(c);
  }
  return current;
}

bool LayoutSemantics::owns(ArrayRef<int64_t> coord,
                           ArrayRef<int64_t> index) const {
  return toLocal(coord, index).has_value();
}

SmallVector<int64_t>
LayoutSemantics::getLocalExtents(ArrayRef<int64_t> coord) const {
  SmallVector<int64_t> levelShape = shape;
  for (unsigned l = 0; l < getNumLevels(); ++l) {
    std::optional<LevelDistribution> inner;
    const LevelDistribution &dist =
        l == 0 ? *outermost
               : inner.emplace(levelShape, layout.getLevels()[l], levelGrids[l]);
    levelShape = dist.getLocalExtents(
        coord.slice(getLevelOffset(l), levelGrids[l].size()));
  }
  return levelShape;
}

SmallVector<int64_t>
LayoutSemantics::toGlobal(ArrayRef<int64_t> coord,
                          ArrayRef<int64_t> local) const {
  SmallVector<LevelDistribution, 2> dists;
  for (unsigned l = 0; l < getNumLevels(); ++l)
    dists.push_back(getLevel(l, coord));
  SmallVector<int64_t> current(local.begin(), local.end());
  for (int l = (int)getNumLevels() - 1; l >= 0; --l)
    current = dists[l].toGlobal(
        coord.slice(getLevelOffset(l), levelGrids[l].size()), current);
  return current;
}

void LayoutSemantics::forEachProcessor(
    llvm::function_ref<void(ArrayRef<int64_t>)> fn) const {
  forEachCoordinate(gridShape, fn);
}

SmallVector<SmallVector<int64_t>>
LayoutSemantics::getOwners(ArrayRef<int64_t> index) const {
  SmallVector<SmallVector<int64_t>> owners;
  forEachProcessor([&](ArrayRef<int64_t> coord) {
    if (owns(coord, index))
      owners.emplace_back(coord);
  });
  return owners;
}

SmallVector<int64_t> LayoutSemantics::getMaxLocalExtents() const {
  unsigned last = getNumLevels() - 1;
  if (last == 0)
    return LevelDistribution(shape, layout.getLevels()[0], levelGrids[0])
        .getMaxLocalExtents();
  // The innermost tile depends on the outer coordinates: take the maximum
  // over every outer processor.
  SmallVector<int64_t> outerShape(gridShape.begin(),
                                  gridShape.begin() + getLevelOffset(last));
  SmallVector<int64_t> result(shape.size(), 0);
  forEachCoordinate(outerShape, [&](ArrayRef<int64_t> outer) {
    SmallVector<int64_t> coord(outer.begin(), outer.end());
    coord.resize(gridShape.size(), 0);
    SmallVector<int64_t> m = getLevel(last, coord).getMaxLocalExtents();
    for (auto [r, e] : llvm::zip(result, m))
      r = std::max(r, e);
  });
  return result;
}

//===----------------------------------------------------------------------===//
// LayoutSemantics: isl text
//===----------------------------------------------------------------------===//

namespace {
/// An affine expression over processor variables: sum coeff * var + constant.
struct Linear {
  SmallVector<std::pair<int64_t, std::string>> terms;
  int64_t constant = 0;

  Linear scaled(int64_t k) const {
    Linear r;
    for (const auto &[c, v] : terms)
      r.terms.push_back({c * k, v});
    r.constant = constant * k;
    return r;
  }
  /// Appends the terms as " + 3*p0 - 2*p1 + 5" (signed, never empty).
  void appendSigned(std::string &out) const {
    for (const auto &[c, v] : terms) {
      if (c == 0)
        continue;
      out += c < 0 ? " - " : " + ";
      int64_t a = c < 0 ? -c : c;
      if (a != 1)
        out += std::to_string(a) + "*";
      out += v;
    }
    if (constant != 0)
      out += (constant < 0 ? " - " : " + ") +
             std::to_string(constant < 0 ? -constant : constant);
  }
  std::string str() const {
    std::string s = "0";
    appendSigned(s);
    return s;
  }
};

std::string paren(const std::string &s) { return "(" + s + ")"; }

/// `e` (an index expression) shifted by `lin`: "(e) + lin".
std::string plus(const std::string &e, const Linear &lin) {
  std::string s = paren(e);
  lin.appendSigned(s);
  return s;
}

/// Constraints for tensor dimension `dim` with index expression `e` owned
/// by part `q`; appends them to `out`. Returns the local index expression.
std::string dimText(const DimDistribution &dim, const std::string &e,
                    const Linear &q, SmallVectorImpl<std::string> &out) {
  const int64_t b = dim.block, Q = dim.parts;
  switch (dim.kind) {
  case PartitionKind::none:
    return e;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked: {
    if (b <= 0)
      return e; // empty dimension: the bounds already exclude every index
    Linear lo = q.scaled(b), hi = q.scaled(b);
    hi.constant += b - 1;
    out.push_back(lo.str() + " <= " + paren(e) + " <= " + hi.str());
    return plus(e, q.scaled(-b));
  }
  case PartitionKind::cyclic:
    if (Q == 1)
      return e;
    out.push_back(paren(e) + " mod " + std::to_string(Q) + " = " + q.str());
    return "floor(" + paren(e) + "/" + std::to_string(Q) + ")";
  case PartitionKind::block_cyclic: {
    if (Q > 1)
      out.push_back("floor(" + paren(e) + "/" + std::to_string(b) + ") mod " +
                    std::to_string(Q) + " = " + q.str());
    if (b == 1)
      return Q == 1 ? e : "floor(" + paren(e) + "/" + std::to_string(Q) + ")";
    if (Q == 1)
      return e;
    return std::to_string(b) + "*floor(" + paren(e) + "/" +
           std::to_string(mulSaturated(b, Q)) + ") + " + paren(e) + " mod " +
           std::to_string(b);
  }
  }
  return e;
}

std::string joinAnd(ArrayRef<std::string> parts) {
  std::string s;
  for (auto [i, p] : llvm::enumerate(parts)) {
    if (i)
      s += " and ";
    s += p;
  }
  return s;
}

std::string tupleText(char name, char var, size_t n) {
  std::string s(1, name);
  s += "[";
  for (size_t i = 0; i < n; ++i) {
    if (i)
      s += ", ";
    s += var + std::to_string(i);
  }
  return s + "]";
}
} // namespace

std::string LayoutSemantics::buildText(bool withLocal) const {
  const size_t rank = shape.size(), procRank = gridShape.size();
  const unsigned last = getNumLevels() - 1;
  std::string space = tupleText('T', 'i', rank) + " -> " +
                      tupleText('P', 'p', procRank);
  if (withLocal)
    space = "[" + space + "] -> " + tupleText('L', 'l', rank);

  SmallVector<std::string> bounds;
  for (size_t d = 0; d < rank; ++d)
    bounds.push_back("0 <= i" + std::to_string(d) + " < " +
                     std::to_string(shape[d]));
  for (size_t a = 0; a < procRank; ++a)
    bounds.push_back("0 <= p" + std::to_string(a) + " < " +
                     std::to_string(gridShape[a]));

  // One disjunct per processor of the outer levels (levels 0 .. last-1,
  // whose tile extents fix the tensor of the next level); the innermost
  // level stays symbolic in its processor coordinates.
  SmallVector<int64_t> outerShape(gridShape.begin(),
                                  gridShape.begin() + getLevelOffset(last));
  SmallVector<std::string> disjuncts;
  forEachCoordinate(outerShape, [&](ArrayRef<int64_t> outer) {
    SmallVector<std::string> parts;
    SmallVector<int64_t> levelShape = shape;
    SmallVector<std::string> exprs;
    for (size_t d = 0; d < rank; ++d)
      exprs.push_back("i" + std::to_string(d));
    for (auto [a, c] : llvm::enumerate(outer))
      parts.push_back("p" + std::to_string(a) + " = " + std::to_string(c));
    for (unsigned l = 0; l < last; ++l) {
      LevelDistribution dist(levelShape, layout.getLevels()[l],
                             levelGrids[l]);
      ArrayRef<int64_t> c = outer.slice(getLevelOffset(l), levelGrids[l].size());
      if (!dist.isHolder(c))
        return; // this outer processor holds nothing
      for (size_t d = 0; d < rank; ++d) {
        Linear q;
        q.constant = dist.getPart(d, c);
        exprs[d] = dimText(dist.getDim(d), exprs[d], q, parts);
      }
      levelShape = dist.getLocalExtents(c);
    }
    LevelDistribution dist(levelShape, layout.getLevels()[last],
                           levelGrids[last]);
    unsigned offset = getLevelOffset(last);
    for (auto [a, c] : llvm::zip(dist.getFixedAxes(), dist.getFixedCoords()))
      parts.push_back("p" + std::to_string(offset + a) + " = " +
                      std::to_string(c));
    for (size_t d = 0; d < rank; ++d) {
      Linear q;
      int64_t stride = 1;
      for (int64_t a : dist.getAxes(d)) {
        q.terms.push_back({stride, "p" + std::to_string(offset + a)});
        stride *= levelGrids[last][a];
      }
      if (!dist.getSkews(d).empty()) {
        // Skewed owners: q = (linear + sum of skew coordinates) mod parts,
        // a quasi-affine term isl represents with an existential.
        Linear skewed = q;
        for (int64_t s : dist.getSkews(d))
          skewed.terms.push_back({1, "p" + std::to_string(offset + s)});
        q = Linear();
        q.terms.push_back(
            {1, paren(skewed.str()) + " mod " + std::to_string(stride)});
      }
      exprs[d] = dimText(dist.getDim(d), exprs[d], q, parts);
    }
    if (withLocal)
      for (size_t d = 0; d < rank; ++d)
        parts.push_back("l" + std::to_string(d) + " = " + exprs[d]);
    disjuncts.push_back(parts.empty() ? "0 = 0" : joinAnd(parts));
  });

  std::string body = joinAnd(bounds);
  std::string cases;
  if (disjuncts.empty()) {
    cases = "1 = 0";
  } else if (disjuncts.size() == 1) {
    cases = disjuncts.front();
  } else {
    for (auto [k, d] : llvm::enumerate(disjuncts)) {
      if (k)
        cases += " or ";
      cases += paren(d);
    }
    cases = paren(cases);
  }
  if (!body.empty())
    body += " and ";
  body += cases;
  return "{ " + space + " : " + body + " }";
}

std::string LayoutSemantics::getOwnershipText() const {
  return buildText(/*withLocal=*/false);
}

std::string LayoutSemantics::getLocalIndexText() const {
  return buildText(/*withLocal=*/true);
}

template <typename T>
static FailureOr<IslPtr<T>> checked(IslContext &ctx, IslPtr<T> obj,
                                    EmitErrorFn emitError, StringRef what) {
  if (obj)
    return std::move(obj);
  emitError() << "cannot build " << what << ": " << ctx.takeErrorMessage();
  return failure();
}

/// Fails unless the outer levels are small enough to enumerate.
static LogicalResult checkOuterSize(const LayoutSemantics &sem,
                                    EmitErrorFn emitError) {
  int64_t outer = 1;
  unsigned last = sem.getNumLevels() - 1;
  for (unsigned l = 0; l < last; ++l)
    for (int64_t e : sem.getLevelGridShape(l))
      outer *= e;
  if (outer > kMaxOuterProcessors)
    return emitError() << "the outer levels of the machine have " << outer
                       << " processors; the exact relation of a "
                          "hierarchical layout is built for at most "
                       << kMaxOuterProcessors;
  return success();
}

FailureOr<IslMap> LayoutSemantics::getOwnershipMap(IslContext &ctx,
                                                   EmitErrorFn emitError,
                                                   StringRef tensorTuple) const {
  if (failed(checkOuterSize(*this, emitError)))
    return failure();
  IslMap map = islReadMap(ctx, getOwnershipText());
  if (map && tensorTuple != "T")
    map.reset(isl_map_set_tuple_name(map.release(), isl_dim_in,
                                     tensorTuple.str().c_str()));
  return checked(ctx, std::move(map), emitError, "the ownership relation");
}

FailureOr<IslMap> LayoutSemantics::getLocalIndexMap(IslContext &ctx,
                                                    EmitErrorFn emitError,
                                                    StringRef tensorTuple) const {
  if (failed(checkOuterSize(*this, emitError)))
    return failure();
  IslMap map = islReadMap(ctx, getLocalIndexText());
  if (map && tensorTuple != "T") {
    // { [T -> P] -> L } -> { T -> [P -> L] }, rename, and back.
    isl_map *m = isl_map_curry(map.release());
    m = isl_map_set_tuple_name(m, isl_dim_in, tensorTuple.str().c_str());
    map.reset(isl_map_uncurry(m));
  }
  return checked(ctx, std::move(map), emitError, "the local-index relation");
}

FailureOr<IslSet> LayoutSemantics::getOwnedSet(IslContext &ctx,
                                               ArrayRef<int64_t> coord,
                                               EmitErrorFn emitError,
                                               StringRef tensorTuple) const {
  if (coord.size() != gridShape.size())
    return emitError() << "processor coordinate has " << coord.size()
                       << " entries, the machine " << gridShape.size();
  FailureOr<IslMap> own = getOwnershipMap(ctx, emitError, tensorTuple);
  if (failed(own))
    return failure();
  isl_map *m = own->release();
  for (auto [a, c] : llvm::enumerate(coord))
    m = isl_map_fix_si(m, isl_dim_out, a, c);
  isl_set *set = isl_set_coalesce(isl_set_detect_equalities(isl_map_domain(m)));
  return checked(ctx, IslSet(set), emitError, "an owned set");
}

FailureOr<IslSet> LayoutSemantics::getOwnerSet(IslContext &ctx,
                                               ArrayRef<int64_t> index,
                                               EmitErrorFn emitError) const {
  if (index.size() != shape.size())
    return emitError() << "index has " << index.size()
                       << " entries, the tensor rank " << shape.size();
  FailureOr<IslMap> own = getOwnershipMap(ctx, emitError);
  if (failed(own))
    return failure();
  isl_map *m = own->release();
  for (auto [d, g] : llvm::enumerate(index))
    m = isl_map_fix_si(m, isl_dim_in, d, g);
  isl_set *set = isl_set_coalesce(isl_set_detect_equalities(isl_map_range(m)));
  return checked(ctx, IslSet(set), emitError, "an owner set");
}

FailureOr<IslSet> LayoutSemantics::getLocalBox(IslContext &ctx,
                                               ArrayRef<int64_t> coord,
                                               EmitErrorFn emitError) const {
  SmallVector<int64_t> extents = getLocalExtents(coord);
  SmallVector<std::string> bounds;
  for (auto [d, e] : llvm::enumerate(extents))
    bounds.push_back("0 <= l" + std::to_string(d) + " < " + std::to_string(e));
  std::string text = "{ " + tupleText('L', 'l', extents.size());
  if (!bounds.empty())
    text += " : " + joinAnd(bounds);
  text += " }";
  return checked(ctx, islReadSet(ctx, text), emitError, "a local box");
}

FailureOr<IslSet> LayoutSemantics::getTensorBox(IslContext &ctx,
                                                EmitErrorFn emitError,
                                                StringRef tensorTuple) const {
  SmallVector<std::string> bounds;
  for (auto [d, e] : llvm::enumerate(shape))
    bounds.push_back("0 <= i" + std::to_string(d) + " < " + std::to_string(e));
  std::string text = "{ " + tupleText('T', 'i', shape.size());
  if (!bounds.empty())
    text += " : " + joinAnd(bounds);
  text += " }";
  IslSet set = islReadSet(ctx, text);
  if (set && tensorTuple != "T")
    set.reset(isl_set_set_tuple_name(set.release(), tensorTuple.str().c_str()));
  return checked(ctx, std::move(set), emitError, "a tensor box");
}
