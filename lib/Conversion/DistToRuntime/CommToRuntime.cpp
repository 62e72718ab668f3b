//===- CommToRuntime.cpp - grid handles and blocking communication --------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Conversion patterns of convert-dist-to-runtime for dist.grid_handle and
// the blocking communication ops on buffers: each becomes one call of the
// matching distrt function with the grid handle, a mask of the group's
// axes, the buffer's pointer, its element count and element-type code.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

namespace {

/// dist.grid_handle -> distrt_grid_lookup through the grid's cache slot.
struct GridHandleLowering : OpConversionPattern<GridHandleOp> {
  GridHandleLowering(MLIRContext *ctx, RuntimeLowering &lowering)
      : OpConversionPattern(ctx), lowering(lowering) {}
  RuntimeLowering &lowering;

  LogicalResult
  matchAndRewrite(GridHandleOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value h = lowering.gridHandle(rewriter, op.getLoc(), op, op.getGridAttr());
    if (!h)
      return lowering.fail(rewriter, op);
    rewriter.replaceOp(op, h);
    return success();
  }
};

/// The arguments every communication call starts with.
struct CommArgs {
  Value grid;
  Value p1, n1, p2, n2;
  int64_t t1 = 0, t2 = 0;
};

/// One communication op on buffers -> one distrt call. `Derived` supplies
/// `buffers(op)` (the op's one or two buffers) and `emit(op, args, b)`.
template <typename OpTy, typename Derived>
struct CommLowering : OpConversionPattern<OpTy> {
  CommLowering(MLIRContext *ctx, RuntimeLowering &lowering)
      : OpConversionPattern<OpTy>(ctx), lowering(lowering) {}
  RuntimeLowering &lowering;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CommArgs a;
    a.grid = lowering.gridHandle(rewriter, loc, op, op.getGridAttr());
    if (!a.grid)
      return lowering.fail(rewriter, op);
    SmallVector<Value, 2> bufs = Derived::buffers(op);
    if (failed(lowering.buffer(rewriter, loc, op, bufs[0], a.p1, a.n1, a.t1)))
      return lowering.fail(rewriter, op);
    if (bufs.size() > 1 &&
        failed(lowering.buffer(rewriter, loc, op, bufs[1], a.p2, a.n2, a.t2)))
      return lowering.fail(rewriter, op);
    if (failed(static_cast<const Derived *>(this)->emit(op, a, rewriter)))
      return lowering.fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }

  Value c(OpBuilder &b, Location loc, int64_t v) const {
    return lowering.i64(b, loc, v);
  }
  Value mask(OpBuilder &b, Location loc, ArrayRef<int64_t> axes) const {
    return lowering.axesMask(b, loc, axes);
  }
  Value idx(OpBuilder &b, Location loc, Value v) const {
    return lowering.toI64(b, loc, v);
  }
  LogicalResult call(OpBuilder &b, Location loc, StringRef name,
                     ValueRange args) const {
    return lowering.call(b, loc, name, args);
  }
};

#define DIST_COMM_PATTERN(NAME, OP)                                            \
  struct NAME : CommLowering<OP, NAME> {                                       \
    using CommLowering::CommLowering;                                          \
    static SmallVector<Value, 2> buffers(OP op);                               \
    LogicalResult emit(OP op, const CommArgs &a, OpBuilder &b) const;          \
  };

DIST_COMM_PATTERN(BroadcastLowering, BroadcastOp)
DIST_COMM_PATTERN(AllReduceLowering, AllReduceOp)
DIST_COMM_PATTERN(ReduceLowering, ReduceOp)
DIST_COMM_PATTERN(AllGatherLowering, AllGatherOp)
DIST_COMM_PATTERN(ReduceScatterLowering, ReduceScatterOp)
DIST_COMM_PATTERN(ReduceScatterBlocksLowering, ReduceScatterBlocksOp)
DIST_COMM_PATTERN(AllToAllLowering, AllToAllOp)
DIST_COMM_PATTERN(GatherLowering, GatherOp)
DIST_COMM_PATTERN(ScatterLowering, ScatterOp)
DIST_COMM_PATTERN(ShiftLowering, ShiftOp)
DIST_COMM_PATTERN(SendLowering, SendOp)
DIST_COMM_PATTERN(RecvLowering, RecvOp)
#undef DIST_COMM_PATTERN

SmallVector<Value, 2> BroadcastLowering::buffers(BroadcastOp op) {
  return {op.getBuffer()};
}
LogicalResult BroadcastLowering::emit(BroadcastOp op, const CommArgs &a,
                                      OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_bcast",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.n1, c(b, l, a.t1),
               idx(b, l, op.getRoot())});
}

SmallVector<Value, 2> AllReduceLowering::buffers(AllReduceOp op) {
  return {op.getBuffer()};
}
LogicalResult AllReduceLowering::emit(AllReduceOp op, const CommArgs &a,
                                      OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_allreduce",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.n1, c(b, l, a.t1),
               c(b, l, (int64_t)op.getKind())});
}

SmallVector<Value, 2> ReduceLowering::buffers(ReduceOp op) {
  return {op.getBuffer()};
}
LogicalResult ReduceLowering::emit(ReduceOp op, const CommArgs &a,
                                   OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_reduce",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.n1, c(b, l, a.t1),
               c(b, l, (int64_t)op.getKind()), idx(b, l, op.getRoot())});
}

SmallVector<Value, 2> AllGatherLowering::buffers(AllGatherOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult AllGatherLowering::emit(AllGatherOp op, const CommArgs &a,
                                      OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_allgather",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.p2, a.n1,
               c(b, l, a.t1)});
}

SmallVector<Value, 2> ReduceScatterLowering::buffers(ReduceScatterOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult ReduceScatterLowering::emit(ReduceScatterOp op,
                                          const CommArgs &a,
                                          OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_reduce_scatter",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.p2, a.n2,
               c(b, l, a.t1), c(b, l, (int64_t)op.getKind())});
}

SmallVector<Value, 2>
ReduceScatterBlocksLowering::buffers(ReduceScatterBlocksOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult ReduceScatterBlocksLowering::emit(ReduceScatterBlocksOp op,
                                                const CommArgs &a,
                                                OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_reduce_scatter_blocks",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.n1, a.p2, a.n2,
               idx(b, l, op.getBlock()), c(b, l, a.t1),
               c(b, l, (int64_t)op.getKind())});
}

SmallVector<Value, 2> AllToAllLowering::buffers(AllToAllOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult AllToAllLowering::emit(AllToAllOp op, const CommArgs &a,
                                     OpBuilder &b) const {
  Location l = op.getLoc();
  int64_t group = productOfAxes(lowering.gridShape(op.getGridAttr()),
                                op.getAxes());
  Value perPair = LLVM::SDivOp::create(b, l, a.n1, c(b, l, group));
  return call(b, l, "distrt_alltoall",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.p2, perPair,
               c(b, l, a.t1)});
}

SmallVector<Value, 2> GatherLowering::buffers(GatherOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult GatherLowering::emit(GatherOp op, const CommArgs &a,
                                   OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_gather",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.p2, a.n1,
               c(b, l, a.t1), idx(b, l, op.getRoot())});
}

SmallVector<Value, 2> ScatterLowering::buffers(ScatterOp op) {
  return {op.getInput(), op.getOutput()};
}
LogicalResult ScatterLowering::emit(ScatterOp op, const CommArgs &a,
                                    OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_scatter",
              {a.grid, mask(b, l, op.getAxes()), a.p1, a.p2, a.n2,
               c(b, l, a.t1), idx(b, l, op.getRoot())});
}

SmallVector<Value, 2> ShiftLowering::buffers(ShiftOp op) {
  return {op.getBuffer()};
}
LogicalResult ShiftLowering::emit(ShiftOp op, const CommArgs &a,
                                  OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_shift",
              {a.grid, c(b, l, (int64_t)op.getAxis()),
               c(b, l, (int64_t)op.getOffset()), a.p1, a.n1, c(b, l, a.t1)});
}

SmallVector<Value, 2> SendLowering::buffers(SendOp op) {
  return {op.getBuffer()};
}
LogicalResult SendLowering::emit(SendOp op, const CommArgs &a,
                                 OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_send",
              {a.grid, a.p1, a.n1, c(b, l, a.t1), idx(b, l, op.getDest()),
               c(b, l, (int64_t)op.getTag())});
}

SmallVector<Value, 2> RecvLowering::buffers(RecvOp op) {
  return {op.getBuffer()};
}
LogicalResult RecvLowering::emit(RecvOp op, const CommArgs &a,
                                 OpBuilder &b) const {
  Location l = op.getLoc();
  return call(b, l, "distrt_recv",
              {a.grid, a.p1, a.n1, c(b, l, a.t1), idx(b, l, op.getSource()),
               c(b, l, (int64_t)op.getTag())});
}

} // namespace

void mlir::dist::rt::populateCommToRuntimePatterns(RewritePatternSet &patterns,
                                                   RuntimeLowering &lowering) {
  patterns.add<GridHandleLowering, BroadcastLowering, AllReduceLowering,
               ReduceLowering, AllGatherLowering, ReduceScatterLowering,
               ReduceScatterBlocksLowering, AllToAllLowering, GatherLowering,
               ScatterLowering, ShiftLowering, SendLowering, RecvLowering>(
      patterns.getContext(), lowering);
}
