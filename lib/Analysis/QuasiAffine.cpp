//===- QuasiAffine.cpp - integer expressions of coordinates and steps -----===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/QuasiAffine.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dist;

static int64_t floorDiv(int64_t a, int64_t b) {
  if (b <= 0)
    return 0;
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

int64_t QExpr::evaluate(llvm::ArrayRef<int64_t> vars) const {
  auto arg = [&](unsigned i) { return args[i].evaluate(vars); };
  switch (op) {
  case Op::Const:
    return value;
  case Op::Var:
    return value >= 0 && size_t(value) < vars.size() ? vars[value] : 0;
  case Op::Neg:
    return -arg(0);
  case Op::Add:
    return arg(0) + arg(1);
  case Op::Sub:
    return arg(0) - arg(1);
  case Op::Mul:
    return arg(0) * arg(1);
  case Op::FloorDiv:
    return floorDiv(arg(0), arg(1));
  case Op::Mod: {
    int64_t a = arg(0), b = arg(1);
    return b <= 0 ? 0 : a - b * floorDiv(a, b);
  }
  case Op::Min:
    return std::min(arg(0), arg(1));
  case Op::Max:
    return std::max(arg(0), arg(1));
  case Op::Select:
    return arg(0) ? arg(1) : arg(2);
  case Op::Eq:
    return arg(0) == arg(1);
  case Op::Lt:
    return arg(0) < arg(1);
  case Op::Le:
    return arg(0) <= arg(1);
  case Op::Gt:
    return arg(0) > arg(1);
  case Op::Ge:
    return arg(0) >= arg(1);
  case Op::And:
    return arg(0) && arg(1);
  case Op::Or:
    return arg(0) || arg(1);
  }
  return 0;
}

size_t QExpr::size() const {
  size_t n = 1;
  for (const QExpr &a : args)
    n += a.size();
  return n;
}

void QExpr::print(llvm::raw_ostream &os,
                  llvm::function_ref<std::string(unsigned)> name) const {
  auto bin = [&](const char *sym) {
    os << "(";
    args[0].print(os, name);
    os << " " << sym << " ";
    args[1].print(os, name);
    os << ")";
  };
  auto fn = [&](const char *f) {
    os << f << "(";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i)
        os << ", ";
      args[i].print(os, name);
    }
    os << ")";
  };
  switch (op) {
  case Op::Const:
    os << value;
    return;
  case Op::Var:
    os << name(value);
    return;
  case Op::Neg:
    os << "-";
    args[0].print(os, name);
    return;
  case Op::Add:
    return bin("+");
  case Op::Sub:
    return bin("-");
  case Op::Mul:
    return bin("*");
  case Op::FloorDiv:
    return fn("floordiv");
  case Op::Mod:
    return fn("mod");
  case Op::Min:
    return fn("min");
  case Op::Max:
    return fn("max");
  case Op::Select:
    os << "(";
    args[0].print(os, name);
    os << " ? ";
    args[1].print(os, name);
    os << " : ";
    args[2].print(os, name);
    os << ")";
    return;
  case Op::Eq:
    return bin("==");
  case Op::Lt:
    return bin("<");
  case Op::Le:
    return bin("<=");
  case Op::Gt:
    return bin(">");
  case Op::Ge:
    return bin(">=");
  case Op::And:
    return bin("&&");
  case Op::Or:
    return bin("||");
  }
}
