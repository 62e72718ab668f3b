//===- SparseToRuntime.cpp - sparse tiles to distrt_spmat calls -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The patterns of convert-dist-to-runtime for the SPMD ops on sparse tiles
// (DistSparseOps.td): !dist.sparse_tile becomes the distrt_spmat pointer,
// and each op one distrt_spmat_* call (runtime/include/distrt/sparse.h).
// The views the runtime hands out (a part's pos / crd / values, the ghost
// buffer) become memrefs over the runtime's storage: a memref descriptor
// built from the pointer and the length, cast to the memref type
// (finalize-memref-to-llvm and reconcile-unrealized-casts fold the cast).
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

namespace {

template <typename OpTy>
struct SparseLowering : OpConversionPattern<OpTy> {
  using Adaptor = typename OpTy::Adaptor;
  using LowerFn = LogicalResult (*)(RuntimeLowering &, OpTy, Adaptor,
                                    ConversionPatternRewriter &);
  SparseLowering(const TypeConverter &converter, MLIRContext *ctx,
                 RuntimeLowering &lowering, LowerFn fn)
      : OpConversionPattern<OpTy>(converter, ctx), lowering(lowering),
        fn(fn) {}
  RuntimeLowering &lowering;
  LowerFn fn;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(fn(lowering, op, adaptor, rewriter)))
      return lowering.fail(rewriter, op, this->getTypeConverter());
    return success();
  }
};

} // namespace

/// The distrt index width of an encoding width (0, index, is 64 bits).
static int64_t bitsOf(unsigned width) { return width == 0 ? 64 : width; }

/// A memref<?xT> over `count` elements at `ptr` (storage the runtime owns).
static Value viewOf(RuntimeLowering &rt, OpBuilder &b, Location loc,
                    MemRefType type, Value ptr, Value count) {
  MLIRContext *ctx = b.getContext();
  auto arr = LLVM::LLVMArrayType::get(rt.i64Ty, 1);
  auto desc = LLVM::LLVMStructType::getLiteral(
      ctx, {rt.ptrTy, rt.ptrTy, rt.i64Ty, arr, arr});
  Value d = LLVM::PoisonOp::create(b, loc, desc);
  d = LLVM::InsertValueOp::create(b, loc, d, ptr, ArrayRef<int64_t>{0});
  d = LLVM::InsertValueOp::create(b, loc, d, ptr, ArrayRef<int64_t>{1});
  d = LLVM::InsertValueOp::create(b, loc, d, rt.i64(b, loc, 0),
                                  ArrayRef<int64_t>{2});
  d = LLVM::InsertValueOp::create(b, loc, d, count, ArrayRef<int64_t>{3, 0});
  d = LLVM::InsertValueOp::create(b, loc, d, rt.i64(b, loc, 1),
                                  ArrayRef<int64_t>{4, 0});
  return UnrealizedConversionCastOp::create(b, loc, type, d).getResult(0);
}

static LogicalResult lowerNew(RuntimeLowering &rt, SparseNewOp op,
                              SparseNewOp::Adaptor,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto t = cast<DistTensorType>(op.getTensor());
  Value g = rt.gridHandle(rewriter, loc, op, t.getLayout().getGrid());
  if (!g)
    return failure();
  auto enc = t.getEncoding();
  if (t.getRank() == 3) {
    FailureOr<Value> h = rt.call(
        rewriter, loc, "distrt_spmat_create3",
        {g, rt.i64(rewriter, loc, t.getShape()[0]),
         rt.i64(rewriter, loc, t.getShape()[1]),
         rt.i64(rewriter, loc, t.getShape()[2]),
         rt.i64(rewriter, loc, bitsOf(enc.getPosWidth())),
         rt.i64(rewriter, loc, bitsOf(enc.getCrdWidth())),
         rt.i64(rewriter, loc, abi::dtypeOf(t.getElementType())),
         // DISTRT_SPMAT_ROWS = 0, DISTRT_SPMAT_NONZEROS = 1 (distrt/abi.h).
         rt.i64(rewriter, loc, hasNonzeroPartition(t) ? 1 : 0)});
    if (failed(h))
      return failure();
    rewriter.replaceOp(op, *h);
    return success();
  }
  FailureOr<Value> h = rt.call(
      rewriter, loc,
      hasNonzeroPartition(t) ? "distrt_spmat_create_nonzeros"
                             : "distrt_spmat_create",
      {g, rt.i64(rewriter, loc, t.getShape()[0]),
       rt.i64(rewriter, loc, t.getShape()[1]),
       rt.i64(rewriter, loc, bitsOf(enc.getPosWidth())),
       rt.i64(rewriter, loc, bitsOf(enc.getCrdWidth())),
       rt.i64(rewriter, loc, abi::dtypeOf(t.getElementType()))});
  if (failed(h))
    return failure();
  rewriter.replaceOp(op, *h);
  return success();
}

/// An op that becomes one void call of `fn` on the handle and `extra`.
template <typename OpTy>
static LogicalResult callOnHandle(RuntimeLowering &rt, OpTy op, Value handle,
                                  StringRef fn, ArrayRef<Value> extra,
                                  ConversionPatternRewriter &rewriter) {
  SmallVector<Value> args{handle};
  llvm::append_range(args, extra);
  if (failed(rt.call(rewriter, op.getLoc(), fn, args)))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

static LogicalResult lowerFree(RuntimeLowering &rt, SparseFreeOp op,
                               SparseFreeOp::Adaptor a,
                               ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_free", {}, rewriter);
}

static LogicalResult lowerRead(RuntimeLowering &rt, SparseReadOp op,
                               SparseReadOp::Adaptor a,
                               ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_read",
                      {rt.constString(rewriter, op.getLoc(), op.getPath())},
                      rewriter);
}

static LogicalResult lowerWrite(RuntimeLowering &rt, SparseWriteOp op,
                                SparseWriteOp::Adaptor a,
                                ConversionPatternRewriter &rewriter) {
  // The file kind from the extension, as dist.store's verifier checks it
  // against the tensor's order: .tns for order 3, .mtx for matrices.
  bool tns = op.getPath().ends_with_insensitive(".tns");
  return callOnHandle(rt, op, a.getTile(),
                      tns ? "distrt_spmat_write_tns" : "distrt_spmat_write_mm",
                      {rt.constString(rewriter, op.getLoc(), op.getPath())},
                      rewriter);
}

static LogicalResult lowerGenerate(RuntimeLowering &rt, SparseGenerateOp op,
                                   SparseGenerateOp::Adaptor a,
                                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  // DISTRT_GEN_* are the GeneratorKind values (static_assert in
  // DistDialect.cpp).
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_generate",
                      {rt.i64(rewriter, loc, (int64_t)op.getKind()),
                       rt.i64(rewriter, loc, op.getParam()),
                       rt.i64(rewriter, loc, op.getSeed())},
                      rewriter);
}

static LogicalResult lowerPlan(RuntimeLowering &rt, SparsePlanOp op,
                               SparsePlanOp::Adaptor a,
                               ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_plan", {}, rewriter);
}

static LogicalResult lowerExchangeEnd(RuntimeLowering &rt,
                                      SparseExchangeEndOp op,
                                      SparseExchangeEndOp::Adaptor a,
                                      ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_exchange_end", {},
                      rewriter);
}

static LogicalResult lowerGather(RuntimeLowering &rt, SparseGatherOp op,
                                 SparseGatherOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_gather_dense",
                      {rt.ptrOf(rewriter, loc, a.getWhole()),
                       rt.i64(rewriter, loc, (int64_t)op.getRoot())},
                      rewriter);
}

static LogicalResult lowerPatternOf(RuntimeLowering &rt, SparsePatternOfOp op,
                                    SparsePatternOfOp::Adaptor a,
                                    ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_pattern_of",
                      {a.getSource()}, rewriter);
}

static LogicalResult lowerCheckResult(RuntimeLowering &rt,
                                      SparseCheckResultOp op,
                                      SparseCheckResultOp::Adaptor a,
                                      ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  return callOnHandle(
      rt, op, a.getTile(), "distrt_spmat_check_result",
      {rt.constString(rewriter, loc, op.getLabel()),
       rt.ptrOf(rewriter, loc, a.getReference()),
       rt.f64(rewriter, loc, op.getTolerance().convertToDouble())},
      rewriter);
}

/// A call of runtime function `fn` with `args` followed by one out-pointer
/// per type of `outs` (stack slots, live for the call only: the op may sit
/// in a loop); what the function stored there.
static FailureOr<SmallVector<Value>> callWithOuts(RuntimeLowering &rt,
                                                  OpBuilder &b, Location loc,
                                                  StringRef fn, ValueRange args,
                                                  TypeRange outs) {
  Value one = rt.i64(b, loc, 1);
  Value saved = rt.saveStack(b, loc);
  SmallVector<Value> all(args), slots;
  for (Type t : outs)
    slots.push_back(LLVM::AllocaOp::create(b, loc, rt.ptrTy, t, one));
  all.append(slots);
  if (failed(rt.call(b, loc, fn, all)))
    return failure();
  SmallVector<Value> values;
  for (auto [slot, t] : llvm::zip(slots, outs))
    values.push_back(LLVM::LoadOp::create(b, loc, t, slot));
  rt.restoreStack(b, loc, saved);
  return values;
}

/// distrt_spmat_part, then memrefs over what it hands out.
static LogicalResult lowerPart(RuntimeLowering &rt, SparsePartOp op,
                               SparsePartOp::Adaptor a,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<SmallVector<Value>> out =
      callWithOuts(rt, b, loc, "distrt_spmat_part",
                   {a.getTile(), rt.i64(b, loc, (int64_t)op.getPart())},
                   {rt.ptrTy, rt.ptrTy, rt.ptrTy, rt.i64Ty, rt.i64Ty});
  if (failed(out))
    return failure();
  Value posP = (*out)[0], crdP = (*out)[1], valP = (*out)[2], n = (*out)[3],
        cols = (*out)[4];
  auto t = cast<DistTensorType>(op.getTensor());
  Value posLen;
  if (hasNonzeroPartition(t)) {
    // The rows the process's entries span: known at run time only.
    FailureOr<SmallVector<Value>> rows =
        callWithOuts(rt, b, loc, "distrt_spmat_local_rows", {a.getTile()},
                     {rt.ptrTy, rt.i64Ty, rt.i64Ty});
    if (failed(rows))
      return failure();
    posLen = arith::AddIOp::create(b, loc, (*rows)[2], rt.i64(b, loc, 1));
  } else {
    int64_t procs = 1;
    for (int64_t e : rt.gridShape(t.getLayout().getGrid()))
      procs *= e;
    int64_t rows = (t.getShape()[0] + procs - 1) / procs;
    posLen = rt.i64(b, loc, rows + 1);
  }
  Value colsIdx = arith::IndexCastOp::create(b, loc, b.getIndexType(), cols);
  rewriter.replaceOp(op, {viewOf(rt, b, loc, op.getPos().getType(), posP,
                                 posLen),
                          viewOf(rt, b, loc, op.getCrd().getType(), crdP, n),
                          viewOf(rt, b, loc, op.getValues().getType(), valP, n),
                          colsIdx});
  return success();
}

/// distrt_spmat_fibers, then memrefs over what it hands out (level 1's
/// positions: the piece's rows + 1, from distrt_spmat_local_rows).
static LogicalResult lowerFibers(RuntimeLowering &rt, SparseFibersOp op,
                                 SparseFibersOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<SmallVector<Value>> out = callWithOuts(
      rt, b, loc, "distrt_spmat_fibers", {a.getTile()},
      {rt.ptrTy, rt.ptrTy, rt.ptrTy, rt.ptrTy, rt.ptrTy, rt.i64Ty, rt.i64Ty});
  if (failed(out))
    return failure();
  FailureOr<SmallVector<Value>> rows =
      callWithOuts(rt, b, loc, "distrt_spmat_local_rows", {a.getTile()},
                   {rt.ptrTy, rt.i64Ty, rt.i64Ty});
  if (failed(rows))
    return failure();
  Value one = rt.i64(b, loc, 1);
  Value nf = (*out)[5], nnz = (*out)[6];
  Value posLen = arith::AddIOp::create(b, loc, (*rows)[2], one);
  Value pos2Len = arith::AddIOp::create(b, loc, nf, one);
  rewriter.replaceOp(
      op, {viewOf(rt, b, loc, op.getPos().getType(), (*out)[0], posLen),
           viewOf(rt, b, loc, op.getCrd().getType(), (*out)[1], nf),
           viewOf(rt, b, loc, op.getPos2().getType(), (*out)[2], pos2Len),
           viewOf(rt, b, loc, op.getCrd2().getType(), (*out)[3], nnz),
           viewOf(rt, b, loc, op.getValues().getType(), (*out)[4], nnz),
           arith::IndexCastOp::create(b, loc, b.getIndexType(), nf)});
  return success();
}

/// distrt_spmat_reserve, then memrefs over the room it made (positions:
/// the piece's rows + 1, from distrt_spmat_local_rows).
static LogicalResult lowerReserve(RuntimeLowering &rt, SparseReserveOp op,
                                  SparseReserveOp::Adaptor a,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  Value cap = rt.toI64(b, loc, a.getCapacity());
  FailureOr<SmallVector<Value>> out =
      callWithOuts(rt, b, loc, "distrt_spmat_reserve",
                   {a.getTile(), a.getLike(), cap},
                   {rt.ptrTy, rt.ptrTy, rt.ptrTy});
  if (failed(out))
    return failure();
  FailureOr<SmallVector<Value>> rows =
      callWithOuts(rt, b, loc, "distrt_spmat_local_rows", {a.getTile()},
                   {rt.ptrTy, rt.i64Ty, rt.i64Ty});
  if (failed(rows))
    return failure();
  Value posLen = arith::AddIOp::create(b, loc, (*rows)[2], rt.i64(b, loc, 1));
  rewriter.replaceOp(
      op, {viewOf(rt, b, loc, op.getPos().getType(), (*out)[0], posLen),
           viewOf(rt, b, loc, op.getCrd().getType(), (*out)[1], cap),
           viewOf(rt, b, loc, op.getValues().getType(), (*out)[2], cap)});
  return success();
}

static LogicalResult lowerCommit(RuntimeLowering &rt, SparseCommitOp op,
                                 SparseCommitOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  return callOnHandle(rt, op, a.getTile(), "distrt_spmat_commit",
                      {rt.toI64(rewriter, op.getLoc(), a.getCount())},
                      rewriter);
}

/// distrt_spmat_offdiag_rows, then memrefs over what it hands out.
static LogicalResult lowerOffdiagRows(RuntimeLowering &rt,
                                      SparseOffdiagRowsOp op,
                                      SparseOffdiagRowsOp::Adaptor a,
                                      ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<SmallVector<Value>> out =
      callWithOuts(rt, b, loc, "distrt_spmat_offdiag_rows", {a.getTile()},
                   {rt.ptrTy, rt.ptrTy, rt.i64Ty});
  if (failed(out))
    return failure();
  Value rowsP = (*out)[0], posP = (*out)[1], count = (*out)[2];
  Value posLen = arith::AddIOp::create(b, loc, count, rt.i64(b, loc, 1));
  rewriter.replaceOp(
      op, {viewOf(rt, b, loc, op.getRows().getType(), rowsP, count),
           viewOf(rt, b, loc, op.getPos().getType(), posP, posLen),
           arith::IndexCastOp::create(b, loc, b.getIndexType(), count)});
  return success();
}

/// distrt_spmat_local_rows, then a memref over the row ids.
static LogicalResult lowerLocalRows(RuntimeLowering &rt, SparseLocalRowsOp op,
                                    SparseLocalRowsOp::Adaptor a,
                                    ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<SmallVector<Value>> out =
      callWithOuts(rt, b, loc, "distrt_spmat_local_rows", {a.getTile()},
                   {rt.ptrTy, rt.i64Ty, rt.i64Ty});
  if (failed(out))
    return failure();
  Value ids = (*out)[0], first = (*out)[1], count = (*out)[2];
  rewriter.replaceOp(
      op, {viewOf(rt, b, loc, op.getIds().getType(), ids, count),
           arith::IndexCastOp::create(b, loc, b.getIndexType(), first),
           arith::IndexCastOp::create(b, loc, b.getIndexType(), count)});
  return success();
}

/// distrt_spmat_row_targets, then a memref over the targets.
static LogicalResult lowerRowTargets(RuntimeLowering &rt,
                                     SparseRowTargetsOp op,
                                     SparseRowTargetsOp::Adaptor a,
                                     ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<SmallVector<Value>> out = callWithOuts(
      rt, b, loc, "distrt_spmat_row_targets",
      {a.getTile(), rt.i64(b, loc, (int64_t)op.getPart())},
      {rt.ptrTy, rt.i64Ty, rt.i64Ty, rt.i64Ty});
  if (failed(out))
    return failure();
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v)
        .getResult();
  };
  Value count = (*out)[3];
  rewriter.replaceOp(
      op, {viewOf(rt, b, loc, op.getTargets().getType(), (*out)[0], count),
           idx((*out)[1]), idx((*out)[2]), idx(count)});
  return success();
}

static LogicalResult lowerPartial(RuntimeLowering &rt, SparsePartialOp op,
                                  SparsePartialOp::Adaptor a,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<Value> buf =
      rt.call(b, loc,
              op.getForeign() ? "distrt_spmat_partial_foreign"
                              : "distrt_spmat_partial",
              {a.getTile(), rt.i64(b, loc, (int64_t)op.getCols())});
  if (failed(buf))
    return failure();
  Value count = arith::MulIOp::create(b, loc, rt.toI64(b, loc, a.getRows()),
                                      rt.i64(b, loc, (int64_t)op.getCols()));
  rewriter.replaceOp(
      op, viewOf(rt, b, loc, op.getBuffer().getType(), *buf, count));
  return success();
}

/// `op` replaced by distrt_spmat_in_partition(tile, part): the handle of
/// the tile's companion in partition `part` (distrt/abi.h:
/// DISTRT_SPMAT_ROWS = 0, DISTRT_SPMAT_NONZEROS = 1, DISTRT_SPMAT_ENTRIES =
/// 2).
static LogicalResult replaceByPartition(RuntimeLowering &rt, Operation *op,
                                        Value tile, int64_t part,
                                        ConversionPatternRewriter &rewriter) {
  FailureOr<Value> h =
      rt.call(rewriter, op->getLoc(), "distrt_spmat_in_partition",
              {tile, rt.i64(rewriter, op->getLoc(), part)});
  if (failed(h))
    return failure();
  rewriter.replaceOp(op, *h);
  return success();
}

static LogicalResult lowerInPartition(RuntimeLowering &rt,
                                      SparseInPartitionOp op,
                                      SparseInPartitionOp::Adaptor a,
                                      ConversionPatternRewriter &rewriter) {
  return replaceByPartition(rt, op, a.getTile(), op.getNonzeros() ? 1 : 0,
                            rewriter);
}

static LogicalResult lowerEntries(RuntimeLowering &rt, SparseEntriesOp op,
                                  SparseEntriesOp::Adaptor a,
                                  ConversionPatternRewriter &rewriter) {
  return replaceByPartition(rt, op, a.getTile(), 2, rewriter);
}

static LogicalResult lowerFiberPartial(RuntimeLowering &rt,
                                       SparseFiberPartialOp op,
                                       SparseFiberPartialOp::Adaptor a,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  FailureOr<Value> buf =
      rt.call(rewriter, loc,
              op.getForeign() ? "distrt_spmat_fiber_partial_foreign"
                              : "distrt_spmat_fiber_partial",
              {a.getTile()});
  if (failed(buf))
    return failure();
  rewriter.replaceOp(op, viewOf(rt, rewriter, loc, op.getBuffer().getType(),
                                *buf, rt.toI64(rewriter, loc, a.getNfibers())));
  return success();
}

static LogicalResult lowerReduceFibers(RuntimeLowering &rt,
                                       SparseReduceFibersOp op,
                                       SparseReduceFibersOp::Adaptor a,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value n = memref::DimOp::create(rewriter, loc, a.getY(), 0);
  return callOnHandle(rt, op, a.getTile(),
                      op.getForeign() ? "distrt_spmat_reduce_fibers_foreign"
                                      : "distrt_spmat_reduce_fibers",
                      {rt.ptrOf(rewriter, loc, a.getPartial()),
                       rt.ptrOf(rewriter, loc, a.getY()),
                       rt.toI64(rewriter, loc, n)},
                      rewriter);
}

/// distrt_spmat_fiber_runs: the own run's bounds and y offset.
static LogicalResult lowerFiberRuns(RuntimeLowering &rt, SparseFiberRunsOp op,
                                    SparseFiberRunsOp::Adaptor a,
                                    ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  Value n = memref::DimOp::create(b, loc, a.getY(), 0);
  FailureOr<SmallVector<Value>> out = callWithOuts(
      rt, b, loc, "distrt_spmat_fiber_runs",
      {a.getTile(), rt.ptrOf(b, loc, a.getY()), rt.toI64(b, loc, n)},
      {rt.i64Ty, rt.i64Ty, rt.i64Ty});
  if (failed(out))
    return failure();
  SmallVector<Value> idx;
  for (Value v : *out)
    idx.push_back(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult());
  rewriter.replaceOp(op, idx);
  return success();
}

static LogicalResult lowerReduceRows(RuntimeLowering &rt,
                                     SparseReduceRowsOp op,
                                     SparseReduceRowsOp::Adaptor a,
                                     ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  return callOnHandle(rt, op, a.getTile(),
                      op.getForeign() ? "distrt_spmat_reduce_foreign"
                                      : "distrt_spmat_reduce_rows",
                      {rt.ptrOf(rewriter, loc, a.getPartial()),
                       rt.ptrOf(rewriter, loc, a.getY()),
                       rt.i64(rewriter, loc, (int64_t)op.getCols())},
                      rewriter);
}

static LogicalResult lowerExchangeBegin(RuntimeLowering &rt,
                                        SparseExchangeBeginOp op,
                                        SparseExchangeBeginOp::Adaptor a,
                                        ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<Value> ghosts =
      rt.call(b, loc, "distrt_spmat_exchange_begin",
              {a.getTile(), rt.ptrOf(b, loc, a.getX()),
               rt.i64(b, loc, (int64_t)op.getCols())});
  if (failed(ghosts))
    return failure();
  Value count = arith::MulIOp::create(b, loc, rt.toI64(b, loc, a.getGhosts()),
                                      rt.i64(b, loc, (int64_t)op.getCols()));
  rewriter.replaceOp(
      op, viewOf(rt, b, loc, op.getBuffer().getType(), *ghosts, count));
  return success();
}

static LogicalResult lowerShareX(RuntimeLowering &rt, SparseShareXOp op,
                                 SparseShareXOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  FailureOr<Value> whole =
      rt.call(b, loc, "distrt_spmat_share_x",
              {a.getTile(), rt.ptrOf(b, loc, a.getX()),
               rt.i64(b, loc, (int64_t)op.getCols())});
  if (failed(whole))
    return failure();
  // All rows of the operand (the matrix's columns), or none.
  Value null = LLVM::ZeroOp::create(b, loc, rt.ptrTy);
  Value shared =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, *whole, null);
  Value count = LLVM::SelectOp::create(
      b, loc, shared,
      arith::MulIOp::create(b, loc, rt.toI64(b, loc, a.getRows()),
                            rt.i64(b, loc, (int64_t)op.getCols())),
      rt.i64(b, loc, 0));
  rewriter.replaceOp(op, {viewOf(rt, b, loc, op.getWhole().getType(), *whole,
                                 count),
                          shared});
  return success();
}

static LogicalResult lowerMulAdd(RuntimeLowering &rt, SparseMulAddOp op,
                                 SparseMulAddOp::Adaptor a,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  if (failed(rt.call(b, loc, "distrt_spmat_mul_add",
                     {a.getTile(), rt.ptrOf(b, loc, a.getX()),
                      rt.ptrOf(b, loc, a.getY()),
                      rt.i64(b, loc, (int64_t)op.getCols()),
                      rt.i64(b, loc, op.getXWhole() ? 1 : 0)})))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

void rt::populateSparseToRuntimePatterns(RewritePatternSet &patterns,
                                         TypeConverter &converter,
                                         RuntimeLowering &lowering) {
  converter.addConversion(
      [&lowering](SparseTileType) -> Type { return lowering.ptrTy; });
  MLIRContext *ctx = patterns.getContext();
  auto add = [&](auto fn) {
    using OpTy = typename llvm::function_traits<decltype(fn)>::template arg_t<1>;
    patterns.add<SparseLowering<OpTy>>(converter, ctx, lowering, fn);
  };
  add(lowerNew);
  add(lowerFree);
  add(lowerRead);
  add(lowerWrite);
  add(lowerGenerate);
  add(lowerPlan);
  add(lowerPart);
  add(lowerOffdiagRows);
  add(lowerLocalRows);
  add(lowerPartial);
  add(lowerRowTargets);
  add(lowerReduceRows);
  add(lowerInPartition);
  add(lowerEntries);
  add(lowerFiberPartial);
  add(lowerReduceFibers);
  add(lowerFiberRuns);
  add(lowerExchangeBegin);
  add(lowerExchangeEnd);
  add(lowerShareX);
  add(lowerMulAdd);
  add(lowerGather);
  add(lowerPatternOf);
  add(lowerCheckResult);
  add(lowerReserve);
  add(lowerCommit);
  add(lowerFibers);
}
