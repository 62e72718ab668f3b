//===- DoubleBuffer.cpp - overlap a time loop's transfers with its work ---===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-double-buffer: a transformation on SPMD ops. In a time loop (an
// scf.for the computation lowering tagged `dist.time_loop`), a blocking
// transfer that fills a buffer allocated outside the loop at every step
// (dist.broadcast, dist.allgather, dist.permute, or a shift:
// `scf.if (iv == lb) {align} else {dist.shift}`) is software pipelined:
//
//   - a second buffer is allocated (and freed) beside the first;
//   - step lb's transfer starts before the loop (dist.start_*; a shift's
//     alignment stays blocking there);
//   - the loop carries the request and the two buffers (this step's and
//     the other) as iteration arguments; where the blocking transfer was,
//     the step waits for its own transfer (dist.wait) and, when there is a
//     next step, starts the next step's into the other buffer; the step's
//     readers read this step's buffer; the buffers swap at the yield.
//
// The transfer is the blocking op plus the ops of the loop body before it
// that compute its operands or write its buffers (the root's copy_box of a
// broadcast, the piece copied into an allgather's send buffer, the box
// sent to a permutation's partner); they are cloned with the induction
// variable replaced by the next step's value. This is legal only when
// nothing else in the loop writes what they read (the tiles), the loop
// only reads the filled buffer after the transfer, and the buffers are
// used nowhere else; a transfer that fails a check stays blocking, with a
// remark that says why.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTDOUBLEBUFFER
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {

/// One blocking transfer of a time loop.
struct Transfer {
  /// The blocking op, or the scf.if of a shift.
  Operation *op = nullptr;
  /// A shift's dist.shift (in the else block of `op`).
  ShiftOp shift;
  /// The buffer the transfer fills, and the one it sends from (or null).
  memref::AllocOp buffer;
  Value sendBuffer;
  /// The ops of the loop body before `op` that compute its operands or
  /// write its buffers, in block order.
  SetVector<Operation *> slice;
};

/// The memref `v` is a view of (through casts and views).
Value viewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view || view->getNumResults() != 1)
      break;
    v = view.getViewSource();
  }
  return v;
}

/// Whether `op` or an op inside it has an operand that views `root`.
bool usesMemory(Operation *op, Value root) {
  return op
      ->walk([&](Operation *n) {
        for (Value v : n->getOperands())
          if (isa<BaseMemRefType>(v.getType()) && viewRoot(v) == root)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool isRank1(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  return t && t.getRank() == 1;
}

/// Whether `a` and `b` are the same index value (or equal constants).
bool sameIndex(Value a, Value b) {
  if (a == b)
    return true;
  APInt x, y;
  return matchPattern(a, m_ConstantInt(&x)) &&
         matchPattern(b, m_ConstantInt(&y)) && x == y;
}

/// `scf.if (iv == lb) {align} else {dist.shift on the buffer}`: the shift.
ShiftOp matchShift(scf::ForOp loop, scf::IfOp ifOp) {
  if (ifOp.getNumResults() != 0 || !ifOp.elseBlock())
    return {};
  auto cmp = ifOp.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return {};
  Value iv = loop.getInductionVar(), lb = loop.getLowerBound();
  if (!((cmp.getLhs() == iv && sameIndex(cmp.getRhs(), lb)) ||
        (cmp.getRhs() == iv && sameIndex(cmp.getLhs(), lb))))
    return {};
  ShiftOp shift;
  for (Operation &o : ifOp.elseBlock()->without_terminator()) {
    if (auto s = dyn_cast<ShiftOp>(o)) {
      if (shift)
        return {};
      shift = s;
    } else if (!isMemoryEffectFree(&o)) {
      return {};
    }
  }
  return shift;
}

/// The shape of a double-bufferable transfer: the op, its buffers.
std::optional<Transfer> matchTransfer(scf::ForOp loop, Operation *op) {
  Transfer t;
  t.op = op;
  Value recv, send;
  if (auto bc = dyn_cast<BroadcastOp>(op)) {
    recv = bc.getBuffer();
  } else if (auto ag = dyn_cast<AllGatherOp>(op)) {
    recv = ag.getOutput();
    send = ag.getInput();
  } else if (auto p = dyn_cast<PermuteOp>(op)) {
    recv = p.getRecv();
    send = p.getSend();
  } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    t.shift = matchShift(loop, ifOp);
    if (!t.shift)
      return std::nullopt;
    recv = t.shift.getBuffer();
  } else {
    return std::nullopt;
  }
  // The non-blocking ops take flat buffers.
  if (!isRank1(recv) || (send && !isRank1(send)))
    return std::nullopt;
  auto alloc = viewRoot(recv).getDefiningOp<memref::AllocOp>();
  if (!alloc || loop->isAncestor(alloc))
    return std::nullopt;
  t.buffer = alloc;
  if (send) {
    t.sendBuffer = viewRoot(send);
    auto sendAlloc = t.sendBuffer.getDefiningOp<memref::AllocOp>();
    if (!sendAlloc || loop->isAncestor(sendAlloc) || sendAlloc == alloc)
      return std::nullopt;
  }
  return t;
}

/// Views of `root` made outside the loop and used inside it are made
/// again at the top of the loop body, so that the loop's own views can
/// follow the buffer of each step.
void sinkViews(scf::ForOp loop, Value root) {
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : llvm::to_vector(v.getUsers())) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (!view || view.getViewSource() != v || user->getNumResults() != 1 ||
          loop->isAncestor(user))
        continue;
      Value outside = user->getResult(0);
      bool usedInside = llvm::any_of(outside.getUsers(), [&](Operation *u) {
        return loop->isProperAncestor(u);
      });
      if (usedInside) {
        Value inside = b.clone(*user)->getResult(0);
        outside.replaceUsesWithIf(inside, [&](OpOperand &u) {
          return loop->isProperAncestor(u.getOwner());
        });
      }
      work.push_back(outside);
    }
  }
}

/// The first user of `root` or its views outside the loop but a
/// dist.check_alloc or memref.dealloc of it, or null.
Operation *usedOutside(scf::ForOp loop, Value root) {
  for (Operation *user : root.getUsers()) {
    if (loop->isAncestor(user) || isa<memref::DeallocOp, CheckAllocOp>(user))
      continue;
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (view && view.getViewSource() == root && user->getNumResults() == 1) {
      if (Operation *u = usedOutside(loop, user->getResult(0)))
        return u;
      continue;
    }
    return user;
  }
  return nullptr;
}

/// Whether `o` uses the transfer's buffers.
bool usesBuffers(Operation *o, Transfer &t) {
  return usesMemory(o, t.buffer) ||
         (t.sendBuffer && usesMemory(o, t.sendBuffer));
}

/// Collects the transfer's slice: the ops of the body before it that
/// write its buffers, and everything in the body they and it depend on.
void collectSlice(scf::ForOp loop, Transfer &t) {
  Block *body = loop.getBody();
  BackwardSliceOptions opts;
  opts.omitUsesFromAbove = false;
  opts.omitBlockArguments = true;
  opts.inclusive = true;
  opts.filter = [&](Operation *d) { return d->getBlock() == body; };
  SetVector<Operation *> slice;
  auto add = [&](Operation *o) { (void)getBackwardSlice(o, &slice, opts); };
  for (Operation &o : *body) {
    if (&o == t.op)
      break;
    if (usesBuffers(&o, t))
      add(&o);
  }
  add(t.op);
  slice.remove(t.op);
  // In block order.
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  t.slice.insert(ordered.begin(), ordered.end());
}

/// Whether `n` writes memory that views one of `roots`, or memory nothing
/// says (a dist.wait writes only the buffers its start op named, which
/// are checked at the start op).
bool mayWrite(Operation *n, const llvm::SmallPtrSetImpl<Value> &roots) {
  if (isa<WaitOp>(n) || n->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(n);
  if (!iface)
    return true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (auto &e : effects) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
      continue;
    Value v = e.getValue();
    if (!v)
      return e.getResource() == SideEffects::DefaultResource::get();
    if (roots.contains(viewRoot(v)))
      return true;
  }
  return false;
}

/// Why `t` cannot be double buffered in `loop`, or "" when it can.
std::string illegal(scf::ForOp loop, Transfer &t) {
  // The slice is moved to the step before: it may only compute, copy into
  // the buffers and read the rank's coordinates.
  llvm::SmallPtrSet<Operation *, 16> moved(t.slice.begin(), t.slice.end());
  moved.insert(t.op);
  llvm::SmallPtrSet<Value, 8> read;
  for (Operation *o : t.slice) {
    WalkResult r = o->walk([&](Operation *n) {
      if (auto copy = dyn_cast<CopyBoxOp>(n)) {
        Value dest = viewRoot(copy.getBuffer());
        if (dest != t.buffer.getResult() && dest != t.sendBuffer)
          return WalkResult::interrupt();
        read.insert(viewRoot(copy.getTile()));
        return WalkResult::advance();
      }
      if (isa<AxesRankOp, GridCoordOp, scf::IfOp, scf::YieldOp>(n) ||
          isMemoryEffectFree(n))
        return WalkResult::advance();
      return WalkResult::interrupt();
    });
    if (r.wasInterrupted())
      return "the ops that compute it do more than compute, copy boxes into "
             "its buffers and read the grid";
  }
  // What the transfer itself (and a shift's alignment) reads.
  t.op->walk([&](Operation *n) {
    for (Value v : n->getOperands())
      if (isa<BaseMemRefType>(v.getType()))
        read.insert(viewRoot(v));
  });
  read.erase(t.buffer.getResult());
  read.erase(t.sendBuffer);

  std::string why;
  loop.getBody()->walk([&](Operation *n) {
    Operation *top = loop.getBody()->findAncestorOpInBlock(*n);
    if (moved.contains(top))
      return WalkResult::advance();
    if (mayWrite(n, read)) {
      why = "the loop writes memory the transfer reads ('" +
            n->getName().getStringRef().str() + "')";
      return WalkResult::interrupt();
    }
    // Other users of the buffers: only reads of the filled buffer after
    // the transfer.
    for (OpOperand &u : n->getOpOperands()) {
      Value v = u.get();
      if (!isa<BaseMemRefType>(v.getType()) || isa<ViewLikeOpInterface>(n))
        continue;
      Value root = viewRoot(v);
      if (root == t.sendBuffer) {
        why = "its send buffer is used elsewhere in the loop";
        return WalkResult::interrupt();
      }
      if (root != t.buffer.getResult())
        continue;
      auto iface = dyn_cast<MemoryEffectOpInterface>(n);
      bool writes = !iface || iface.getEffectOnValue<MemoryEffects::Write>(v) ||
                    iface.getEffectOnValue<MemoryEffects::Free>(v);
      if (t.op->isBeforeInBlock(top) && !writes)
        continue;
      why = "the loop uses its buffer other than by reading it after the "
            "transfer ('" +
            n->getName().getStringRef().str() + "')";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!why.empty())
    return why;

  // Outside the loop the buffers are only checked and freed.
  for (Value root :
       SmallVector<Value, 2>{t.buffer.getResult(), t.sendBuffer}) {
    if (!root)
      continue;
    if (Operation *user = usedOutside(loop, root))
      return "its buffers are used outside the loop ('" +
             user->getName().getStringRef().str() + "')";
  }
  return "";
}

/// The non-blocking form of a blocking transfer, on the operands `m` maps
/// its operands to.
Value startOf(OpBuilder &b, Operation *op, IRMapping &m) {
  Location loc = op->getLoc();
  auto get = [&](Value v) { return m.lookupOrDefault(v); };
  if (auto bc = dyn_cast<BroadcastOp>(op))
    return StartBroadcastOp::create(b, loc, bc.getGridAttr(), bc.getAxes(),
                                    get(bc.getBuffer()), get(bc.getRoot()));
  if (auto ag = dyn_cast<AllGatherOp>(op))
    return StartAllGatherOp::create(b, loc, ag.getGridAttr(), ag.getAxes(),
                                    get(ag.getInput()), get(ag.getOutput()));
  auto p = cast<PermuteOp>(op);
  return StartPermuteOp::create(b, loc, p.getGridAttr(), get(p.getSend()),
                                get(p.getDest()), get(p.getRecv()),
                                get(p.getSource()));
}

/// The second buffer, allocated, checked and freed beside the first.
Value allocateSecond(IRRewriter &rewriter, memref::AllocOp first) {
  rewriter.setInsertionPointAfter(first);
  Value second = rewriter.clone(*first)->getResult(0);
  for (Operation *user : llvm::to_vector(first->getUsers())) {
    if (auto check = dyn_cast<CheckAllocOp>(user)) {
      rewriter.setInsertionPointAfter(check);
      StringRef what = check.getWhat();
      std::string second2 = what.consume_front("the ")
                                ? ("the second " + what).str()
                                : (what + " (its second buffer)").str();
      CheckAllocOp::create(rewriter, check.getLoc(), second, second2);
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      rewriter.setInsertionPointAfter(dealloc);
      memref::DeallocOp::create(rewriter, dealloc.getLoc(), second);
    }
  }
  return second;
}

/// Starts the transfer of the step `m` maps the induction variable to,
/// into the buffer `m` maps the first buffer (or `cur`) to; returns its
/// request. `cur`: the buffer of the current step, which a shift sends.
Value startStep(OpBuilder &b, Transfer &t, IRMapping &m, Value cur,
                bool prologue) {
  for (Operation *o : t.slice)
    b.clone(*o, m);
  Location loc = t.op->getLoc();
  if (!t.shift)
    return startOf(b, t.op, m);
  auto ifOp = cast<scf::IfOp>(t.op);
  if (prologue) {
    // Step lb aligns, blocking.
    for (Operation &o : ifOp.thenBlock()->without_terminator())
      b.clone(o, m);
    return NullRequestOp::create(b, loc);
  }
  for (Operation &o : ifOp.elseBlock()->without_terminator())
    if (&o != t.shift.getOperation())
      b.clone(o, m);
  // The shift sends this step's box and receives the next one's: the same
  // view of the current buffer.
  Value view = t.shift.getBuffer();
  SmallVector<Operation *> chain;
  for (Value v = view; Operation *def = v.getDefiningOp();) {
    auto vl = dyn_cast<ViewLikeOpInterface>(def);
    if (!vl)
      break;
    chain.push_back(def);
    v = vl.getViewSource();
  }
  IRMapping fromCur = m;
  fromCur.map(cur, cur);
  for (Operation *def : llvm::reverse(chain))
    b.clone(*def, fromCur);
  return StartShiftOp::create(b, loc, t.shift.getGridAttr(),
                              t.shift.getAxis(), t.shift.getOffset(),
                              fromCur.lookupOrDefault(view),
                              m.lookupOrDefault(view));
}

/// Double buffers `t` in `loop`; returns the new loop.
scf::ForOp doubleBuffer(IRRewriter &rewriter, scf::ForOp loop, Transfer &t) {
  Location loc = t.op->getLoc();
  Value first = t.buffer.getResult();
  Value second = allocateSecond(rewriter, t.buffer);

  // Step lb's transfer, before the loop.
  rewriter.setInsertionPoint(loop);
  IRMapping pro;
  pro.map(loop.getInductionVar(), loop.getLowerBound());
  Value firstReq = startStep(rewriter, t, pro, first, /*prologue=*/true);

  // The request and the buffers become iteration arguments.
  unsigned n = loop.getNumRegionIterArgs();
  DictionaryAttr attrs = loop->getDiscardableAttrDictionary();
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, ValueRange{firstReq, first, second},
      /*replaceInitOperandUsesInLoop=*/false,
      [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
        return SmallVector<Value>(args.begin(), args.end());
      });
  auto nl = cast<scf::ForOp>(replaced->getOperation());
  nl->setDiscardableAttrs(attrs);
  Value req = nl.getRegionIterArgs()[n];
  Value cur = nl.getRegionIterArgs()[n + 1];
  Value next = nl.getRegionIterArgs()[n + 2];
  first.replaceUsesWithIf(cur, [&](OpOperand &u) {
    return nl->isProperAncestor(u.getOwner());
  });

  // Where the blocking transfer was: wait for this step's, start the
  // next step's into the other buffer.
  rewriter.setInsertionPoint(t.op);
  WaitOp::create(rewriter, loc, req);
  Value iv = nl.getInductionVar();
  Value ivNext = arith::AddIOp::create(rewriter, loc, iv, nl.getStep());
  Value hasNext = arith::CmpIOp::create(
      rewriter, loc,
      nl.getUnsignedCmp() ? arith::CmpIPredicate::ult
                          : arith::CmpIPredicate::slt,
      ivNext, nl.getUpperBound());
  auto started = scf::IfOp::create(
      rewriter, loc, hasNext,
      [&](OpBuilder &tb, Location tl) {
        IRMapping m;
        m.map(iv, ivNext);
        m.map(cur, next);
        Value r = startStep(tb, t, m, cur, /*prologue=*/false);
        scf::YieldOp::create(tb, tl, r);
      },
      [&](OpBuilder &eb, Location el) {
        scf::YieldOp::create(eb, el, Value(NullRequestOp::create(eb, el)));
      });
  auto yield = cast<scf::YieldOp>(nl.getBody()->getTerminator());
  yield->setOperand(n, started.getResult(0));
  yield->setOperand(n + 1, next);
  yield->setOperand(n + 2, cur);

  // The blocking transfer and what only it used.
  rewriter.eraseOp(t.op);
  for (Operation *o : llvm::reverse(t.slice))
    if (o->use_empty())
      rewriter.eraseOp(o);
  return nl;
}

struct DistDoubleBufferPass
    : public dist::impl::DistDoubleBufferBase<DistDoubleBufferPass> {
  using Base::Base;

  bool enabled(scf::ForOp loop) {
    if (!loop->hasAttr(kTimeLoopAttr) ||
        loop->getParentOfType<scf::ParallelOp>())
      return false;
    if (auto on = loop->getAttrOfType<BoolAttr>(kOverlapAttr))
      return on.getValue();
    return overlap;
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      if (!enabled(loop))
        continue;
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (trips && trips->ult(2))
        continue;
      SmallVector<Operation *> ops;
      for (Operation &o : loop.getBody()->without_terminator())
        ops.push_back(&o);
      for (Operation *op : ops) {
        std::optional<Transfer> t = matchTransfer(loop, op);
        if (!t)
          continue;
        sinkViews(loop, t->buffer);
        if (t->sendBuffer)
          sinkViews(loop, t->sendBuffer);
        collectSlice(loop, *t);
        std::string why = illegal(loop, *t);
        if (!why.empty()) {
          op->emitRemark() << "dist-double-buffer: this transfer stays "
                              "blocking: "
                           << why;
          continue;
        }
        loop = doubleBuffer(rewriter, loop, *t);
      }
    }
  }
};

} // namespace
