//===- SparseTensor3.cpp - SpTTV and SpMTTKRP to SPMD code ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute with a sparse tensor B of order 3 (CSF with a dense root,
// rows blocked or (i, j) fibers split by non-zeros; SparseCompute.h says
// which statements), on every process:
//
// SpTTV, `A(i,j) = B(i,j,k) * c(k)`, c replicated:
//
//   dist.sparse_pattern_of A from B      A's entries are B's fibers (once
//                                        per B's entries), split as B's
//   ... = dist.sparse_fibers B           B's piece: fibers and entries
//   call @__dist_ttv_...(B's pos2, crd2, values, #fibers, c, A's values)
//
// With all three levels fused (`fuse(i, j, f), fuse(f, k, g), pos(g, gp,
// B)`, B and A stored by fibers) the leaf runs on B's entries split
// equally, a fiber possibly split between neighbours:
//
//   %e = dist.sparse_entries B           the companion (made once)
//   ... = dist.sparse_fibers %e
//   %ob, %oe, %o = dist.sparse_fiber_runs %e, A's values (zeroed)
//   %p = dist.sparse_fiber_partial %e fibers %nf foreign
//   call @__dist_ttv_run_...(%e's level 2, 0, %ob, 0, c, %p)
//   call @__dist_ttv_run_...(%e's level 2, %ob, %oe, %o - %ob, c, A's values)
//   call @__dist_ttv_run_...(%e's level 2, %oe, %nf, 0, c, %p)
//   dist.sparse_reduce_fibers %e, %p into A's values foreign
//
// SpMTTKRP so scheduled runs on %e's rows as on a fiber split's.
//
// The leaf is SpDISTAL's pattern-preserving sparse output: only values are
// computed. B's fibers are the rows of a matrix (f, k), so the leaf is the
// sparsifier's SpMV of that matrix, assembled as DCSR over B's own level-2
// buffers (f listed 0 .. #fibers - 1), into A's values.
//
// SpMTTKRP, `A(i,l) (+)= B(i,j,k) * C(j,l) * D(k,l)`, C and D replicated,
// A's rows blocked:
//
//   ... = dist.sparse_fibers B
//   %first, %n = dist.sparse_local_rows B
//   rows blocked:  call @__dist_mttkrp_...(B's piece, %n, C, D, A's tile)
//   by non-zeros:  %p = dist.sparse_partial B rows %n cols L
//                  call @__dist_mttkrp_...(B's piece, %n, C, D, %p)
//                  dist.sparse_reduce_rows B, %p into A's tile
//
// The leaf runs over the runtime's buffers (rows 0 .. %n - 1, numbered
// from the piece's first) with a workspace of L elements per fiber
// (SpDISTAL's `precompute`): t(:) = sum over the fiber's entries of
// B(i,j,k) * D(k,:), then A(i,:) += t(:) * C(j,:). Its loops are written
// here (scf), since the sparsifier cannot keep a workspace across a
// fiber's entries. A process's rows split with its neighbours (non-zeros)
// go through the partial sums and their reduction, as SpMV's do. Both
// leaves are marked for dist-reassociate-leaves, the MTTKRP leaf's output
// for dist-restrict-leaves. No other communication.
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"
#include "SparseLeaves.h"

#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

/// The first level of a listed piece: the positions [begin, end) (a stack
/// array of two) of a list of n coordinates (`list`, allocated here, freed
/// by the caller) holding p + shift at each position p of the range, as
/// tensors.
static SmallVector<Value>
listedLevel(OpBuilder &b, Location loc,
            sparse_tensor::SparseTensorEncodingAttr enc, Value n, Value begin,
            Value end, Value shift, Value &list) {
  MLIRContext *ctx = b.getContext();
  Type posElt = sparseIndexElt(ctx, enc.getPosWidth());
  Type crdElt = sparseIndexElt(ctx, enc.getCrdWidth());
  auto cast = [&](OpBuilder &cb, Type t, Value v) -> Value {
    return t.isIndex() ? v
                       : arith::IndexCastOp::create(cb, loc, t, v).getResult();
  };
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto pos0 = memref::AllocaOp::create(b, loc, MemRefType::get({2}, posElt));
  memref::StoreOp::create(b, loc, cast(b, posElt, begin), pos0, ValueRange{c0});
  memref::StoreOp::create(b, loc, cast(b, posElt, end), pos0, ValueRange{c1});
  list = memref::AllocOp::create(b, loc, flatMemRef(crdElt), ValueRange{n});
  scf::ForOp::create(
      b, loc, begin, end, c1, ValueRange{},
      [&](OpBuilder &fb, Location l, Value p, ValueRange) {
        Value f =
            shift ? arith::AddIOp::create(fb, l, p, shift).getResult() : p;
        memref::StoreOp::create(fb, l, cast(fb, crdElt, f), list,
                                ValueRange{p});
        scf::YieldOp::create(fb, l);
      });
  return {memrefAsTensor(b, loc, pos0, false),
          memrefAsTensor(b, loc, list, false)};
}

/// Writes the leaf's result into its output buffer (in place).
static void writeBack(OpBuilder &b, Location loc, Value result, Value dest) {
  auto mat =
      bufferization::MaterializeInDestinationOp::create(b, loc, result, dest);
  mat.setRestrict(true);
  mat.setWritable(true);
}

/// A leaf function `name` of `args` (private, marked for reassociation),
/// its body built by `body` unless the module has it.
static func::FuncOp
getOrCreateLeaf(ModuleOp module, Location loc, StringRef name,
                ArrayRef<Type> args,
                function_ref<void(OpBuilder &, Block &)> body) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto f = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, args, {}));
  f.setPrivate();
  f->setAttr(kReassociateAttr, UnitAttr::get(ctx));
  Block *entry = f.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockBegin(entry);
  body(fb, *entry);
  func::ReturnOp::create(fb, loc);
  return f;
}

/// A sum of products `out + a0 * a1 [* a2]` over the block's arguments
/// (the last is the output).
static void sumOfProducts(OpBuilder &b, Location loc, ValueRange args) {
  Value prod = args[0];
  for (Value v : args.drop_front().drop_back())
    prod = arith::MulFOp::create(b, loc, prod, v);
  linalg::YieldOp::create(b, loc,
                          arith::AddFOp::create(b, loc, args.back(), prod)
                              .getResult());
}

/// The largest number of fibers of a d0 x d1 x d2 tensor (the bound of the
/// listed fibers' numbers), saturated.
static int64_t fiberBound(int64_t d0, int64_t d1) {
  int64_t bound;
  if (__builtin_mul_overflow(d0, d1, &bound) ||
      bound > std::numeric_limits<int64_t>::max() / 4)
    return std::numeric_limits<int64_t>::max() / 4;
  return bound;
}

/// y(f + shift) += sum over k of B'(f,k) * c(k) for the fibers f in
/// [begin, end) of B' (pos2, crd2, vals: the fibers as rows, nf of them):
/// the sparsifier's SpMV of a DCSR matrix over those buffers whose listed
/// level holds f + shift at the positions [begin, end) (shift null: 0).
static void buildTtvSum(OpBuilder &b, Location loc, DistTensorType bt,
                        Value pos2, Value crd2, Value vals, Value nf,
                        Value begin, Value end, Value shift, Value c, Value y) {
  MLIRContext *ctx = b.getContext();
  auto enc = bt.getEncoding();
  Type elt = bt.getElementType();
  int64_t d0 = bt.getShape()[0], d1 = bt.getShape()[1], d2 = bt.getShape()[2];
  Value list;
  SmallVector<Value> levels =
      listedLevel(b, loc, enc, nf, begin, end, shift, list);
  levels.push_back(memrefAsTensor(b, loc, pos2, false));
  levels.push_back(memrefAsTensor(b, loc, crd2, false));
  auto type = RankedTensorType::get({fiberBound(d0, d1), d2}, elt,
                                    dcsrEncoding(ctx, enc));
  Value fib = sparse_tensor::AssembleOp::create(
      b, loc, type, levels, memrefAsTensor(b, loc, vals, false));
  auto cView = memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get({d2}, elt), c, b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{b.getIndexAttr(d2)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Value tc = memrefAsTensor(b, loc, cView, false);
  Value ty = memrefAsTensor(b, loc, y, true);
  AffineExpr f, k;
  bindDims(ctx, f, k);
  SmallVector<AffineMap> maps{AffineMap::get(2, 0, {f, k}, ctx),
                              AffineMap::get(2, 0, {k}, ctx),
                              AffineMap::get(2, 0, {f}, ctx)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{ty.getType()}, ValueRange{fib, tc}, ValueRange{ty},
      maps, {utils::IteratorType::parallel, utils::IteratorType::reduction},
      [&](OpBuilder &gb, Location l, ValueRange a) {
        sumOfProducts(gb, l, a);
      });
  writeBack(b, loc, generic.getResult(0), y);
  memref::DeallocOp::create(b, loc, list);
}

/// The name of an SpTTV leaf (`kind`: "ttv" or "ttv_run") for B's type.
static std::string ttvLeafName(StringRef kind, DistTensorType bt) {
  auto enc = bt.getEncoding();
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_" << kind << "_" << bt.getShape()[0] << "x" << bt.getShape()[1]
     << "x" << bt.getShape()[2] << "_p" << enc.getPosWidth() << "_c"
     << enc.getCrdWidth() << "_" << bt.getElementType();
  return name;
}

/// SpTTV's leaf: y(f) = sum over k of B'(f,k) * c(k), B' the fibers as
/// rows (pos2, crd2, values; f listed 0 .. nfibers - 1), y A's values.
static func::FuncOp getOrCreateTtvLeaf(ModuleOp module, Location loc,
                                       DistTensorType bt) {
  MLIRContext *ctx = module.getContext();
  auto enc = bt.getEncoding();
  Type elt = bt.getElementType();
  SmallVector<Type> args{flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
                         flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
                         flatMemRef(elt), IndexType::get(ctx),
                         flatMemRef(elt), flatMemRef(elt)};
  return getOrCreateLeaf(
      module, loc, ttvLeafName("ttv", bt), args,
      [&](OpBuilder &b, Block &entry) {
        Value nf = entry.getArgument(3), y = entry.getArgument(5);
        Value zero =
            arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
        linalg::FillOp::create(b, loc, zero, y);
        buildTtvSum(b, loc, bt, entry.getArgument(0), entry.getArgument(1),
                    entry.getArgument(2), nf,
                    arith::ConstantIndexOp::create(b, loc, 0), nf, Value(),
                    entry.getArgument(4), y);
      });
}

/// SpTTV's leaf over a run of fibers, for the entries partition: (pos2,
/// crd2, values, nf, begin, end, shift, c, y), y(f + shift) += ... for the
/// fibers f in [begin, end), y not zeroed (the caller zeroes it).
static func::FuncOp getOrCreateTtvRunLeaf(ModuleOp module, Location loc,
                                          DistTensorType bt) {
  MLIRContext *ctx = module.getContext();
  auto enc = bt.getEncoding();
  Type elt = bt.getElementType();
  Type idx = IndexType::get(ctx);
  SmallVector<Type> args{flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
                         flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
                         flatMemRef(elt),
                         idx,
                         idx,
                         idx,
                         idx,
                         flatMemRef(elt),
                         flatMemRef(elt)};
  return getOrCreateLeaf(module, loc, ttvLeafName("ttv_run", bt), args,
                         [&](OpBuilder &b, Block &entry) {
                           ValueRange a = entry.getArguments();
                           buildTtvSum(b, loc, bt, a[0], a[1], a[2], a[3], a[4],
                                       a[5], a[6], a[7], a[8]);
                         });
}

/// buf[i] as an index (positions and coordinates are i32, i64 or index).
static Value loadIndex(OpBuilder &b, Location loc, Value buf, Value i) {
  Value v = memref::LoadOp::create(b, loc, buf, ValueRange{i});
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
}

/// scf.for from `lb` to `ub` (step 1) whose body `body` builds.
static void forRange(OpBuilder &b, Location loc, Value lb, Value ub,
                     function_ref<void(OpBuilder &, Value)> body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(b, loc, lb, ub, one, ValueRange{},
                     [&](OpBuilder &fb, Location, Value iv, ValueRange) {
                       body(fb, iv);
                       scf::YieldOp::create(fb, loc);
                     });
}

/// The workspace of the leaf below: `cols` elements on the stack, or on the
/// heap beyond 4096 (freed by the caller of this, `heap` set).
static Value workspace(OpBuilder &b, Location loc, Type elt, int64_t cols,
                       bool &heap) {
  auto type = MemRefType::get({cols}, elt);
  heap = cols > 4096;
  if (heap)
    return memref::AllocOp::create(b, loc, type);
  return memref::AllocaOp::create(b, loc, type);
}

/// SpMTTKRP's leaf over the piece (pos, crd over its rows 0 .. nrows - 1,
/// pos2, crd2, values), C (d1 x L) and D (d2 x L) whole, out at least
/// nrows x L, with a workspace t of L elements per fiber:
///
///   for r, for fiber f = (r, j) of row r:
///     t(:) = 0
///     for entry (k, v) of f:  t(:) += v * D(k, :)
///     out(r, :) += t(:) * C(j, :)
///
/// SpDISTAL's (TACO's `precompute`) form: two flops per entry and L and
/// two per fiber, against three per entry and L when C(j, l) multiplies
/// every entry. The sparsifier cannot hold a workspace across a fiber's
/// entries, so the loops are written here.
static void buildMttkrpBody(OpBuilder &b, Location loc, Block &entry,
                            Type elt, int64_t cols) {
  Value pos = entry.getArgument(0), crd = entry.getArgument(1),
        pos2 = entry.getArgument(2), crd2 = entry.getArgument(3),
        vals = entry.getArgument(4), nrows = entry.getArgument(5),
        c = entry.getArgument(6), d = entry.getArgument(7),
        out = entry.getArgument(8);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value width = arith::ConstantIndexOp::create(b, loc, cols);
  Value fzero =
      arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
  bool heap = false;
  Value t = workspace(b, loc, elt, cols, heap);
  auto at = [&](OpBuilder &ib, Value base, Value l) {
    return arith::AddIOp::create(ib, loc, base, l).getResult();
  };
  auto times = [&](OpBuilder &ib, Value x) {
    return arith::MulIOp::create(ib, loc, x, width).getResult();
  };
  forRange(b, loc, zero, nrows, [&](OpBuilder &rb, Value r) {
    Value rowBase = times(rb, r);
    Value f0 = loadIndex(rb, loc, pos, r);
    Value f1 = loadIndex(rb, loc, pos, arith::AddIOp::create(rb, loc, r, one));
    forRange(rb, loc, f0, f1, [&](OpBuilder &fb, Value f) {
      Value cBase = times(fb, loadIndex(fb, loc, crd, f));
      forRange(fb, loc, zero, width, [&](OpBuilder &lb, Value l) {
        memref::StoreOp::create(lb, loc, fzero, t, ValueRange{l});
      });
      Value p0 = loadIndex(fb, loc, pos2, f);
      Value p1 =
          loadIndex(fb, loc, pos2, arith::AddIOp::create(fb, loc, f, one));
      forRange(fb, loc, p0, p1, [&](OpBuilder &pb, Value p) {
        Value dBase = times(pb, loadIndex(pb, loc, crd2, p));
        Value v = memref::LoadOp::create(pb, loc, vals, ValueRange{p});
        forRange(pb, loc, zero, width, [&](OpBuilder &lb, Value l) {
          Value dv = memref::LoadOp::create(lb, loc, d,
                                            ValueRange{at(lb, dBase, l)});
          Value tv = memref::LoadOp::create(lb, loc, t, ValueRange{l});
          Value sum = arith::AddFOp::create(
              lb, loc, tv, arith::MulFOp::create(lb, loc, v, dv));
          memref::StoreOp::create(lb, loc, sum, t, ValueRange{l});
        });
      });
      forRange(fb, loc, zero, width, [&](OpBuilder &lb, Value l) {
        Value o = at(lb, rowBase, l);
        Value ov = memref::LoadOp::create(lb, loc, out, ValueRange{o});
        Value tv = memref::LoadOp::create(lb, loc, t, ValueRange{l});
        Value cv = memref::LoadOp::create(lb, loc, c,
                                          ValueRange{at(lb, cBase, l)});
        Value sum = arith::AddFOp::create(
            lb, loc, ov, arith::MulFOp::create(lb, loc, tv, cv));
        memref::StoreOp::create(lb, loc, sum, out, ValueRange{o});
      });
    });
  });
  if (heap)
    memref::DeallocOp::create(b, loc, t);
}

/// SpMTTKRP's leaf (buildMttkrpBody) for B's type and L = `cols`.
static func::FuncOp getOrCreateMttkrpLeaf(ModuleOp module, Location loc,
                                          DistTensorType bt, int64_t cols) {
  MLIRContext *ctx = module.getContext();
  auto enc = bt.getEncoding();
  Type elt = bt.getElementType();
  int64_t d0 = bt.getShape()[0], d1 = bt.getShape()[1], d2 = bt.getShape()[2];
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_mttkrp_" << d0 << "x" << d1 << "x" << d2 << "_l" << cols
     << "_p" << enc.getPosWidth() << "_c" << enc.getCrdWidth() << "_" << elt;
  Type posT = flatMemRef(sparseIndexElt(ctx, enc.getPosWidth()));
  Type crdT = flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth()));
  SmallVector<Type> args{posT,           crdT,           posT,
                         crdT,           flatMemRef(elt), IndexType::get(ctx),
                         flatMemRef(elt), flatMemRef(elt), flatMemRef(elt)};
  func::FuncOp f = getOrCreateLeaf(
      module, loc, name, args, [&](OpBuilder &b, Block &entry) {
        buildMttkrpBody(b, loc, entry, elt, cols);
      });
  // The output (A's block or the partial sums) is reached through no other
  // argument (the caller checks that C and D are not A): LLVM may keep a
  // row of it in registers across the row's fibers.
  markRestrict(f, {8});
  // Its loop over l (L a constant) is what should be vectorized; x86-64
  // backends otherwise vectorize the entries' loop with hardware gathers
  // of D's rows, 1.5-3x slower on AMD Zen 4 (rmat tensor of the sparse III
  // suite, 1 rank: 26 ms without gathers, 78 ms with them). What clang's
  // -mno-gather sets, for this function only.
  f->setAttr("target_features",
             LLVM::TargetFeaturesAttr::get(
                 module.getContext(), ArrayRef<StringRef>{"+prefer-no-gather"}));
  return f;
}

LogicalResult spmd::lowerSparseTensor3(SPMDBuilder &rt, ComputeOp op,
                                       const SparseProduct &prod,
                                       const IndexStatement &stmt,
                                       llvm::StringMap<DistTensorType> &types,
                                       llvm::StringMap<Value> &values) {
  Location loc = op.getLoc();
  bool ttv = prod.kind == SparseKernel::Ttv;
  if (rt.options.deviceTiles)
    return op.emitOpError("sparse computation cannot be lowered: ")
           << (ttv ? "SpTTV" : "SpMTTKRP")
           << " on device tiles is not supported yet (run it on the host: "
              "--backend mpi)";
  DistTensorType bt = types[prod.matrix], at = types[prod.out];
  Value hb = rt.tileOf(op, values[prod.matrix]);
  Value a = rt.tileOf(op, values[prod.out]);
  Value c = rt.tileOf(op, values[prod.dense]);
  Value d = ttv ? Value() : rt.tileOf(op, values[prod.dense2]);
  if (!hb || !a || !c || (!ttv && !d))
    return failure();
  if (a == c || (!ttv && (a == d || c == d)))
    return op.emitOpError("sparse computation cannot be lowered: the "
                          "tensors of an ")
           << (ttv ? "SpTTV" : "SpMTTKRP") << " must be different tensors";
  OpBuilder b(op);
  MLIRContext *ctx = b.getContext();
  auto enc = bt.getEncoding();
  Type posElt = sparseIndexElt(ctx, enc.getPosWidth());
  Type crdElt = sparseIndexElt(ctx, enc.getCrdWidth());
  Type elt = bt.getElementType();
  if (ttv)
    SparsePatternOfOp::create(b, loc, a, hb);
  // All three levels fused: the entries, split equally, whichever way B is
  // stored.
  Value hc = hb;
  if (prod.entries)
    hc = SparseEntriesOp::create(b, loc, hb.getType(), hb).getResult();
  auto fibers = SparseFibersOp::create(
      b, loc, flatMemRef(posElt), flatMemRef(crdElt), flatMemRef(posElt),
      flatMemRef(crdElt), flatMemRef(elt), b.getIndexType(), hc, bt);
  if (ttv) {
    SparsePartOp ap = makeSparsePart(b, loc, a, SparsePart::all, at);
    Value y = ap.getValues();
    if (!prod.entries) {
      func::CallOp::create(b, loc, getOrCreateTtvLeaf(rt.module, loc, bt),
                           ValueRange{fibers.getPos2(), fibers.getCrd2(),
                                      fibers.getValues(), fibers.getNfibers(),
                                      c, y});
      return success();
    }
    // The fibers in A's own block straight into its values, the others
    // into the partial sums, sent to their owners.
    Type idx = b.getIndexType();
    auto runs = SparseFiberRunsOp::create(b, loc, idx, idx, idx, hc, y);
    auto partialOp = SparseFiberPartialOp::create(b, loc, flatMemRef(elt), hc,
                                                  fibers.getNfibers());
    partialOp.setForeign(true);
    Value partial = partialOp.getBuffer();
    func::FuncOp leaf = getOrCreateTtvRunLeaf(rt.module, loc, bt);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value shift =
        arith::SubIOp::create(b, loc, runs.getYOffset(), runs.getOwnBegin());
    auto run = [&](Value begin, Value end, Value by, Value out) {
      func::CallOp::create(b, loc, leaf,
                           ValueRange{fibers.getPos2(), fibers.getCrd2(),
                                      fibers.getValues(), fibers.getNfibers(),
                                      begin, end, by, c, out});
    };
    run(c0, runs.getOwnBegin(), c0, partial);
    run(runs.getOwnBegin(), runs.getOwnEnd(), shift, y);
    run(runs.getOwnEnd(), fibers.getNfibers(), c0, partial);
    auto reduce = SparseReduceFibersOp::create(b, loc, hc, partial, y);
    reduce.setForeign(true);
    return success();
  }
  // C or D may be A passed twice to the enclosing function, where their
  // types allow it (the verifier's layouts keep them apart today).
  for (StringRef in : {StringRef(prod.dense), StringRef(prod.dense2)})
    if (types[in] == at)
      CheckDistinctOp::create(b, loc, a, rt.tileOf(op, values[in]), in,
                              runtimeWhere(loc, stmt));
  if (!stmt.accumulate)
    ZeroTileOp::create(b, loc, a, TypeAttr::get(at));
  auto local = SparseLocalRowsOp::create(
      b, loc, flatMemRef(crdElt), b.getIndexType(), b.getIndexType(), hc, bt);
  Value out = a;
  if (prod.nonzeros)
    out = SparsePartialOp::create(b, loc, flatMemRef(elt), hc, local.getNrows(),
                                  prod.cols)
              .getBuffer();
  func::CallOp::create(
      b, loc, getOrCreateMttkrpLeaf(rt.module, loc, bt, prod.cols),
      ValueRange{fibers.getPos(), fibers.getCrd(), fibers.getPos2(),
                 fibers.getCrd2(), fibers.getValues(), local.getNrows(), c, d,
                 out});
  if (prod.nonzeros)
    SparseReduceRowsOp::create(b, loc, hc, out, a, prod.cols);
  return success();
}
