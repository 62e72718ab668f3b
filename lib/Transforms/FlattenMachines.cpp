//===- FlattenMachines.cpp - hierarchical machines as one-level grids -----===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-flatten-machines: every machine of nodes (`dist.grid @h node[2, 2],
// cpu[2]`) becomes the one-level grid over all its axes, outermost level's
// axes first (`[2, 2, 2]`), with the number of leading axes that index nodes
// recorded as `dist.node_axes`; every layout on it becomes the one-level
// layout that gives every process exactly the elements, at exactly the local
// positions, that the nested layout gives it (LayoutSemantics is the spec).
// Whether a blocked-over-blocked dimension flattens exactly is decided from
// the extent and the level sizes alone, never by enumerating processes.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTFLATTENMACHINES
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

/// A hierarchical machine about to be flattened.
struct MachineLevels {
  /// Extents of each level, outermost first.
  SmallVector<SmallVector<int64_t>> levels;
  /// Index of each level's first axis in the flattened grid.
  SmallVector<int64_t> offsets;
  /// The innermost level's processors (cpu or gpu), the flattened grid's.
  ProcessorKind kind = ProcessorKind::cpu;
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t modesSize(ArrayRef<int64_t> modes, ArrayRef<int64_t> shape) {
  int64_t q = 1;
  for (int64_t m : modes)
    q *= shape[m];
  return q;
}

/// Whether n indices blocked over N parts, each part blocked again over P
/// parts, give every one of the N * P parts (outer index major) the same
/// indices at the same local positions as n blocked over N * P parts.
/// Derivation (docs/dialect.md): with B0 = ceil(n/N), B = ceil(n/(N*P)) and
/// K = ceil(n/B0) non-empty outer parts, the first inner part of outer part
/// k starts at k * B0 nested and at k * P * B flat, so K >= 2 needs
/// B0 == P * B; the full outer parts then split into blocks of
/// ceil(B0/P) == B, and the last non-empty one (m = n - (K-1) * B0
/// indices) splits the same way iff ceil(m/P) == min(B, m). Empty outer
/// parts are empty in both.
bool blockedNestsExactly(int64_t n, int64_t outer, int64_t inner) {
  if (n == 0)
    return true;
  int64_t b0 = ceilDiv(n, outer), b = ceilDiv(n, outer * inner);
  int64_t k = ceilDiv(n, b0);
  if (k >= 2 && b0 != inner * b)
    return false;
  int64_t last = n - (k - 1) * b0;
  return ceilDiv(last, inner) == std::min(b, last);
}

/// Flattens one tensor dimension's per-level distributions; fills `why`
/// and fails when no one-level distribution is exactly equal.
FailureOr<DimDistAttr> flattenDim(MLIRContext *ctx, int64_t n, unsigned d,
                                  ArrayRef<DimDistAttr> perLevel,
                                  const MachineLevels &m, std::string &why) {
  llvm::raw_string_ostream os(why);
  SmallVector<unsigned> parted;
  for (auto [l, dim] : llvm::enumerate(perLevel))
    if (dim.getKind() != PartitionKind::none)
      parted.push_back(l);
  auto offset = [&](ArrayRef<int64_t> modes, unsigned l) {
    SmallVector<int64_t> out;
    for (int64_t a : modes)
      out.push_back(a + m.offsets[l]);
    return out;
  };
  if (parted.empty())
    return DimDistAttr::get(ctx, {}, PartitionKind::none, 0);
  if (parted.size() == 1) {
    unsigned l = parted.front();
    DimDistAttr dim = perLevel[l];
    return DimDistAttr::get(ctx, offset(dim.getAxes(), l), dim.getKind(),
                            dim.getBlock(), offset(dim.getSkew(), l));
  }
  DimDistAttr first = perLevel[parted.front()];
  for (unsigned l : parted) {
    DimDistAttr dim = perLevel[l];
    if (!dim.getSkew().empty()) {
      os << "dimension " << d << " is skewed at level " << l
         << " and partitioned at " << parted.size()
         << " levels; a skew flattens only on a dimension that one level "
            "partitions";
      return failure();
    }
    if (dim.getKind() != first.getKind() ||
        dim.getBlock() != first.getBlock()) {
      os << "dimension " << d << " is partitioned "
         << "differently at level " << parted.front() << " and level " << l
         << "; only blocked over blocked, cyclic over cyclic and "
            "block_cyclic(b) over block_cyclic(b) with one b flatten to one "
            "level (or partition the dimension at one level only)";
      return failure();
    }
  }
  SmallVector<int64_t> axes;
  if (first.getKind() != PartitionKind::blocked) {
    // Cyclic (and block-cyclic): the outer part index varies fastest.
    for (unsigned l : parted)
      llvm::append_range(axes, offset(perLevel[l].getAxes(), l));
    return DimDistAttr::get(ctx, axes, first.getKind(), first.getBlock());
  }
  // Blocked: the inner part index varies fastest. Compose outer to inner:
  // once the outer levels equal one blocked distribution over their
  // product, the next level nests in that.
  int64_t outer = 1;
  for (auto [i, l] : llvm::enumerate(parted)) {
    int64_t inner = modesSize(perLevel[l].getAxes(), m.levels[l]);
    if (i > 0 && !blockedNestsExactly(n, outer, inner)) {
      os << "dimension " << d << " (extent " << n << ") is blocked over "
         << outer << " part(s) and each part blocked again over " << inner
         << " at level " << l << ": the nested blocks (ceil(" << n << "/"
         << outer << ") = " << ceilDiv(n, outer)
         << " per part) are not the one-level blocks of ceil(" << n << "/"
         << outer * inner << ") = " << ceilDiv(n, outer * inner)
         << "; use an extent with ceil(n/" << outer << ") == " << inner
         << " * ceil(n/" << outer * inner << ") (e.g. a multiple of "
         << outer * inner
         << "), cyclic at every level, or partition the dimension at one "
            "level only";
      return failure();
    }
    outer *= inner;
  }
  for (unsigned l : llvm::reverse(parted))
    llvm::append_range(axes, offset(perLevel[l].getAxes(), l));
  return DimDistAttr::get(ctx, axes, PartitionKind::blocked, 0);
}

/// The one-level type exactly equal to `type` on machine `m`.
FailureOr<DistTensorType>
flattenType(DistTensorType type, const MachineLevels &m, std::string &why) {
  MLIRContext *ctx = type.getContext();
  LayoutAttr layout = type.getLayout();
  if (type.isSparse()) {
    why = "sparse tensors are stored on one-level machines only";
    return failure();
  }
  if (layout.getLevels().size() != m.levels.size()) {
    why = "the layout has " + std::to_string(layout.getLevels().size()) +
          " level(s) but its machine has " + std::to_string(m.levels.size());
    return failure();
  }
  SmallVector<DimDistAttr> dims;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    SmallVector<DimDistAttr> perLevel;
    for (LevelLayoutAttr level : layout.getLevels())
      perLevel.push_back(level.getDims()[d]);
    FailureOr<DimDistAttr> dim =
        flattenDim(ctx, type.getShape()[d], d, perLevel, m, why);
    if (failed(dim))
      return failure();
    dims.push_back(*dim);
  }
  SmallVector<int64_t> fixedAxes, fixedCoords;
  for (auto [l, level] : llvm::enumerate(layout.getLevels())) {
    for (int64_t a : level.getFixedAxes())
      fixedAxes.push_back(a + m.offsets[l]);
    llvm::append_range(fixedCoords, level.getFixedCoords());
  }
  auto flat = LayoutAttr::get(
      ctx, layout.getGrid(),
      {LevelLayoutAttr::get(ctx, dims, fixedAxes, fixedCoords)});
  return DistTensorType::get(ctx, type.getShape(), type.getElementType(), flat,
                             type.getEncoding());
}

struct FlattenMachines : dist::impl::DistFlattenMachinesBase<FlattenMachines> {
  void runOnOperation() override;

private:
  /// Checks a machine's levels; fills `m` for a machine of nodes.
  LogicalResult classify(GridOp grid, MachineLevels &m);
};

LogicalResult FlattenMachines::classify(GridOp grid, MachineLevels &m) {
  unsigned n = grid.getNumLevels();
  int64_t offset = 0;
  for (unsigned l = 0; l < n; ++l) {
    GridLevelAttr level = grid.getLevel(l);
    bool inner = l + 1 == n;
    bool fits = inner ? (level.getKind() == ProcessorKind::cpu ||
                         level.getKind() == ProcessorKind::gpu)
                      : level.getKind() == ProcessorKind::node;
    if (!fits)
      return grid.emitError("grid '")
             << grid.getSymName() << "': level " << l << " is made of "
             << stringifyProcessorKind(level.getKind()) << " but "
             << "dist-flatten-machines lowers machines of nodes whose "
                "innermost level is cpu or gpu (node[..], ..., cpu[..] or "
                "gpu[..]); write level "
             << l << " as " << (inner ? "cpu[..] or gpu[..]" : "node[..]");
    m.levels.emplace_back(level.getShape());
    m.offsets.push_back(offset);
    offset += level.getShape().size();
  }
  m.kind = grid.getLevel(n - 1).getKind();
  return success();
}

void FlattenMachines::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  llvm::StringMap<MachineLevels> machines;
  SmallVector<GridOp> grids;
  bool failedAny = false;
  for (GridOp grid : module.getOps<GridOp>()) {
    if (grid.getNumLevels() < 2)
      continue;
    MachineLevels m;
    if (failed(classify(grid, m))) {
      failedAny = true;
      continue;
    }
    machines[grid.getSymName()] = std::move(m);
    grids.push_back(grid);
  }
  if (failedAny)
    return signalPassFailure();
  if (grids.empty())
    return;

  // Flatten every distributed tensor type on these machines once, and
  // report a type that does not flatten at the first op that has it.
  DenseMap<Type, Type> flat;
  DenseMap<Type, std::string> errors;
  auto visit = [&](Type t, Operation *op) {
    auto type = dyn_cast<DistTensorType>(t);
    if (!type || flat.count(type))
      return;
    auto it = machines.find(type.getLayout().getGrid().getValue());
    if (it == machines.end())
      return;
    std::string why;
    FailureOr<DistTensorType> f = flattenType(type, it->second, why);
    if (succeeded(f)) {
      flat[type] = *f;
      return;
    }
    flat[type] = Type();
    op->emitOpError("has ")
        << type << " on the hierarchical machine '@"
        << type.getLayout().getGrid().getValue()
        << "', which dist-flatten-machines cannot lower: " << why;
    failedAny = true;
  };
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      visit(t, op);
    for (Type t : op->getOperandTypes())
      visit(t, op);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Type t : b.getArgumentTypes())
          visit(t, op);
    if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
      for (Type t : fn.getArgumentTypes())
        visit(t, op);
      for (Type t : fn.getResultTypes())
        visit(t, op);
    }
  });
  if (failedAny)
    return signalPassFailure();

  AttrTypeReplacer replacer;
  replacer.addReplacement([&](DistTensorType t) -> std::optional<Type> {
    auto it = flat.find(t);
    if (it == flat.end() || !it->second)
      return std::nullopt;
    return it->second;
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  for (GridOp grid : grids) {
    const MachineLevels &m = machines[grid.getSymName()];
    SmallVector<int64_t> shape;
    for (const SmallVector<int64_t> &level : m.levels)
      llvm::append_range(shape, level);
    grid.setLevelsAttr(ArrayAttr::get(
        ctx, {GridLevelAttr::get(ctx, shape, m.kind)}));
    grid->setAttr(kNodeAxesAttrName, IntegerAttr::get(IntegerType::get(ctx, 64),
                                                      m.offsets.back()));
  }
}

} // namespace
