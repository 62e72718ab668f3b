//===- LocalTileOp.cpp - dist.local_tile ------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

using namespace mlir;
using namespace mlir::dist;

LogicalResult LocalTileOp::verify() {
  auto tensor = cast<DistTensorType>(getTensor().getType());
  MemRefType tile = getTile().getType();
  if (tile.getElementType() != tensor.getElementType())
    return emitOpError("tile element type ")
           << tile.getElementType() << " differs from the tensor's "
           << tensor.getElementType();
  if (!tile.getLayout().isIdentity() || !tile.isDynamicDim(0))
    return emitOpError("tile must be a memref<?x")
           << tensor.getElementType() << "> with the identity layout, got "
           << tile;
  return success();
}
