//===- KernelToRuntime.cpp - kernels, tiles, steps and checks -------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Conversion patterns of convert-dist-to-runtime for the ops of
// DistKernelOps.td: the runtime's lifetime, local tiles, leaf kernels,
// redistribution steps and the check and timing instrumentation. Each op
// becomes one distrt call (three for dist.reference): tiles and buffers as
// pointers, tensor types as layout descriptors with the handle of their
// layout's grid, element types as dtype codes (or, for the BLAS leaves, the
// f32 / f64 function), strings and shapes as constant globals.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

namespace {

/// One op -> runtime calls by `fn`, which returns the op's result (null for
/// an op without one) or fails after a diagnostic.
template <typename OpTy>
struct KernelLowering : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using LowerFn = FailureOr<Value> (*)(RuntimeLowering &, OpTy, Adaptor,
                                       OpBuilder &);
  KernelLowering(MLIRContext *ctx, RuntimeLowering &lowering, LowerFn fn)
      : OpConversionPattern<OpTy>(ctx), lowering(lowering), fn(fn) {}
  RuntimeLowering &lowering;
  LowerFn fn;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> result = fn(lowering, op, adaptor, rewriter);
    if (failed(result))
      return lowering.fail(rewriter, op);
    if (op->getNumResults())
      rewriter.replaceOp(op, *result);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// A call whose result the op does not have.
static FailureOr<Value> callVoid(RuntimeLowering &rt, OpBuilder &b,
                                 Location loc, StringRef name,
                                 ValueRange args) {
  if (failed(rt.call(b, loc, name, args)))
    return failure();
  return Value();
}

/// The handle of the grid of `t`'s layout.
static FailureOr<Value> gridOf(RuntimeLowering &rt, OpBuilder &b, Operation *op,
                               DistTensorType t) {
  Value g = rt.gridHandle(b, op->getLoc(), op, t.getLayout().getGrid());
  if (!g)
    return failure();
  return g;
}

static FailureOr<Value> gridOf(RuntimeLowering &rt, OpBuilder &b, Operation *op,
                               FlatSymbolRefAttr grid) {
  Value g = rt.gridHandle(b, op->getLoc(), op, grid);
  if (!g)
    return failure();
  return g;
}

/// The dtype code of `t`'s element type.
static Value dtypeOf(RuntimeLowering &rt, OpBuilder &b, Location loc, Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    t = shaped.getElementType();
  else if (auto tensor = dyn_cast<DistTensorType>(t))
    t = tensor.getElementType();
  return rt.i64(b, loc, abi::dtypeOf(t));
}

/// The mask of `bits` (bit i for each i).
static int64_t maskOf(ArrayRef<int64_t> bits) {
  int64_t m = 0;
  for (int64_t i : bits)
    m |= int64_t(1) << i;
  return m;
}

//===----------------------------------------------------------------------===//
// Lifetime and tiles
//===----------------------------------------------------------------------===//

static FailureOr<Value> lowerInit(RuntimeLowering &rt, RuntimeInitOp op,
                                  RuntimeInitOp::Adaptor, OpBuilder &b) {
  return callVoid(rt, b, op.getLoc(), "distrt_init", {});
}

static FailureOr<Value> lowerFinalize(RuntimeLowering &rt, RuntimeFinalizeOp op,
                                      RuntimeFinalizeOp::Adaptor,
                                      OpBuilder &b) {
  return callVoid(rt, b, op.getLoc(), "distrt_finalize", {});
}

static FailureOr<Value> lowerTileCapacity(RuntimeLowering &rt,
                                          TileCapacityOp op,
                                          TileCapacityOp::Adaptor,
                                          OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getTensor());
  if (failed(g))
    return failure();
  FailureOr<Value> cap = rt.call(b, loc, "distrt_layout_tile_capacity",
                                 {*g, rt.descriptor(b, loc, op.getTensor())});
  if (failed(cap))
    return failure();
  return Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), *cap));
}

static FailureOr<Value> lowerCheckAlloc(RuntimeLowering &rt, CheckAllocOp op,
                                        CheckAllocOp::Adaptor adaptor,
                                        OpBuilder &b) {
  Location loc = op.getLoc();
  Value mem = adaptor.getBuffer();
  auto type = cast<MemRefType>(mem.getType());
  Value bytes = rt.i64(b, loc, type.getElementTypeBitWidth() / 8);
  for (auto [d, e] : llvm::enumerate(type.getShape())) {
    Value n = ShapedType::isDynamic(e)
                  ? rt.toI64(b, loc, memref::DimOp::create(b, loc, mem, d))
                  : rt.i64(b, loc, e);
    bytes = LLVM::MulOp::create(b, loc, bytes, n);
  }
  return callVoid(
      rt, b, loc, "distrt_check_alloc",
      {rt.ptrOf(b, loc, mem), bytes, rt.constString(b, loc, op.getWhat())});
}

/// dist.device_alloc: the pointer of distrt_device_alloc in a memref
/// descriptor (offset 0, stride 1), which memref-to-llvm takes as it is.
static FailureOr<Value> lowerDeviceAlloc(RuntimeLowering &rt, DeviceAllocOp op,
                                         DeviceAllocOp::Adaptor adaptor,
                                         OpBuilder &b) {
  Location loc = op.getLoc();
  auto type = cast<MemRefType>(op.getBuffer().getType());
  Value count = adaptor.getSize() ? rt.toI64(b, loc, adaptor.getSize())
                                  : rt.i64(b, loc, type.getDimSize(0));
  Value bytes = LLVM::MulOp::create(
      b, loc, count, rt.i64(b, loc, type.getElementTypeBitWidth() / 8));
  FailureOr<Value> p = rt.call(b, loc, "distrt_device_alloc", {bytes});
  if (failed(p))
    return failure();
  Type i64 = b.getI64Type();
  auto descTy = LLVM::LLVMStructType::getLiteral(
      b.getContext(),
      {rt.ptrTy, rt.ptrTy, i64, LLVM::LLVMArrayType::get(i64, 1),
       LLVM::LLVMArrayType::get(i64, 1)});
  Value d = LLVM::PoisonOp::create(b, loc, descTy);
  d = LLVM::InsertValueOp::create(b, loc, d, *p, ArrayRef<int64_t>{0});
  d = LLVM::InsertValueOp::create(b, loc, d, *p, ArrayRef<int64_t>{1});
  d = LLVM::InsertValueOp::create(b, loc, d, rt.i64(b, loc, 0),
                                  ArrayRef<int64_t>{2});
  d = LLVM::InsertValueOp::create(b, loc, d, count, ArrayRef<int64_t>{3, 0});
  d = LLVM::InsertValueOp::create(b, loc, d, rt.i64(b, loc, 1),
                                  ArrayRef<int64_t>{4, 0});
  return UnrealizedConversionCastOp::create(b, loc, type, d).getResult(0);
}

static FailureOr<Value> lowerDeviceFree(RuntimeLowering &rt, DeviceFreeOp op,
                                        DeviceFreeOp::Adaptor adaptor,
                                        OpBuilder &b) {
  Location loc = op.getLoc();
  return callVoid(rt, b, loc, "distrt_device_free",
                  {rt.ptrOf(b, loc, adaptor.getBuffer())});
}

static FailureOr<Value> lowerZeroBuffer(RuntimeLowering &rt, ZeroBufferOp op,
                                        ZeroBufferOp::Adaptor adaptor,
                                        OpBuilder &b) {
  Location loc = op.getLoc();
  Value ptr, count;
  int64_t dtype;
  if (failed(rt.buffer(b, loc, op, adaptor.getBuffer(), ptr, count, dtype)))
    return failure();
  return callVoid(
      rt, b, loc, "distrt_zero_buffer",
      {ptr, rt.toI64(b, loc, adaptor.getCount()), rt.i64(b, loc, dtype)});
}

static FailureOr<Value> lowerFillTile(RuntimeLowering &rt, FillTileOp op,
                                      FillTileOp::Adaptor adaptor,
                                      OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getTensor());
  if (failed(g))
    return failure();
  return callVoid(rt, b, loc, "distrt_layout_fill",
                  {*g, rt.descriptor(b, loc, op.getTensor()),
                   rt.ptrOf(b, loc, adaptor.getTile()),
                   dtypeOf(rt, b, loc, op.getTensor()),
                   rt.i64(b, loc, (int64_t)op.getSeed())});
}

/// dist.load_tile / dist.store_tile.
template <typename OpTy>
static FailureOr<Value> lowerFileTile(RuntimeLowering &rt, OpTy op,
                                      typename OpTy::Adaptor adaptor,
                                      OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getTensor());
  if (failed(g))
    return failure();
  StringRef fn = std::is_same_v<OpTy, LoadTileOp> ? "distrt_layout_load"
                                                  : "distrt_layout_store";
  return callVoid(rt, b, loc, fn,
                  {*g, rt.descriptor(b, loc, op.getTensor()),
                   rt.ptrOf(b, loc, adaptor.getTile()),
                   dtypeOf(rt, b, loc, op.getTensor()),
                   rt.constString(b, loc, op.getPath())});
}

//===----------------------------------------------------------------------===//
// Leaf kernels
//===----------------------------------------------------------------------===//

namespace {
/// The sizes and strides of a view as i64 (constants where static).
struct ViewShape {
  SmallVector<Value, 2> sizes, strides;
};
} // namespace

static ViewShape viewShape(RuntimeLowering &rt, OpBuilder &b, Location loc,
                           Value mem) {
  auto type = cast<MemRefType>(mem.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    strides.assign(type.getRank(), ShapedType::kDynamic);
  memref::ExtractStridedMetadataOp md;
  auto metadata = [&]() {
    if (!md)
      md = memref::ExtractStridedMetadataOp::create(b, loc, mem);
    return md;
  };
  ViewShape s;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t e = type.getDimSize(d);
    s.sizes.push_back(ShapedType::isDynamic(e)
                          ? rt.toI64(b, loc, metadata().getSizes()[d])
                          : rt.i64(b, loc, e));
    s.strides.push_back(ShapedType::isDynamic(strides[d])
                            ? rt.toI64(b, loc, metadata().getStrides()[d])
                            : rt.i64(b, loc, strides[d]));
  }
  return s;
}

static bool isF64Elements(Value mem) {
  return cast<MemRefType>(mem.getType()).getElementType().isF64();
}

static FailureOr<Value> lowerGemm(RuntimeLowering &rt, GemmOp op,
                                  GemmOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  Value a = adaptor.getA(), bm = adaptor.getB(), c = adaptor.getC();
  ViewShape as = viewShape(rt, b, loc, a), bs = viewShape(rt, b, loc, bm),
            cs = viewShape(rt, b, loc, c);
  Value k = as.sizes[op.getTransposeA() ? 0 : 1];
  Value one = rt.f64(b, loc, 1.0);
  StringRef fn = isF64Elements(c) ? "distrt_gemm_t_f64" : "distrt_gemm_t_f32";
  return callVoid(rt, b, loc, fn,
                  {rt.i64(b, loc, op.getTransposeA()),
                   rt.i64(b, loc, op.getTransposeB()), cs.sizes[0], cs.sizes[1],
                   k, one, rt.ptrOf(b, loc, a), as.strides[0],
                   rt.ptrOf(b, loc, bm), bs.strides[0], one,
                   rt.ptrOf(b, loc, c), cs.strides[0]});
}

static FailureOr<Value> lowerGemv(RuntimeLowering &rt, GemvOp op,
                                  GemvOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  Value a = adaptor.getA(), x = adaptor.getX(), y = adaptor.getY();
  ViewShape as = viewShape(rt, b, loc, a), xs = viewShape(rt, b, loc, x),
            ys = viewShape(rt, b, loc, y);
  Value one = rt.f64(b, loc, 1.0);
  StringRef fn = isF64Elements(y) ? "distrt_gemv_t_f64" : "distrt_gemv_t_f32";
  return callVoid(rt, b, loc, fn,
                  {rt.i64(b, loc, op.getTranspose()), as.sizes[0], as.sizes[1],
                   one, rt.ptrOf(b, loc, a), as.strides[0], rt.ptrOf(b, loc, x),
                   xs.strides[0], one, rt.ptrOf(b, loc, y), ys.strides[0]});
}

static FailureOr<Value> lowerDot(RuntimeLowering &rt, DotOp op,
                                 DotOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = adaptor.getX(), y = adaptor.getY(), acc = adaptor.getAcc();
  ViewShape xs = viewShape(rt, b, loc, x), ys = viewShape(rt, b, loc, y);
  StringRef fn =
      isF64Elements(acc) ? "distrt_dot_acc_f64" : "distrt_dot_acc_f32";
  return callVoid(rt, b, loc, fn,
                  {xs.sizes[0], rt.ptrOf(b, loc, x), xs.strides[0],
                   rt.ptrOf(b, loc, y), ys.strides[0], rt.ptrOf(b, loc, acc)});
}

//===----------------------------------------------------------------------===//
// Redistribution of tiles
//===----------------------------------------------------------------------===//

static FailureOr<Value>
lowerRedistributeTile(RuntimeLowering &rt, RedistributeTileOp op,
                      RedistributeTileOp::Adaptor adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> gs = gridOf(rt, b, op, op.getSourceTensor());
  if (failed(gs))
    return failure();
  FailureOr<Value> gd = gridOf(rt, b, op, op.getDestTensor());
  if (failed(gd))
    return failure();
  return callVoid(rt, b, loc, "distrt_redistribute",
                  {*gs, rt.descriptor(b, loc, op.getSourceTensor()),
                   rt.ptrOf(b, loc, adaptor.getSource()), *gd,
                   rt.descriptor(b, loc, op.getDestTensor()),
                   rt.ptrOf(b, loc, adaptor.getDest()),
                   dtypeOf(rt, b, loc, op.getSourceTensor())});
}

namespace {
/// A step of a balanced plan or a partial-sum reduction: the runtime
/// function `name` with (grid, [axes mask, [sum mask,]] source descriptor,
/// source, destination descriptor, destination, dtype).
template <typename OpTy>
struct RedistStepLowering : OpConversionPattern<OpTy> {
  RedistStepLowering(MLIRContext *ctx, RuntimeLowering &lowering,
                     StringRef name)
      : OpConversionPattern<OpTy>(ctx), lowering(lowering), name(name) {}
  RuntimeLowering &lowering;
  StringRef name;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RuntimeLowering &rt = lowering;
    FailureOr<Value> g = gridOf(rt, rewriter, op, op.getSourceTensor());
    if (failed(g))
      return rt.fail(rewriter, op);
    SmallVector<Value, 8> args{*g};
    if constexpr (!std::is_same_v<OpTy, RedistSliceOp>)
      args.push_back(rt.i64(rewriter, loc, maskOf(op.getAxes())));
    if constexpr (std::is_same_v<OpTy, RedistAllReduceOp> ||
                  std::is_same_v<OpTy, RedistReduceScatterOp> ||
                  std::is_same_v<OpTy, RedistReduceOp>)
      args.push_back(rt.i64(rewriter, loc, maskOf(op.getSum())));
    args.append({rt.descriptor(rewriter, loc, op.getSourceTensor()),
                 rt.ptrOf(rewriter, loc, adaptor.getSource()),
                 rt.descriptor(rewriter, loc, op.getDestTensor()),
                 rt.ptrOf(rewriter, loc, adaptor.getDest()),
                 dtypeOf(rt, rewriter, loc, op.getSourceTensor())});
    if (failed(rt.call(rewriter, loc, name, args)))
      return rt.fail(rewriter, op);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Timing and the reference check
//===----------------------------------------------------------------------===//

static FailureOr<Value> lowerBarrier(RuntimeLowering &rt, BarrierOp op,
                                     BarrierOp::Adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getGridAttr());
  if (failed(g))
    return failure();
  return callVoid(rt, b, loc, "distrt_barrier",
                  {*g, rt.i64(b, loc, maskOf(op.getAxes()))});
}

static FailureOr<Value> lowerProfileBegin(RuntimeLowering &rt,
                                          ProfileKernelBeginOp op,
                                          ProfileKernelBeginOp::Adaptor,
                                          OpBuilder &b) {
  return callVoid(rt, b, op.getLoc(), "distrt_profile_kernel_begin", {});
}

static FailureOr<Value> lowerWtime(RuntimeLowering &rt, WtimeOp op,
                                   WtimeOp::Adaptor, OpBuilder &b) {
  return rt.call(b, op.getLoc(), "distrt_wtime", {});
}

static FailureOr<Value> lowerReportTime(RuntimeLowering &rt, ReportTimeOp op,
                                        ReportTimeOp::Adaptor adaptor,
                                        OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getGridAttr());
  if (failed(g))
    return failure();
  return callVoid(
      rt, b, loc, "distrt_report_time",
      {*g, rt.constString(b, loc, op.getLabel()), adaptor.getSeconds()});
}

static FailureOr<Value> lowerGridRank(RuntimeLowering &rt, GridRankOp op,
                                      GridRankOp::Adaptor, OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getGridAttr());
  if (failed(g))
    return failure();
  FailureOr<Value> rank = rt.call(b, loc, "distrt_grid_rank", {*g});
  if (failed(rank))
    return failure();
  return Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), *rank));
}

static FailureOr<Value> lowerGatherTile(RuntimeLowering &rt, GatherTileOp op,
                                        GatherTileOp::Adaptor adaptor,
                                        OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getTensor());
  if (failed(g))
    return failure();
  return callVoid(rt, b, loc, "distrt_layout_gather",
                  {*g, rt.descriptor(b, loc, op.getTensor()),
                   rt.ptrOf(b, loc, adaptor.getTile()),
                   dtypeOf(rt, b, loc, op.getTensor()),
                   rt.ptrOf(b, loc, adaptor.getWhole()),
                   rt.i64(b, loc, (int64_t)op.getRoot())});
}

static FailureOr<Value> lowerReference(RuntimeLowering &rt, ReferenceOp op,
                                       ReferenceOp::Adaptor adaptor,
                                       OpBuilder &b) {
  Location loc = op.getLoc();
  if (adaptor.getBuffers().empty())
    return op.emitOpError("binds no buffers");
  FailureOr<Value> ref =
      rt.call(b, loc, "distrt_reference_begin",
              {rt.constString(b, loc, op.getStatement()),
               dtypeOf(rt, b, loc, adaptor.getBuffers().front().getType())});
  if (failed(ref))
    return failure();
  for (auto [name, buf] : llvm::zip(op.getNames(), adaptor.getBuffers())) {
    ArrayRef<int64_t> shape = cast<MemRefType>(buf.getType()).getShape();
    SmallVector<int64_t> dims(shape);
    if (dims.empty())
      dims.push_back(1); // an order-0 tensor: rank 0, one element
    if (failed(rt.call(
            b, loc, "distrt_reference_bind",
            {*ref, rt.constString(b, loc, cast<StringAttr>(name).getValue()),
             rt.i64(b, loc, shape.size()), rt.constArray(b, loc, dims),
             rt.ptrOf(b, loc, buf)})))
      return failure();
  }
  return callVoid(rt, b, loc, "distrt_reference_run", {*ref});
}

/// dist.check_result / dist.check_unchanged (tolerance 0).
template <typename OpTy>
static FailureOr<Value> lowerCheck(RuntimeLowering &rt, OpTy op,
                                   typename OpTy::Adaptor adaptor,
                                   OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getTensor());
  if (failed(g))
    return failure();
  constexpr bool isResult = std::is_same_v<OpTy, CheckResultOp>;
  double tolerance = 0.0;
  if constexpr (isResult)
    tolerance = op.getTolerance().convertToDouble();
  if (failed(rt.call(
          b, loc, isResult ? "distrt_check_result" : "distrt_check_unchanged",
          {*g, rt.constString(b, loc, op.getLabel()),
           rt.descriptor(b, loc, op.getTensor()),
           rt.ptrOf(b, loc, adaptor.getTile()),
           dtypeOf(rt, b, loc, op.getTensor()),
           rt.ptrOf(b, loc, adaptor.getReference()),
           rt.f64(b, loc, tolerance)})))
    return failure();
  return Value();
}

static FailureOr<Value> lowerSumReference(RuntimeLowering &rt,
                                          SumReferenceOp op,
                                          SumReferenceOp::Adaptor adaptor,
                                          OpBuilder &b) {
  Location loc = op.getLoc();
  FailureOr<Value> g = gridOf(rt, b, op, op.getGridAttr());
  if (failed(g))
    return failure();
  Value whole = adaptor.getWhole();
  auto type = cast<MemRefType>(whole.getType());
  return callVoid(rt, b, loc, "distrt_sum_reference",
                  {*g, rt.i64(b, loc, (int64_t)op.getRoot()),
                   rt.ptrOf(b, loc, whole), dtypeOf(rt, b, loc, type),
                   rt.i64(b, loc, type.getRank()),
                   rt.constArray(b, loc, type.getShape()),
                   rt.i64(b, loc, maskOf(op.getSum())),
                   rt.ptrOf(b, loc, adaptor.getResult())});
}

template <typename OpTy>
static void add(RewritePatternSet &patterns, RuntimeLowering &lowering,
                typename KernelLowering<OpTy>::LowerFn fn) {
  patterns.add<KernelLowering<OpTy>>(patterns.getContext(), lowering, fn);
}

template <typename OpTy>
static void addStep(RewritePatternSet &patterns, RuntimeLowering &lowering,
                    StringRef name) {
  patterns.add<RedistStepLowering<OpTy>>(patterns.getContext(), lowering, name);
}

void mlir::dist::rt::populateKernelToRuntimePatterns(
    RewritePatternSet &patterns, TypeConverter &converter,
    RuntimeLowering &lowering) {
  (void)converter;
  add<RuntimeInitOp>(patterns, lowering, lowerInit);
  add<RuntimeFinalizeOp>(patterns, lowering, lowerFinalize);
  add<TileCapacityOp>(patterns, lowering, lowerTileCapacity);
  add<CheckAllocOp>(patterns, lowering, lowerCheckAlloc);
  add<FillTileOp>(patterns, lowering, lowerFillTile);
  add<DeviceAllocOp>(patterns, lowering, lowerDeviceAlloc);
  add<DeviceFreeOp>(patterns, lowering, lowerDeviceFree);
  add<ZeroBufferOp>(patterns, lowering, lowerZeroBuffer);
  add<LoadTileOp>(patterns, lowering, lowerFileTile<LoadTileOp>);
  add<StoreTileOp>(patterns, lowering, lowerFileTile<StoreTileOp>);
  add<GemmOp>(patterns, lowering, lowerGemm);
  add<GemvOp>(patterns, lowering, lowerGemv);
  add<DotOp>(patterns, lowering, lowerDot);
  add<RedistributeTileOp>(patterns, lowering, lowerRedistributeTile);
  addStep<RedistSliceOp>(patterns, lowering, "distrt_redist_slice");
  addStep<RedistAllGatherOp>(patterns, lowering, "distrt_redist_allgather");
  addStep<RedistPermuteOp>(patterns, lowering, "distrt_redist_permute");
  addStep<RedistAllToAllOp>(patterns, lowering, "distrt_redist_alltoall");
  addStep<RedistGatherOp>(patterns, lowering, "distrt_redist_gather");
  addStep<RedistBroadcastOp>(patterns, lowering, "distrt_redist_bcast");
  addStep<RedistScatterOp>(patterns, lowering, "distrt_redist_scatter");
  addStep<RedistChangeKindOp>(patterns, lowering, "distrt_redist_kind");
  addStep<RedistAllReduceOp>(patterns, lowering, "distrt_redist_allreduce");
  addStep<RedistReduceScatterOp>(patterns, lowering,
                                 "distrt_redist_reduce_scatter");
  addStep<RedistReduceOp>(patterns, lowering, "distrt_redist_reduce");
  add<BarrierOp>(patterns, lowering, lowerBarrier);
  add<ProfileKernelBeginOp>(patterns, lowering, lowerProfileBegin);
  add<WtimeOp>(patterns, lowering, lowerWtime);
  add<ReportTimeOp>(patterns, lowering, lowerReportTime);
  add<GridRankOp>(patterns, lowering, lowerGridRank);
  add<GatherTileOp>(patterns, lowering, lowerGatherTile);
  add<ReferenceOp>(patterns, lowering, lowerReference);
  add<CheckResultOp>(patterns, lowering, lowerCheck<CheckResultOp>);
  add<CheckUnchangedOp>(patterns, lowering, lowerCheck<CheckUnchangedOp>);
  add<SumReferenceOp>(patterns, lowering, lowerSumReference);
}
