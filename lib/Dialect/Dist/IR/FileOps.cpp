//===- FileOps.cpp - dist.load and dist.store: files -------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The verifiers of dist.load and dist.store that concern the file: its
// path, and which file kinds a tensor is read from or written to (a dense
// tensor: .dtensor or .npy; a sparse matrix: MatrixMarket or
// Harwell-Boeing, read, and MatrixMarket, written; a sparse tensor of
// order 3: FROSTT .tns). Their layouts are checked with the other ops'
// (DistOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::dist;

/// A file path for dist.load / dist.store: not empty, no NUL, not a
/// directory name, and short enough for the runtime (PATH_MAX-safe).
static LogicalResult verifyTensorPath(Operation *op, StringRef path) {
  if (path.empty())
    return op->emitOpError("path must not be empty");
  if (path.contains('\0'))
    return op->emitOpError("path must not contain a NUL character");
  if (path.ends_with("/"))
    return op->emitOpError("path '")
           << path << "' names a directory; expected a file name";
  if (path.size() > 4000)
    return op->emitOpError("path is ")
           << path.size() << " characters long (at most 4000)";
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyTensorPath(*this, getPath())))
    return failure();
  if (!getTensor().getType().isSparse())
    return success();
  // A sparse tensor is read from a matrix file, chosen by its extension.
  StringRef ext = llvm::sys::path::extension(getPath());
  if (ext.equals_insensitive(".npy"))
    return emitOpError("'")
           << getPath()
           << "' is a NumPy .npy file, which holds a dense tensor; a "
              "sparse tensor is read from a .mtx, Harwell-Boeing or .tns file";
  if (getTensor().getType().getRank() == 3) {
    if (ext.equals_insensitive(".tns"))
      return success();
    return emitOpError("a sparse tensor of order 3 is read from a FROSTT "
                       "(.tns) file; '")
           << getPath() << "' does not end in .tns";
  }
  for (StringRef ok : {".mtx", ".rua", ".rsa", ".rra", ".pua", ".psa",
                       ".pra", ".tns"})
    if (ext.equals_insensitive(ok))
      return success();
  return emitOpError("a sparse tensor is read from a MatrixMarket (.mtx), "
                     "Harwell-Boeing (.rua, .rsa, .rra, .pua, .psa, .pra) "
                     "or FROSTT (.tns) file; '")
         << getPath() << "' has none of these extensions";
}

LogicalResult StoreOp::verify() {
  if (failed(verifyTensorPath(*this, getPath())))
    return failure();
  StringRef ext = llvm::sys::path::extension(getPath());
  if (getTensor().getType().isSparse() && ext.equals_insensitive(".npy"))
    return emitOpError("'")
           << getPath()
           << "' is a NumPy .npy file, which holds a dense tensor; a "
              "sparse tensor is written as a MatrixMarket (.mtx) file";
  if (getTensor().getType().isSparse() && getTensor().getType().getRank() == 3) {
    if (ext.equals_insensitive(".tns"))
      return success();
    return emitOpError("a sparse tensor of order 3 is written as a FROSTT "
                       "(.tns) file; '")
           << getPath() << "' does not end in .tns";
  }
  if (getTensor().getType().isSparse() && !ext.equals_insensitive(".mtx"))
    return emitOpError("a sparse tensor is written as a MatrixMarket file; "
                       "'")
           << getPath() << "' does not end in .mtx";
  return success();
}
