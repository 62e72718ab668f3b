//===- LeafKernels.cpp - the leaves of a computation's loop nest ----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What runs below the last communicated loop of a dist.compute: the scalar
// update of one point, one linalg.generic over strided views of the boxes,
// a dist.gemm (substitute(..., gemm)), a dist.gemv or dist.dot
// (substitute(..., gemv), substitute(..., dot)) or a Khatri-Rao product and
// a dist.gemm (substitute(..., mttkrp)). The BLAS leaves take views of the
// boxes at the leaf's origin (memref.reinterpret_cast), whose strides are
// the leading dimensions.
//
//===----------------------------------------------------------------------===//

#include "LeafKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {
/// Summed variables at whose first value each addend counts (see
/// addendGuards); `indexOf(x)` gives the global value of variable x.
struct Guards {
  const AddendGuards &addends;
  function_ref<Value(StringRef)> indexOf;
};
} // namespace

/// `v` where every variable of `vars` is at its first value, 0 elsewhere.
static Value guardAddend(SPMDBuilder &rt, OpBuilder &b, Location loc, Value v,
                         Type elt, ArrayRef<std::string> vars,
                         const Guards &g) {
  Value ok;
  for (const std::string &x : vars) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        g.indexOf(x), rt.idx(b, loc, 0));
    ok = ok ? (Value)arith::AndIOp::create(b, loc, ok, first) : first;
  }
  Value zero = rt.zero(b, loc, elt);
  return arith::SelectOp::create(b, loc, ok, v, zero);
}

/// The value of expression `e` at one iteration point; `load(access)`
/// loads an operand.
static Value emitExpr(SPMDBuilder &rt, OpBuilder &b, Location loc,
                      const IndexExpr *e, Type elt,
                      function_ref<Value(const Access &)> load,
                      const Guards &guards) {
  bool isFloat = isa<FloatType>(elt);
  switch (e->kind) {
  case IndexExpr::Kind::Access:
    return load(e->access);
  case IndexExpr::Kind::Constant:
    if (isFloat)
      return arith::ConstantOp::create(b, loc, elt,
                                       b.getFloatAttr(elt, e->constant));
    return arith::ConstantOp::create(
        b, loc, elt, b.getIntegerAttr(elt, (int64_t)e->constant));
  case IndexExpr::Kind::Neg: {
    Value v = emitExpr(rt, b, loc, e->lhs.get(), elt, load, guards);
    if (isFloat)
      return arith::NegFOp::create(b, loc, v);
    Value zero =
        arith::ConstantOp::create(b, loc, elt, b.getIntegerAttr(elt, 0));
    return arith::SubIOp::create(b, loc, zero, v);
  }
  case IndexExpr::Kind::Add:
  case IndexExpr::Kind::Sub:
  case IndexExpr::Kind::Mul: {
    Value l = emitExpr(rt, b, loc, e->lhs.get(), elt, load, guards);
    Value r = emitExpr(rt, b, loc, e->rhs.get(), elt, load, guards);
    if (e->kind != IndexExpr::Kind::Mul) {
      auto lg = guards.addends.find(e->lhs.get());
      if (lg != guards.addends.end())
        l = guardAddend(rt, b, loc, l, elt, lg->second, guards);
      auto rg = guards.addends.find(e->rhs.get());
      if (rg != guards.addends.end())
        r = guardAddend(rt, b, loc, r, elt, rg->second, guards);
    }
    if (e->kind == IndexExpr::Kind::Add)
      return isFloat ? (Value)arith::AddFOp::create(b, loc, l, r)
                     : (Value)arith::AddIOp::create(b, loc, l, r);
    if (e->kind == IndexExpr::Kind::Sub)
      return isFloat ? (Value)arith::SubFOp::create(b, loc, l, r)
                     : (Value)arith::SubIOp::create(b, loc, l, r);
    return isFloat ? (Value)arith::MulFOp::create(b, loc, l, r)
                   : (Value)arith::MulIOp::create(b, loc, l, r);
  }
  }
  return {};
}

/// Linear offset of `indices` in a row-major box (lo, size).
static Value boxOffset(SPMDBuilder &rt, OpBuilder &b, Location loc,
                       const BoxBuffer &box, ArrayRef<Value> indices) {
  Value off = rt.idx(b, loc, 0);
  for (auto [d, x] : llvm::enumerate(indices)) {
    off = arith::MulIOp::create(b, loc, off, box.size[d]);
    off = arith::AddIOp::create(b, loc, off,
                                arith::SubIOp::create(b, loc, x, box.lo[d]));
  }
  return off;
}

/// A view of `mem` (a box or buffer, possibly itself a view into a tile)
/// starting `offset` elements in, with `sizes` and `strides`; a null stride
/// stands for a static 1 (a contiguous dimension, as BLAS needs).
static Value viewAt(SPMDBuilder &rt, OpBuilder &b, Location loc, Value mem,
                    Value offset, ArrayRef<Value> sizes,
                    ArrayRef<Value> strides, Type elt) {
  // A box read in place is a view into its tile: start at its offset.
  if (isa<StridedLayoutAttr>(cast<MemRefType>(mem.getType()).getLayout()))
    offset = arith::AddIOp::create(
        b, loc, offset,
        memref::ExtractStridedMetadataOp::create(b, loc, mem).getOffset());
  SmallVector<OpFoldResult> sizeOfr(sizes.begin(), sizes.end()), strideOfr;
  SmallVector<int64_t> staticStrides;
  for (Value s : strides) {
    strideOfr.push_back(s ? OpFoldResult(s) : OpFoldResult(b.getIndexAttr(1)));
    staticStrides.push_back(s ? ShapedType::kDynamic : 1);
  }
  auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                       staticStrides);
  auto type = MemRefType::get(
      SmallVector<int64_t>(sizes.size(), ShapedType::kDynamic), elt, layout);
  return memref::ReinterpretCastOp::create(
      b, loc, type, mem, OpFoldResult(offset), sizeOfr, strideOfr);
}

/// The view of `a`'s box at the leaf's origin (every index at its range's
/// lower bound in `ranges`) with `sizes` and `strides` (see viewAt).
static Value leafView(SPMDBuilder &rt, OpBuilder &b, Location loc,
                      llvm::StringMap<BoxBuffer> &boxes,
                      llvm::StringMap<DynRange> &ranges, const Access *a,
                      ArrayRef<Value> sizes, ArrayRef<Value> strides,
                      Type elt) {
  BoxBuffer &box = boxes[a->tensor];
  SmallVector<Value> at;
  for (const std::string &x : a->indices)
    at.push_back(ranges[x].lo);
  return viewAt(rt, b, loc, box.memref, boxOffset(rt, b, loc, box, at), sizes,
                strides, elt);
}

/// Emits the scalar update of the statement at the point given by
/// `valueOf`, reading and writing the boxes in `boxes`.
void spmd::emitPointUpdate(SPMDBuilder &rt, OpBuilder &b, Location loc,
                           Type elt, llvm::StringMap<BoxBuffer> &boxes,
                           const IndexStatement &stmt,
                           function_ref<Value(StringRef)> valueOf) {
  auto indicesOf = [&](const Access &a) {
    SmallVector<Value> ix;
    for (const std::string &v : a.indices)
      ix.push_back(valueOf(v));
    return ix;
  };
  auto load = [&](const Access &a) -> Value {
    BoxBuffer &box = boxes[a.tensor];
    Value off = boxOffset(rt, b, loc, box, indicesOf(a));
    return memref::LoadOp::create(b, loc, box.memref, ValueRange{off});
  };
  AddendGuards addends = addendGuards(stmt);
  Value v =
      emitExpr(rt, b, loc, stmt.rhs.get(), elt, load, Guards{addends, valueOf});
  BoxBuffer &out = boxes[stmt.lhs.tensor];
  Value off = boxOffset(rt, b, loc, out, indicesOf(stmt.lhs));
  Value old = memref::LoadOp::create(b, loc, out.memref, ValueRange{off});
  Value sum = isa<FloatType>(elt)
                  ? (Value)arith::AddFOp::create(b, loc, old, v)
                  : (Value)arith::AddIOp::create(b, loc, old, v);
  memref::StoreOp::create(b, loc, sum, out.memref, ValueRange{off});
}

bool spmd::mttkrpRoles(const IndexStatement &stmt, const LoopNest &nest,
                       MttkrpRoles &r) {
  SmallVector<const Access *> ins = stmt.rhsAccesses();
  if (ins.size() != 3 || stmt.lhs.indices.size() != 2)
    return false;
  for (const Access *a : ins)
    if (a->indices.size() == 3)
      r.t = a;
  if (!r.t)
    return false;
  r.out = &stmt.lhs;
  r.j = r.t->indices[1];
  r.k = r.t->indices[2];
  r.i = r.t->indices[0];
  r.l = r.out->indices[1];
  if (r.out->indices[0] != r.i)
    return false;
  for (const Access *a : ins) {
    if (a == r.t || a->indices.size() != 2 || a->indices[1] != r.l)
      continue;
    if (a->indices[0] == r.j)
      r.mj = a;
    else if (a->indices[0] == r.k)
      r.mk = a;
  }
  (void)nest;
  return r.mj && r.mk && r.mj != r.mk;
}

/// Whether the leaf ranges are exact intervals (so a GEMM covers exactly
/// the leaf's points) for a float type.
bool spmd::mttkrpFits(ComputeRanges &cl, const IndexStatement &stmt,
                      const MttkrpRoles &r, const llvm::StringSet<> &fs,
                      Type elt) {
  (void)stmt;
  if (!elt.isF32() && !elt.isF64())
    return false;
  for (const std::string &x : {r.i, r.j, r.k, r.l})
    if (!cl.staticRange(x, fs).exact)
      return false;
  return true;
}

/// out(I, L) += T(I, JK) * KRt(L, JK)^T with KRt(l, j*K + k) = Mj(j,l) Mk(k,l),
/// every step a library call, so that it runs on device tiles as well:
/// - KRt is zeroed (dist.zero_buffer), then each of its L rows, seen as a
///   J x K matrix, receives the rank-1 product Mj(:, l) Mk(:, l)^T (one
///   dist.gemm with an inner dimension of 1);
/// - one dist.gemm when T's (j, k) block is contiguous in its buffer (the
///   leaf covers T's whole k range), one per j (T(I, j, K) times KRt's K
///   columns of that j) otherwise.
void spmd::emitMttkrp(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                      const IndexStatement &stmt, const MttkrpRoles &r,
                      llvm::StringMap<BoxBuffer> &boxes,
                      const llvm::StringSet<> &fs, Type elt, Value krBuf) {
  Location loc = cl.op.getLoc();
  llvm::StringMap<DynRange> ranges;
  for (const std::string &x : stmt.indexVariables())
    ranges[x] = cl.range(b, x, fs, nullptr);
  BoxBuffer &tb = boxes[r.t->tensor];
  BoxBuffer &jb = boxes[r.mj->tensor];
  BoxBuffer &kb = boxes[r.mk->tensor];
  BoxBuffer &ob = boxes[r.out->tensor];
  Value nj = ranges[r.j].size, nk = ranges[r.k].size, nl = ranges[r.l].size;
  Value njk = arith::MulIOp::create(b, loc, nj, nk);
  auto loop = [&](OpBuilder &lb, Location l, Value ub,
                  function_ref<void(OpBuilder &, Value)> body) {
    scf::ForOp::create(lb, l, rt.idx(lb, l, 0), ub, rt.idx(lb, l, 1),
                       ValueRange{},
                       [&](OpBuilder &fb, Location fl, Value iv, ValueRange) {
                         body(fb, iv);
                         scf::YieldOp::create(fb, fl);
                       });
  };
  // The Khatri-Rao product, transposed: L rank-1 products.
  ZeroBufferOp::create(b, loc, krBuf, arith::MulIOp::create(b, loc, njk, nl));
  loop(b, loc, nl, [&](OpBuilder &lb, Value li) {
    Value gl = arith::AddIOp::create(lb, loc, ranges[r.l].lo, li);
    Value one = rt.idx(lb, loc, 1);
    Value x = viewAt(rt, lb, loc, jb.memref,
                     boxOffset(rt, lb, loc, jb, {ranges[r.j].lo, gl}),
                     {nj, one}, {jb.size[1], Value()}, elt);
    Value y = viewAt(rt, lb, loc, kb.memref,
                     boxOffset(rt, lb, loc, kb, {ranges[r.k].lo, gl}),
                     {nk, one}, {kb.size[1], Value()}, elt);
    Value row = viewAt(rt, lb, loc, krBuf,
                       arith::MulIOp::create(lb, loc, li, njk), {nj, nk},
                       {nk, Value()}, elt);
    GemmOp::create(lb, loc, x, /*transpose_a=*/false, y,
                   /*transpose_b=*/true, row);
  });
  // The GEMM(s): T's (i, jk) block times KRt transposed.
  Value tRowStride = arith::MulIOp::create(b, loc, tb.size[1], tb.size[2]);
  Value oView = viewAt(
      rt, b, loc, ob.memref,
      boxOffset(rt, b, loc, ob, {ranges[r.i].lo, ranges[r.l].lo}),
      {ranges[r.i].size, nl}, {ob.size[1], Value()}, elt);
  Value contiguous = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           nk, tb.size[2]);
  scf::IfOp::create(
      b, loc, contiguous,
      [&](OpBuilder &ib, Location l) {
        Value tView = viewAt(
            rt, ib, l, tb.memref,
            boxOffset(rt, ib, l, tb,
                      {ranges[r.i].lo, ranges[r.j].lo, ranges[r.k].lo}),
            {ranges[r.i].size, njk}, {tRowStride, Value()}, elt);
        Value krView = viewAt(rt, ib, l, krBuf, rt.idx(ib, l, 0), {nl, njk},
                              {njk, Value()}, elt);
        GemmOp::create(ib, l, tView, /*transpose_a=*/false, krView,
                       /*transpose_b=*/true, oView);
        scf::YieldOp::create(ib, l);
      },
      [&](OpBuilder &eb, Location l) {
        loop(eb, l, nj, [&](OpBuilder &fb, Value j) {
          Value gj = arith::AddIOp::create(fb, l, ranges[r.j].lo, j);
          Value tView = viewAt(
              rt, fb, l, tb.memref,
              boxOffset(rt, fb, l, tb, {ranges[r.i].lo, gj, ranges[r.k].lo}),
              {ranges[r.i].size, nk}, {tRowStride, Value()}, elt);
          Value krView =
              viewAt(rt, fb, l, krBuf, arith::MulIOp::create(fb, l, j, nk),
                     {nl, nk}, {njk, Value()}, elt);
          GemmOp::create(fb, l, tView, /*transpose_a=*/false, krView,
                         /*transpose_b=*/true, oView);
        });
        scf::YieldOp::create(eb, l);
      });
}

/// The leaf as one linalg.generic over strided views of the boxes, when
/// every statement variable covers an exact interval at the leaf (the
/// leaf's points are then a box of the iteration space, visited once
/// each). The pipeline lowers it to loops that the LLVM backend
/// vectorises (a floating-point sum over reduction loops is marked
/// reassociable for that). Fails (the guarded scalar loops are used
/// instead) when a range is not exact, the output repeats an index or the
/// output tensor is also read.
LogicalResult spmd::tryEmitLinalg(SPMDBuilder &rt, OpBuilder &b,
                                  ComputeRanges &cl, const IndexStatement &stmt,
                                  llvm::StringMap<BoxBuffer> &boxes,
                                  const llvm::StringSet<> &fixedSet, Type elt) {
  Location loc = cl.op.getLoc();
  SmallVector<std::string> vars = stmt.indexVariables();
  for (const std::string &x : vars)
    if (!cl.staticRange(x, fixedSet).exact)
      return failure();
  SmallVector<const Access *> ins = stmt.rhsAccesses();
  for (const Access *a : ins)
    if (a->tensor == stmt.lhs.tensor)
      return failure();
  for (auto [i, x] : llvm::enumerate(stmt.lhs.indices))
    if (llvm::is_contained(ArrayRef(stmt.lhs.indices).take_front(i), x))
      return failure();
  llvm::StringMap<DynRange> ranges;
  llvm::StringMap<unsigned> position;
  for (auto [i, x] : llvm::enumerate(vars)) {
    ranges[x] = cl.range(b, x, fixedSet, nullptr);
    position[x] = i;
  }
  MLIRContext *ctx = b.getContext();
  // The view of an access: the box's elements at the leaf's ranges, with
  // the box's row-major strides.
  auto viewOf = [&](const Access *a) -> Value {
    BoxBuffer &box = boxes[a->tensor];
    int64_t rank = a->indices.size();
    SmallVector<Value> at;
    for (const std::string &x : a->indices)
      at.push_back(ranges[x].lo);
    Value offset = boxOffset(rt, b, loc, box, at);
    // A box read in place is a view into its tile: start at its offset.
    if (isa<StridedLayoutAttr>(
            cast<MemRefType>(box.memref.getType()).getLayout()))
      offset = arith::AddIOp::create(
          b, loc, offset,
          memref::ExtractStridedMetadataOp::create(b, loc, box.memref)
              .getOffset());
    SmallVector<OpFoldResult> sizes(rank), strides(rank);
    Value stride = rt.idx(b, loc, 1);
    for (int64_t d = rank - 1; d >= 0; --d) {
      sizes[d] = ranges[a->indices[d]].size;
      strides[d] = stride;
      stride = arith::MulIOp::create(b, loc, stride, box.size[d]);
    }
    auto layout = StridedLayoutAttr::get(
        ctx, ShapedType::kDynamic,
        SmallVector<int64_t>(rank, ShapedType::kDynamic));
    auto type = MemRefType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), elt, layout);
    return memref::ReinterpretCastOp::create(
        b, loc, type, box.memref, OpFoldResult(offset), sizes, strides);
  };
  auto mapOf = [&](const Access *a) {
    SmallVector<AffineExpr> results;
    for (const std::string &x : a->indices)
      results.push_back(getAffineDimExpr(position[x], ctx));
    return AffineMap::get(vars.size(), 0, results, ctx);
  };
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (const Access *a : ins) {
    inputs.push_back(viewOf(a));
    maps.push_back(mapOf(a));
  }
  Value output = viewOf(&stmt.lhs);
  maps.push_back(mapOf(&stmt.lhs));
  SmallVector<utils::IteratorType> iterators;
  for (const std::string &x : vars)
    iterators.push_back(llvm::is_contained(stmt.lhs.indices, x)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  bool isFloat = isa<FloatType>(elt);
  // A sum over reduction loops may be reassociated, so that the backend
  // can split it over vector lanes (a distributed reduction reassociates
  // it anyway); without this the leaf's loop stays scalar.
  bool reduces = llvm::is_contained(iterators, utils::IteratorType::reduction);
  auto fastmath = arith::FastMathFlagsAttr::get(
      b.getContext(),
      reduces ? arith::FastMathFlags::reassoc : arith::FastMathFlags::none);
  AddendGuards addends = addendGuards(stmt);
  linalg::GenericOp::create(
      b, loc, inputs, ValueRange{output}, maps, iterators,
      [&](OpBuilder &gb, Location l, ValueRange args) {
        auto load = [&](const Access &a) -> Value {
          for (auto [i, in] : llvm::enumerate(ins))
            if (in == &a)
              return args[i];
          return Value();
        };
        // A variable's global value: the leaf's lower bound plus the
        // generic's iteration index.
        auto indexOf = [&](StringRef x) -> Value {
          Value it = linalg::IndexOp::create(gb, l, position[x]);
          return arith::AddIOp::create(gb, l, ranges[x].lo, it);
        };
        Value v = emitExpr(rt, gb, l, stmt.rhs.get(), elt, load,
                           Guards{addends, indexOf});
        Value acc = args.back();
        Value sum = isFloat
                        ? (Value)arith::AddFOp::create(gb, l, acc, v, fastmath)
                        : (Value)arith::AddIOp::create(gb, l, acc, v);
        linalg::YieldOp::create(gb, l, sum);
      });
  return success();
}

/// Why `stmt` is not a product of two accesses of f32 or f64, the form
/// every BLAS leaf (gemm, gemv, dot) needs; none when it is.
static std::optional<StringRef> blasProductError(const IndexStatement &stmt,
                                                 Type elt) {
  if (stmt.rhsAccesses().size() != 2 ||
      stmt.rhs->kind != IndexExpr::Kind::Mul ||
      stmt.rhs->lhs->kind != IndexExpr::Kind::Access ||
      stmt.rhs->rhs->kind != IndexExpr::Kind::Access)
    return StringRef("the right-hand side is not a product of two accesses "
                     "(no constants, negation, sums or third operand)");
  if (!elt.isF64() && !elt.isF32())
    return StringRef("the element type is not f32 or f64");
  return std::nullopt;
}

LogicalResult spmd::tryEmitGemm(SPMDBuilder &rt, OpBuilder &b,
                                ComputeRanges &cl, const IndexStatement &stmt,
                                llvm::StringMap<BoxBuffer> &boxes,
                                unsigned leafLevel,
                                const llvm::StringSet<> &fixedSet, Type elt,
                                std::string &whyNot) {
  auto cannot = [&](const Twine &why) {
    whyNot = why.str();
    return failure();
  };
  Location loc = cl.op.getLoc();
  SmallVector<const Access *> ins = stmt.rhsAccesses();
  if (std::optional<StringRef> why = blasProductError(stmt, elt))
    return cannot(*why);
  // Roles of the leaf variables' origins.
  std::string m, n, k;
  for (const std::string &v : cl.nest.substituteVars) {
    std::string o = cl.nest.originsOf(v).front();
    auto uses = [&](const Access *a) {
      return llvm::is_contained(a->indices, o);
    };
    if (uses(&stmt.lhs) && uses(ins[0]))
      m = o;
    else if (uses(&stmt.lhs) && uses(ins[1]))
      n = o;
    else
      k = o;
  }
  // Each role's range at the leaf must be an exact interval, and the
  // column index of each operand its last dimension.
  for (const std::string &x : {m, n, k})
    if (!cl.staticRange(x, fixedSet).exact)
      return cannot("the leaf's range of '" + x +
                    "' is not one interval at every step");
  auto lastIs = [](const Access *a, StringRef x) {
    return !a->indices.empty() && a->indices.back() == x;
  };
  // op(A) is m x k, op(B) k x n, C m x n; an operand whose last dimension
  // is its row index is passed transposed.
  bool transA, transB;
  if (lastIs(ins[0], k))
    transA = false;
  else if (lastIs(ins[0], m))
    transA = true;
  else
    return cannot(ins[0]->tensor + "'s last index is neither '" + m +
                  "' nor '" + k + "'");
  if (lastIs(ins[1], n))
    transB = false;
  else if (lastIs(ins[1], k))
    transB = true;
  else
    return cannot(ins[1]->tensor + "'s last index is neither '" + k +
                  "' nor '" + n + "'");
  if (!lastIs(&stmt.lhs, n))
    return cannot("the output " + stmt.lhs.tensor +
                  "'s last index is not the column index '" + n + "'");
  // Values of every statement variable at the leaf's origin.
  llvm::StringMap<DynRange> ranges;
  for (const std::string &x : stmt.indexVariables())
    ranges[x] = cl.range(b, x, fixedSet, nullptr);
  // The stride of variable x in a's row-major box.
  auto strideOf = [&](const Access *a, StringRef x) {
    BoxBuffer &box = boxes[a->tensor];
    Value s = rt.idx(b, loc, 1);
    for (int64_t d = a->indices.size() - 1; d >= 0; --d) {
      if (a->indices[d] == x)
        return s;
      s = arith::MulIOp::create(b, loc, s, box.size[d]);
    }
    return s;
  };
  // Each operand as the matrix it is in memory: `row` x `col` (its last
  // index), the row's stride the leading dimension.
  auto matrix = [&](const Access *a, StringRef row, StringRef col) {
    return leafView(rt, b, loc, boxes, ranges, a,
                    {ranges[row].size, ranges[col].size},
                    {strideOf(a, row), Value()}, elt);
  };
  Value av = transA ? matrix(ins[0], k, m) : matrix(ins[0], m, k);
  Value bv = transB ? matrix(ins[1], n, k) : matrix(ins[1], k, n);
  Value cv = matrix(&stmt.lhs, m, n);
  GemmOp::create(b, loc, av, transA, bv, transB, cv);
  (void)leafLevel;
  return success();
}

/// The roles of a gemv or dot leaf: the substituted variables' origins that
/// index the output (`row`, gemv only) and the summed one (`red`), the
/// matrix and the vector (gemv) or the two vectors (dot). The operands'
/// other indices are fixed by the loops around the leaf. Says why not in
/// `whyNot` when the statement does not have the kernel's form (the
/// schedule's verifier already checked it; this guards the lowering).
static LogicalResult blas12Roles(ComputeRanges &cl, const IndexStatement &stmt,
                                 bool gemv, Type elt, std::string &row,
                                 std::string &red, const Access *&first,
                                 const Access *&second, std::string &whyNot) {
  auto cannot = [&](const Twine &why) {
    whyNot = why.str();
    return failure();
  };
  SmallVector<const Access *> ins = stmt.rhsAccesses();
  if (std::optional<StringRef> why = blasProductError(stmt, elt))
    return cannot(*why);
  for (const Access *a : ins)
    if (a->tensor == stmt.lhs.tensor)
      return cannot("the output " + stmt.lhs.tensor + " is also read");
  for (const std::string &v : cl.nest.substituteVars) {
    std::string o = cl.nest.originsOf(v).front();
    if (llvm::is_contained(stmt.lhs.indices, o))
      row = o;
    else
      red = o;
  }
  auto last = [](const Access *a, StringRef v) {
    return !a->indices.empty() && a->indices.back() == v;
  };
  if (gemv) {
    first = llvm::is_contained(ins[0]->indices, row) ? ins[0] : ins[1];
    second = first == ins[0] ? ins[1] : ins[0];
    if (row.empty() || red.empty() || row == red ||
        llvm::is_contained(second->indices, row) ||
        !llvm::is_contained(first->indices, red) || !last(second, red) ||
        !last(&stmt.lhs, row) || !(last(first, row) || last(first, red)))
      return cannot("the statement is not Out(..., i) = M(..., i, ..., j) * "
                    "V(..., j) (or M(..., j, ..., i))");
  } else {
    first = ins[0];
    second = ins[1];
    if (red.empty() || !last(first, red) || !last(second, red) ||
        llvm::is_contained(stmt.lhs.indices, red))
      return cannot("the statement is not Out(...) = U(..., k) * V(..., k)");
  }
  return success();
}

/// The stride of index `x` in the row-major box of `a`.
static Value boxStride(SPMDBuilder &rt, OpBuilder &b, Location loc,
                       const BoxBuffer &box, const Access *a, StringRef x) {
  Value s = rt.idx(b, loc, 1);
  for (int64_t d = (int64_t)a->indices.size() - 1; d >= 0; --d) {
    if (a->indices[d] == x)
      return s;
    s = arith::MulIOp::create(b, loc, s, box.size[d]);
  }
  return s;
}

/// A GEMV call (out(I) += M(I,J) * v(J), M's box row-major, transposed when
/// its last index is the row index) for the leaf, at the fixed points of
/// the operands' other indices.
LogicalResult spmd::tryEmitGemv(SPMDBuilder &rt, OpBuilder &b,
                                ComputeRanges &cl, const IndexStatement &stmt,
                                llvm::StringMap<BoxBuffer> &boxes,
                                const llvm::StringSet<> &fixedSet, Type elt,
                                std::string &whyNot) {
  Location loc = cl.op.getLoc();
  std::string row, red;
  const Access *mat = nullptr, *vec = nullptr;
  if (failed(blas12Roles(cl, stmt, /*gemv=*/true, elt, row, red, mat, vec,
                         whyNot)))
    return failure();
  for (const std::string &x : {row, red})
    if (!cl.staticRange(x, fixedSet).exact) {
      whyNot =
          "the leaf's range of '" + x + "' is not one interval at every step";
      return failure();
    }
  llvm::StringMap<DynRange> ranges;
  for (const std::string &x : stmt.indexVariables())
    ranges[x] = cl.range(b, x, fixedSet, nullptr);
  // M in memory: with red last, rows of `row` (its stride the leading
  // dimension), y += M x; with row last, rows of `red`, y += M^T x. Its
  // other indices are at the fixed points of the loops around the leaf.
  bool trans = mat->indices.back() == row;
  StringRef lead = trans ? red : row, cont = trans ? row : red;
  Value m = leafView(
      rt, b, loc, boxes, ranges, mat, {ranges[lead].size, ranges[cont].size},
      {boxStride(rt, b, loc, boxes[mat->tensor], mat, lead), Value()}, elt);
  Value x = leafView(rt, b, loc, boxes, ranges, vec, {ranges[red].size},
                     {Value()}, elt);
  Value y = leafView(rt, b, loc, boxes, ranges, &stmt.lhs, {ranges[row].size},
                     {Value()}, elt);
  GemvOp::create(b, loc, m, trans, x, y);
  return success();
}

/// A DOT call (out() += u(K) * v(K)) for the leaf.
LogicalResult spmd::tryEmitDot(SPMDBuilder &rt, OpBuilder &b, ComputeRanges &cl,
                               const IndexStatement &stmt,
                               llvm::StringMap<BoxBuffer> &boxes,
                               const llvm::StringSet<> &fixedSet, Type elt,
                               std::string &whyNot) {
  Location loc = cl.op.getLoc();
  std::string row, red;
  const Access *u = nullptr, *v = nullptr;
  if (failed(
          blas12Roles(cl, stmt, /*gemv=*/false, elt, row, red, u, v, whyNot)))
    return failure();
  if (!cl.staticRange(red, fixedSet).exact) {
    whyNot =
        "the leaf's range of '" + red + "' is not one interval at every step";
    return failure();
  }
  llvm::StringMap<DynRange> ranges;
  for (const std::string &x : stmt.indexVariables())
    ranges[x] = cl.range(b, x, fixedSet, nullptr);
  Value x = leafView(rt, b, loc, boxes, ranges, u, {ranges[red].size},
                     {Value()}, elt);
  Value y = leafView(rt, b, loc, boxes, ranges, v, {ranges[red].size},
                     {Value()}, elt);
  Value acc = leafView(rt, b, loc, boxes, ranges, &stmt.lhs, {}, {}, elt);
  DotOp::create(b, loc, x, y, acc);
  return success();
}
