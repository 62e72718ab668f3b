//===- SimplifyRedistributions.cpp - fold and compose redistributions -----===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Three rewrites (Schatz 2015, sec. 5 "cross-contraction optimisation"):
//   - a redistribution to the same layout disappears (the destination is
//     replaced by the source);
//   - redistribute(redistribute(x, L1), L2) -> redistribute(x, L2) when the
//     middle tensor has no other use;
//   - a reduce-scatter followed by an allgather over the same grid axes
//     becomes one allreduce.
// Each rewrite checks with the ops' declared memory effects that no write in
// between could observe the difference; anything unknown blocks it.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTSIMPLIFYREDISTRIBUTIONS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {
/// Whether `op` (or an op nested in it) may write `v`. Ops that do not
/// declare their effects count as writing every value they use.
bool mayWrite(Operation *op, Value v) {
  bool writes = false;
  op->walk([&](Operation *inner) {
    if (writes)
      return;
    bool uses = llvm::is_contained(inner->getOperands(), v);
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!iface) {
      writes = uses;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      // A write to no particular value may touch anything.
      if (!e.getValue() || e.getValue() == v)
        writes = true;
    }
  });
  return writes;
}

/// Whether any op strictly between `from` and `to` (same block) may write
/// `v`.
bool writtenBetween(Operation *from, Operation *to, Value v) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (mayWrite(op, v))
      return true;
  return false;
}

/// dist.redistribute %a into %b with one layout: %b (a dist.alloc whose
/// other uses read it after this op) becomes %a, provided nothing writes %a
/// while %b is still used.
struct FoldIdentityRedistribution : OpRewritePattern<RedistributeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RedistributeOp op,
                                PatternRewriter &rewriter) const override {
    Value src = op.getSource(), dst = op.getDest();
    if (op.getSum())
      return rewriter.notifyMatchFailure(op, "sums partial results");
    if (src.getType() != dst.getType())
      return rewriter.notifyMatchFailure(op, "layouts differ");
    auto alloc = dst.getDefiningOp<AllocOp>();
    if (!alloc)
      return rewriter.notifyMatchFailure(op, "destination is not allocated "
                                             "here");
    Block *block = op->getBlock();
    Operation *last = op;
    for (Operation *user : dst.getUsers()) {
      if (user == op)
        continue;
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || !op->isBeforeInBlock(at) || mayWrite(user, dst))
        return rewriter.notifyMatchFailure(op, "destination is written or "
                                               "read before");
      if (last->isBeforeInBlock(at))
        last = at;
    }
    if (last != op &&
        (writtenBetween(op, last, src) || mayWrite(last, src)))
      return rewriter.notifyMatchFailure(op, "source changes while the "
                                             "destination is used");
    rewriter.replaceAllUsesExcept(dst, src, op);
    rewriter.eraseOp(op);
    rewriter.eraseOp(alloc);
    return success();
  }
};

/// redistribute %x into %m; ...; redistribute %m into %y, with %m a
/// dist.alloc used by nothing else -> redistribute %x into %y (summing as
/// the first did: a reduce-scatter followed by an allgather becomes one
/// allreduce at the tensor level).
struct ComposeRedistributions : OpRewritePattern<RedistributeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RedistributeOp second,
                                PatternRewriter &rewriter) const override {
    Value mid = second.getSource();
    if (second.getSum())
      return rewriter.notifyMatchFailure(second, "sums partial results");
    auto alloc = mid.getDefiningOp<AllocOp>();
    if (!alloc)
      return rewriter.notifyMatchFailure(second, "source not allocated here");
    RedistributeOp first;
    for (Operation *user : mid.getUsers()) {
      if (user == second)
        continue;
      auto r = dyn_cast<RedistributeOp>(user);
      if (!r || r.getDest() != mid || first)
        return rewriter.notifyMatchFailure(second, "middle tensor has other "
                                                   "uses");
      first = r;
    }
    if (!first || first->getBlock() != second->getBlock() ||
        !first->isBeforeInBlock(second))
      return rewriter.notifyMatchFailure(second, "no earlier redistribution "
                                                 "into the source");
    Value x = first.getSource();
    if (writtenBetween(first, second, x))
      return rewriter.notifyMatchFailure(second, "source written in between");
    rewriter.setInsertionPoint(second);
    // A sum followed by a copy is one sum into the final layout.
    RedistributeOp::create(rewriter, second.getLoc(), x, second.getDest(),
                           first.getSumAttr());
    rewriter.eraseOp(second);
    rewriter.eraseOp(first);
    rewriter.eraseOp(alloc);
    return success();
  }
};

/// reduce_scatter %in into %mid; allgather %mid into %out over the same
/// axes, %mid used by nothing else (but its memref.dealloc) and nothing
/// with effects in between -> copy %in to %out; allreduce %out. Only ops
/// before the matched allgather are erased (the walk driver's rule).
struct ReduceScatterAllGatherToAllReduce : OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllGatherOp ag,
                                PatternRewriter &rewriter) const override {
    Value mid = ag.getInput();
    ReduceScatterOp rs;
    SmallVector<Operation *> deallocs;
    for (Operation *user : mid.getUsers()) {
      if (user == ag)
        continue;
      if (auto r = dyn_cast<ReduceScatterOp>(user);
          r && r.getOutput() == mid && !rs) {
        rs = r;
        continue;
      }
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        continue;
      }
      return rewriter.notifyMatchFailure(ag, "gathered buffer has other "
                                             "uses");
    }
    if (!rs || rs->getBlock() != ag->getBlock() || !rs->isBeforeInBlock(ag))
      return rewriter.notifyMatchFailure(ag, "no reduce-scatter before");
    if (rs.getGrid() != ag.getGrid() || rs.getAxesMask() != ag.getAxesMask())
      return rewriter.notifyMatchFailure(ag, "different grid axes");
    if (rs.getInput().getType() != ag.getOutput().getType())
      return rewriter.notifyMatchFailure(ag, "input and output differ");
    for (Operation *op = rs->getNextNode(); op != ag; op = op->getNextNode())
      if (!isMemoryEffectFree(op))
        return rewriter.notifyMatchFailure(ag, "effects in between");
    for (Operation *d : deallocs)
      if (d->getBlock() != ag->getBlock() || d->isBeforeInBlock(ag))
        return rewriter.notifyMatchFailure(ag, "buffer freed before");
    rewriter.setInsertionPoint(ag);
    Location loc = ag.getLoc();
    memref::CopyOp::create(rewriter, loc, rs.getInput(), ag.getOutput());
    AllReduceOp::create(rewriter, loc, ag.getGridAttr(), ag.getAxesAttr(),
                        ag.getOutput(), rs.getKindAttr());
    // The now unused %mid (and its dealloc, which may follow) is left to
    // the canonicalizer.
    rewriter.eraseOp(ag);
    rewriter.eraseOp(rs);
    return success();
  }
};

/// Counts erased ops: every rewrite erases at least one.
struct ChangeListener : RewriterBase::Listener {
  unsigned erased = 0;
  void notifyOperationErased(Operation *) override { ++erased; }
};

struct DistSimplifyRedistributionsPass
    : public dist::impl::DistSimplifyRedistributionsBase<
          DistSimplifyRedistributionsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSimplifyRedistributionPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Only these rewrites: no folding and no dead-code elimination (the
    // greedy driver would erase ops such as dist.send that only declare
    // reads). Walk until nothing changes (chains compose one link a walk).
    for (unsigned round = 0; round < 64; ++round) {
      ChangeListener listener;
      walkAndApplyPatterns(getOperation(), frozen, &listener);
      if (!listener.erased)
        break;
    }
  }
};
} // namespace

void mlir::dist::populateSimplifyRedistributionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldIdentityRedistribution, ComposeRedistributions,
               ReduceScatterAllGatherToAllReduce>(patterns.getContext());
}
