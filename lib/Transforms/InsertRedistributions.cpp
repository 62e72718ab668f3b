//===- InsertRedistributions.cpp - redistribute to what schedules need ----===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// For every dist.compute, the communication analysis classifies how each
// tensor moves. A tensor that would need the general exchange is given the
// layout the schedule's distribute implies (impliedLayout: each dimension
// indexed by a distributed loop blocked over that loop's grid dimension,
// the others whole): the compute then reads a redistributed copy (and, for the
// output, writes one that is redistributed back afterwards). The insertion
// is kept only when the analysis of the rewritten compute no longer needs
// the general exchange for that tensor, and is reported with a remark.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/LayoutSuggestion.h"
#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Analysis/Semantics.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTINSERTREDISTRIBUTIONS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {
/// The analysis of `op`, with its diagnostics swallowed (computations that
/// cannot be lowered are reported by dist-materialize-spmd).
std::optional<std::pair<std::unique_ptr<ComputeModel>,
                        std::vector<TransferPlan>>>
analyze(ComputeOp op) {
  ScopedDiagnosticHandler quiet(op.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
  if (failed(model))
    return std::nullopt;
  std::vector<TransferPlan> plans = analyzeCommunication(**model);
  return std::make_pair(std::move(*model), std::move(plans));
}

unsigned operandIndex(ComputeOp op, StringRef tensor) {
  for (auto [i, n] : llvm::enumerate(op.getNames()))
    if (cast<StringAttr>(n).getValue() == tensor)
      return i;
  return ~0u;
}

struct DistInsertRedistributionsPass
    : public dist::impl::DistInsertRedistributionsBase<
          DistInsertRedistributionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ComputeOp> computes;
    getOperation().walk([&](ComputeOp op) { computes.push_back(op); });
    for (ComputeOp op : computes)
      processCompute(op);
  }

  void processCompute(ComputeOp op) {
    auto analysis = analyze(op);
    if (!analysis)
      return;
    auto &[model, plans] = *analysis;
    for (const TransferPlan &plan : plans) {
      if (plan.kind != TransferPlan::Kind::General)
        continue;
      std::optional<LayoutAttr> layout = impliedLayout(*model, plan.tensor);
      DistTensorType type = model->types.lookup(plan.tensor);
      if (!layout || *layout == type.getLayout())
        continue;
      // Never trade memory for messages behind the user's back: the copy
      // may not hold more per process than the tensor's own tiles (an
      // implied layout that replicates a dimension usually would), the
      // planner's memory bound.
      if (!withinMemoryBound(
              largestTileElements(type, *layout, model->gridShape),
              {largestTileElements(type, type.getLayout(), model->gridShape)}))
        continue;
      tryInsert(op, plan.tensor, plan.output, type, *layout);
    }
  }

  /// Redistributes `tensor` to `layout` around `op`; keeps the change only
  /// if the tensor's transfer is no longer the general exchange.
  void tryInsert(ComputeOp op, StringRef tensor, bool output,
                 DistTensorType type, LayoutAttr layout) {
    unsigned idx = operandIndex(op, tensor);
    if (idx == ~0u)
      return;
    Value orig = op->getOperand(idx);
    auto newType = DistTensorType::get(type.getContext(), type.getShape(),
                                       type.getElementType(), layout);
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto alloc = AllocOp::create(b, loc, newType);
    auto in = RedistributeOp::create(b, loc, orig, alloc.getResult(),
                                     DenseI64ArrayAttr());
    RedistributeOp back;
    if (output) {
      b.setInsertionPointAfter(op);
      back = RedistributeOp::create(b, loc, alloc.getResult(), orig,
                                    DenseI64ArrayAttr());
    }
    op->setOperand(idx, alloc.getResult());
    auto analysis = analyze(op);
    const TransferPlan *now = nullptr;
    if (analysis)
      for (const TransferPlan &p : analysis->second)
        if (p.tensor == tensor)
          now = &p;
    if (!now || now->kind == TransferPlan::Kind::General) {
      op->setOperand(idx, orig);
      if (back)
        back->erase();
      in->erase();
      alloc->erase();
      return;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "inserted a redistribution of '" << tensor << "' to " << layout
       << (output ? " (and back after the computation)" : "")
       << ": its schedule needs it there (it moved with the general "
       << "exchange; now " << now->describe(*analysis->first) << ")";
    op.emitRemark() << text;
  }
};
} // namespace
