//===- SparseOpVerifiers.cpp - verifiers of the sparse ops ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Verifiers of dist.generate and of the SPMD ops on sparse tiles (what
// dist lowers is decided in SparseOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"
#include "SparseMatch.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::sparse_match;

//===----------------------------------------------------------------------===//
// dist.generate
//===----------------------------------------------------------------------===//

LogicalResult GenerateOp::verify() {
  DistTensorType t = getTensor().getType();
  int64_t param = getParam();
  if (t.getRank() == 3 && getKind() == GeneratorKind::banded)
    return emitOpError("a tensor of order 3 is generated uniform(e) or "
                       "rmat(e) (e * ")
           << t.getShape()[0]
           << " coordinates, uniform or power-law); banded makes matrices";
  if (t.getRank() != 2 && t.getRank() != 3)
    return emitOpError("generates matrices and tensors of order 3; the "
                       "tensor has rank ")
           << t.getRank();
  switch (getKind()) {
  case GeneratorKind::banded:
    if (param < 1 || param % 2 == 0)
      return emitOpError("banded(") << param
                                    << "): the band width must be "
                                       "odd and at least 1";
    break;
  case GeneratorKind::rmat:
    if (param < 1)
      return emitOpError("rmat(")
             << param << "): the edges per row must be at least 1";
    break;
  case GeneratorKind::uniform:
    if (param < 0)
      return emitOpError("uniform(")
             << param << "): the draws per row must not be negative";
    break;
  }
  if (getKind() != GeneratorKind::uniform && t.getRank() == 2 &&
      t.getShape()[0] != t.getShape()[1])
    return emitOpError("a ") << stringifyGeneratorKind(getKind())
                             << " matrix is square; the tensor is "
                             << t.getShape()[0] << "x" << t.getShape()[1];
  return success();
}

LogicalResult GenerateOp::verifySymbolUses(SymbolTableCollection &symbols) {
  LayoutAttr layout = getTensor().getType().getLayout();
  return layout.verifyAgainstGrid(
      [&]() { return emitOpError() << "layout: "; },
      symbols.lookupNearestSymbolFrom(*this, layout.getGrid()));
}

//===----------------------------------------------------------------------===//
// SPMD ops on sparse tiles
//===----------------------------------------------------------------------===//

LogicalResult SparseNewOp::verify() {
  auto t = cast<DistTensorType>(getTensor());
  if (!t.isSparse())
    return emitOpError("expects a sparse tensor type, got ") << t;
  return success();
}

LogicalResult SparseNewOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto t = cast<DistTensorType>(getTensor());
  auto grid =
      symbols.lookupNearestSymbolFrom<GridOp>(*this, t.getLayout().getGrid());
  if (!grid)
    return emitOpError("'")
           << t.getLayout().getGrid() << "' does not name a dist.grid in scope";
  std::string err = sparseStorageError(t, grid.getShape());
  if (grid.getNumLevels() != 1)
    err = "sparse matrices are stored on one-level grids only";
  if (!err.empty())
    return emitOpError(err);
  return success();
}

/// The memref element type of an index width (0: index).
static Type indexElementType(MLIRContext *ctx, unsigned width) {
  if (width == 0)
    return IndexType::get(ctx);
  return IntegerType::get(ctx, width);
}

/// The views of a sparse piece's buffers: `tensor` a sparse tensor type and
/// each memref a memref<?xT> of its element type `want` (named `what`).
static LogicalResult
verifyViews(Operation *op, Type tensor,
            function_ref<SmallVector<std::tuple<StringRef, Type, Type>>(
                DistTensorType, Type pos, Type crd)>
                views) {
  auto t = dyn_cast<DistTensorType>(tensor);
  if (!t || !t.isSparse())
    return op->emitOpError("expects a sparse tensor type, got ") << tensor;
  MLIRContext *ctx = op->getContext();
  Type pos = indexElementType(ctx, t.getEncoding().getPosWidth());
  Type crd = indexElementType(ctx, t.getEncoding().getCrdWidth());
  for (auto [what, mem, want] : views(t, pos, crd)) {
    auto m = cast<MemRefType>(mem);
    if (m.getElementType() != want || !m.isDynamicDim(0) ||
        !m.getLayout().isIdentity())
      return op->emitOpError("the ") << what << " must be a memref<?x"
                                     << typeStr(want) << ">, got " << m;
  }
  return success();
}

LogicalResult SparsePartOp::verify() {
  auto t = dyn_cast<DistTensorType>(getTensor());
  if (t && t.getRank() == 3)
    return emitOpError("views a matrix's piece; the piece of a tensor of "
                       "order 3 is viewed with dist.sparse_fibers");
  return verifyViews(
      *this, getTensor(), [&](DistTensorType t, Type pos, Type crd) {
        return SmallVector<std::tuple<StringRef, Type, Type>>{
            {"positions", getPos().getType(), pos},
            {"coordinates", getCrd().getType(), crd},
            {"values", getValues().getType(), t.getElementType()}};
      });
}

LogicalResult SparseFibersOp::verify() {
  auto t = dyn_cast<DistTensorType>(getTensor());
  if (t && t.getRank() != 3)
    return emitOpError("views the piece of a sparse tensor of order 3; the "
                       "tensor has rank ")
           << t.getRank() << " (a matrix's piece: dist.sparse_part)";
  return verifyViews(
      *this, getTensor(), [&](DistTensorType t, Type pos, Type crd) {
        return SmallVector<std::tuple<StringRef, Type, Type>>{
            {"fiber positions", getPos().getType(), pos},
            {"fiber coordinates", getCrd().getType(), crd},
            {"entry positions", getPos2().getType(), pos},
            {"entry coordinates", getCrd2().getType(), crd},
            {"values", getValues().getType(), t.getElementType()}};
      });
}

LogicalResult SparseOffdiagRowsOp::verify() {
  return verifyViews(*this, getTensor(),
                     [&](DistTensorType, Type pos, Type crd) {
                       return SmallVector<std::tuple<StringRef, Type, Type>>{
                           {"rows", getRows().getType(), crd},
                           {"positions", getPos().getType(), pos}};
                     });
}

LogicalResult SparseLocalRowsOp::verify() {
  return verifyViews(*this, getTensor(), [&](DistTensorType, Type, Type crd) {
    return SmallVector<std::tuple<StringRef, Type, Type>>{
        {"row ids", getIds().getType(), crd}};
  });
}

LogicalResult SparseRowTargetsOp::verify() {
  return verifyViews(*this, getTensor(), [&](DistTensorType, Type, Type crd) {
    return SmallVector<std::tuple<StringRef, Type, Type>>{
        {"row targets", getTargets().getType(), crd}};
  });
}

/// A partial-sums buffer the runtime hands out: memref<?xT>, contiguous.
static LogicalResult verifyPartialBuffer(Operation *op, Value buffer) {
  auto bt = cast<MemRefType>(buffer.getType());
  if (!bt.isDynamicDim(0) || !bt.getLayout().isIdentity())
    return op->emitOpError("the partial sums must be a memref<?x" +
                           typeStr(bt.getElementType()) + ">, got ")
           << bt;
  return success();
}

/// The partial sums and the output they are reduced into: one element type.
static LogicalResult verifyReduction(Operation *op, Value partial, Value y) {
  auto pt = cast<MemRefType>(partial.getType());
  auto yt = cast<MemRefType>(y.getType());
  if (pt.getElementType() != yt.getElementType())
    return op->emitOpError("the partial sums (")
           << pt.getElementType() << ") and the output (" << yt.getElementType()
           << ") must have one element type";
  return success();
}

LogicalResult SparsePartialOp::verify() {
  if (failed(verifyPartialBuffer(*this, getBuffer())))
    return failure();
  if (getCols() < 1)
    return emitOpError("cols must be at least 1, got ") << getCols();
  return success();
}

LogicalResult SparseReduceRowsOp::verify() {
  if (failed(verifyReduction(*this, getPartial(), getY())))
    return failure();
  if (getCols() < 1)
    return emitOpError("cols must be at least 1, got ") << getCols();
  return success();
}

LogicalResult SparseFiberPartialOp::verify() {
  return verifyPartialBuffer(*this, getBuffer());
}

LogicalResult SparseReduceFibersOp::verify() {
  if (failed(verifyReduction(*this, getPartial(), getY())))
    return failure();
  auto yt = cast<MemRefType>(getY().getType());
  if (!yt.getLayout().isIdentity())
    return emitOpError("the output must be contiguous, got ") << yt;
  return success();
}

/// The checks of an op that reads the dense operand `x` and returns a
/// runtime buffer `buf` of its rows (`what`: "the ghost buffer"), moving
/// elements (`verb`: "exchanges"), rows of `cols` elements.
static LogicalResult verifyOperandBuffer(Operation *op, Value x, Value buf,
                                         StringRef what, StringRef verb,
                                         int64_t cols) {
  auto xt = cast<MemRefType>(x.getType());
  auto bt = cast<MemRefType>(buf.getType());
  if (xt.getElementType() != bt.getElementType())
    return op->emitOpError()
           << what << "'s element type " << bt.getElementType()
           << " differs from the operand's " << xt.getElementType();
  if (!xt.getElementType().isF32() && !xt.getElementType().isF64())
    return op->emitOpError()
           << verb << " f32 or f64, not " << xt.getElementType();
  if (!bt.isDynamicDim(0) || !bt.getLayout().isIdentity())
    return op->emitOpError() << what << " must be a memref<?x"
                             << typeStr(bt.getElementType()) << ">";
  if (cols < 1)
    return op->emitOpError("cols must be at least 1, got ") << cols;
  return success();
}

LogicalResult SparseShareXOp::verify() {
  return verifyOperandBuffer(*this, getX(), getWhole(), "the shared operand",
                             "shares", getCols());
}

LogicalResult SparseMulAddOp::verify() {
  return verifyOperandBuffer(*this, getX(), getY(), "the output", "multiplies",
                             getCols());
}

LogicalResult SparseExchangeBeginOp::verify() {
  return verifyOperandBuffer(*this, getX(), getBuffer(), "the ghost buffer",
                             "exchanges", getCols());
}
