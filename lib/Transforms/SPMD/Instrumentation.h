//===- Instrumentation.h - check and timing of SPMD code --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What dist-materialize-spmd adds around computations and redistributions
// with `check` (a reference computed on rank 0 by the runtime's own
// evaluator, compared with every copy of the result; inputs must be left
// unchanged) and `timing` (the time between two barriers over the grid,
// the maximum over the ranks).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_INSTRUMENTATION_H
#define DIST_LIB_TRANSFORMS_SPMD_INSTRUMENTATION_H

#include "SPMDBuilder.h"

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"

#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace dist {
namespace spmd {

/// The relative error `check` accepts for elements of type `elt`: the
/// tolerance option, or by default 1e-12 for f64, 1e-4 for f32, 0 for
/// integers.
double checkTolerance(const SPMDOptions &options, Type elt);

/// Starts the clock of a timed computation on grid `grid` (of `gridRank`
/// axes) after a barrier; returns the start time (f64).
Value startTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                  int64_t gridRank);
/// Stops it after a barrier and reports the time of `stmt` (the maximum
/// over the ranks).
void stopTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                int64_t gridRank, Value timer, const IndexStatement &stmt);
/// The same, reporting the time under `name` (a redistribution's).
void stopTiming(OpBuilder &b, Location loc, FlatSymbolRefAttr grid,
                int64_t gridRank, Value timer, StringRef name);

/// Whole copies, on rank 0, of every input and (for `+=`) of the output
/// as they are before the computation (buffers of the tensors' shapes).
llvm::StringMap<Value> gatherForCheck(SPMDBuilder &rt, OpBuilder &b,
                                      Location loc, const IndexStatement &stmt,
                                      llvm::StringMap<DistTensorType> &types,
                                      llvm::StringMap<Value> &values);

/// The reference check of a computation against the copies `globals`
/// gatherForCheck made before it, on rank 0 of the output's grid; frees
/// them.
void emitCheck(SPMDBuilder &rt, OpBuilder &b, ComputeOp op,
               const IndexStatement &stmt,
               llvm::StringMap<DistTensorType> &types,
               llvm::StringMap<Value> &values, Type elt,
               llvm::StringMap<Value> &globals);

/// The check of a redistribution of tile `s` (type `st`) into tile `d`
/// (type `dt`): the destination must hold exactly the gathered source.
void checkRedistribute(OpBuilder &b, Location loc, DistTensorType st,
                       DistTensorType dt, Value s, Value d);

/// The check of a partial-sum redistribution over the dimensions `sum`:
/// the gathered source summed on rank 0 of its grid.
void checkPartialSum(SPMDBuilder &rt, OpBuilder &b, Location loc,
                     DistTensorType st, DistTensorType dt, Value s, Value d,
                     ArrayRef<int64_t> sum);

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_INSTRUMENTATION_H
