//===- LayoutSuggestion.cpp - the layout a schedule implies ---------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/LayoutSuggestion.h"

#include "DistTensor/Analysis/Semantics.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

std::optional<LayoutAttr> mlir::dist::impliedLayout(const ComputeModel &m,
                                                    StringRef tensor) {
  const Access *access = m.accessOf.lookup(tensor);
  DistTensorType type = m.types.lookup(tensor);
  if (!access || !type)
    return std::nullopt;
  MLIRContext *ctx = type.getContext();
  SmallVector<DimDistAttr> dims;
  for (const std::string &v : access->indices) {
    SmallVector<int64_t> axes;
    for (auto [loop, gd] : llvm::zip(m.distLoops, m.gridDimOf)) {
      if (loop->origins.size() != 1 || loop->origins.front() != v)
        continue;
      auto it = m.nest.derivations.find(loop->name);
      if (it == m.nest.derivations.end() ||
          it->second.kind != Derivation::Kind::DivideOuter ||
          it->second.parents.size() != 1 || it->second.parents[0] != v ||
          it->second.factor != m.gridShape[gd])
        return std::nullopt;
      axes.push_back(gd);
    }
    if (axes.size() > 1)
      return std::nullopt;
    dims.push_back(
        axes.empty() ? DimDistAttr::get(ctx, {}, PartitionKind::none, 0)
                     : DimDistAttr::get(ctx, axes, PartitionKind::blocked, 0));
  }
  auto level = LevelLayoutAttr::get(ctx, dims, {}, {});
  return LayoutAttr::get(ctx, m.grid, ArrayRef<LevelLayoutAttr>{level});
}

int64_t mlir::dist::largestTileElements(DistTensorType type, LayoutAttr layout,
                                        ArrayRef<int64_t> gridShape) {
  LevelDistribution dist(type.getShape(), layout.getOuter(), gridShape);
  int64_t n = 1;
  for (int64_t e : dist.getMaxLocalExtents())
    n *= e; // at most the tensor's element count (2^50)
  return n;
}

TransferPlan mlir::dist::transferWithLayout(const ComputeModel &m,
                                            StringRef tensor,
                                            LayoutAttr layout) {
  TransferPlan none;
  none.tensor = tensor.str();
  DistTensorType type = m.types.lookup(tensor);
  if (!type || !m.op) {
    none.whyGeneral = "not a tensor of the computation";
    return none;
  }
  // A model of its own (the statement is not copyable), with the tensor's
  // type replaced: the analysis reads layouts from the model's types.
  ComputeOp op = m.op;
  FailureOr<std::unique_ptr<ComputeModel>> fresh = [&] {
    ScopedDiagnosticHandler quiet(op.getContext(),
                                  [](Diagnostic &) { return success(); });
    return buildComputeModel(op);
  }();
  if (failed(fresh)) {
    none.whyGeneral = "the computation cannot be lowered";
    return none;
  }
  (*fresh)->types[tensor] = DistTensorType::get(
      type.getContext(), type.getShape(), type.getElementType(), layout);
  for (TransferPlan &p : analyzeCommunication(**fresh))
    if (p.tensor == tensor)
      return std::move(p);
  none.whyGeneral = "not a tensor of the computation";
  return none;
}

/// The implied layout of `tensor` and its transfer under it, when that
/// layout is not the tensor's own and avoids the general exchange.
static std::optional<std::pair<LayoutAttr, TransferPlan>>
suggestion(const ComputeModel &m, StringRef tensor) {
  std::optional<LayoutAttr> layout = impliedLayout(m, tensor);
  if (!layout || *layout == m.types.lookup(tensor).getLayout())
    return std::nullopt;
  TransferPlan then = transferWithLayout(m, tensor, *layout);
  if (then.kind == TransferPlan::Kind::General)
    return std::nullopt;
  return std::make_pair(*layout, std::move(then));
}

std::optional<std::string> mlir::dist::suggestLayout(const ComputeModel &m,
                                                     StringRef tensor) {
  auto s = suggestion(m, tensor);
  if (!s)
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Attribute(s->first);
  return text;
}

std::optional<std::string>
mlir::dist::describeLayoutSuggestion(const ComputeModel &m, StringRef tensor) {
  auto s = suggestion(m, tensor);
  if (!s)
    return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "give '" << tensor << "' the layout " << Attribute(s->first)
     << " (then: " << stringifyTransferKind(s->second.kind);
  DistTensorType type = m.types.lookup(tensor);
  int64_t now = largestTileElements(type, type.getLayout(), m.gridShape);
  int64_t then = largestTileElements(type, s->first, m.gridShape);
  if (then > now)
    os << ", up to " << then << " elements per process instead of " << now;
  os << ")";
  return text;
}

std::string mlir::dist::layoutSuggestionClause(const ComputeModel &m,
                                               StringRef tensor) {
  std::optional<std::string> s = describeLayoutSuggestion(m, tensor);
  return s ? "; suggestion: " + *s : std::string();
}
