//===- DistDialect.cpp - dist dialect ---------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"


using namespace mlir;
using namespace mlir::dist;

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

