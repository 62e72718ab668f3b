//===- Communication.h - communication of a scheduled statement -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The model of one dist.compute as SPMD code (which loops are processors,
// which are time steps, where each tensor is communicated) and the
// classification of every tensor's transfer into a collective pattern:
//
//   inputs:  local | broadcast over grid axes | systolic shift along an axis
//            (after an initial alignment) | general exchange
//   output:  local | reduce over grid axes to a root | allreduce over grid
//            axes | general exchange (accumulate into every holder)
//
// The classification evaluates the statement's footprint (the box of each
// tensor needed under its communicate loop, derived from the schedule and
// the accesses) for every processor and every step, and the owners of
// each box from the tensor's layout, and checks each pattern's defining
// property on all of them. Grids and trip counts are static, so this is
// exact.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_COMMUNICATION_H
#define DISTTENSOR_ANALYSIS_COMMUNICATION_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <vector>

namespace mlir {
namespace dist {

/// One dist.compute prepared for SPMD lowering.
struct ComputeModel {
  ComputeOp op;
  IndexStatement stmt;
  llvm::StringMap<int64_t> extents; // statement variables
  LoopNest nest;
  /// Tensor name -> type, in statement order (output first).
  llvm::SmallVector<std::string> names;
  llvm::StringMap<DistTensorType> types;
  llvm::StringMap<Value> values;
  /// Tensor name -> its access (all accesses of a tensor agree).
  llvm::StringMap<const Access *> accessOf;
  FlatSymbolRefAttr grid;
  llvm::SmallVector<int64_t> gridShape;
  /// Distributed loops (outermost) with their grid dimensions, and the
  /// other loops, outermost first.
  llvm::SmallVector<const Loop *> distLoops, localLoops;
  llvm::SmallVector<int64_t> gridDimOf;
  /// Communication level of each tensor: 0 = once per processor, k = at the
  /// start of each iteration of local loop k - 1.
  llvm::StringMap<unsigned> level;
  /// Loops [leafLevel, end) form the substituted leaf kernel (gemm or
  /// mttkrp), if any (`gemmLeaf`: a kernel leaf exists).
  unsigned leafLevel = 0;
  bool gemmLeaf = false;

  /// The loops fixed at level k: distributed loops and local loops < k.
  llvm::SmallVector<std::string> fixedAt(unsigned k) const;
  /// Number of steps at level k (product of the extents of local loops
  /// < k) and the stride of local loop i in the linear step index.
  int64_t stepsAt(unsigned k) const;
};

/// Builds the model; emits a diagnostic on `op` naming the tensor or loop
/// and the reason when the computation cannot be lowered.
FailureOr<std::unique_ptr<ComputeModel>> buildComputeModel(ComputeOp op);

/// How one tensor moves.
struct TransferPlan {
  enum class Kind {
    Local,
    Broadcast,
    Shift,
    AllGather,
    PointToPoint,
    Reduce,
    AllReduce,
    ReduceScatter,
    General
  };
  Kind kind = Kind::General;
  std::string tensor;
  bool output = false;
  unsigned level = 0;
  /// Broadcast / Reduce / AllReduce: the group's grid axes (sorted).
  llvm::SmallVector<int64_t> axes;
  /// Broadcast / Reduce: root index inside the group (row-major over
  /// `axes`) for rank r at linear step t: rootTable[r * steps + t].
  llvm::SmallVector<int64_t> rootTable;
  /// Shift: along `shiftAxis` by `shiftOffset` at every iteration but the
  /// first of the communicate loop, which aligns with a point-to-point
  /// exchange when `alignByPermutation`, else with the general exchange.
  int64_t shiftAxis = -1, shiftOffset = 0;
  bool alignByPermutation = false;
  /// Shift only: every processor already holds its first box (a skewed
  /// layout matching the rotation), so the alignment moves nothing.
  bool alignLocal = false;
  /// AllGather / ReduceScatter: the box is cut along tensor dimension
  /// `splitDim` into equal contiguous pieces, piece j held by group
  /// member j (a single grid axis in `axes`).
  int64_t splitDim = -1;
  /// PointToPoint (and a shift's alignment): at linear step t, rank r
  /// receives its box from srcTable[r * steps + t] and sends to
  /// dstTable[r * steps + t] the box starting at dstLo[(r * steps + t) *
  /// rank + d] with extents dstSize[...] (-1: no partner; a rank that is
  /// its own partner copies locally).
  llvm::SmallVector<int64_t> srcTable, dstTable, dstLo, dstSize;
  int64_t steps = 1;
  int64_t maxElements = 0;
  /// For Kind::General: why no collective pattern was used.
  std::string whyGeneral;

  /// A one-line description for remarks and tests.
  std::string describe(const ComputeModel &model) const;
};

/// Classifies the transfer of every tensor of the model (output first).
std::vector<TransferPlan> analyzeCommunication(const ComputeModel &m);

/// Name of a kind ("local", "broadcast", ...).
llvm::StringRef stringifyTransferKind(TransferPlan::Kind kind);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_COMMUNICATION_H
