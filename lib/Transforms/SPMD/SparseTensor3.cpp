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
// The leaf is the sparsifier's kernel on the piece assembled as CSF over
// the runtime's buffers (rows listed 0 .. %n - 1, numbered from the
// piece's first): for each entry, A(i,:) += B(i,j,k) * C(j,:) * D(k,:),
// with l innermost (the sparsifier orders the loops by every operand's
// dimensions). A process's rows split with its neighbours (non-zeros) go
// through the partial sums and their reduction, as SpMV's do. Both leaves
// are marked for dist-reassociate-leaves. No other communication.
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"
#include "SparseLeaves.h"

#include "DistTensor/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

/// `enc`'s widths with every level compressed: the leaves' view of a piece
/// whose first level is listed (DCSR for 2 levels, CSF for 3).
static sparse_tensor::SparseTensorEncodingAttr
allCompressed(MLIRContext *ctx, sparse_tensor::SparseTensorEncodingAttr enc,
              unsigned levels) {
  if (levels == 2)
    return dcsrEncoding(ctx, enc);
  std::string text =
      "#sparse_tensor.encoding<{map = (i, j, k) -> (i : compressed, j : "
      "compressed, k : compressed), posWidth = " +
      std::to_string(enc.getPosWidth()) +
      ", crdWidth = " + std::to_string(enc.getCrdWidth()) + "}>";
  return cast<sparse_tensor::SparseTensorEncodingAttr>(
      parseAttribute(text, ctx));
}

/// The first level of a listed piece: positions [0, n) (a stack array) and
/// the list 0 .. n - 1 (`list`, allocated here, freed by the caller), as
/// tensors.
static SmallVector<Value> listedLevel(OpBuilder &b, Location loc,
                                      sparse_tensor::SparseTensorEncodingAttr enc,
                                      Value n, Value &list) {
  MLIRContext *ctx = b.getContext();
  Type posElt = sparseIndexElt(ctx, enc.getPosWidth());
  Type crdElt = sparseIndexElt(ctx, enc.getCrdWidth());
  auto cast = [&](Type t, Value v) -> Value {
    return t.isIndex() ? v
                       : arith::IndexCastOp::create(b, loc, t, v).getResult();
  };
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto pos0 = memref::AllocaOp::create(b, loc, MemRefType::get({2}, posElt));
  memref::StoreOp::create(b, loc, cast(posElt, c0), pos0, ValueRange{c0});
  memref::StoreOp::create(b, loc, cast(posElt, n), pos0, ValueRange{c1});
  list = memref::AllocOp::create(b, loc, flatMemRef(crdElt), ValueRange{n});
  scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                     [&](OpBuilder &fb, Location l, Value r, ValueRange) {
                       Value v = crdElt.isIndex()
                                     ? r
                                     : arith::IndexCastOp::create(fb, l,
                                                                  crdElt, r)
                                           .getResult();
                       memref::StoreOp::create(fb, l, v, list, ValueRange{r});
                       scf::YieldOp::create(fb, l);
                     });
  return {memrefAsTensor(b, loc, pos0, false),
          memrefAsTensor(b, loc, list, false)};
}

/// A row-major view (offset 0) of a flat buffer of `cols` columns: `rows`
/// rows, or as many as the buffer holds (kDynamic).
static Value view2d(OpBuilder &b, Location loc, Value flatBuf, int64_t rows,
                    int64_t cols) {
  auto elt = cast<MemRefType>(flatBuf.getType()).getElementType();
  OpFoldResult r = b.getIndexAttr(rows);
  if (ShapedType::isDynamic(rows))
    r = arith::DivUIOp::create(
            b, loc, memref::DimOp::create(b, loc, flatBuf, 0),
            arith::ConstantIndexOp::create(b, loc, cols))
            .getResult();
  return memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get({rows, cols}, elt), flatBuf, b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{r, b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(cols), b.getIndexAttr(1)});
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

/// SpTTV's leaf: y(f) = sum over k of B'(f,k) * c(k), B' the fibers as
/// rows (pos2, crd2, values; f listed 0 .. nfibers - 1), y A's values.
static func::FuncOp getOrCreateTtvLeaf(ModuleOp module, Location loc,
                                       DistTensorType bt) {
  MLIRContext *ctx = module.getContext();
  auto enc = bt.getEncoding();
  Type elt = bt.getElementType();
  int64_t d0 = bt.getShape()[0], d1 = bt.getShape()[1], d2 = bt.getShape()[2];
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_ttv_" << d0 << "x" << d1 << "x" << d2 << "_p"
     << enc.getPosWidth() << "_c" << enc.getCrdWidth() << "_" << elt;
  SmallVector<Type> args{flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
                         flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
                         flatMemRef(elt), IndexType::get(ctx),
                         flatMemRef(elt), flatMemRef(elt)};
  return getOrCreateLeaf(module, loc, name, args, [&](OpBuilder &b,
                                                       Block &entry) {
    Value pos2 = entry.getArgument(0), crd2 = entry.getArgument(1),
          vals = entry.getArgument(2), nf = entry.getArgument(3),
          c = entry.getArgument(4), y = entry.getArgument(5);
    Value list;
    SmallVector<Value> levels = listedLevel(b, loc, enc, nf, list);
    levels.push_back(memrefAsTensor(b, loc, pos2, false));
    levels.push_back(memrefAsTensor(b, loc, crd2, false));
    auto type = RankedTensorType::get({fiberBound(d0, d1), d2}, elt,
                                      allCompressed(ctx, enc, 2));
    Value fib = sparse_tensor::AssembleOp::create(
        b, loc, type, levels, memrefAsTensor(b, loc, vals, false));
    Value zero =
        arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
    linalg::FillOp::create(b, loc, zero, y);
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
        maps,
        {utils::IteratorType::parallel, utils::IteratorType::reduction},
        [&](OpBuilder &gb, Location l, ValueRange a) {
          sumOfProducts(gb, l, a);
        });
    writeBack(b, loc, generic.getResult(0), y);
    memref::DeallocOp::create(b, loc, list);
  });
}

/// SpMTTKRP's leaf: out(i,l) += sum over (j, k) of B(i,j,k) * C(j,l) *
/// D(k,l) over the piece (pos, crd, pos2, crd2, values; rows listed 0 ..
/// nrows - 1), C (d1 x L) and D (d2 x L) whole, out at least nrows x L.
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
  func::FuncOp f = getOrCreateLeaf(module, loc, name, args, [&](OpBuilder &b,
                                                                Block &entry) {
    Value nr = entry.getArgument(5);
    Value list;
    SmallVector<Value> levels = listedLevel(b, loc, enc, nr, list);
    for (unsigned a = 0; a < 4; ++a)
      levels.push_back(memrefAsTensor(b, loc, entry.getArgument(a), false));
    auto type = RankedTensorType::get({d0, d1, d2}, elt,
                                      allCompressed(ctx, enc, 3));
    Value piece = sparse_tensor::AssembleOp::create(
        b, loc, type, levels,
        memrefAsTensor(b, loc, entry.getArgument(4), false));
    // The output has as many rows as its buffer holds (the process's
    // block, or the partial sums of its rows).
    Value out = view2d(b, loc, entry.getArgument(8), ShapedType::kDynamic,
                       cols);
    Value tc = memrefAsTensor(
        b, loc, view2d(b, loc, entry.getArgument(6), d1, cols), false);
    Value td = memrefAsTensor(
        b, loc, view2d(b, loc, entry.getArgument(7), d2, cols), false);
    Value tout = memrefAsTensor(b, loc, out, true);
    AffineExpr i, j, k, l;
    bindDims(ctx, i, j, k, l);
    SmallVector<AffineMap> maps{AffineMap::get(4, 0, {i, j, k}, ctx),
                                AffineMap::get(4, 0, {j, l}, ctx),
                                AffineMap::get(4, 0, {k, l}, ctx),
                                AffineMap::get(4, 0, {i, l}, ctx)};
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{tout.getType()}, ValueRange{piece, tc, td},
        ValueRange{tout}, maps,
        {utils::IteratorType::parallel, utils::IteratorType::reduction,
         utils::IteratorType::reduction, utils::IteratorType::parallel},
        [&](OpBuilder &gb, Location l, ValueRange a) {
          sumOfProducts(gb, l, a);
        });
    writeBack(b, loc, generic.getResult(0), out);
    memref::DeallocOp::create(b, loc, list);
  });
  // The output (A's block or the partial sums) is reached through no other
  // argument (the caller checks that C and D are not A): LLVM may keep a
  // row of it in registers across the row's entries.
  markRestrict(f, {8});
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
  auto fibers = SparseFibersOp::create(
      b, loc, flatMemRef(posElt), flatMemRef(crdElt), flatMemRef(posElt),
      flatMemRef(crdElt), flatMemRef(elt), b.getIndexType(), hb, bt);
  if (ttv) {
    SparsePartOp ap = makeSparsePart(b, loc, a, SparsePart::all, at);
    func::CallOp::create(b, loc, getOrCreateTtvLeaf(rt.module, loc, bt),
                         ValueRange{fibers.getPos2(), fibers.getCrd2(),
                                    fibers.getValues(), fibers.getNfibers(),
                                    c, ap.getValues()});
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
  auto local = SparseLocalRowsOp::create(b, loc, flatMemRef(crdElt),
                                         b.getIndexType(), b.getIndexType(),
                                         hb, bt);
  Value out = a;
  if (prod.nonzeros)
    out = SparsePartialOp::create(b, loc, flatMemRef(elt), hb,
                                  local.getNrows(), prod.cols)
              .getBuffer();
  func::CallOp::create(
      b, loc, getOrCreateMttkrpLeaf(rt.module, loc, bt, prod.cols),
      ValueRange{fibers.getPos(), fibers.getCrd(), fibers.getPos2(),
                 fibers.getCrd2(), fibers.getValues(), local.getNrows(), c, d,
                 out});
  if (prod.nonzeros)
    SparseReduceRowsOp::create(b, loc, hb, out, a, prod.cols);
  return success();
}
