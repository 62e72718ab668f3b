//===- Transfers.cpp - a computation's tensor transfers -------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Emits the transfer of one tensor at one level of a computation's loop
// nest from its TransferPlan, as dist ops on the tensor's tile and buffers.
// Broadcast and reduce roots and the partners of point-to-point
// permutations are the plan's QExprs (functions of the processor's grid
// coordinates and the step loops' values) emitted as arithmetic; the box
// sent to a partner is the partner's box, computed from its coordinates
// like this processor's own. Nothing here grows with the number of
// processors or steps.
//
//===----------------------------------------------------------------------===//

#include "Transfers.h"
#include "QExprEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

TransferEmitter::TransferEmitter(SPMDBuilder &rt, Location loc,
                                 FlatSymbolRefAttr grid,
                                 ArrayRef<int64_t> gridShape, VarsFn varsAt,
                                 PeerBoxFn boxOfPeer)
    : rt(rt), loc(loc), grid(grid), gridShape(gridShape),
      varsAt(std::move(varsAt)), boxOfPeer(std::move(boxOfPeer)) {}

bool TransferEmitter::needsSendBuffer(const TransferPlan &plan) {
  return plan.kind == TransferPlan::Kind::PointToPoint ||
         plan.kind == TransferPlan::Kind::AllGather ||
         plan.kind == TransferPlan::Kind::ReduceScatter ||
         (plan.kind == TransferPlan::Kind::Shift && plan.alignByPermutation);
}

//===----------------------------------------------------------------------===//
// Roots, peers, groups, views and boxes
//===----------------------------------------------------------------------===//

/// Root of a broadcast / reduce at this step (an index).
Value TransferEmitter::rootAt(OpBuilder &b, const TransferPlan &plan,
                              unsigned k) {
  return emitQExpr(b, loc, plan.root, varsAt(b, k));
}

/// The row-major rank of grid coordinates (an index); -1 when they are -1
/// (no partner).
Value TransferEmitter::rankOf(OpBuilder &b, ArrayRef<Value> coords) {
  Value r = rt.idx(b, loc, 0);
  for (auto [c, e] : llvm::zip(coords, gridShape))
    r = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, r, rt.idx(b, loc, e)), c);
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     coords.front(), rt.idx(b, loc, 0));
  return arith::SelectOp::create(b, loc, none, rt.idx(b, loc, -1), r);
}

/// This rank's rank in the group of the plan's axes (an index).
Value TransferEmitter::axesRank(OpBuilder &b, const TransferPlan &plan) {
  return AxesRankOp::create(b, loc, grid, plan.axes);
}

/// The element count of a box of `sizes` (an index).
Value TransferEmitter::volume(OpBuilder &b, ArrayRef<Value> sizes) {
  Value vol = rt.idx(b, loc, 1);
  for (Value sz : sizes)
    vol = arith::MulIOp::create(b, loc, vol, sz);
  return vol;
}

/// The first `vol` elements of a buffer, as a memref the communication ops
/// take.
Value TransferEmitter::flatView(OpBuilder &b, Value buf, Value vol) {
  Type elt = cast<MemRefType>(buf.getType()).getElementType();
  auto viewTy = MemRefType::get({ShapedType::kDynamic}, elt);
  return memref::ReinterpretCastOp::create(
      b, loc, viewTy, buf, OpFoldResult(b.getIndexAttr(0)),
      ArrayRef<OpFoldResult>{OpFoldResult(vol)},
      ArrayRef<OpFoldResult>{OpFoldResult(b.getIndexAttr(1))});
}

/// The box's elements at the start of its memref.
Value TransferEmitter::viewOf(OpBuilder &b, const BoxBuffer &box) {
  return flatView(b, box.memref, volume(b, box.size));
}

/// This rank's piece of the box cut along the plan's split dimension among
/// the members of its group: sets (lo, size) and returns the piece's
/// element count (an index).
Value TransferEmitter::pieceOf(OpBuilder &b, const TransferSite &site,
                               SmallVectorImpl<Value> &lo,
                               SmallVectorImpl<Value> &size) {
  const TransferPlan &plan = site.plan;
  int64_t members = gridShape[plan.axes.front()];
  Value me = GridCoordOp::create(b, loc, grid, plan.axes.front());
  lo.assign(site.box.lo.begin(), site.box.lo.end());
  size.assign(site.box.size.begin(), site.box.size.end());
  if (plan.pieceBlock > 0) {
    // The layout's block j: [j * B, min((j + 1) * B, size)), maybe empty.
    Value block = rt.idx(b, loc, plan.pieceBlock);
    Value start = arith::MulIOp::create(b, loc, me, block);
    Value left = arith::SubIOp::create(b, loc, size[plan.splitDim], start);
    Value len = arith::MaxSIOp::create(
        b, loc, rt.idx(b, loc, 0), arith::MinSIOp::create(b, loc, block, left));
    lo[plan.splitDim] = arith::AddIOp::create(b, loc, lo[plan.splitDim], start);
    size[plan.splitDim] = len;
    return volume(b, size);
  }
  Value piece = arith::DivUIOp::create(b, loc, size[plan.splitDim],
                                       rt.idx(b, loc, members));
  lo[plan.splitDim] = arith::AddIOp::create(
      b, loc, lo[plan.splitDim], arith::MulIOp::create(b, loc, me, piece));
  size[plan.splitDim] = piece;
  return volume(b, size);
}

/// Copies the box (lo, size) of the site's tile into `dest`.
void TransferEmitter::copyBox(OpBuilder &b, const TransferSite &site,
                              ValueRange lo, ValueRange size, Value dest) {
  CopyBoxOp::create(b, loc, site.tile, lo, size, dest,
                    TypeAttr::get(site.type));
}

/// Adds `src`, the box (lo, size), into the site's tile.
void TransferEmitter::addBox(OpBuilder &b, const TransferSite &site,
                             ValueRange lo, ValueRange size, Value src) {
  AddBoxOp::create(b, loc, src, site.tile, lo, size, TypeAttr::get(site.type));
}

//===----------------------------------------------------------------------===//
// Permutations and shifts
//===----------------------------------------------------------------------===//

/// One step of a permutation: send the box the peer needs from this rank's
/// tile, receive this rank's box.
void TransferEmitter::emitPermutation(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  SmallVector<Value> vars = varsAt(b, site.level);
  SmallVector<Value> srcC, dstC;
  for (const QExpr &e : plan.srcCoords)
    srcC.push_back(emitQExpr(b, loc, e, vars));
  for (const QExpr &e : plan.dstCoords)
    dstC.push_back(emitQExpr(b, loc, e, vars));
  Value src = rankOf(b, srcC), dst = rankOf(b, dstC);
  // The peer's box (at coordinate 0 where there is no peer: computed, not
  // used).
  SmallVector<Value> peer;
  for (Value c : dstC)
    peer.push_back(arith::MaxSIOp::create(b, loc, c, rt.idx(b, loc, 0)));
  SmallVector<Value> peerLo, peerSize;
  Value scount = boxOfPeer(b, plan, site.level, peer, peerLo, peerSize);
  Value hasDst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, dst,
                                       rt.idx(b, loc, 0));
  scount = arith::SelectOp::create(b, loc, hasDst, scount, rt.idx(b, loc, 0));
  scf::IfOp::create(b, loc, hasDst, [&](OpBuilder &tb, Location l) {
    copyBox(tb, site, peerLo, peerSize, site.sendBuffer);
    scf::YieldOp::create(tb, l);
  });
  Value send = flatView(b, site.sendBuffer, scount);
  Value recv = viewOf(b, box);
  PermuteOp::create(b, loc, grid, send, dst, recv, src);
}

/// Step 0 of a shift: the box aligned by a local copy, a permutation or
/// the general exchange.
void TransferEmitter::alignShift(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  if (plan.alignLocal)
    copyBox(b, site, box.lo, box.size, box.memref);
  else if (plan.alignByPermutation)
    emitPermutation(b, site);
  else
    FetchBoxOp::create(b, loc, site.tile, box.lo, box.size, box.memref,
                       TypeAttr::get(site.type));
}

/// A shift: align at step 0, shift the previous step's box at every later
/// step.
void TransferEmitter::emitShiftInput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      site.timeIv, rt.idx(b, loc, 0));
  scf::IfOp::create(
      b, loc, first,
      [&](OpBuilder &tb, Location l) {
        alignShift(tb, site);
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        ShiftOp::create(eb, l, grid, eb.getI64IntegerAttr(plan.shiftAxis),
                        eb.getI64IntegerAttr(plan.shiftOffset),
                        viewOf(eb, site.box));
        scf::YieldOp::create(eb, l);
      });
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

void TransferEmitter::emitInput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  switch (plan.kind) {
  case TransferPlan::Kind::Local: {
    auto copy = [&](OpBuilder &cb) {
      copyBox(cb, site, box.lo, box.size, site.buffer);
    };
    // The whole tile: read it in place.
    if (site.inPlace)
      rt.unless(b, loc, site.inPlace, copy);
    else
      copy(b);
    return;
  }
  case TransferPlan::Kind::Broadcast: {
    Value root = rootAt(b, plan, site.level);
    Value me = axesRank(b, plan);
    Value isRoot =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, me, root);
    scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
      copyBox(tb, site, box.lo, box.size, box.memref);
      scf::YieldOp::create(tb, l);
    });
    BroadcastOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                        viewOf(b, box), root);
    return;
  }
  case TransferPlan::Kind::AllGather: {
    SmallVector<Value> pLo, pSize;
    Value vol = pieceOf(b, site, pLo, pSize);
    copyBox(b, site, pLo, pSize, site.sendBuffer);
    AllGatherOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                        flatView(b, site.sendBuffer, vol), viewOf(b, box));
    return;
  }
  case TransferPlan::Kind::PointToPoint:
    emitPermutation(b, site);
    return;
  case TransferPlan::Kind::Shift:
    emitShiftInput(b, site);
    return;
  default:
    FetchBoxOp::create(b, loc, site.tile, box.lo, box.size, box.memref,
                       TypeAttr::get(site.type));
  }
}

//===----------------------------------------------------------------------===//
// The output
//===----------------------------------------------------------------------===//

void TransferEmitter::emitOutput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  auto addLocal = [&](OpBuilder &fb) {
    addBox(fb, site, box.lo, box.size, box.memref);
  };
  auto sum = ReductionKindAttr::get(b.getContext(), ReductionKind::sum);
  switch (plan.kind) {
  case TransferPlan::Kind::Local:
    // Nothing to add when the box was the tile itself.
    if (site.inPlace)
      rt.unless(b, loc, site.inPlace, addLocal);
    else
      addLocal(b);
    return;
  case TransferPlan::Kind::Reduce: {
    Value root = rootAt(b, plan, site.level);
    ReduceOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                     viewOf(b, box), sum, root);
    Value me = axesRank(b, plan);
    Value isRoot =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, me, root);
    scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
      addLocal(tb);
      scf::YieldOp::create(tb, l);
    });
    return;
  }
  case TransferPlan::Kind::ReduceScatter: {
    SmallVector<Value> pLo, pSize;
    Value vol = pieceOf(b, site, pLo, pSize);
    if (plan.pieceBlock > 0) {
      // Blocks of pieceBlock rows of the dimensions after splitDim.
      Value block = rt.idx(b, loc, plan.pieceBlock);
      for (size_t d = plan.splitDim + 1; d < box.size.size(); ++d)
        block = arith::MulIOp::create(b, loc, block, box.size[d]);
      ReduceScatterBlocksOp::create(
          b, loc, grid, b.getDenseI64ArrayAttr(plan.axes), viewOf(b, box),
          flatView(b, site.sendBuffer, vol), sum, block);
    } else {
      ReduceScatterOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                              viewOf(b, box), flatView(b, site.sendBuffer, vol),
                              sum);
    }
    addBox(b, site, pLo, pSize, site.sendBuffer);
    return;
  }
  case TransferPlan::Kind::AllReduce:
    AllReduceOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                        viewOf(b, box), sum);
    addLocal(b);
    return;
  default:
    AccumulateBoxOp::create(b, loc, box.memref, site.tile, box.lo, box.size,
                            TypeAttr::get(site.type));
  }
}
