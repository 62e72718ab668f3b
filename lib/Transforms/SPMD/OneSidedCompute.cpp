//===- OneSidedCompute.cpp - one-sided products to SPMD code ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist.compute of C(i,j) (+)= A(i,k) * B(k,j), or of a contraction that
// matricizes to it (batch indices allowed), whose schedule selects the
// one-sided lowering (stationary / prefetch / offset; OneSided.h says
// which) becomes, on every process, one dist.onesided_matmul on the three
// tiles, with the matricized views' layouts (and the batch's): the runtime
// slices the layouts, gets the moving tensors' slices with MPI RMA and runs the
// local GEMMs (seed 004; docs/onesided.md).
//
//===----------------------------------------------------------------------===//

#include "SPMDLowering.h"

#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

LogicalResult spmd::lowerOneSidedCompute(SPMDBuilder &rt, ComputeOp op) {
  const CostModel &cm = rt.costModel;
  FailureOr<OneSidedProduct> prod =
      getOneSidedProduct(op, OneSidedCosts{cm.alpha, cm.beta, cm.gamma});
  if (failed(prod))
    return failure();
  Value tiles[3];
  std::string names[3] = {prod->a, prod->b, prod->c};
  for (auto [i, name] : llvm::enumerate(names)) {
    Value v = op.getTensorNamed(name);
    if (failed(rt.checkTensorType(op, cast<DistTensorType>(v.getType()))) ||
        !(tiles[i] = rt.tileOf(op, v)))
      return failure();
  }
  Location loc = op.getLoc();
  OpBuilder b(op);
  // The verifier rejects an output bound to an input's value; through
  // function parameters one tensor can still arrive under two names, which
  // only the running program sees.
  std::string where = runtimeWhere(loc, op.getStatementAttr().getStatement());
  CheckDistinctOp::create(b, loc, tiles[2], tiles[0], prod->a, where);
  CheckDistinctOp::create(b, loc, tiles[2], tiles[1], prod->b, where);
  // The tiles of a contraction that matricizes are those of its matrices
  // (the layouts OneSided.h derives), one per batch element, consecutive.
  // Dynamic extents (matrices only, OneSided.h): their values, read from
  // the tensors (dist-tensors-to-tiles makes them the function's extent
  // arguments), and the operands' names for the run-time checks.
  SmallVector<Value> extents;
  SmallVector<std::string> operandNames;
  for (auto [i, name] : llvm::enumerate(names)) {
    Value v = op.getTensorNamed(name);
    auto t = cast<DistTensorType>(v.getType());
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        extents.push_back(TensorExtentOp::create(b, loc, b.getI64Type(), v, d));
    std::string what = "'" + name + "'";
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
        what += " (argument " + std::to_string(arg.getArgNumber()) + " of @" +
                f.getSymName().str() + ")";
    operandNames.push_back(what);
  }
  auto mm = OneSidedMatmulOp::create(
      b, loc, tiles[0], tiles[1], tiles[2],
      op.getStatementAttr().getStatement().accumulate, prod->stationary,
      prod->prefetch, prod->offset, prod->matA, prod->matB, prod->matC,
      prod->batch ? TypeAttr::get(prod->batch) : TypeAttr(), extents,
      extents.empty() ? ArrayAttr()
                      : b.getStrArrayAttr(SmallVector<StringRef>(
                            operandNames.begin(), operandNames.end())));
  if (prod->chosenByModel)
    mm->setAttr("dist.stationary_chosen", b.getUnitAttr());
  return success();
}
