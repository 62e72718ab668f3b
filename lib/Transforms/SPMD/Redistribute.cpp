//===- Redistribute.cpp - dist.redistribute to runtime calls --------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Lowers dist.redistribute: the steps of the redistribution planner's plan
// (Redistribution.h) as distrt_redist_* calls through intermediate tiles,
// on a grid of the common refinement where the two layouts' grids differ;
// partial sums as distrt_redist_reduce_scatter / _allreduce / _reduce;
// every other pair as the general exchange distrt_redistribute.
//
//===----------------------------------------------------------------------===//

#include "Instrumentation.h"
#include "SPMDBuilder.h"
#include "SPMDLowering.h"

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

using abi::dtypeOf;
using abi::layoutDescriptor;

/// A checked tile of the largest size `desc` gives a process.
static Value allocTile(SPMDBuilder &rt, OpBuilder &b, Location loc, Value g,
                       DistTensorType t, ArrayRef<int64_t> desc) {
  Value cap = rt.call(b, loc, "distrt_layout_tile_capacity",
                      {g, rt.constArray(b, loc, desc)});
  return rt.allocChecked(b, loc, rt.tileType(t),
                         ValueRange{rt.toIndex(b, loc, cap)},
                         "an intermediate tile of a redistribution");
}

/// Emits the steps of a plan from `src` (layout `from`) into `dst`
/// (layout of the last step), through intermediate tiles; an empty plan
/// is a local copy into layout `to`.
static void
emitPlanSteps(SPMDBuilder &rt, OpBuilder &b, Location loc, Value g,
              DistTensorType t, std::vector<RedistributionStep> steps,
              const ModeTuples &from, const ModeTuples &to, Value src,
              Value dst, Value dtype, const FixedAxes &fromFixed = {},
              const Blocks &fromBlocks = {}, const Blocks &toBlocks = {}) {
  SmallVector<int64_t> shape(t.getShape());
  if (steps.empty()) {
    RedistributionStep copy;
    copy.kind = RedistributionStep::Kind::LocalSlice;
    copy.after = to;
    copy.blocksAfter = toBlocks;
    steps.push_back(copy);
  }
  Value cur = src;
  ModeTuples curT = from;
  FixedAxes curF = fromFixed;
  Blocks curB = fromBlocks;
  for (auto [i, step] : llvm::enumerate(steps)) {
    bool last = i + 1 == steps.size();
    SmallVector<int64_t> desc = modeTupleDescriptor(
        step.after, shape, step.fixedAfter, step.blocksAfter);
    Value next = last ? dst : allocTile(rt, b, loc, g, t, desc);
    int64_t mask = 0;
    for (int64_t m : step.modes)
      mask |= int64_t(1) << m;
    Value sdesc =
        rt.constArray(b, loc, modeTupleDescriptor(curT, shape, curF, curB));
    Value ddesc = rt.constArray(b, loc, desc);
    Value axes = step.kind == RedistributionStep::Kind::LocalSlice
                     ? Value()
                     : rt.i64(b, loc, mask);
    Value scur = rt.ptrOf(b, loc, cur), snext = rt.ptrOf(b, loc, next);
    auto withAxes = [&](StringRef fn) {
      rt.call(b, loc, fn, {g, axes, sdesc, scur, ddesc, snext, dtype});
    };
    switch (step.kind) {
    case RedistributionStep::Kind::LocalSlice:
      rt.call(b, loc, "distrt_redist_slice",
              {g, sdesc, scur, ddesc, snext, dtype});
      break;
    case RedistributionStep::Kind::AllGather:
      withAxes("distrt_redist_allgather");
      break;
    case RedistributionStep::Kind::Permutation:
      withAxes("distrt_redist_permute");
      break;
    case RedistributionStep::Kind::AllToAll:
      withAxes("distrt_redist_alltoall");
      break;
    case RedistributionStep::Kind::Gather:
      withAxes("distrt_redist_gather");
      break;
    case RedistributionStep::Kind::Broadcast:
      withAxes("distrt_redist_bcast");
      break;
    case RedistributionStep::Kind::Scatter:
      withAxes("distrt_redist_scatter");
      break;
    case RedistributionStep::Kind::KindChange:
      withAxes("distrt_redist_kind");
      break;
    }
    if (cur != src)
      memref::DeallocOp::create(b, loc, cur);
    cur = next;
    curT = step.after;
    curF = step.fixedAfter;
    curB = step.blocksAfter;
  }
}

/// A one-level cpu grid of extents `shape` (the common refinement of two
/// grids a redistribution runs on): an existing one, or a new
/// `dist.grid @__dist_refined_N` at the start of the module.
static FlatSymbolRefAttr
refinedGridSymbol(SPMDBuilder &rt, ArrayRef<int64_t> shape, Location loc) {
  for (GridOp g : rt.module.getOps<GridOp>())
    if (g.getNumLevels() == 1 &&
        g.getLevel(0).getKind() == ProcessorKind::cpu && g.getShape() == shape)
      return FlatSymbolRefAttr::get(g.getSymNameAttr());
  MLIRContext *ctx = rt.module.getContext();
  std::string name = rt.freshName("__dist_refined_", rt.refinedCounter);
  OpBuilder mb = OpBuilder::atBlockBegin(rt.module.getBody());
  auto level = GridLevelAttr::get(ctx, shape, ProcessorKind::cpu);
  GridOp::create(mb, loc, StringAttr::get(ctx, name),
                 ArrayAttr::get(ctx, {level}));
  return FlatSymbolRefAttr::get(ctx, name);
}

/// dist.redistribute ... sum [...]: the thesis' reduction over the freed
/// modes into the destination, or an allreduce into the kept layout
/// followed by a redistribution.
static LogicalResult lowerPartialSum(SPMDBuilder &rt, RedistributeOp op,
                                     Value s, Value d) {
  DistTensorType st = op.getSource().getType();
  DistTensorType dt = op.getDest().getType();
  PartialSumPlan r =
      planPartialSum(op, rt.costModel, rt.options.redistribution == "general");
  if (!r.error.empty())
    return op.emitError("cannot lower this partial-sum redistribution: ")
           << r.error;
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type elt = st.getElementType();
  Value dtype = rt.i64(b, loc, dtypeOf(elt));
  Value g = rt.gridHandle(b, loc, st.getLayout().getGrid());
  SmallVector<int64_t> shape(dt.getShape());
  SmallVector<int64_t> sdesc =
      modeTupleDescriptor(r.from, SmallVector<int64_t>(st.getShape()));
  SmallVector<int64_t> kdesc = modeTupleDescriptor(r.kept, shape);
  SmallVector<int64_t> ddesc = kdesc;
  if (r.direct && r.kind == PartialSumPlan::Kind::ReduceScatter)
    ddesc = modeTupleDescriptor(*modeTuplesOf(dt), shape);
  if (r.direct && r.kind == PartialSumPlan::Kind::ReduceToOne) {
    ddesc.back() = r.freed.size();
    for (int64_t a : r.freed) {
      ddesc.push_back(a);
      ddesc.push_back(0);
    }
  }
  Value target = r.direct ? d : allocTile(rt, b, loc, g, dt, kdesc);
  StringRef fn = r.kind == PartialSumPlan::Kind::AllReduce
                     ? "distrt_redist_allreduce"
                 : r.kind == PartialSumPlan::Kind::ReduceScatter
                     ? "distrt_redist_reduce_scatter"
                     : "distrt_redist_reduce";
  rt.call(b, loc, fn,
          {g, rt.i64(b, loc, r.axesMask), rt.i64(b, loc, r.sumMask),
           rt.constArray(b, loc, sdesc), rt.ptrOf(b, loc, s),
           rt.constArray(b, loc, ddesc), rt.ptrOf(b, loc, target), dtype});
  if (!r.direct) {
    if (r.then) {
      emitPlanSteps(rt, b, loc, g, dt, r.then->steps, r.kept, *modeTuplesOf(dt),
                    target, d, dtype);
    } else {
      rt.call(b, loc, "distrt_redistribute",
              {g, rt.constArray(b, loc, kdesc), rt.ptrOf(b, loc, target),
               rt.gridHandle(b, loc, dt.getLayout().getGrid()),
               rt.constArray(b, loc, layoutDescriptor(dt)), rt.ptrOf(b, loc, d),
               dtype});
    }
    memref::DeallocOp::create(b, loc, target);
  }
  return success();
}

LogicalResult spmd::lowerRedistribute(SPMDBuilder &rt, RedistributeOp op) {
  DistTensorType st = op.getSource().getType();
  DistTensorType dt = op.getDest().getType();
  if (failed(rt.checkTensorType(op, st)) || failed(rt.checkTensorType(op, dt)))
    return failure();
  Value s = rt.tileOf(op, op.getSource()), d = rt.tileOf(op, op.getDest());
  if (!s || !d)
    return failure();
  if (op.getSum())
    return lowerPartialSum(rt, op, s, d);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value dtype = rt.i64(b, loc, dtypeOf(st.getElementType()));
  std::optional<RedistributionPlan> plan;
  OpRedistributionPlan r;
  if (rt.options.redistribution == "balanced") {
    r = planRedistributeOp(op, rt.costModel);
    plan = r.plan;
  }
  if (plan) {
    FlatSymbolRefAttr grid = st.getLayout().getGrid();
    if (!r.refinedGrid.empty())
      grid = refinedGridSymbol(rt, r.refinedGrid, loc);
    emitPlanSteps(rt, b, loc, rt.gridHandle(b, loc, grid), st, plan->steps,
                  r.from, r.to, s, d, dtype, r.fromFixed, r.fromBlocks,
                  r.toBlocks);
  } else {
    rt.call(b, loc, "distrt_redistribute",
            {rt.gridHandle(b, loc, st.getLayout().getGrid()),
             rt.constArray(b, loc, layoutDescriptor(st)), rt.ptrOf(b, loc, s),
             rt.gridHandle(b, loc, dt.getLayout().getGrid()),
             rt.constArray(b, loc, layoutDescriptor(dt)), rt.ptrOf(b, loc, d),
             dtype});
  }
  return success();
}
