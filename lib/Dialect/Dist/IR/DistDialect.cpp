//===- DistDialect.cpp - dist dialect ---------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dist;

#include "DistTensor/Dialect/Dist/IR/DistOpsDialect.cpp.inc"
#include "DistTensor/Dialect/Dist/IR/DistEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistAttrs.cpp.inc"

void DistDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "DistTensor/Dialect/Dist/IR/DistAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "DistTensor/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// GridLevelAttr
//===----------------------------------------------------------------------===//

LogicalResult
GridLevelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, ProcessorKind kind) {
  if (shape.empty())
    return emitError() << "a grid level needs at least one dimension";
  for (auto [i, extent] : llvm::enumerate(shape))
    if (extent < 1)
      return emitError() << "grid dimension " << i << " has extent " << extent
                         << "; extents must be at least 1";
  return success();
}
