//===- Instrument.cpp - check and timing around computations ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-instrument: on dist IR, before the computations and redistributions
// are lowered, adds the `check` and `timing` code around them, on the local
// tiles of their tensors (dist.local_tile). The code itself is built by
// SPMD/Instrumentation.cpp; the lowerings insert their code before the op
// they replace, so what this pass puts before an op stays before its
// lowered form and what it puts after stays after.
//
//===----------------------------------------------------------------------===//

#include "SPMD/Instrumentation.h"
#include "SPMD/SPMDBuilder.h"

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTINSTRUMENT
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

struct DistInstrumentPass
    : public dist::impl::DistInstrumentBase<DistInstrumentPass> {
  using Base::Base;

  /// Check and timing around one computation.
  LogicalResult instrument(SPMDBuilder &rt, ComputeOp op) {
    StatementAttr statement = op.getStatementAttr();
    if (!statement.isValid())
      return statement.emitParseError([&]() { return op.emitOpError(); });
    const IndexStatement &stmt = statement.getStatement();
    llvm::StringMap<DistTensorType> types;
    llvm::StringMap<Value> values;
    for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors())) {
      StringRef name = cast<StringAttr>(n).getValue();
      auto type = cast<DistTensorType>(v.getType());
      if (failed(rt.checkTensorType(op, type, /*allowSparse=*/true)))
        return failure();
      if (check && !type.hasStaticShape())
        return op.emitOpError("check: tensor '")
               << name << "' has dynamic extents (" << type
               << "); the check gathers whole tensors and needs static "
                  "shapes (dynamic extents are supported on exported "
                  "function arguments used by one-sided products; "
                  "docs/interop.md)";
      types[name] = type;
      values[name] = v;
    }
    DistTensorType outType = types[stmt.lhs.tensor];
    Type elt = outType.getElementType();
    FlatSymbolRefAttr grid = outType.getLayout().getGrid();
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, grid);
    int64_t gridRank = gridOp.getLevel(0).getShape().size();
    Location loc = op.getLoc();
    OpBuilder b(op);
    llvm::StringMap<Value> before;
    if (check)
      before = gatherForCheck(rt, b, loc, stmt, types, values);
    Value timer;
    if (timing)
      timer = startTiming(b, loc, grid, gridRank);
    b.setInsertionPointAfter(op);
    if (timing)
      stopTiming(b, loc, grid, gridRank, timer, stmt);
    if (check)
      emitCheck(rt, b, op, stmt, types, values, elt, before);
    return success();
  }

  /// The check of one redistribution.
  LogicalResult instrument(SPMDBuilder &rt, RedistributeOp op) {
    DistTensorType st = op.getSource().getType();
    DistTensorType dt = op.getDest().getType();
    if (failed(rt.checkTensorType(op, st)) ||
        failed(rt.checkTensorType(op, dt)))
      return failure();
    Value s = rt.tileOf(op, op.getSource()), d = rt.tileOf(op, op.getDest());
    if (!s || !d)
      return failure();
    Location loc = op.getLoc();
    OpBuilder b(op->getContext());
    // Timed like a computation: a barrier over the destination's grid
    // brackets the redistribution. The source's grid, when another one (as
    // dist-auto-schedule's other grid shapes), has the same processes (the
    // verifier requires as many; they pair by grid rank).
    FlatSymbolRefAttr grid = dt.getLayout().getGrid();
    auto gridOp = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, grid);
    if (timing && gridOp) {
      int64_t gridRank = gridOp.getLevel(0).getShape().size();
      b.setInsertionPoint(op);
      Value timer = startTiming(b, loc, grid, gridRank);
      b.setInsertionPointAfter(op);
      std::string name;
      llvm::raw_string_ostream os(name);
      os << "redistribute " << (op.getSum() ? "(sum) " : "");
      llvm::interleave(st.getShape(), os, "x");
      os << (st.getRank() ? " " : "scalar ") << st.getLayout() << " -> "
         << dt.getLayout();
      stopTiming(b, loc, grid, gridRank, timer, name);
    }
    if (!check)
      return success();
    b.setInsertionPointAfter(op);
    if (!op.getSum()) {
      checkRedistribute(b, loc, st, dt, s, d);
      return success();
    }
    // Which dimensions are summed is the plan's (the lowering reports a
    // partial sum it cannot plan).
    CostModel costModel;
    PartialSumPlan r = planPartialSum(op, costModel, /*general=*/false);
    if (!r.error.empty())
      return success();
    SmallVector<int64_t> sum;
    for (int64_t dim = 0; dim < st.getRank(); ++dim)
      if (r.sumMask >> dim & 1)
        sum.push_back(dim);
    checkPartialSum(rt, b, loc, st, dt, s, d, sum);
    return success();
  }

  void runOnOperation() override {
    if (!check && !timing)
      return;
    ModuleOp module = getOperation();
    SPMDOptions options;
    options.check = check;
    options.timing = timing;
    options.tolerance = tolerance;
    CostModel costModel;
    SPMDBuilder rt(module, options, costModel);
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ComputeOp, RedistributeOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult r = isa<ComputeOp>(op)
                            ? instrument(rt, cast<ComputeOp>(op))
                            : instrument(rt, cast<RedistributeOp>(op));
      if (failed(r))
        return signalPassFailure();
    }
  }
};

} // namespace
