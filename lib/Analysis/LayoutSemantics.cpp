//===- LayoutSemantics.cpp - layouts in closed form -------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Ownership, local indices and local extents of distributed tensors, in
// closed form. The same layouts as exact isl relations are built in
// LayoutSemanticsIsl.cpp.
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
