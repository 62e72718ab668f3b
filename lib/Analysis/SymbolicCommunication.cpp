//===- SymbolicCommunication.cpp - transfers classified with isl ----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The classification of Communication.h, derived symbolically: the box a
// processor needs and the processors that own it are piecewise
// quasi-affine functions of the processor's grid coordinates and of the
// step loops' values (variableRange evaluated on isl_pw_aff, the layouts'
// ownership as floor/mod expressions). Every pattern's defining property
// ("every processor holds its box", "the group shares the box and its
// root", "the box of step s is the neighbour's box of step s - 1", ...) is
// a set of violating (processor, step) points that isl proves empty, as in
// the polyhedral article (seed 003). Roots and peers are isl functions of
// the coordinates, turned into QExprs through isl's AST builder. Nothing
// here enumerates processors or steps, so the cost does not grow with the
// grid or the trip counts.
//
//===----------------------------------------------------------------------===//

#include "CommunicationDetail.h"
#include "DistTensor/Analysis/Isl.h"
#include "DistTensor/Analysis/QuasiAffine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ilp.h>

#include <optional>

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::comm_detail;

namespace {

/// Thrown-free failure: the first reason the symbolic analysis gave up.
struct Failure {
  std::string why;
  bool failed() const { return !why.empty(); }
  void fail(const llvm::Twine &reason) {
    if (why.empty())
      why = reason.str();
  }
};

/// A piecewise quasi-affine integer of the parameters, with its value when
/// it is a known constant (products need one constant factor).
struct Expr {
  IslPwAff pa;
  std::optional<int64_t> cst;
};

using Set = IslSet;

/// Parameters, constants, comparisons and set algebra in one isl context.
class Space {
public:
  Space(IslContext &ctx, Failure &f) : ctx(ctx), f(f) {}

  Expr cst(int64_t c) const {
    isl_set *u = isl_set_universe(isl_space_params_alloc(ctx.get(), 0));
    return {IslPwAff(isl_pw_aff_val_on_domain(
                u, isl_val_int_from_si(ctx.get(), c))),
            c};
  }
  Expr var(const std::string &name) const {
    isl_set *u = isl_set_universe(isl_space_params_alloc(ctx.get(), 0));
    isl_id *id = isl_id_alloc(ctx.get(), name.c_str(), nullptr);
    return {IslPwAff(isl_pw_aff_param_on_domain_id(u, id)), std::nullopt};
  }
  Set all() const {
    return Set(isl_set_universe(isl_space_params_alloc(ctx.get(), 0)));
  }
  Set none() const {
    return Set(isl_set_empty(isl_space_params_alloc(ctx.get(), 0)));
  }
  /// 0 <= name < extent.
  Set bounded(const std::string &name, int64_t extent) const {
    return andOf(ge(var(name), cst(0)), lt(var(name), cst(extent)));
  }

  Expr add(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return cst(*a.cst + *b.cst);
    return {IslPwAff(isl_pw_aff_add(a.pa.copy(), b.pa.copy())), std::nullopt};
  }
  Expr sub(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return cst(*a.cst - *b.cst);
    return {IslPwAff(isl_pw_aff_sub(a.pa.copy(), b.pa.copy())), std::nullopt};
  }
  Expr mul(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return cst(*a.cst * *b.cst);
    const Expr &c = a.cst ? a : b, &x = a.cst ? b : a;
    if (!c.cst) {
      f.fail("a product of two variable quantities is not quasi-affine");
      return x;
    }
    return {IslPwAff(isl_pw_aff_scale_val(
                x.pa.copy(), isl_val_int_from_si(ctx.get(), *c.cst))),
            std::nullopt};
  }
  Expr min(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return cst(std::min(*a.cst, *b.cst));
    return {IslPwAff(isl_pw_aff_min(a.pa.copy(), b.pa.copy())), std::nullopt};
  }
  Expr max(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return cst(std::max(*a.cst, *b.cst));
    return {IslPwAff(isl_pw_aff_max(a.pa.copy(), b.pa.copy())), std::nullopt};
  }
  /// floor(a / d) for a constant d > 0.
  Expr floorDiv(const Expr &a, int64_t d) const {
    if (d <= 0) {
      f.fail("a division by a non-positive block size");
      return a;
    }
    if (a.cst)
      return cst(*a.cst >= 0 ? *a.cst / d : -((-*a.cst + d - 1) / d));
    return {IslPwAff(isl_pw_aff_floor(isl_pw_aff_scale_down_val(
                a.pa.copy(), isl_val_int_from_si(ctx.get(), d)))),
            std::nullopt};
  }
  /// a mod d (non-negative) for a constant d > 0.
  Expr mod(const Expr &a, int64_t d) const {
    if (d <= 0) {
      f.fail("a modulo by a non-positive extent");
      return a;
    }
    if (a.cst)
      return cst(((*a.cst % d) + d) % d);
    return {IslPwAff(isl_pw_aff_mod_val(a.pa.copy(),
                                        isl_val_int_from_si(ctx.get(), d))),
            std::nullopt};
  }

  Set eq(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return *a.cst == *b.cst ? all() : none();
    return Set(isl_pw_aff_eq_set(a.pa.copy(), b.pa.copy()));
  }
  Set ne(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return *a.cst != *b.cst ? all() : none();
    return Set(isl_pw_aff_ne_set(a.pa.copy(), b.pa.copy()));
  }
  Set lt(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return *a.cst < *b.cst ? all() : none();
    return Set(isl_pw_aff_lt_set(a.pa.copy(), b.pa.copy()));
  }
  Set le(const Expr &a, const Expr &b) const {
    if (a.cst && b.cst)
      return *a.cst <= *b.cst ? all() : none();
    return Set(isl_pw_aff_le_set(a.pa.copy(), b.pa.copy()));
  }
  Set ge(const Expr &a, const Expr &b) const { return le(b, a); }
  Set gt(const Expr &a, const Expr &b) const { return lt(b, a); }

  Set andOf(const Set &a, const Set &b) const {
    return Set(isl_set_intersect(a.copy(), b.copy()));
  }
  Set orOf(const Set &a, const Set &b) const {
    return Set(isl_set_union(a.copy(), b.copy()));
  }
  Set notOf(const Set &a) const { return Set(isl_set_complement(a.copy())); }

  /// Whether `s` has no point; records a failure on an isl error.
  bool isEmpty(const Set &s) const {
    if (!s) {
      f.fail(ctx.hasError() ? ctx.takeErrorMessage()
                            : std::string("isl failed"));
      return false;
    }
    isl_bool b = isl_set_is_empty(s.get());
    if (b == isl_bool_error) {
      f.fail(ctx.takeErrorMessage());
      return false;
    }
    return b == isl_bool_true;
  }

  /// `e` where `where` holds, `otherwise` elsewhere.
  Expr select(const Set &where, const Expr &e, int64_t otherwise) const {
    isl_pw_aff *in = isl_pw_aff_intersect_params(e.pa.copy(), where.copy());
    isl_pw_aff *out = isl_pw_aff_val_on_domain(
        isl_set_complement(where.copy()),
        isl_val_int_from_si(ctx.get(), otherwise));
    return {IslPwAff(isl_pw_aff_union_add(in, out)), std::nullopt};
  }

  /// The largest value of `e` on `domain` (std::nullopt if unbounded).
  std::optional<int64_t> maxOn(const Expr &e, const Set &domain) const {
    if (e.cst)
      return e.cst;
    isl_set *range = isl_set_from_pw_aff(e.pa.copy());
    range = isl_set_intersect_params(range, domain.copy());
    // The maximum over the parameters too: make them set dimensions.
    isl_size np = isl_set_dim(range, isl_dim_param);
    if (np > 0)
      range = isl_set_move_dims(range, isl_dim_set, 1, isl_dim_param, 0, np);
    isl_val *v = isl_set_dim_max_val(range, 0);

    std::optional<int64_t> r;
    if (v && isl_val_is_int(v))
      r = isl_val_get_num_si(v);
    isl_val_free(v);
    if (ctx.hasError())
      ctx.takeErrorMessage();
    return r;
  }

  IslContext &ctx;
  Failure &f;
};

/// variableRange's arithmetic on Exprs.
struct IslArith {
  using Value = Expr;
  const Space &s;
  const llvm::StringMap<Expr> &fixed;
  const Set &context;

  Value constant(int64_t c) { return s.cst(c); }
  Value add(const Value &a, const Value &b) { return s.add(a, b); }
  Value sub(const Value &a, const Value &b) { return s.sub(a, b); }
  Value mul(const Value &a, const Value &b) { return s.mul(a, b); }
  Value min(const Value &a, const Value &b) { return s.min(a, b); }
  Value max(const Value &a, const Value &b) { return s.max(a, b); }
  Value rem(const Value &a, const Value &b) {
    if (!b.cst) {
      s.f.fail("a remainder by a variable");
      return a;
    }
    return s.mod(a, *b.cst);
  }
  Value div(const Value &a, const Value &b) {
    if (!b.cst) {
      s.f.fail("a division by a variable");
      return a;
    }
    return s.floorDiv(a, *b.cst);
  }
  std::optional<Value> fixedLoop(StringRef loop) {
    auto it = fixed.find(loop);
    if (it == fixed.end())
      return std::nullopt;
    return it->second;
  }
  bool isPoint(StringRef var, const VariableRange<IslArith> &r) {
    if (r.size.cst)
      return *r.size.cst == 1;
    if (s.isEmpty(s.andOf(context, s.ne(r.size, s.cst(1)))))
      return true;
    if (s.isEmpty(s.andOf(context, s.eq(r.size, s.cst(1)))))
      return false;
    s.f.fail("the range of '" + var +
             "' is a single value on some processors and steps only");
    return false;
  }
  void onDerivedPoint(StringRef, const Value &, int64_t) {}
};

struct SymBox {
  SmallVector<Expr> lo, size;
};

/// One tensor of one computation, in isl: boxes and owners as functions of
/// named processors ("p" this one, "u"/"q"/"v" others) and the steps ("t").
class TensorModel {
public:
  TensorModel(const ComputeModel &m, StringRef tensor, unsigned level,
              const Space &s)
      : m(m), s(s), tensor(tensor), level(level),
        derived(derivedVariables(m.nest)),
        dist(m.types.lookup(tensor).getShape(),
             m.types.lookup(tensor).getLayout().getOuter(), m.gridShape) {
    context = s.andOf(coordBounds("p"), stepBounds());
    for (int64_t a : llvm::seq<int64_t>(0, m.gridShape.size())) {
      bool partitioned = llvm::is_contained(dist.getFixedAxes(), a);
      for (unsigned d = 0; d < dist.getRank(); ++d)
        partitioned |= llvm::is_contained(dist.getAxes(d), a);
      replicated.push_back(!partitioned);
    }
  }

  unsigned numAxes() const { return m.gridShape.size(); }
  int64_t extent(unsigned a) const { return m.gridShape[a]; }
  const LevelDistribution &layout() const { return dist; }
  bool anyReplicated() const { return llvm::is_contained(replicated, true); }

  std::string name(StringRef prefix, unsigned i) const {
    return (prefix + llvm::Twine(i)).str();
  }
  SmallVector<Expr> coords(StringRef prefix) const {
    SmallVector<Expr> c;
    for (unsigned a = 0; a < numAxes(); ++a)
      c.push_back(s.var(name(prefix, a)));
    return c;
  }
  SmallVector<Expr> steps() const {
    SmallVector<Expr> t;
    for (unsigned i = 0; i < level; ++i)
      t.push_back(s.var(name("t", i)));
    return t;
  }
  Set coordBounds(StringRef prefix) const {
    Set b = s.all();
    for (unsigned a = 0; a < numAxes(); ++a)
      b = s.andOf(b, s.bounded(name(prefix, a), extent(a)));
    return b;
  }
  Set stepBounds() const {
    Set b = s.all();
    for (unsigned i = 0; i < level; ++i)
      b = s.andOf(b, s.bounded(name("t", i), m.localLoops[i]->extent));
    return b;
  }

  /// The box the processor at `c` needs at steps `t`.
  SymBox box(ArrayRef<Expr> c, ArrayRef<Expr> t) const {
    llvm::StringMap<Expr> fixed;
    for (auto [l, d] : llvm::zip(m.distLoops, m.gridDimOf))
      fixed[l->name] = c[d];
    for (unsigned i = 0; i < level; ++i)
      fixed[m.localLoops[i]->name] = t[i];
    IslArith a{s, fixed, context};
    SymBox b;
    for (const std::string &x : m.accessOf.lookup(tensor)->indices) {
      VariableRange<IslArith> r = variableRange(m.nest, derived, x, a);
      b.lo.push_back(r.lo);
      b.size.push_back(r.size);
    }
    return b;
  }

  Set nonEmpty(const SymBox &b) const {
    Set r = s.all();
    for (const Expr &e : b.size)
      r = s.andOf(r, s.gt(e, s.cst(0)));
    return r;
  }
  Set sameBox(const SymBox &a, const SymBox &b) const {
    Set r = s.all();
    for (unsigned d = 0; d < a.lo.size(); ++d)
      r = s.andOf(r, s.andOf(s.eq(a.lo[d], b.lo[d]),
                             s.eq(a.size[d], b.size[d])));
    return r;
  }
  Set sameCoords(ArrayRef<Expr> a, ArrayRef<Expr> b) const {
    Set r = s.all();
    for (auto [x, y] : llvm::zip(a, b))
      r = s.andOf(r, s.eq(x, y));
    return r;
  }

  Expr ownerPart(unsigned d, const Expr &g) const {
    const DimDistribution &dd = dist.getDim(d);
    if (dd.kind == PartitionKind::blocked)
      return dd.block > 0 ? s.floorDiv(g, dd.block) : s.cst(0);
    return s.mod(s.floorDiv(g, dd.block), dd.parts);
  }
  Expr part(unsigned d, ArrayRef<Expr> c) const {
    Expr q = s.cst(0);
    int64_t stride = 1;
    for (int64_t a : dist.getAxes(d)) {
      q = s.add(q, s.mul(c[a], s.cst(stride)));
      stride *= extent(a);
    }
    if (dist.getSkews(d).empty())
      return q;
    for (int64_t sk : dist.getSkews(d))
      q = s.add(q, c[sk]);
    return s.mod(q, dist.getDim(d).parts);
  }
  /// Where [lo, lo + size) of dimension d lies in one owner part.
  Set singlePart(unsigned d, const Expr &lo, const Expr &size) const {
    const DimDistribution &dd = dist.getDim(d);
    Set some = s.ge(size, s.cst(1));
    if (dd.parts == 1)
      return some;
    Expr hi = s.sub(s.add(lo, size), s.cst(1));
    Set same;
    if (dd.kind == PartitionKind::blocked) {
      same = s.eq(ownerPart(d, lo), ownerPart(d, hi));
    } else {
      int64_t b = dd.kind == PartitionKind::cyclic ? 1 : dd.block;
      if (b <= 0)
        return s.none();
      same = s.eq(s.floorDiv(lo, b), s.floorDiv(hi, b));
    }
    return s.andOf(some, s.orOf(s.eq(size, s.cst(1)), same));
  }
  Set holder(ArrayRef<Expr> c) const {
    Set r = s.all();
    for (auto [a, v] : llvm::zip(dist.getFixedAxes(), dist.getFixedCoords()))
      r = s.andOf(r, s.eq(c[a], s.cst(v)));
    return r;
  }
  /// Where processor `c` holds every element of `b`.
  Set holdsBox(ArrayRef<Expr> c, const SymBox &b) const {
    Set r = holder(c);
    for (unsigned d = 0; d < dist.getRank(); ++d) {
      if (dist.getDim(d).kind == PartitionKind::none)
        continue;
      Set ok = s.andOf(singlePart(d, b.lo[d], b.size[d]),
                       s.eq(ownerPart(d, b.lo[d]), part(d, c)));
      r = s.andOf(r, s.orOf(s.eq(b.size[d], s.cst(0)), ok));
    }
    return r;
  }
  /// Where processor `c` holds some element of `b`.
  Set holdsAny(ArrayRef<Expr> c, const SymBox &b) const {
    Set r = holder(c);
    for (unsigned d = 0; d < dist.getRank(); ++d) {
      const DimDistribution &dd = dist.getDim(d);
      Set some = s.gt(b.size[d], s.cst(0));
      if (dd.kind == PartitionKind::none || dd.parts == 1) {
        r = s.andOf(r, some);
        continue;
      }
      Expr q = part(d, c);
      Expr hi = s.sub(s.add(b.lo[d], b.size[d]), s.cst(1));
      Set touch;
      if (dd.kind == PartitionKind::blocked) {
        touch = s.andOf(s.le(ownerPart(d, b.lo[d]), q),
                        s.le(q, ownerPart(d, hi)));
      } else {
        int64_t bs = dd.kind == PartitionKind::cyclic ? 1 : dd.block;
        if (bs <= 0)
          return s.none();
        Expr first = s.floorDiv(b.lo[d], bs), last = s.floorDiv(hi, bs);
        Set wraps = s.ge(s.add(s.sub(last, first), s.cst(1)), s.cst(dd.parts));
        // Some block index in [first, last] congruent to q: an existential,
        // projected out.
        std::string blk = "blk" + std::to_string(d);
        Expr k = s.var(blk);
        Set hit = s.andOf(s.andOf(s.le(first, k), s.le(k, last)),
                          s.eq(s.mod(k, dd.parts), q));
        isl_id *id = isl_id_alloc(s.ctx.get(), blk.c_str(), nullptr);
        hit = Set(isl_set_project_out_param_id(hit.release(), id));
        touch = s.orOf(wraps, hit);
      }
      r = s.andOf(r, s.andOf(some, touch));
    }
    return r;
  }
  /// The processor that provides `b` to requester `c` when one processor
  /// holds all of it (see Owners::provider), and where it exists.
  std::pair<Set, SmallVector<Expr>> provider(ArrayRef<Expr> c,
                                             const SymBox &b) const {
    SmallVector<Expr> q(c.begin(), c.end());
    for (auto [a, v] : llvm::zip(dist.getFixedAxes(), dist.getFixedCoords()))
      q[a] = s.cst(v);
    Set defined = s.all();
    for (bool skewedPass : {false, true}) {
      for (unsigned d = 0; d < dist.getRank(); ++d) {
        if (dist.getDim(d).kind == PartitionKind::none ||
            dist.getSkews(d).empty() == skewedPass)
          continue;
        defined = s.andOf(defined, singlePart(d, b.lo[d], b.size[d]));
        int64_t parts = dist.getDim(d).parts;
        Expr rest = ownerPart(d, b.lo[d]);
        for (int64_t sk : dist.getSkews(d))
          rest = s.sub(rest, s.mod(q[sk], parts));
        rest = s.mod(rest, parts);
        for (int64_t a : dist.getAxes(d)) {
          q[a] = s.mod(rest, extent(a));
          rest = s.floorDiv(rest, extent(a));
        }
      }
    }
    return {defined, q};
  }
  Expr groupIndex(ArrayRef<Expr> c, ArrayRef<int64_t> axes) const {
    Expr idx = s.cst(0);
    for (int64_t a : axes)
      idx = s.add(s.mul(idx, s.cst(extent(a))), c[a]);
    return idx;
  }

  const ComputeModel &m;
  const Space &s;
  std::string tensor;
  unsigned level;
  DerivedVariables derived;
  LevelDistribution dist;
  SmallVector<bool> replicated;
  /// Bounds of this processor's coordinates and of the steps.
  Set context;
};

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

/// `e` (a function of this processor's coordinates and the steps) as a
/// QExpr valid on the model's context.
std::optional<QExpr> toQExpr(const Expr &e, const TensorModel &tm,
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

} // namespace

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

namespace {

class Classifier {
public:
  Classifier(const ComputeModel &m, TransferPlan &plan, const Space &s,
             Failure &f)
      : m(m), plan(plan), s(s), f(f), tm(m, plan.tensor, plan.level, s),
        p(tm.coords("p")), t(tm.steps()), bp(tm.box(p, t)) {}

  void run();

private:
  /// Whether `bad` (a set of violating points) is empty on the bounds of
  /// every processor and step named in it.
  bool never(const Set &bad) {
    Set b = s.andOf(bad, tm.context);
    for (StringRef other : {"u", "q", "v"})
      b = s.andOf(b, tm.coordBounds(other));
    return s.isEmpty(b);
  }
  /// `c` with coordinate `a` replaced by `v`.
  SmallVector<Expr> with(ArrayRef<Expr> c, unsigned a, Expr v) {
    SmallVector<Expr> r(c.begin(), c.end());
    r[a] = std::move(v);
    return r;
  }
  bool local();
  bool broadcast();
  bool pieces(TransferPlan::Kind kind);
  bool shift();
  bool permutation(const Set &selected);
  bool reduction();
  std::optional<int64_t> shiftOffsetCandidate(unsigned a, int64_t from);
  /// The value of `e` if it is the same at every processor and step.
  std::optional<int64_t> constantOf(const Expr &e);
  void setMaxElements();

  /// The processors (named `prefix`) where `rel` holds, as functions of
  /// this processor's coordinates and the steps (the lexicographically
  /// first one; -1 on every axis where there is none).
  std::optional<SmallVector<QExpr>> solveFor(const Set &rel, StringRef prefix);

public:
  const ComputeModel &m;
  TransferPlan &plan;
  const Space &s;
  Failure &f;
  TensorModel tm;
  SmallVector<Expr> p, t;
  SymBox bp;
  /// The provider of this processor's box (set by permutation()).
  SmallVector<Expr> prov;
};

std::optional<int64_t> Classifier::constantOf(const Expr &e) {
  if (e.cst)
    return e.cst;
  std::optional<int64_t> mx = s.maxOn(e, tm.context);
  if (!mx || !never(s.ne(e, s.cst(*mx))))
    return std::nullopt;
  return mx;
}

bool Classifier::local() {
  return never(s.andOf(tm.nonEmpty(bp), s.notOf(tm.holdsBox(p, bp))));
}

bool Classifier::broadcast() {
  auto [defined, q] = tm.provider(p, bp);
  if (!never(s.notOf(defined)) || f.failed())
    return false;
  SmallVector<int64_t> axes;
  for (unsigned a = 0; a < tm.numAxes(); ++a)
    if (!never(s.ne(q[a], p[a])))
      axes.push_back(a);
  if (axes.empty())
    return false;
  // The whole group (u equals p outside `axes`) shares the box and the
  // provider.
  SmallVector<Expr> u = tm.coords("u");
  for (unsigned a = 0; a < tm.numAxes(); ++a)
    if (!llvm::is_contained(axes, a))
      u[a] = p[a];
  SymBox bu = tm.box(u, t);
  auto [definedU, qu] = tm.provider(u, bu);
  Set same = s.andOf(tm.sameBox(bp, bu), tm.sameCoords(q, qu));
  if (!never(s.notOf(same)))
    return false;
  std::optional<QExpr> root = toQExpr(tm.groupIndex(q, axes), tm, f);
  if (!root)
    return false;
  plan.kind = TransferPlan::Kind::Broadcast;
  plan.axes = axes;
  plan.root = std::move(*root);
  return true;
}

/// Allgather (inputs) / reduce-scatter (output): a grid axis whose group
/// shares every box and holds it as equal contiguous pieces, one each.
bool Classifier::pieces(TransferPlan::Kind kind) {
  const LevelDistribution &L = tm.layout();
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    if (tm.extent(a) == 1)
      continue;
    int64_t dim = -1;
    for (unsigned d = 0; d < L.getRank(); ++d)
      if (L.getAxes(d).size() == 1 && L.getAxes(d).front() == a)
        dim = d;
    if (dim < 0)
      continue;
    int64_t G = tm.extent(a);
    SmallVector<Expr> u = with(p, a, s.var("u" + std::to_string(a)));
    if (!never(s.notOf(tm.sameBox(bp, tm.box(u, t)))))
      continue;
    Set bad = s.none();
    for (int64_t d = 0; d < dim; ++d)
      bad = s.orOf(bad, s.ne(bp.size[d], s.cst(1)));
    bad = s.orOf(bad, s.ne(s.mod(bp.size[dim], G), s.cst(0)));
    bad = s.orOf(bad, s.eq(bp.size[dim], s.cst(0)));
    if (!never(bad))
      continue;
    // Member j (coordinate j on axis a) holds piece j (of one size, so
    // that j * piece stays quasi-affine).
    Expr j = s.var("q" + std::to_string(a));
    std::optional<int64_t> size = constantOf(bp.size[dim]);
    if (!size)
      continue;
    Expr piece = s.cst(*size / G);
    SymBox pb = bp;
    pb.lo[dim] = s.add(bp.lo[dim], s.mul(j, piece));
    pb.size[dim] = piece;
    if (!never(s.notOf(tm.holdsBox(with(p, a, j), pb))))
      continue;
    plan.kind = kind;
    plan.axes = {int64_t(a)};
    plan.splitDim = dim;
    return true;
  }
  return false;
}

/// An offset along axis `a`, at least `from`, for which the box of step 1
/// of processor 0 (and of a few other sample processors) is the
/// neighbour's box of step 0: a cheap filter before the proof.
std::optional<int64_t> Classifier::shiftOffsetCandidate(unsigned a,
                                                        int64_t from) {
  Evaluator eval(m);
  unsigned k = plan.level;
  auto boxAt = [&](ArrayRef<int64_t> c, int64_t last) {
    llvm::StringMap<int64_t> fixed;
    for (auto [l, d] : llvm::zip(m.distLoops, m.gridDimOf))
      fixed[l->name] = c[d];
    for (unsigned i = 0; i < k; ++i)
      fixed[m.localLoops[i]->name] = i + 1 == k ? last : 0;
    return eval.box(plan.tensor, fixed);
  };
  SmallVector<SmallVector<int64_t>> samples(3);
  for (unsigned b = 0; b < tm.numAxes(); ++b) {
    samples[0].push_back(0);
    samples[1].push_back(tm.extent(b) - 1);
    samples[2].push_back(tm.extent(b) / 2);
  }
  int64_t G = tm.extent(a);
  for (int64_t off = from; off < G; ++off) {
    bool ok = llvm::all_of(samples, [&](ArrayRef<int64_t> c) {
      SmallVector<int64_t> nb(c.begin(), c.end());
      nb[a] = (nb[a] + off) % G;
      Box now = boxAt(c, 1), prev = boxAt(nb, 0);
      return now == prev && now.size == boxAt(c, 0).size;
    });
    if (ok)
      return off;
  }
  return std::nullopt;
}

bool Classifier::shift() {
  unsigned k = plan.level;
  if (k == 0 || m.localLoops[k - 1]->extent <= 1)
    return false;
  // Steps after the first of the communicate loop.
  Set later = s.ge(t[k - 1], s.cst(1));
  SmallVector<Expr> tPrev(t.begin(), t.end());
  tPrev[k - 1] = s.sub(t[k - 1], s.cst(1));
  SymBox own = tm.box(p, tPrev);
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    int64_t G = tm.extent(a);
    std::optional<int64_t> off;
    for (int tries = 0; tries < 4; ++tries) {
      off = shiftOffsetCandidate(a, off ? *off + 1 : 1);
      if (!off)
        break;
      SmallVector<Expr> nb = with(p, a, s.mod(s.add(p[a], s.cst(*off)), G));
      SymBox prev = tm.box(nb, tPrev);
      Set ok = tm.sameBox(bp, prev);
      for (unsigned d = 0; d < bp.size.size(); ++d)
        ok = s.andOf(ok, s.eq(bp.size[d], own.size[d]));
      if (!never(s.andOf(later, s.notOf(ok))))
        continue;
      plan.kind = TransferPlan::Kind::Shift;
      plan.shiftAxis = a;
      plan.shiftOffset = *off;
      // The alignment (first step of each run of the loop).
      plan.alignByPermutation = permutation(s.eq(t[k - 1], s.cst(0)));
      if (plan.alignByPermutation) {
        Set moved = s.none();
        for (unsigned b = 0; b < tm.numAxes(); ++b)
          moved = s.orOf(moved, s.ne(prov[b], p[b]));
        plan.alignLocal =
            never(s.andOf(s.andOf(s.eq(t[k - 1], s.cst(0)),
                                  tm.nonEmpty(bp)),
                          moved));
      }
      return true;
    }
  }
  return false;
}

std::optional<SmallVector<QExpr>> Classifier::solveFor(const Set &rel,
                                                       StringRef prefix) {
  isl_set *set = isl_set_intersect(rel.copy(), tm.context.copy());
  set = isl_set_intersect(set, tm.coordBounds(prefix).copy());
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    std::string n = tm.name(prefix, a);
    int pos = isl_set_find_dim_by_name(set, isl_dim_param, n.c_str());
    if (pos < 0) {
      isl_set_free(set);
      f.fail("isl lost coordinate '" + n + "'");
      return std::nullopt;
    }
    set = isl_set_move_dims(set, isl_dim_set, a, isl_dim_param, pos, 1);
  }
  IslPwMultiAff pma(isl_set_lexmin_pw_multi_aff(set));
  if (!pma) {
    f.fail(s.ctx.takeErrorMessage());
    return std::nullopt;
  }
  SmallVector<QExpr> out;
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    Expr e{IslPwAff(isl_pw_multi_aff_get_pw_aff(pma.get(), a)), std::nullopt};
    Set where(isl_pw_aff_domain(e.pa.copy()));
    std::optional<QExpr> q = toQExpr(s.select(where, e, -1), tm, f);
    if (!q)
      return std::nullopt;
    out.push_back(std::move(*q));
  }
  return out;
}

bool Classifier::permutation(const Set &selected) {
  Set ne = s.andOf(selected, tm.nonEmpty(bp));
  auto [defined, q] = tm.provider(p, bp);
  if (!never(s.andOf(ne, s.notOf(defined))) ||
      !never(s.andOf(ne, s.notOf(tm.holdsBox(q, bp)))))
    return false;
  // One-to-one: no two processors with a box share a provider.
  SmallVector<Expr> u = tm.coords("u");
  SymBox bu = tm.box(u, t);
  auto [definedU, qu] = tm.provider(u, bu);
  Set neU = s.andOf(selected, tm.nonEmpty(bu));
  Set differ = s.none();
  for (unsigned a = 0; a < tm.numAxes(); ++a)
    differ = s.orOf(differ, s.ne(p[a], u[a]));
  if (!never(s.andOf(s.andOf(ne, neU),
                     s.andOf(differ, tm.sameCoords(q, qu)))))
    return false;
  SmallVector<QExpr> src;
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    std::optional<QExpr> e = toQExpr(s.select(ne, q[a], -1), tm, f);
    if (!e)
      return false;
    src.push_back(std::move(*e));
  }
  // The processor this one provides to: u with provider(u) = p.
  std::optional<SmallVector<QExpr>> dst =
      solveFor(s.andOf(neU, tm.sameCoords(qu, p)), "u");
  if (!dst)
    return false;
  plan.srcCoords = std::move(src);
  plan.dstCoords = std::move(*dst);
  prov = q;
  return true;
}

bool Classifier::reduction() {
  SmallVector<int64_t> axes;
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    int64_t G = tm.extent(a);
    if (G == 1)
      continue;
    SmallVector<Expr> nb = with(p, a, s.mod(s.add(p[a], s.cst(1)), G));
    if (never(s.notOf(tm.sameBox(bp, tm.box(nb, t)))))
      axes.push_back(a);
  }
  if (axes.empty() || !never(s.notOf(tm.nonEmpty(bp))))
    return false;
  SmallVector<Expr> q = tm.coords("q");
  Set hq = tm.holdsBox(q, bp);
  if (!never(s.andOf(tm.holdsAny(q, bp), s.notOf(hq))))
    return false;
  Set inGroup = s.all();
  for (unsigned a = 0; a < tm.numAxes(); ++a)
    if (!llvm::is_contained(axes, a))
      inGroup = s.andOf(inGroup, s.eq(q[a], p[a]));
  if (!never(s.andOf(hq, s.notOf(inGroup))))
    return false;
  // Reduce: exactly one holder.
  SmallVector<Expr> v = tm.coords("v");
  Set differ = s.none();
  for (unsigned a = 0; a < tm.numAxes(); ++a)
    differ = s.orOf(differ, s.ne(q[a], v[a]));
  bool unique =
      never(s.andOf(s.andOf(hq, tm.holdsBox(v, bp)), differ));
  Set someHolder = s.andOf(hq, tm.coordBounds("q"));
  for (unsigned a = 0; a < tm.numAxes(); ++a) {
    isl_id *id =
        isl_id_alloc(s.ctx.get(), tm.name("q", a).c_str(), nullptr);
    someHolder = Set(isl_set_project_out_param_id(someHolder.release(), id));
  }
  if (unique && never(s.notOf(someHolder))) {
    // The holder's index in its group.
    Set rel = hq;
    std::optional<SmallVector<QExpr>> holder = solveFor(rel, "q");
    if (!holder)
      return false;
    QExpr idx = QExpr::constant(0);
    for (int64_t a : axes)
      idx = QExpr::add(QExpr::mul(idx, tm.extent(a)), (*holder)[a]);
    plan.kind = TransferPlan::Kind::Reduce;
    plan.axes = axes;
    plan.root = std::move(idx);
    return true;
  }
  // Allreduce: every member of the group holds the whole box.
  if (never(s.andOf(inGroup, s.notOf(hq)))) {
    plan.kind = TransferPlan::Kind::AllReduce;
    plan.axes = axes;
    return true;
  }
  return false;
}

void Classifier::setMaxElements() {
  int64_t total = 1;
  for (const Expr &e : bp.size) {
    std::optional<int64_t> mx = s.maxOn(e, tm.context);
    if (!mx) {
      plan.maxElements = -1;
      return;
    }
    total *= std::max<int64_t>(*mx, 0);
  }
  plan.maxElements = total;
}

void Classifier::run() {
  if (f.failed())
    return;
  setMaxElements();
  if (local() && (!plan.output || !tm.anyReplicated())) {
    plan.kind = TransferPlan::Kind::Local;
    return;
  }
  if (!plan.output) {
    if (broadcast() || pieces(TransferPlan::Kind::AllGather) || shift())
      return;
    if (permutation(s.all())) {
      plan.kind = TransferPlan::Kind::PointToPoint;
      return;
    }
    plan.kind = TransferPlan::Kind::General;
    plan.whyGeneral =
        "the boxes it needs fit no collective: not held locally, not one "
        "root per group of grid axes, not equal pieces along one axis, "
        "not a shift, not a one-to-one permutation";
    return;
  }
  if (!tm.anyReplicated() && pieces(TransferPlan::Kind::ReduceScatter))
    return;
  if (reduction())
    return;
  plan.kind = TransferPlan::Kind::General;
  plan.whyGeneral = "its partial results fit no reduction: not a "
                    "reduce-scatter, reduce or allreduce over grid axes "
                    "onto its owners";
}
} // namespace

std::vector<TransferPlan>
mlir::dist::analyzeCommunicationSymbolic(const ComputeModel &m) {
  std::vector<TransferPlan> plans;
  for (const std::string &name : m.names) {
    TransferPlan plan;
    plan.tensor = name;
    plan.output = name == m.stmt.lhs.tensor;
    plan.level = m.level.lookup(name);
    plan.steps = m.stepsAt(plan.level);
    IslContext ctx;
    Failure f;
    {
      Space s(ctx, f);
      Classifier c(m, plan, s, f);
      c.run();
    }
    if (f.failed()) {
      TransferPlan general;
      general.tensor = plan.tensor;
      general.output = plan.output;
      general.level = plan.level;
      general.steps = plan.steps;
      general.maxElements = -1;
      general.kind = TransferPlan::Kind::General;
      general.whyGeneral =
          "the analysis could not derive its pattern symbolically (" + f.why +
          ")";
      plan = std::move(general);
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}
