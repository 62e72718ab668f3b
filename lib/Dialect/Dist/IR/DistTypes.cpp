//===- DistTypes.cpp - dist dialect types -----------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dist;

/// shape-and-type ::= (int `x`)* type, e.g. `64x32xf64`.
static ParseResult parseDistShape(AsmParser &parser,
                                  SmallVectorImpl<int64_t> &shape,
                                  Type &elementType) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  for (int64_t e : shape)
    if (e < 0)
      return parser.emitError(loc) << "distributed tensors have static shapes";
  return success();
}

static void printDistShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                           Type elementType) {
  for (int64_t e : shape)
    printer << e << "x";
  printer << elementType;
}

#define GET_TYPEDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOpsTypes.cpp.inc"

void DistDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "DistTensor/Dialect/Dist/IR/DistOpsTypes.cpp.inc"
      >();
}

LogicalResult
DistTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType,
                       LayoutAttr layout) {
  if (!elementType.isF32() && !elementType.isF64() &&
      !elementType.isInteger(32) && !elementType.isInteger(64))
    return emitError() << "distributed tensors hold f32, f64, i32 or i64, not "
                       << elementType;
  for (auto [d, e] : llvm::enumerate(shape))
    if (e < 1)
      return emitError() << "dimension " << d << " has extent " << e
                         << "; extents must be at least 1";
  if (!layout)
    return emitError() << "a distributed tensor needs a layout";
  if (layout.getRank() != shape.size())
    return emitError() << "layout describes " << layout.getRank()
                       << " tensor dimension(s) but the tensor has rank "
                       << shape.size();
  return success();
}
