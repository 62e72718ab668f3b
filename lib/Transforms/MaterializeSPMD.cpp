//===- MaterializeSPMD.cpp - dist IR to per-rank SPMD code ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-materialize-spmd: the passes that turn distributed tensors and
// scheduled statements into the code every rank runs, in order, with one
// set of options:
//   dist-instrument             check and timing code around them
//   dist-lower-redistributions  dist.redistribute -> plan steps on tiles
//   dist-lower-computations     dist.compute -> loop nests, transfers, leaves
//   dist-tensors-to-tiles       !dist.tensor -> memref<?xT> (a type
//                               conversion), dist.alloc / fill / load /
//                               store, runtime start and end
// Each is a pass of its own (one file each) with its own lit tests.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTMATERIALIZESPMD
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

struct DistMaterializeSPMDPass
    : public dist::impl::DistMaterializeSPMDBase<DistMaterializeSPMDPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (redistribution != "balanced" && redistribution != "general") {
      module.emitError() << "dist-materialize-spmd: redistribution='"
                         << redistribution
                         << "' is not 'balanced' or 'general'";
      return signalPassFailure();
    }
    OpPassManager pm(ModuleOp::getOperationName());
    DistInstrumentOptions instrument;
    instrument.check = check;
    instrument.timing = timing;
    instrument.tolerance = tolerance;
    pm.addPass(createDistInstrument(instrument));
    DistLowerRedistributionsOptions redist;
    redist.redistribution = redistribution;
    redist.costFile = costFile;
    redist.relaxMemoryBound = relaxMemoryBound;
    pm.addPass(createDistLowerRedistributions(redist));
    DistLowerComputationsOptions compute;
    compute.leafFallback = leafFallback;
    compute.device = device;
    compute.costFile = costFile;
    pm.addPass(createDistLowerComputations(compute));
    DistDoubleBufferOptions doubleBuffer;
    doubleBuffer.overlap = overlap;
    pm.addPass(createDistDoubleBuffer(doubleBuffer));
    pm.addPass(createDistTensorsToTiles());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

} // namespace
