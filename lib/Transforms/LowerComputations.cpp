//===- LowerComputations.cpp - dist.compute to SPMD loop nests --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-lower-computations: every dist.compute becomes the loop nest its
// schedule gives, over the local tiles (dist.local_tile) of its tensors,
// with its transfers and leaf (SPMD/Compute.cpp and the files it uses).
//
//===----------------------------------------------------------------------===//

#include "SPMD/SPMDBuilder.h"
#include "SPMD/SPMDLowering.h"

#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTLOWERCOMPUTATIONS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

struct DistLowerComputationsPass
    : public dist::impl::DistLowerComputationsBase<DistLowerComputationsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SPMDOptions options;
    options.leafFallback = leafFallback;
    if (device == "gpu") {
      options.deviceTiles = true;
    } else if (device == "auto") {
      for (GridOp g : module.getOps<GridOp>())
        options.deviceTiles |=
            g.getLevel(g.getNumLevels() - 1).getKind() == ProcessorKind::gpu;
    } else if (device != "host") {
      module.emitError() << "dist-lower-computations: device='" << device
                         << "' is not 'host', 'gpu' or 'auto'";
      return signalPassFailure();
    }
    CostModel costModel;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costModel);
      if (!err.empty()) {
        module.emitError() << err;
        return signalPassFailure();
      }
    }
    SPMDBuilder rt(module, options, costModel);
    SmallVector<ComputeOp> computes;
    module.walk([&](ComputeOp op) { computes.push_back(op); });
    for (ComputeOp op : computes) {
      if (failed(lowerCompute(rt, op)))
        return signalPassFailure();
      op.erase();
    }
  }
};

} // namespace
