//===- QExprEmitter.h - QExprs as index arithmetic --------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Emits a QExpr (DistTensor/Analysis/QuasiAffine.h: a root or a peer as a
// function of the processor's grid coordinates and the step loops' values)
// as arith operations on `index` values, so that generated code computes
// its partners from its own coordinates at run time.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_LIB_TRANSFORMS_SPMD_QEXPREMITTER_H
#define DISTTENSOR_LIB_TRANSFORMS_SPMD_QEXPREMITTER_H

#include "DistTensor/Analysis/QuasiAffine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace dist {

/// `e` as an index value; `vars[i]` is variable i (index values: the grid
/// coordinates, then the step loops' values). Comparisons and logic give 0
/// or 1; a variable out of range gives 0 (the analysis never builds one).
inline Value emitQExpr(OpBuilder &b, Location loc, const QExpr &e,
                       ArrayRef<Value> vars) {
  using Op = QExpr::Op;
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto arg = [&](unsigned i) { return emitQExpr(b, loc, e.args[i], vars); };
  auto truth = [&](Value v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, cst(0));
  };
  auto asIndex = [&](Value cond) -> Value {
    return arith::SelectOp::create(b, loc, cond, cst(1), cst(0));
  };
  auto cmp = [&](arith::CmpIPredicate pred) {
    return asIndex(arith::CmpIOp::create(b, loc, pred, arg(0), arg(1)));
  };
  switch (e.op) {
  case Op::Const:
    return cst(e.value);
  case Op::Var:
    if (e.value >= 0 && size_t(e.value) < vars.size())
      return vars[e.value];
    return cst(0);
  case Op::Neg:
    return arith::SubIOp::create(b, loc, cst(0), arg(0));
  case Op::Add:
    return arith::AddIOp::create(b, loc, arg(0), arg(1));
  case Op::Sub:
    return arith::SubIOp::create(b, loc, arg(0), arg(1));
  case Op::Mul:
    return arith::MulIOp::create(b, loc, arg(0), arg(1));
  case Op::FloorDiv:
    return arith::FloorDivSIOp::create(b, loc, arg(0), arg(1));
  case Op::Mod: {
    // A non-negative remainder for a positive divisor.
    Value d = arg(1);
    Value r = arith::RemSIOp::create(b, loc, arg(0), d);
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, cst(0));
    return arith::SelectOp::create(b, loc, neg,
                                   arith::AddIOp::create(b, loc, r, d), r);
  }
  case Op::Min:
    return arith::MinSIOp::create(b, loc, arg(0), arg(1));
  case Op::Max:
    return arith::MaxSIOp::create(b, loc, arg(0), arg(1));
  case Op::Select:
    return arith::SelectOp::create(b, loc, truth(arg(0)), arg(1), arg(2));
  case Op::Eq:
    return cmp(arith::CmpIPredicate::eq);
  case Op::Lt:
    return cmp(arith::CmpIPredicate::slt);
  case Op::Le:
    return cmp(arith::CmpIPredicate::sle);
  case Op::Gt:
    return cmp(arith::CmpIPredicate::sgt);
  case Op::Ge:
    return cmp(arith::CmpIPredicate::sge);
  case Op::And:
    return asIndex(arith::AndIOp::create(b, loc, truth(arg(0)), truth(arg(1))));
  case Op::Or:
    return asIndex(arith::OrIOp::create(b, loc, truth(arg(0)), truth(arg(1))));
  }
  return cst(0);
}

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_LIB_TRANSFORMS_SPMD_QEXPREMITTER_H
