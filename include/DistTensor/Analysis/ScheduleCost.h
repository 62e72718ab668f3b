//===- ScheduleCost.h - predicted time of a scheduled computation -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The alpha-beta-gamma model of one call of a scheduled dist.compute, per
// process: the local arithmetic (gamma per flop, the GEMM rate of the leaf's
// size when a GEMM leaf is substituted, the scalar loops' rate otherwise)
// plus every transfer the communication analysis derives (each collective
// kind with its own alpha and beta from the cost file). dist-auto-schedule
// ranks candidate schedules by it; docs/autoschedule.md gives the formulas.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_SCHEDULECOST_H
#define DISTTENSOR_ANALYSIS_SCHEDULECOST_H

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/Redistribution.h"

#include <vector>

namespace mlir {
namespace dist {

/// Predicted seconds of one call, per process, and what it holds.
struct ScheduleCost {
  /// Local arithmetic.
  double compute = 0;
  /// alpha terms: messages.
  double latency = 0;
  /// beta terms: elements moved, and the boxes' copies into and out of
  /// their buffers (beta.copy).
  double bandwidth = 0;
  /// The redistributions dist-insert-redistributions puts around the
  /// computation (the planner's predicted seconds; dist-auto-schedule adds
  /// them).
  double redistribution = 0;
  /// Communication inside the time loop that overlaps the previous step's
  /// arithmetic (the lowering double-buffers it, `overlap` on by default):
  /// min(compute, that communication) x (steps - 1) / steps, subtracted
  /// (nothing under overlap(off)).
  double hidden = 0;
  /// Elements one process holds at once: its tiles of every tensor plus the
  /// transfer buffers (two of each when the time loop is double-buffered).
  double memoryElements = 0;
  double total() const {
    return compute + latency + bandwidth + redistribution - hidden;
  }
};

/// The arithmetic part of estimateScheduleCost (its `compute`), which needs
/// no communication analysis: a lower bound of the total, since the
/// overlap hides at most the communication it overlaps.
double estimateComputeSeconds(const ComputeModel &m, const CostModel &costs);

/// The model of `m` under `plans` (analyzeCommunication(m)).
ScheduleCost estimateScheduleCost(const ComputeModel &m,
                                  const std::vector<TransferPlan> &plans,
                                  const CostModel &costs);

/// Seconds per flop of a GEMM whose three extents multiply to `volume`: the
/// cost file's `gamma.gemm.N` (measured at N x N x N) interpolated in log N,
/// the nearest one outside their range, `gamma` without them.
double gemmSecondsPerFlop(const CostModel &costs, double volume);

/// How much slower per flop a GEMM leaf whose thinnest extent is `thin`
/// (and whose extents multiply to `volume`) runs than a cube of its volume:
/// `gamma.gemm.k.K` (benchmarks/calibrate: n x n x K panels with the output
/// out of cache) at `thin` over its value at the cube's extent, both
/// relative to the largest K, interpolated in log K; 1 without two such
/// keys, and never below 1.
double gemmPanelFactor(const CostModel &costs, double thin, double volume);

/// Floating-point operations of one iteration of the statement's loop nest:
/// its additions, subtractions and multiplications, plus one addition into
/// the output when it sums over a variable or accumulates (`+=`).
int64_t flopsPerIteration(const IndexStatement &stmt);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_SCHEDULECOST_H
