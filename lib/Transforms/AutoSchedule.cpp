//===- AutoSchedule.cpp - choose a schedule from the cost model -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-auto-schedule: every `dist.compute ... schedule auto` gets the
// cheapest of the candidate schedules (ScheduleCandidates.h, and the
// one-sided product where the statement is one) that the verifier and the
// lowering accept, by the alpha-beta-gamma model of one call
// (ScheduleCost.h) with the cost file's numbers. docs/autoschedule.md.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "ScheduleCandidates.h"

#include "DistTensor/Analysis/LayoutSuggestion.h"
#include "DistTensor/Analysis/ScheduleCost.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTAUTOSCHEDULE
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {
/// The communication of the last candidate analysed, by its schedule's
/// text without a leaf.
struct PlanCache {
  std::string schedule;
  std::vector<TransferPlan> plans;
};

struct Candidate {
  ScheduleAttr schedule;
  ScheduleCost cost;
};

std::string num(double s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::format("%.3g", s);
  return out;
}

/// The schedule's text as dist.compute prints it.
std::string scheduleText(ScheduleAttr s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << s;
  StringRef t(out);
  t.consume_front("#dist.schedule<");
  t.consume_back(">");
  return t.str();
}

/// The one-sided product's model (docs/onesided.md) in the pass's terms,
/// or nothing when `op` is not one.
std::optional<ScheduleCost> oneSidedCost(ComputeOp op, const CostModel &c,
                                         ArrayRef<int64_t> grid) {
  FailureOr<OneSidedProduct> p =
      getOneSidedProduct(op, OneSidedCosts{c.alpha, c.beta, c.gamma});
  if (failed(p) || !p->estimated)
    return std::nullopt;
  const OneSidedEstimate &e =
      p->estimates[static_cast<unsigned>(p->stationary)];
  ScheduleCost cost;
  // As one GEMM of the process's flops (the slices' products are smaller).
  cost.compute = e.flops * gemmSecondsPerFlop(c, e.flops / 2);
  cost.latency = e.messages * c.alpha;
  cost.bandwidth = e.words * c.beta;
  for (Value v : op.getTensors()) {
    auto t = cast<DistTensorType>(v.getType());
    cost.memoryElements +=
        double(largestTileElements(t, t.getLayout(), grid));
  }
  // The slices in flight: the prefetched gets and the one being multiplied,
  // each of the average size of a one-sided operation.
  if (e.messages > 0)
    cost.memoryElements += double(p->prefetch + 1) * e.words / e.messages;
  return cost;
}

struct AutoSchedulePass
    : dist::impl::DistAutoScheduleBase<AutoSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    CostModel costs;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costs);
      if (!err.empty()) {
        getOperation().emitError() << err;
        return signalPassFailure();
      }
    }
    bool failedAny = false;
    getOperation().walk([&](ComputeOp op) {
      if (op.getAutoSchedule())
        failedAny |= failed(schedule(op, costs));
    });
    if (failedAny)
      signalPassFailure();
  }

  /// Tries `text` on `op`; the candidate when it verifies and lowers.
  /// `plans` caches the communication of the last candidate without a
  /// leaf: a GEMM leaf moves nothing else, so the candidate with one
  /// written after it (ScheduleCandidates.h) reuses its analysis, which is
  /// most of the time spent per candidate.
  std::optional<Candidate> tryCandidate(ComputeOp op, StringRef text,
                                        const CostModel &costs,
                                        ArrayRef<int64_t> grid,
                                        PlanCache &plans) {
    MLIRContext *ctx = op.getContext();
    // A candidate that does not fit is skipped without a word.
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    auto attr = dyn_cast_or_null<ScheduleAttr>(
        parseAttribute(("#dist.schedule<" + text + ">").str(), ctx));
    if (!attr || !attr.isValid())
      return std::nullopt;
    op.setScheduleAttr(attr);
    if (failed(verify(op, /*verifyRecursively=*/false)))
      return std::nullopt;
    if (isOneSidedCompute(op)) {
      std::optional<ScheduleCost> c = oneSidedCost(op, costs, grid);
      if (!c)
        return std::nullopt;
      return Candidate{attr, *c};
    }
    FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
    if (failed(model))
      return std::nullopt;
    size_t leaf = text.rfind(", substitute(");
    std::string base =
        leaf == StringRef::npos ? text.str() : (text.take_front(leaf) + "]").str();
    if (base != plans.schedule || leaf == StringRef::npos) {
      plans.schedule = base;
      plans.plans = analyzeCommunication(**model);
    }
    return Candidate{attr, estimateScheduleCost(**model, plans.plans, costs)};
  }

  LogicalResult schedule(ComputeOp op, const CostModel &costs) {
    FailureOr<ComputeLoopNest> nest = op.getLoopNest();
    if (failed(nest))
      return failure();
    const IndexStatement &stmt = nest->getStatement();
    auto outType =
        cast<DistTensorType>(op.getTensorNamed(stmt.lhs.tensor).getType());
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        op, outType.getLayout().getGrid());
    if (!grid || grid.getNumLevels() != 1)
      return op.emitOpError("schedule auto needs the output on a one-level "
                            "machine in scope (dist-flatten-machines "
                            "flattens machines of nodes first)");
    std::vector<std::string> texts =
        enumerateScheduleCandidates(stmt, nest->extents, grid.getShape());
    texts.push_back("[stationary(auto)]");

    // The candidates are tried as the op's own schedule.
    op.removeAutoScheduleAttr();
    std::vector<Candidate> fits, over;
    PlanCache plans;
    double elementBytes =
        double(outType.getElementType().getIntOrFloatBitWidth()) / 8;
    for (const std::string &text : texts) {
      std::optional<Candidate> c = tryCandidate(op, text, costs, grid.getShape(), plans);
      if (!c)
        continue;
      bool within = maxMemory == 0 ||
                    c->cost.memoryElements * elementBytes <= double(maxMemory);
      (within ? fits : over).push_back(*c);
    }
    op.removeScheduleAttr();
    if (fits.empty()) {
      op.setAutoSchedule(true);
      InFlightDiagnostic d = op.emitOpError("schedule auto: ");
      if (over.empty()) {
        d << "none of the " << texts.size()
          << " candidate schedules verifies and lowers for this statement "
             "on this machine; write a schedule (docs/autoschedule.md)";
      } else {
        auto least = llvm::min_element(over, [](auto &a, auto &b) {
          return a.cost.memoryElements < b.cost.memoryElements;
        });
        d << "every candidate schedule holds more than max-memory = "
          << static_cast<int64_t>(maxMemory)
          << " bytes per process; the least holds "
          << static_cast<int64_t>(
                 std::ceil(least->cost.memoryElements * elementBytes))
          << " bytes";
      }
      return failure();
    }
    llvm::stable_sort(fits, [](const Candidate &a, const Candidate &b) {
      return a.cost.total() < b.cost.total();
    });
    op.setScheduleAttr(fits.front().schedule);
    for (unsigned i = 0; i < report && i < fits.size(); ++i) {
      const ScheduleCost &c = fits[i].cost;
      op.emitRemark() << "schedule auto: " << (i == 0 ? "chosen" : "rank ")
                      << (i == 0 ? "" : std::to_string(i + 1)) << " of "
                      << fits.size() << ": predicted " << num(c.total())
                      << " s (compute " << num(c.compute) << ", latency "
                      << num(c.latency) << ", bandwidth "
                      << num(c.bandwidth) << "): "
                      << scheduleText(fits[i].schedule);
    }
    return success();
  }
};
} // namespace
