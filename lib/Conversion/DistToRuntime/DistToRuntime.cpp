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

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

/// Returns the declaration of `distrt_grid_lookup`, creating it if needed:
///   distrt_grid *distrt_grid_lookup(distrt_grid **slot, int64_t ndims,
///                                   const int64_t *dims);
static FailureOr<LLVM::LLVMFuncOp> getOrCreateLookupFn(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  auto i64Ty = IntegerType::get(ctx, 64);
  auto fnTy = LLVM::LLVMFunctionType::get(ptrTy, {ptrTy, i64Ty, ptrTy});
  if (Operation *existing = SymbolTable::lookupSymbolIn(module, kLookupFn)) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!fn || fn.getFunctionType() != fnTy) {
      existing->emitError("symbol '")
          << kLookupFn
          << "' is reserved for the distrt runtime and has the wrong type";
      return failure();
    }
    return fn;
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), kLookupFn, fnTy);
}

struct GridGlobals {
  LLVM::GlobalOp slot;
  LLVM::GlobalOp dims;
  int64_t ndims;
};

struct ConvertDistToRuntimePass
    : public dist::impl::ConvertDistToRuntimeBase<ConvertDistToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i64Ty = IntegerType::get(ctx, 64);
    SymbolTable symbols(module);

    // 1. Every grid becomes a cache slot and a constant extents array.
    llvm::DenseMap<StringAttr, GridGlobals> globals;
    SmallVector<GridOp> grids;
    module.walk([&](GridOp g) { grids.push_back(g); });
    bool anyFailed = false;
    for (GridOp grid : grids) {
      SmallVector<int64_t> dims;
      for (unsigned l = 0; l < grid.getNumLevels(); ++l) {
        GridLevelAttr level = grid.getLevel(l);
        if (level.getKind() == ProcessorKind::gpu) {
          grid.emitError("grid '")
              << grid.getSymName() << "' has a level of GPUs (level " << l
              << "); GPU machines need the NCCL backend, which "
                 "convert-dist-to-runtime does not target yet";
          anyFailed = true;
          break;
        }
        llvm::append_range(dims, level.getShape());
      }
      if (anyFailed)
        continue;
      if (grid->getParentOp() != module.getOperation()) {
        grid.emitError("dist.grid must be declared at module level to be "
                       "lowered to the runtime");
        anyFailed = true;
        continue;
      }
      OpBuilder b(grid);
      Location loc = grid.getLoc();
      std::string base = ("__dist_grid_" + grid.getSymName()).str();
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
      auto dimsGlobal = LLVM::GlobalOp::create(
          b, loc, arrTy, /*isConstant=*/true, LLVM::Linkage::Internal,
          base + "_dims", dimsAttr);
      globals[grid.getSymNameAttr()] = {slot, dimsGlobal,
                                        (int64_t)dims.size()};
    }
    if (anyFailed)
      return signalPassFailure();

    // 2. Handles become lookups through the slot.
    SmallVector<GridHandleOp> handles;
    module.walk([&](GridHandleOp h) { handles.push_back(h); });
    if (!handles.empty()) {
      FailureOr<LLVM::LLVMFuncOp> lookup = getOrCreateLookupFn(module);
      if (failed(lookup))
        return signalPassFailure();
      for (GridHandleOp h : handles) {
        auto it = globals.find(h.getGridAttr().getAttr());
        if (it == globals.end()) {
          h.emitError("'") << h.getGrid()
                           << "' does not name a module-level dist.grid";
          return signalPassFailure();
        }
        OpBuilder b(h);
        Location loc = h.getLoc();
        Value slot = LLVM::AddressOfOp::create(b, loc, it->second.slot);
        Value dims = LLVM::AddressOfOp::create(b, loc, it->second.dims);
        Value n = LLVM::ConstantOp::create(
            b, loc, i64Ty, b.getI64IntegerAttr(it->second.ndims));
        auto call =
            LLVM::CallOp::create(b, loc, *lookup, ValueRange{slot, n, dims});
        h.getResult().replaceAllUsesWith(call.getResult());
        h.erase();
      }
    }
    for (GridOp grid : grids)
      grid.erase();
  }
};

} // namespace
