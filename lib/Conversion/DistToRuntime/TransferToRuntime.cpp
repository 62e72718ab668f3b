//===- TransferToRuntime.cpp - transfers, boxes and tile views -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Conversion patterns of convert-dist-to-runtime for the SPMD ops of
// transfers, boxes and tile views.
//
//===----------------------------------------------------------------------===//

#include "RuntimeLowering.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::rt;

void mlir::dist::rt::populateTransferToRuntimePatterns(
    RewritePatternSet &patterns, TypeConverter &converter,
    RuntimeLowering &lowering) {
  (void)patterns;
  (void)converter;
  (void)lowering;
}
