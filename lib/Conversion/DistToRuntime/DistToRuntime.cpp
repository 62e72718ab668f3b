//===- DistToRuntime.cpp - dist machine ops to distrt calls -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Lowers `dist.grid` declarations and `dist.grid_handle` uses to calls into
// the distrt C runtime. Every grid gets a private global slot that caches its
// runtime handle, so communicators are created once per run.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_CONVERTDISTTORUNTIME
#include "DistTensor/Conversion/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

constexpr llvm::StringLiteral kLookupFn = "distrt_grid_lookup";

/// Returns the declaration of runtime function `name` for a call passing
/// `args`, with its signature from the runtime table (RuntimeFunctions.def),
/// creating it if needed; fails if `name` is not in the table, the
/// arguments do not match it, or the symbol exists with another type.
static FailureOr<LLVM::LLVMFuncOp>
getOrCreateRuntimeFn(ModuleOp module, Location loc, StringRef name,
                     TypeRange args) {
  FailureOr<const abi::RuntimeFunction *> entry =
      abi::lookupRuntimeFunction(loc, name, args);
  if (failed(entry))
    return failure();
  LLVM::LLVMFunctionType fnTy =
      abi::getLLVMFunctionType(module.getContext(), **entry);
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, name)) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!fn || fn.getFunctionType() != fnTy) {
      existing->emitError("symbol '")
          << name
          << "' is reserved for the distrt runtime and has the wrong type";
      return failure();
    }
    return fn;
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, fnTy);
}

struct GridGlobals {
  LLVM::GlobalOp slot;
  LLVM::GlobalOp dims;
  /// Flattened extents (all levels, outermost first).
  SmallVector<int64_t> shape;
};

struct ConvertDistToRuntimePass
    : public dist::impl::ConvertDistToRuntimeBase<ConvertDistToRuntimePass> {
  ModuleOp module;
  Type ptrTy, i64Ty;
  llvm::DenseMap<StringAttr, GridGlobals> globals;

  void runOnOperation() override {
    module = getOperation();
    MLIRContext *ctx = module.getContext();
    ptrTy = LLVM::LLVMPointerType::get(ctx);
    i64Ty = IntegerType::get(ctx, 64);
    globals.clear();

    // 1. Every grid becomes a cache slot and a constant extents array.
    SmallVector<GridOp> grids;
    module.walk([&](GridOp g) { grids.push_back(g); });
    for (GridOp grid : grids)
      if (failed(lowerGrid(grid)))
        return signalPassFailure();

    // 2. Handles become lookups through the slot.
    SmallVector<GridHandleOp> handles;
    module.walk([&](GridHandleOp h) { handles.push_back(h); });
    for (GridHandleOp h : handles) {
      OpBuilder b(h);
      Value handle = lookupHandle(b, h.getLoc(), h, h.getGridAttr().getAttr());
      if (!handle)
        return signalPassFailure();
      h.getResult().replaceAllUsesWith(handle);
      h.erase();
    }

    // 3. Communication on buffers becomes runtime calls.
    SmallVector<Operation *> comms;
    module.walk([&](Operation *op) {
      if (isa<BroadcastOp, AllReduceOp, ReduceOp, AllGatherOp,
              ReduceScatterOp, AllToAllOp, GatherOp, ScatterOp, ShiftOp,
              SendOp, RecvOp>(op))
        comms.push_back(op);
    });
    for (Operation *op : comms)
      if (failed(lowerComm(op)))
        return signalPassFailure();

    // 4. Anything else of the dialect has no lowering here.
    WalkResult rest = module.walk([&](Operation *op) {
      if (isa<GridOp>(op) || !op->getDialect() ||
          op->getDialect()->getNamespace() != "dist")
        return WalkResult::advance();
      op->emitError("'")
          << op->getName()
          << "' cannot be lowered by convert-dist-to-runtime, which lowers "
             "machines and communication on buffers; run "
             "dist-materialize-spmd first (the dist-to-llvm pipeline does)";
      return WalkResult::interrupt();
    });
    if (rest.wasInterrupted())
      return signalPassFailure();

    for (GridOp grid : grids)
      grid.erase();
  }

  LogicalResult lowerGrid(GridOp grid) {
    SmallVector<int64_t> dims;
    for (unsigned l = 0; l < grid.getNumLevels(); ++l) {
      GridLevelAttr level = grid.getLevel(l);
      if (level.getKind() == ProcessorKind::gpu)
        return grid.emitError("grid '")
               << grid.getSymName() << "' has a level of GPUs (level " << l
               << "); GPU machines need the NCCL backend, which "
                  "convert-dist-to-runtime does not target yet";
      llvm::append_range(dims, level.getShape());
    }
    if (grid->getParentOp() != module.getOperation())
      return grid.emitError("dist.grid must be declared at module level to "
                            "be lowered to the runtime");
    OpBuilder b(grid);
    Location loc = grid.getLoc();
    std::string base = ("__dist_grid_" + grid.getSymName()).str();
    std::string dimsName = base + "_dims";
    for (const std::string &name : {base, dimsName})
      if (SymbolTable::lookupSymbolIn(module, name))
        return grid.emitError("symbol '")
               << name << "' is reserved for the runtime handle of grid '"
               << grid.getSymName() << "'";
    auto slot = LLVM::GlobalOp::create(b, loc, ptrTy, /*isConstant=*/false,
                                       LLVM::Linkage::Internal, base,
                                       Attribute());
    {
      Block *init = b.createBlock(&slot.getInitializerRegion());
      OpBuilder ib = OpBuilder::atBlockEnd(init);
      Value null = LLVM::ZeroOp::create(ib, loc, ptrTy);
      LLVM::ReturnOp::create(ib, loc, null);
    }
    b.setInsertionPoint(grid);
    auto arrTy = LLVM::LLVMArrayType::get(i64Ty, dims.size());
    auto dimsAttr = DenseElementsAttr::get(
        RankedTensorType::get({(int64_t)dims.size()}, i64Ty),
        ArrayRef<int64_t>(dims));
    auto dimsGlobal = LLVM::GlobalOp::create(b, loc, arrTy, /*isConstant=*/true,
                                             LLVM::Linkage::Internal,
                                             base + "_dims", dimsAttr);
    globals[grid.getSymNameAttr()] = {slot, dimsGlobal, dims};
    return success();
  }

  Value lookupHandle(OpBuilder &b, Location loc, Operation *user,
                     StringAttr gridName) {
    auto it = globals.find(gridName);
    if (it == globals.end()) {
      user->emitError("'@") << gridName.getValue()
                            << "' does not name a module-level dist.grid";
      return {};
    }
    Value slot = LLVM::AddressOfOp::create(b, loc, it->second.slot);
    Value dims = LLVM::AddressOfOp::create(b, loc, it->second.dims);
    Value n = LLVM::ConstantOp::create(
        b, loc, i64Ty, b.getI64IntegerAttr(it->second.shape.size()));
    FailureOr<LLVM::LLVMFuncOp> lookup = getOrCreateRuntimeFn(
        module, loc, kLookupFn, TypeRange{slot.getType(), n.getType(),
                                          dims.getType()});
    if (failed(lookup))
      return {};
    return LLVM::CallOp::create(b, loc, *lookup, ValueRange{slot, n, dims})
        .getResult();
  }

  Value constI64(OpBuilder &b, Location loc, int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64Ty, b.getI64IntegerAttr(v));
  }

  Value toI64(OpBuilder &b, Location loc, Value index) {
    return arith::IndexCastOp::create(b, loc, i64Ty, index);
  }

  /// A contiguous buffer as (pointer, element count); fails with a
  /// diagnostic on non-identity layouts or element types distrt lacks.
  LogicalResult buffer(OpBuilder &b, Location loc, Operation *op, Value mem,
                       Value &ptr, Value &count, int64_t &dtype) {
    auto type = cast<MemRefType>(mem.getType());
    dtype = abi::dtypeCode(type.getElementType());
    if (dtype < 0)
      return op->emitOpError("communicates ")
             << type.getElementType()
             << " elements; the runtime handles f32, f64, i32 and i64";
    if (!type.getLayout().isIdentity())
      return op->emitOpError("needs a contiguous buffer with the identity "
                             "layout, got ")
             << type;
    Value addr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, mem);
    ptr = LLVM::IntToPtrOp::create(b, loc, ptrTy, toI64(b, loc, addr));
    int64_t staticCount = 1;
    Value dynCount;
    for (auto [d, e] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(e)) {
        staticCount *= e;
        continue;
      }
      Value dim = toI64(b, loc, memref::DimOp::create(b, loc, mem, d));
      dynCount = dynCount ? LLVM::MulOp::create(b, loc, dynCount, dim)
                                .getResult()
                          : dim;
    }
    count = constI64(b, loc, staticCount);
    if (dynCount)
      count = LLVM::MulOp::create(b, loc, count, dynCount);
    return success();
  }

  FailureOr<LLVM::CallOp> call(OpBuilder &b, Location loc, StringRef name,
                               ValueRange args) {
    FailureOr<LLVM::LLVMFuncOp> fn =
        getOrCreateRuntimeFn(module, loc, name, args.getTypes());
    if (failed(fn))
      return failure();
    return LLVM::CallOp::create(b, loc, *fn, args);
  }

  /// Number of processors in a group spanning `axes` of the grid.
  int64_t groupSize(StringAttr grid, ArrayRef<int64_t> axes) {
    return productOfAxes(globals[grid].shape, axes);
  }

  LogicalResult lowerComm(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto gridAttr = op->getAttrOfType<FlatSymbolRefAttr>("grid");
    Value g = lookupHandle(b, loc, op, gridAttr.getAttr());
    if (!g)
      return failure();
    auto mask = [&](ArrayRef<int64_t> axes) {
      int64_t m = 0;
      for (int64_t a : axes)
        m |= int64_t(1) << a;
      return constI64(b, loc, m);
    };
    Value p1, n1, p2, n2;
    int64_t t1 = 0, t2 = 0;
    FailureOr<LLVM::CallOp> result = failure();
    auto inOut = [&](Value in, Value out) {
      return failed(buffer(b, loc, op, in, p1, n1, t1)) ||
             failed(buffer(b, loc, op, out, p2, n2, t2));
    };
    if (auto o = dyn_cast<BroadcastOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_bcast",
                    {g, mask(o.getAxes()), p1, n1, constI64(b, loc, t1),
                     toI64(b, loc, o.getRoot())});
    } else if (auto o = dyn_cast<AllReduceOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_allreduce",
                    {g, mask(o.getAxes()), p1, n1, constI64(b, loc, t1),
                     constI64(b, loc, (int64_t)o.getKind())});
    } else if (auto o = dyn_cast<ReduceOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_reduce",
                    {g, mask(o.getAxes()), p1, n1, constI64(b, loc, t1),
                     constI64(b, loc, (int64_t)o.getKind()),
                     toI64(b, loc, o.getRoot())});
    } else if (auto o = dyn_cast<AllGatherOp>(op)) {
      if (inOut(o.getInput(), o.getOutput()))
        return failure();
      result = call(b, loc, "distrt_allgather",
                    {g, mask(o.getAxes()), p1, p2, n1, constI64(b, loc, t1)});
    } else if (auto o = dyn_cast<ReduceScatterOp>(op)) {
      if (inOut(o.getInput(), o.getOutput()))
        return failure();
      result = call(b, loc, "distrt_reduce_scatter",
                    {g, mask(o.getAxes()), p1, p2, n2, constI64(b, loc, t1),
                     constI64(b, loc, (int64_t)o.getKind())});
    } else if (auto o = dyn_cast<AllToAllOp>(op)) {
      if (inOut(o.getInput(), o.getOutput()))
        return failure();
      int64_t group = groupSize(gridAttr.getAttr(), o.getAxes());
      Value perPair = LLVM::SDivOp::create(b, loc, n1, constI64(b, loc, group));
      result = call(b, loc, "distrt_alltoall",
                    {g, mask(o.getAxes()), p1, p2, perPair,
                     constI64(b, loc, t1)});
    } else if (auto o = dyn_cast<GatherOp>(op)) {
      if (inOut(o.getInput(), o.getOutput()))
        return failure();
      result = call(b, loc, "distrt_gather",
                    {g, mask(o.getAxes()), p1, p2, n1, constI64(b, loc, t1),
                     toI64(b, loc, o.getRoot())});
    } else if (auto o = dyn_cast<ScatterOp>(op)) {
      if (inOut(o.getInput(), o.getOutput()))
        return failure();
      result = call(b, loc, "distrt_scatter",
                    {g, mask(o.getAxes()), p1, p2, n2, constI64(b, loc, t1),
                     toI64(b, loc, o.getRoot())});
    } else if (auto o = dyn_cast<ShiftOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_shift",
                    {g, constI64(b, loc, (int64_t)o.getAxis()),
                     constI64(b, loc, (int64_t)o.getOffset()), p1, n1,
                     constI64(b, loc, t1)});
    } else if (auto o = dyn_cast<SendOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_send",
                    {g, p1, n1, constI64(b, loc, t1),
                     toI64(b, loc, o.getDest()),
                     constI64(b, loc, (int64_t)o.getTag())});
    } else if (auto o = dyn_cast<RecvOp>(op)) {
      if (failed(buffer(b, loc, op, o.getBuffer(), p1, n1, t1)))
        return failure();
      result = call(b, loc, "distrt_recv",
                    {g, p1, n1, constI64(b, loc, t1),
                     toI64(b, loc, o.getSource()),
                     constI64(b, loc, (int64_t)o.getTag())});
    }
    if (failed(result))
      return failure();
    op->erase();
    return success();
  }
};

} // namespace
