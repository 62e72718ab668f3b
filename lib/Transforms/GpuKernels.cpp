//===- GpuKernels.cpp - leaves over device tiles as GPU kernels -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-gpu-kernels: after dist-device-memory, every leaf that is not a
// library call (a linalg.generic over views of the tiles, a parallelize()
// loop, a scalar loop nest or point update) becomes a `gpu.launch`, so the
// host never touches device memory. A leaf with independent output points
// (a linalg.generic or an scf.parallel) runs one GPU thread per point; any
// other leaf runs on one GPU thread, in order. What cannot become a kernel
// is an error at its location.
//
// A leaf is a maximal run of consecutive operations of one block that a
// GPU can run (arith, math, scf, affine, index, memref loads, stores and
// views, linalg.generic; see isKernelOp). The run's side effects move into
// the kernel; its side-effect-free operations whose values the host still
// uses stay on the host as well. The launch goes after the run, guarded by
// a non-empty grid.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Transforms/Passes.h"
#include "DeviceMemoryUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTGPUKERNELS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

/// Threads per block of a kernel over independent points.
static constexpr int64_t kBlockSize = 256;

/// Whether a GPU kernel can run `op` (not looking inside its regions).
static bool isKernelOp(Operation *op) {
  StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (ns == "arith" || ns == "math" || ns == "scf" || ns == "affine" ||
      ns == "index" || ns == "ub")
    return true;
  return isa<memref::LoadOp, memref::StoreOp, memref::SubViewOp,
             memref::ReinterpretCastOp, memref::CastOp, memref::DimOp,
             memref::ExtractStridedMetadataOp,
             memref::CollapseShapeOp, memref::ExpandShapeOp,
             linalg::GenericOp, linalg::YieldOp, linalg::IndexOp>(op);
}

/// Whether `op` and everything nested in it can run in a kernel.
static bool isKernelTree(Operation *op) {
  return !op
              ->walk([](Operation *o) {
                return isKernelOp(o) ? WalkResult::advance()
                                     : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// The memrefs `op` (or what it holds) reads or writes.
static void accessedMemrefs(Operation *op, SmallVectorImpl<Value> &out) {
  op->walk([&](Operation *o) {
    if (auto load = dyn_cast<memref::LoadOp>(o))
      out.push_back(load.getMemRef());
    else if (auto store = dyn_cast<memref::StoreOp>(o))
      out.push_back(store.getMemRef());
    else if (auto generic = dyn_cast<linalg::GenericOp>(o))
      for (Value v : generic->getOperands())
        if (isa<MemRefType>(v.getType()))
          out.push_back(v);
  });
}

static bool hasSideEffects(Operation *op) { return !isMemoryEffectFree(op); }

/// Whether `op` is a loop over independent points: an scf.parallel, or a
/// linalg.generic whose outputs are indexed by all its parallel dimensions
/// (some).
static bool isParallelUnit(Operation *op) {
  if (auto par = dyn_cast<scf::ParallelOp>(op))
    return par.getNumResults() == 0;
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g)
    return false;
  SmallVector<unsigned> dims;
  for (auto [d, it] : llvm::enumerate(g.getIteratorTypesArray()))
    if (it == utils::IteratorType::parallel)
      dims.push_back(d);
  if (dims.empty())
    return false;
  // Each thread owns its output points: the outputs are indexed by every
  // parallel dimension, one to one, and no input is a view of an output.
  for (OpOperand &init : g.getDpsInitsMutable()) {
    AffineMap map = g.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation())
      return false;
    for (unsigned d : dims)
      if (!map.isFunctionOfDim(d))
        return false;
    Value out = viewBase(init.get());
    for (OpOperand *in : g.getDpsInputOperands())
      if (isa<MemRefType>(in->get().getType()) && viewBase(in->get()) == out)
        return false;
  }
  return true;
}

namespace {
/// One leaf: consecutive operations [first, last] of one block.
struct Run {
  Operation *first, *last;
  SmallVector<Operation *> ops() const {
    SmallVector<Operation *> r;
    for (Operation *o = first;; o = o->getNextNode()) {
      r.push_back(o);
      if (o == last)
        break;
    }
    return r;
  }
};

class KernelBuilder {
public:
  LogicalResult build(Run run);

private:
  LogicalResult lowerGenerics(Run &run);
  Value launchSizes(OpBuilder &b, Location loc, ArrayRef<scf::ParallelOp> nest,
                    IRMapping &map, SmallVectorImpl<Value> &counts);
  void cloneParallelBody(OpBuilder &b, Location loc,
                         ArrayRef<scf::ParallelOp> nest, Value gid,
                         ArrayRef<Value> counts, IRMapping &map);
  LogicalResult eraseMoved(ArrayRef<Operation *> ops);
};
} // namespace

/// In a reduction loop of a thread-per-point leaf, the output point is the
/// same at every step: keep it in a register. `load out[idx]` ... `store v,
/// out[idx]` in `loop`'s body, with indices defined outside the loop and no
/// other access to `out` in it, becomes a load before the loop, an
/// iteration argument, and a store after it.
/// Whether index lists `a` and `b` are the same values, or computed alike
/// from the same values (the loops' lowering recomputes them per access).
static bool sameIndices(ValueRange a, ValueRange b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (x == y)
      continue;
    Operation *dx = x.getDefiningOp(), *dy = y.getDefiningOp();
    if (!dx || !dy || !isMemoryEffectFree(dx) ||
        !OperationEquivalence::isEquivalentTo(
            dx, dy, OperationEquivalence::IgnoreLocations))
      return false;
  }
  return true;
}

static void accumulateInRegisters(RewriterBase &rewriter, scf::ForOp loop) {
  // The output's indices are computed in the body from the outer loops'.
  (void)moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
  Block *body = loop.getBody();
  SmallVector<std::pair<memref::LoadOp, memref::StoreOp>> pairs;
  for (auto store : body->getOps<memref::StoreOp>()) {
    Value mem = store.getMemRef();
    if (llvm::any_of(store.getIndices(), [&](Value i) {
          return !loop.isDefinedOutsideOfLoop(i);
        }) ||
        !loop.isDefinedOutsideOfLoop(mem))
      continue;
    memref::LoadOp load;
    unsigned accesses = 0;
    loop->walk([&](Operation *op) {
      if (auto l = dyn_cast<memref::LoadOp>(op); l && l.getMemRef() == mem) {
        ++accesses;
        if (l->getBlock() == body &&
            sameIndices(l.getIndices(), store.getIndices()) &&
            l->isBeforeInBlock(store))
          load = l;
      } else if (auto st = dyn_cast<memref::StoreOp>(op);
                 st && st.getMemRef() == mem) {
        ++accesses;
      }
    });
    if (load && accesses == 2)
      pairs.push_back({load, store});
  }
  for (auto [load, store] : pairs) {
    rewriter.setInsertionPoint(loop);
    Value init = memref::LoadOp::create(rewriter, load.getLoc(),
                                        load.getMemRef(), load.getIndices());
    Value stored = store.getValue();
    auto grown = cast<scf::ForOp>(
        *loop.replaceWithAdditionalYields(
            rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
              return SmallVector<Value>{stored};
            }));
    loop = grown;
    rewriter.replaceAllUsesWith(load.getResult(),
                                loop.getRegionIterArgs().back());
    rewriter.setInsertionPointAfter(loop);
    memref::StoreOp::create(rewriter, store.getLoc(), loop.getResults().back(),
                            store.getMemRef(), store.getIndices());
    rewriter.eraseOp(store);
    rewriter.eraseOp(load);
  }
}

/// A linalg.generic of the run becomes loops: one whose output points are
/// independent (every output indexed by all parallel dimensions) gets its
/// parallel dimensions first and becomes an scf.parallel with the
/// reductions as scf.for loops inside; the others, and every generic
/// nested in another operation of the run, become scf.for loops.
LogicalResult KernelBuilder::lowerGenerics(Run &run) {
  // The generics are replaced: keep the run's bounds by its neighbours (a
  // run never holds its block's terminator).
  Operation *before = run.first->getPrevNode(), *after = run.last->getNextNode();
  Block *block = run.first->getBlock();
  SmallVector<linalg::GenericOp> generics;
  for (Operation *op : run.ops())
    op->walk([&](linalg::GenericOp g) { generics.push_back(g); });
  IRRewriter rewriter(run.first->getContext());
  for (linalg::GenericOp g : generics) {
    rewriter.setInsertionPoint(g);
    bool topLevel = g->getBlock() == run.first->getBlock() ||
                    isa<scf::ParallelOp>(g->getParentOp());
    SmallVector<unsigned> order;
    for (auto [d, it] : llvm::enumerate(g.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        order.push_back(d);
    bool independent = topLevel && isParallelUnit(g);
    FailureOr<linalg::LinalgLoops> loops;
    if (independent) {
      for (auto [d, it] : llvm::enumerate(g.getIteratorTypesArray()))
        if (it != utils::IteratorType::parallel)
          order.push_back(d);
      FailureOr<linalg::GenericOp> moved =
          linalg::interchangeGenericOp(rewriter, g, order);
      if (failed(moved))
        return g.emitError("cannot reorder this leaf's loops for a GPU "
                           "kernel (parallel dimensions first)");
      g = *moved;
      loops = linalg::linalgOpToParallelLoops(rewriter, g);
      // The reduction loops, innermost first, accumulate in registers.
      if (succeeded(loops))
        for (Operation *l : llvm::reverse(*loops))
          if (auto f = dyn_cast<scf::ForOp>(l))
            accumulateInRegisters(rewriter, f);
    } else {
      loops = linalg::linalgOpToLoops(rewriter, g);
    }
    if (failed(loops))
      return g.emitError("cannot turn this leaf into loops for a GPU kernel");
    rewriter.eraseOp(g);
  }
  run.first = before ? before->getNextNode() : &block->front();
  run.last = after->getPrevNode();
  return success();
}

/// `par` and the scf.parallel loops nested in it that make one space of
/// points with it: each the only operation with side effects in the body of
/// the one before, with bounds that do not depend on `par` (a
/// parallelize() loop around a leaf's parallel loops).
static SmallVector<scf::ParallelOp> parallelNest(scf::ParallelOp par) {
  // The inner loops' bounds are dims of views made in the outer body: fold
  // them to the views' sizes, which may be defined outside.
  SmallVector<memref::DimOp> dims;
  par->walk([&](memref::DimOp d) { dims.push_back(d); });
  for (memref::DimOp d : dims) {
    // The views dist's leaves use; their sizes are the result's dims (a
    // rank-reducing subview's are not).
    auto view = d.getSource().getDefiningOp<memref::ReinterpretCastOp>();
    std::optional<int64_t> idx = d.getConstantIndex();
    if (!view || !idx || *idx >= (int64_t)view.getMixedSizes().size())
      continue;
    OpFoldResult size = view.getMixedSizes()[*idx];
    OpBuilder b(d);
    d.replaceAllUsesWith(getValueOrCreateConstantIndexOp(b, d.getLoc(), size));
  }
  // Sizes computed in the loop from values outside it go before it.
  (void)moveLoopInvariantCode(cast<LoopLikeOpInterface>(par.getOperation()));
  SmallVector<scf::ParallelOp> nest{par};
  auto invariant = [&](Value v) {
    Operation *owner = v.getDefiningOp() ? v.getDefiningOp()
                                         : v.getParentBlock()->getParentOp();
    return !par->isAncestor(owner);
  };
  while (true) {
    scf::ParallelOp inner;
    bool alone = true;
    for (Operation &op : nest.back().getBody()->without_terminator()) {
      if (!hasSideEffects(&op))
        continue;
      auto p = dyn_cast<scf::ParallelOp>(op);
      alone = alone && p && !inner && p.getNumResults() == 0;
      inner = p;
    }
    if (!alone || !inner || !llvm::all_of(inner->getOperands(), invariant))
      return nest;
    nest.push_back(inner);
  }
}

/// The trip counts of the nest's dimensions and their product, with the
/// bounds through `map`.
Value KernelBuilder::launchSizes(OpBuilder &b, Location loc,
                                 ArrayRef<scf::ParallelOp> nest,
                                 IRMapping &map,
                                 SmallVectorImpl<Value> &counts) {
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (scf::ParallelOp par : nest)
    for (auto [lo0, hi0, step0] : llvm::zip(
             par.getLowerBound(), par.getUpperBound(), par.getStep())) {
      Value lo = map.lookupOrDefault(lo0), hi = map.lookupOrDefault(hi0),
            step = map.lookupOrDefault(step0);
      Value span = arith::SubIOp::create(b, loc, hi, lo);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      span = arith::MaxSIOp::create(b, loc, span, zero);
      Value n = arith::CeilDivSIOp::create(b, loc, span, step);
      counts.push_back(n);
      total = arith::MulIOp::create(b, loc, total, n);
    }
  return total;
}

/// Inside the kernel: thread `gid` (< the product of `counts`) runs the
/// point of the nest it numbers, the last dimension fastest: each loop's
/// body but the loop nested next.
void KernelBuilder::cloneParallelBody(OpBuilder &b, Location loc,
                                      ArrayRef<scf::ParallelOp> nest,
                                      Value gid, ArrayRef<Value> counts,
                                      IRMapping &map) {
  SmallVector<Value> lows, steps, ivs;
  for (scf::ParallelOp par : nest)
    for (auto [iv, lo, step] : llvm::zip(par.getInductionVars(),
                                         par.getLowerBound(), par.getStep())) {
      ivs.push_back(iv);
      lows.push_back(map.lookupOrDefault(lo));
      steps.push_back(map.lookupOrDefault(step));
    }
  Value rest = gid;
  for (int64_t d = counts.size() - 1; d >= 0; --d) {
    Value idx =
        d == 0 ? rest : (Value)arith::RemUIOp::create(b, loc, rest, counts[d]);
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, counts[d]);
    map.map(ivs[d], arith::AddIOp::create(
                        b, loc, lows[d],
                        arith::MulIOp::create(b, loc, idx, steps[d])));
  }
  for (size_t l = 0; l < nest.size(); ++l) {
    scf::ParallelOp par = nest[l];
    Operation *next = l + 1 < nest.size() ? nest[l + 1] : nullptr;
    for (Operation &op : par.getBody()->without_terminator())
      if (&op != next)
        b.clone(op, map);
  }
}

/// Erases the run's originals, last first: every operation with side
/// effects, and every other one the host no longer uses. A value read from
/// device memory that the host still uses is an error.
LogicalResult KernelBuilder::eraseMoved(ArrayRef<Operation *> ops) {
  for (Operation *op : llvm::reverse(ops)) {
    if (op->use_empty()) {
      op->erase();
      continue;
    }
    if (hasSideEffects(op))
      return op->emitError("a GPU kernel runs this operation, but the host "
                           "uses its result afterwards");
  }
  return success();
}

LogicalResult KernelBuilder::build(Run run) {
  if (failed(lowerGenerics(run)))
    return failure();
  SmallVector<Operation *> ops = run.ops();
  Location loc = run.first->getLoc();
  // One scf.parallel and nothing else with side effects: a thread per
  // point. Otherwise one thread runs the run in order.
  scf::ParallelOp par;
  unsigned effects = 0;
  for (Operation *op : ops)
    if (hasSideEffects(op)) {
      ++effects;
      if (auto p = dyn_cast<scf::ParallelOp>(op); p && p.getNumResults() == 0)
        par = p;
    }
  if (effects != 1)
    par = nullptr;

  OpBuilder b(run.last->getContext());
  b.setInsertionPointAfter(run.last);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value blocks = one, threads = one;
  SmallVector<scf::ParallelOp> nest;
  if (par)
    nest = parallelNest(par);
  if (par) {
    IRMapping host;
    SmallVector<Value> counts;
    Value total = launchSizes(b, loc, nest, host, counts);
    threads = arith::ConstantIndexOp::create(b, loc, kBlockSize);
    blocks = arith::CeilDivUIOp::create(b, loc, total, threads);
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      total,
                                      arith::ConstantIndexOp::create(b, loc, 0));
    // A grid of no blocks is a launch error: skip the empty leaf.
    auto guard = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
  }
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, threads, one,
                                      one);
  OpBuilder kb = OpBuilder::atBlockBegin(&launch.getBody().front());
  IRMapping map;
  for (Operation *op : ops)
    if (op != par.getOperation())
      kb.clone(*op, map);
  if (par) {
    // The run's other operations are side-effect free (index arithmetic,
    // views): every thread recomputes them, then numbers its point.
    SmallVector<Value> counts;
    Value total = launchSizes(kb, loc, nest, map, counts);
    Value gid = arith::AddIOp::create(
        kb, loc,
        arith::MulIOp::create(kb, loc, launch.getBlockIds().x,
                              launch.getBlockSize().x),
        launch.getThreadIds().x);
    Value in = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult, gid,
                                     total);
    auto ifOp = scf::IfOp::create(kb, loc, in, /*withElseRegion=*/false);
    OpBuilder tb = OpBuilder::atBlockBegin(ifOp.thenBlock());
    cloneParallelBody(tb, loc, nest, gid, counts, map);
  }
  gpu::TerminatorOp::create(kb, loc);
  return eraseMoved(ops);
}

//===----------------------------------------------------------------------===//
// Finding the leaves
//===----------------------------------------------------------------------===//

/// Seeds of leaves, in the order they are made kernels: loops over points
/// (1) before the other memory accesses (2); 0 for anything else.
static int seedKind(Operation *op) {
  if (isa<linalg::GenericOp, scf::ParallelOp>(op) && isParallelUnit(op))
    return 1;
  if (isa<memref::LoadOp, memref::StoreOp, linalg::GenericOp>(op))
    return 2;
  return 0;
}

static bool canJoinRun(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() && isKernelTree(op);
}

/// The leaf around `seed`. A loop over points is its own root, with the
/// side-effect-free operations before and after it (index arithmetic,
/// views). Any other seed's root is its outermost ancestor that a kernel
/// can run whole, with the kernel-runnable operations before and after it.
static Run runAround(Operation *seed, bool device) {
  bool parallel = seedKind(seed) == 1;
  // On device tiles, a host loop over host memory (the check's copies)
  // stays apart from the leaves around it: a run joins only operations
  // that touch no memory or the same kind as its root (1 host, 2 device).
  auto kind = [&](Operation *op) {
    SmallVector<Value> mems;
    accessedMemrefs(op, mems);
    if (!device || mems.empty())
      return 0;
    return llvm::all_of(mems, isHostMemory) ? 1 : 2;
  };
  int rootKind = 0;
  auto joins = [&](Operation *op) {
    int k = kind(op);
    return canJoinRun(op) && (!parallel || !hasSideEffects(op)) &&
           (k == 0 || rootKind == 0 || k == rootKind);
  };
  Operation *root = seed;
  while (!parallel) {
    Operation *parent = root->getParentOp();
    if (!parent || isa<FunctionOpInterface>(parent) || !canJoinRun(parent))
      break;
    root = parent;
  }
  rootKind = kind(root);
  Run run{root, root};
  while (Operation *prev = run.first->getPrevNode()) {
    if (!joins(prev))
      break;
    run.first = prev;
  }
  while (Operation *next = run.last->getNextNode()) {
    if (!joins(next))
      break;
    run.last = next;
  }
  return run;
}

/// A parallelize() loop left on the host around kernels becomes sequential
/// loops: its iterations launch kernels on one stream, from one thread.
static void sequentializeLaunchLoops(ModuleOp module) {
  SmallVector<scf::ParallelOp> loops;
  module.walk([&](scf::ParallelOp par) {
    if (!par->getParentOfType<gpu::LaunchOp>() &&
        par->walk([](gpu::LaunchOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      loops.push_back(par);
  });
  for (scf::ParallelOp par : loops) {
    OpBuilder b(par);
    IRMapping map;
    for (auto [iv, lo, hi, step] :
         llvm::zip(par.getInductionVars(), par.getLowerBound(),
                   par.getUpperBound(), par.getStep())) {
      auto loop = scf::ForOp::create(b, par.getLoc(), lo, hi, step);
      map.map(iv, loop.getInductionVar());
      b.setInsertionPoint(loop.getBody()->getTerminator());
    }
    for (Operation &op : par.getBody()->without_terminator())
      b.clone(op, map);
    par.erase();
  }
}

/// gpu.launch as host loops over its blocks and threads (testing).
static void launchToHostLoops(gpu::LaunchOp launch) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value ubs[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
  gpu::KernelDim3 ids[2] = {launch.getBlockIds(), launch.getThreadIds()};
  IRMapping map;
  map.map(launch.getGridSize().x, grid.x);
  map.map(launch.getGridSize().y, grid.y);
  map.map(launch.getGridSize().z, grid.z);
  map.map(launch.getBlockSize().x, block.x);
  map.map(launch.getBlockSize().y, block.y);
  map.map(launch.getBlockSize().z, block.z);
  OpBuilder inner = b;
  for (int d = 0; d < 6; ++d) {
    auto loop = scf::ForOp::create(inner, loc, zero, ubs[d], one);
    gpu::KernelDim3 &id = ids[d / 3];
    Value ivOf = d % 3 == 0 ? id.x : d % 3 == 1 ? id.y : id.z;
    map.map(ivOf, loop.getInductionVar());
    inner.setInsertionPoint(loop.getBody()->getTerminator());
  }
  for (Operation &op : launch.getBody().front().without_terminator())
    inner.clone(op, map);
  launch.erase();
}

namespace {
struct GpuKernels : dist::impl::DistGpuKernelsBase<GpuKernels> {
  using Base::Base;

  /// Makes the next leaf a kernel; false when none is left.
  FailureOr<bool> formNext(ModuleOp module, bool anyMemory,
                           llvm::SmallPtrSetImpl<Operation *> &hostOnly) {
    Operation *seed = nullptr;
    // Outer loops first: a parallelize() loop before the leaf inside it.
    for (int kind = 1; kind <= 2 && !seed; ++kind)
      module.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (seedKind(op) != kind || hostOnly.contains(op) ||
            op->getParentOfType<gpu::LaunchOp>() ||
            op->getParentOfType<gpu::GPUModuleOp>() ||
            !op->getParentOfType<FunctionOpInterface>())
          return WalkResult::advance();
        seed = op;
        return WalkResult::interrupt();
      });
    if (!seed)
      return false;
    if (!isKernelTree(seed)) {
      // A parallelize() loop whose body holds host work (transfers, library
      // calls): its leaves become kernels, the loop stays on the host.
      if (isa<scf::ParallelOp>(seed)) {
        hostOnly.insert(seed);
        return true;
      }
      Operation *bad = nullptr;
      seed->walk([&](Operation *o) {
        if (!bad && !isKernelOp(o))
          bad = o;
      });
      bad->emitError("a GPU kernel cannot run '")
          << bad->getName() << "' (this leaf is a GPU kernel on device tiles)";
      return failure();
    }
    Run run = runAround(seed, !anyMemory);
    SmallVector<Value> mems;
    for (Operation *op : run.ops())
      accessedMemrefs(op, mems);
    auto host = llvm::find_if(mems, isHostMemory);
    if (!anyMemory && host != mems.end()) {
      if (llvm::all_of(mems, isHostMemory)) {
        // A host loop over host memory (the check's copies) stays.
        for (Operation *op : run.ops())
          op->walk([&](Operation *o) { hostOnly.insert(o); });
        return true;
      }
      seed->emitError("this leaf would be a GPU kernel over device tiles, "
                      "but it also reads or writes host memory");
      return failure();
    }
    if (failed(KernelBuilder().build(run)))
      return failure();
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool device = module->hasAttr(kDeviceMemoryAttrName);
    if (!device && !testHostLoops)
      return;
    if (device && testHostLoops) {
      module.emitError("dist-gpu-kernels: test-host-loops runs the kernels "
                       "as host loops, which cannot read device tiles; use "
                       "it with host tiles (dist-to-llvm device=host "
                       "test-kernels-on-host=1, dist-run --backend mpi)");
      return signalPassFailure();
    }
    llvm::SmallPtrSet<Operation *, 16> hostOnly;
    while (true) {
      FailureOr<bool> formed = formNext(module, testHostLoops, hostOnly);
      if (failed(formed))
        return signalPassFailure();
      if (!*formed)
        break;
    }
    sequentializeLaunchLoops(module);
    if (testHostLoops) {
      SmallVector<gpu::LaunchOp> launches;
      module.walk([&](gpu::LaunchOp l) { launches.push_back(l); });
      for (gpu::LaunchOp l : launches)
        launchToHostLoops(l);
    }
  }
};
} // namespace
