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

// !dist.tensor< (int `x`)* type `,` layout (`,` sparse-encoding)? >
Type DistTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  Attribute layout;
  SMLoc layoutLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(layout))
    return {};
  auto layoutAttr = dyn_cast<LayoutAttr>(layout);
  if (!layoutAttr) {
    parser.emitError(layoutLoc) << "expected a #dist.layout, got " << layout;
    return {};
  }
  sparse_tensor::SparseTensorEncodingAttr encoding;
  if (succeeded(parser.parseOptionalComma())) {
    Attribute enc;
    SMLoc encLoc = parser.getCurrentLocation();
    if (parser.parseAttribute(enc))
      return {};
    encoding = dyn_cast<sparse_tensor::SparseTensorEncodingAttr>(enc);
    if (!encoding) {
      parser.emitError(encLoc)
          << "expected a #sparse_tensor.encoding (the local sparse format), "
             "got "
          << enc;
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&]() { return parser.emitError(loc); },
                    parser.getContext(), ArrayRef<int64_t>(shape), elementType,
                    layoutAttr, encoding);
}

void DistTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t e : getShape()) {
    if (ShapedType::isDynamic(e))
      printer << "?x";
    else
      printer << e << "x";
  }
  printer << getElementType() << ", " << getLayout();
  if (getEncoding())
    printer << ", " << getEncoding();
  printer << ">";
}

void DistDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "DistTensor/Dialect/Dist/IR/DistOpsTypes.cpp.inc"
      >();
}

/// The local sparse format: levels dist can store (dense, compressed,
/// singleton after a non-unique compressed level), a permutation of the
/// dimensions, index widths of 0, 32 or 64 bits; and a layout that splits
/// the universe of each partitioned dimension by coordinate range.
static LogicalResult verifySparse(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, LayoutAttr layout,
                                  sparse_tensor::SparseTensorEncodingAttr enc) {
  using namespace sparse_tensor;
  if ((int64_t)enc.getDimRank() != (int64_t)shape.size())
    return emitError() << "the sparse encoding describes " << enc.getDimRank()
                       << " dimension(s) but the tensor has rank "
                       << shape.size();
  if (!enc.isPermutation())
    return emitError() << "the sparse encoding's dimToLvl must be a "
                          "permutation of the dimensions (CSR, CSC, DCSR, "
                          "CSF; block maps are not supported)";
  for (auto [l, lt] : llvm::enumerate(enc.getLvlTypes())) {
    if (isDenseLT(lt) || isCompressedLT(lt) || isSingletonLT(lt))
      continue;
    return emitError() << "level " << l << " of the sparse encoding is "
                       << toMLIRString(lt)
                       << "; dist stores dense, compressed and singleton "
                          "levels";
  }
  for (auto [name, w] :
       {std::pair<StringRef, unsigned>{"posWidth", enc.getPosWidth()},
        {"crdWidth", enc.getCrdWidth()}})
    if (w != 0 && w != 32 && w != 64)
      return emitError() << "the sparse encoding's " << name << " is " << w
                         << "; dist takes 0 (index), 32 or 64 bits";
  for (LevelLayoutAttr level : layout.getLevels())
    for (auto [d, dim] : llvm::enumerate(level.getDims())) {
      PartitionKind k = dim.getKind();
      if (k != PartitionKind::none && k != PartitionKind::blocked &&
          k != PartitionKind::nonzeros)
        return emitError()
               << "dimension " << d << " of a sparse tensor is partitioned "
               << stringifyPartitionKind(k)
               << "; sparse tensors take universe partitions by coordinate "
                  "range (blocked) or non-zero partitions ('~', nonzeros) "
                  "only";
    }
  return success();
}

LogicalResult
DistTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType,
                       LayoutAttr layout,
                       sparse_tensor::SparseTensorEncodingAttr encoding) {
  if (!elementType.isF32() && !elementType.isF64() &&
      !elementType.isInteger(32) && !elementType.isInteger(64))
    return emitError() << "distributed tensors hold f32, f64, i32 or i64, not "
                       << elementType;
  if ((int64_t)shape.size() > kMaxDims)
    return emitError() << "tensor has rank " << shape.size()
                       << " but the runtime supports at most " << kMaxDims
                       << " dimensions (DISTRT_MAX_DIMS); merge dimensions "
                          "into fewer";
  // A dynamic extent (`?`) is given at call time: the verifiers of the ops
  // that take such tensors say where (docs/interop.md).
  for (auto [d, e] : llvm::enumerate(shape))
    if (e < 1 && !ShapedType::isDynamic(e))
      return emitError() << "dimension " << d << " has extent " << e
                         << "; extents must be at least 1";
  std::optional<int64_t> total = 1;
  for (int64_t e : shape)
    if (total && !ShapedType::isDynamic(e))
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
  if (encoding && llvm::any_of(shape, ShapedType::isDynamic))
    return emitError() << "a sparse tensor has static extents; dynamic "
                          "extents (`?`) are supported on dense tensors "
                          "only (docs/interop.md)";
  if (encoding && failed(verifySparse(emitError, shape, layout, encoding)))
    return failure();
  if (!encoding)
    for (LevelLayoutAttr level : layout.getLevels())
      for (auto [d, dim] : llvm::enumerate(level.getDims()))
        if (dim.getKind() == PartitionKind::nonzeros)
          return emitError()
                 << "dimension " << d
                 << " of a dense tensor has a non-zero partition ('~', "
                    "nonzeros); it splits the stored entries of a sparse "
                    "tensor, and a dense tensor stores every element (use "
                    "blocked)";
  return success();
}
