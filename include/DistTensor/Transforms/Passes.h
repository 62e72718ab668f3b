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

/// Marks the memref arguments `args` of `leaf` as reaching memory that no
/// other argument reaches (`dist.restrict`), so that dist-restrict-leaves
/// gives their pointers `llvm.noalias` once the function is in the LLVM
/// dialect. The caller guarantees it (checked at run time where two
/// parameters could be one tensor).
void markRestrict(Operation *leaf, ArrayRef<int64_t> args);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_TRANSFORMS_PASSES_H
