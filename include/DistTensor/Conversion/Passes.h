//===- Passes.h - dist conversion passes ------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_CONVERSION_PASSES_H
#define DISTTENSOR_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace dist {

#define GEN_PASS_DECL
#include "DistTensor/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "DistTensor/Conversion/Passes.h.inc"

/// Adds the full lowering from dist IR to the LLVM dialect to `pm`.
void buildDistToLLVMPipeline(OpPassManager &pm);

/// Registers the named pipelines (`dist-to-llvm`).
void registerDistPipelines();

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_CONVERSION_PASSES_H
