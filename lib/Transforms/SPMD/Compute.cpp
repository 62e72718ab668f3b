//===- Compute.cpp - dist.compute to its SPMD loop nest -------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Lowers one dist.compute under its schedule: distributed loops become the
// rank's grid coordinates, the other loops scf.for (or scf.parallel)
// loops; at the loop each tensor is communicated at, its box is moved
// (Transfers.cpp) through a buffer allocated once, or read in place when
// it is a contiguous block of the rank's tile; inputs that move at every
// step of a sequential time loop are double buffered (overlap); below the
// last communicated loop runs the leaf (LeafKernels.cpp).
//
//===----------------------------------------------------------------------===//

#include "Instrumentation.h"
#include "LeafKernels.h"
#include "SPMDLowering.h"
#include "Transfers.h"

#include "DistTensor/Analysis/LayoutSuggestion.h"
#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

using abi::dtypeOf;
using abi::layoutDescriptor;

namespace {

/// Everything known about one dist.compute while it is lowered.
class ComputeEmitter {
public:
  ComputeEmitter(SPMDBuilder &rt, ComputeOp op, ComputeModel &model)
      : rt(rt), op(op), loc(op.getLoc()), model(model), stmt(model.stmt),
        nest(model.nest), localLoops(model.localLoops),
        leafLevel(model.leafLevel),
        cl(op, model.stmt, model.nest, model.extents),
        names(model.stmt.tensorNames()) {}

  LogicalResult run();

private:
  // --- set-up --------------------------------------------------------------
  void collectPlans();
  /// The loops fixed at level k: the distributed loops and local loops < k.
  llvm::StringSet<> fixedAt(unsigned k);
  void allocateBuffers(OpBuilder &b);
  void setUpOverlap(OpBuilder &b);
  LogicalResult checkDistinctTiles(OpBuilder &b);
  LogicalResult setUpLeaf(OpBuilder &b);
  unsigned loopLeafLevel();
  void freeBuffers(OpBuilder &b);

  // --- boxes and transfers -------------------------------------------------
  SmallVector<Value> varsAt(OpBuilder &b, unsigned k);
  Value boxOfPeer(OpBuilder &b, const TransferPlan &plan, unsigned k,
                  ArrayRef<Value> at, Value loA, Value sizeA);
  void boxArrays(OpBuilder &b, const std::string &t, Value &loP, Value &sizeP);
  void setBox(OpBuilder &b, const std::string &t, unsigned k, Value &loP,
              Value &sizeP);
  bool sharesOutput(const std::string &t);
  Value aliasTile(OpBuilder &b, const std::string &t, Value tile, Value desc,
                  Value loP, Value sizeP);
  TransferSite siteOf(const std::string &t, unsigned k, Value loP, Value sizeP,
                      Value tileP, Value desc, Value dt, Value inPlace);
  LogicalResult enterLevel(OpBuilder &b, unsigned k);
  void zeroOutputBuffer(OpBuilder &b, const std::string &t, Value isTile);
  void exitLevel(OpBuilder &b, unsigned k);

  // --- overlap -------------------------------------------------------------
  Value startTransfer(OpBuilder &b, unsigned k, const std::string &t,
                      Value dest, Value cur, bool first);
  void overlappedStep(OpBuilder &b, unsigned k, const std::string &t);
  void overlapPrologue(OpBuilder &b, unsigned k);

  // --- the loop nest and its leaf ------------------------------------------
  void emitLevel(OpBuilder &b, unsigned k);
  LogicalResult cannotSubstitute(StringRef why);
  LogicalResult underNonEmpty(OpBuilder &b,
                              function_ref<LogicalResult(OpBuilder &)> body);
  LogicalResult emitLeaf(OpBuilder &b);
  void emitScalarLoops(OpBuilder &b, unsigned k);

  SPMDBuilder &rt;
  ComputeOp op;
  Location loc;
  ComputeModel &model;
  IndexStatement &stmt;
  LoopNest &nest;
  ArrayRef<const Loop *> localLoops;
  unsigned leafLevel;
  /// Tensor name -> how it moves.
  llvm::StringMap<TransferPlan> plans;
  ComputeRanges cl;
  /// The tensors, output first.
  SmallVector<std::string> names;
  Type elt;
  int64_t dtype = 0;
  /// The grid handle, this rank, the output's tile and descriptor.
  Value g, outTile, outDesc;
  /// This processor's grid coordinates (index).
  SmallVector<Value> coords;
  std::optional<TransferEmitter> transfers;

  // Buffers, allocated once: a tensor's box and its buffer, its send
  // buffer, scratch for its box's lo / size, the buffer's capacity.
  llvm::StringMap<BoxBuffer> boxes;
  llvm::StringMap<Value> sendBufs, loArr, sizeArr, peerLoArr, peerSizeArr;
  llvm::StringMap<int64_t> capacity;
  /// Overlap: double-buffered inputs, their first and second buffers and
  /// the slots of their requests in flight.
  llvm::StringSet<> overlapped;
  llvm::StringMap<Value> firstBufs, altBufs, reqSlots;
  /// Tensor -> i1, whether its box is read in place (a view of the tile).
  llvm::StringMap<Value> aliasOf;

  // The leaf.
  MttkrpRoles roles;
  Value krBuf;
  bool mttkrpLeaf = false;
  bool gemmWarned = false;
  /// The level of the linalg.generic of a leaf without a library kernel.
  unsigned loopLeaf = 0;
  bool failedInside = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

void ComputeEmitter::collectPlans() {
  for (TransferPlan &p : analyzeCommunication(model)) {
    // Say why a tensor moves with the general exchange (one remark per
    // tensor and computation).
    if (p.kind == TransferPlan::Kind::General)
      op.emitRemark() << "tensor '" << p.tensor
                      << "' moves with the general exchange: " << p.whyGeneral
                      << "; a layout that matches the schedule (see "
                         "--dist-report-communication) makes it local or "
                         "a collective"
                      << layoutSuggestionClause(model, p.tensor);
    plans[p.tensor] = p;
  }
}

llvm::StringSet<> ComputeEmitter::fixedAt(unsigned k) {
  llvm::StringSet<> s;
  for (const Loop *l : model.distLoops)
    s.insert(l->name);
  for (unsigned i = 0; i < k; ++i)
    s.insert(localLoops[i]->name);
  return s;
}

/// A buffer per tensor for its box (of the largest size the box has), a
/// send buffer where the transfer needs one, and the box's scratch arrays.
void ComputeEmitter::allocateBuffers(OpBuilder &b) {
  SmallVector<const Access *> all{&stmt.lhs};
  llvm::append_range(all, stmt.rhsAccesses());
  for (const std::string &t : names) {
    DistTensorType type = model.types[t];
    const Access *acc = &stmt.lhs;
    for (const Access *a : all)
      if (a->tensor == t)
        acc = a;
    llvm::StringSet<> fs = fixedAt(model.level[t]);
    int64_t cap = 1;
    for (const std::string &x : acc->indices)
      cap *= cl.staticRange(x, fs).maxSize;
    capacity[t] = cap;
    auto bufTy = MemRefType::get({cap}, elt);
    BoxBuffer box;
    box.memref = rt.allocChecked(b, loc, bufTy, {},
                                 "the communication buffer of tensor " + t);
    boxes[t] = box;
    // A second buffer for what this rank sends (permutations) or
    // contributes / receives as its piece (allgather, reduce-scatter).
    if (TransferEmitter::needsSendBuffer(plans[t]))
      sendBufs[t] =
          rt.allocChecked(b, loc, bufTy, {}, "the send buffer of tensor " + t);
    int64_t rank = std::max<int64_t>(type.getRank(), 1);
    loArr[t] =
        memref::AllocaOp::create(b, loc, MemRefType::get({rank}, rt.i64Ty));
    sizeArr[t] =
        memref::AllocaOp::create(b, loc, MemRefType::get({rank}, rt.i64Ty));
    // Permutations send their peer's box.
    const TransferPlan &plan = plans[t];
    if (plan.kind == TransferPlan::Kind::PointToPoint ||
        (plan.kind == TransferPlan::Kind::Shift && plan.alignByPermutation)) {
      peerLoArr[t] =
          memref::AllocaOp::create(b, loc, MemRefType::get({rank}, rt.i64Ty));
      peerSizeArr[t] =
          memref::AllocaOp::create(b, loc, MemRefType::get({rank}, rt.i64Ty));
    }
  }
}

/// Overlap (double buffering): an input that moves at every step of a
/// sequential time loop gets a second buffer and a slot for the request of
/// its transfer in flight. `firstBufs` keeps the first buffer (the boxes'
/// memref becomes the one of the current step inside the loop).
void ComputeEmitter::setUpOverlap(OpBuilder &b) {
  bool overlapOn = nest.overlap.value_or(rt.options.overlap);
  for (const std::string &t : names) {
    firstBufs[t] = boxes[t].memref;
    if (!overlapOn || t == stmt.lhs.tensor)
      continue;
    unsigned k = model.level[t];
    if (k == 0 || k > leafLevel || localLoops[k - 1]->extent < 2)
      continue;
    if (llvm::any_of(localLoops.take_front(k),
                     [](const Loop *l) { return l->parallel; }))
      continue;
    if (!TransferEmitter::canOverlap(plans[t]))
      continue;
    overlapped.insert(t);
    altBufs[t] =
        rt.allocChecked(b, loc, MemRefType::get({capacity[t]}, elt), {},
                        "the second communication buffer of tensor " + t);
    reqSlots[t] =
        memref::AllocaOp::create(b, loc, MemRefType::get({1}, rt.i64Ty));
  }
}

/// The verifier rejects an output bound to the same value as an input;
/// through function parameters the same tensor can still arrive under two
/// names, which only the running program can see.
LogicalResult ComputeEmitter::checkDistinctTiles(OpBuilder &b) {
  std::string where;
  llvm::raw_string_ostream ws(where);
  if (auto fl = loc->findInstanceOf<FileLineColLoc>())
    ws << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
       << fl.getColumn() << ": ";
  stmt.print(ws);
  for (const std::string &t : stmt.tensorNames()) {
    if (t == stmt.lhs.tensor ||
        model.values[t] == model.values[stmt.lhs.tensor])
      continue;
    Value inTile = rt.tileOf(op, model.values[t]);
    if (!inTile)
      return failure();
    rt.call(b, loc, "distrt_check_distinct",
            {rt.ptrOf(b, loc, outTile), rt.ptrOf(b, loc, inTile),
             rt.constString(b, loc, where), rt.constString(b, loc, t)});
  }
  return success();
}

/// A substituted leaf that cannot apply is an error, unless the user asked
/// for scalar loops instead (leaf-fallback).
LogicalResult ComputeEmitter::cannotSubstitute(StringRef why) {
  if (rt.options.leafFallback) {
    op.emitWarning() << "substitute(..., " << nest.kernel << ") cannot apply ("
                     << why << "); using scalar loops (leaf-fallback)";
    return success();
  }
  return op.emitError() << "substitute(..., " << nest.kernel
                        << ") cannot apply: " << why
                        << "; change the schedule or the layouts, remove the "
                           "substitute command, or ask for scalar loops in "
                           "its place with the pass option leaf-fallback "
                           "(dist-run --leaf-fallback)";
}

/// MTTKRP leaf: the Khatri-Rao product of the two matrices goes into a
/// scratch buffer allocated here, once.
LogicalResult ComputeEmitter::setUpLeaf(OpBuilder &b) {
  std::optional<int64_t> krCap;
  if (nest.kernel == "mttkrp") {
    llvm::StringSet<> fs = fixedAt(leafLevel);
    std::string why;
    if (!mttkrpRoles(stmt, nest, roles))
      why = "the statement is not A(i,l) = B(i,j,k) * C(j,l) * D(k,l)";
    else if (!mttkrpFits(cl, stmt, roles, fs, elt))
      why = "the element type is not f32 or f64, or a leaf range is not "
            "the same whole interval at every step";
    else {
      krCap =
          mulWithin(cl.staticRange(roles.j, fs).maxSize,
                    cl.staticRange(roles.k, fs).maxSize, kMaxTensorElements);
      if (krCap)
        krCap = mulWithin(*krCap, cl.staticRange(roles.l, fs).maxSize,
                          kMaxTensorElements);
      if (!krCap)
        why = "its Khatri-Rao product buffer would exceed the element "
              "limit";
    }
    mttkrpLeaf = why.empty();
    if (!mttkrpLeaf && failed(cannotSubstitute(why)))
      return failure();
  }
  if (mttkrpLeaf)
    krBuf = rt.allocChecked(b, loc, MemRefType::get({*krCap}, elt), {},
                            "the Khatri-Rao buffer of the mttkrp leaf");
  return success();
}

/// Without a library leaf, the loops below every communicate point and
/// every parallelized loop become one linalg.generic when their ranges are
/// exact (tryEmitLinalg); scalar loops with bounds checks otherwise.
unsigned ComputeEmitter::loopLeafLevel() {
  if (leafLevel != localLoops.size())
    return leafLevel;
  unsigned k = 0;
  for (const std::string &t : names)
    k = std::max(k, model.level[t]);
  for (auto [i, l] : llvm::enumerate(localLoops))
    if (l->parallel)
      k = std::max(k, (unsigned)i + 1);
  return k;
}

void ComputeEmitter::freeBuffers(OpBuilder &b) {
  if (krBuf)
    memref::DeallocOp::create(b, loc, krBuf);
  for (const std::string &t : names) {
    memref::DeallocOp::create(b, loc, firstBufs[t]);
    if (Value ab = altBufs.lookup(t))
      memref::DeallocOp::create(b, loc, ab);
    if (Value sb = sendBufs.lookup(t))
      memref::DeallocOp::create(b, loc, sb);
  }
}

LogicalResult ComputeEmitter::run() {
  collectPlans();
  OpBuilder b(op);
  DistTensorType outType = model.types[stmt.lhs.tensor];
  elt = outType.getElementType();
  dtype = dtypeOf(elt);
  g = rt.gridHandle(b, loc, model.grid);
  int64_t gridRank = model.gridShape.size();

  // Grid coordinates give the distributed loops' values (and, with the
  // step loops' values, the roots and peers of the transfers).
  for (int64_t d = 0; d < gridRank; ++d)
    coords.push_back(rt.toIndex(
        b, loc, rt.call(b, loc, "distrt_grid_coord", {g, rt.i64(b, loc, d)})));
  for (auto [l, d] : llvm::zip(model.distLoops, model.gridDimOf))
    cl.fixed[l->name] = coords[d];

  allocateBuffers(b);
  setUpOverlap(b);
  transfers.emplace(
      rt, loc, model.grid, g, model.gridShape, elt,
      [this](OpBuilder &ib, unsigned k) { return varsAt(ib, k); },
      [this](OpBuilder &ib, const TransferPlan &plan, unsigned k,
             ArrayRef<Value> at, Value loA, Value sizeA) {
        return boxOfPeer(ib, plan, k, at, loA, sizeA);
      });

  outTile = rt.tileOf(op, model.values[stmt.lhs.tensor]);
  if (!outTile)
    return failure();
  if (failed(checkDistinctTiles(b)))
    return failure();
  outDesc = rt.constArray(b, loc, layoutDescriptor(outType));
  if (!stmt.accumulate)
    rt.call(b, loc, "distrt_layout_zero",
            {g, outDesc, rt.ptrOf(b, loc, outTile), rt.i64(b, loc, dtype)});

  if (failed(setUpLeaf(b)))
    return failure();
  loopLeaf = loopLeafLevel();

  // The time loops down to the leaf, with communication at each level.
  emitLevel(b, 0);
  if (failedInside)
    return failure();

  freeBuffers(b);
  return success();
}

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

/// Writes the box `plan`'s tensor has at level k on the processor at grid
/// coordinates `at` into (loA, sizeA) and returns its element count (i64):
/// this processor's box arithmetic with the distributed loops set to the
/// peer's coordinates.
Value ComputeEmitter::boxOfPeer(OpBuilder &b, const TransferPlan &plan,
                                unsigned k, ArrayRef<Value> at, Value loA,
                                Value sizeA) {
  llvm::StringMap<Value> saved;
  for (auto [l, d] : llvm::zip(model.distLoops, model.gridDimOf)) {
    saved[l->name] = cl.fixed[l->name];
    cl.fixed[l->name] = at[d];
  }
  llvm::StringSet<> fs = fixedAt(k);
  SmallVector<Value> lo, size;
  Value vol = rt.i64(b, loc, 1);
  for (const std::string &x : model.accessOf[plan.tensor]->indices) {
    DynRange r = cl.range(b, x, fs, nullptr);
    lo.push_back(r.lo);
    size.push_back(r.size);
    vol = arith::MulIOp::create(b, loc, vol, rt.toI64(b, loc, r.size));
  }
  for (auto &entry : saved)
    cl.fixed[entry.getKey()] = entry.getValue();
  if (lo.empty()) {
    lo.push_back(rt.idx(b, loc, 0));
    size.push_back(rt.idx(b, loc, 1));
  }
  rt.indexArray(b, loc, loA, lo);
  rt.indexArray(b, loc, sizeA, size);
  return vol;
}

/// Writes tensor t's box into its lo / size scratch arrays (one point of
/// one element for an order-0 tensor).
void ComputeEmitter::boxArrays(OpBuilder &b, const std::string &t, Value &loP,
                               Value &sizeP) {
  BoxBuffer &box = boxes[t];
  SmallVector<Value> lo = box.lo, size = box.size;
  if (lo.empty()) {
    lo.push_back(rt.idx(b, loc, 0));
    size.push_back(rt.idx(b, loc, 1));
  }
  loP = rt.indexArray(b, loc, loArr[t], lo);
  sizeP = rt.indexArray(b, loc, sizeArr[t], size);
}

/// Sets tensor t's box at level k from the fixed loop values and writes it
/// into the tensor's lo / size scratch arrays.
void ComputeEmitter::setBox(OpBuilder &b, const std::string &t, unsigned k,
                            Value &loP, Value &sizeP) {
  llvm::StringSet<> fs = fixedAt(k);
  BoxBuffer &box = boxes[t];
  box.lo.clear();
  box.size.clear();
  for (const std::string &x : model.accessOf[t]->indices) {
    DynRange r = cl.range(b, x, fs, nullptr);
    box.lo.push_back(r.lo);
    box.size.push_back(r.size);
  }
  boxArrays(b, t, loP, sizeP);
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
/// the block's offset is the box. Returns the i1 condition and points t's
/// box at the view when it holds, at its buffer otherwise.
Value ComputeEmitter::aliasTile(OpBuilder &b, const std::string &t, Value tile,
                                Value desc, Value loP, Value sizeP) {
  Value at = rt.call(b, loc, "distrt_box_in_tile", {g, desc, loP, sizeP});
  Value isTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, at,
                                       rt.i64(b, loc, 0));
  Value offset = rt.toIndex(
      b, loc, arith::SelectOp::create(b, loc, isTile, at, rt.i64(b, loc, 0)));
  Value vol = rt.idx(b, loc, 1);
  for (Value sz : boxes[t].size)
    vol = arith::MulIOp::create(b, loc, vol, sz);
  auto viewTy = MemRefType::get(
      {ShapedType::kDynamic}, elt,
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
  Value view = memref::ReinterpretCastOp::create(
      b, loc, viewTy, tile, OpFoldResult(offset),
      ArrayRef<OpFoldResult>{OpFoldResult(vol)},
      ArrayRef<OpFoldResult>{OpFoldResult(b.getIndexAttr(1))});
  Value buf = memref::CastOp::create(b, loc, viewTy, firstBufs[t]);
  boxes[t].memref = arith::SelectOp::create(b, loc, isTile, view, buf);
  aliasOf[t] = isTile;
  return isTile;
}

TransferSite ComputeEmitter::siteOf(const std::string &t, unsigned k, Value loP,
                                    Value sizeP, Value tileP, Value desc,
                                    Value dt, Value inPlace) {
  Value timeIv = k > 0 ? cl.fixed.lookup(localLoops[k - 1]->name) : Value();
  return TransferSite{plans[t],
                      k,
                      boxes[t],
                      firstBufs[t],
                      sendBufs.lookup(t),
                      loArr[t],
                      sizeArr[t],
                      loP,
                      sizeP,
                      tileP,
                      desc,
                      dt,
                      inPlace,
                      timeIv,
                      peerLoArr.lookup(t),
                      peerSizeArr.lookup(t)};
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
    if (overlapped.contains(t)) {
      overlappedStep(b, k, t);
      continue;
    }
    const TransferPlan &plan = plans[t];
    Value loP, sizeP;
    setBox(b, t, k, loP, sizeP);
    Value tile = rt.tileOf(op, model.values[t]);
    if (!tile)
      return failure();
    Value desc = rt.constArray(b, loc, layoutDescriptor(model.types[t]));
    Value dt = rt.i64(b, loc, dtype);
    bool local = plan.kind == TransferPlan::Kind::Local && !sharesOutput(t);
    if (t == stmt.lhs.tensor) {
      // A local output whose box is the whole tile accumulates into the
      // tile directly; otherwise partial results start at zero in the
      // buffer.
      Value isTile;
      if (local)
        isTile = aliasTile(b, t, tile, desc, loP, sizeP);
      zeroOutputBuffer(b, t, isTile);
      continue;
    }
    Value tileP = rt.ptrOf(b, loc, tile);
    // A local input whose box is a block of the tile is read in place.
    Value inPlace;
    if (local)
      inPlace = aliasTile(b, t, tile, desc, loP, sizeP);
    transfers->emitInput(b, siteOf(t, k, loP, sizeP, tileP, desc, dt, inPlace));
  }
  return success();
}

/// Adds the output's partial results of level k to the owners' tiles.
void ComputeEmitter::exitLevel(OpBuilder &b, unsigned k) {
  const std::string &t = stmt.lhs.tensor;
  if (model.level[t] != k)
    return;
  Value loP, sizeP;
  boxArrays(b, t, loP, sizeP);
  Value dt = rt.i64(b, loc, dtype);
  Value tileP = rt.ptrOf(b, loc, outTile);
  transfers->emitOutput(
      b, siteOf(t, k, loP, sizeP, tileP, outDesc, dt, aliasOf.lookup(t)));
}

//===----------------------------------------------------------------------===//
// Overlap
//===----------------------------------------------------------------------===//

/// Starts the transfer of an overlapped input t at level k for the step
/// the fixed loops name, into `dest`, and returns its request id (0: none
/// in flight); see TransferEmitter::startInput.
Value ComputeEmitter::startTransfer(OpBuilder &b, unsigned k,
                                    const std::string &t, Value dest, Value cur,
                                    bool first) {
  Value loP, sizeP;
  setBox(b, t, k, loP, sizeP);
  boxes[t].memref = dest;
  Value tileP = rt.ptrOf(b, loc, rt.tileOf(op, model.values[t]));
  Value desc = rt.constArray(b, loc, layoutDescriptor(model.types[t]));
  Value dt = rt.i64(b, loc, dtype);
  return transfers->startInput(
      b, siteOf(t, k, loP, sizeP, tileP, desc, dt, Value()), cur, first);
}

/// Inside the time loop of level k: wait for this step's transfer of t,
/// start the next step's into the other buffer, and point t's box at this
/// step's buffer.
void ComputeEmitter::overlappedStep(OpBuilder &b, unsigned k,
                                    const std::string &t) {
  const Loop *l = localLoops[k - 1];
  Value iv = cl.fixed[l->name];
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, iv, rt.idx(b, loc, 2)), rt.idx(b, loc, 0));
  Value cur = arith::SelectOp::create(b, loc, odd, altBufs[t], firstBufs[t]);
  Value next = arith::SelectOp::create(b, loc, odd, firstBufs[t], altBufs[t]);
  Value slot = reqSlots[t];
  Value zeroIdx = rt.idx(b, loc, 0);
  Value req = memref::LoadOp::create(b, loc, slot, ValueRange{zeroIdx});
  Value pending = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, req,
                                        rt.i64(b, loc, 0));
  scf::IfOp::create(b, loc, pending, [&](OpBuilder &tb, Location tl) {
    rt.call(tb, tl, "distrt_wait", {req});
    scf::YieldOp::create(tb, tl);
  });
  Value nextIv = arith::AddIOp::create(b, loc, iv, rt.idx(b, loc, 1));
  Value hasNext = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        nextIv, rt.idx(b, loc, l->extent));
  scf::IfOp::create(
      b, loc, hasNext,
      [&](OpBuilder &tb, Location tl) {
        cl.fixed[l->name] = nextIv;
        Value r = startTransfer(tb, k, t, next, cur, /*first=*/false);
        memref::StoreOp::create(tb, tl, r, slot, ValueRange{rt.idx(tb, tl, 0)});
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        memref::StoreOp::create(eb, el, rt.i64(eb, el, 0), slot,
                                ValueRange{rt.idx(eb, el, 0)});
        scf::YieldOp::create(eb, el);
      });
  cl.fixed[l->name] = iv;
  Value loP, sizeP;
  setBox(b, t, k, loP, sizeP);
  boxes[t].memref = cur;
}

/// Before the time loop of level k (local loop k - 1): start step 0's
/// transfers.
void ComputeEmitter::overlapPrologue(OpBuilder &b, unsigned k) {
  const Loop *l = localLoops[k - 1];
  for (const std::string &t : names) {
    if (model.level[t] != k || !overlapped.contains(t))
      continue;
    cl.fixed[l->name] = rt.idx(b, loc, 0);
    Value r = startTransfer(b, k, t, firstBufs[t], Value(), /*first=*/true);
    memref::StoreOp::create(b, loc, r, reqSlots[t],
                            ValueRange{rt.idx(b, loc, 0)});
  }
}

//===----------------------------------------------------------------------===//
// The loop nest and its leaf
//===----------------------------------------------------------------------===//

/// Level k of the loop nest: its transfers, then the leaf, a
/// linalg.generic, or local loop k with level k + 1 inside, then the
/// output's transfer.
void ComputeEmitter::emitLevel(OpBuilder &b, unsigned k) {
  if (failed(enterLevel(b, k))) {
    failedInside = true;
    return;
  }
  if (k == leafLevel) {
    if (failed(emitLeaf(b)))
      failedInside = true;
  } else if (k == loopLeaf && succeeded(tryEmitLinalg(rt, b, cl, stmt, boxes,
                                                      fixedAt(k), elt))) {
    // The remaining loops are the linalg.generic's.
  } else if (localLoops[k]->parallel) {
    // parallelize: threads inside the rank (scf.parallel, lowered to
    // OpenMP by the pipeline).
    const Loop *l = localLoops[k];
    scf::ParallelOp::create(b, loc, ValueRange{rt.idx(b, loc, 0)},
                            ValueRange{rt.idx(b, loc, l->extent)},
                            ValueRange{rt.idx(b, loc, 1)},
                            [&](OpBuilder &fb, Location, ValueRange ivs) {
                              cl.fixed[l->name] = ivs.front();
                              emitLevel(fb, k + 1);
                            });
  } else {
    const Loop *l = localLoops[k];
    overlapPrologue(b, k + 1);
    scf::ForOp::create(b, loc, rt.idx(b, loc, 0), rt.idx(b, loc, l->extent),
                       rt.idx(b, loc, 1), ValueRange{},
                       [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                         cl.fixed[l->name] = iv;
                         emitLevel(fb, k + 1);
                         scf::YieldOp::create(fb, loc);
                       });
  }
  exitLevel(b, k);
}

/// A library leaf runs only where every variable's range is non-empty:
/// past the uneven tail of a split outside the leaf its pointers would lie
/// past the buffers. `body` fails without emitting anything (the guard is
/// then dropped).
LogicalResult
ComputeEmitter::underNonEmpty(OpBuilder &b,
                              function_ref<LogicalResult(OpBuilder &)> body) {
  Value ok;
  for (const std::string &x : stmt.indexVariables()) {
    DynRange r = cl.range(b, x, fixedAt(leafLevel), nullptr);
    Value ne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, r.size,
                                     rt.idx(b, loc, 0));
    ok = ok ? (Value)arith::AndIOp::create(b, loc, ok, ne) : ne;
  }
  if (!ok)
    return body(b);
  auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  if (failed(body(tb))) {
    ifOp.erase();
    return failure();
  }
  return success();
}

/// The leaf: GEMM, GEMV or DOT when the operands fit, the MTTKRP kernel, one
/// linalg.generic, or scalar loops.
LogicalResult ComputeEmitter::emitLeaf(OpBuilder &b) {
  if (nest.kernel == "gemm" || nest.kernel == "gemv" || nest.kernel == "dot") {
    std::string why;
    if (succeeded(underNonEmpty(b, [&](OpBuilder &tb) {
          if (nest.kernel == "gemv")
            return tryEmitGemv(rt, tb, cl, stmt, boxes, fixedAt(leafLevel), elt,
                               why);
          if (nest.kernel == "dot")
            return tryEmitDot(rt, tb, cl, stmt, boxes, fixedAt(leafLevel), elt,
                              why);
          return tryEmitGemm(rt, tb, cl, stmt, boxes, leafLevel,
                             fixedAt(leafLevel), elt, why);
        })))
      return success();
    if (!gemmWarned && failed(cannotSubstitute(why)))
      return failure();
    gemmWarned = true;
  }
  if (mttkrpLeaf)
    return underNonEmpty(b, [&](OpBuilder &tb) {
      emitMttkrp(rt, tb, cl, stmt, roles, boxes, fixedAt(leafLevel), elt, krBuf,
                 [&](OpBuilder &fb) { emitScalarLoops(fb, leafLevel); });
      return success();
    });
  if (leafLevel < localLoops.size() &&
      succeeded(tryEmitLinalg(rt, b, cl, stmt, boxes, fixedAt(leafLevel), elt)))
    return success();
  emitScalarLoops(b, leafLevel);
  return success();
}

/// Scalar loops over the local loops from k on, with the point update,
/// guarded by every variable's bounds, inside.
void ComputeEmitter::emitScalarLoops(OpBuilder &b, unsigned k) {
  if (k == localLoops.size()) {
    llvm::StringSet<> all = fixedAt(k);
    SmallVector<Value> guards;
    llvm::StringMap<Value> vals;
    for (const std::string &x : stmt.indexVariables()) {
      DynRange r = cl.range(b, x, all, &guards);
      vals[x] = r.lo;
      guards.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             r.lo,
                                             rt.idx(b, loc, model.extents[x])));
    }
    // A statement without index variables: one point, no guard.
    if (guards.empty()) {
      emitPointUpdate(rt, b, loc, elt, boxes, stmt,
                      [&](StringRef x) { return vals[x]; });
      return;
    }
    Value ok = guards.front();
    for (Value gv : ArrayRef<Value>(guards).drop_front())
      ok = arith::AndIOp::create(b, loc, ok, gv);
    scf::IfOp::create(b, loc, ok, [&](OpBuilder &tb, Location l) {
      emitPointUpdate(rt, tb, l, elt, boxes, stmt,
                      [&](StringRef x) { return vals[x]; });
      scf::YieldOp::create(tb, l);
    });
    return;
  }
  const Loop *l = localLoops[k];
  scf::ForOp::create(b, loc, rt.idx(b, loc, 0), rt.idx(b, loc, l->extent),
                     rt.idx(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                       cl.fixed[l->name] = iv;
                       emitScalarLoops(fb, k + 1);
                       scf::YieldOp::create(fb, loc);
                     });
}

LogicalResult spmd::lowerCompute(SPMDBuilder &rt, ComputeOp op) {
  FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
  if (failed(model))
    return failure();
  return ComputeEmitter(rt, op, **model).run();
}
