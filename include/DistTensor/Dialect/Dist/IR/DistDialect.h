//===- DistDialect.h - dist dialect -----------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H
#define DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "DistTensor/Dialect/Dist/IR/DistOpsDialect.h.inc"
#include "DistTensor/Dialect/Dist/IR/DistEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistAttrs.h.inc"

#endif // DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H
