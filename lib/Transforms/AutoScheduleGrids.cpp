//===- AutoScheduleGrids.cpp - other grids for dist-auto-schedule ---------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "AutoScheduleGrids.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dist;

SmallVector<SmallVector<int64_t>>
mlir::dist::alternativeGridShapes(ArrayRef<int64_t> current) {
  int64_t p = 1;
  for (int64_t e : current)
    p *= e;
  SmallVector<SmallVector<int64_t>> out;
  if (p < 2)
    return out;
  SmallVector<SmallVector<int64_t>> two, three;
  // Divisors up to sqrt(p) and cbrt(p): a few dozen loop trips for any P
  // the runtime accepts (2^20 processes).
  for (int64_t a = 2; a * a <= p; ++a) {
    if (p % a)
      continue;
    two.push_back({a, p / a});
    int64_t q = p / a;
    for (int64_t b = a; b * b <= q; ++b)
      if (q % b == 0)
        three.push_back({a, b, q / b});
  }
  // Most nearly square (cubic) first: the smallest largest-over-smallest
  // extent, then the smallest largest extent.
  auto balance = [](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    double ra = double(a.back()) / double(a.front());
    double rb = double(b.back()) / double(b.front());
    return ra != rb ? ra < rb : a.back() < b.back();
  };
  llvm::stable_sort(two, balance);
  llvm::stable_sort(three, balance);
  // The grid the tensors are on, without its extents of 1 ([4, 1] is the
  // same arrangement of processes as [4]).
  SmallVector<int64_t> own;
  for (int64_t e : current)
    if (e != 1)
      own.push_back(e);
  auto keep = [&](SmallVector<int64_t> s) {
    if (s != own)
      out.push_back(std::move(s));
  };
  keep({p});
  for (size_t i = 0; i < two.size() && i < 2; ++i)
    keep(two[i]);
  for (size_t i = 0; i < three.size() && i < 2; ++i)
    keep(three[i]);
  return out;
}

LayoutAttr mlir::dist::distributionLayout(MLIRContext *ctx,
                                          FlatSymbolRefAttr grid,
                                          unsigned rank,
                                          ArrayRef<std::string> indices,
                                          ArrayRef<std::string> distVars) {
  SmallVector<int64_t> axisOf(indices.size(), -1);
  SmallVector<bool> usedAxis(rank, false);
  for (auto [d, v] : llvm::enumerate(indices)) {
    const auto *it = llvm::find(distVars, v);
    if (it == distVars.end())
      continue;
    unsigned axis = unsigned(it - distVars.begin());
    if (axis >= rank || usedAxis[axis])
      continue;
    axisOf[d] = axis;
    usedAxis[axis] = true;
  }
  unsigned next = 0;
  for (int64_t &a : axisOf) {
    if (a >= 0)
      continue;
    while (next < rank && usedAxis[next])
      ++next;
    if (next == rank)
      break;
    a = next;
    usedAxis[next] = true;
  }
  SmallVector<DimDistAttr> dims;
  for (int64_t a : axisOf)
    dims.push_back(a < 0 ? DimDistAttr::get(ctx, {}, PartitionKind::none, 0)
                         : DimDistAttr::get(ctx, {a}, PartitionKind::blocked,
                                            0));
  auto level = LevelLayoutAttr::get(ctx, dims, {}, {});
  return LayoutAttr::get(ctx, grid, ArrayRef<LevelLayoutAttr>{level});
}

GridOp mlir::dist::gridOfShape(ModuleOp module, ArrayRef<int64_t> shape,
                               ProcessorKind kind, Location loc,
                               bool &created) {
  created = false;
  for (GridOp g : module.getOps<GridOp>())
    if (g.getNumLevels() == 1 && g.getLevel(0).getKind() == kind &&
        g.getShape() == shape)
      return g;
  MLIRContext *ctx = module.getContext();
  std::string name = "auto_grid";
  for (auto [i, e] : llvm::enumerate(shape))
    name += (i ? "x" : "_") + std::to_string(e);
  while (module.lookupSymbol(name))
    name += "_";
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto level = GridLevelAttr::get(ctx, shape, kind);
  created = true;
  return GridOp::create(b, loc, StringAttr::get(ctx, name),
                        ArrayAttr::get(ctx, {level}));
}
