//===- TransferOps.cpp - verifiers of the SPMD transfer ops ---------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Verifiers of the ops in DistTransferOps.td: the rank's place in its grid,
// local tiles and boxes, permutations and asynchronous transfers. Every
// check is a diagnostic; nothing asserts.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

FailureOr<GridOp> mlir::dist::verifyGridAxes(Operation *op,
                                             FlatSymbolRefAttr gridRef,
                                             ArrayRef<int64_t> axes,
                                             SymbolTableCollection &symbols) {
  auto grid = symbols.lookupNearestSymbolFrom<GridOp>(op, gridRef);
  if (!grid)
    return op->emitOpError("'")
           << gridRef << "' does not name a dist.grid in scope";
  int64_t rank = grid.getShape().size();
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    if (a < 0 || a >= rank)
      return op->emitOpError("grid axis ")
             << a << " is out of range for " << gridRef << " of rank " << rank;
    if (!seen.insert(a).second)
      return op->emitOpError("grid axis ") << a << " is listed twice";
  }
  return grid;
}

/// The layout of `tensor` fits the grid it names.
static LogicalResult verifyTensorGrid(Operation *op, DistTensorType tensor,
                                      SymbolTableCollection &symbols) {
  LayoutAttr layout = tensor.getLayout();
  Operation *grid = symbols.lookupNearestSymbolFrom(op, layout.getGrid());
  return layout.verifyAgainstGrid(
      [&]() { return op->emitOpError() << "layout of " << tensor << ": "; },
      grid);
}

/// `mem` (a memref operand or result named `what`) holds elements of the
/// tensor's element type.
static LogicalResult verifyElementType(Operation *op, DistTensorType tensor,
                                       Value mem, StringRef what) {
  Type elt = cast<MemRefType>(mem.getType()).getElementType();
  if (elt != tensor.getElementType())
    return op->emitOpError("the ")
           << what << " holds " << elt << " elements, but the tensor " << tensor
           << " holds " << tensor.getElementType();
  return success();
}

/// One lower bound and one size per dimension of the tensor.
static LogicalResult verifyBox(Operation *op, DistTensorType tensor,
                               ValueRange lo, ValueRange sizes) {
  if ((int64_t)lo.size() != tensor.getRank() ||
      (int64_t)sizes.size() != tensor.getRank())
    return op->emitOpError("the box has ")
           << lo.size() << " lower bounds and " << sizes.size()
           << " sizes, but the tensor " << tensor << " has rank "
           << tensor.getRank() << " (one of each per dimension)";
  return success();
}

/// Two buffers of a transfer hold the same element type.
static LogicalResult verifySameElements(Operation *op, Value a, StringRef aName,
                                        Value b, StringRef bName) {
  Type ea = cast<MemRefType>(a.getType()).getElementType();
  Type eb = cast<MemRefType>(b.getType()).getElementType();
  if (ea != eb)
    return op->emitOpError("the ")
           << aName << " and " << bName << " element types differ: " << ea
           << " vs " << eb;
  return success();
}

//===----------------------------------------------------------------------===//
// GridCoordOp / AxesRankOp
//===----------------------------------------------------------------------===//

LogicalResult GridCoordOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {(int64_t)getAxis()}, symbols);
}

LogicalResult AxesRankOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), getAxes(), symbols);
}

//===----------------------------------------------------------------------===//
// Tiles and boxes
//===----------------------------------------------------------------------===//

#define DIST_TILE_SYMBOL_USES(OP)                                              \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbols) {         \
    return verifyTensorGrid(*this, getTensor(), symbols);                      \
  }
DIST_TILE_SYMBOL_USES(ZeroTileOp)
DIST_TILE_SYMBOL_USES(TileViewOp)
DIST_TILE_SYMBOL_USES(CopyBoxOp)
DIST_TILE_SYMBOL_USES(AddBoxOp)
DIST_TILE_SYMBOL_USES(FetchBoxOp)
DIST_TILE_SYMBOL_USES(AccumulateBoxOp)
#undef DIST_TILE_SYMBOL_USES

LogicalResult ZeroTileOp::verify() {
  return verifyElementType(*this, getTensor(), getTile(), "tile");
}

LogicalResult TileViewOp::verify() {
  DistTensorType tensor = getTensor();
  if (failed(verifyElementType(*this, tensor, getTile(), "tile")) ||
      failed(verifyBox(*this, tensor, getLo(), getSizes())))
    return failure();
  auto viewTy = cast<MemRefType>(getView().getType());
  auto expected = MemRefType::get(
      {ShapedType::kDynamic}, tensor.getElementType(),
      StridedLayoutAttr::get(getContext(), ShapedType::kDynamic, {1}));
  if (viewTy != expected)
    return emitOpError("the view must have type ")
           << expected << " (dynamic size and offset, unit stride), got "
           << viewTy;
  return success();
}

#define DIST_BOX_VERIFY(OP)                                                    \
  LogicalResult OP::verify() {                                                 \
    DistTensorType tensor = getTensor();                                       \
    if (failed(verifyElementType(*this, tensor, getTile(), "tile")) ||         \
        failed(verifyElementType(*this, tensor, getBuffer(), "buffer")))       \
      return failure();                                                        \
    return verifyBox(*this, tensor, getLo(), getSizes());                      \
  }
DIST_BOX_VERIFY(CopyBoxOp)
DIST_BOX_VERIFY(AddBoxOp)
DIST_BOX_VERIFY(FetchBoxOp)
DIST_BOX_VERIFY(AccumulateBoxOp)
#undef DIST_BOX_VERIFY

//===----------------------------------------------------------------------===//
// Permutations and asynchronous transfers
//===----------------------------------------------------------------------===//

LogicalResult PermuteOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {}, symbols);
}

LogicalResult PermuteOp::verify() {
  return verifySameElements(*this, getSend(), "send", getRecv(), "receive");
}

LogicalResult StartPermuteOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {}, symbols);
}

LogicalResult StartPermuteOp::verify() {
  return verifySameElements(*this, getSend(), "send", getRecv(), "receive");
}

LogicalResult
StartBroadcastOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), getAxes(), symbols);
}

LogicalResult
StartAllGatherOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), getAxes(), symbols);
}

LogicalResult StartAllGatherOp::verify() {
  return verifySameElements(*this, getInput(), "input", getOutput(), "output");
}

LogicalResult StartShiftOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {(int64_t)getAxis()}, symbols);
}

LogicalResult StartShiftOp::verify() {
  if (failed(verifySameElements(*this, getInput(), "input", getOutput(),
                                "output")))
    return failure();
  auto in = cast<MemRefType>(getInput().getType());
  auto out = cast<MemRefType>(getOutput().getType());
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("the input holds ")
           << in.getNumElements() << " elements and the output "
           << out.getNumElements() << "; a shift sends and receives as many";
  return success();
}

//===----------------------------------------------------------------------===//
// OneSidedMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult OneSidedMatmulOp::verify() {
  DistTensorType a = getTensorA(), b = getTensorB(), c = getTensorC();
  if (failed(verifyElementType(*this, a, getA(), "A tile")) ||
      failed(verifyElementType(*this, b, getB(), "B tile")) ||
      failed(verifyElementType(*this, c, getC(), "C tile")))
    return failure();
  for (DistTensorType t : {a, b, c})
    if (t.getRank() != 2 || t.isSparse())
      return emitOpError("takes dense matrices, got ") << t;
  // A dynamic extent (`?`) matches any: the runtime compares the values.
  auto differ = [](int64_t x, int64_t y) {
    return !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y;
  };
  if (differ(a.getShape()[0], c.getShape()[0]) ||
      differ(b.getShape()[1], c.getShape()[1]) ||
      differ(a.getShape()[1], b.getShape()[0])) {
    auto shape = [](DistTensorType t) {
      std::string s;
      for (auto [d, e] : llvm::enumerate(t.getShape()))
        s += (d ? "x" : "") +
             (ShapedType::isDynamic(e) ? std::string("?") : std::to_string(e));
      return s;
    };
    return emitOpError("the shapes do not multiply: A is ")
           << shape(a) << ", B " << shape(b) << ", C " << shape(c);
  }
  int64_t dynamic =
      a.getNumDynamicDims() + b.getNumDynamicDims() + c.getNumDynamicDims();
  if ((int64_t)getExtents().size() != dynamic)
    return emitOpError("takes one extent per dynamic dimension of A, B and "
                       "C (")
           << dynamic << "), got " << getExtents().size();
  if (dynamic && getTensorBatch())
    return emitOpError("a batch takes matrices of static shape");
  if (std::optional<ArrayAttr> names = getOperandNames())
    if (names->size() != 3)
      return emitOpError("operand_names names A, B and C (3 strings), got ")
             << names->size();
  if (std::optional<DistTensorType> batch = getTensorBatch()) {
    if (batch->getRank() != 1 || batch->isSparse())
      return emitOpError("the batch is a dense 1-D tensor, got ") << *batch;
    if (batch->getLayout().getGrid() != c.getLayout().getGrid())
      return emitOpError("the batch is dealt out on C's grid, got ") << *batch;
  }
  if (getPrefetch() < 1 || getPrefetch() > kMaxPrefetch)
    return emitOpError("prefetch depth ")
           << getPrefetch() << " is not between 1 and " << kMaxPrefetch;
  return success();
}

LogicalResult TensorExtentOp::verify() {
  auto t = cast<DistTensorType>(getTensor().getType());
  int64_t d = getDimAttr().getInt();
  if (d < 0 || d >= t.getRank())
    return emitOpError("dimension ") << d << " is out of range for " << t;
  return success();
}

LogicalResult
OneSidedMatmulOp::verifySymbolUses(SymbolTableCollection &symbols) {
  SmallVector<DistTensorType> tensors = {getTensorA(), getTensorB(),
                                         getTensorC()};
  if (std::optional<DistTensorType> batch = getTensorBatch())
    tensors.push_back(*batch);
  for (DistTensorType t : tensors)
    if (failed(verifyTensorGrid(*this, t, symbols)))
      return failure();
  // Grids of the same processes: as many of them (each grid is laid on the
  // communicator in rank order).
  auto processes = [&](DistTensorType t) {
    auto grid =
        symbols.lookupNearestSymbolFrom<GridOp>(*this, t.getLayout().getGrid());
    int64_t n = 1;
    for (int64_t e : grid.getShape())
      n *= e;
    return n;
  };
  int64_t pc = processes(getTensorC());
  for (DistTensorType t : {getTensorA(), getTensorB()})
    if (processes(t) != pc)
      return emitOpError("A, B and C must be on grids of the same processes: ")
             << t.getLayout().getGrid() << " has " << processes(t) << ", "
             << getTensorC().getLayout().getGrid() << " " << pc;
  return success();
}
