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
// The classification derives the statement's footprint (the box of each
// tensor needed under its communicate loop, from the schedule and the
// accesses) and the owners of each box (from the tensor's layout) as isl
// functions of the processor's coordinates and the step, and proves each
// pattern's defining property for all of them (SymbolicCommunication.cpp).
// Roots and peers come out as QExprs of the coordinates and steps, which the
// lowering emits as arithmetic: nothing is enumerated per processor or
// step, so compile time and code size do not grow with the grid.
//
// analyzeCommunicationByEnumeration is the same classification by brute
// force over every (processor, step) pair, with per-processor tables: the
// oracle the symbolic one is cross-checked against in tests
// (--test-dist-communication-crosscheck).
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_COMMUNICATION_H
#define DISTTENSOR_ANALYSIS_COMMUNICATION_H

#include "DistTensor/Analysis/QuasiAffine.h"
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
  /// `axes`) as a function of the processor's coordinates and the steps
  /// (see QuasiAffine.h for the variables).
  QExpr root;
  /// The same, by enumeration only: rootTable[r * steps + t] for rank r at
  /// linear step t.
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
  /// ReduceScatter only, when not 0: the pieces are the layout's blocks
  /// instead (the box starts at 0 along `splitDim`; piece j is
  /// [j * pieceBlock, min((j + 1) * pieceBlock, box size)), shorter or
  /// empty at the end: a blocked dimension the group does not divide).
  int64_t pieceBlock = 0;
  /// PointToPoint (and a shift's alignment): the grid coordinates of the
  /// processor this one receives its box from (srcCoords) and of the one it
  /// sends to (dstCoords; that processor's box is what it sends), as
  /// functions of the coordinates and the steps; -1 on every axis where
  /// there is no partner. A processor may be its own partner.
  llvm::SmallVector<QExpr> srcCoords, dstCoords;
  /// The same, by enumeration only: at linear step t, rank r
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

/// Classifies the transfer of every tensor of the model (output first),
/// symbolically. A tensor whose pattern the analysis cannot derive moves
/// with the general exchange, and whyGeneral says why.
std::vector<TransferPlan> analyzeCommunication(const ComputeModel &m);

/// The same classification by enumerating every (processor, step) pair,
/// with tables instead of QExprs; for tests only (it gives up beyond 2^18
/// pairs).
std::vector<TransferPlan>
analyzeCommunicationByEnumeration(const ComputeModel &m);

/// Name of a kind ("local", "broadcast", ...).
llvm::StringRef stringifyTransferKind(TransferPlan::Kind kind);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_COMMUNICATION_H
