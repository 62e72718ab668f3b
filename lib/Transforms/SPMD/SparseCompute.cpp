//===- SparseCompute.cpp - sparse products to SPMD code ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute of a sparse product Y(i[,k]) (+)= B(i,j) * X(j[,k])
// (SparseCompute.h says which) becomes, on every process:
//
//   X replicated:  Y_local (+)= B_local * X, B_local with global columns
//                  (dist.sparse_part all);
//   X blocked, every process on one node (dist.sparse_share_x decides at
//                  run time): X whole in node-shared memory, each process
//                  copying its block in; Y_local (+)= B_local * X with
//                  global columns, reading X in place;
//   B stored in one partition and scheduled by the other (SpDISTAL's mixed
//                  partitions): B's entries in the schedule's partition
//                  (dist.sparse_in_partition, made once per entries), then
//                  as for that partition;
//   B scheduled by non-zeros (SpDISTAL's coordinate fusion): as
//                  below (or with X replicated, the ALL part), every part
//                  multiplied as compressed rows, the rows of the
//                  process's own block of Y into Y, the others into
//                  partial sums (dist.sparse_row_targets,
//                  dist.sparse_partial), which dist.sparse_reduce_rows
//                  adds into their owners' blocks;
//   X blocked, otherwise: the exchange plan of B (dist.sparse_plan, built
//                  once per matrix), then PETSc MPIAIJ's overlap:
//                    start sending the rows of X others need
//                      (dist.sparse_exchange_begin),
//                    Y_local (+)= B_diag * X_local,
//                    wait (dist.sparse_exchange_end),
//                    Y_local += B_offdiag * ghosts.
//
// Each local product is a call of a leaf function: a linalg.generic on a
// sparse_tensor-encoded CSR operand assembled from the part's buffers,
// which the upstream sparsifier compiles (sparsification-and-bufferization
// in dist-to-llvm). One leaf per shape, element type and index widths.
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"
#include "SparseLeaves.h"

#include "DistTensor/Transforms/Passes.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

namespace {

/// The static description of one leaf function.
struct LeafShape {
  DistTensorType matrix;
  /// Rows of every process's piece (ceil(rows / P)); for compressed rows
  /// a bound of the row ids (the matrix's rows for a non-zero partition).
  int64_t rows;
  /// Static column extent of the assembled CSR operand (an upper bound of
  /// the part's column numbers).
  int64_t cols;
  /// Columns of X and Y (SpMM), or 0 for SpMV.
  int64_t k;
  /// Whether the part comes as compressed rows (DCSR: only the rows that
  /// hold entries; the offdiag part, dist.sparse_offdiag_rows).
  bool compressedRows = false;
  /// Whether the leaf sets Y (`=`, every row of it) instead of adding to
  /// it: dist-overwrite-leaves makes it so after the sparsifier.
  bool overwrite = false;
};

} // namespace

static Type indexElt(MLIRContext *ctx, unsigned w) {
  return sparseIndexElt(ctx, w);
}

static MemRefType flat(Type elt) { return flatMemRef(elt); }

/// A 2-D row-major view (rows x k) of a flat buffer.
static Value view2d(OpBuilder &b, Location loc, Value flatBuf, Value rows,
                    int64_t rowsStatic, int64_t k) {
  auto elt = cast<MemRefType>(flatBuf.getType()).getElementType();
  auto type = MemRefType::get({rowsStatic, k}, elt);
  SmallVector<OpFoldResult> sizes{
      rowsStatic == ShapedType::kDynamic ? OpFoldResult(rows)
                                         : OpFoldResult(b.getIndexAttr(
                                               rowsStatic)),
      b.getIndexAttr(k)};
  return memref::ReinterpretCastOp::create(
      b, loc, type, flatBuf, b.getIndexAttr(0), sizes,
      ArrayRef<OpFoldResult>{b.getIndexAttr(k), b.getIndexAttr(1)});
}

/// The body of the leaf: Y (+)= B * X with B assembled from (pos, crd,
/// values); always accumulates into Y (the caller zeroes it for '=', or
/// the leaf is marked to set it: LeafShape::overwrite).
static void buildLeafBody(OpBuilder &b, Location loc, func::FuncOp f,
                          const LeafShape &s) {
  MLIRContext *ctx = b.getContext();
  auto enc = s.matrix.getEncoding();
  Type elt = s.matrix.getElementType();
  Block &entry = f.getBody().front();
  Value pos = entry.getArgument(0), crd = entry.getArgument(1),
        val = entry.getArgument(2), x = entry.getArgument(3),
        xRows = entry.getArgument(4), y = entry.getArgument(5);
  auto toTensor = [&](Value m, bool writable) {
    auto mt = cast<MemRefType>(m.getType());
    auto tt = RankedTensorType::get(mt.getShape(), mt.getElementType());
    return bufferization::ToTensorOp::create(b, loc, tt, m,
                                             /*restrict=*/true, writable);
  };
  Value tp = toTensor(pos, false), tc = toTensor(crd, false),
        tv = toTensor(val, false);
  SmallVector<Value> levels{tp, tc};
  if (s.compressedRows) {
    // DCSR: level 0 holds the rows with entries, positions [begin, end)
    // of `rows` (the row numbers: where in Y each sum goes); level 1 the
    // part's positions (one per such row) and coordinates.
    Value rows = entry.getArgument(6), begin = entry.getArgument(7),
          end = entry.getArgument(8);
    Type posElt = indexElt(ctx, enc.getPosWidth());
    auto pos0 = memref::AllocaOp::create(b, loc, MemRefType::get({2}, posElt));
    auto asPos = [&](Value v) -> Value {
      return posElt.isIndex()
                 ? v
                 : arith::IndexCastOp::create(b, loc, posElt, v).getResult();
    };
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    memref::StoreOp::create(b, loc, asPos(begin), pos0, ValueRange{c0});
    memref::StoreOp::create(b, loc, asPos(end), pos0, ValueRange{c1});
    levels = {toTensor(pos0, false), toTensor(rows, false), tp, tc};
    enc = dcsrEncoding(ctx, enc);
  }
  auto csrType = RankedTensorType::get({s.rows, s.cols}, elt, enc);
  Value csr =
      sparse_tensor::AssembleOp::create(b, loc, csrType, levels, tv);
  Value xv = x, yv = y;
  if (s.k) {
    xv = view2d(b, loc, x, xRows, ShapedType::kDynamic, s.k);
    if (s.compressedRows) {
      // Y has as many rows as its buffer holds (the process's block, or
      // the partial sums of its rows); s.rows only bounds the row ids.
      Value len = memref::DimOp::create(b, loc, y, 0);
      Value rows = arith::DivUIOp::create(
          b, loc, len, arith::ConstantIndexOp::create(b, loc, s.k));
      yv = view2d(b, loc, y, rows, ShapedType::kDynamic, s.k);
    } else {
      yv = view2d(b, loc, y, Value(), s.rows, s.k);
    }
  }
  Value tx = toTensor(xv, false), ty = toTensor(yv, true);

  AffineExpr i, j, kk;
  bindDims(ctx, i, j, kk);
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iters;
  if (s.k) {
    maps = {AffineMap::get(3, 0, {i, j}, ctx), AffineMap::get(3, 0, {j, kk}, ctx),
            AffineMap::get(3, 0, {i, kk}, ctx)};
    iters = {utils::IteratorType::parallel, utils::IteratorType::reduction,
             utils::IteratorType::parallel};
  } else {
    maps = {AffineMap::get(2, 0, {i, j}, ctx), AffineMap::get(2, 0, {j}, ctx),
            AffineMap::get(2, 0, {i}, ctx)};
    iters = {utils::IteratorType::parallel, utils::IteratorType::reduction};
  }
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{ty.getType()}, ValueRange{csr, tx}, ValueRange{ty},
      maps, iters, [&](OpBuilder &gb, Location l, ValueRange args) {
        Value m = arith::MulFOp::create(gb, l, args[0], args[1]);
        Value a = arith::AddFOp::create(gb, l, args[2], m);
        linalg::YieldOp::create(gb, l, a);
      });
  auto mat = bufferization::MaterializeInDestinationOp::create(
      b, loc, generic.getResult(0), yv);
  mat.setRestrict(true);
  mat.setWritable(true);
  func::ReturnOp::create(b, loc);
}

/// The leaf function of shape `s` (created once per module).
static func::FuncOp getOrCreateLeaf(ModuleOp module, Location loc,
                                    const LeafShape &s) {
  auto enc = s.matrix.getEncoding();
  Type elt = s.matrix.getElementType();
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_sparse_" << (s.k ? "spmm" : "spmv") << "_" << s.rows << "x"
     << s.cols << "_k" << s.k << "_p" << enc.getPosWidth() << "_c"
     << enc.getCrdWidth() << "_" << elt << (s.compressedRows ? "_dcsr" : "")
     << (s.overwrite ? "_set" : "");
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type index = IndexType::get(ctx);
  SmallVector<Type> args{flat(indexElt(ctx, enc.getPosWidth())),
                         flat(indexElt(ctx, enc.getCrdWidth())),
                         flat(elt),
                         flat(elt),
                         index,
                         flat(elt)};
  if (s.compressedRows) // the row numbers and the range of them to run
    args.append({flat(indexElt(ctx, enc.getCrdWidth())), index, index});
  auto type = FunctionType::get(ctx, args, {});
  auto f = func::FuncOp::create(b, loc, name, type);
  f.setPrivate();
  // A row's sum may be reassociated (dist-reassociate-leaves sets the flags
  // after the sparsifier, which drops them from the body).
  f->setAttr(kReassociateAttr, UnitAttr::get(ctx));
  // Its gathered row sums a vector at a time (measured faster for these
  // leaves only: docs/sparse.md, "Leaf code").
  f->setAttr(kVectorizeGathersAttr, UnitAttr::get(ctx));
  // Y (argument 5) is the output block or a buffer of partial sums, which
  // no other argument reaches (the caller checks that X is not Y).
  markRestrict(f, {5});
  if (s.overwrite) // Y is argument 5
    f->setAttr(kOverwriteAttr, IntegerAttr::get(IntegerType::get(ctx, 64), 5));
  OpBuilder fb = OpBuilder::atBlockBegin(f.addEntryBlock());
  buildLeafBody(fb, loc, f, s);
  return f;
}

static SparsePartOp makePart(OpBuilder &b, Location loc, Value handle,
                             SparsePart part, DistTensorType matrix) {
  return makeSparsePart(b, loc, handle, part, matrix);
}

/// The rows of `matrix`'s offdiag part that hold entries
/// (dist.sparse_offdiag_rows), for a compressed-rows leaf.
static SparseOffdiagRowsOp makeOffdiagRows(OpBuilder &b, Location loc,
                                           Value handle,
                                           DistTensorType matrix) {
  MLIRContext *ctx = b.getContext();
  auto enc = matrix.getEncoding();
  return SparseOffdiagRowsOp::create(
      b, loc, flat(indexElt(ctx, enc.getCrdWidth())),
      flat(indexElt(ctx, enc.getPosWidth())), b.getIndexType(), handle,
      matrix);
}

/// One local product: the leaf of `shape` on part `p`, X of `xRows` rows.
static void callLeaf(SPMDBuilder &rt, OpBuilder &b, Location loc,
                     const LeafShape &shape, SparsePartOp p, Value x,
                     Value xRows, Value y) {
  func::FuncOp leaf = getOrCreateLeaf(rt.module, loc, shape);
  func::CallOp::create(
      b, loc, leaf,
      ValueRange{p.getPos(), p.getCrd(), p.getValues(), x, xRows, y});
}

/// On one node, the whole of X in node-shared memory, read in place
/// (dist.sparse_share_x decides at run time): `onShared(all, whole)` builds
/// the product over the ALL part (global columns) in the then-branch; `b`
/// is left at the end of the else-branch, for the exchange plan.
static void branchOnSharedX(
    SPMDBuilder &rt, OpBuilder &b, Location loc, Value h, Value x,
    DistTensorType bt, int64_t k,
    function_ref<void(OpBuilder &, SparsePartOp, Value)> onShared) {
  int64_t cols = bt.getShape()[1];
  auto share = SparseShareXOp::create(b, loc, flat(bt.getElementType()),
                                      b.getI1Type(), h, x,
                                      rt.idx(b, loc, cols), k);
  auto ifShared = scf::IfOp::create(b, loc, share.getShared(),
                                    /*withElseRegion=*/true);
  b.setInsertionPoint(ifShared.thenBlock()->getTerminator());
  onShared(b, makePart(b, loc, h, SparsePart::all, bt), share.getWhole());
  b.setInsertionPoint(ifShared.elseBlock()->getTerminator());
}

/// `t` with its rows blocked, or its entries split by non-zeros.
static DistTensorType withPartition(DistTensorType t, bool nonzeros) {
  MLIRContext *ctx = t.getContext();
  LevelLayoutAttr level = t.getLayout().getOuter();
  SmallVector<DimDistAttr> dims(level.getDims());
  dims[0] = DimDistAttr::get(ctx, dims[0].getAxes(),
                             nonzeros ? PartitionKind::nonzeros
                                      : PartitionKind::blocked,
                             0);
  auto layout = LayoutAttr::get(
      ctx, t.getLayout().getGrid(),
      {LevelLayoutAttr::get(ctx, dims, level.getFixedAxes(),
                            level.getFixedCoords())});
  return DistTensorType::get(ctx, t.getShape(), t.getElementType(), layout,
                             t.getEncoding());
}

/// A product scheduled by non-zeros: every part of the process's piece
/// (its rows, the first and last possibly shared with its neighbours) is
/// multiplied as compressed rows in three runs (dist.sparse_row_targets):
/// the rows of the process's own output block straight into Y, the rows
/// before and after them into the partial sums, which
/// dist.sparse_reduce_rows adds into their owners' blocks of Y. With X
/// blocked, on one node (dist.sparse_share_x) the ALL part reads the whole
/// of X in shared memory; otherwise the diag part overlaps the exchange of
/// X and the offdiag part follows.
static LogicalResult lowerNonzeroProduct(SPMDBuilder &rt, OpBuilder &b,
                                         Location loc,
                                         const SparseProduct &prod,
                                         DistTensorType bt, Value h, Value x,
                                         Value y, int64_t procs) {
  MLIRContext *ctx = b.getContext();
  int64_t rows = bt.getShape()[0], cols = bt.getShape()[1];
  int64_t k = prod.denseIsMatrix ? prod.cols : 1;
  Type crdElt = indexElt(ctx, bt.getEncoding().getCrdWidth());
  auto local = SparseLocalRowsOp::create(b, loc, flat(crdElt),
                                         b.getIndexType(), b.getIndexType(),
                                         h, bt);
  auto partialOp = SparsePartialOp::create(
      b, loc, flat(bt.getElementType()), h, local.getNrows(), k);
  partialOp.setForeign(true);
  Value partial = partialOp.getBuffer();
  // Row ids are below the piece's row count or the block's, at most the
  // matrix's rows.
  LeafShape shape{bt, rows, cols, prod.denseIsMatrix ? prod.cols : 0,
                  /*compressedRows=*/true};
  // The three runs of one part (pos, crd, val over `targets`).
  auto callRuns = [&](const LeafShape &s, SparsePart part, Value pos,
                      Value crd, Value val, Value xBuf, Value xRows) {
    auto t = SparseRowTargetsOp::create(b, loc, flat(crdElt),
                                        b.getIndexType(), b.getIndexType(),
                                        b.getIndexType(), h, part, bt);
    func::FuncOp leaf = getOrCreateLeaf(rt.module, loc, s);
    Value c0 = rt.idx(b, loc, 0);
    auto run = [&](Value out, Value begin, Value end) {
      func::CallOp::create(b, loc, leaf,
                           ValueRange{pos, crd, val, xBuf, xRows, out,
                                      t.getTargets(), begin, end});
    };
    run(partial, c0, t.getOwnBegin());
    run(y, t.getOwnBegin(), t.getOwnEnd());
    run(partial, t.getOwnEnd(), t.getCount());
  };
  if (prod.denseReplicated) {
    SparsePartOp all = makePart(b, loc, h, SparsePart::all, bt);
    callRuns(shape, SparsePart::all, all.getPos(), all.getCrd(),
             all.getValues(), x, rt.idx(b, loc, cols));
  } else {
    // On one node the ALL part in one go (as for rows blocked); otherwise
    // the exchange.
    OpBuilder::InsertionGuard guard(b);
    branchOnSharedX(rt, b, loc, h, x, bt, k,
                    [&](OpBuilder &, SparsePartOp all, Value whole) {
                      callRuns(shape, SparsePart::all, all.getPos(),
                               all.getCrd(), all.getValues(), whole,
                               rt.idx(b, loc, cols));
                    });
    SparsePlanOp::create(b, loc, h);
    SparsePartOp off = makePart(b, loc, h, SparsePart::offdiag, bt);
    Value ghosts = SparseExchangeBeginOp::create(
        b, loc, flat(bt.getElementType()), h, x, off.getNcols(), k);
    LeafShape diagShape = shape;
    diagShape.cols = (cols + procs - 1) / procs;
    SparsePartOp diag = makePart(b, loc, h, SparsePart::diag, bt);
    callRuns(diagShape, SparsePart::diag, diag.getPos(), diag.getCrd(),
             diag.getValues(), x, diag.getNcols());
    SparseExchangeEndOp::create(b, loc, h);
    SparseOffdiagRowsOp nonEmpty = makeOffdiagRows(b, loc, h, bt);
    callRuns(shape, SparsePart::offdiag, nonEmpty.getPos(), off.getCrd(),
             off.getValues(), ghosts, off.getNcols());
  }
  auto reduce = SparseReduceRowsOp::create(b, loc, h, partial, y, k);
  reduce.setForeign(true);
  return success();
}

LogicalResult spmd::lowerSparseCompute(SPMDBuilder &rt, ComputeOp op) {
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  if (failed(nest))
    return failure();
  const IndexStatement &stmt = nest->getStatement();
  llvm::StringMap<DistTensorType> types;
  llvm::StringMap<Value> values;
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors())) {
    StringRef name = cast<StringAttr>(n).getValue();
    types[name] = cast<DistTensorType>(v.getType());
    values[name] = v;
  }
  FlatSymbolRefAttr gridRef = types[stmt.lhs.tensor].getLayout().getGrid();
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, gridRef);
  std::string why;
  FailureOr<SparseProduct> prod =
      grid ? matchSparseProduct(stmt, types, nest->nest, grid.getShape(), why)
           : FailureOr<SparseProduct>(failure());
  if (failed(prod))
    return op.emitOpError("sparse computation cannot be lowered: ")
           << (grid ? why : "its grid is not in scope");
  for (auto &[name, t] : types)
    if (failed(rt.checkTensorType(op, t, /*allowSparse=*/true)))
      return failure();

  if (prod->kind == SparseKernel::Sddmm)
    return lowerSparseSddmm(rt, op, *prod, types, values,
                            grid.getShape()[0]);
  if (prod->kind == SparseKernel::Add)
    return lowerSparseAdd(rt, op, *prod, types, values, grid.getShape()[0]);
  if (prod->kind == SparseKernel::Ttv || prod->kind == SparseKernel::Mttkrp)
    return lowerSparseTensor3(rt, op, *prod, stmt, types, values);
  Location loc = op.getLoc();
  OpBuilder b(op);
  DistTensorType bt = types[prod->matrix], yt = types[prod->out];
  Value h = rt.tileOf(op, values[prod->matrix]);
  Value x = rt.tileOf(op, values[prod->dense]);
  Value y = rt.tileOf(op, values[prod->out]);
  if (!h || !x || !y)
    return failure();
  if (y == x)
    return op.emitOpError("sparse computation cannot be lowered: the "
                          "output and the dense operand are one tensor");
  // Two parameters of the enclosing function of one type may still be one
  // tensor; the leaf's output is marked restrict (dist-restrict-leaves),
  // so this is checked before anything runs.
  if (types[prod->dense] == yt)
    CheckDistinctOp::create(b, loc, y, x, prod->dense,
                            runtimeWhere(loc, stmt));
  // '=': the output is zeroed first, except where the first leaf covers
  // every row of the process's block and sets it (rows blocked, host).
  auto zeroOutput = [&] {
    if (!stmt.accumulate)
      ZeroTileOp::create(b, loc, y, TypeAttr::get(yt));
  };

  // Device tiles: the runtime runs the whole product (cuSPARSE on the
  // NCCL backend); the sparsifier's leaves would be host code.
  int64_t xcols = prod->denseIsMatrix ? prod->cols : 1;
  if (rt.options.deviceTiles && (prod->nonzeros || prod->storedNonzeros))
    return op.emitOpError("sparse computation cannot be lowered: a matrix "
                          "stored or scheduled with a non-zero partition ('")
           << prod->matrix
           << "') on device tiles is not supported yet (store it with "
              "its rows blocked, \"xy -> x\", and distribute the rows)";
  // A mixed partition: the product runs on B's entries in the schedule's
  // partition, which the runtime makes once per entries.
  if (prod->nonzeros != prod->storedNonzeros) {
    h = SparseInPartitionOp::create(b, loc, h.getType(), h, prod->nonzeros);
    bt = withPartition(bt, prod->nonzeros);
  }
  if (rt.options.deviceTiles) {
    zeroOutput();
    auto mul = SparseMulAddOp::create(b, loc, h, x, y, xcols);
    if (prod->denseReplicated)
      mul.setXWhole(true);
    return success();
  }
  if (prod->nonzeros) {
    zeroOutput();
    return lowerNonzeroProduct(rt, b, loc, *prod, bt, h, x, y,
                               grid.getShape()[0]);
  }
  int64_t procs = grid.getShape()[0];
  int64_t rows = bt.getShape()[0], cols = bt.getShape()[1];
  LeafShape shape{bt, (rows + procs - 1) / procs, cols,
                  prod->denseIsMatrix ? prod->cols : 0};
  // The first leaf (ALL, or DIAG before the offdiag part adds its sums)
  // runs over every row of the block.
  LeafShape first = shape;
  first.overwrite = !stmt.accumulate;
  if (prod->denseReplicated) {
    SparsePartOp all = makePart(b, loc, h, SparsePart::all, bt);
    callLeaf(rt, b, loc, first, all, x, rt.idx(b, loc, cols), y);
    return success();
  }
  branchOnSharedX(rt, b, loc, h, x, bt, xcols,
                  [&](OpBuilder &tb, SparsePartOp all, Value whole) {
                    callLeaf(rt, tb, loc, first, all, whole,
                             rt.idx(tb, loc, cols), y);
                  });
  SparsePlanOp::create(b, loc, h);
  SparsePartOp off = makePart(b, loc, h, SparsePart::offdiag, bt);
  Value ghosts = SparseExchangeBeginOp::create(
      b, loc, flat(bt.getElementType()), h, x, off.getNcols(), xcols);
  LeafShape diagShape = first;
  diagShape.cols = (cols + procs - 1) / procs;
  SparsePartOp diag = makePart(b, loc, h, SparsePart::diag, bt);
  callLeaf(rt, b, loc, diagShape, diag, x, diag.getNcols(), y);
  SparseExchangeEndOp::create(b, loc, h);
  // The offdiag product over the rows that hold ghosts only.
  SparseOffdiagRowsOp nonEmpty = makeOffdiagRows(b, loc, h, bt);
  LeafShape offShape = shape;
  offShape.compressedRows = true;
  func::FuncOp leaf = getOrCreateLeaf(rt.module, loc, offShape);
  func::CallOp::create(b, loc, leaf,
                       ValueRange{nonEmpty.getPos(), off.getCrd(), off.getValues(),
                                  ghosts, off.getNcols(), y, nonEmpty.getRows(),
                                  rt.idx(b, loc, 0), nonEmpty.getNrows()});
  return success();
}
