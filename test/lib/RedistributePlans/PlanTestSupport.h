//===- PlanTestSupport.h - plan test helpers --------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The random layouts, the independent models of ownership and the step
// runner shared by dist-test-redistribute-plans' sections
// (TestRedistributePlans.cpp, TestRedistributePlansGrids.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_TEST_REDISTRIBUTEPLANS_PLANTESTSUPPORT_H
#define DIST_TEST_REDISTRIBUTEPLANS_PLANTESTSUPPORT_H

#include "DistTensor/Analysis/Redistribution.h"

extern "C" {
#include "test_util.h"
}

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plantest {
using namespace mlir::dist;

/// The generator's state (each case seeds it).
extern uint64_t rngState;

/// A number in 0 .. n - 1 from rngState.
int64_t rnd(int64_t n);

/// Random mode tuples: every grid axis partitions a random dimension (in a
/// random position of its tuple) or is left for replication.
ModeTuples randomTuples(int64_t ndims, int64_t gdims);

/// Independent model: checks this rank's tile under `t`. Returns the number
/// of wrong elements (or 1 + expected size when the size is wrong).
int64_t checkTile(const ModeTuples &t, const std::vector<int64_t> &grid,
                  const std::vector<int64_t> &coords,
                  const std::vector<int64_t> &shape, const void *tile,
                  int64_t dtype, int64_t seed, int64_t gotSize,
                  const FixedAxes &fixed = {});

/// The grid axes a step runs over, as the runtime's bit mask.
int64_t modeMask(const RedistributionStep &step);

/// One step, as dist-materialize-spmd emits it.
void runStep(distrt_grid *g, const RedistributionStep &step, const int64_t *a,
             const void *cur, const int64_t *b, void *next, int64_t dtype);

/// A plan's steps; an empty plan (the layouts are equal) runs as one local
/// slice into the destination layout, as the lowering does.
std::vector<RedistributionStep> stepsOf(const RedistributionPlan &plan,
                                        const ModeTuples &to,
                                        const Blocks &toBlocks = {});

/// The plan the compiler lowers with (within the memory bound) or, where
/// the bound leaves the pair to the general exchange, the unbounded plan,
/// so that its steps run too (`relaxed` says which).
template <typename PlanFn>
std::optional<RedistributionPlan> boundedOrRelaxed(PlanFn plan, bool &relaxed) {
  CostModel model;
  relaxed = false;
  if (std::optional<RedistributionPlan> p = plan(model))
    return p;
  model.memoryBound = false;
  relaxed = true;
  return plan(model);
}

/// The memory bound, checked with the runtime's own tile sizes: under a
/// bounded plan no step's tile on this process (`tile`) is larger than the
/// larger of the source's and destination's largest tiles (`bound`).
void expectWithinBound(const std::string &what, const RedistributionStep &s,
                       bool relaxed, int64_t tile, int64_t bound);

/// The runtime descriptor of a layout whose dimension d is of kind
/// `kind[d]` (1 blocked, 2 cyclic, 3 block-cyclic) with block `block[d]`
/// over the axes `t[d]` (whole when empty).
llvm::SmallVector<int64_t> kindDescriptor(const std::vector<int64_t> &shape,
                                          const ModeTuples &t,
                                          const std::vector<int64_t> &kind,
                                          const std::vector<int64_t> &block);

/// The planner's blocks for that layout on `grid` (what
/// blockedModeTuplesOf derives): a blocked dimension's block is its extent
/// over the processes it is split across.
Blocks plannerBlocks(const std::vector<int64_t> &shape, const ModeTuples &t,
                     const std::vector<int64_t> &grid,
                     const std::vector<int64_t> &kind,
                     const std::vector<int64_t> &block);

/// Independent model of block-cyclic ownership: in dimension d the
/// process with digit q holds the global indices g with (g / B) mod Q = q
/// (B the dimension's block; every index when its tuple is empty), in
/// increasing order. Found by enumeration, not by the runtime's closed
/// forms. Returns the number of wrong elements (or 1 + expected size when
/// the size is wrong).
int64_t checkBlockedTile(const ModeTuples &t, const Blocks &blocks,
                         const std::vector<int64_t> &grid,
                         const std::vector<int64_t> &coords,
                         const std::vector<int64_t> &shape, const void *tile,
                         int64_t dtype, int64_t seed, int64_t gotSize);

/// A random grid of P ranks with 1-3 axes.
std::vector<int64_t> randomGrid(int64_t P);

/// The sections of the test (each runs `cases` random cases on this job's
/// P ranks and prints its summary line).
void checkModeTuplePairs(int64_t cases, int64_t P);
void checkBlockedPairs(int64_t cases, int64_t P);
void checkTwoGridPairs(int64_t cases, int64_t P);
void checkNonReplicatedForms(int64_t cases, int64_t P);
} // namespace plantest

#endif // DIST_TEST_REDISTRIBUTEPLANS_PLANTESTSUPPORT_H
