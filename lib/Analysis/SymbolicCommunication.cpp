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

#include "SymbolicModel.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::comm_detail;
using namespace mlir::dist::sym;

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
  bool pieces(TransferPlan::Kind kind, bool blocks = false);
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
/// shares every box, contiguous in row-major order (dimensions before the
/// one partitioned over exactly that axis are single indices), and holds
/// it as equal pieces, one each; or, with `blocks` (reduce-scatter only),
/// as the layout's blocks of a box that starts at 0: member j holds
/// [j * B, min((j + 1) * B, size)), the last ones shorter or empty (an
/// extent the group does not divide).
bool Classifier::pieces(TransferPlan::Kind kind, bool blocks) {
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
    int64_t G = tm.extent(a), B = L.getDim(dim).block;
    if (blocks && (L.getDim(dim).kind != PartitionKind::blocked || B <= 0 ||
                   L.getDim(dim).parts != G || !L.getSkews(dim).empty()))
      continue;
    SmallVector<Expr> u = with(p, a, s.var("u" + std::to_string(a)));
    if (!never(s.notOf(tm.sameBox(bp, tm.box(u, t)))))
      continue;
    std::optional<int64_t> size = constantOf(bp.size[dim]);
    if (!size || *size < 1 || (blocks ? *size > G * B : *size % G != 0))
      continue;
    Set bad = blocks ? s.ne(bp.lo[dim], s.cst(0)) : s.none();
    for (int64_t d = 0; d < dim; ++d)
      bad = s.orOf(bad, s.ne(bp.size[d], s.cst(1)));
    if (!never(bad))
      continue;
    // Member j (coordinate j on axis a) holds piece j (the pieces have a
    // constant stride, so that j * stride stays quasi-affine).
    Expr j = s.var("q" + std::to_string(a));
    Expr start = s.mul(j, s.cst(blocks ? B : *size / G));
    SymBox pb = bp;
    pb.lo[dim] = s.add(bp.lo[dim], start);
    pb.size[dim] =
        blocks ? s.max(s.cst(0), s.min(s.cst(B), s.sub(s.cst(*size), start)))
               : s.cst(*size / G);
    Set held =
        s.orOf(s.eq(pb.size[dim], s.cst(0)), tm.holdsBox(with(p, a, j), pb));
    if (!never(s.notOf(held)))
      continue;
    plan.kind = kind;
    plan.axes = {int64_t(a)};
    plan.splitDim = dim;
    plan.pieceBlock = blocks ? B : 0;
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
  if (!tm.anyReplicated() &&
      (pieces(TransferPlan::Kind::ReduceScatter) ||
       pieces(TransferPlan::Kind::ReduceScatter, /*blocks=*/true)))
    return;
  if (reduction())
    return;
  plan.kind = TransferPlan::Kind::General;
  plan.whyGeneral = "its partial results fit no reduction: not a "
                    "reduce-scatter, reduce or allreduce over grid axes "
                    "onto its owners";
}
} // namespace

/// isl operations allowed per tensor (the DISTAL algorithms on any grid
/// need well under 1 % of it).
constexpr unsigned long kIslOperationBudget = 20'000'000;

std::vector<TransferPlan>
mlir::dist::analyzeCommunication(const ComputeModel &m) {
  std::vector<TransferPlan> plans;
  for (const std::string &name : m.names) {
    TransferPlan plan;
    plan.tensor = name;
    plan.output = name == m.stmt.lhs.tensor;
    plan.level = m.level.lookup(name);
    plan.steps = m.stepsAt(plan.level);
    IslContext ctx;
    // A bound on isl's work per tensor, so that a schedule isl cannot
    // simplify costs a remark (the general exchange), not minutes.
    isl_ctx_set_max_operations(ctx.get(), kIslOperationBudget);
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
