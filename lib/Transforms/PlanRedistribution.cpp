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
void printSteps(llvm::raw_ostream &os,
                ArrayRef<RedistributionStep> steps) {
  llvm::interleave(
      steps, os,
      [&](const RedistributionStep &s) {
        os << stringifyStep(s.kind) << " over modes [";
        llvm::interleaveComma(s.modes, os);
        os << "] -> " << formatModeTuples(s.after, s.fixedAfter, s.blocksAfter)
           << " (";
        os << llvm::format("%.2g", s.cost) << " s)";
      },
      ", then ");
}

/// "plan for sum over dims [2] of [(), (2, 3), (0, 1)] -> [(0, 1), (2, 3)]:
/// reduce-scatter over modes [0, 1] (...)".
void reportPartialSum(RedistributeOp op, const CostModel &model) {
  PartialSumPlan r = planPartialSum(op, model);
  if (!r.error.empty()) {
    op.emitRemark() << "plan: cannot lower: " << r.error;
    return;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "plan for sum over dims [";
  llvm::interleaveComma(*op.getSum(), os);
  os << "] of " << formatModeTuples(r.from) << " -> ";
  if (std::optional<ModeTuples> to = modeTuplesOf(op.getDest().getType()))
    os << formatModeTuples(*to);
  else
    os << op.getDest().getType().getLayout();
  os << ": " << stringifyPartialSum(r.kind) << " over modes [";
  llvm::interleaveComma(r.freed, os);
  os << "]";
  if (!r.direct) {
    os << " -> " << formatModeTuples(r.kept) << ", then ";
    if (!r.then)
      os << "general exchange";
    else if (r.then->steps.empty())
      os << "nothing to move";
    else
      printSteps(os, r.then->steps);
  }
  os << "; predicted " << llvm::format("%.2g", r.cost) << " s";
  op.emitRemark() << text;
}

struct DistPlanRedistributionPass
    : public dist::impl::DistPlanRedistributionBase<
          DistPlanRedistributionPass> {
  using Base::Base;
  void runOnOperation() override {
    CostModel model;
    model.alpha = alpha;
    model.beta = beta;
    model.memoryBound = !relaxMemoryBound;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, model);
      if (!err.empty()) {
        getOperation().emitError() << err;
        return signalPassFailure();
      }
    }
    getOperation().walk([&](RedistributeOp op) {
      if (op.getSum()) {
        reportPartialSum(op, model);
        return;
      }
      OpRedistributionPlan r = planRedistributeOp(op, model);
      if (!r.applies) {
        op.emitRemark() << "plan: general exchange (" << r.reason << ")";
        return;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      if (!r.refinedGrid.empty()) {
        os << "on the common refinement [";
        llvm::interleaveComma(r.refinedGrid, os);
        os << "] of the two grids, ";
      }
      os << "plan for " << formatModeTuples(r.from, r.fromFixed, r.fromBlocks)
         << " -> " << formatModeTuples(r.to, r.toFixed, r.toBlocks) << ": ";
      if (!r.plan) {
        os << r.reason << "; general exchange";
      } else if (r.plan->steps.empty()) {
        os << "nothing to move";
      } else {
        printSteps(os, r.plan->steps);
        os << "; predicted " << llvm::format("%.2g", r.plan->cost) << " s";
      }
      op.emitRemark() << text;
    });
  }
};
} // namespace
