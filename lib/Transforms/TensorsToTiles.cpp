//===- TensorsToTiles.cpp - distributed tensors to local tiles --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-tensors-to-tiles: a type conversion from !dist.tensor to the running
// process's local tile (memref<?xT>) over functions, calls and returns, with
// patterns for the ops that create and fill tensors (dist.alloc, dist.fill,
// dist.load, dist.store: dist.tile_capacity and a checked memref.alloc,
// dist.fill_tile, dist.load_tile, dist.store_tile) and dist.local_tile,
// which folds into its operand's tile. A sparse tensor becomes its
// runtime handle (!dist.sparse_tile: dist.sparse_new / sparse_free,
// dist.sparse_read, dist.sparse_write, dist.sparse_generate;
// dist.sparse_local folds). Functions that use distributed
// tensors start the runtime (dist.runtime_init); @main ends it
// (dist.runtime_finalize) before it returns. Each dynamic extent (`?`) of
// an exported function's tensor argument becomes an i64 argument after the
// others, which dist.tensor_extent reads.
//
//===----------------------------------------------------------------------===//

#include "SPMD/SPMDBuilder.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTTENSORSTOTILES
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

/// !dist.tensor<... x T, ...> -> memref<?xT>; other types stay.
struct TileTypeConverter : TypeConverter {
  TileTypeConverter() {
    addConversion([](Type t) { return t; });
    addConversion([](DistTensorType t) -> Type {
      if (t.isSparse())
        return SparseTileType::get(t.getContext());
      return MemRefType::get({ShapedType::kDynamic}, t.getElementType());
    });
  }
};

/// Base of the patterns: the shared SPMDBuilder.
template <typename OpTy>
struct TilePattern : OpConversionPattern<OpTy> {
  TilePattern(const TypeConverter &converter, MLIRContext *ctx,
              SPMDBuilder &rt)
      : OpConversionPattern<OpTy>(converter, ctx), rt(rt) {}
  SPMDBuilder &rt;
};

/// dist.local_tile %t -> %t's tile.
struct LocalTileLowering : TilePattern<LocalTileOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LocalTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getTensor());
    return success();
  }
};

/// dist.sparse_local %t -> %t's handle.
struct SparseLocalLowering : TilePattern<SparseLocalOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(SparseLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getTensor());
    return success();
  }
};

/// dist.alloc -> a checked allocation of the largest tile of the layout,
/// freed at the end of the enclosing block. A sparse tensor: the runtime's
/// empty matrix (dist.sparse_new), freed there too.
struct AllocLowering : TilePattern<AllocOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DistTensorType t = op.getResult().getType();
    Location loc = op.getLoc();
    if (t.isSparse()) {
      Value h = SparseNewOp::create(
          rewriter, loc, SparseTileType::get(rewriter.getContext()), t);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(op->getBlock()->getTerminator());
        SparseFreeOp::create(rewriter, loc, h);
      }
      rewriter.replaceOp(op, h);
      return success();
    }
    Value cap =
        TileCapacityOp::create(rewriter, loc, rewriter.getIndexType(), t);
    Value tile = rt.allocChecked(rewriter, loc, rt.tileType(t), ValueRange{cap},
                                 "the local tile of a distributed tensor");
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(op->getBlock()->getTerminator());
      memref::DeallocOp::create(rewriter, loc, tile);
    }
    rewriter.replaceOp(op, tile);
    return success();
  }
};

/// dist.fill -> dist.fill_tile.
struct FillLowering : TilePattern<FillOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<FillTileOp>(
        op, adaptor.getTensor(), op.getTensor().getType(), op.getSeed());
    return success();
  }
};

/// dist.load / dist.store -> dist.load_tile / dist.store_tile, which read
/// or write this rank's part of the tensor file (runtime/lib/io.c checks
/// the file).
template <typename OpTy>
struct FileLowering : TilePattern<OpTy> {
  using TilePattern<OpTy>::TilePattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto t = cast<DistTensorType>(op.getTensor().getType());
    if (t.isSparse()) {
      if constexpr (std::is_same_v<OpTy, dist::LoadOp>)
        rewriter.replaceOpWithNewOp<SparseReadOp>(op, adaptor.getTensor(),
                                                  op.getPath());
      else
        rewriter.replaceOpWithNewOp<SparseWriteOp>(op, adaptor.getTensor(),
                                                   op.getPath());
      return success();
    }
    using TileOp = std::conditional_t<std::is_same_v<OpTy, dist::LoadOp>,
                                      LoadTileOp, StoreTileOp>;
    rewriter.replaceOpWithNewOp<TileOp>(op, adaptor.getTensor(), t,
                                        op.getPath());
    return success();
  }
};

/// dist.generate -> dist.sparse_generate.
struct GenerateLowering : TilePattern<GenerateOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(GenerateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<SparseGenerateOp>(
        op, adaptor.getTensor(), op.getKind(), op.getParam(), op.getSeed());
    return success();
  }
};

/// Whether `op` works on distributed tensors (what this pass rewrites).
static bool usesTensors(Operation *op) {
  if (isa<AllocOp, FillOp, dist::LoadOp, dist::StoreOp, LocalTileOp,
          SparseLocalOp, GenerateOp, ComputeOp, RedistributeOp>(op))
    return true;
  return llvm::any_of(op->getOperandTypes(), llvm::IsaPred<DistTensorType>);
}

constexpr StringLiteral kDynamicSupported =
    "dynamic extents are supported on exported function arguments used by "
    "one-sided products; docs/interop.md";

/// Whether `v`, a tensor with dynamic extents, is an argument of an
/// exported function: a public function with a body, not @main.
bool isExportedArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return f && f.isPublic() && !f.isExternal() && f.getSymName() != "main";
}

/// Tensors with dynamic extents (`?`): each must be an exported function's
/// argument used only by dist.local_tile and dist.tensor_extent (what the
/// one-sided lowering leaves). Each dynamic extent becomes an `i64`
/// argument of the function, after the others (arguments in order,
/// dimensions in order within each), and dist.tensor_extent that argument
/// (or a constant, for a static extent).
LogicalResult lowerDynamicExtents(ModuleOp module) {
  auto isDynamic = [](Type t) {
    auto dt = dyn_cast<DistTensorType>(t);
    return dt && !dt.hasStaticShape();
  };
  auto checkValue = [&](Value v, Operation *where) -> LogicalResult {
    if (!isDynamic(v.getType()))
      return success();
    if (!isExportedArgument(v))
      return where->emitOpError("has a tensor with dynamic extents (")
             << v.getType()
             << ") that is not an argument of a public function other "
                "than @main; "
             << kDynamicSupported;
    for (Operation *user : v.getUsers())
      if (!isa<LocalTileOp, TensorExtentOp>(user))
        return user->emitOpError("takes a tensor with dynamic extents (")
               << v.getType() << "), which it cannot lower; "
               << kDynamicSupported;
    return success();
  };
  WalkResult r = module.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (failed(checkValue(v, op)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          if (failed(checkValue(a, op)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  for (func::FuncOp f : module.getOps<func::FuncOp>()) {
    if (f.isExternal())
      continue;
    // The extent arguments, by (argument, dimension).
    llvm::DenseMap<std::pair<unsigned, int64_t>, Value> extentArgs;
    unsigned n = f.getNumArguments();
    IntegerType i64 = IntegerType::get(f.getContext(), 64);
    for (unsigned i = 0; i < n; ++i) {
      auto dt = dyn_cast<DistTensorType>(f.getArgumentTypes()[i]);
      if (!dt)
        continue;
      for (int64_t d = 0; d < dt.getRank(); ++d) {
        if (!dt.isDynamicDim(d))
          continue;
        unsigned at = f.getNumArguments();
        if (failed(f.insertArgument(at, i64, {}, f.getArgument(i).getLoc())))
          return failure();
        extentArgs[{i, d}] = f.getArgument(at);
      }
    }
    SmallVector<TensorExtentOp> extents;
    f.walk([&](TensorExtentOp op) { extents.push_back(op); });
    for (TensorExtentOp op : extents) {
      auto t = cast<DistTensorType>(op.getTensor().getType());
      OpBuilder b(op);
      if (!t.isDynamicDim(op.getDim())) {
        op.replaceAllUsesWith(arith::ConstantIntOp::create(
                                  b, op.getLoc(), t.getShape()[op.getDim()], 64)
                                  .getResult());
        op.erase();
        continue;
      }
      auto arg = cast<BlockArgument>(op.getTensor());
      op.replaceAllUsesWith(
          extentArgs.lookup({arg.getArgNumber(), op.getDim()}));
      op.erase();
    }
  }
  return success();
}

struct DistTensorsToTilesPass
    : public dist::impl::DistTensorsToTilesBase<DistTensorsToTilesPass> {
  using Base::Base;

  /// Located errors for what this pass cannot convert; which functions
  /// use distributed tensors.
  LogicalResult check(ModuleOp module, SPMDBuilder &rt,
                      SmallVectorImpl<func::FuncOp> &users) {
    WalkResult r = module.walk([&](Operation *op) {
      if (isa<ComputeOp, RedistributeOp>(op)) {
        op->emitError("'") << op->getName()
                           << "' must be lowered before "
                              "dist-tensors-to-tiles (run "
                              "dist-lower-computations and "
                              "dist-lower-redistributions first)";
        return WalkResult::interrupt();
      }
      for (Type t : op->getResultTypes())
        if (auto dt = dyn_cast<DistTensorType>(t))
          if (failed(rt.checkTensorType(op, dt, /*allowSparse=*/true)))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return failure();
    bool moduleUses = false;
    for (func::FuncOp f : module.getOps<func::FuncOp>()) {
      for (Type t : f.getResultTypes())
        if (isa<DistTensorType>(t))
          return f.emitError("functions cannot return distributed tensors; "
                             "pass the result tensor as an argument");
      if (f.isExternal())
        continue;
      bool uses = false;
      for (Type t : f.getArgumentTypes())
        if (auto dt = dyn_cast<DistTensorType>(t)) {
          if (failed(rt.checkTensorType(f, dt, /*allowSparse=*/true)))
            return failure();
          uses = true;
        }
      f.walk([&](Operation *op) { uses |= usesTensors(op); });
      if (uses)
        users.push_back(f);
      moduleUses |= uses;
    }
    // A @main that only calls functions using the runtime must still end
    // it before it returns.
    if (moduleUses)
      if (auto main = module.lookupSymbol<func::FuncOp>("main"))
        if (!main.isExternal() && !llvm::is_contained(users, main))
          users.push_back(main);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SPMDOptions options;
    CostModel costModel;
    SPMDBuilder rt(module, options, costModel);

    SmallVector<func::FuncOp> users;
    if (failed(check(module, rt, users)) || failed(lowerDynamicExtents(module)))
      return signalPassFailure();
    // The runtime starts at entry (idempotent) and ends before main
    // returns.
    for (func::FuncOp f : users) {
      OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
      RuntimeInitOp::create(b, f.getLoc());
      if (f.getSymName() == "main")
        f.walk([&](func::ReturnOp r) {
          OpBuilder rb(r);
          RuntimeFinalizeOp::create(rb, r.getLoc());
        });
    }

    TileTypeConverter converter;
    RewritePatternSet patterns(ctx);
    patterns.add<LocalTileLowering, SparseLocalLowering, AllocLowering,
                 FillLowering, GenerateLowering, FileLowering<dist::LoadOp>,
                 FileLowering<dist::StoreOp>>(converter, ctx, rt);
    ConversionTarget target(*ctx);
    target.addIllegalOp<AllocOp, FillOp, GenerateOp, dist::LoadOp,
                        dist::StoreOp, LocalTileOp, SparseLocalOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto f = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(f.getFunctionType());
      return converter.isLegal(op);
    });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
