//===- QuasiAffine.h - integer expressions of coordinates and steps -*- C++ -*-=//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// A QExpr is an integer expression of a processor's grid coordinates and the
// values of the time-step loops: sums, products by constants, floor division
// and modulo by constants, min, max, comparisons and select. It is what isl's
// AST builder produces for a piecewise quasi-affine function, and what the
// communication analysis hands the lowering for roots and peers: the lowering
// emits it as index arithmetic, so that generated code computes its partners
// from its own coordinates instead of looking them up in per-processor
// tables.
//
// Variables are numbered: [0, n) the grid coordinates of the processor
// running the code, [n, n + k) the values of the first k local (time-step)
// loops, outermost first.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_QUASIAFFINE_H
#define DISTTENSOR_ANALYSIS_QUASIAFFINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace dist {

struct QExpr {
  enum class Op {
    Const,    // value
    Var,      // variable number `value`
    Neg,      // -a
    Add,      // a + b
    Sub,      // a - b
    Mul,      // a * b
    FloorDiv, // floor(a / b), b > 0
    Mod,      // a - b * floor(a / b), b > 0
    Min,
    Max,
    Select, // a ? b : c
    Eq,     // comparisons and logic give 0 or 1
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
  };
  Op op = Op::Const;
  int64_t value = 0;
  std::vector<QExpr> args;

  static QExpr constant(int64_t v) {
    QExpr e;
    e.value = v;
    return e;
  }
  static QExpr var(unsigned i) {
    QExpr e;
    e.op = Op::Var;
    e.value = i;
    return e;
  }
  static QExpr make(Op op, std::vector<QExpr> args) {
    QExpr e;
    e.op = op;
    e.args = std::move(args);
    return e;
  }

  /// a + b and a * b, folding constants.
  static QExpr add(QExpr a, QExpr b) {
    if (a.isConstant() && b.isConstant())
      return constant(a.value + b.value);
    if (a.isConstant() && a.value == 0)
      return b;
    if (b.isConstant() && b.value == 0)
      return a;
    return make(Op::Add, {std::move(a), std::move(b)});
  }
  static QExpr mul(QExpr a, int64_t c) {
    if (a.isConstant())
      return constant(a.value * c);
    if (c == 1)
      return a;
    return make(Op::Mul, {std::move(a), constant(c)});
  }

  bool isConstant() const { return op == Op::Const; }
  /// The value at `vars` (division by a non-positive constant gives 0).
  int64_t evaluate(llvm::ArrayRef<int64_t> vars) const;
  /// Number of nodes (a size measure for tests).
  size_t size() const;
  /// C-like text; `name(i)` names variable i.
  void print(llvm::raw_ostream &os,
             llvm::function_ref<std::string(unsigned)> name) const;
};

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_QUASIAFFINE_H
