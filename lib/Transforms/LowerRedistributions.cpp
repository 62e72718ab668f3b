//===- LowerRedistributions.cpp - dist.redistribute to SPMD steps -*- C++ -*-//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-lower-redistributions: every dist.redistribute becomes the steps of
// its plan on the local tiles (dist.local_tile) of its source and
// destination (SPMD/Redistribute.cpp).
//
//===----------------------------------------------------------------------===//

#include "SPMD/SPMDBuilder.h"
#include "SPMD/SPMDLowering.h"

#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTLOWERREDISTRIBUTIONS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

struct DistLowerRedistributionsPass
    : public dist::impl::DistLowerRedistributionsBase<
          DistLowerRedistributionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (redistribution != "balanced" && redistribution != "general") {
      module.emitError() << "dist-lower-redistributions: redistribution='"
                         << redistribution
                         << "' is not 'balanced' or 'general'";
      return signalPassFailure();
    }
    CostModel costModel;
    costModel.memoryBound = !relaxMemoryBound;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costModel);
      if (!err.empty()) {
        module.emitError() << err;
        return signalPassFailure();
      }
    }
    SPMDOptions options;
    options.redistribution = redistribution;
    SPMDBuilder rt(module, options, costModel);
    SmallVector<RedistributeOp> ops;
    module.walk([&](RedistributeOp op) { ops.push_back(op); });
    for (RedistributeOp op : ops) {
      if (failed(lowerRedistribute(rt, op)))
        return signalPassFailure();
      op.erase();
    }
  }
};

} // namespace
