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

#include "AutoScheduleGrids.h"
#include "ScheduleCandidates.h"

#include "DistTensor/Analysis/LayoutSuggestion.h"
#include "DistTensor/Analysis/ScheduleCost.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
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
  /// Seconds of the redistributions inserted around the computation.
  double redistribution = 0;
};

/// The computation moved onto a grid of another shape (AutoScheduleGrids.h)
/// for one choice of distributed variables: a temporary per tensor there.
struct Placement {
  GridOp grid;
  /// Whether the pass made `grid` (erased again unless chosen).
  bool createdGrid = false;
  /// One per tensor operand of the computation, in its order.
  SmallVector<AllocOp> temps;
  /// Predicted seconds of the redistributions onto the grid and back.
  double seconds = 0;
};

struct Candidate {
  ScheduleAttr schedule;
  ScheduleCost cost;
  /// Index into the pass's placements; -1 on the output's own grid.
  int placement = -1;
};

std::string num(double s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::format("%.3g", s);
  return out;
}

/// The candidate schedule `text` ("[...]") as an attribute; null when it
/// does not parse or decode (the caller silences the diagnostics).
ScheduleAttr parseSchedule(MLIRContext *ctx, StringRef text) {
  auto attr = dyn_cast_or_null<ScheduleAttr>(
      parseAttribute(("#dist.schedule<" + text + ">").str(), ctx));
  return attr && attr.isValid() ? attr : ScheduleAttr();
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
  // Gets and accumulates at the measured RMA costs (benchmarks/calibrate's
  // alpha.rma, beta.rma), and per call its constant: the allreduce that
  // checks the windows, the barriers that open and close the epoch and the
  // plan (docs/onesided.md), measured as `alpha.onesided`, else taken as
  // two allreduces.
  double procs = 1;
  for (int64_t g : grid)
    procs *= double(g);
  double lg = std::ceil(std::log2(std::max(procs, 1.0)));
  double perCall =
      c.get("alpha.onesided", 2 * lg * c.get("alpha.allreduce", c.alpha));
  cost.latency = e.messages * c.get("alpha.rma", c.alpha) +
                 (procs > 1 ? perCall : 0);
  // Every slice lands in (or leaves from) a buffer of its own, as the
  // collective lowering's boxes do (ScheduleCost.cpp's copies).
  cost.bandwidth =
      e.words * (c.get("beta.rma", c.beta) + c.get("beta.copy", c.beta));
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
  /// A candidate whose arithmetic alone takes longer than `bound` seconds
  /// is dropped before its communication is analysed (it cannot be the
  /// cheapest).
  std::optional<Candidate> tryCandidate(ComputeOp op, StringRef text,
                                        const CostModel &costs,
                                        ArrayRef<int64_t> grid,
                                        PlanCache &plans, double bound) {
    MLIRContext *ctx = op.getContext();
    // A candidate that does not fit is skipped without a word.
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    ScheduleAttr attr = parseSchedule(ctx, text);
    if (!attr)
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
    if (estimateComputeSeconds(**model, costs) > bound)
      return std::nullopt;
    size_t leaf = text.rfind(", substitute(");
    std::string base =
        leaf == StringRef::npos ? text.str() : (text.take_front(leaf) + "]").str();
    if (base != plans.schedule || leaf == StringRef::npos) {
      plans.schedule = base;
      plans.plans = analyzeCommunication(**model);
      plans.redistribution = 0;
      if (insertRedistributions)
        plans.redistribution =
            insertedRedistributions(op, **model, plans.plans, costs);
    }
    Candidate c{attr, estimateScheduleCost(**model, plans.plans, costs)};
    c.cost.redistribution = plans.redistribution;
    return c;
  }

  /// What dist-insert-redistributions does to `op` under the candidate
  /// (InsertRedistributions.cpp's rule): a tensor that would move with the
  /// general exchange and whose implied layout holds no more per process is
  /// redistributed to it (and back, for the output). Its transfer in
  /// `plans` becomes local; the redistributions' predicted seconds (the
  /// planner's, or the general exchange's where it has no plan) are
  /// returned.
  double insertedRedistributions(ComputeOp op, const ComputeModel &model,
                                 std::vector<TransferPlan> &plans,
                                 const CostModel &costs) {
    double seconds = 0;
    for (TransferPlan &plan : plans) {
      if (plan.kind != TransferPlan::Kind::General)
        continue;
      std::optional<LayoutAttr> layout = impliedLayout(model, plan.tensor);
      DistTensorType type = model.types.lookup(plan.tensor);
      if (!layout || !type || *layout == type.getLayout())
        continue;
      int64_t own = largestTileElements(type, type.getLayout(),
                                        model.gridShape);
      int64_t copy = largestTileElements(type, *layout, model.gridShape);
      if (!withinMemoryBound(copy, {own}))
        continue;
      double one = redistributionSeconds(op, plan.tensor, type, *layout,
                                         costs, double(std::max(own, copy)));
      seconds += plan.output ? 2 * one : one;
      // The copy has the layout the distribution reads: the tensor is
      // taken to be local then (re-analysing it, as the insertion pass
      // does, would double the time per candidate).
      plan.kind = TransferPlan::Kind::Local;
    }
    return seconds;
  }

  /// The planner's predicted seconds of redistributing `tensor` of `op`
  /// from `type`'s layout to `layout` (on a scratch dist.redistribute that
  /// is erased again), or the general exchange's, (P - 1) alpha + `tile`
  /// beta, where the planner has no plan; plus copying the `tile`
  /// elements once (`beta.copy`).
  double redistributionSeconds(ComputeOp op, StringRef tensor,
                               DistTensorType type, LayoutAttr layout,
                               const CostModel &costs, double tile) {
    Value orig = op.getTensorNamed(tensor);
    OpBuilder b(op);
    auto newType = DistTensorType::get(type.getContext(), type.getShape(),
                                       type.getElementType(), layout);
    auto alloc = AllocOp::create(b, op.getLoc(), newType);
    auto redist = RedistributeOp::create(b, op.getLoc(), orig,
                                         alloc.getResult(),
                                         DenseI64ArrayAttr());
    OpRedistributionPlan p = planRedistributeOp(redist, costs);
    redist->erase();
    alloc->erase();
    // Whatever moves, every element is copied into the new tile once (a
    // plan of no messages is not free).
    double copy = tile * costs.get("beta.copy", costs.beta);
    if (p.plan)
      return p.plan->cost + copy;
    double procs = 1;
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        op, type.getLayout().getGrid());
    if (grid)
      for (int64_t d : grid.getShape())
        procs *= double(d);
    return std::max(procs - 1, 1.0) * costs.alpha + tile * costs.beta + copy;
  }

  /// The statement variables `text`'s distribute command distributes, in
  /// grid-axis order; nothing for a schedule without one.
  static std::optional<SmallVector<std::string>>
  distributedVariables(MLIRContext *ctx, StringRef text) {
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    ScheduleAttr attr = parseSchedule(ctx, text);
    if (!attr)
      return std::nullopt;
    for (const ScheduleCommand &c : attr.getDecoded())
      if (c.kind == ScheduleCommand::Kind::DistributeOnto && !c.lists.empty())
        return SmallVector<std::string>(c.lists[0]);
    return std::nullopt;
  }

  /// The index list `tensor` is accessed with in `stmt`.
  static SmallVector<std::string> indicesOf(const IndexStatement &stmt,
                                            StringRef tensor) {
    if (stmt.lhs.tensor == tensor)
      return stmt.lhs.indices;
    for (const Access *a : stmt.rhsAccesses())
      if (a->tensor == tensor)
        return a->indices;
    return {};
  }

  /// Whether the computation reads its output's old values (`+=`, or the
  /// output on the right-hand side): then it is redistributed onto another
  /// grid as well as back.
  static bool readsOutput(const IndexStatement &stmt) {
    return stmt.accumulate ||
           llvm::any_of(stmt.rhsAccesses(), [&](const Access *a) {
             return a->tensor == stmt.lhs.tensor;
           });
  }

  /// Temporaries for every tensor of `op` on `grid` (extents `shape`) in
  /// the layouts distributing `vars` gives them (distributionLayout), and
  /// the predicted seconds of moving them there and the output back.
  Placement makePlacement(ComputeOp op, const IndexStatement &stmt,
                          GridOp grid, bool created, ArrayRef<int64_t> shape,
                          ArrayRef<int64_t> ownShape,
                          ArrayRef<std::string> vars, const CostModel &costs) {
    Placement pl;
    pl.grid = grid;
    pl.createdGrid = created;
    MLIRContext *ctx = op.getContext();
    auto ref = FlatSymbolRefAttr::get(grid.getSymNameAttr());
    OpBuilder b(op);
    for (auto [name, value] : llvm::zip(op.getNames(), op.getTensors())) {
      StringRef tensor = cast<StringAttr>(name).getValue();
      auto type = cast<DistTensorType>(value.getType());
      LayoutAttr layout = distributionLayout(
          ctx, ref, unsigned(shape.size()), indicesOf(stmt, tensor), vars);
      auto newType = DistTensorType::get(ctx, type.getShape(),
                                         type.getElementType(), layout);
      pl.temps.push_back(AllocOp::create(b, op.getLoc(), newType));
      int64_t own = largestTileElements(type, type.getLayout(), ownShape);
      int64_t copy = largestTileElements(type, layout, shape);
      double one = redistributionSeconds(op, tensor, type, layout, costs,
                                         double(std::max(own, copy)));
      bool output = tensor == stmt.lhs.tensor;
      pl.seconds += output && readsOutput(stmt) ? 2 * one : one;
    }
    return pl;
  }

  /// The candidates on the other grid shapes (alternativeGridShapes): each
  /// tried with the computation's tensors replaced by a placement's
  /// temporaries, costed with the placement's redistributions added and
  /// the tensors' own tiles (still held) counted in its memory. Returns
  /// how many candidate schedules it tried.
  size_t tryOtherGrids(ComputeOp op, const IndexStatement &stmt,
                       const llvm::StringMap<int64_t> &extents, GridOp grid,
                       const CostModel &costs, PlanCache &plans,
                       std::vector<Placement> &placements,
                       function_ref<void(Candidate)> consider,
                       function_ref<double()> bound) {
    size_t tried = 0;
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return tried;
    ArrayRef<int64_t> ownShape = grid.getShape();
    double ownElements = 0;
    for (Value v : op.getTensors()) {
      auto t = cast<DistTensorType>(v.getType());
      ownElements += double(largestTileElements(t, t.getLayout(), ownShape));
    }
    SmallVector<Value> originals(op.getTensors());
    unsigned first = op.getTensors().getBeginOperandIndex();
    for (const SmallVector<int64_t> &shape : alternativeGridShapes(ownShape)) {
      std::vector<std::string> texts =
          enumerateScheduleCandidates(stmt, extents, shape, maxMemory != 0);
      if (texts.empty())
        continue;
      tried += texts.size();
      bool created = false;
      GridOp g = gridOfShape(module, shape, grid.getLevel(0).getKind(),
                             op.getLoc(), created);
      llvm::StringMap<int> byVars;
      for (const std::string &text : texts) {
        std::optional<SmallVector<std::string>> vars =
            distributedVariables(op.getContext(), text);
        if (!vars)
          continue;
        std::string key = llvm::join(*vars, ",");
        auto [it, fresh] = byVars.try_emplace(key, int(placements.size()));
        if (fresh)
          placements.push_back(makePlacement(op, stmt, g, created, shape,
                                             ownShape, *vars, costs));
        // The pass erases a created grid once: only its first placement
        // says it made it.
        created = false;
        Placement &pl = placements[it->second];
        for (auto [i, t] : llvm::enumerate(pl.temps))
          op->setOperand(first + i, t.getResult());
        std::optional<Candidate> c =
            tryCandidate(op, text, costs, shape, plans, bound() - pl.seconds);
        for (auto [i, v] : llvm::enumerate(originals))
          op->setOperand(first + i, v);
        if (!c)
          continue;
        c->placement = it->second;
        c->cost.redistribution += pl.seconds;
        c->cost.memoryElements += ownElements;
        consider(*c);
      }
      if (byVars.empty() && created)
        g->erase();
    }
    return tried;
  }

  /// Moves `op` onto the chosen placement's grid (its tensors redistributed
  /// there, the output back after it) and erases every other placement.
  void finishPlacements(ComputeOp op, const IndexStatement &stmt,
                        std::vector<Placement> &placements, int chosen) {
    if (chosen >= 0) {
      Placement &pl = placements[chosen];
      unsigned first = op.getTensors().getBeginOperandIndex();
      SmallVector<Value> originals(op.getTensors());
      OpBuilder b(op);
      SmallVector<std::string> moved;
      std::string back;
      for (auto [i, name] : llvm::enumerate(op.getNames())) {
        StringRef tensor = cast<StringAttr>(name).getValue();
        Value temp = pl.temps[i].getResult();
        bool output = tensor == stmt.lhs.tensor;
        if (!output || readsOutput(stmt)) {
          RedistributeOp::create(b, op.getLoc(), originals[i], temp,
                                 DenseI64ArrayAttr());
          moved.push_back("'" + tensor.str() + "'");
        }
        if (output) {
          OpBuilder after(op->getContext());
          after.setInsertionPointAfter(op);
          RedistributeOp::create(after, op.getLoc(), temp, originals[i],
                                 DenseI64ArrayAttr());
          back = "'" + tensor.str() + "'";
        }
        op->setOperand(first + i, temp);
      }
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleaveComma(pl.grid.getShape(), os);
      op.emitRemark() << "schedule auto: computes on grid @"
                      << pl.grid.getSymName() << " [" << shape
                      << "]: redistributes " << llvm::join(moved, ", ")
                      << " onto it and " << back
                      << " back (predicted " << num(pl.seconds) << " s)";
    }
    for (auto [i, pl] : llvm::enumerate(placements)) {
      if (int(i) == chosen)
        continue;
      for (AllocOp t : pl.temps)
        t->erase();
    }
    for (auto [i, pl] : llvm::enumerate(placements))
      if (pl.createdGrid && (chosen < 0 || placements[chosen].grid != pl.grid))
        pl.grid->erase();
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
        enumerateScheduleCandidates(stmt, nest->extents, grid.getShape(),
                                    maxMemory != 0);
    texts.push_back("[stationary(auto)]");

    // The candidates are tried as the op's own schedule.
    op.removeAutoScheduleAttr();
    std::vector<Candidate> fits, over;
    size_t tried = texts.size();
    PlanCache plans;
    double elementBytes =
        double(outType.getElementType().getIntOrFloatBitWidth()) / 8;
    // Without a report or pick, only the cheapest candidate matters: one
    // whose arithmetic alone exceeds the cheapest fitting total so far is
    // not analysed further (most of the time of a large search).
    double best = std::numeric_limits<double>::infinity();
    bool prune = report == 0 && pick == 1;
    auto bound = [&] {
      return prune ? best * (1 + 1e-9)
                   : std::numeric_limits<double>::infinity();
    };
    auto consider = [&](Candidate c) {
      bool within = maxMemory == 0 ||
                    c.cost.memoryElements * elementBytes <= double(maxMemory);
      (within ? fits : over).push_back(c);
      if (within)
        best = std::min(best, c.cost.total());
    };
    for (const std::string &text : texts)
      if (std::optional<Candidate> c =
              tryCandidate(op, text, costs, grid.getShape(), plans, bound()))
        consider(*c);
    std::vector<Placement> placements;
    if (gridShapes)
      tried += tryOtherGrids(op, stmt, nest->extents, grid, costs, plans,
                             placements, consider, bound);
    op.removeScheduleAttr();
    if (fits.empty()) {
      finishPlacements(op, stmt, placements, -1);
      op.setAutoSchedule(true);
      InFlightDiagnostic d = op.emitOpError("schedule auto: ");
      if (over.empty()) {
        d << "none of the " << tried
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
    unsigned k = pick;
    if (k < 1 || k > fits.size()) {
      finishPlacements(op, stmt, placements, -1);
      op.setAutoSchedule(true);
      return op.emitOpError("schedule auto: pick=")
             << k << " but " << fits.size()
             << " candidate schedules fit (pick counts from 1)";
    }
    const Candidate &picked = fits[k - 1];
    op.setScheduleAttr(picked.schedule);
    for (unsigned i = 0; i < report && i < fits.size(); ++i) {
      const ScheduleCost &c = fits[i].cost;
      InFlightDiagnostic d = op.emitRemark();
      d << "schedule auto: " << (i == 0 ? "chosen" : "rank ")
        << (i == 0 ? "" : std::to_string(i + 1)) << " of " << fits.size()
        << ": predicted " << num(c.total()) << " s (compute "
        << num(c.compute) << ", latency " << num(c.latency) << ", bandwidth "
        << num(c.bandwidth) << ", redistribution " << num(c.redistribution)
        << ", hidden " << num(c.hidden)
        << "): " << scheduleText(fits[i].schedule);
      if (fits[i].placement >= 0)
        d << " on @" << placements[fits[i].placement].grid.getSymName();
    }
    finishPlacements(op, stmt, placements, picked.placement);
    return success();
  }
};
} // namespace
