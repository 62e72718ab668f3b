//===- ComputeTransfers.cpp - a computation's boxes and transfers ---------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The boxes and transfers of a dist.compute at each level of its loop
// nest: every tensor's box from the fixed loops' values, boxes read in
// place from the tile (dist.tile_view), the output's buffer zeroed, and
// the tensors handed to the TransferEmitter (Transfers.cpp) as
// TransferSites. Transfers are blocking; dist-double-buffer overlaps
// them with the work of the time loop.
//
//===----------------------------------------------------------------------===//

#include "ComputeEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

//===----------------------------------------------------------------------===//
// Boxes and transfers
//===----------------------------------------------------------------------===//

/// The variables of the transfer plans' QExprs at level k: the grid
/// coordinates, then the values of local loops < k.
SmallVector<Value> ComputeEmitter::varsAt(OpBuilder &b, unsigned k) {
  SmallVector<Value> vars(coords.begin(), coords.end());
  for (unsigned i = 0; i < k; ++i)
    vars.push_back(cl.fixed[localLoops[i]->name]);
  return vars;
}

/// Sets (lo, size) to the box `plan`'s tensor has at level k on the
/// processor at grid coordinates `at` and returns its element count (an
/// index): this processor's box arithmetic with the distributed loops set
/// to the peer's coordinates.
Value ComputeEmitter::boxOfPeer(OpBuilder &b, const TransferPlan &plan,
                                unsigned k, ArrayRef<Value> at,
                                SmallVectorImpl<Value> &lo,
                                SmallVectorImpl<Value> &size) {
  llvm::StringMap<Value> saved;
  for (auto [l, d] : llvm::zip(model.distLoops, model.gridDimOf)) {
    saved[l->name] = cl.fixed[l->name];
    cl.fixed[l->name] = at[d];
  }
  llvm::StringSet<> fs = fixedAt(k);
  lo.clear();
  size.clear();
  Value vol = rt.idx(b, loc, 1);
  for (const std::string &x : model.accessOf[plan.tensor]->indices) {
    DynRange r = cl.range(b, x, fs, nullptr);
    lo.push_back(r.lo);
    size.push_back(r.size);
    vol = arith::MulIOp::create(b, loc, vol, r.size);
  }
  for (auto &entry : saved)
    cl.fixed[entry.getKey()] = entry.getValue();
  return vol;
}

/// Sets tensor t's box at level k from the fixed loop values.
void ComputeEmitter::setBox(OpBuilder &b, const std::string &t, unsigned k) {
  llvm::StringSet<> fs = fixedAt(k);
  BoxBuffer &box = boxes[t];
  box.lo.clear();
  box.size.clear();
  for (const std::string &x : model.accessOf[t]->indices) {
    DynRange r = cl.range(b, x, fs, nullptr);
    box.lo.push_back(r.lo);
    box.size.push_back(r.size);
  }
}

/// An input passed as the output tensor too (or the output, when an input
/// is the same tensor) is never read in place.
bool ComputeEmitter::sharesOutput(const std::string &t) {
  for (const std::string &u : names)
    if (u != t && model.values[u] == model.values[t] &&
        (u == stmt.lhs.tensor || t == stmt.lhs.tensor))
      return true;
  return false;
}

/// A box that is one contiguous row-major block of the rank's tile (the
/// whole tile, or whole rows of it) needs no buffer: a view of the tile at
/// the block's offset is the box (dist.tile_view). Returns the i1
/// condition and points t's box at the view when it holds, at its buffer
/// otherwise.
Value ComputeEmitter::aliasTile(OpBuilder &b, const std::string &t,
                                Value tile) {
  BoxBuffer &box = boxes[t];
  auto view =
      TileViewOp::create(b, loc, tile, box.lo, box.size, model.types[t]);
  Value isTile = view.getInside();
  Value buf =
      memref::CastOp::create(b, loc, view.getView().getType(), firstBufs[t]);
  box.memref = arith::SelectOp::create(b, loc, isTile, view.getView(), buf);
  aliasOf[t] = isTile;
  return isTile;
}

TransferSite ComputeEmitter::siteOf(const std::string &t, unsigned k,
                                    Value tile, Value inPlace) {
  Value timeIv = k > 0 ? cl.fixed.lookup(localLoops[k - 1]->name) : Value();
  return TransferSite{
      plans[t],       k,       boxes[t], firstBufs[t], sendBufs.lookup(t), tile,
      model.types[t], inPlace, timeIv};
}

/// The output's partial results start at zero in its buffer, unless its
/// box is the tile itself (`isTile`), which holds the zeroed output or the
/// old values for `+=`.
void ComputeEmitter::zeroOutputBuffer(OpBuilder &b, const std::string &t,
                                      Value isTile) {
  Value cap = rt.idx(b, loc, capacity[t]);
  Value zero = rt.zero(b, loc, elt);
  auto zeroBuf = [&](OpBuilder &zb) {
    scf::ForOp::create(
        zb, loc, rt.idx(zb, loc, 0), cap, rt.idx(zb, loc, 1), ValueRange{},
        [&](OpBuilder &fb, Location l, Value i, ValueRange) {
          memref::StoreOp::create(fb, l, zero, firstBufs[t], ValueRange{i});
          scf::YieldOp::create(fb, l);
        });
  };
  if (isTile)
    rt.unless(b, loc, isTile, zeroBuf);
  else
    zeroBuf(b);
}

/// Emits the transfers of the inputs and the zeroing of the output buffer
/// at level k, and records the boxes.
LogicalResult ComputeEmitter::enterLevel(OpBuilder &b, unsigned k) {
  for (const std::string &t : names) {
    if (model.level[t] != k)
      continue;
    const TransferPlan &plan = plans[t];
    setBox(b, t, k);
    Value tile = rt.tileOf(op, model.values[t]);
    if (!tile)
      return failure();
    bool local = plan.kind == TransferPlan::Kind::Local && !sharesOutput(t);
    if (t == stmt.lhs.tensor) {
      // A local output whose box is the whole tile accumulates into the
      // tile directly; otherwise partial results start at zero in the
      // buffer.
      Value isTile;
      if (local)
        isTile = aliasTile(b, t, tile);
      zeroOutputBuffer(b, t, isTile);
      continue;
    }
    // A local input whose box is a block of the tile is read in place.
    Value inPlace;
    if (local)
      inPlace = aliasTile(b, t, tile);
    transfers->emitInput(b, siteOf(t, k, tile, inPlace));
  }
  return success();
}

/// Adds the output's partial results of level k to the owners' tiles.
void ComputeEmitter::exitLevel(OpBuilder &b, unsigned k) {
  const std::string &t = stmt.lhs.tensor;
  if (model.level[t] != k)
    return;
  transfers->emitOutput(b, siteOf(t, k, outTile, aliasOf.lookup(t)));
}
