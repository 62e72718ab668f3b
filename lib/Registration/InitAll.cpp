//===- InitAll.cpp - register every dist dialect and pass -------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/InitAll.h"

#include "DistTensor/Conversion/Passes.h"
#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::dist::registerAllDistDialects(DialectRegistry &registry) {
  registry.insert<DistDialect>();
}

void mlir::dist::registerAllDistPasses() {
  registerDistConversionPasses();
  registerDistTransformsPasses();
  registerDistPipelines();
}
