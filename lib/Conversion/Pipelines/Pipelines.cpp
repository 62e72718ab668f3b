//===- Pipelines.cpp - named dist pipelines ---------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void dist::buildDistToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createConvertDistToRuntime());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void dist::registerDistPipelines() {
  PassPipelineRegistration<>(
      "dist-to-llvm",
      "Lower a dist program (machines, runtime calls, scf/memref/arith) all "
      "the way to the LLVM dialect, ready for dist-translate",
      [](OpPassManager &pm) { buildDistToLLVMPipeline(pm); });
}
