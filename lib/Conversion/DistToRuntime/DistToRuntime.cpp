//===- DistToRuntime.cpp - SPMD dist ops to distrt calls --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// convert-dist-to-runtime: lowers every SPMD op of the dist dialect to calls
// into the distrt C runtime, with one dialect conversion whose patterns live
// beside this file, one file per family of ops (RuntimeLowering.h). Every
// grid gets a private global slot that caches its runtime handle, so
// communicators are created once per run. This pass is the only code that
// knows the runtime's function names.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"
#include "RuntimeLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_CONVERTDISTTORUNTIME
#include "DistTensor/Conversion/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

/// The ops of distributed tensors that dist-materialize-spmd lowers; they
/// have no runtime lowering of their own.
static bool isTensorLevelOp(Operation *op) {
  return isa<AllocOp, FillOp, LoadOp, StoreOp, ComputeOp, RedistributeOp>(op);
}

struct ConvertDistToRuntimePass
    : public dist::impl::ConvertDistToRuntimeBase<ConvertDistToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();

    // Tensor-level ops must have been lowered already.
    WalkResult early = module.walk([&](Operation *op) {
      if (!isTensorLevelOp(op))
        return WalkResult::advance();
      op->emitError("'")
          << op->getName()
          << "' cannot be lowered by convert-dist-to-runtime, which lowers "
             "machines and SPMD operations; run dist-materialize-spmd "
             "first (the dist-to-llvm pipeline does)";
      return WalkResult::interrupt();
    });
    if (early.wasInterrupted())
      return signalPassFailure();

    // 1. Every grid becomes a cache slot and a constant extents array.
    rt::RuntimeLowering lowering(module);
    SmallVector<GridOp> grids;
    module.walk([&](GridOp g) { grids.push_back(g); });
    for (GridOp grid : grids)
      if (failed(lowering.lowerGrid(grid)))
        return signalPassFailure();

    // 2. Every other dist op becomes runtime calls; dist types (requests)
    //    become their runtime representation wherever they flow.
    TypeConverter converter;
    converter.addConversion([](Type t) { return t; });
    RewritePatternSet patterns(ctx);
    rt::populateCommToRuntimePatterns(patterns, lowering);
    rt::populateTransferToRuntimePatterns(patterns, converter, lowering);
    rt::populateKernelToRuntimePatterns(patterns, converter, lowering);
    rt::populateSparseToRuntimePatterns(patterns, converter, lowering);

    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, arith::ArithDialect,
                           memref::MemRefDialect>();
    target.addIllegalDialect<DistDialect>();
    target.addLegalOp<GridOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return converter.isLegal(op) &&
             (!isa<func::FuncOp>(op) ||
              converter.isSignatureLegal(
                  cast<func::FuncOp>(op).getFunctionType()));
    });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))) ||
        lowering.hadError())
      return signalPassFailure();

    for (GridOp grid : grids)
      grid.erase();
  }
};

} // namespace
