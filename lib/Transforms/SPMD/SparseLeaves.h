//===- SparseLeaves.h - helpers of the sparse lowerings ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What the sparse lowerings (SparseCompute.cpp, SparseSddmm.cpp,
// SparseAdd.cpp) share: the types of the runtime's views, the view of one
// part of a process's piece, and tensors over memrefs for the leaves.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_TRANSFORMS_SPMD_SPARSELEAVES_H
#define DIST_TRANSFORMS_SPMD_SPARSELEAVES_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir {
namespace dist {
namespace spmd {

/// The element type of a pos / crd buffer of width `w` (0: index).
inline Type sparseIndexElt(MLIRContext *ctx, unsigned w) {
  return w == 0 ? Type(IndexType::get(ctx)) : IntegerType::get(ctx, w);
}

/// memref<?xelt>: the runtime's views and the tiles.
inline MemRefType flatMemRef(Type elt) {
  return MemRefType::get({ShapedType::kDynamic}, elt);
}

/// The view of one part of `matrix`'s piece (dist.sparse_part).
inline SparsePartOp makeSparsePart(OpBuilder &b, Location loc, Value handle,
                                   SparsePart part, DistTensorType matrix) {
  MLIRContext *ctx = b.getContext();
  auto enc = matrix.getEncoding();
  return SparsePartOp::create(
      b, loc, flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
      flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
      flatMemRef(matrix.getElementType()), b.getIndexType(), handle, part,
      matrix);
}

/// A tensor over memref `m` (restrict: nothing else reads it as a tensor);
/// `writable` when the leaf writes it in place.
inline Value memrefAsTensor(OpBuilder &b, Location loc, Value m,
                            bool writable) {
  auto mt = cast<MemRefType>(m.getType());
  auto tt = RankedTensorType::get(mt.getShape(), mt.getElementType());
  return bufferization::ToTensorOp::create(b, loc, tt, m, /*restrict=*/true,
                                           writable);
}

/// The DCSR encoding (compressed rows, then columns) of `enc`'s widths.
inline sparse_tensor::SparseTensorEncodingAttr
dcsrEncoding(MLIRContext *ctx, sparse_tensor::SparseTensorEncodingAttr enc) {
  std::string text =
      "#sparse_tensor.encoding<{map = (i, j) -> (i : compressed, j : "
      "compressed), posWidth = " +
      std::to_string(enc.getPosWidth()) +
      ", crdWidth = " + std::to_string(enc.getCrdWidth()) + "}>";
  return cast<sparse_tensor::SparseTensorEncodingAttr>(
      parseAttribute(text, ctx));
}

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_TRANSFORMS_SPMD_SPARSELEAVES_H
