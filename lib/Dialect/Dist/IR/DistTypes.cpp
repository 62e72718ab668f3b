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

#define GET_TYPEDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOpsTypes.cpp.inc"

// !dist.tensor< (int `x`)* type `,` layout >
Type DistTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  for (int64_t e : shape)
    if (ShapedType::isDynamic(e)) {
      parser.emitError(loc) << "distributed tensors have static shapes";
      return {};
    }
  Attribute layout;
  SMLoc layoutLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(layout))
    return {};
  auto layoutAttr = dyn_cast<LayoutAttr>(layout);
  if (!layoutAttr) {
    parser.emitError(layoutLoc) << "expected a #dist.layout, got " << layout;
    return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&]() { return parser.emitError(loc); },
                    parser.getContext(), ArrayRef<int64_t>(shape),
                    elementType, layoutAttr);
}

void DistTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t e : getShape())
    printer << e << "x";
  printer << getElementType() << ", " << getLayout() << ">";
}

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
  if ((int64_t)shape.size() > kMaxDims)
    return emitError() << "tensor has rank " << shape.size()
                       << " but the runtime supports at most " << kMaxDims
                       << " dimensions (DISTRT_MAX_DIMS); merge dimensions "
                          "into fewer";
  for (auto [d, e] : llvm::enumerate(shape))
    if (e < 1)
      return emitError() << "dimension " << d << " has extent " << e
                         << "; extents must be at least 1";
  std::optional<int64_t> total = 1;
  for (int64_t e : shape)
    if (total)
      total = mulWithin(*total, e, kMaxTensorElements);
  if (!total)
    return emitError() << "tensor has more than 2^50 elements, the most dist "
                          "supports";
  if (!layout)
    return emitError() << "a distributed tensor needs a layout";
  if (layout.getRank() != shape.size())
    return emitError() << "layout describes " << layout.getRank()
                       << " tensor dimension(s) but the tensor has rank "
                       << shape.size();
  return success();
}
