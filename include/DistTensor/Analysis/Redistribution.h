//===- Redistribution.h - the thesis' redistribution rules ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Plans a redistribution between two elemental-cyclic layouts of one tensor
// on one mesh (Schatz 2015, ch. 3-4; ../shared/design/schatz-digest.md):
// each step is one of the thesis' collectives acting on suffixes of the
// mode tuples, and the cheapest sequence under the alpha-beta cost model is
// chosen.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_REDISTRIBUTION_H
#define DISTTENSOR_ANALYSIS_REDISTRIBUTION_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace dist {

/// Mode tuples, one per tensor dimension (first listed mode fastest).
using ModeTuples = std::vector<std::vector<int64_t>>;
/// Per tensor dimension, the block the dimension is dealt in over its
/// tuple (1: elemental cyclic; b: block-cyclic(b); a blocked dimension is
/// block-cyclic with b = ceil(n / Q)); 0 for a dimension whose tuple is
/// empty.  An empty vector means every block is 1.
using Blocks = std::vector<int64_t>;

/// One step of a plan.
/// Grid axes fixed to a coordinate (the thesis' non-replicated form
/// [D; E, w]): (axis, coordinate), sorted by axis.
using FixedAxes = std::vector<std::pair<int64_t, int64_t>>;

struct RedistributionStep {
  enum class Kind {
    LocalSlice,
    AllGather,
    Permutation,
    AllToAll,
    Gather,
    Broadcast,
    Scatter,
    /// Same tuples, some dimensions change their block (blocked <-> cyclic
    /// <-> block-cyclic): one all-to-all over those dimensions' modes.
    KindChange
  };
  Kind kind;
  /// Mesh modes the collective runs over.
  llvm::SmallVector<int64_t> modes;
  /// The layout after the step (and its fixed axes).
  ModeTuples after;
  FixedAxes fixedAfter;
  /// Blocks after the step (empty: all 1).
  Blocks blocksAfter;
  /// Predicted seconds.
  double cost = 0;
};

/// The largest number of elements a process holds under mode tuples `t`
/// on a mesh of extents `mesh` (the thesis' n-bar), as a double.
double nbar(const ModeTuples &t, llvm::ArrayRef<int64_t> mesh,
            llvm::ArrayRef<int64_t> shape);

struct RedistributionPlan {
  std::vector<RedistributionStep> steps;
  double cost = 0;
};

/// The alpha-beta model: seconds per message and per element; and whether
/// plans keep to the memory bound. gamma (seconds per flop) is not used by
/// the planner: the one-sided lowering's choice of the stationary tensor
/// adds it (OneSidedCosts in Dialect/Dist/IR/OneSided.h, same defaults).
/// Seconds per flop of the scalar loops of a computation without a GEMM
/// leaf when the cost file has no `gamma.loop`.
constexpr double kDefaultLoopGamma = 1e-9;
/// Seconds per call of a substituted leaf kernel (gemm, mttkrp, gemv, dot)
/// beyond its flops, when the cost file has no `alpha.leaf`.
constexpr double kDefaultLeafAlpha = 5e-8;
/// Seconds per f64 element a computation streams from memory when the cost
/// file has no `beta.stream` (32 GB/s).
constexpr double kDefaultStreamBeta = 2.5e-10;

struct CostModel {
  double alpha = 1e-6;
  double beta = 1e-9;
  double gamma = 1e-10;
  /// The cost file's refined keys (`alpha.K`, `beta.K` per collective kind,
  /// `gamma.gemm.N`, `gamma.loop`, `beta.copy`: benchmarks/calibrate).
  llvm::StringMap<double> keys;
  /// keys[key], or `fallback` when the file has no such key.
  double get(llvm::StringRef key, double fallback) const {
    auto it = keys.find(key);
    return it == keys.end() ? fallback : it->second;
  }
  /// A plan passes only through layouts that hold per process at most the
  /// larger of the source and destination tiles (withinMemoryBound). Off,
  /// the cheapest plan under alpha-beta is taken even when an intermediate
  /// layout holds several times a process's data (for small tensors, e.g.
  /// an allgather then a slice instead of all-to-alls).
  bool memoryBound = true;
};

/// `steps` (a plan from mode tuples `from`, fixed on some grid axes when
/// `fromFixed`) with each run of consecutive exchanges (all-to-all, kind
/// change, permutation with no fixed axes: every element stays within the
/// group of the step's axes and the tensor stays dealt over the same axes)
/// replaced by one all-to-all over the union of their axes, from the run's
/// first layout straight to its last, where the alpha-beta model prices
/// that lower: an exchange over p processes of a tile of n elements costs
/// (p - 1) alpha.alltoall + n (p - 1) / p beta.alltoall + 2 n beta.copy (a
/// permutation alpha.permute + n beta.permute; alpha and beta where the
/// model has no such key). `mesh` and `shape`: the grid's and the
/// tensor's extents.
std::vector<RedistributionStep>
mergeExchangeSteps(std::vector<RedistributionStep> steps,
                   const ModeTuples &from, bool fromFixed,
                   llvm::ArrayRef<int64_t> mesh, llvm::ArrayRef<int64_t> shape,
                   const CostModel &m);

/// The memory rule of redistribution, one for the planner and for
/// dist-insert-redistributions: a layout a redistribution passes through,
/// or a copy inserted for a computation, holds per process at most as many
/// elements as the largest of `ownTiles`, the largest tiles of layouts the
/// program itself gives the tensor (a redistribution's source and
/// destination; the tensor's own layout for an inserted copy).
bool withinMemoryBound(int64_t tile, llvm::ArrayRef<int64_t> ownTiles);

/// Elements of the largest tile of a tensor of extents `shape` laid out as
/// mode tuples `t` on `mesh`, each partitioned dimension dealt in blocks of
/// `blocks[d]` (empty: all 1), as DimDistribution (and so LevelDistribution)
/// counts them.
int64_t largestTile(const ModeTuples &t, const Blocks &blocks,
                    llvm::ArrayRef<int64_t> mesh,
                    llvm::ArrayRef<int64_t> shape);

/// The single thesis collective that takes `from` to `to`, if one applies
/// (no-op plans have no steps). `mesh` gives the extent of every mode and
/// `shape` the tensor's extents.
std::optional<RedistributionStep>
classifyRedistribution(const ModeTuples &from, const ModeTuples &to,
                       llvm::ArrayRef<int64_t> mesh,
                       llvm::ArrayRef<int64_t> shape, const CostModel &model);

/// The cheapest sequence of collectives (at most `maxSteps`) from `from` to
/// `to` (within the memory bound unless `model` relaxes it), or nothing if
/// none is found within the bounds.
std::optional<RedistributionPlan>
planRedistribution(const ModeTuples &from, const ModeTuples &to,
                   llvm::ArrayRef<int64_t> mesh, llvm::ArrayRef<int64_t> shape,
                   const CostModel &model, unsigned maxSteps = 5);

/// The cheapest plan from `from` (dealt in blocks `fromBlocks`) to `to`
/// (blocks `toBlocks`): the thesis' rules act on block indices, so a
/// dimension keeps its block through the steps; where both sides partition
/// a dimension with different blocks, one kind-change step (an all-to-all
/// over the modes of those dimensions) runs first or last, whichever the
/// cost model prefers.  Every step's `blocksAfter` is set.
std::optional<RedistributionPlan>
planBlockedRedistribution(const ModeTuples &from, const Blocks &fromBlocks,
                          const ModeTuples &to, const Blocks &toBlocks,
                          llvm::ArrayRef<int64_t> mesh,
                          llvm::ArrayRef<int64_t> shape,
                          const CostModel &model, unsigned maxSteps = 5);

/// The single gather-to-one, broadcast or scatter that takes `from` (fixed
/// on `fromFixed`) to `to` (fixed on `toFixed`), if one applies.
std::optional<RedistributionStep>
classifyNonReplicated(const ModeTuples &from, const FixedAxes &fromFixed,
                      const ModeTuples &to, const FixedAxes &toFixed,
                      llvm::ArrayRef<int64_t> mesh,
                      llvm::ArrayRef<int64_t> shape, const CostModel &model);

/// "[(0, 2), (1)]", with "|(2=0)" for fixed axes and " b=K" after a
/// tuple dealt in blocks of K > 1.
std::string formatModeTuples(const ModeTuples &t, const FixedAxes &fixed = {},
                             const Blocks &blocks = {});
/// "allgather", "permutation", "all-to-all", "local slice", "gather-to-one",
/// "broadcast", "scatter", "redistribute-kind".
std::string stringifyStep(RedistributionStep::Kind kind);

/// The mode tuples of a one-level layout whose partitioned dimensions are
/// all elemental-cyclic (cyclic, block-cyclic with block 1, or blocked with
/// at most one element per process) and which fixes no grid axes; nothing
/// otherwise.
std::optional<ModeTuples> modeTuplesOf(DistTensorType type);
/// The same, accepting fixed grid axes (returned in `fixed`).
std::optional<ModeTuples> modeTuplesOf(DistTensorType type, FixedAxes &fixed);
/// The mode tuples and blocks of any one-level layout without skew
/// (blocked, cyclic, block-cyclic or unpartitioned dimensions) on a grid of
/// extents `mesh`; blocks are normalised (at most the extent; 0 for an
/// empty tuple).
std::optional<ModeTuples> blockedModeTuplesOf(DistTensorType type,
                                              llvm::ArrayRef<int64_t> mesh,
                                              FixedAxes &fixed,
                                              Blocks &blocks);

/// The runtime layout descriptor of mode tuples (kinds 0, 2 and, for
/// blocks > 1, 3; fixed axes `fixed`) for a tensor of extents `shape`.
llvm::SmallVector<int64_t> modeTupleDescriptor(const ModeTuples &t,
                                               llvm::ArrayRef<int64_t> shape,
                                               const FixedAxes &fixed = {},
                                               const Blocks &blocks = {});

/// What the planner decides for one dist.redistribute.
struct OpRedistributionPlan {
  /// The balanced plan; empty when the thesis' rules do not apply or no
  /// sequence was found (then `reason` says why).
  std::optional<RedistributionPlan> plan;
  /// Whether both layouts are mode tuples on one mesh (the rules apply).
  bool applies = false;
  ModeTuples from, to;
  FixedAxes fromFixed, toFixed;
  /// Blocks of both layouts (empty when every block is 1).
  Blocks fromBlocks, toBlocks;
  /// For layouts on two grids of the same size: the extents of their
  /// common refinement (the grid the plan runs on; `mesh` too); empty for
  /// one grid.
  llvm::SmallVector<int64_t> refinedGrid;
  llvm::SmallVector<int64_t> mesh;
  std::string reason;
};

/// The common refinement of two grids of the same number of processes,
/// both numbering ranks row-major (last axis fastest): a grid whose axes
/// split every axis of both into consecutive fine axes. `axesA[a]` /
/// `axesB[a]` list the fine axes of axis a, fastest first (empty for an
/// axis of extent 1). Nothing when the axes' boundaries do not nest (e.g.
/// [2, 3] and [3, 2]).
std::optional<llvm::SmallVector<int64_t>>
commonRefinement(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                 std::vector<std::vector<int64_t>> &axesA,
                 std::vector<std::vector<int64_t>> &axesB);

/// Mode tuples on a grid rewritten on its refinement (`axes` from
/// commonRefinement).
ModeTuples refineModeTuples(const ModeTuples &t,
                            const std::vector<std::vector<int64_t>> &axes);

/// Plans `op`: source and destination on one grid, or on two single-level
/// cpu grids of the same size whose axes have a common refinement (then
/// both layouts are rewritten on it: the same rank holds the same elements,
/// so the relabelling moves nothing, and the plan runs on that grid).
OpRedistributionPlan planRedistributeOp(RedistributeOp op,
                                        const CostModel &model,
                                        unsigned maxSteps = 5);

/// How a partial-sum redistribution (`dist.redistribute ... sum [...]`)
/// runs: the thesis' reduction over the freed mesh modes (the summed
/// dimensions' tuples), straight into the destination when it has the
/// matching form, otherwise an allreduce into the kept layout followed by
/// an ordinary redistribution (planned, or the general exchange).
struct PartialSumPlan {
  enum class Kind { AllReduce, ReduceScatter, ReduceToOne };
  Kind kind = Kind::AllReduce;
  /// Freed mesh modes (sorted) and the summed dimensions, as bit masks.
  int64_t axesMask = 0, sumMask = 0;
  llvm::SmallVector<int64_t> freed;
  /// Source tuples, and those of the kept dimensions.
  ModeTuples from, kept;
  /// Whether the reduction lands in the destination; otherwise it lands in
  /// a tile of layout `kept`, then `then` runs (the general exchange when
  /// `then` is empty).
  bool direct = true;
  std::optional<RedistributionPlan> then;
  /// Predicted seconds (the reduction, plus `then`).
  double cost = 0;
  /// Why the op cannot be lowered (empty when it can).
  std::string error;
};

/// Plans a `dist.redistribute` with `sum`; `general` forces the allreduce +
/// general exchange form.
PartialSumPlan planPartialSum(RedistributeOp op, const CostModel &model,
                              bool general = false);
/// "allreduce", "reduce-scatter", "reduce-to-one".
std::string stringifyPartialSum(PartialSumPlan::Kind kind);

/// Reads a cost model written by `benchmarks/calibrate`: lines `alpha X`
/// and `beta Y` (seconds per message and per element), and optionally
/// `gamma Z` (seconds per flop); `#` starts a comment. Returns an error
/// message, or the empty string on success.
std::string readCostModel(llvm::StringRef path, CostModel &model);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_REDISTRIBUTION_H
