//===- Redistribute.cpp - dist.redistribute to runtime calls --------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Lowers dist.redistribute: the steps of the redistribution planner's plan
// (Redistribution.h) as dist.redist_* ops through intermediate tiles, on a
// grid of the common refinement where the two layouts' grids differ;
// partial sums as dist.redist_reduce_scatter / _allreduce / _reduce; every
// other pair as the general exchange dist.redistribute_tile. The layouts
// of the steps (mode tuples) are !dist.tensor types whose descriptors
// convert-dist-to-runtime builds.
//
//===----------------------------------------------------------------------===//

#include "Instrumentation.h"
#include "SPMDBuilder.h"
#include "SPMDLowering.h"

#include "DistTensor/Analysis/Redistribution.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

/// A tensor of extents `shape` and element type `elt` laid out as the mode
/// tuples `tuples` (fixed on `fixed`, dimension d dealt in blocks of
/// `blocks[d]` when that is above 1) on grid `grid`.
static DistTensorType modeTupleType(FlatSymbolRefAttr grid,
                                    ArrayRef<int64_t> shape, Type elt,
                                    const ModeTuples &tuples,
                                    const FixedAxes &fixed = {},
                                    const Blocks &blocks = {}) {
  MLIRContext *ctx = grid.getContext();
  SmallVector<DimDistAttr> dims;
  for (auto [d, tuple] : llvm::enumerate(tuples)) {
    int64_t block = d < blocks.size() ? blocks[d] : 1;
    if (tuple.empty())
      dims.push_back(DimDistAttr::get(ctx, {}, PartitionKind::none, 0));
    else if (block > 1)
      dims.push_back(
          DimDistAttr::get(ctx, tuple, PartitionKind::block_cyclic, block));
    else
      dims.push_back(DimDistAttr::get(ctx, tuple, PartitionKind::cyclic, 0));
  }
  SmallVector<int64_t> fixedAxes, fixedCoords;
  for (auto [a, c] : fixed) {
    fixedAxes.push_back(a);
    fixedCoords.push_back(c);
  }
  auto level = LevelLayoutAttr::get(ctx, dims, fixedAxes, fixedCoords);
  return DistTensorType::get(ctx, shape, elt,
                             LayoutAttr::get(ctx, grid, {level}));
}

/// A checked tile of the largest size a process holds of `t`.
static Value allocTile(SPMDBuilder &rt, OpBuilder &b, Location loc,
                       DistTensorType t) {
  Value cap = TileCapacityOp::create(b, loc, b.getIndexType(), t);
  return rt.allocChecked(b, loc, rt.tileType(t), ValueRange{cap},
                         "an intermediate tile of a redistribution");
}

/// One step of a plan from tile `src` (layout `from`) into tile `dst`
/// (layout `to`).
static void emitStep(OpBuilder &b, Location loc, const RedistributionStep &step,
                     Value src, DistTensorType from, Value dst,
                     DistTensorType to) {
  SmallVector<int64_t> axes(step.modes);
  switch (step.kind) {
  case RedistributionStep::Kind::LocalSlice:
    RedistSliceOp::create(b, loc, src, from, dst, to);
    return;
  case RedistributionStep::Kind::AllGather:
    RedistAllGatherOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::Permutation:
    RedistPermuteOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::AllToAll:
    RedistAllToAllOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::Gather:
    RedistGatherOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::Broadcast:
    RedistBroadcastOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::Scatter:
    RedistScatterOp::create(b, loc, src, from, dst, to, axes);
    return;
  case RedistributionStep::Kind::KindChange:
    RedistChangeKindOp::create(b, loc, src, from, dst, to, axes);
    return;
  }
}

/// Emits the steps of a plan on grid `grid` from `src` (layout `from`)
/// into `dst` (layout of the last step), through intermediate tiles; an
/// empty plan is a local copy into layout `to`. `t` gives the shape and
/// element type. With `mesh` (the grid's extents), runs of exchanges that
/// the cost model prices lower as one run as one (mergeExchangeSteps).
static void emitPlanSteps(SPMDBuilder &rt, OpBuilder &b, Location loc,
                          FlatSymbolRefAttr grid, DistTensorType t,
                          std::vector<RedistributionStep> steps,
                          const ModeTuples &from, const ModeTuples &to,
                          Value src, Value dst, const FixedAxes &fromFixed = {},
                          const Blocks &fromBlocks = {},
                          const Blocks &toBlocks = {},
                          ArrayRef<int64_t> mesh = {}) {
  ArrayRef<int64_t> shape = t.getShape();
  Type elt = t.getElementType();
  if (!mesh.empty())
    steps = mergeExchangeSteps(std::move(steps), from, !fromFixed.empty(), mesh,
                               shape, rt.costModel);
  if (steps.empty()) {
    RedistributionStep copy;
    copy.kind = RedistributionStep::Kind::LocalSlice;
    copy.after = to;
    copy.blocksAfter = toBlocks;
    steps.push_back(copy);
  }
  Value cur = src;
  DistTensorType curT =
      modeTupleType(grid, shape, elt, from, fromFixed, fromBlocks);
  for (auto [i, step] : llvm::enumerate(steps)) {
    bool last = i + 1 == steps.size();
    DistTensorType nextT = modeTupleType(grid, shape, elt, step.after,
                                         step.fixedAfter, step.blocksAfter);
    Value next = last ? dst : allocTile(rt, b, loc, nextT);
    emitStep(b, loc, step, cur, curT, next, nextT);
    if (cur != src)
      memref::DeallocOp::create(b, loc, cur);
    cur = next;
    curT = nextT;
  }
}

/// A one-level grid of `kind` and extents `shape` (the common refinement of
/// two grids a redistribution runs on): an existing one, or a new
/// `dist.grid @__dist_refined_N` at the start of the module.
static FlatSymbolRefAttr refinedGridSymbol(SPMDBuilder &rt,
                                           ArrayRef<int64_t> shape,
                                           ProcessorKind kind, Location loc) {
  for (GridOp g : rt.module.getOps<GridOp>())
    if (g.getNumLevels() == 1 && g.getLevel(0).getKind() == kind &&
        g.getShape() == shape)
      return FlatSymbolRefAttr::get(g.getSymNameAttr());
  MLIRContext *ctx = rt.module.getContext();
  std::string name = rt.freshName("__dist_refined_", rt.refinedCounter);
  OpBuilder mb = OpBuilder::atBlockBegin(rt.module.getBody());
  auto level = GridLevelAttr::get(ctx, shape, kind);
  GridOp::create(mb, loc, StringAttr::get(ctx, name),
                 ArrayAttr::get(ctx, {level}));
  return FlatSymbolRefAttr::get(ctx, name);
}

/// The bits set in `mask`, lowest first.
static SmallVector<int64_t> bitsOf(int64_t mask) {
  SmallVector<int64_t> bits;
  for (int64_t i = 0; i < 63; ++i)
    if (mask >> i & 1)
      bits.push_back(i);
  return bits;
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
  FlatSymbolRefAttr grid = st.getLayout().getGrid();
  ArrayRef<int64_t> shape = dt.getShape();
  DistTensorType fromT = modeTupleType(grid, st.getShape(), elt, r.from);
  DistTensorType keptT = modeTupleType(grid, shape, elt, r.kept);
  DistTensorType toT = keptT;
  if (r.direct && r.kind == PartialSumPlan::Kind::ReduceScatter)
    toT = modeTupleType(grid, shape, elt, *modeTuplesOf(dt));
  if (r.direct && r.kind == PartialSumPlan::Kind::ReduceToOne) {
    FixedAxes fixed;
    for (int64_t a : r.freed)
      fixed.push_back({a, 0});
    toT = modeTupleType(grid, shape, elt, r.kept, fixed);
  }
  Value target = r.direct ? d : allocTile(rt, b, loc, keptT);
  SmallVector<int64_t> axes = bitsOf(r.axesMask), sum = bitsOf(r.sumMask);
  if (r.kind == PartialSumPlan::Kind::AllReduce)
    RedistAllReduceOp::create(b, loc, s, fromT, target, toT, axes, sum);
  else if (r.kind == PartialSumPlan::Kind::ReduceScatter)
    RedistReduceScatterOp::create(b, loc, s, fromT, target, toT, axes, sum);
  else
    RedistReduceOp::create(b, loc, s, fromT, target, toT, axes, sum);
  if (!r.direct) {
    if (r.then)
      emitPlanSteps(rt, b, loc, grid, dt, r.then->steps, r.kept,
                    *modeTuplesOf(dt), target, d);
    else
      RedistributeTileOp::create(b, loc, target, keptT, d, dt);
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
  std::optional<RedistributionPlan> plan;
  OpRedistributionPlan r;
  if (rt.options.redistribution == "balanced") {
    r = planRedistributeOp(op, rt.costModel);
    plan = r.plan;
  }
  if (plan) {
    FlatSymbolRefAttr grid = st.getLayout().getGrid();
    if (!r.refinedGrid.empty()) {
      auto g = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, grid);
      if (!g)
        return op.emitOpError("names the grid ")
               << grid << ", which is not a dist.grid";
      grid = refinedGridSymbol(rt, r.refinedGrid, g.getLevel(0).getKind(),
                               loc);
    }
    emitPlanSteps(rt, b, loc, grid, st, plan->steps, r.from, r.to, s, d,
                  r.fromFixed, r.fromBlocks, r.toBlocks, r.mesh);
  } else {
    RedistributeTileOp::create(b, loc, s, st, d, dt);
  }
  return success();
}
