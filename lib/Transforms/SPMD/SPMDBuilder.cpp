//===- SPMDBuilder.cpp - shared state of dist-materialize-spmd ------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "SPMDBuilder.h"

#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

bool spmd::isDistOp(Operation *op) {
  return isa<AllocOp, FillOp, dist::LoadOp, dist::StoreOp, ComputeOp,
             RedistributeOp>(op);
}

SPMDBuilder::SPMDBuilder(ModuleOp module, const SPMDOptions &options,
                         const CostModel &costModel)
    : module(module), options(options), costModel(costModel) {
  MLIRContext *ctx = module.getContext();
  indexTy = IndexType::get(ctx);
}

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

Value SPMDBuilder::idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value SPMDBuilder::zero(OpBuilder &b, Location loc, Type elt) {
  if (isa<FloatType>(elt))
    return arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
  return arith::ConstantOp::create(b, loc, elt, b.getIntegerAttr(elt, 0));
}

std::string SPMDBuilder::freshName(StringRef prefix, unsigned &counter) {
  std::string name;
  do {
    name = (prefix + Twine(counter++)).str();
  } while (module.lookupSymbol(name));
  return name;
}

Value SPMDBuilder::allocChecked(OpBuilder &b, Location loc, MemRefType type,
                                ValueRange dynSizes, StringRef what) {
  Value mem = memref::AllocOp::create(b, loc, type, dynSizes);
  CheckAllocOp::create(b, loc, mem, what);
  return mem;
}

void SPMDBuilder::unless(OpBuilder &b, Location loc, Value cond,
                         function_ref<void(OpBuilder &)> body) {
  Value negated = arith::XOrIOp::create(
      b, loc, cond, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  scf::IfOp::create(b, loc, negated, [&](OpBuilder &tb, Location l) {
    body(tb);
    scf::YieldOp::create(tb, l);
  });
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

MemRefType SPMDBuilder::tileType(DistTensorType t) {
  return MemRefType::get({ShapedType::kDynamic}, t.getElementType());
}

LogicalResult SPMDBuilder::checkTensorType(Operation *where, DistTensorType t,
                                           bool allowSparse) {
  if (t.isSparse() && !allowSparse)
    return where->emitError("tensor ")
           << t
           << " is sparse; this operation takes dense tensors only "
              "(docs/sparse.md)";
  if (t.isSparse()) {
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        where, t.getLayout().getGrid());
    std::string err =
        grid ? sparseStorageError(t, grid.getShape()) : std::string();
    if (grid && grid.getNumLevels() != 1)
      err = "sparse matrices are stored on one-level grids only";
    if (!err.empty())
      return where->emitError("sparse tensor ")
             << t << " cannot be lowered: " << err << " (docs/sparse.md)";
  }
  if (t.getLayout().getLevels().size() != 1)
    return where->emitError("tensor ")
           << t
           << " has a hierarchical layout; dist-materialize-spmd "
              "lowers single-level layouts only (run dist-flatten-machines "
              "first; dist-to-llvm does)";
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      where, t.getLayout().getGrid());
  if (!grid)
    return where->emitError("layout names '")
           << t.getLayout().getGrid() << "', which is not a dist.grid";
  if (grid.getNumLevels() != 1)
    return where->emitError("grid ")
           << t.getLayout().getGrid()
           << " is hierarchical; dist-materialize-spmd lowers one-level "
              "grids only (run dist-flatten-machines first; dist-to-llvm "
              "does)";
  return success();
}

Value SPMDBuilder::tileOf(Operation *user, Value tensor) {
  if (Value t = tiles.lookupOrNull(tensor))
    return t;
  auto type = dyn_cast<DistTensorType>(tensor.getType());
  if (!type) {
    user->emitError("operand is not a distributed tensor");
    return {};
  }
  if (failed(checkTensorType(user, type, /*allowSparse=*/true)))
    return {};
  // Right after the tensor's definition, so it dominates every use the
  // lowering emits (also inside regions it creates before asking).
  OpBuilder b(tensor.getContext());
  if (auto arg = dyn_cast<BlockArgument>(tensor))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(tensor.getDefiningOp());
  Value t;
  if (type.isSparse())
    t = SparseLocalOp::create(b, tensor.getLoc(),
                              SparseTileType::get(b.getContext()), tensor);
  else
    t = LocalTileOp::create(b, tensor.getLoc(), tileType(type), tensor);
  tiles.map(tensor, t);
  return t;
}
