//===- SymbolicModel.h - boxes and owners as isl functions ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Private to lib/Analysis (SymbolicCommunication.cpp): one tensor of one
// computation in isl. Every quantity is a piecewise quasi-affine function
// of named parameters: the grid coordinates of this processor (p0, p1, ...)
// and of other processors (u*, q*, v*), and the step loops' values (t0,
// ...). Sets of parameter values are where a condition holds; a property
// holds everywhere when its violating set is empty.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_LIB_ANALYSIS_SYMBOLICMODEL_H
#define DISTTENSOR_LIB_ANALYSIS_SYMBOLICMODEL_H

#include "CommunicationDetail.h"
#include "DistTensor/Analysis/Isl.h"
#include "DistTensor/Analysis/QuasiAffine.h"

#include <isl/ilp.h>

#include <optional>
#include <string>

namespace mlir {
namespace dist {
namespace sym {

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

  /// Drops the pieces outside the bounds of the coordinates and steps
  /// (every use is on them) and merges the rest: nested splits would
  /// otherwise double the pieces at every min and max.
  Value simplify(Value v) {
    if (v.cst || !v.pa)
      return v;
    isl_pw_aff *pa = isl_pw_aff_gist_params(v.pa.release(), context.copy());
    v.pa = IslPwAff(isl_pw_aff_coalesce(pa));
    return v;
  }
  Value constant(int64_t c) { return s.cst(c); }
  Value add(const Value &a, const Value &b) { return simplify(s.add(a, b)); }
  Value sub(const Value &a, const Value &b) { return simplify(s.sub(a, b)); }
  Value mul(const Value &a, const Value &b) { return simplify(s.mul(a, b)); }
  Value min(const Value &a, const Value &b) { return simplify(s.min(a, b)); }
  Value max(const Value &a, const Value &b) { return simplify(s.max(a, b)); }
  Value rem(const Value &a, const Value &b) {
    if (!b.cst) {
      s.f.fail("a remainder by a variable");
      return a;
    }
    return simplify(s.mod(a, *b.cst));
  }
  Value div(const Value &a, const Value &b) {
    if (!b.cst) {
      s.f.fail("a division by a variable");
      return a;
    }
    return simplify(s.floorDiv(a, *b.cst));
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
    allBounds = context;
    for (StringRef other : {"u", "q", "v"})
      allBounds = s.andOf(allBounds, coordBounds(other));
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
    IslArith a{s, fixed, allBounds};
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
  /// The same with the bounds of the other processors' coordinates.
  Set allBounds;
};

/// `e` (a function of this processor's coordinates and the steps) as a
/// QExpr valid on the model's context; std::nullopt (with a reason in `f`)
/// when isl cannot express it.
std::optional<QExpr> toQExpr(const Expr &e, const TensorModel &tm,
                             Failure &f);

} // namespace sym
} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_LIB_ANALYSIS_SYMBOLICMODEL_H
