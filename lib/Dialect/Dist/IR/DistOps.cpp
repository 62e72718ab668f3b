//===- DistOps.cpp - dist dialect operations --------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// GridOp
//===----------------------------------------------------------------------===//

GridLevelAttr GridOp::getLevel(unsigned i) {
  return cast<GridLevelAttr>(getLevels()[i]);
}

int64_t GridOp::getNumProcessors() {
  int64_t n = 1;
  for (int64_t e : getShape())
    n *= e;
  return n;
}

// dist.grid @name kind? [d0, d1, ...] (, kind? [e0, ...])* attr-dict
ParseResult GridOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<Attribute> levels;
  MLIRContext *ctx = parser.getContext();
  do {
    SMLoc loc = parser.getCurrentLocation();
    ProcessorKind kind = ProcessorKind::cpu;
    StringRef kw;
    if (succeeded(parser.parseOptionalKeyword(&kw))) {
      std::optional<ProcessorKind> k = symbolizeProcessorKind(kw);
      if (!k)
        return parser.emitError(loc)
               << "unknown processor kind '" << kw
               << "'; expected cpu, gpu or node";
      kind = *k;
    }
    SmallVector<int64_t> shape;
    SMLoc shapeLoc = parser.getCurrentLocation();
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square,
            [&]() { return parser.parseInteger(shape.emplace_back()); },
            " in a grid shape"))
      return failure();
    auto level = GridLevelAttr::getChecked(
        [&]() { return parser.emitError(shapeLoc); }, ctx,
        ArrayRef<int64_t>(shape), kind);
    if (!level)
      return failure();
    levels.push_back(level);
  } while (succeeded(parser.parseOptionalComma()));
  result.addAttribute(getLevelsAttrName(result.name),
                      ArrayAttr::get(ctx, levels));
  return parser.parseOptionalAttrDict(result.attributes);
}

void GridOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  bool flat = getNumLevels() == 1;
  p << ' ';
  llvm::interleaveComma(getLevels(), p, [&](Attribute a) {
    auto level = cast<GridLevelAttr>(a);
    if (!flat || level.getKind() != ProcessorKind::cpu)
      p << stringifyProcessorKind(level.getKind());
    p << "[";
    llvm::interleaveComma(level.getShape(), p);
    p << "]";
  });
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getSymNameAttrName(), getLevelsAttrName()});
}

LogicalResult GridOp::verify() {
  if (getLevels().empty())
    return emitOpError("needs at least one level");
  for (auto [i, a] : llvm::enumerate(getLevels())) {
    auto level = dyn_cast<GridLevelAttr>(a);
    if (!level)
      return emitOpError("level ") << i << " is not a #dist.level attribute";
    if (i + 1 < getNumLevels() && level.getKind() == ProcessorKind::gpu)
      return emitOpError("level ")
             << i << " is made of gpus but has a further level inside it; "
             << "only the innermost level may be gpu";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GridHandleOp
//===----------------------------------------------------------------------===//

LogicalResult
GridHandleOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto grid =
      symbolTable.lookupNearestSymbolFrom<GridOp>(*this, getGridAttr());
  if (!grid)
    return emitOpError("'") << getGridAttr()
                            << "' does not name a dist.grid in scope";
  return success();
}

#define GET_OP_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOps.cpp.inc"
