//===- OneSidedCompute.cpp - one-sided products to SPMD code ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute of C(i,j) (+)= A(i,k) * B(k,j) whose schedule selects the
// one-sided lowering (stationary / prefetch / offset; OneSided.h says
// which) becomes, on every process, one dist.onesided_matmul on the three
// tiles: the runtime slices the layouts, gets the moving tensors' slices
// with MPI RMA and runs the local GEMMs (seed 004; docs/onesided.md).
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"

#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

LogicalResult spmd::lowerOneSidedCompute(SPMDBuilder &rt, ComputeOp op) {
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
  std::string why = "its grid is not in scope";
  FailureOr<OneSidedProduct> prod =
      grid ? matchOneSidedProduct(stmt, types, nest->nest, grid.getShape(), why)
           : FailureOr<OneSidedProduct>(failure());
  if (failed(prod))
    return op.emitOpError("one-sided product cannot be lowered: ") << why;
  for (auto &[name, t] : types)
    if (failed(rt.checkTensorType(op, t)))
      return failure();

  Location loc = op.getLoc();
  OpBuilder b(op);
  Value a = rt.tileOf(op, values[prod->a]);
  Value bt = rt.tileOf(op, values[prod->b]);
  Value c = rt.tileOf(op, values[prod->c]);
  if (!a || !bt || !c)
    return failure();
  // The verifier rejects an output bound to an input's value; through
  // function parameters one tensor can still arrive under two names, which
  // only the running program sees.
  std::string where;
  llvm::raw_string_ostream ws(where);
  if (auto fl = loc->findInstanceOf<FileLineColLoc>())
    ws << fl.getFilename().getValue() << ":" << fl.getLine() << ":"
       << fl.getColumn() << ": ";
  stmt.print(ws);
  for (auto [name, tile] : {std::pair{&prod->a, a}, {&prod->b, bt}})
    CheckDistinctOp::create(b, loc, c, tile, *name, where);
  auto mm = OneSidedMatmulOp::create(
      b, loc, a, bt, c, stmt.accumulate, prod->stationary, prod->prefetch,
      prod->offset, types[prod->a], types[prod->b], types[prod->c]);
  if (prod->chosenByModel)
    mm->setAttr("dist.stationary_chosen", b.getUnitAttr());
  return success();
}
