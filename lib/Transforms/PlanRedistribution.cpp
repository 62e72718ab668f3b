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
struct DistPlanRedistributionPass
    : public dist::impl::DistPlanRedistributionBase<
          DistPlanRedistributionPass> {
  using Base::Base;
  void runOnOperation() override {
    CostModel model;
    model.alpha = alpha;
    model.beta = beta;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, model);
      if (!err.empty()) {
        getOperation().emitError() << err;
        return signalPassFailure();
      }
    }
    getOperation().walk([&](RedistributeOp op) {
      OpRedistributionPlan r = planRedistributeOp(op, model);
      if (!r.applies) {
        op.emitRemark() << "plan: general exchange (" << r.reason << ")";
        return;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "plan for " << formatModeTuples(r.from) << " -> "
         << formatModeTuples(r.to) << ": ";
      if (!r.plan) {
        os << r.reason << "; general exchange";
      } else if (r.plan->steps.empty()) {
        os << "nothing to move";
      } else {
        llvm::interleave(
            r.plan->steps, os,
            [&](const RedistributionStep &s) {
              os << stringifyStep(s.kind) << " over modes [";
              llvm::interleaveComma(s.modes, os);
              os << "] -> " << formatModeTuples(s.after) << " (";
              os << llvm::format("%.2g", s.cost) << " s)";
            },
            ", then ");
        os << "; predicted " << llvm::format("%.2g", r.plan->cost) << " s";
      }
      op.emitRemark() << text;
    });
  }
};
} // namespace
