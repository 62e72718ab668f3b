//===- Compute.cpp - dist.compute to its SPMD loop nest -------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Lowers one dist.compute under its schedule: distributed loops become the
// rank's grid coordinates (dist.grid_coord), the other loops scf.for (or
// scf.parallel) loops; at the loop each tensor is communicated at, its box
// is moved (ComputeTransfers.cpp, Transfers.cpp) through a buffer
// allocated once, or read in place when it is a contiguous block of the
// rank's tile (dist.tile_view); every transfer is blocking (the time
// loops are tagged for dist-double-buffer, which overlaps them); below the
// last communicated loop runs the leaf (LeafKernels.cpp). This file has
// the set-up, the loop nest and the leaf.
//
//===----------------------------------------------------------------------===//

#include "ComputeEmitter.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"
#include "SPMDLowering.h"

#include "DistTensor/Analysis/LayoutSuggestion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

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

/// A buffer per tensor for its box (of the largest size the box has), and
/// a send buffer where the transfer needs one.
void ComputeEmitter::allocateBuffers(OpBuilder &b) {
  SmallVector<const Access *> all{&stmt.lhs};
  llvm::append_range(all, stmt.rhsAccesses());
  for (const std::string &t : names) {
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
    firstBufs[t] = box.memref;
    // A second buffer for what this rank sends (permutations) or
    // contributes / receives as its piece (allgather, reduce-scatter).
    if (TransferEmitter::needsSendBuffer(plans[t]))
      sendBufs[t] =
          rt.allocChecked(b, loc, bufTy, {}, "the send buffer of tensor " + t);
  }
}

/// The verifier rejects an output bound to the same value as an input;
/// through function parameters the same tensor can still arrive under two
/// names, which only the running program can see.
std::string spmd::runtimeWhere(Location loc, const IndexStatement &stmt) {
  std::string where;
  llvm::raw_string_ostream ws(where);
  if (auto fl = loc->findInstanceOf<FileLineColLoc>())
    ws << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
       << fl.getColumn() << ": ";
  stmt.print(ws);
  return where;
}

LogicalResult ComputeEmitter::checkDistinctTiles(OpBuilder &b) {
  std::string where = runtimeWhere(loc, stmt);
  for (const std::string &t : stmt.tensorNames()) {
    if (t == stmt.lhs.tensor ||
        model.values[t] == model.values[stmt.lhs.tensor])
      continue;
    Value inTile = rt.tileOf(op, model.values[t]);
    if (!inTile)
      return failure();
    CheckDistinctOp::create(b, loc, outTile, inTile, t, where);
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
    if (Value sb = sendBufs.lookup(t))
      memref::DeallocOp::create(b, loc, sb);
  }
}

LogicalResult ComputeEmitter::run() {
  collectPlans();
  OpBuilder b(op);
  DistTensorType outType = model.types[stmt.lhs.tensor];
  elt = outType.getElementType();
  int64_t gridRank = model.gridShape.size();

  // Grid coordinates give the distributed loops' values (and, with the
  // step loops' values, the roots and peers of the transfers).
  for (int64_t d = 0; d < gridRank; ++d)
    coords.push_back(GridCoordOp::create(b, loc, model.grid, d));
  for (auto [l, d] : llvm::zip(model.distLoops, model.gridDimOf))
    cl.fixed[l->name] = coords[d];

  allocateBuffers(b);
  transfers.emplace(
      rt, loc, model.grid, model.gridShape,
      [this](OpBuilder &ib, unsigned k) { return varsAt(ib, k); },
      [this](OpBuilder &ib, const TransferPlan &plan, unsigned k,
             ArrayRef<Value> at, SmallVectorImpl<Value> &lo,
             SmallVectorImpl<Value> &size) {
        return boxOfPeer(ib, plan, k, at, lo, size);
      });

  outTile = rt.tileOf(op, model.values[stmt.lhs.tensor]);
  if (!outTile)
    return failure();
  if (failed(checkDistinctTiles(b)))
    return failure();
  if (!stmt.accumulate)
    ZeroTileOp::create(b, loc, outTile, TypeAttr::get(outType));

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
    emitParallelLoop(b, *localLoops[k],
                     [&](OpBuilder &fb) { emitLevel(fb, k + 1); });
  } else {
    emitTimeLoop(b, k);
  }
  exitLevel(b, k);
}

/// Loop `l` as an scf.parallel over [0, extent) with `body` inside.
void ComputeEmitter::emitParallelLoop(OpBuilder &b, const Loop &l,
                                      function_ref<void(OpBuilder &)> body) {
  scf::ParallelOp::create(b, loc, ValueRange{rt.idx(b, loc, 0)},
                          ValueRange{rt.idx(b, loc, l.extent)},
                          ValueRange{rt.idx(b, loc, 1)},
                          [&](OpBuilder &fb, Location, ValueRange ivs) {
                            cl.fixed[l.name] = ivs.front();
                            body(fb);
                          });
}

/// Local loop k as a sequential scf.for with level k + 1 inside, its
/// transfers blocking. It is tagged `dist.time_loop` (and `dist.overlap`
/// when the schedule says) for dist-double-buffer, which overlaps them
/// with the steps' work.
void ComputeEmitter::emitTimeLoop(OpBuilder &b, unsigned k) {
  const Loop *l = localLoops[k];
  auto loop = scf::ForOp::create(
      b, loc, rt.idx(b, loc, 0), rt.idx(b, loc, l->extent), rt.idx(b, loc, 1),
      ValueRange{}, [&](OpBuilder &fb, Location, Value iv, ValueRange) {
        cl.fixed[l->name] = iv;
        emitLevel(fb, k + 1);
        scf::YieldOp::create(fb, loc);
      });
  loop->setAttr(kTimeLoopAttr, b.getUnitAttr());
  if (nest.overlap)
    loop->setAttr(kOverlapAttr, b.getBoolAttr(*nest.overlap));
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
      emitMttkrp(rt, tb, cl, stmt, roles, boxes, fixedAt(leafLevel), elt,
                 krBuf);
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
  if (isFreeLoop(*l)) {
    // Device tiles: a loop over output points only is an scf.parallel,
    // which dist-gpu-kernels runs a thread per point (the host's loops
    // stay sequential: parallelize() is the CPU's choice).
    emitParallelLoop(b, *l, [&](OpBuilder &fb) { emitScalarLoops(fb, k + 1); });
    return;
  }
  scf::ForOp::create(b, loc, rt.idx(b, loc, 0), rt.idx(b, loc, l->extent),
                     rt.idx(b, loc, 1), ValueRange{},
                     [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                       cl.fixed[l->name] = iv;
                       emitScalarLoops(fb, k + 1);
                       scf::YieldOp::create(fb, loc);
                     });
}

/// Whether the scalar loop `l` may run its iterations at once on device
/// tiles: every value it takes writes other output points (it derives
/// from the output's indices only, not rotated) and the statement does not
/// read the output.
bool ComputeEmitter::isFreeLoop(const Loop &l) const {
  if (!rt.options.deviceTiles || !l.rotatedBy.empty() || l.origins.empty())
    return false;
  for (const std::string &o : l.origins)
    if (!llvm::is_contained(stmt.lhs.indices, o))
      return false;
  for (const Access *a : stmt.rhsAccesses())
    if (a->tensor == stmt.lhs.tensor)
      return false;
  return true;
}

LogicalResult spmd::lowerCompute(SPMDBuilder &rt, ComputeOp op) {
  if (isSparseCompute(op))
    return lowerSparseCompute(rt, op);
  if (isOneSidedCompute(op))
    return lowerOneSidedCompute(rt, op);
  FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
  if (failed(model))
    return failure();
  return ComputeEmitter(rt, op, **model).run();
}
