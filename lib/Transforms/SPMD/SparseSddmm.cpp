//===- SparseSddmm.cpp - SDDMM to SPMD code ---------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute of an SDDMM, `A(i,j) = B(i,j) * C(i,k) * D(k,j)` with B
// sparse and A sparse of B's type (SparseCompute.h says which), becomes on
// every process:
//
//   dist.sparse_pattern_of A from B      A's pieces get B's pattern (once
//                                        per B's entries)
//   %first, %n = dist.sparse_local_rows B
//   call @__dist_sddmm_...(A's pos, crd, values, B's values, %n, base,
//                          C's tile, D's tile)
//
// No communication: D is replicated, and C's rows are blocked like B's
// (each process reads its own block, base 0) or replicated (base = the
// global number of the piece's first row, as under a non-zero partition).
//
// The leaf is SpDISTAL's sampled product on the process's piece, compiled
// by the upstream sparsifier: a linalg.generic over (i, j, k) whose output
// is the piece assembled as DCSR over A's values (rows numbered from
// `base`), with the sparsifier's "spy" semantics (sparse_tensor.unary with
// an empty absent region and a sparse_tensor.reduce): for each stored
// (i, j), the sum over k of C(i,k) * D(k,j), written in place. D is read
// transposed (a copy per call, so that k runs along rows of both), and a
// last loop multiplies the sums by B's values. Like the products' leaves it
// is marked for dist-reassociate-leaves: the sum over k may be
// reassociated.
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"
#include "SparseLeaves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

/// The static description of one SDDMM leaf.
struct SddmmShape {
  DistTensorType matrix;
  /// Rows of the C the leaf reads (its block, or the whole of C) and the
  /// bound of the piece's row numbers (from `base`).
  int64_t rows;
  int64_t cols, k;
};

} // namespace


/// A row-major rows x cols view (offset 0) of a flat buffer.
static Value view2d(OpBuilder &b, Location loc, Value flatBuf, int64_t rows,
                    int64_t cols) {
  auto elt = cast<MemRefType>(flatBuf.getType()).getElementType();
  return memref::ReinterpretCastOp::create(
      b, loc, MemRefType::get({rows, cols}, elt), flatBuf, b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(cols), b.getIndexAttr(1)});
}

/// The piece as DCSR over A's buffers: level 0 the rows base .. base + n -
/// 1 (positions [0, n) of a row list made here, freed by the caller),
/// level 1 A's positions and coordinates, A's values (written in place).
static Value assemblePiece(OpBuilder &b, Location loc, const SddmmShape &s,
                           Value pos, Value crd, Value vals, Value n,
                           Value base, Value &rowList) {
  MLIRContext *ctx = b.getContext();
  auto enc = s.matrix.getEncoding();
  Type posElt = sparseIndexElt(ctx, enc.getPosWidth());
  Type crdElt = sparseIndexElt(ctx, enc.getCrdWidth());
  auto cast = [&](Type t, Value v) -> Value {
    return t.isIndex() ? v : arith::IndexCastOp::create(b, loc, t, v).getResult();
  };
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto pos0 = memref::AllocaOp::create(b, loc, MemRefType::get({2}, posElt));
  memref::StoreOp::create(b, loc, cast(posElt, c0), pos0, ValueRange{c0});
  memref::StoreOp::create(b, loc, cast(posElt, n), pos0, ValueRange{c1});
  rowList = memref::AllocOp::create(b, loc, flatMemRef(crdElt), ValueRange{n});
  scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                     [&](OpBuilder &fb, Location l, Value r, ValueRange) {
                       Value g = arith::AddIOp::create(fb, l, r, base);
                       Value gv = crdElt.isIndex()
                                      ? g
                                      : arith::IndexCastOp::create(fb, l,
                                                                   crdElt, g)
                                            .getResult();
                       memref::StoreOp::create(fb, l, gv, rowList,
                                               ValueRange{r});
                       scf::YieldOp::create(fb, l);
                     });
  // Every level writable (though only the values are written): the
  // sparsifier then updates the assembled tensor in place, without copies.
  SmallVector<Value> levels{memrefAsTensor(b, loc, pos0, true),
                            memrefAsTensor(b, loc, rowList, true),
                            memrefAsTensor(b, loc, pos, true),
                            memrefAsTensor(b, loc, crd, true)};
  auto type = RankedTensorType::get({s.rows, s.cols},
                                    s.matrix.getElementType(),
                                    dcsrEncoding(ctx, enc));
  return sparse_tensor::AssembleOp::create(b, loc, type, levels,
                                           memrefAsTensor(b, loc, vals, true));
}

/// The leaf's body: A.vals = (C * D sampled at B's pattern) .* B.vals.
static void buildSddmmBody(OpBuilder &b, Location loc, func::FuncOp f,
                           const SddmmShape &s) {
  MLIRContext *ctx = b.getContext();
  Type elt = s.matrix.getElementType();
  Block &entry = f.getBody().front();
  Value pos = entry.getArgument(0), crd = entry.getArgument(1),
        aval = entry.getArgument(2), bval = entry.getArgument(3),
        n = entry.getArgument(4), base = entry.getArgument(5),
        c = entry.getArgument(6), d = entry.getArgument(7);
  Value rowList;
  Value x = assemblePiece(b, loc, s, pos, crd, aval, n, base, rowList);
  // D (k x cols) transposed, so that the sum over k reads rows of both.
  Value dt = memref::AllocOp::create(
      b, loc, MemRefType::get({s.cols, s.k}, elt));
  linalg::TransposeOp::create(b, loc, view2d(b, loc, d, s.k, s.cols), dt,
                              ArrayRef<int64_t>{1, 0});
  Value tc = memrefAsTensor(b, loc, view2d(b, loc, c, s.rows, s.k), false);
  Value tdt = memrefAsTensor(b, loc, dt, false);

  AffineExpr i, j, kk;
  bindDims(ctx, i, j, kk);
  SmallVector<AffineMap> maps{AffineMap::get(3, 0, {i, kk}, ctx),
                              AffineMap::get(3, 0, {j, kk}, ctx),
                              AffineMap::get(3, 0, {i, j}, ctx)};
  SmallVector<utils::IteratorType> iters{utils::IteratorType::parallel,
                                         utils::IteratorType::parallel,
                                         utils::IteratorType::reduction};
  Value zero = arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{x.getType()}, ValueRange{tc, tdt}, ValueRange{x}, maps,
      iters, [&](OpBuilder &gb, Location l, ValueRange args) {
        // Only where A (B's pattern) has an entry: the product of the
        // k-th terms, summed over k.
        auto unary = sparse_tensor::UnaryOp::create(gb, l, elt, args[2]);
        {
          OpBuilder::InsertionGuard guard(gb);
          Block *present = gb.createBlock(&unary.getPresentRegion(), {},
                                          {elt}, {l});
          gb.setInsertionPointToStart(present);
          Value m = arith::MulFOp::create(gb, l, args[0], args[1]);
          sparse_tensor::YieldOp::create(gb, l, m);
        } // absent: empty, so only A's entries are computed
        auto reduce = sparse_tensor::ReduceOp::create(gb, l, args[2],
                                                      unary.getResult(), zero);
        {
          OpBuilder::InsertionGuard guard(gb);
          Block *body = gb.createBlock(&reduce.getRegion(), {}, {elt, elt},
                                       {l, l});
          gb.setInsertionPointToStart(body);
          Value sum = arith::AddFOp::create(gb, l, body->getArgument(0),
                                            body->getArgument(1));
          sparse_tensor::YieldOp::create(gb, l, sum);
        }
        linalg::YieldOp::create(gb, l, reduce.getResult());
      });
  // The sums (A's values buffer, updated in place), times B's values.
  Value sums = sparse_tensor::ToValuesOp::create(b, loc, flatMemRef(elt),
                                                 generic.getResult(0));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value nnz = memref::DimOp::create(b, loc, aval, 0);
  scf::ForOp::create(b, loc, c0, nnz, c1, ValueRange{},
                     [&](OpBuilder &fb, Location l, Value p, ValueRange) {
                       Value sv = memref::LoadOp::create(fb, l, sums, p);
                       Value bv = memref::LoadOp::create(fb, l, bval, p);
                       Value prod = arith::MulFOp::create(fb, l, sv, bv);
                       memref::StoreOp::create(fb, l, prod, aval, p);
                       scf::YieldOp::create(fb, l);
                     });
  memref::DeallocOp::create(b, loc, dt);
  memref::DeallocOp::create(b, loc, rowList);
  func::ReturnOp::create(b, loc);
}

/// The SDDMM leaf of shape `s` (created once per module).
static func::FuncOp getOrCreateSddmmLeaf(ModuleOp module, Location loc,
                                         const SddmmShape &s) {
  auto enc = s.matrix.getEncoding();
  Type elt = s.matrix.getElementType();
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_sddmm_" << s.rows << "x" << s.cols << "_k" << s.k << "_p"
     << enc.getPosWidth() << "_c" << enc.getCrdWidth() << "_" << elt;
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type index = IndexType::get(ctx);
  SmallVector<Type> args{flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
                         flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
                         flatMemRef(elt),
                         flatMemRef(elt),
                         index,
                         index,
                         flatMemRef(elt),
                         flatMemRef(elt)};
  auto f = func::FuncOp::create(b, loc, name, FunctionType::get(ctx, args, {}));
  f.setPrivate();
  // The sum over k may be reassociated (dist-reassociate-leaves), so that
  // the backend splits it over vector lanes.
  f->setAttr(kReassociateAttr, UnitAttr::get(ctx));
  OpBuilder fb = OpBuilder::atBlockBegin(f.addEntryBlock());
  buildSddmmBody(fb, loc, f, s);
  return f;
}

LogicalResult spmd::lowerSparseSddmm(SPMDBuilder &rt, ComputeOp op,
                                     const SparseProduct &prod,
                                     llvm::StringMap<DistTensorType> &types,
                                     llvm::StringMap<Value> &values,
                                     int64_t procs) {
  Location loc = op.getLoc();
  if (rt.options.deviceTiles)
    return op.emitOpError("sparse computation cannot be lowered: SDDMM on "
                          "device tiles is not supported yet (run it on the "
                          "host: --backend mpi)");
  DistTensorType bt = types[prod.matrix];
  Value hb = rt.tileOf(op, values[prod.matrix]);
  Value ha = rt.tileOf(op, values[prod.out]);
  Value c = rt.tileOf(op, values[prod.dense]);
  Value d = rt.tileOf(op, values[prod.dense2]);
  if (!hb || !ha || !c || !d)
    return failure();
  if (ha == hb || c == d)
    return op.emitOpError("sparse computation cannot be lowered: the "
                          "tensors of an SDDMM must be different tensors");
  OpBuilder b(op);
  MLIRContext *ctx = b.getContext();
  int64_t rows = bt.getShape()[0], cols = bt.getShape()[1];
  SparsePatternOfOp::create(b, loc, ha, hb);
  Type crdElt = sparseIndexElt(ctx, bt.getEncoding().getCrdWidth());
  auto local = SparseLocalRowsOp::create(b, loc, flatMemRef(crdElt),
                                         b.getIndexType(), b.getIndexType(),
                                         hb, bt);
  SparsePartOp a = makeSparsePart(b, loc, ha, SparsePart::all, bt);
  SparsePartOp bp = makeSparsePart(b, loc, hb, SparsePart::all, bt);
  // C blocked like B's rows: the process's block, rows from 0; replicated:
  // the whole of C, rows numbered globally.
  SddmmShape shape{bt, prod.denseReplicated ? rows : (rows + procs - 1) / procs,
                   cols, prod.cols};
  Value base = prod.denseReplicated ? local.getFirst() : rt.idx(b, loc, 0);
  func::FuncOp leaf = getOrCreateSddmmLeaf(rt.module, loc, shape);
  func::CallOp::create(b, loc, leaf,
                       ValueRange{a.getPos(), a.getCrd(), a.getValues(),
                                  bp.getValues(), local.getNrows(), base, c,
                                  d});
  return success();
}
