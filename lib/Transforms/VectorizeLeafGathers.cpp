//===- VectorizeLeafGathers.cpp - vector sums of gathers --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The innermost sums of the sparse leaves (a CSR row's sum of
// val[p] * x[crd[p]]) are split into a loop that adds `width` terms at a
// time into a vector accumulator, the terms built from scalar loads, and a
// loop over the rest. The LLVM backend would otherwise vectorize such a
// loop with hardware gathers, which on some processors are slower than
// scalar loads for rows of a few dozen entries whose x is in cache, and
// faster, with a software prefetch, when x is large and read at random
// (docs/sparse.md, "Leaf code"): a leaf whose sums gather from an argument
// keeps both versions, chosen per call by that argument's size and a
// sample of the gather indices.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTVECTORIZELEAFGATHERS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

/// Whether `v` is computed, inside `body`, from a value that a
/// memref.load in `body` produced (an index read from memory).
static bool derivesFromLoad(Value v, Block *body) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    if (isa<memref::LoadOp>(def))
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Whether `load` reads through an index loaded in `body` (x[crd[p]]).
static bool isGathered(memref::LoadOp load, Block *body) {
  return llvm::any_of(load.getIndices(),
                      [&](Value i) { return derivesFromLoad(i, body); });
}

/// The function argument `memref` is a view of, or null.
static BlockArgument viewedArgument(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) ||
      !arg.getOwner()->isEntryBlock())
    return {};
  return arg;
}

/// The memrefs that `loop`'s body loads from through a loaded index.
static SmallVector<Value> gatheredMemrefs(scf::ForOp loop) {
  SmallVector<Value> memrefs;
  Block *body = loop.getBody();
  for (auto load : body->getOps<memref::LoadOp>())
    if (isGathered(load, body))
      memrefs.push_back(load.getMemRef());
  return memrefs;
}

/// The loop's summed term (`%t` of `%acc' = arith.addf %acc, %t`) when the
/// loop has the shape the pass rewrites, or null.
static Value summedTerm(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1 ||
      !isa<FloatType>(loop.getRegionIterArgs()[0].getType()))
    return {};
  std::optional<APInt> step = loop.getConstantStep();
  if (!step || !step->isOne())
    return {};
  Block *body = loop.getBody();
  Value acc = loop.getRegionIterArgs()[0];
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body || !acc.hasOneUse() || !add->hasOneUse())
    return {};
  Value term;
  if (add.getLhs() == acc)
    term = add.getRhs();
  else if (add.getRhs() == acc)
    term = add.getLhs();
  if (!term || term == acc)
    return {};
  // Only loads and side-effect-free operations without regions, and at
  // least one load through a loaded index.
  bool gathers = false;
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions() != 0)
      return {};
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      gathers |= isGathered(load, body);
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return {};
  }
  return gathers ? term : Value();
}

/// Rewrites `loop` (of the shape summedTerm accepts) as described in the
/// pass's documentation.
static void vectorize(scf::ForOp loop, Value term, unsigned width) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto elem = cast<FloatType>(loop.getRegionIterArgs()[0].getType());
  auto vecType = VectorType::get({static_cast<int64_t>(width)}, elem);
  auto add =
      cast<arith::AddFOp>(cast<scf::YieldOp>(loop.getBody()->getTerminator())
                              .getOperand(0)
                              .getDefiningOp());
  arith::FastMathFlagsAttr flags = add.getFastmathAttr();

  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Type ivType = lb.getType();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, v));
  };
  Value zero = cst(0), w = cst(width);
  // n = max(ub - lb, 0): scf.for runs no iteration when ub <= lb.
  Value n = arith::MaxSIOp::create(b, loc,
                                   arith::SubIOp::create(b, loc, ub, lb), zero);
  // Sums of fewer than two vectors' worth of terms keep the original loop:
  // for them the vector path's setup and reduction cost more than it saves
  // (measured on fibers of about 5 entries, docs/sparse.md "Leaf code").
  Value longEnough = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n,
                                           cst(2 * width));
  auto choice = scf::IfOp::create(b, loc, TypeRange{elem}, longEnough,
                                  /*withElseRegion=*/true);
  {
    OpBuilder eb = OpBuilder::atBlockEnd(choice.elseBlock());
    Operation *original = eb.clone(*loop.getOperation());
    scf::YieldOp::create(eb, loc, original->getResult(0));
  }
  b.setInsertionPointToStart(choice.thenBlock());
  Value rem = arith::RemUIOp::create(b, loc, n, w);
  Value mid =
      arith::AddIOp::create(b, loc, lb, arith::SubIOp::create(b, loc, n, rem));

  // The main loop: `width` clones of the body per step.
  Value vzero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vecType, b.getFloatAttr(elem, 0.0)));
  auto main = scf::ForOp::create(
      b, loc, lb, mid, w, ValueRange{vzero},
      [&](OpBuilder &nb, Location nloc, Value q, ValueRange args) {
        SmallVector<Value> terms;
        for (unsigned lane = 0; lane < width; ++lane) {
          IRMapping map;
          Value iv = lane == 0
                         ? q
                         : arith::AddIOp::create(
                               nb, nloc, q,
                               arith::ConstantOp::create(
                                   nb, nloc, nb.getIntegerAttr(ivType, lane)));
          map.map(loop.getInductionVar(), iv);
          for (Operation &op : loop.getBody()->without_terminator()) {
            if (&op == add.getOperation())
              continue;
            nb.clone(op, map);
          }
          terms.push_back(map.lookupOrDefault(term));
        }
        Value vec = vector::FromElementsOp::create(nb, nloc, vecType, terms);
        Value sum = arith::AddFOp::create(nb, nloc, args[0], vec, flags);
        scf::YieldOp::create(nb, nloc, sum);
      });
  main->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Value partial = vector::ReductionOp::create(
      b, loc, vector::CombiningKind::ADD, main.getResult(0),
      loop.getInitArgs()[0],
      flags ? flags.getValue() : arith::FastMathFlags::none);

  // The rest: `rem` iterations from `mid`, counted from 0 so that the
  // backend sees at most width - 1 of them.
  auto rest = scf::ForOp::create(
      b, loc, zero, rem, cst(1), ValueRange{partial},
      [&](OpBuilder &nb, Location nloc, Value k, ValueRange args) {
        IRMapping map;
        map.map(loop.getInductionVar(),
                arith::AddIOp::create(nb, nloc, mid, k).getResult());
        map.map(loop.getRegionIterArgs()[0], args[0]);
        for (Operation &op : loop.getBody()->without_terminator())
          nb.clone(op, map);
        scf::YieldOp::create(nb, nloc, map.lookup(add.getResult()));
      });
  rest->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  scf::YieldOp::create(b, loc, rest.getResult(0));
  loop.getResult(0).replaceAllUsesWith(choice.getResult(0));
  loop.erase();
}

/// The loops of `f` the pass rewrites, with their summed terms.
static SmallVector<std::pair<scf::ForOp, Value>> matchingLoops(func::FuncOp f) {
  SmallVector<std::pair<scf::ForOp, Value>> loops;
  f.walk([&](scf::ForOp loop) {
    if (Value term = summedTerm(loop))
      loops.push_back({loop, term});
  });
  return loops;
}

/// The one argument of `f` every matching loop gathers from, or null.
static BlockArgument
gatheredArgument(ArrayRef<std::pair<scf::ForOp, Value>> loops) {
  BlockArgument common;
  for (auto &[loop, term] : loops)
    for (Value m : gatheredMemrefs(loop)) {
      BlockArgument arg = viewedArgument(m);
      if (!arg || (common && arg != common))
        return {};
      common = arg;
    }
  return common;
}

/// Rewrites the matching loops of `f` and marks it so that the backend does
/// not turn the lanes' scalar loads back into a hardware gather (the
/// function's target features: `prefer-no-gather`, what clang's
/// -mno-gather sets for a whole file).
static void vectorizeFunction(func::FuncOp f, unsigned width) {
  for (auto [loop, term] : matchingLoops(f))
    vectorize(loop, term, width);
  MLIRContext *ctx = f.getContext();
  f->setAttr("target_features",
             LLVM::TargetFeaturesAttr::get(
                 ctx, ArrayRef<StringRef>{"+prefer-no-gather"}));
}

/// The bytes of `m`, a memref of integers or floats, as an index.
static Value memrefBytes(OpBuilder &b, Location loc, Value m) {
  auto type = cast<MemRefType>(m.getType());
  Value bytes =
      arith::ConstantIndexOp::create(b, loc, type.getElementTypeBitWidth() / 8);
  for (int64_t d = 0; d < type.getRank(); ++d)
    bytes = arith::MulIOp::create(b, loc, bytes,
                                  memref::DimOp::create(b, loc, m, d));
  return bytes;
}

/// The operations of `body` that `roots` are computed from, in block order.
static SmallVector<Operation *> sliceInBody(ValueRange roots, Block *body) {
  SmallVector<Value> work(roots.begin(), roots.end());
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<Operation *> slice;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    slice.push_back(def);
    llvm::append_range(work, def->getOperands());
  }
  llvm::sort(slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return slice;
}

namespace {
/// The gathered loads of a loop (x[crd[p]]), each with the operations of
/// the body its indices are computed from, and the argument their index
/// loads read (crd).
struct Gathers {
  BlockArgument crd;
  SmallVector<std::pair<memref::LoadOp, SmallVector<Operation *>>> loads;
};
} // namespace

/// The gathered loads of `loop`, when every index they use is computed from
/// loads of one argument's 1-D views at the loop's induction variable
/// (crd[p]); otherwise crd is null.
static Gathers collectGathers(scf::ForOp loop) {
  Gathers g;
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  if (!iv.getType().isIndex())
    return {};
  for (auto load : body->getOps<memref::LoadOp>()) {
    if (!isGathered(load, body))
      continue;
    SmallVector<Operation *> slice = sliceInBody(load.getIndices(), body);
    for (Operation *op : slice) {
      auto index = dyn_cast<memref::LoadOp>(op);
      if (!index)
        continue;
      BlockArgument arg = viewedArgument(index.getMemRef());
      if (index.getMemRefType().getRank() != 1 || index.getIndices()[0] != iv ||
          !arg || (g.crd && arg != g.crd))
        return {};
      g.crd = arg;
    }
    g.loads.push_back({load, std::move(slice)});
  }
  return g;
}

/// The argument every matching loop of `f` loads its gather indices from
/// (collectGathers), or null.
static BlockArgument indexArgument(func::FuncOp f) {
  BlockArgument crd;
  for (auto &[loop, term] : matchingLoops(f)) {
    BlockArgument arg = collectGathers(loop).crd;
    if (!arg || (crd && arg != crd))
      return {};
    crd = arg;
  }
  return crd;
}

/// Inserts before each gathered load of `loop` (of the form collectGathers
/// accepts) a prefetch of the element it gathers `distance` iterations
/// later: x[crd[q]], q = min(p + distance, n - 1), n the extent of the 1-D
/// buffers the index is loaded from (a prefetch never faults, but the
/// index loads must stay in bounds).
static void insertPrefetches(scf::ForOp loop, int64_t distance) {
  Value iv = loop.getInductionVar();
  for (auto &[load, slice] : collectGathers(loop).loads) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value bound;
    for (Operation *op : slice)
      if (auto index = dyn_cast<memref::LoadOp>(op)) {
        Value n = memref::DimOp::create(b, loc, index.getMemRef(), 0);
        bound = bound ? arith::MinUIOp::create(b, loc, bound, n) : n;
      }
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value ahead = arith::AddIOp::create(
        b, loc, iv, arith::ConstantIndexOp::create(b, loc, distance));
    IRMapping map;
    map.map(iv, arith::MinUIOp::create(
                    b, loc, ahead, arith::SubIOp::create(b, loc, bound, one))
                    .getResult());
    for (Operation *op : slice)
      b.clone(*op, map);
    SmallVector<Value> indices;
    for (Value i : load.getIndices())
      indices.push_back(map.lookupOrDefault(i));
    memref::PrefetchOp::create(b, loc, load.getMemRef(), indices,
                               /*isWrite=*/false, /*localityHint=*/1,
                               /*isDataCache=*/true);
  }
}

/// Pairs of consecutive entries the dispatcher samples.
static constexpr int64_t kSamplePairs = 32;

/// Whether the entries of the 1-D memref `crd` look scattered: of
/// kSamplePairs consecutive pairs from its middle, more than half differ by
/// `line` or more (x elements of different cache lines, when they index x).
/// False for fewer entries.
static Value scatteredSample(OpBuilder &b, Location loc, Value crd,
                             int64_t line) {
  Type elt = cast<MemRefType>(crd.getType()).getElementType();
  Type i64 = b.getI64Type();
  auto cst = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  Value n = memref::DimOp::create(b, loc, crd, 0);
  Value enough = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n,
                                       cst(b, 2 * kSamplePairs + 2));
  auto ifEnough = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, enough,
                                    /*withElseRegion=*/true);
  {
    OpBuilder eb = OpBuilder::atBlockEnd(ifEnough.elseBlock());
    scf::YieldOp::create(
        eb, loc, ValueRange{arith::ConstantIntOp::create(eb, loc, 0, 1)});
  }
  OpBuilder tb = OpBuilder::atBlockEnd(ifEnough.thenBlock());
  Value start = arith::DivUIOp::create(tb, loc, n, cst(tb, 2));
  auto asI64 = [&](OpBuilder &lb, Value v) -> Value {
    if (elt.isIndex())
      return arith::IndexCastUIOp::create(lb, loc, i64, v);
    if (elt.getIntOrFloatBitWidth() < 64)
      return arith::ExtUIOp::create(lb, loc, i64, v);
    return v;
  };
  Value zero = arith::ConstantIntOp::create(tb, loc, 0, 64);
  auto count = scf::ForOp::create(
      tb, loc, cst(tb, 0), cst(tb, kSamplePairs), cst(tb, 1), ValueRange{zero},
      [&](OpBuilder &lb, Location l, Value k, ValueRange acc) {
        Value p = arith::AddIOp::create(lb, l, start, k);
        Value p1 = arith::AddIOp::create(lb, l, p, cst(lb, 1));
        Value a = asI64(lb, memref::LoadOp::create(lb, l, crd, p));
        Value c = asI64(lb, memref::LoadOp::create(lb, l, crd, p1));
        Value gt =
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ugt, a, c);
        Value diff = arith::SelectOp::create(
            lb, l, gt, arith::SubIOp::create(lb, l, a, c),
            arith::SubIOp::create(lb, l, c, a));
        Value far = arith::CmpIOp::create(
            lb, l, arith::CmpIPredicate::uge, diff,
            arith::ConstantIntOp::create(lb, l, line, 64));
        Value sum = arith::AddIOp::create(
            lb, l, acc[0], arith::ExtUIOp::create(lb, l, i64, far));
        scf::YieldOp::create(lb, l, sum);
      });
  Value scattered = arith::CmpIOp::create(
      tb, loc, arith::CmpIPredicate::ugt, count.getResult(0),
      arith::ConstantIntOp::create(tb, loc, kSamplePairs / 2, 64));
  scf::YieldOp::create(tb, loc, scattered);
  return ifEnough.getResult(0);
}

/// An scf.if on `cond` whose branches call `onTrue` and `onFalse` with
/// `args` and yield their results.
static scf::IfOp callEither(OpBuilder &b, Location loc, Value cond,
                            func::FuncOp onTrue, func::FuncOp onFalse,
                            ValueRange args) {
  TypeRange results = onTrue.getResultTypes();
  auto choice =
      scf::IfOp::create(b, loc, results, cond, /*withElseRegion=*/true);
  for (auto [block, callee] : {std::pair(choice.thenBlock(), onTrue),
                               std::pair(choice.elseBlock(), onFalse)}) {
    // scf.if's builder gives its blocks a terminator only without results.
    OpBuilder bb = results.empty() ? OpBuilder::atBlockTerminator(block)
                                   : OpBuilder::atBlockEnd(block);
    auto call = func::CallOp::create(bb, loc, callee, args);
    if (!results.empty())
      scf::YieldOp::create(bb, loc, call.getResults());
  }
  return choice;
}

/// A private copy of `f` named `f`__`suffix`, after `f`.
static func::FuncOp variant(func::FuncOp f, StringRef suffix) {
  auto copy = cast<func::FuncOp>(f->clone());
  copy.setSymName((f.getSymName() + "__" + suffix).str());
  copy->removeAttr(dist::kVectorizeGathersAttr);
  copy.setPrivate();
  OpBuilder mb(f->getContext());
  mb.setInsertionPointAfter(f);
  mb.insert(copy);
  return copy;
}

/// `f` becomes a function of the same name, type and attributes that calls
/// `f`__vector (the rewritten loops) or the original loops, left to the
/// backend's vectorizer (hardware gathers): `f`__prefetch with a
/// `distance` (they also prefetch the element gathered `distance` entries
/// ahead), `f`__gathers without. It calls the original loops when the
/// argument `x` they gather from holds more than `above` bytes and, where
/// the gather indices come from one argument, a sample of those indices
/// looks scattered (scatteredSample).
static void splitIntoVariants(func::FuncOp f, unsigned xIndex, unsigned width,
                              uint64_t above, unsigned distance) {
  // Argument numbers: f's body is replaced below.
  BlockArgument crdArg = indexArgument(f);
  std::optional<unsigned> crd;
  if (crdArg)
    crd = crdArg.getArgNumber();
  func::FuncOp vector = variant(f, "vector");
  vectorizeFunction(vector, width);
  func::FuncOp backend =
      variant(f, distance > 0 && crd ? "prefetch" : "gathers");
  if (distance > 0 && crd)
    for (auto [loop, term] : matchingLoops(backend))
      insertPrefetches(loop, distance);

  // `f` itself becomes the dispatcher.
  Location loc = f.getLoc();
  f.getBody().dropAllReferences();
  f.getBody().getBlocks().clear();
  f->removeAttr(dist::kVectorizeGathersAttr);
  OpBuilder b = OpBuilder::atBlockBegin(f.addEntryBlock());
  ValueRange args = f.getArguments();
  Value bytes = memrefBytes(b, loc, args[xIndex]);
  Value useBackend = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt, bytes,
      arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(above)));
  if (crd) {
    auto ifLarge = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()},
                                     useBackend, /*withElseRegion=*/true);
    OpBuilder tb = OpBuilder::atBlockEnd(ifLarge.thenBlock());
    auto xType = cast<MemRefType>(args[xIndex].getType());
    int64_t line = std::max<int64_t>(1, 512 / xType.getElementTypeBitWidth());
    scf::YieldOp::create(tb, loc, scatteredSample(tb, loc, args[*crd], line));
    OpBuilder eb = OpBuilder::atBlockEnd(ifLarge.elseBlock());
    scf::YieldOp::create(
        eb, loc, ValueRange{arith::ConstantIntOp::create(eb, loc, 0, 1)});
    useBackend = ifLarge.getResult(0);
  }
  auto choice = callEither(b, loc, useBackend, backend, vector, args);
  func::ReturnOp::create(b, loc, choice.getResults());
}

namespace {
struct VectorizeLeafGathers
    : dist::impl::DistVectorizeLeafGathersBase<VectorizeLeafGathers> {
  using Base::Base;

  void runOnOperation() override {
    if (width < 2)
      return;
    SmallVector<func::FuncOp> marked;
    getOperation().walk([&](func::FuncOp f) {
      if (f->hasAttr(dist::kVectorizeGathersAttr) &&
          f->hasAttr(dist::kReassociateAttr) && !f.isExternal())
        marked.push_back(f);
    });
    for (func::FuncOp f : marked) {
      auto loops = matchingLoops(f);
      if (loops.empty())
        continue;
      BlockArgument x = gatheredArgument(loops);
      auto xType = x ? dyn_cast<MemRefType>(x.getType()) : MemRefType();
      if (gatherAbove == 0 || !xType ||
          !xType.getElementType().isIntOrFloat() ||
          xType.getElementTypeBitWidth() % 8 != 0) {
        vectorizeFunction(f, width);
        continue;
      }
      splitIntoVariants(f, x.getArgNumber(), width, gatherAbove,
                        prefetchDistance);
    }
  }
};

} // namespace
