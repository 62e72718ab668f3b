//===- KernelOps.cpp - verifiers of the SPMD kernel and tile ops ----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Verifiers of the ops of DistKernelOps.td: the runtime's lifetime, local
// tiles, leaf kernels, redistribution steps and the check and timing
// instrumentation. Every malformed op gets a diagnostic; nothing here
// assumes what the conversion to the runtime would crash on.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// The layout of `t` fits the grid it names.
static LogicalResult verifyLayoutGrid(Operation *op, DistTensorType t,
                                      SymbolTableCollection &symbols) {
  LayoutAttr layout = t.getLayout();
  Operation *grid = symbols.lookupNearestSymbolFrom(op, layout.getGrid());
  return layout.verifyAgainstGrid(
      [&]() { return op->emitOpError() << "layout of " << t << ": "; }, grid);
}

/// The runtime reads one level of a layout: `t`'s must have one.
static LogicalResult verifyOneLevel(Operation *op, DistTensorType t) {
  if (t.getLayout().getLevels().size() != 1)
    return op->emitOpError("tensor ")
           << t
           << " has a hierarchical layout; the runtime's tiles follow "
              "one-level layouts only";
  return success();
}

/// A memref the runtime reads through one pointer: the identity layout.
static LogicalResult verifyContiguous(Operation *op, Value mem,
                                      StringRef what) {
  auto type = cast<MemRefType>(mem.getType());
  if (!type.getLayout().isIdentity())
    return op->emitOpError() << what
                             << " must be contiguous (the identity layout), "
                                "got "
                             << type;
  return success();
}

/// `tile` holds tiles of `t`: one level, its element type, contiguous.
static LogicalResult verifyTile(Operation *op, Value tile, DistTensorType t,
                                StringRef what) {
  if (failed(verifyOneLevel(op, t)))
    return failure();
  auto type = cast<MemRefType>(tile.getType());
  if (type.getElementType() != t.getElementType())
    return op->emitOpError()
           << what << " holds " << type.getElementType()
           << " elements but the tensor holds " << t.getElementType();
  return verifyContiguous(op, tile, what);
}

/// `whole` holds a whole tensor of `t`'s element type and element count.
static LogicalResult verifyWhole(Operation *op, Value whole, DistTensorType t,
                                 StringRef what) {
  auto type = cast<MemRefType>(whole.getType());
  if (type.getElementType() != t.getElementType())
    return op->emitOpError()
           << what << " holds " << type.getElementType()
           << " elements but the tensor holds " << t.getElementType();
  if (type.hasStaticShape() && type.getNumElements() != t.getNumElements())
    return op->emitOpError()
           << what << " has " << type.getNumElements()
           << " elements but the whole tensor has " << t.getNumElements();
  return verifyContiguous(op, whole, what);
}

/// An element type the runtime moves (f32, f64, i32, i64).
static bool isRuntimeElement(Type t) {
  return t.isF32() || t.isF64() || t.isInteger(32) || t.isInteger(64);
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

LogicalResult TileCapacityOp::verify() {
  return verifyOneLevel(*this, getTensor());
}
LogicalResult TileCapacityOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

LogicalResult CheckAllocOp::verify() {
  Type elt = getBuffer().getType().getElementType();
  if (!elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() % 8 != 0)
    return emitOpError("buffer elements must be integers or floats of whole "
                       "bytes, got ")
           << elt;
  return verifyContiguous(*this, getBuffer(), "the buffer");
}

LogicalResult FillTileOp::verify() {
  return verifyTile(*this, getTile(), getTensor(), "the tile");
}
LogicalResult FillTileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

LogicalResult DeviceAllocOp::verify() {
  auto type = cast<MemRefType>(getBuffer().getType());
  if (!type.getLayout().isIdentity())
    return emitOpError("allocates buffers with the identity layout, got ")
           << type;
  if (type.isDynamicDim(0) != (getSize() != nullptr))
    return emitOpError("needs a size operand exactly when the buffer's "
                       "extent is dynamic");
  return success();
}

/// A file path for dist.load_tile / dist.store_tile.
static LogicalResult verifyTilePath(Operation *op, StringRef path) {
  if (path.empty())
    return op->emitOpError("path must not be empty");
  if (path.contains('\0'))
    return op->emitOpError("path must not contain a NUL character");
  return success();
}

LogicalResult LoadTileOp::verify() {
  if (failed(verifyTilePath(*this, getPath())))
    return failure();
  return verifyTile(*this, getTile(), getTensor(), "the tile");
}
LogicalResult LoadTileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

LogicalResult StoreTileOp::verify() {
  if (failed(verifyTilePath(*this, getPath())))
    return failure();
  return verifyTile(*this, getTile(), getTensor(), "the tile");
}
LogicalResult StoreTileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

//===----------------------------------------------------------------------===//
// Leaf kernels
//===----------------------------------------------------------------------===//

/// Operands of one element type.
static LogicalResult verifySameElements(Operation *op) {
  Type elt;
  for (Value v : op->getOperands()) {
    Type t = cast<MemRefType>(v.getType()).getElementType();
    if (elt && t != elt)
      return op->emitOpError("operands must have one element type, got ")
             << elt << " and " << t;
    elt = t;
  }
  return success();
}

/// A matrix view BLAS reads row-major: its last dimension has stride 1.
static LogicalResult verifyRowMajor(Operation *op, Value m, StringRef name) {
  auto type = cast<MemRefType>(m.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return op->emitOpError("operand ")
           << name
           << " must have a contiguous last dimension (static stride 1), got "
           << type;
  return success();
}

/// Static extents `a` and `b` of one size must agree.
static LogicalResult verifyExtent(Operation *op, int64_t a, int64_t b,
                                  StringRef what) {
  if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
    return op->emitOpError() << what << " differ: " << a << " vs " << b;
  return success();
}

LogicalResult GemmOp::verify() {
  if (failed(verifySameElements(*this)) ||
      failed(verifyRowMajor(*this, getA(), "a")) ||
      failed(verifyRowMajor(*this, getB(), "b")) ||
      failed(verifyRowMajor(*this, getC(), "c")))
    return failure();
  ArrayRef<int64_t> a = getA().getType().getShape();
  ArrayRef<int64_t> b = getB().getType().getShape();
  ArrayRef<int64_t> c = getC().getType().getShape();
  int64_t am = a[getTransposeA() ? 1 : 0], ak = a[getTransposeA() ? 0 : 1];
  int64_t bk = b[getTransposeB() ? 1 : 0], bn = b[getTransposeB() ? 0 : 1];
  if (failed(verifyExtent(*this, am, c[0], "rows of op(a) and c")) ||
      failed(verifyExtent(*this, bn, c[1], "columns of op(b) and c")) ||
      failed(verifyExtent(*this, ak, bk, "columns of op(a) and rows of op(b)")))
    return failure();
  return success();
}

LogicalResult GemvOp::verify() {
  if (failed(verifySameElements(*this)) ||
      failed(verifyRowMajor(*this, getA(), "a")))
    return failure();
  ArrayRef<int64_t> a = getA().getType().getShape();
  int64_t rows = a[getTranspose() ? 1 : 0], cols = a[getTranspose() ? 0 : 1];
  if (failed(verifyExtent(*this, rows, getY().getType().getShape()[0],
                          "rows of op(a) and elements of y")) ||
      failed(verifyExtent(*this, cols, getX().getType().getShape()[0],
                          "columns of op(a) and elements of x")))
    return failure();
  return success();
}

LogicalResult DotOp::verify() {
  if (failed(verifySameElements(*this)))
    return failure();
  return verifyExtent(*this, getX().getType().getShape()[0],
                      getY().getType().getShape()[0],
                      "the elements of x and y");
}

//===----------------------------------------------------------------------===//
// Redistribution of tiles
//===----------------------------------------------------------------------===//

namespace {
/// The parts of an op copying tiles from one layout into another.
struct TileCopy {
  Operation *op;
  Value source, dest;
  DistTensorType from, to;
  ArrayRef<int64_t> axes;
  /// Summed dimensions (partial sums only).
  std::optional<ArrayRef<int64_t>> sum;
  /// A step of a balanced plan (one grid, no skew).
  bool balanced;
};
} // namespace

static LogicalResult verifyTileCopy(const TileCopy &c) {
  Operation *op = c.op;
  if (failed(verifyTile(op, c.source, c.from, "the source tile")) ||
      failed(verifyTile(op, c.dest, c.to, "the destination tile")))
    return failure();
  if (c.from.getElementType() != c.to.getElementType())
    return op->emitOpError(
        "source and destination tensors must have one element type");
  if (!c.sum && c.from.getShape() != c.to.getShape())
    return op->emitOpError(
        "source and destination tensors must have one shape");
  if (!c.balanced)
    return success();
  if (c.from.getLayout().getGrid() != c.to.getLayout().getGrid())
    return op->emitOpError("a balanced step runs on one grid, but the "
                           "layouts name ")
           << c.from.getLayout().getGrid() << " and "
           << c.to.getLayout().getGrid();
  for (DistTensorType t : {c.from, c.to})
    for (DimDistAttr dim : t.getLayout().getOuter().getDims())
      if (!dim.getSkew().empty())
        return op->emitOpError("a balanced step takes layouts without "
                               "skew, got ")
               << t;
  if (!c.sum)
    return success();
  // The destination is the source without the summed dimensions, which
  // are distributed over exactly the step's axes.
  if (c.sum->empty())
    return op->emitOpError("'sum' lists no dimensions");
  SmallVector<int64_t> kept;
  llvm::SmallSet<int64_t, 8> freed;
  ArrayRef<DimDistAttr> dims = c.from.getLayout().getOuter().getDims();
  for (auto [i, d] : llvm::enumerate(*c.sum)) {
    if (d < 0 || d >= c.from.getRank())
      return op->emitOpError("summed dimension ")
             << d << " is out of range for a tensor of rank "
             << c.from.getRank();
    if (i > 0 && d <= (*c.sum)[i - 1])
      return op->emitOpError("summed dimensions must be listed in "
                             "increasing order without repeats");
    for (int64_t a : dims[d].getAxes())
      freed.insert(a);
  }
  for (int64_t d = 0; d < c.from.getRank(); ++d)
    if (!llvm::is_contained(*c.sum, d))
      kept.push_back(c.from.getShape()[d]);
  if (ArrayRef<int64_t>(kept) != c.to.getShape())
    return op->emitOpError("destination must have the source's shape "
                           "without the summed dimensions");
  bool same = freed.size() == c.axes.size();
  for (int64_t a : c.axes)
    same = same && freed.contains(a);
  if (!same)
    return op->emitOpError("the axes must be the grid axes the summed "
                           "dimensions are distributed over");
  return success();
}

static LogicalResult verifyTileCopySymbols(const TileCopy &c,
                                           SymbolTableCollection &symbols) {
  if (failed(verifyLayoutGrid(c.op, c.from, symbols)) ||
      failed(verifyLayoutGrid(c.op, c.to, symbols)))
    return failure();
  return verifyGridAxes(c.op, c.from.getLayout().getGrid(), c.axes, symbols);
}

template <typename OpTy>
static TileCopy tileCopyOf(OpTy op, bool balanced) {
  TileCopy c{op,
             op.getSource(),
             op.getDest(),
             op.getSourceTensor(),
             op.getDestTensor(),
             {},
             std::nullopt,
             balanced};
  if constexpr (!std::is_same_v<OpTy, RedistributeTileOp>)
    c.axes = op.getAxes();
  if constexpr (std::is_same_v<OpTy, RedistAllReduceOp> ||
                std::is_same_v<OpTy, RedistReduceScatterOp> ||
                std::is_same_v<OpTy, RedistReduceOp>)
    c.sum = op.getSum();
  return c;
}

#define DIST_TILE_COPY(OP, BALANCED)                                           \
  LogicalResult OP::verify() {                                                 \
    return verifyTileCopy(tileCopyOf(*this, BALANCED));                        \
  }                                                                            \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbols) {         \
    return verifyTileCopySymbols(tileCopyOf(*this, BALANCED), symbols);        \
  }
DIST_TILE_COPY(RedistributeTileOp, false)
DIST_TILE_COPY(RedistSliceOp, true)
DIST_TILE_COPY(RedistAllGatherOp, true)
DIST_TILE_COPY(RedistPermuteOp, true)
DIST_TILE_COPY(RedistAllToAllOp, true)
DIST_TILE_COPY(RedistGatherOp, true)
DIST_TILE_COPY(RedistBroadcastOp, true)
DIST_TILE_COPY(RedistScatterOp, true)
DIST_TILE_COPY(RedistChangeKindOp, true)
DIST_TILE_COPY(RedistAllReduceOp, true)
DIST_TILE_COPY(RedistReduceScatterOp, true)
DIST_TILE_COPY(RedistReduceOp, true)
#undef DIST_TILE_COPY

//===----------------------------------------------------------------------===//
// Timing and the reference check
//===----------------------------------------------------------------------===//

LogicalResult BarrierOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), getAxes(), symbols);
}

LogicalResult ReportTimeOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {}, symbols);
}

LogicalResult GridRankOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {}, symbols);
}

LogicalResult GatherTileOp::verify() {
  if (getRootAttr().getInt() < 0)
    return emitOpError("root must be a grid rank, got ")
           << getRootAttr().getInt();
  if (failed(verifyTile(*this, getTile(), getTensor(), "the tile")))
    return failure();
  return verifyWhole(*this, getWhole(), getTensor(), "the whole buffer");
}
LogicalResult GatherTileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

/// A whole tensor as the reference evaluator binds it: static shape,
/// contiguous, a runtime element type.
static LogicalResult verifyWholeBuffer(Operation *op, Value buf,
                                       const Twine &what) {
  auto type = cast<MemRefType>(buf.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return op->emitOpError() << what
                             << " must have a static shape and the identity "
                                "layout, got "
                             << type;
  if (!isRuntimeElement(type.getElementType()))
    return op->emitOpError()
           << what << " holds " << type.getElementType()
           << " elements; the runtime handles f32, f64, i32 and i64";
  return success();
}

LogicalResult ReferenceOp::verify() {
  if (getNames().size() != getBuffers().size())
    return emitOpError("binds ") << getNames().size() << " names to "
                                 << getBuffers().size() << " buffers";
  IndexStatement stmt;
  std::string error;
  size_t column = 0;
  if (!parseIndexStatement(getStatement(), stmt, error, column))
    return emitOpError("invalid statement \"")
           << getStatement() << "\" at column " << column + 1 << ": " << error;
  llvm::StringSet<> bound;
  Type elt;
  for (auto [n, v] : llvm::zip(getNames(), getBuffers())) {
    StringRef name = cast<StringAttr>(n).getValue();
    if (!bound.insert(name).second)
      return emitOpError("tensor name '") << name << "' is bound twice";
    if (failed(verifyWholeBuffer(*this, v, "the buffer of '" + name + "'")))
      return failure();
    Type t = cast<MemRefType>(v.getType()).getElementType();
    if (elt && t != elt)
      return emitOpError("buffers must have one element type, got ")
             << elt << " and " << t;
    elt = t;
  }
  SmallVector<std::string> used = stmt.tensorNames();
  for (const std::string &name : used)
    if (!bound.contains(name))
      return emitOpError("tensor '")
             << name << "' of the statement is not bound to a buffer";
  for (StringRef name : bound.keys())
    if (!llvm::is_contained(used, name.str()))
      return emitOpError("'")
             << name << "' is bound but not used in the statement";
  return success();
}

template <typename OpTy>
static LogicalResult verifyCheck(OpTy op) {
  if (failed(verifyTile(op, op.getTile(), op.getTensor(), "the tile")))
    return failure();
  return verifyWhole(op, op.getReference(), op.getTensor(), "the reference");
}

LogicalResult CheckResultOp::verify() {
  if (getTolerance().isNegative())
    return emitOpError("tolerance must not be negative");
  return verifyCheck(*this);
}
LogicalResult CheckResultOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

LogicalResult CheckUnchangedOp::verify() { return verifyCheck(*this); }
LogicalResult
CheckUnchangedOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyLayoutGrid(*this, getTensor(), symbols);
}

LogicalResult SumReferenceOp::verify() {
  if (getRootAttr().getInt() < 0)
    return emitOpError("root must be a grid rank, got ")
           << getRootAttr().getInt();
  if (failed(verifyWholeBuffer(*this, getWhole(), "the whole tensor")) ||
      failed(verifyWholeBuffer(*this, getResult(), "the result")))
    return failure();
  auto whole = cast<MemRefType>(getWhole().getType());
  auto result = cast<MemRefType>(getResult().getType());
  if (whole.getElementType() != result.getElementType())
    return emitOpError("the whole tensor and the result must have one "
                       "element type");
  ArrayRef<int64_t> sum = getSum();
  if (sum.empty())
    return emitOpError("'sum' lists no dimensions");
  SmallVector<int64_t> kept;
  for (auto [i, d] : llvm::enumerate(sum)) {
    if (d < 0 || d >= whole.getRank())
      return emitOpError("summed dimension ")
             << d << " is out of range for a tensor of rank "
             << whole.getRank();
    if (i > 0 && d <= sum[i - 1])
      return emitOpError("summed dimensions must be listed in increasing "
                         "order without repeats");
  }
  for (int64_t d = 0; d < whole.getRank(); ++d)
    if (!llvm::is_contained(sum, d))
      kept.push_back(whole.getShape()[d]);
  if (ArrayRef<int64_t>(kept) != result.getShape())
    return emitOpError("the result must have the whole tensor's shape "
                       "without the summed dimensions");
  return success();
}
LogicalResult SumReferenceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyGridAxes(*this, getGridAttr(), {}, symbols);
}
