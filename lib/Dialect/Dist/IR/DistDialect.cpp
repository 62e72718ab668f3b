//===- DistDialect.cpp - dist dialect ---------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "distrt/abi.h"

using namespace mlir;
using namespace mlir::dist;

// One limit for the verifier and the runtime: grids and tensors the
// verifier accepts fit the runtime's fixed-size descriptors.
static_assert(kMaxDims == DISTRT_MAX_DIMS, "kMaxDims (DistDialect.h) must "
                                           "equal DISTRT_MAX_DIMS (abi.h)");

#include "DistTensor/Dialect/Dist/IR/DistOpsDialect.cpp.inc"
#include "DistTensor/Dialect/Dist/IR/DistEnums.cpp.inc"

void DistDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "DistTensor/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
}

