//===- SparseAdd.cpp - sums of sparse matrices to SPMD code -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute of a sum of sparse matrices, `A(i,j) = B(i,j) + C(i,j)
// [+ D(i,j)]` (SpDISTAL's SpAdd3; SparseCompute.h says which), all CSR of
// one type with their rows blocked, becomes on every process:
//
//   room for A's entries: at most the terms' entries together
//     %pos, %crd, %val = dist.sparse_reserve A like B capacity %n
//   %k = call @__dist_sparse_add...(B's, C's [, D's] pos / crd / values,
//                                   %pos, %crd, %val)
//   dist.sparse_commit A count %k
//
// No communication: the processes hold the same rows of every term. The
// leaf is a linalg.generic adding the terms into a new sparse tensor
// (tensor.empty with the CSR encoding): the upstream sparsifier co-iterates
// the terms' rows (their union) and inserts the sums in order, then
// sparse_tensor.disassemble copies the result's positions, coordinates and
// values into A's reserved room and gives the count.
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"
#include "SparseLeaves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;


/// The leaf's body: arguments (pos, crd, values) of each of the `terms`
/// terms, then A's room (pos, crd, values); returns A's entry count.
static void buildAddBody(OpBuilder &b, Location loc, func::FuncOp f,
                         RankedTensorType csr, unsigned terms) {
  MLIRContext *ctx = b.getContext();
  Block &entry = f.getBody().front();
  SmallVector<Value> ins;
  for (unsigned t = 0; t < terms; ++t) {
    SmallVector<Value> levels{memrefAsTensor(b, loc, entry.getArgument(3 * t), false),
                              memrefAsTensor(b, loc, entry.getArgument(3 * t + 1),
                                       false)};
    ins.push_back(sparse_tensor::AssembleOp::create(
        b, loc, csr, levels,
        memrefAsTensor(b, loc, entry.getArgument(3 * t + 2), false)));
  }
  Value empty = tensor::EmptyOp::create(b, loc, csr, ValueRange{});
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  SmallVector<AffineMap> maps(terms + 1, id);
  SmallVector<utils::IteratorType> iters(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{csr}, ins, ValueRange{empty}, maps, iters,
      [&](OpBuilder &gb, Location l, ValueRange args) {
        Value sum = args[0];
        for (unsigned t = 1; t < terms; ++t)
          sum = arith::AddFOp::create(gb, l, sum, args[t]);
        linalg::YieldOp::create(gb, l, sum);
      });
  Value ap = entry.getArgument(3 * terms),
        ac = entry.getArgument(3 * terms + 1),
        av = entry.getArgument(3 * terms + 2);
  SmallVector<Value> outLevels{memrefAsTensor(b, loc, ap, true),
                               memrefAsTensor(b, loc, ac, true)};
  Value outVals = memrefAsTensor(b, loc, av, true);
  Type index = IndexType::get(ctx);
  auto dis = sparse_tensor::DisassembleOp::create(
      b, loc, TypeRange{outLevels[0].getType(), outLevels[1].getType()},
      outVals.getType(), TypeRange{index, index}, index, generic.getResult(0),
      outLevels, outVals);
  for (auto [res, dest] : llvm::zip(
           SmallVector<Value>{dis.getRetLevels()[0], dis.getRetLevels()[1],
                              dis.getRetValues()},
           SmallVector<Value>{ap, ac, av})) {
    auto mat =
        bufferization::MaterializeInDestinationOp::create(b, loc, res, dest);
    mat.setRestrict(true);
    mat.setWritable(true);
  }
  // The sum's own buffers (grown while inserting) are freed once copied.
  bufferization::DeallocTensorOp::create(b, loc, generic.getResult(0));
  func::ReturnOp::create(b, loc, dis.getValLen());
}

/// The sum leaf of `terms` terms of `matrix`'s type, `rows` x `cols` pieces
/// (created once per module).
static func::FuncOp getOrCreateAddLeaf(ModuleOp module, Location loc,
                                       DistTensorType matrix, int64_t rows,
                                       unsigned terms) {
  auto enc = matrix.getEncoding();
  Type elt = matrix.getElementType();
  int64_t cols = matrix.getShape()[1];
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "__dist_sparse_add" << terms << "_" << rows << "x" << cols << "_p"
     << enc.getPosWidth() << "_c" << enc.getCrdWidth() << "_" << elt;
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Type> args;
  for (unsigned t = 0; t <= terms; ++t)
    args.append({flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
                 flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
                 flatMemRef(elt)});
  auto f = func::FuncOp::create(
      b, loc, name, FunctionType::get(ctx, args, {IndexType::get(ctx)}));
  f.setPrivate();
  OpBuilder fb = OpBuilder::atBlockBegin(f.addEntryBlock());
  // The pieces' static extent: ceil(rows / P) rows (the row partition's
  // pos has one more entry), the matrix's columns.
  auto csr = RankedTensorType::get({rows, cols}, elt, enc);
  buildAddBody(fb, loc, f, csr, terms);
  return f;
}

LogicalResult spmd::lowerSparseAdd(SPMDBuilder &rt, ComputeOp op,
                                   const SparseProduct &prod,
                                   llvm::StringMap<DistTensorType> &types,
                                   llvm::StringMap<Value> &values,
                                   int64_t procs) {
  Location loc = op.getLoc();
  if (rt.options.deviceTiles)
    return op.emitOpError("sparse computation cannot be lowered: a sum of "
                          "sparse matrices on device tiles is not supported "
                          "yet (run it on the host: --backend mpi)");
  DistTensorType at = types[prod.out];
  Value ha = rt.tileOf(op, values[prod.out]);
  SmallVector<Value> hs;
  for (const std::string &t : prod.addends)
    hs.push_back(rt.tileOf(op, values[t]));
  if (!ha || llvm::is_contained(hs, Value()))
    return failure();
  for (unsigned i = 0; i < hs.size(); ++i)
    for (unsigned j = 0; j <= i; ++j)
      if ((j < i && hs[i] == hs[j]) || hs[i] == ha)
        return op.emitOpError("sparse computation cannot be lowered: the "
                              "tensors of a sum of sparse matrices must be "
                              "different tensors");
  OpBuilder b(op);
  SmallVector<Value> args;
  Value cap = rt.idx(b, loc, 0);
  for (Value h : hs) {
    SparsePartOp p = makeSparsePart(b, loc, h, SparsePart::all, at);
    args.append({p.getPos(), p.getCrd(), p.getValues()});
    cap = arith::AddIOp::create(b, loc, cap,
                                memref::DimOp::create(b, loc, p.getCrd(), 0));
  }
  MLIRContext *ctx = b.getContext();
  auto enc = at.getEncoding();
  auto room = SparseReserveOp::create(
      b, loc, flatMemRef(sparseIndexElt(ctx, enc.getPosWidth())),
      flatMemRef(sparseIndexElt(ctx, enc.getCrdWidth())),
      flatMemRef(at.getElementType()), ha, hs.front(), cap);
  args.append({room.getPos(), room.getCrd(), room.getValues()});
  int64_t rows = (at.getShape()[0] + procs - 1) / procs;
  func::FuncOp leaf =
      getOrCreateAddLeaf(rt.module, loc, at, rows, hs.size());
  auto call = func::CallOp::create(b, loc, leaf, args);
  SparseCommitOp::create(b, loc, ha, call.getResult(0));
  return success();
}
