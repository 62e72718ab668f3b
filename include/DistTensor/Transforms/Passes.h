//===- Passes.h - dist transformation passes --------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_TRANSFORMS_PASSES_H
#define DISTTENSOR_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
class RewritePatternSet;
namespace dist {

#define GEN_PASS_DECL
#include "DistTensor/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "DistTensor/Transforms/Passes.h.inc"

/// The rewrites of dist-simplify-redistributions: identity redistributions
/// fold, consecutive ones compose, reduce-scatter + allgather -> allreduce.
void populateSimplifyRedistributionPatterns(RewritePatternSet &patterns);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_TRANSFORMS_PASSES_H
