//===- Semantics.h - the meaning of layouts and schedules -------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The semantic model every later pass builds on (docs/semantics.md):
//
//   * Layouts: which processor owns which element of a distributed tensor,
//     where it lives in the processor's local tile, and how large each tile
//     is -- in closed form (DimDistribution, LevelDistribution,
//     LayoutSemantics) and as exact isl relations:
//         ownership    { T[i0, ...] -> P[p0, ...] }
//         local index  { [T[i0, ...] -> P[p0, ...]] -> L[l0, ...] }
//   * Statements and schedules: the iteration domain { S[i, j, k] : ... },
//     one access relation { S[...] -> B[...] } per access, and the schedule
//     { S[...] -> [v0, v1, ...] } onto the loops of the scheduled nest
//     (outermost first), split into processor dimensions (distributed loops)
//     and time dimensions (the others).
//
// Conventions: a mesh-mode tuple (a1, ..., ak) linearises a processor
// coordinate with the FIRST listed mode varying fastest (the thesis'
// multi2linear); processor coordinates are enumerated, and ranked,
// row-major (last grid dimension fastest); for a hierarchical machine the
// processor coordinate is the concatenation of the coordinates of every
// level, outermost level first.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_SEMANTICS_H
#define DISTTENSOR_ANALYSIS_SEMANTICS_H

#include "DistTensor/Analysis/Isl.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace dist {

/// Produces the diagnostic an error is reported through.
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

//===----------------------------------------------------------------------===//
// Coordinates
//===----------------------------------------------------------------------===//

/// The thesis' multi2linear: sum over l of coord[axes[l]] * prod_{j<l}
/// shape[axes[j]] (the first listed axis varies fastest).
int64_t multiToLinear(ArrayRef<int64_t> coord, ArrayRef<int64_t> shape,
                      ArrayRef<int64_t> axes);

/// Row-major rank of `coord` in a grid of `shape` (last dimension fastest).
int64_t rowMajorRank(ArrayRef<int64_t> coord, ArrayRef<int64_t> shape);

/// Inverse of rowMajorRank.
SmallVector<int64_t> rowMajorCoord(int64_t rank, ArrayRef<int64_t> shape);

/// Calls `fn` for every coordinate of a grid of `shape`, lexicographically
/// (= row-major rank order). A grid with no dimensions has one coordinate.
void forEachCoordinate(ArrayRef<int64_t> shape,
                       llvm::function_ref<void(ArrayRef<int64_t>)> fn);

//===----------------------------------------------------------------------===//
// Closed form: one tensor dimension, one grid level
//===----------------------------------------------------------------------===//

/// How one tensor dimension of extent `extent` is dealt out over `parts`
/// processors (parts = product of the grid extents of its mesh modes). A
/// processor's part index q = multiToLinear(coord, gridShape, axes), or for
/// a skewed dimension (q + sum of coord[s] over its skew modes) mod Q.
///   blocked:         block b = ceil(n/Q); q owns [q*b, min((q+1)*b, n))
///   cyclic:          q owns g with g mod Q == q          (block 1)
///   block_cyclic(b): q owns g with floor(g/b) mod Q == q
///   none:            every processor owns [0, n)          (block n, Q = 1)
/// Local index: blocked g - q*b; cyclic floor(g/Q); block_cyclic
/// floor(g/(b*Q))*b + g mod b; none g.
struct DimDistribution {
  PartitionKind kind = PartitionKind::none;
  int64_t extent = 0;
  int64_t parts = 1;
  /// The block size: ceil(n/Q) for blocked, b for block_cyclic, 1 for
  /// cyclic, n for none.
  int64_t block = 0;

  static DimDistribution get(PartitionKind kind, int64_t extent,
                             int64_t parts, int64_t blockCyclicBlock);

  /// True if part `q` owns global index `g` (0 <= g < extent).
  bool owns(int64_t q, int64_t g) const;
  /// The part that owns `g`; -1 for kind none (every part owns it).
  int64_t ownerPart(int64_t g) const;
  /// Number of indices part `q` owns.
  int64_t localExtent(int64_t q) const;
  /// The largest localExtent over all parts.
  int64_t maxLocalExtent() const;
  /// Local index of `g` on part `q` (which must own it).
  int64_t toLocal(int64_t q, int64_t g) const;
  /// Global index of local index `l` (0 <= l < localExtent(q)) on part `q`.
  int64_t toGlobal(int64_t q, int64_t l) const;
};

/// The distribution of a tensor of `shape` over ONE grid level of extents
/// `gridShape` (a flat machine, or one level of a hierarchical one).
class LevelDistribution {
public:
  LevelDistribution(ArrayRef<int64_t> shape, LevelLayoutAttr level,
                    ArrayRef<int64_t> gridShape);

  ArrayRef<int64_t> getShape() const { return shape; }
  ArrayRef<int64_t> getGridShape() const { return gridShape; }
  unsigned getRank() const { return shape.size(); }
  const DimDistribution &getDim(unsigned d) const { return dims[d]; }
  /// Mesh modes tensor dimension `d` is partitioned over (first fastest).
  ArrayRef<int64_t> getAxes(unsigned d) const { return axes[d]; }
  /// Mesh modes whose coordinates rotate dimension `d`'s owners (empty
  /// unless the dimension is skewed).
  ArrayRef<int64_t> getSkews(unsigned d) const { return skews[d]; }
  ArrayRef<int64_t> getFixedAxes() const { return fixedAxes; }
  ArrayRef<int64_t> getFixedCoords() const { return fixedCoords; }

  /// Part index of `coord` (a coordinate of this level) for dimension `d`.
  int64_t getPart(unsigned d, ArrayRef<int64_t> coord) const;
  /// False when the layout fixes a mesh mode to another coordinate (the
  /// processor holds nothing).
  bool isHolder(ArrayRef<int64_t> coord) const;
  bool owns(ArrayRef<int64_t> coord, ArrayRef<int64_t> index) const;
  /// Extents of the local tile of `coord` (all 0 for a non-holder).
  SmallVector<int64_t> getLocalExtents(ArrayRef<int64_t> coord) const;
  /// The largest tile extents over all holders.
  SmallVector<int64_t> getMaxLocalExtents() const;
  /// Local index of `index` on `coord`, or std::nullopt if not owned.
  std::optional<SmallVector<int64_t>> toLocal(ArrayRef<int64_t> coord,
                                              ArrayRef<int64_t> index) const;
  /// Global index of a local index on `coord` (must be in the tile).
  SmallVector<int64_t> toGlobal(ArrayRef<int64_t> coord,
                                ArrayRef<int64_t> local) const;

private:
  SmallVector<int64_t> shape, gridShape;
  SmallVector<DimDistribution> dims;
  SmallVector<SmallVector<int64_t>> axes, skews;
  SmallVector<int64_t> fixedAxes, fixedCoords;
};

//===----------------------------------------------------------------------===//
// Whole layouts (all levels) in closed form and as isl relations
//===----------------------------------------------------------------------===//

/// The semantics of a distributed tensor: a shape, a layout and the machine.
///
/// Hierarchical layouts: level 0 distributes the tensor over the outermost
/// grid; level k+1 distributes each processor's level-k local tile (with
/// that processor's actual tile extents) over the level-(k+1) grid. A
/// processor is the concatenation of its coordinates at every level, and
/// its local index is the local index at the innermost level.
class LayoutSemantics {
public:
  /// Checks `layout` against the machine (`gridLevels`: the extents of each
  /// level, outermost first) and builds the semantics. Emits an error and
  /// fails on a mismatch (levels, mesh modes, fixed coordinates, extents).
  static FailureOr<LayoutSemantics>
  get(ArrayRef<int64_t> shape, LayoutAttr layout,
      ArrayRef<SmallVector<int64_t>> gridLevels, EmitErrorFn emitError);
  /// Same for a tensor type and the dist.grid its layout names.
  static FailureOr<LayoutSemantics> get(DistTensorType type, GridOp grid,
                                        EmitErrorFn emitError);
  /// Same, looking the grid up from `user` (an op in the grid's scope).
  static FailureOr<LayoutSemantics> get(DistTensorType type, Operation *user,
                                        EmitErrorFn emitError);

  ArrayRef<int64_t> getShape() const { return shape; }
  unsigned getRank() const { return shape.size(); }
  LayoutAttr getLayout() const { return layout; }
  unsigned getNumLevels() const { return levelGrids.size(); }
  ArrayRef<int64_t> getLevelGridShape(unsigned level) const {
    return levelGrids[level];
  }
  /// Extents of the processor coordinate space: every level's extents
  /// concatenated, outermost level first.
  ArrayRef<int64_t> getGridShape() const { return gridShape; }
  int64_t getNumProcessors() const;
  /// Offset of `level`'s coordinates inside a full processor coordinate.
  unsigned getLevelOffset(unsigned level) const;

  /// The distribution at `level` seen by processor `coord` (a full
  /// coordinate; only the coordinates of the levels above `level` matter).
  LevelDistribution getLevel(unsigned level, ArrayRef<int64_t> coord) const;

  bool isHolder(ArrayRef<int64_t> coord) const;
  bool owns(ArrayRef<int64_t> coord, ArrayRef<int64_t> index) const;
  SmallVector<int64_t> getLocalExtents(ArrayRef<int64_t> coord) const;
  /// Tile extents large enough for every processor (max per dimension).
  SmallVector<int64_t> getMaxLocalExtents() const;
  std::optional<SmallVector<int64_t>> toLocal(ArrayRef<int64_t> coord,
                                              ArrayRef<int64_t> index) const;
  SmallVector<int64_t> toGlobal(ArrayRef<int64_t> coord,
                                ArrayRef<int64_t> local) const;
  /// Every processor owning `index`, in row-major order.
  SmallVector<SmallVector<int64_t>> getOwners(ArrayRef<int64_t> index) const;
  /// Visits every processor coordinate in row-major order.
  void forEachProcessor(llvm::function_ref<void(ArrayRef<int64_t>)> fn) const;

  // isl relations. Tensor dimensions are named i0, i1, ..., processor
  // dimensions p0, p1, ... (all levels), local dimensions l0, l1, ...;
  // `tensorTuple` names the tensor space (default T, the processor space
  // is P, the local space L).

  /// The text of the ownership relation { T[i] -> P[p] : ... }.
  std::string getOwnershipText() const;
  /// The text of the local-index relation { [T[i] -> P[p]] -> L[l] : ... }.
  std::string getLocalIndexText() const;

  /// { T[i] -> P[p] }: p owns element i (exact; existentially quantified
  /// for cyclic and block-cyclic dimensions).
  FailureOr<IslMap> getOwnershipMap(IslContext &ctx, EmitErrorFn emitError,
                                    StringRef tensorTuple = "T") const;
  /// { [T[i] -> P[p]] -> L[l] }: where element i lives in p's tile.
  FailureOr<IslMap> getLocalIndexMap(IslContext &ctx, EmitErrorFn emitError,
                                     StringRef tensorTuple = "T") const;
  /// { T[i] : p owns i } for one processor.
  FailureOr<IslSet> getOwnedSet(IslContext &ctx, ArrayRef<int64_t> coord,
                                EmitErrorFn emitError,
                                StringRef tensorTuple = "T") const;
  /// { P[p] : p owns index }.
  FailureOr<IslSet> getOwnerSet(IslContext &ctx, ArrayRef<int64_t> index,
                                EmitErrorFn emitError) const;
  /// { L[l] : 0 <= l < local extents of coord }.
  FailureOr<IslSet> getLocalBox(IslContext &ctx, ArrayRef<int64_t> coord,
                                EmitErrorFn emitError) const;
  /// { T[i] : 0 <= i < shape }.
  FailureOr<IslSet> getTensorBox(IslContext &ctx, EmitErrorFn emitError,
                                 StringRef tensorTuple = "T") const;

private:
  LayoutSemantics() = default;
  SmallVector<int64_t> shape;
  LayoutAttr layout;
  SmallVector<SmallVector<int64_t>> levelGrids;
  SmallVector<int64_t> gridShape;
  /// Level 0 (its tensor is the whole tensor, the same for every processor).
  std::optional<LevelDistribution> outermost;
  /// The isl text of the ownership relation, or of the local-index relation
  /// when `withLocal`.
  std::string buildText(bool withLocal) const;
};

/// Largest number of outer-level processors for which the exact relation
/// of a hierarchical layout is built (one disjunct per outer processor).
constexpr int64_t kMaxOuterProcessors = 1 << 14;

//===----------------------------------------------------------------------===//
// Statements and schedules
//===----------------------------------------------------------------------===//

/// One loop of the scheduled nest, outermost first.
struct ScheduledLoop {
  std::string name;
  int64_t extent = 0;
  /// Distributed over processors (a processor dimension).
  bool distributed = false;
  /// Grid dimension of a compound distribute, -1 otherwise.
  int64_t gridDim = -1;
  bool parallel = false;
  /// Part of the substituted leaf kernel.
  bool leaf = false;
  /// Tensors communicated at this loop.
  SmallVector<std::string> communicated;
  /// The loop's value in terms of the variables it was derived from, e.g.
  /// "floor(k/4)", "(ko + io + jo) mod 2", "4*a + b".
  std::string definition;
  /// The loop's value as a quasi-affine expression of the statement's index
  /// variables (isl syntax), e.g. "(floor((k)/4) + floor((i)/4)) mod 2".
  std::string expression;
};

/// One access of the statement: { S[...] -> B[...] }.
struct AccessRelation {
  std::string tensor;
  /// 0 for the left-hand side, k for the k-th access on the right.
  unsigned position = 0;
  bool read = false;
  bool write = false;
  IslMap map;
};

/// The polyhedral form of a statement and its schedule.
class StatementSemantics {
public:
  /// Builds the model of `stmt` whose index variables have `extents`,
  /// scheduled as `nest` says (a nest from applySchedule; an unscheduled
  /// statement's nest has one loop per index variable).
  static FailureOr<StatementSemantics>
  get(IslContext &ctx, const IndexStatement &stmt,
      const llvm::StringMap<int64_t> &extents, const LoopNest &nest,
      EmitErrorFn emitError);
  /// Same for a dist.compute, from its `getLoopNest()` (errors are emitted
  /// on the op).
  static FailureOr<StatementSemantics> get(IslContext &ctx, ComputeOp op);

  /// Statement index variables: the dimensions of S, in loop order.
  ArrayRef<std::string> getVariables() const { return variables; }
  /// { S[i, j, ...] : 0 <= i < I and ... }.
  const IslSet &getDomain() const { return domain; }
  /// The left-hand side first, then the right-hand side accesses in order.
  ArrayRef<AccessRelation> getAccesses() const { return accesses; }
  /// { S[...] -> [v0, v1, ...] } onto the loops (outermost first); the
  /// output dimensions carry the loop names.
  const IslPwMultiAff &getSchedule() const { return schedule; }
  const IslMap &getScheduleMap() const { return scheduleMap; }
  ArrayRef<ScheduledLoop> getLoops() const { return loops; }
  /// Positions (in getLoops()) of the distributed loops, ordered by grid
  /// dimension (loop order for single-variable distributes).
  ArrayRef<unsigned> getProcessorDims() const { return processorDims; }
  /// Positions of the other loops, outermost first.
  ArrayRef<unsigned> getTimeDims() const { return timeDims; }
  /// { S[...] -> P[...] }: the processor executing each iteration.
  const IslPwMultiAff &getProcessorSchedule() const { return processorSchedule; }
  const IslMap &getProcessorMap() const { return processorMap; }
  /// { S[...] -> [t...] }: the time dimensions of each iteration.
  const IslPwMultiAff &getTimeSchedule() const { return timeSchedule; }
  const IslMap &getTimeMap() const { return timeMap; }
  const LoopNest &getLoopNest() const { return nest; }

private:
  StatementSemantics() = default;
  SmallVector<std::string> variables;
  IslSet domain;
  SmallVector<AccessRelation> accesses;
  IslPwMultiAff schedule, processorSchedule, timeSchedule;
  IslMap scheduleMap, processorMap, timeMap;
  SmallVector<ScheduledLoop> loops;
  SmallVector<unsigned> processorDims, timeDims;
  LoopNest nest;
};

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_SEMANTICS_H
