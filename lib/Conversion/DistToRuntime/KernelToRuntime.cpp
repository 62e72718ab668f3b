//===- KernelToRuntime.cpp - leaf kernels, tiles, redistribution steps and instrumentation -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Conversion patterns of convert-dist-to-runtime for the SPMD ops of
// leaf kernels, tiles, redistribution steps and instrumentation.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

void mlir::dist::rt::populateKernelToRuntimePatterns(
    RewritePatternSet &patterns, TypeConverter &converter,
    RuntimeLowering &lowering) {
  (void)patterns;
  (void)converter;
  (void)lowering;
}
