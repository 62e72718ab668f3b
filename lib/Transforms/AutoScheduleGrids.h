//===- AutoScheduleGrids.h - other grids for dist-auto-schedule -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-auto-schedule also tries the computation on grids of other shapes
// with the same number of processes (a 2 x 2 grid for tensors laid out on
// [4], a 2 x 2 x 2 grid for Johnson's algorithm on [8]): the tensors are
// redistributed onto the other grid, in the layouts the candidate's
// distribution gives them, and the output back. This file says which
// shapes and which layouts.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_AUTOSCHEDULEGRIDS_H
#define DIST_LIB_TRANSFORMS_AUTOSCHEDULEGRIDS_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace dist {

/// The other grid shapes tried for a computation whose output is on a grid
/// of extents `current`, with P their product: [P], the two most nearly
/// square 2-D shapes a x b (2 <= a <= b) and the two most nearly cubic 3-D
/// shapes a x b x c (2 <= a <= b <= c), `current` itself (without its
/// extents of 1) left out. At most
/// five whatever P is; each shape's extents are in increasing order, since
/// the candidates already try every assignment of variables to grid
/// dimensions.
SmallVector<SmallVector<int64_t>>
alternativeGridShapes(ArrayRef<int64_t> current);

/// The layout on `grid` (`rank` axes) that distributing `distVars`
/// (distVars[g] over axis g) gives a tensor indexed by `indices`: a
/// dimension indexed by a distributed variable is blocked over that
/// variable's axis; the other dimensions, in order, are blocked over the
/// axes the tensor does not use yet, one each; axes left over replicate
/// it. For C(i,j) = A(i,k) * B(k,j) distributing {i, j} on a 2-D grid,
/// every matrix is blocked both ways (SUMMA's and Cannon's layouts).
LayoutAttr distributionLayout(MLIRContext *ctx, FlatSymbolRefAttr grid,
                              unsigned rank, ArrayRef<std::string> indices,
                              ArrayRef<std::string> distVars);

/// A one-level grid of `kind` and extents `shape` in `module`: an existing
/// one, or a new `dist.grid @auto_grid_AxB...` at the start of the module
/// (`created` says which).
GridOp gridOfShape(ModuleOp module, ArrayRef<int64_t> shape,
                   ProcessorKind kind, Location loc, bool &created);

} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_AUTOSCHEDULEGRIDS_H
