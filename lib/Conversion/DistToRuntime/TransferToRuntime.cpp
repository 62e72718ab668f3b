//===- TransferToRuntime.cpp - transfers, boxes and tile views ------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Conversion patterns of convert-dist-to-runtime for the SPMD ops of
// transfers, boxes and tile views (DistTransferOps.td): the rank's grid
// coordinates, box copies between a tile and a buffer, the general
// exchange, permutations and the non-blocking transfers with their
// requests. Ops on a tile pass the tensor's grid handle, layout descriptor,
// the tile's pointer and element-type code, and a box as two i64 arrays on
// the stack (lo, size; [0] and [1] for an order-0 tensor). A !dist.request
// becomes the runtime's i64 request id, 0 for the null request.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

namespace {

/// A conversion pattern of this file: the shared RuntimeLowering and its
/// helpers.
template <typename OpTy> struct TransferPattern : OpConversionPattern<OpTy> {
  TransferPattern(const TypeConverter &converter, MLIRContext *ctx,
                  RuntimeLowering &lowering)
      : OpConversionPattern<OpTy>(converter, ctx), lowering(lowering) {}
  RuntimeLowering &lowering;

  LogicalResult fail(ConversionPatternRewriter &rewriter, OpTy op) const {
    return lowering.fail(rewriter, op, this->getTypeConverter());
  }
  Value c(OpBuilder &b, Location loc, int64_t v) const {
    return lowering.i64(b, loc, v);
  }
};

//===----------------------------------------------------------------------===//
// The rank's place in its grid
//===----------------------------------------------------------------------===//

/// dist.grid_coord -> distrt_grid_coord(grid, axis).
struct GridCoordLowering : TransferPattern<GridCoordOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(GridCoordOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value g = lowering.gridHandle(rewriter, loc, op, op.getGridAttr());
    if (!g)
      return fail(rewriter, op);
    FailureOr<Value> r = lowering.call(rewriter, loc, "distrt_grid_coord",
                                       {g, c(rewriter, loc, op.getAxis())});
    if (failed(r))
      return fail(rewriter, op);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    *r);
    return success();
  }
};

/// dist.axes_rank -> distrt_axes_rank(grid, mask of the axes).
struct AxesRankLowering : TransferPattern<AxesRankOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(AxesRankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value g = lowering.gridHandle(rewriter, loc, op, op.getGridAttr());
    if (!g)
      return fail(rewriter, op);
    FailureOr<Value> r =
        lowering.call(rewriter, loc, "distrt_axes_rank",
                      {g, lowering.axesMask(rewriter, loc, op.getAxes())});
    if (failed(r))
      return fail(rewriter, op);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    *r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tiles and boxes
//===----------------------------------------------------------------------===//

/// The arguments of a call on a tensor's tile: its grid handle, layout
/// descriptor, tile pointer and element-type code.
struct TileArgs {
  Value grid, desc, tile, dtype;
};

template <typename OpTy> struct TileOpPattern : TransferPattern<OpTy> {
  using TransferPattern<OpTy>::TransferPattern;

  /// Fails after a diagnostic when the tensor's grid has no handle.
  FailureOr<TileArgs> tileArgs(OpBuilder &b, OpTy op, Value tile) const {
    Location loc = op.getLoc();
    DistTensorType type = op.getTensor();
    RuntimeLowering &l = this->lowering;
    TileArgs a;
    a.grid = l.gridHandle(b, loc, op, type.getLayout().getGrid());
    if (!a.grid)
      return failure();
    a.desc = l.descriptor(b, loc, type);
    a.tile = l.ptrOf(b, loc, tile);
    a.dtype = l.i64(b, loc, abi::dtypeCode(type.getElementType()));
    return a;
  }

  /// The box's lo and size as i64 arrays on the stack (between saveStack
  /// and restoreStack); one point of one element for an order-0 tensor.
  std::pair<Value, Value> boxArrays(OpBuilder &b, Location loc, ValueRange lo,
                                    ValueRange sizes) const {
    RuntimeLowering &l = this->lowering;
    if (lo.empty())
      return {l.stackArray(b, loc, {l.i64(b, loc, 0)}),
              l.stackArray(b, loc, {l.i64(b, loc, 1)})};
    return {l.stackArray(b, loc, lo), l.stackArray(b, loc, sizes)};
  }
};

/// dist.zero_tile -> distrt_layout_zero(grid, desc, tile, dtype).
struct ZeroTileLowering : TileOpPattern<ZeroTileOp> {
  using TileOpPattern::TileOpPattern;
  LogicalResult
  matchAndRewrite(ZeroTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TileArgs> a = tileArgs(rewriter, op, adaptor.getTile());
    if (failed(a) ||
        failed(lowering.call(rewriter, op.getLoc(), "distrt_layout_zero",
                             {a->grid, a->desc, a->tile, a->dtype})))
      return fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }
};

/// dist.tile_view -> distrt_box_in_tile(grid, desc, lo, size) (the box's
/// offset in the tile, or -1) and a view of the tile at that offset (0 when
/// the box is not inside).
struct TileViewLowering : TileOpPattern<TileViewOp> {
  using TileOpPattern::TileOpPattern;
  LogicalResult
  matchAndRewrite(TileViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<TileArgs> a = tileArgs(rewriter, op, adaptor.getTile());
    if (failed(a))
      return fail(rewriter, op);
    Value saved = lowering.saveStack(rewriter, loc);
    auto [lo, size] =
        boxArrays(rewriter, loc, adaptor.getLo(), adaptor.getSizes());
    FailureOr<Value> at = lowering.call(rewriter, loc, "distrt_box_in_tile",
                                        {a->grid, a->desc, lo, size});
    lowering.restoreStack(rewriter, loc, saved);
    if (failed(at))
      return fail(rewriter, op);
    Value zero = c(rewriter, loc, 0);
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::sge, *at, zero);
    Value offset = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        arith::SelectOp::create(rewriter, loc, inside, *at, zero));
    Value vol = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (Value sz : adaptor.getSizes())
      vol = arith::MulIOp::create(rewriter, loc, vol, sz);
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, cast<MemRefType>(op.getView().getType()),
        adaptor.getTile(), OpFoldResult(offset),
        ArrayRef<OpFoldResult>{OpFoldResult(vol)},
        ArrayRef<OpFoldResult>{OpFoldResult(rewriter.getIndexAttr(1))});
    rewriter.replaceOp(op, {view, inside});
    return success();
  }
};

/// A box op -> `name`(grid, desc, tile, dtype, lo, size, buffer).
template <typename OpTy> struct BoxLowering : TileOpPattern<OpTy> {
  BoxLowering(const TypeConverter &converter, MLIRContext *ctx,
              RuntimeLowering &lowering, StringRef name)
      : TileOpPattern<OpTy>(converter, ctx, lowering), name(name) {}
  StringRef name;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RuntimeLowering &l = this->lowering;
    FailureOr<TileArgs> a = this->tileArgs(rewriter, op, adaptor.getTile());
    if (failed(a))
      return this->fail(rewriter, op);
    Value saved = l.saveStack(rewriter, loc);
    auto [lo, size] =
        this->boxArrays(rewriter, loc, adaptor.getLo(), adaptor.getSizes());
    Value buf = l.ptrOf(rewriter, loc, adaptor.getBuffer());
    FailureOr<Value> r =
        l.call(rewriter, loc, name,
               {a->grid, a->desc, a->tile, a->dtype, lo, size, buf});
    l.restoreStack(rewriter, loc, saved);
    if (failed(r))
      return this->fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }
};

/// dist.check_distinct -> distrt_check_distinct(out, in, statement, name).
struct CheckDistinctLowering : TransferPattern<CheckDistinctOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(CheckDistinctOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value out = lowering.ptrOf(rewriter, loc, adaptor.getOutput());
    Value in = lowering.ptrOf(rewriter, loc, adaptor.getInput());
    Value what = lowering.constString(rewriter, loc, op.getStatement());
    Value name = lowering.constString(rewriter, loc, op.getName());
    if (failed(lowering.call(rewriter, loc, "distrt_check_distinct",
                             {out, in, what, name})))
      return fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }
};

/// dist.onesided_matmul -> distrt_onesided_matmul(grid, dtype, descA, a,
/// descB, b, descC, c, stationary, offset, prefetch, accumulate) when the
/// three tensors are on one grid; distrt_onesided_matmul_grids(gridA,
/// gridB, gridC, dtype, ...) when they are not; with a batch,
/// distrt_onesided_matmul_batched(gridA, gridB, gridC, dtype, descBatch,
/// descA, a, ...).
struct OneSidedMatmulLowering : TransferPattern<OneSidedMatmulOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(OneSidedMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DistTensorType a = op.getTensorA(), b = op.getTensorB(),
                   c = op.getTensorC();
    std::optional<DistTensorType> batch = op.getTensorBatch();
    bool oneGrid = a.getLayout().getGrid() == c.getLayout().getGrid() &&
                   b.getLayout().getGrid() == c.getLayout().getGrid();
    SmallVector<Value> args;
    DistTensorType tensors[3] = {a, b, c};
    for (int x = 0; x < 3; ++x) {
      if (oneGrid && !batch && x != 2)
        continue;
      DistTensorType t = tensors[x];
      Value grid =
          lowering.gridHandle(rewriter, loc, op, t.getLayout().getGrid());
      if (!grid)
        return fail(rewriter, op);
      args.push_back(grid);
    }
    auto i64 = [&](int64_t v) { return lowering.i64(rewriter, loc, v); };
    // Layouts with dynamic extents are filled in and checked at run time,
    // in descriptors on the stack until the call returns.
    Value saved;
    if (!adaptor.getExtents().empty())
      saved = lowering.saveStack(rewriter, loc);
    args.push_back(i64(abi::dtypeCode(c.getElementType())));
    if (batch)
      args.push_back(lowering.descriptor(rewriter, loc, *batch));
    Value descs[3];
    Value mems[3] = {adaptor.getA(), adaptor.getB(), adaptor.getC()};
    ValueRange extents = adaptor.getExtents();
    for (int x = 0; x < 3; ++x) {
      if (tensors[x].hasStaticShape())
        continue;
      FailureOr<Value> d =
          dynamicDescriptor(rewriter, op, x, tensors[x], mems[x], extents);
      if (failed(d))
        return fail(rewriter, op);
      descs[x] = *d;
    }
    // Static descriptors are constant globals (in operand order, each
    // before its tile pointer).
    auto desc = [&](int x) {
      return descs[x] ? descs[x]
                      : lowering.descriptor(rewriter, loc, tensors[x]);
    };
    args.append({desc(0), lowering.ptrOf(rewriter, loc, adaptor.getA()),
                 desc(1), lowering.ptrOf(rewriter, loc, adaptor.getB()),
                 desc(2), lowering.ptrOf(rewriter, loc, adaptor.getC()),
                 i64(static_cast<int64_t>(op.getStationary())),
                 i64(op.getOffset() ? 1 : 0), i64(op.getPrefetch()),
                 i64(op.getAccumulate() ? 1 : 0)});
    StringRef callee = batch     ? "distrt_onesided_matmul_batched"
                       : oneGrid ? "distrt_onesided_matmul"
                                 : "distrt_onesided_matmul_grids";
    if (failed(lowering.call(rewriter, loc, callee, args)))
      return fail(rewriter, op);
    if (saved)
      lowering.restoreStack(rewriter, loc, saved);
    rewriter.eraseOp(op);
    return success();
  }

  /// Operand x's layout descriptor with dynamic extents: the template
  /// filled in with the next of `extents` (consumed) by
  /// distrt_layout_with_extents, then distrt_layout_check_tile on the tile's
  /// size (both fatal naming the operand).
  FailureOr<Value> dynamicDescriptor(ConversionPatternRewriter &rewriter,
                                     OneSidedMatmulOp op, int x,
                                     DistTensorType t, Value mem,
                                     ValueRange &extents) const {
    Location loc = op.getLoc();
    int64_t n = t.getNumDynamicDims();
    Value ext = lowering.stackArray(rewriter, loc, extents.take_front(n));
    extents = extents.drop_front(n);
    auto ptrTy = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value out = LLVM::AllocaOp::create(
        rewriter, loc, ptrTy, rewriter.getI64Type(),
        lowering.i64(rewriter, loc, abi::maxDescriptorLength()));
    std::string what = "operand " + std::string(1, "ABC"[x]);
    if (std::optional<ArrayAttr> names = op.getOperandNames())
      what = cast<StringAttr>((*names)[x]).getValue().str();
    llvm::raw_string_ostream(what) << " of type " << t;
    Value fn = lowering.constString(rewriter, loc, "dist.onesided_matmul");
    Value whatStr = lowering.constString(rewriter, loc, what);
    Value tmpl = lowering.descriptor(rewriter, loc, t);
    if (failed(lowering.call(rewriter, loc, "distrt_layout_with_extents",
                             {tmpl, ext, out, fn, whatStr})))
      return failure();
    Value grid =
        lowering.gridHandle(rewriter, loc, op, t.getLayout().getGrid());
    Value ptr, count;
    int64_t dtype;
    if (!grid ||
        failed(lowering.buffer(rewriter, loc, op, mem, ptr, count, dtype)) ||
        failed(lowering.call(rewriter, loc, "distrt_layout_check_tile",
                             {grid, out, count, fn, whatStr})))
      return failure();
    return out;
  }
};

//===----------------------------------------------------------------------===//
// Permutations and asynchronous transfers
//===----------------------------------------------------------------------===//

/// A buffer as a runtime call takes it.
struct Buf {
  Value ptr, count;
  int64_t dtype = 0;
};

/// A transfer on buffers -> one call (`emit`) with the grid handle and the
/// buffers as (pointer, element count, dtype code); its result, if any,
/// replaces the op (a request id).
template <typename OpTy, typename Derived>
struct BufferTransferLowering : TransferPattern<OpTy> {
  using TransferPattern<OpTy>::TransferPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RuntimeLowering &l = this->lowering;
    Value g = l.gridHandle(rewriter, loc, op, op.getGridAttr());
    if (!g)
      return this->fail(rewriter, op);
    SmallVector<Buf, 2> bufs;
    for (Value mem : Derived::buffers(adaptor)) {
      Buf buf;
      if (failed(
              l.buffer(rewriter, loc, op, mem, buf.ptr, buf.count, buf.dtype)))
        return this->fail(rewriter, op);
      bufs.push_back(buf);
    }
    FailureOr<Value> r = static_cast<const Derived *>(this)->emit(
        rewriter, op, adaptor, g, bufs);
    if (failed(r))
      return this->fail(rewriter, op);
    if (op->getNumResults())
      rewriter.replaceOp(op, *r);
    else
      rewriter.eraseOp(op);
    return success();
  }

  FailureOr<Value> call(OpBuilder &b, Location loc, StringRef name,
                        ValueRange args) const {
    return this->lowering.call(b, loc, name, args);
  }
  Value idx(OpBuilder &b, Location loc, Value v) const {
    return this->lowering.toI64(b, loc, v);
  }
};

/// dist.permute / dist.start_permute -> distrt_permute / distrt_ipermute.
template <typename OpTy>
struct PermuteLowering : BufferTransferLowering<OpTy, PermuteLowering<OpTy>> {
  PermuteLowering(const TypeConverter &converter, MLIRContext *ctx,
                  RuntimeLowering &lowering, StringRef name)
      : BufferTransferLowering<OpTy, PermuteLowering<OpTy>>(converter, ctx,
                                                            lowering),
        name(name) {}
  StringRef name;

  static SmallVector<Value, 2> buffers(typename OpTy::Adaptor a) {
    return {a.getSend(), a.getRecv()};
  }
  FailureOr<Value> emit(OpBuilder &b, OpTy op, typename OpTy::Adaptor a,
                        Value g, ArrayRef<Buf> bufs) const {
    Location l = op.getLoc();
    return this->call(b, l, name,
                      {g, bufs[0].ptr, bufs[0].count,
                       this->idx(b, l, a.getDest()), bufs[1].ptr, bufs[1].count,
                       this->idx(b, l, a.getSource()),
                       this->c(b, l, bufs[0].dtype)});
  }
};

/// dist.start_broadcast -> distrt_ibcast(grid, mask, buf, n, dtype, root).
struct StartBroadcastLowering
    : BufferTransferLowering<StartBroadcastOp, StartBroadcastLowering> {
  using BufferTransferLowering::BufferTransferLowering;
  static SmallVector<Value, 2> buffers(OpAdaptor a) { return {a.getBuffer()}; }
  FailureOr<Value> emit(OpBuilder &b, StartBroadcastOp op, OpAdaptor a, Value g,
                        ArrayRef<Buf> bufs) const {
    Location l = op.getLoc();
    return call(b, l, "distrt_ibcast",
                {g, lowering.axesMask(b, l, op.getAxes()), bufs[0].ptr,
                 bufs[0].count, c(b, l, bufs[0].dtype),
                 idx(b, l, a.getRoot())});
  }
};

/// dist.start_shift -> distrt_ishift(grid, axis, offset, in, out, n, dtype).
struct StartShiftLowering
    : BufferTransferLowering<StartShiftOp, StartShiftLowering> {
  using BufferTransferLowering::BufferTransferLowering;
  static SmallVector<Value, 2> buffers(OpAdaptor a) {
    return {a.getInput(), a.getOutput()};
  }
  FailureOr<Value> emit(OpBuilder &b, StartShiftOp op, OpAdaptor, Value g,
                        ArrayRef<Buf> bufs) const {
    Location l = op.getLoc();
    return call(b, l, "distrt_ishift",
                {g, c(b, l, op.getAxis()), c(b, l, op.getOffset()), bufs[0].ptr,
                 bufs[1].ptr, bufs[0].count, c(b, l, bufs[0].dtype)});
  }
};

/// dist.start_allgather -> distrt_iallgather(grid, mask, in, out, n, dtype).
struct StartAllGatherLowering
    : BufferTransferLowering<StartAllGatherOp, StartAllGatherLowering> {
  using BufferTransferLowering::BufferTransferLowering;
  static SmallVector<Value, 2> buffers(OpAdaptor a) {
    return {a.getInput(), a.getOutput()};
  }
  FailureOr<Value> emit(OpBuilder &b, StartAllGatherOp op, OpAdaptor, Value g,
                        ArrayRef<Buf> bufs) const {
    Location l = op.getLoc();
    return call(b, l, "distrt_iallgather",
                {g, lowering.axesMask(b, l, op.getAxes()), bufs[0].ptr,
                 bufs[1].ptr, bufs[0].count, c(b, l, bufs[0].dtype)});
  }
};

/// dist.null_request -> request id 0.
struct NullRequestLowering : TransferPattern<NullRequestOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(NullRequestOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, c(rewriter, op.getLoc(), 0));
    return success();
  }
};

/// dist.wait -> distrt_wait(id) unless the id is 0 (the null request).
struct WaitLowering : TransferPattern<WaitOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value req = adaptor.getRequest();
    Value pending = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, req, c(rewriter, loc, 0));
    bool ok = true;
    scf::IfOp::create(rewriter, loc, pending, [&](OpBuilder &b, Location l) {
      ok = succeeded(lowering.call(b, l, "distrt_wait", {req}));
      scf::YieldOp::create(b, l);
    });
    if (!ok)
      return fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::dist::rt::populateTransferToRuntimePatterns(
    RewritePatternSet &patterns, TypeConverter &converter,
    RuntimeLowering &lowering) {
  converter.addConversion([](RequestType t) -> Type {
    return IntegerType::get(t.getContext(), 64);
  });
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GridCoordLowering, AxesRankLowering, ZeroTileLowering,
               TileViewLowering, CheckDistinctLowering, OneSidedMatmulLowering,
               StartBroadcastLowering, StartShiftLowering,
               StartAllGatherLowering, NullRequestLowering, WaitLowering>(
      converter, ctx, lowering);
  patterns.add<BoxLowering<CopyBoxOp>>(converter, ctx, lowering,
                                       "distrt_copy_box_local");
  patterns.add<BoxLowering<AddBoxOp>>(converter, ctx, lowering,
                                      "distrt_add_box_local");
  patterns.add<BoxLowering<FetchBoxOp>>(converter, ctx, lowering,
                                        "distrt_fetch_box");
  patterns.add<BoxLowering<AccumulateBoxOp>>(converter, ctx, lowering,
                                             "distrt_accumulate_box");
  patterns.add<PermuteLowering<PermuteOp>>(converter, ctx, lowering,
                                           "distrt_permute");
  patterns.add<PermuteLowering<StartPermuteOp>>(converter, ctx, lowering,
                                                "distrt_ipermute");
}
