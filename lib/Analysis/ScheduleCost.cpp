//===- ScheduleCost.cpp - predicted time of a scheduled computation -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// estimateScheduleCost: compute + latency + bandwidth of one call of a
// scheduled dist.compute, per process (docs/autoschedule.md).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/ScheduleCost.h"

#include "DistTensor/Analysis/LayoutSuggestion.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>
#include <utility>

using namespace mlir;
using namespace mlir::dist;

static int64_t countOps(const IndexExpr &e) {
  switch (e.kind) {
  case IndexExpr::Kind::Access:
  case IndexExpr::Kind::Constant:
    return 0;
  case IndexExpr::Kind::Neg:
    return countOps(*e.lhs);
  case IndexExpr::Kind::Add:
  case IndexExpr::Kind::Sub:
  case IndexExpr::Kind::Mul:
    return 1 + countOps(*e.lhs) + countOps(*e.rhs);
  }
  return 0;
}

int64_t mlir::dist::flopsPerIteration(const IndexStatement &stmt) {
  int64_t ops = countOps(*stmt.rhs);
  if (stmt.accumulate || !stmt.reductionVariables().empty())
    ++ops;
  return std::max<int64_t>(ops, 1);
}

/// The cost file's keys `prefix` + N (N > 0) as (log N, value), sorted.
static SmallVector<std::pair<double, double>> sizedKeys(const CostModel &c,
                                                        StringRef prefix) {
  SmallVector<std::pair<double, double>> points;
  for (const auto &kv : c.keys) {
    StringRef key = kv.getKey();
    double n;
    if (key.consume_front(prefix) && !key.getAsDouble(n) && n > 0 &&
        kv.getValue() > 0)
      points.push_back({std::log(n), kv.getValue()});
  }
  llvm::sort(points);
  return points;
}

/// `points` (non-empty, sorted) interpolated at log n, the nearest one
/// outside their range.
static double interpolate(ArrayRef<std::pair<double, double>> points,
                          double n) {
  double x = std::log(std::max(n, 1.0));
  if (x <= points.front().first)
    return points.front().second;
  for (unsigned i = 1; i < points.size(); ++i) {
    auto [x1, y1] = points[i];
    auto [x0, y0] = points[i - 1];
    if (x <= x1)
      return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
  }
  return points.back().second;
}

double mlir::dist::gemmSecondsPerFlop(const CostModel &c, double volume) {
  SmallVector<std::pair<double, double>> points = sizedKeys(c, "gamma.gemm.");
  if (points.empty())
    return c.gamma;
  return interpolate(points, std::cbrt(std::max(volume, 1.0)));
}

double mlir::dist::gemmPanelFactor(const CostModel &c, double thin,
                                   double volume) {
  SmallVector<std::pair<double, double>> points = sizedKeys(c, "gamma.gemm.k.");
  if (points.size() < 2)
    return 1;
  // A cube of the leaf's volume is already at its size's rate
  // (gemmSecondsPerFlop): only the thinness beyond a cube's counts.
  double cube = std::cbrt(std::max(volume, 1.0));
  return std::max(1.0, interpolate(points, thin) / interpolate(points, cube));
}

/// Elements of each statement variable a process iterates over: the
/// product of the extents of the local loops derived from it (a collapsed
/// loop counts for its first origin).
static llvm::StringMap<double> localExtents(const ComputeModel &m) {
  llvm::StringMap<double> ext;
  for (const std::string &v : m.stmt.indexVariables())
    ext[v] = 1;
  for (const Loop *loop : m.localLoops)
    if (!loop->origins.empty())
      ext[loop->origins.front()] *= double(loop->extent);
  return ext;
}

/// f64-sized elements a call reads or writes once, from memory: each
/// tensor's region of the local iteration space (a tensor read by a leaf
/// many times, as a GEMM's, stays in cache and counts once).
static double streamedWords(const ComputeModel &m) {
  llvm::StringMap<double> ext = localExtents(m);
  llvm::StringSet<> seen;
  double words = 0;
  auto add = [&](const Access &a) {
    if (!seen.insert(a.tensor).second)
      return;
    double n = 1;
    for (const std::string &v : a.indices)
      n *= ext.lookup(v);
    DistTensorType t = m.types.lookup(a.tensor);
    unsigned bits = t ? t.getElementType().getIntOrFloatBitWidth() : 64;
    words += n * double(bits) / 64.0;
  };
  add(m.stmt.lhs);
  for (const Access *a : m.stmt.rhsAccesses())
    add(*a);
  return words;
}

/// Whether the scalar loops vectorize: the lowering's linalg.generic
/// iterates in the statement's variable order, and its innermost variable
/// is the last index of every access that has it (stride 1; a sum is
/// reassociated). A GEMM's k walks C(k,j) by rows: strided.
static bool vectorizes(const IndexStatement &stmt) {
  SmallVector<std::string> vars = stmt.indexVariables();
  if (vars.empty())
    return false;
  const std::string &inner = vars.back();
  auto unit = [&](const Access &a) {
    return !llvm::is_contained(a.indices, inner) || a.indices.back() == inner;
  };
  if (!unit(stmt.lhs))
    return false;
  return llvm::all_of(stmt.rhsAccesses(),
                      [&](const Access *a) { return unit(*a); });
}

/// The local arithmetic of one call: iterations of the local loops times
/// the statement's flops at the leaf's rate, or the time to stream the
/// tensors' local regions from memory when that is longer (a roofline: a
/// TTV or an inner product is bound by memory, a GEMM by its flops), plus
/// the leaf's constant per call.
static double computeSeconds(const ComputeModel &m, const CostModel &c) {
  double iterations = 1, leafVolume = 1, leafThin = 0;
  for (auto [i, loop] : llvm::enumerate(m.localLoops)) {
    iterations *= double(loop->extent);
    if (m.gemmLeaf && i >= m.leafLevel) {
      leafVolume *= double(loop->extent);
      leafThin = leafThin == 0 ? double(loop->extent)
                               : std::min(leafThin, double(loop->extent));
    }
  }
  double flops = iterations * double(flopsPerIteration(m.stmt));
  // Scalar loops: gamma.loop (strided), or gamma.vec when they vectorize.
  double gamma = c.get("gamma.loop", kDefaultLoopGamma);
  if (!m.gemmLeaf && vectorizes(m.stmt))
    gamma = c.get("gamma.vec", gamma);
  double overhead = 0;
  if (m.gemmLeaf) {
    // Every call of the leaf pays a constant (the runtime's checks and the
    // library's dispatch): `alpha.leaf` per call, the calls being the
    // iterations of the loops around it.
    double calls = 1;
    for (unsigned i = 0; i < m.leafLevel && i < m.localLoops.size(); ++i)
      calls *= double(m.localLoops[i]->extent);
    overhead = calls * c.get("alpha.leaf", kDefaultLeafAlpha);
    // GEMM and MTTKRP (a GEMM with the Khatri-Rao product) leaves at the
    // GEMM rate for their size; gemv and dot at their own, measured rate
    // when the file has one.
    gamma = gemmSecondsPerFlop(c, leafVolume);
    const std::string &kernel = m.nest.kernel;
    if (kernel == "gemv" || kernel == "dot")
      gamma = c.get("gamma." + kernel, gamma);
    // A GEMM on thin slices (SUMMA's panels) updates its output once per
    // call: slower per flop than a cube (`gamma.gemm.k.K`).
    if (kernel == "gemm")
      gamma *= gemmPanelFactor(c, leafThin, leafVolume);
  }
  double memory =
      streamedWords(m) * c.get("beta.stream", kDefaultStreamBeta);
  return std::max(flops * gamma, memory) + overhead;
}

/// Processes in the group of grid axes `axes` (all of them when empty).
static double groupSize(const ComputeModel &m, ArrayRef<int64_t> axes) {
  double p = 1;
  if (axes.empty()) {
    for (int64_t d : m.gridShape)
      p *= double(d);
    return p;
  }
  for (int64_t a : axes)
    if (a >= 0 && a < static_cast<int64_t>(m.gridShape.size()))
      p *= double(m.gridShape[a]);
  return p;
}

/// Elements of one transfer of `plan`: its largest box, or the tensor's
/// largest tile when the analysis does not bound it.
static double transferElements(const ComputeModel &m,
                               const TransferPlan &plan) {
  if (plan.maxElements >= 0)
    return double(plan.maxElements);
  DistTensorType t = m.types.lookup(plan.tensor);
  return t ? double(largestTileElements(t, t.getLayout(), m.gridShape)) : 0;
}

namespace {
/// latency and bandwidth of one step of a transfer.
struct StepCost {
  double latency = 0, bandwidth = 0;
};
} // namespace

static StepCost stepCost(const ComputeModel &m, const TransferPlan &plan,
                         const CostModel &c, double n) {
  using Kind = TransferPlan::Kind;
  double p = groupSize(m, plan.axes);
  double lg = std::ceil(std::log2(std::max(p, 1.0)));
  auto collective = [&](StringRef kind, double words) {
    return StepCost{lg * c.get(("alpha." + kind).str(), c.alpha),
                    words * c.get(("beta." + kind).str(), c.beta)};
  };
  switch (plan.kind) {
  case Kind::Local:
    return {};
  case Kind::Broadcast:
    return p > 1 ? collective("broadcast", n) : StepCost();
  case Kind::Reduce:
    return p > 1 ? collective("reduce", n) : StepCost();
  case Kind::AllReduce:
    return p > 1 ? collective("allreduce", n) : StepCost();
  case Kind::AllGather:
    return p > 1 ? collective("allgather", (p - 1) / p * n) : StepCost();
  case Kind::ReduceScatter:
    return p > 1 ? collective("reducescatter", (p - 1) / p * n) : StepCost();
  case Kind::Shift:
  case Kind::PointToPoint:
    return {c.alpha, n * c.beta};
  case Kind::General:
    // Every process may exchange with every other one.
    return {std::max(groupSize(m, {}) - 1, 1.0) * c.alpha, n * c.beta};
  }
  return {};
}

double mlir::dist::estimateComputeSeconds(const ComputeModel &m,
                                          const CostModel &costs) {
  return computeSeconds(m, costs);
}

ScheduleCost mlir::dist::estimateScheduleCost(
    const ComputeModel &m, const std::vector<TransferPlan> &plans,
    const CostModel &costs) {
  ScheduleCost cost;
  cost.compute = computeSeconds(m, costs);
  // The lowering double-buffers time-stepped transfers unless the schedule
  // says overlap(off) (the pipeline's --overlap off is not modelled).
  bool overlap = m.nest.overlap.value_or(true);
  // Communication at every step of the time loop, and its steps.
  double inLoop = 0, loopSteps = 1;
  for (const std::string &name : m.names) {
    DistTensorType t = m.types.lookup(name);
    if (t)
      cost.memoryElements +=
          double(largestTileElements(t, t.getLayout(), m.gridShape));
  }
  for (const TransferPlan &plan : plans) {
    double n = transferElements(m, plan);
    // beta is per f64 element: scale by the element's width.
    DistTensorType t = m.types.lookup(plan.tensor);
    unsigned bits = t ? t.getElementType().getIntOrFloatBitWidth() : 64;
    double words = n * double(bits) / 64.0;
    StepCost step = stepCost(m, plan, costs, words);
    double steps = double(std::max<int64_t>(plan.steps, 1));
    cost.latency += steps * step.latency;
    cost.bandwidth += steps * step.bandwidth;
    // The lowering copies a box that is not the whole tile into its buffer
    // (packing what is sent, or reading a local block), and the output's
    // partial results start at zero there and are added to the tile at the
    // end of the step: memory traffic per step, not hidden by the overlap.
    double tile =
        t ? double(largestTileElements(t, t.getLayout(), m.gridShape)) : 0;
    if (plan.kind != TransferPlan::Kind::Local || n < tile)
      cost.bandwidth += steps * (plan.output ? 2 : 1) * words *
                        costs.get("beta.copy", costs.beta);
    if (plan.kind == TransferPlan::Kind::Shift && !plan.alignLocal) {
      // The initial alignment.
      cost.latency += costs.alpha;
      cost.bandwidth += words * costs.beta;
    }
    bool stepped = plan.level > 0 && plan.steps > 1;
    if (plan.kind != TransferPlan::Kind::Local)
      cost.memoryElements += stepped && overlap ? 2 * n : n;
    if (stepped) {
      inLoop += steps * (step.latency + step.bandwidth);
      loopSteps = std::max(loopSteps, steps);
    }
  }
  if (overlap && loopSteps > 1)
    cost.hidden =
        std::min(cost.compute, inLoop) * (loopSteps - 1) / loopSteps;
  return cost;
}
