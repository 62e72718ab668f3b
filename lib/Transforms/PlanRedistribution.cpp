//===- PlanRedistribution.cpp - report redistribution plans -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTPLANREDISTRIBUTION
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {
/// The mode tuples of an elemental-cyclic one-level layout with no fixed
/// modes, or nothing.
std::optional<ModeTuples> modeTuplesOf(DistTensorType type) {
  LayoutAttr layout = type.getLayout();
  if (layout.getLevels().size() != 1)
    return std::nullopt;
  LevelLayoutAttr level = layout.getOuter();
  if (!level.getFixedAxes().empty())
    return std::nullopt;
  ModeTuples t;
  for (DimDistAttr d : level.getDims()) {
    if ((d.getKind() != PartitionKind::none &&
         d.getKind() != PartitionKind::cyclic) ||
        !d.getSkew().empty())
      return std::nullopt;
    t.emplace_back(d.getAxes().begin(), d.getAxes().end());
  }
  return t;
}

struct DistPlanRedistributionPass
    : public dist::impl::DistPlanRedistributionBase<
          DistPlanRedistributionPass> {
  using Base::Base;
  void runOnOperation() override {
    CostModel model;
    model.alpha = alpha;
    model.beta = beta;
    getOperation().walk([&](RedistributeOp op) {
      DistTensorType src = op.getSource().getType();
      DistTensorType dst = op.getDest().getType();
      auto gs = SymbolTable::lookupNearestSymbolFrom<GridOp>(
          op, src.getLayout().getGrid());
      auto gd = SymbolTable::lookupNearestSymbolFrom<GridOp>(
          op, dst.getLayout().getGrid());
      std::optional<ModeTuples> from = modeTuplesOf(src);
      std::optional<ModeTuples> to = modeTuplesOf(dst);
      if (!gs || !gd || gs != gd || !from || !to) {
        op.emitRemark() << "plan: general exchange (the thesis' rules apply "
                           "to elemental-cyclic layouts on one mesh)";
        return;
      }
      SmallVector<int64_t> mesh(gs.getShape());
      SmallVector<int64_t> shape(src.getShape());
      std::optional<RedistributionPlan> plan =
          planRedistribution(*from, *to, mesh, shape, model);
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "plan for " << formatModeTuples(*from) << " -> "
         << formatModeTuples(*to) << ": ";
      if (!plan) {
        os << "no sequence of at most 5 collectives found; general exchange";
      } else if (plan->steps.empty()) {
        os << "nothing to move";
      } else {
        llvm::interleave(
            plan->steps, os,
            [&](const RedistributionStep &s) {
              os << stringifyStep(s.kind) << " over modes [";
              llvm::interleaveComma(s.modes, os);
              os << "] -> " << formatModeTuples(s.after) << " (";
              os << llvm::format("%.2g", s.cost) << " s)";
            },
            ", then ");
        os << "; predicted " << llvm::format("%.2g", plan->cost) << " s";
      }
      op.emitRemark() << text;
    });
  }
};
} // namespace
