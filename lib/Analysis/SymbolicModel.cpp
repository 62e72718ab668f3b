//===- SymbolicModel.cpp - isl functions to QExprs ------------------------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// A root or peer, an isl_pw_aff of this processor's coordinates and the
// steps, becomes an expression through isl's AST builder (on the bounds of
// the coordinates and steps, so that impossible cases are simplified away),
// and the AST expression becomes a QExpr.
//
//===----------------------------------------------------------------------===//

#include "SymbolicModel.h"

#include "llvm/ADT/StringRef.h"

#include <isl/ast.h>
#include <isl/ast_build.h>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::sym;

namespace {
//===----------------------------------------------------------------------===//
// isl functions -> QExpr
//===----------------------------------------------------------------------===//

std::optional<QExpr> fromAst(isl_ast_expr *e, const TensorModel &tm,
                             Failure &f) {
  switch (isl_ast_expr_get_type(e)) {
  case isl_ast_expr_int: {
    isl_val *v = isl_ast_expr_int_get_val(e);
    int64_t c = isl_val_get_num_si(v);
    isl_val_free(v);
    return QExpr::constant(c);
  }
  case isl_ast_expr_id: {
    isl_id *id = isl_ast_expr_id_get_id(e);
    std::string name = isl_id_get_name(id);
    isl_id_free(id);
    unsigned i = 0;
    if (name.size() > 1 && !llvm::StringRef(name).drop_front().getAsInteger(
                               10, i)) {
      if (name[0] == 'p' && i < tm.numAxes())
        return QExpr::var(i);
      if (name[0] == 't' && i < tm.level)
        return QExpr::var(tm.numAxes() + i);
    }
    f.fail("a root or peer depends on '" + name + "'");
    return std::nullopt;
  }
  case isl_ast_expr_op:
    break;
  default:
    f.fail("isl built an unexpected expression");
    return std::nullopt;
  }
  std::vector<QExpr> args;
  isl_size n = isl_ast_expr_op_get_n_arg(e);
  for (isl_size i = 0; i < n; ++i) {
    isl_ast_expr *a = isl_ast_expr_op_get_arg(e, i);
    std::optional<QExpr> q = fromAst(a, tm, f);
    isl_ast_expr_free(a);
    if (!q)
      return std::nullopt;
    args.push_back(std::move(*q));
  }
  using Op = QExpr::Op;
  auto chain = [&](Op op) {
    // isl's min/max take two or more arguments.
    QExpr r = args[0];
    for (size_t i = 1; i < args.size(); ++i)
      r = QExpr::make(op, {r, args[i]});
    return r;
  };
  switch (isl_ast_expr_op_get_type(e)) {
  case isl_ast_expr_op_and:
  case isl_ast_expr_op_and_then:
    return QExpr::make(Op::And, args);
  case isl_ast_expr_op_or:
  case isl_ast_expr_op_or_else:
    return QExpr::make(Op::Or, args);
  case isl_ast_expr_op_max:
    return chain(Op::Max);
  case isl_ast_expr_op_min:
    return chain(Op::Min);
  case isl_ast_expr_op_minus:
    return QExpr::make(Op::Neg, args);
  case isl_ast_expr_op_add:
    return QExpr::make(Op::Add, args);
  case isl_ast_expr_op_sub:
    return QExpr::make(Op::Sub, args);
  case isl_ast_expr_op_mul:
    return QExpr::make(Op::Mul, args);
  case isl_ast_expr_op_div:
  case isl_ast_expr_op_fdiv_q:
  case isl_ast_expr_op_pdiv_q:
    return QExpr::make(Op::FloorDiv, args);
  case isl_ast_expr_op_pdiv_r:
  case isl_ast_expr_op_zdiv_r:
    return QExpr::make(Op::Mod, args);
  case isl_ast_expr_op_cond:
  case isl_ast_expr_op_select:
    return QExpr::make(Op::Select, args);
  case isl_ast_expr_op_eq:
    return QExpr::make(Op::Eq, args);
  case isl_ast_expr_op_le:
    return QExpr::make(Op::Le, args);
  case isl_ast_expr_op_lt:
    return QExpr::make(Op::Lt, args);
  case isl_ast_expr_op_ge:
    return QExpr::make(Op::Ge, args);
  case isl_ast_expr_op_gt:
    return QExpr::make(Op::Gt, args);
  default:
    f.fail("isl built an unexpected operation");
    return std::nullopt;
  }
}

} // namespace

/// `e` (a function of this processor's coordinates and the steps) as a
/// QExpr valid on the model's context.
std::optional<QExpr> mlir::dist::sym::toQExpr(const Expr &e,
                                              const TensorModel &tm,
                                              Failure &f) {
  if (e.cst)
    return QExpr::constant(*e.cst);
  isl_pw_aff *pa = isl_pw_aff_gist_params(e.pa.copy(), tm.context.copy());
  pa = isl_pw_aff_coalesce(pa);
  isl_ast_build *build = isl_ast_build_from_context(tm.context.copy());
  isl_ast_expr *ast = isl_ast_build_expr_from_pw_aff(build, pa);
  isl_ast_build_free(build);
  if (!ast) {
    f.fail(tm.s.ctx.hasError() ? tm.s.ctx.takeErrorMessage()
                               : std::string("isl built no expression"));
    return std::nullopt;
  }
  std::optional<QExpr> q = fromAst(ast, tm, f);
  isl_ast_expr_free(ast);
  return q;
}

