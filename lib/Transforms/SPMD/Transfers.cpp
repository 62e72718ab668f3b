//===- Transfers.cpp - a computation's tensor transfers -------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Emits the transfer of one tensor at one level of a computation's loop
// nest from its TransferPlan. Broadcast and reduce roots and the partners of
// point-to-point permutations are the plan's QExprs (functions of the
// processor's grid coordinates and the step loops' values) emitted as
// arithmetic; the box sent to a partner is the partner's box, computed from
// its coordinates like this processor's own. Nothing here grows with the
// number of processors or steps.
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

/// The bit mask of grid axes `axes` (the runtime's group encoding).
static int64_t maskOf(ArrayRef<int64_t> axes) {
  int64_t mask = 0;
  for (int64_t a : axes)
    mask |= int64_t(1) << a;
  return mask;
}

TransferEmitter::TransferEmitter(SPMDBuilder &rt, Location loc,
                                 FlatSymbolRefAttr grid, Value g,
                                 ArrayRef<int64_t> gridShape, Type elt,
                                 VarsFn varsAt, PeerBoxFn boxOfPeer)
    : rt(rt), loc(loc), grid(grid), g(g), gridShape(gridShape), elt(elt),
      varsAt(std::move(varsAt)), boxOfPeer(std::move(boxOfPeer)) {}

bool TransferEmitter::needsSendBuffer(const TransferPlan &plan) {
  return plan.kind == TransferPlan::Kind::PointToPoint ||
         plan.kind == TransferPlan::Kind::AllGather ||
         plan.kind == TransferPlan::Kind::ReduceScatter ||
         (plan.kind == TransferPlan::Kind::Shift && plan.alignByPermutation);
}

bool TransferEmitter::canOverlap(const TransferPlan &plan) {
  return plan.kind == TransferPlan::Kind::Broadcast ||
         plan.kind == TransferPlan::Kind::Shift ||
         plan.kind == TransferPlan::Kind::AllGather ||
         plan.kind == TransferPlan::Kind::PointToPoint;
}

//===----------------------------------------------------------------------===//
// Roots, peers, groups and views
//===----------------------------------------------------------------------===//

/// Root of a broadcast / reduce at this step (an index).
Value TransferEmitter::rootAt(OpBuilder &b, const TransferPlan &plan,
                              unsigned k) {
  return emitQExpr(b, loc, plan.root, varsAt(b, k));
}

/// The row-major rank of grid coordinates (i64); -1 when they are -1 (no
/// partner).
Value TransferEmitter::rankOf(OpBuilder &b, ArrayRef<Value> coords) {
  Value r = rt.idx(b, loc, 0);
  for (auto [c, e] : llvm::zip(coords, gridShape))
    r = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, r, rt.idx(b, loc, e)), c);
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     coords.front(), rt.idx(b, loc, 0));
  return rt.toI64(
      b, loc, arith::SelectOp::create(b, loc, none, rt.idx(b, loc, -1), r));
}

/// This rank's rank in the group of the plan's axes (an index).
Value TransferEmitter::axesRank(OpBuilder &b, const TransferPlan &plan) {
  return rt.toIndex(b, loc,
                    rt.call(b, loc, "distrt_axes_rank",
                            {g, rt.i64(b, loc, maskOf(plan.axes))}));
}

/// The first `vol` elements of a buffer, as a memref the communication ops
/// take.
Value TransferEmitter::flatView(OpBuilder &b, Value buf, Value vol) {
  auto viewTy = MemRefType::get({ShapedType::kDynamic}, elt);
  return memref::ReinterpretCastOp::create(
      b, loc, viewTy, buf, OpFoldResult(b.getIndexAttr(0)),
      ArrayRef<OpFoldResult>{OpFoldResult(vol)},
      ArrayRef<OpFoldResult>{OpFoldResult(b.getIndexAttr(1))});
}

/// The box's elements at the start of its memref.
Value TransferEmitter::viewOf(OpBuilder &b, const BoxBuffer &box) {
  Value vol = rt.idx(b, loc, 1);
  for (Value sz : box.size)
    vol = arith::MulIOp::create(b, loc, vol, sz);
  return flatView(b, box.memref, vol);
}

/// This rank's piece of the box cut along the plan's split dimension among
/// the members of its group: (lo, size) arrays written into the tensor's
/// scratch, and the piece's element count.
Value TransferEmitter::pieceOf(OpBuilder &b, const TransferSite &site,
                               Value &loP, Value &sizeP) {
  const TransferPlan &plan = site.plan;
  int64_t members = gridShape[plan.axes.front()];
  Value me = rt.toIndex(b, loc,
                        rt.call(b, loc, "distrt_grid_coord",
                                {g, rt.i64(b, loc, plan.axes.front())}));
  SmallVector<Value> lo = site.box.lo, size = site.box.size;
  Value piece = arith::DivUIOp::create(b, loc, size[plan.splitDim],
                                       rt.idx(b, loc, members));
  lo[plan.splitDim] = arith::AddIOp::create(
      b, loc, lo[plan.splitDim], arith::MulIOp::create(b, loc, me, piece));
  size[plan.splitDim] = piece;
  loP = rt.indexArray(b, loc, site.loScratch, lo);
  sizeP = rt.indexArray(b, loc, site.sizeScratch, size);
  Value vol = rt.idx(b, loc, 1);
  for (Value sz : size)
    vol = arith::MulIOp::create(b, loc, vol, sz);
  return vol;
}

//===----------------------------------------------------------------------===//
// Permutations
//===----------------------------------------------------------------------===//

/// One step of a permutation: send the box the peer needs from this rank's
/// tile, receive this rank's box. Non-blocking: returns the request.
Value TransferEmitter::emitPermutation(OpBuilder &b, const TransferSite &site,
                                       bool nonBlocking) {
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
  Value scount =
      boxOfPeer(b, plan, site.level, peer, site.peerLo, site.peerSize);
  Value dloP = rt.ptrOf(b, loc, site.peerLo);
  Value dsizeP = rt.ptrOf(b, loc, site.peerSize);
  Value hasDst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, dst,
                                       rt.i64(b, loc, 0));
  scount = arith::SelectOp::create(b, loc, hasDst, scount, rt.i64(b, loc, 0));
  Value sendBuf = site.sendBuffer;
  scf::IfOp::create(b, loc, hasDst, [&](OpBuilder &tb, Location l) {
    rt.call(tb, l, "distrt_copy_box_local",
            {g, site.desc, site.tileP, site.dtype, dloP, dsizeP,
             rt.ptrOf(tb, l, sendBuf)});
    scf::YieldOp::create(tb, l);
  });
  Value rcount = rt.i64(b, loc, 1);
  for (Value sz : box.size)
    rcount = arith::MulIOp::create(b, loc, rcount, rt.toI64(b, loc, sz));
  if (nonBlocking)
    return rt.call(b, loc, "distrt_ipermute",
                   {g, rt.ptrOf(b, loc, sendBuf), scount, dst,
                    rt.ptrOf(b, loc, box.memref), rcount, src, site.dtype});
  rt.call(b, loc, "distrt_permute",
          {g, rt.ptrOf(b, loc, sendBuf), scount, dst,
           rt.ptrOf(b, loc, box.memref), rcount, src, site.dtype});
  return Value();
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// A shift: align at step 0 (a local copy, a permutation or the general
/// exchange), shift the previous step's box at every later step.
void TransferEmitter::emitShiftInput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      site.timeIv, rt.idx(b, loc, 0));
  scf::IfOp::create(
      b, loc, first,
      [&](OpBuilder &tb, Location l) {
        if (plan.alignLocal)
          rt.call(tb, l, "distrt_copy_box_local",
                  {g, site.desc, site.tileP, site.dtype, site.loP, site.sizeP,
                   rt.ptrOf(tb, l, box.memref)});
        else if (plan.alignByPermutation)
          emitPermutation(tb, site);
        else
          rt.call(tb, loc, "distrt_fetch_box",
                  {g, site.desc, site.tileP, site.dtype, site.loP, site.sizeP,
                   rt.ptrOf(tb, loc, box.memref)});
        scf::YieldOp::create(tb, l);
      },
      [&](OpBuilder &eb, Location l) {
        ShiftOp::create(eb, l, grid, eb.getI64IntegerAttr(plan.shiftAxis),
                        eb.getI64IntegerAttr(plan.shiftOffset),
                        viewOf(eb, box));
        scf::YieldOp::create(eb, l);
      });
}

void TransferEmitter::emitInput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  Value desc = site.desc, tileP = site.tileP, dt = site.dtype;
  switch (plan.kind) {
  case TransferPlan::Kind::Local: {
    auto copy = [&](OpBuilder &cb) {
      rt.call(cb, loc, "distrt_copy_box_local",
              {g, desc, tileP, dt, site.loP, site.sizeP,
               rt.ptrOf(cb, loc, site.buffer)});
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
      rt.call(tb, l, "distrt_copy_box_local",
              {g, desc, tileP, dt, site.loP, site.sizeP,
               rt.ptrOf(tb, l, box.memref)});
      scf::YieldOp::create(tb, l);
    });
    BroadcastOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                        viewOf(b, box), root);
    return;
  }
  case TransferPlan::Kind::AllGather: {
    Value pLo, pSize;
    Value vol = pieceOf(b, site, pLo, pSize);
    rt.call(
        b, loc, "distrt_copy_box_local",
        {g, desc, tileP, dt, pLo, pSize, rt.ptrOf(b, loc, site.sendBuffer)});
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
    rt.call(b, loc, "distrt_fetch_box",
            {g, desc, tileP, dt, site.loP, site.sizeP,
             rt.ptrOf(b, loc, box.memref)});
  }
}

Value TransferEmitter::startInput(OpBuilder &b, const TransferSite &site,
                                  Value cur, bool first) {
  const TransferPlan &plan = site.plan;
  Value dest = site.box.memref;
  Value desc = site.desc, tileP = site.tileP, dt = site.dtype;
  Value vol = rt.i64(b, loc, 1);
  for (Value sz : site.box.size)
    vol = arith::MulIOp::create(b, loc, vol, rt.toI64(b, loc, sz));
  switch (plan.kind) {
  case TransferPlan::Kind::Broadcast: {
    Value root = rootAt(b, plan, site.level);
    Value me = axesRank(b, plan);
    Value isRoot =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, me, root);
    scf::IfOp::create(b, loc, isRoot, [&](OpBuilder &tb, Location l) {
      rt.call(
          tb, l, "distrt_copy_box_local",
          {g, desc, tileP, dt, site.loP, site.sizeP, rt.ptrOf(tb, l, dest)});
      scf::YieldOp::create(tb, l);
    });
    return rt.call(b, loc, "distrt_ibcast",
                   {g, rt.i64(b, loc, maskOf(plan.axes)),
                    rt.ptrOf(b, loc, dest), vol, dt, rt.toI64(b, loc, root)});
  }
  case TransferPlan::Kind::Shift:
    if (first) {
      if (plan.alignLocal)
        rt.call(
            b, loc, "distrt_copy_box_local",
            {g, desc, tileP, dt, site.loP, site.sizeP, rt.ptrOf(b, loc, dest)});
      else if (plan.alignByPermutation)
        emitPermutation(b, site);
      else
        rt.call(
            b, loc, "distrt_fetch_box",
            {g, desc, tileP, dt, site.loP, site.sizeP, rt.ptrOf(b, loc, dest)});
      return rt.i64(b, loc, 0);
    }
    return rt.call(b, loc, "distrt_ishift",
                   {g, rt.i64(b, loc, plan.shiftAxis),
                    rt.i64(b, loc, plan.shiftOffset), rt.ptrOf(b, loc, cur),
                    rt.ptrOf(b, loc, dest), vol, dt});
  case TransferPlan::Kind::AllGather: {
    Value pLo, pSize;
    Value pvol = pieceOf(b, site, pLo, pSize);
    rt.call(
        b, loc, "distrt_copy_box_local",
        {g, desc, tileP, dt, pLo, pSize, rt.ptrOf(b, loc, site.sendBuffer)});
    return rt.call(b, loc, "distrt_iallgather",
                   {g, rt.i64(b, loc, maskOf(plan.axes)),
                    rt.ptrOf(b, loc, site.sendBuffer), rt.ptrOf(b, loc, dest),
                    rt.toI64(b, loc, pvol), dt});
  }
  default: // PointToPoint
    return emitPermutation(b, site, /*nonBlocking=*/true);
  }
}

//===----------------------------------------------------------------------===//
// The output
//===----------------------------------------------------------------------===//

void TransferEmitter::emitOutput(OpBuilder &b, const TransferSite &site) {
  const TransferPlan &plan = site.plan;
  const BoxBuffer &box = site.box;
  Value desc = site.desc, tileP = site.tileP, dt = site.dtype;
  auto addLocal = [&](OpBuilder &fb) {
    rt.call(fb, loc, "distrt_add_box_local",
            {g, desc, tileP, dt, site.loP, site.sizeP,
             rt.ptrOf(fb, loc, box.memref)});
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
    Value pLo, pSize;
    Value vol = pieceOf(b, site, pLo, pSize);
    ReduceScatterOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                            viewOf(b, box), flatView(b, site.sendBuffer, vol),
                            sum);
    rt.call(
        b, loc, "distrt_add_box_local",
        {g, desc, tileP, dt, pLo, pSize, rt.ptrOf(b, loc, site.sendBuffer)});
    return;
  }
  case TransferPlan::Kind::AllReduce:
    AllReduceOp::create(b, loc, grid, b.getDenseI64ArrayAttr(plan.axes),
                        viewOf(b, box), sum);
    addLocal(b);
    return;
  default:
    rt.call(b, loc, "distrt_accumulate_box",
            {g, desc, tileP, dt, site.loP, site.sizeP,
             rt.ptrOf(b, loc, box.memref)});
  }
}
