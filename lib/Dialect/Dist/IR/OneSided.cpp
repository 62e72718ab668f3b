//===- OneSided.cpp - the one-sided matrix products dist lowers -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// matchOneSidedProduct (OneSided.h): the statement's form and its index
// groups, the tensors' types and layouts and their matricized views, the
// schedule's one-sided commands, and the alpha-beta-gamma cost model that
// picks the stationary tensor for stationary(auto).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::dist;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// How a layout deals out one dimension of extent n: the parts (the product
/// of its grid axes' extents) and the block (ceil(n / parts) for blocked, 1
/// for cyclic, the block of block_cyclic, n when the dimension is whole).
struct Dealing {
  int64_t parts = 1, block = 1;
  bool partitioned = false;
};

Dealing dealingOf(DimDistAttr d, int64_t n, ArrayRef<int64_t> gridShape) {
  Dealing r;
  for (int64_t a : d.getAxes())
    r.parts *= gridShape[a];
  r.partitioned = d.getKind() != PartitionKind::none;
  switch (d.getKind()) {
  case PartitionKind::none:
    r.block = n;
    break;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked:
    r.block = ceilDiv(n, r.parts);
    break;
  case PartitionKind::cyclic:
    r.block = 1;
    break;
  case PartitionKind::block_cyclic:
    r.block = d.getBlock();
    break;
  }
  r.block = std::max<int64_t>(r.block, 1);
  return r;
}

/// The group of indices `names` (dimensions [lo, lo + names.size()) of `t`,
/// named `tensor`) merged into one dimension of the matricized view, its
/// extent in `extent`. The view's tile is the tensor's tile (each tile is
/// row-major over its local extents) exactly when at most one dimension of
/// the group is partitioned, say with blocks of b over p parts, and either
/// it is the group's first or b * p divides its extent (the dimensions
/// before it then repeat whole cycles): the merged dimension is dealt in
/// blocks of b * R over the same axes (R: the product of the extents after
/// it), block_cyclic(b * R), which for the first dimension also describes
/// blocked. Otherwise `error` says why.
FailureOr<DimDistAttr> mergeGroup(DistTensorType t, StringRef tensor,
                                  ArrayRef<std::string> names, int64_t lo,
                                  ArrayRef<int64_t> gridShape, int64_t &extent,
                                  std::string &error) {
  ArrayRef<DimDistAttr> dims = t.getLayout().getOuter().getDims();
  ArrayRef<int64_t> shape = t.getShape();
  int64_t n = names.size();
  extent = 1;
  for (int64_t d = lo; d < lo + n; ++d)
    extent *= shape[d];
  if (n == 1)
    return dims[lo];
  std::string group = "(" + llvm::join(names, ", ") + ")";
  int64_t part = -1;
  for (int64_t d = lo; d < lo + n; ++d) {
    if (dims[d].getKind() == PartitionKind::none)
      continue;
    if (part >= 0) {
      error = "'" + tensor.str() + "' partitions both '" + names[part - lo] +
              "' and '" + names[d - lo] +
              "', which its matricized view merges into one dimension " +
              group + "; partition at most one index of each group";
      return failure();
    }
    part = d;
  }
  MLIRContext *ctx = t.getContext();
  if (part < 0)
    return DimDistAttr::get(ctx, {}, PartitionKind::none, 0);
  Dealing dl = dealingOf(dims[part], shape[part], gridShape);
  int64_t before = 1, after = 1;
  for (int64_t d = lo; d < part; ++d)
    before *= shape[d];
  for (int64_t d = part + 1; d < lo + n; ++d)
    after *= shape[d];
  if (before > 1 && shape[part] % mulSaturated(dl.block, dl.parts) != 0) {
    error = "'" + tensor.str() + "' deals '" + names[part - lo] +
            "' in blocks of " + std::to_string(dl.block) + " over " +
            std::to_string(dl.parts) +
            " processes, which do not divide its "
            "extent " +
            std::to_string(shape[part]) +
            ", and indices come "
            "before it in the group " +
            group +
            ": its matricized view is not block-cyclic; partition the "
            "group's first index, or make the blocks times the processes "
            "divide the extent";
    return failure();
  }
  return DimDistAttr::get(ctx, dims[part].getAxes(),
                          PartitionKind::block_cyclic,
                          mulSaturated(dl.block, after));
}

/// The role of a tensor in the model: its matrix, its grid's extents, and
/// the statement indices of its two dimensions (i = 0, k = 1, j = 2).
struct Role {
  DistTensorType t;
  ArrayRef<int64_t> grid;
  std::array<int, 2> idx;
  std::array<Dealing, 2> deal;
  double copies = 1; // the processes of its unused, unfixed grid axes
};

Role roleOf(DistTensorType t, ArrayRef<int64_t> grid, std::array<int, 2> idx) {
  Role r{t, grid, idx, {}, 1};
  LevelLayoutAttr level = t.getLayout().getOuter();
  SmallVector<bool> used(grid.size(), false);
  for (auto [d, dim] : llvm::enumerate(level.getDims())) {
    r.deal[d] = dealingOf(dim, t.getShape()[d], grid);
    for (int64_t a : dim.getAxes())
      used[a] = true;
  }
  for (int64_t a : level.getFixedAxes())
    used[a] = true;
  for (auto [a, u] : llvm::enumerate(used))
    if (!u)
      r.copies *= grid[a];
  return r;
}

/// Whether dimension `dx` of `x` is dealt out exactly as dimension `ds` of
/// `s` (grids of one shape, same grid axes and block), so that a process
/// holds the same range of that index in both.
bool sameDealing(const Role &x, int dx, const Role &s, int ds) {
  DimDistAttr a = x.t.getLayout().getOuter().getDims()[dx];
  DimDistAttr b = s.t.getLayout().getOuter().getDims()[ds];
  return x.grid == s.grid && a.getAxes() == b.getAxes() &&
         x.deal[dx].block == s.deal[ds].block;
}

/// The cuts of [0, n) at the multiples of blocks b1 and b2 (the slicing's
/// intervals of one index: both tensors that have it cut it).
double intervals(int64_t n, int64_t b1, int64_t b2) {
  auto cuts = [&](int64_t b) { return b >= n ? 0 : (n - 1) / b; };
  int64_t l = std::lcm(b1, b2);
  return double(1 + cuts(b1) + cuts(b2) - cuts(l));
}

/// The model (docs/onesided.md, "Choosing the stationary tensor"), per
/// process holding a tile of the stationary tensor S and per product:
///  - words: for each moving tensor, the elements S's share (its tile over
///    its copies) needs that the process does not hold itself; accumulated
///    ones (C) count twice (a read and a write at the target); a replicated
///    C adds the allreduce across its copies;
///  - messages: for each moving tensor, its pieces: S's local intervals of
///    the shared index times the moving tensor's blocks along the free
///    index, over S's copies, for the part not held locally; plus 2 log2
///    of C's copies for its allreduce;
///  - flops: 2 M N K over S's tiles times its copies (the copies split the
///    work; processes off a fixed face hold nothing and compute nothing).
std::array<OneSidedEstimate, 3> estimate(const std::array<Role, 3> &r,
                                         double batches) {
  std::array<double, 3> extent = {double(r[0].t.getShape()[0]),
                                  double(r[0].t.getShape()[1]),
                                  double(r[1].t.getShape()[1])};
  const Role &c = r[2];
  double cTile = extent[0] * extent[2] / (c.deal[0].parts * c.deal[1].parts);
  std::array<OneSidedEstimate, 3> est;
  for (int s = 0; s < 3; ++s) {
    const Role &st = r[s];
    OneSidedEstimate &e = est[s];
    if (c.copies > 1) {
      e.words = 2 * cTile;
      e.messages = 2 * std::ceil(std::log2(c.copies));
    }
    e.flops = 2 * extent[0] * extent[1] * extent[2] /
              (st.deal[0].parts * st.deal[1].parts * st.copies);
    for (int x = 0; x < 3; ++x) {
      if (x == s)
        continue;
      const Role &mv = r[x];
      double needed = 1 / st.copies, local = 1, pieces = 1 / st.copies;
      for (int d = 0; d < 2; ++d) {
        int index = mv.idx[d];
        auto *shared = llvm::find(st.idx, index);
        int64_t n = mv.t.getShape()[d];
        if (shared != st.idx.end()) {
          int ds = shared - st.idx.begin();
          needed *= extent[index] / st.deal[ds].parts;
          pieces *=
              std::max(1.0, intervals(n, st.deal[ds].block, mv.deal[d].block) /
                                st.deal[ds].parts);
          if (mv.deal[d].partitioned && !sameDealing(mv, d, st, ds))
            local /= mv.deal[d].parts;
        } else {
          needed *= extent[index];
          local /= mv.deal[d].parts;
          pieces *= double(ceilDiv(n, mv.deal[d].block));
        }
      }
      e.words += needed * (1 - local) * (x == 2 ? 2 : 1);
      e.messages += pieces * (1 - local);
    }
    e.messages *= batches;
    e.words *= batches;
    e.flops *= batches;
  }
  return est;
}

bool skewed(DistTensorType t) {
  return llvm::any_of(t.getLayout().getOuter().getDims(),
                      [](DimDistAttr d) { return !d.getSkew().empty(); });
}

/// The statement's index groups: C = (batch, i, j), A = (batch, i, k),
/// B = (batch, k, j), each a list of index names; `a` and `b` the operands
/// in their roles.
struct Groups {
  SmallVector<std::string> batch, i, j, k;
  const Access *a = nullptr, *b = nullptr;
};

constexpr StringLiteral kForm =
    "the statement must read C(i,j) = A(i,k) * B(k,j), or a contraction "
    "that matricizes to one, C(b..,i..,j..) = A(b..,i..,k..) * "
    "B(b..,k..,j..) (the operands in either order; the batch indices b.. "
    "first, then each group of indices adjacent and in one order in every "
    "tensor; no transposed accesses)";

/// Splits the indices of `out = x * y` into groups, or says why not.
FailureOr<Groups> groupIndices(const Access &out, const Access *x,
                               const Access *y, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  for (const Access *acc : {&out, x, y}) {
    llvm::StringSet<> seen;
    for (const std::string &v : acc->indices)
      if (!seen.insert(v).second)
        return fail("'" + acc->tensor + "' repeats index '" + v +
                    "' (a diagonal); " + kForm);
  }
  auto has = [](const Access *acc, const std::string &v) {
    return llvm::is_contained(acc->indices, v);
  };
  Groups g;
  for (const std::string &v : out.indices) {
    if (has(x, v) && has(y, v))
      g.batch.push_back(v);
    else if (!has(x, v) && !has(y, v))
      return fail("index '" + v + "' of '" + out.tensor +
                  "' is on no operand; " + kForm);
  }
  // A: the operand with C's first index after the batch indices.
  size_t nb = g.batch.size();
  if (out.indices.size() < nb + 2)
    return fail(kForm);
  g.a = has(x, out.indices[nb]) ? x : y;
  g.b = g.a == x ? y : x;
  for (size_t d = nb; d < out.indices.size(); ++d)
    (has(g.a, out.indices[d]) ? g.i : g.j).push_back(out.indices[d]);
  for (const std::string &v : g.a->indices)
    if (!has(&out, v)) {
      if (!has(g.b, v))
        return fail("index '" + v + "' is only on '" + g.a->tensor +
                    "' (a sum over it alone); " + kForm);
      g.k.push_back(v);
    }
  for (const std::string &v : g.b->indices)
    if (!has(&out, v) && !has(g.a, v))
      return fail("index '" + v + "' is only on '" + g.b->tensor +
                  "' (a sum over it alone); " + kForm);
  auto cat = [](std::initializer_list<ArrayRef<std::string>> parts) {
    SmallVector<std::string> r;
    for (ArrayRef<std::string> p : parts)
      r.append(p.begin(), p.end());
    return r;
  };
  bool ok = !g.i.empty() && !g.j.empty() && !g.k.empty() &&
            ArrayRef(out.indices) == ArrayRef(cat({g.batch, g.i, g.j})) &&
            ArrayRef(g.a->indices) == ArrayRef(cat({g.batch, g.i, g.k})) &&
            ArrayRef(g.b->indices) == ArrayRef(cat({g.batch, g.k, g.j}));
  if (!ok)
    return fail(kForm);
  return g;
}

/// The matricized view of `t` (named `name`): its batch dimensions merged
/// into `batchDim` (with extent `nb`), the next two groups into the
/// matrix's dimensions.
FailureOr<DistTensorType>
matricize(DistTensorType t, StringRef name, ArrayRef<std::string> batch,
          ArrayRef<std::string> g1, ArrayRef<std::string> g2,
          ArrayRef<int64_t> grid, DimDistAttr &batchDim, int64_t &nb,
          std::string &error) {
  if (t.getRank() == 2 && batch.empty()) {
    nb = 1;
    return t;
  }
  int64_t e1, e2;
  if (!batch.empty()) {
    FailureOr<DimDistAttr> d = mergeGroup(t, name, batch, 0, grid, nb, error);
    if (failed(d))
      return failure();
    batchDim = *d;
  }
  FailureOr<DimDistAttr> d1 =
      mergeGroup(t, name, g1, batch.size(), grid, e1, error);
  if (failed(d1))
    return failure();
  FailureOr<DimDistAttr> d2 =
      mergeGroup(t, name, g2, batch.size() + g1.size(), grid, e2, error);
  if (failed(d2))
    return failure();
  MLIRContext *ctx = t.getContext();
  LevelLayoutAttr level = t.getLayout().getOuter();
  auto mat = LevelLayoutAttr::get(ctx, {*d1, *d2}, level.getFixedAxes(),
                                  level.getFixedCoords());
  return DistTensorType::get(
      ctx, {e1, e2}, t.getElementType(),
      LayoutAttr::get(ctx, t.getLayout().getGrid(), {mat}));
}

int64_t processes(ArrayRef<int64_t> grid) {
  int64_t n = 1;
  for (int64_t e : grid)
    n *= e;
  return n;
}

/// Extents given at call time: the matrices as they are (a matricized view
/// or a batch would need the extents), and no cost model (stationary(auto)
/// needs the extents).
LogicalResult checkDynamic(const OneSidedProduct &p,
                           std::array<DistTensorType, 3> types,
                           StringRef chosen, std::string &error) {
  std::array<const std::string *, 3> names = {&p.a, &p.b, &p.c};
  for (int x = 0; x < 3; ++x)
    if (types[x].getRank() != 2) {
      error = "'" + *names[x] + "' has rank " +
              std::to_string(types[x].getRank()) +
              " and the product has dynamic extents; with dynamic extents "
              "the one-sided lowering takes matrix products C(i,j) = "
              "A(i,k) * B(k,j) of 2-D tensors";
      return failure();
    }
  if (chosen == "auto") {
    error = "the cost model of stationary(auto) needs the extents, and some "
            "are dynamic; name the tensor that stays, stationary(" +
            p.c + ") for instance";
    return failure();
  }
  return success();
}

/// The checks every operand of a one-sided product passes: dense, f32 or
/// f64, on a one-level grid in scope of as many processes as C's, unskewed.
LogicalResult checkOperands(const OneSidedProduct &p,
                            std::array<DistTensorType, 3> ts,
                            const GridShapes &grids, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  DistTensorType at = ts[0], bt = ts[1], ct = ts[2];
  StringRef cGrid = ct.getLayout().getGrid().getValue();
  int64_t procs = processes(grids.lookup(cGrid));
  for (auto [name, t] : {std::pair{&p.a, at}, {&p.b, bt}, {&p.c, ct}}) {
    if (t.isSparse())
      return fail("'" + *name +
                  "' is sparse; the one-sided lowering takes "
                  "dense tensors");
    Type elt = t.getElementType();
    if (!elt.isF32() && !elt.isF64())
      return fail("'" + *name + "' has element type " +
                  llvm::Twine(elt.isInteger() ? "integer" : "other") +
                  "; the one-sided lowering's GEMMs take f32 or f64");
    if (t.getLayout().getLevels().size() != 1)
      return fail("'" + *name +
                  "' is laid out on a hierarchical machine; "
                  "the one-sided lowering takes one-level grids");
    StringRef grid = t.getLayout().getGrid().getValue();
    if (!grids.count(grid))
      return fail("'" + *name + "' is on grid @" + grid +
                  ", which is not in scope");
    int64_t n = processes(grids.lookup(grid));
    if (n != procs)
      return fail("'" + *name + "' is on grid @" + grid + " of " + Twine(n) +
                  " processes and C on @" + cGrid + " of " + Twine(procs) +
                  "; the one-sided lowering takes A, B and C on grids of "
                  "the same processes (as many of them)");
    if (skewed(t))
      return fail("'" + *name +
                  "' has a skewed layout; the one-sided "
                  "lowering takes blocked, cyclic and block-cyclic "
                  "dimensions without skew");
  }
  return success();
}

/// The stationary tensor: the one named, or with `auto` the one the cost
/// model gives the least time (ties keep C, then A: C moves nothing back).
void chooseStationary(OneSidedProduct &p, StringRef chosen) {
  if (chosen == "auto") {
    p.chosenByModel = true;
    std::array<double, 3> t;
    for (int s = 0; s < 3; ++s)
      t[s] = p.estimates[s].seconds(p.costs);
    p.stationary = Stationary::C;
    if (t[0] < t[2] && t[0] <= t[1])
      p.stationary = Stationary::A;
    else if (t[1] < t[2] && t[1] < t[0])
      p.stationary = Stationary::B;
  } else if (chosen == p.a) {
    p.stationary = Stationary::A;
  } else if (chosen == p.b) {
    p.stationary = Stationary::B;
  } else {
    p.stationary = Stationary::C;
  }
}

} // namespace

StringRef dist::stationaryTensor(const OneSidedProduct &p) {
  switch (p.stationary) {
  case Stationary::A:
    return p.a;
  case Stationary::B:
    return p.b;
  case Stationary::C:
    return p.c;
  }
  return p.c;
}

FailureOr<OneSidedProduct>
dist::matchOneSidedProduct(const IndexStatement &stmt,
                           const llvm::StringMap<DistTensorType> &types,
                           const LoopNest &nest, const GridShapes &grids,
                           const OneSidedCosts &costs, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  const IndexExpr *e = stmt.rhs.get();
  bool twoAccesses = e && e->kind == IndexExpr::Kind::Mul && e->lhs && e->rhs &&
                     e->lhs->kind == IndexExpr::Kind::Access &&
                     e->rhs->kind == IndexExpr::Kind::Access;
  if (!twoAccesses)
    return fail("it computes matrix products C(i,j) = A(i,k) * B(k,j) or "
                "C(i,j) += A(i,k) * B(k,j) (and contractions that matricize "
                "to them), without constant factors, signs or sums");
  const Access &out = stmt.lhs;
  FailureOr<Groups> g =
      groupIndices(out, &e->lhs->access, &e->rhs->access, error);
  if (failed(g))
    return failure();
  if (g->a->tensor == g->b->tensor || g->a->tensor == out.tensor ||
      g->b->tensor == out.tensor)
    return fail("A, B and C must be three different tensors");

  OneSidedProduct p;
  p.a = g->a->tensor;
  p.b = g->b->tensor;
  p.c = out.tensor;
  p.costs = costs;
  DistTensorType at = types.lookup(p.a), bt = types.lookup(p.b),
                 ct = types.lookup(p.c);
  StringRef cGrid = ct.getLayout().getGrid().getValue();
  if (!grids.count(cGrid))
    return fail("C's grid @" + cGrid + " is not in scope");
  if (failed(checkOperands(p, {at, bt, ct}, grids, error)))
    return failure();
  if (at.getElementType() != ct.getElementType() ||
      bt.getElementType() != ct.getElementType())
    return fail("A, B and C must have one element type");
  StringRef chosen = nest.stationary ? StringRef(*nest.stationary) : "auto";
  bool dynamic =
      !at.hasStaticShape() || !bt.hasStaticShape() || !ct.hasStaticShape();
  if (dynamic && failed(checkDynamic(p, {at, bt, ct}, chosen, error)))
    return failure();

  // The matricized views, and the batch dealt out one way in all three.
  auto gridOf = [&](DistTensorType t) -> ArrayRef<int64_t> {
    return grids.find(t.getLayout().getGrid().getValue())->second;
  };
  std::array<DimDistAttr, 3> batchDim;
  std::array<int64_t, 3> nb;
  FailureOr<DistTensorType> ma = matricize(
      at, p.a, g->batch, g->i, g->k, gridOf(at), batchDim[0], nb[0], error);
  if (failed(ma))
    return failure();
  FailureOr<DistTensorType> mb = matricize(
      bt, p.b, g->batch, g->k, g->j, gridOf(bt), batchDim[1], nb[1], error);
  if (failed(mb))
    return failure();
  FailureOr<DistTensorType> mc = matricize(
      ct, p.c, g->batch, g->i, g->j, gridOf(ct), batchDim[2], nb[2], error);
  if (failed(mc))
    return failure();
  p.matA = *ma;
  p.matB = *mb;
  p.matC = *mc;
  double batchesPerProcess = 1;
  if (!g->batch.empty()) {
    std::string idx = "(" + llvm::join(g->batch, ", ") + ")";
    auto isWhole = [](DimDistAttr d) {
      return d.getKind() == PartitionKind::none;
    };
    bool partitioned = !llvm::all_of(batchDim, isWhole);
    if (partitioned) {
      std::array<DistTensorType, 3> ts = {at, bt, ct};
      std::array<std::string *, 3> names = {&p.a, &p.b, &p.c};
      for (int x = 0; x < 2; ++x) {
        Dealing dx = dealingOf(batchDim[x], nb[x], gridOf(ts[x]));
        Dealing dc = dealingOf(batchDim[2], nb[2], gridOf(ct));
        if (ts[x].getLayout().getGrid() != ct.getLayout().getGrid() ||
            batchDim[x].getAxes() != batchDim[2].getAxes() ||
            dx.partitioned != dc.partitioned || dx.block != dc.block)
          return fail("the batch indices " + idx +
                      " are dealt out "
                      "differently in '" +
                      *names[x] + "' and '" + p.c +
                      "'; the one-sided lowering takes them whole in all "
                      "three tensors, or partitioned identically on one grid");
      }
    }
    MLIRContext *ctx = ct.getContext();
    auto level = LevelLayoutAttr::get(ctx, {batchDim[2]}, {}, {});
    p.batch = DistTensorType::get(
        ctx, {nb[2]}, ct.getElementType(),
        LayoutAttr::get(ctx, ct.getLayout().getGrid(), {level}));
    Dealing dc = dealingOf(batchDim[2], nb[2], gridOf(ct));
    batchesPerProcess = double(ceilDiv(ceilDiv(nb[2], dc.block), dc.parts)) *
                        std::min(dc.block, nb[2]);
  }

  if (dynamic) {
    p.estimated = false;
  } else {
    std::array<Role, 3> roles = {roleOf(p.matA, gridOf(at), {0, 1}),
                                 roleOf(p.matB, gridOf(bt), {1, 2}),
                                 roleOf(p.matC, gridOf(ct), {0, 2})};
    p.estimates = estimate(roles, batchesPerProcess);
  }
  chooseStationary(p, chosen);
  p.prefetch = nest.prefetch.value_or(kDefaultPrefetch);
  p.offset = nest.offset.value_or(true);
  return p;
}

bool dist::isOneSidedCompute(ComputeOp op) {
  ScheduleAttr schedule = op.getScheduleAttr();
  if (!schedule || !schedule.isValid())
    return false;
  using K = ScheduleCommand::Kind;
  return llvm::any_of(schedule.getDecoded(), [](const ScheduleCommand &c) {
    return c.kind == K::Stationary || c.kind == K::Prefetch ||
           c.kind == K::Offset;
  });
}

FailureOr<GridShapes>
dist::oneSidedGrids(ComputeOp op, const llvm::StringMap<DistTensorType> &types,
                    std::string &error) {
  GridShapes grids;
  for (const auto &entry : types) {
    FlatSymbolRefAttr ref = entry.second.getLayout().getGrid();
    if (grids.count(ref.getValue()))
      continue;
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(op, ref);
    if (!grid) {
      error = "'" + entry.first().str() + "''s grid @" + ref.getValue().str() +
              " is not in scope";
      return failure();
    }
    if (grid.getNumLevels() != 1) {
      error = "the one-sided lowering takes one-level grids";
      return failure();
    }
    // The grid's own verifier reports a bad extent; the ownership
    // relations below divide by them.
    if (llvm::any_of(grid.getShape(), [](int64_t e) { return e < 1; })) {
      error = "grid @" + ref.getValue().str() +
              " has an extent below 1";
      return failure();
    }
    grids[ref.getValue()] = llvm::to_vector(grid.getShape());
  }
  return grids;
}

FailureOr<OneSidedProduct>
dist::getOneSidedProduct(ComputeOp op, const OneSidedCosts &costs) {
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  if (failed(nest))
    return failure();
  const IndexStatement &stmt = nest->getStatement();
  llvm::StringMap<DistTensorType> types;
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors()))
    types[cast<StringAttr>(n).getValue()] = cast<DistTensorType>(v.getType());
  std::string why;
  FailureOr<GridShapes> grids = oneSidedGrids(op, types, why);
  FailureOr<OneSidedProduct> p = failure();
  if (succeeded(grids))
    p = matchOneSidedProduct(stmt, types, nest->nest, *grids, costs, why);
  if (failed(p))
    return op.emitOpError("one-sided product cannot be lowered: ") << why;
  return p;
}

std::string dist::describeOneSided(const OneSidedProduct &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto num = [](double w) { return llvm::format("%.3g", w); };
  const OneSidedCosts &c = p.costs;
  os << "one-sided product (docs/onesided.md): stationary '"
     << stationaryTensor(p) << "' ("
     << (p.chosenByModel ? "chosen by the cost model" : "the schedule's")
     << ")";
  if (!p.estimated)
    os << "; no model estimates: the extents are given at call time";
  else
    os << "; the model's seconds per process (alpha " << num(c.alpha)
       << ", beta " << num(c.beta) << ", gamma " << num(c.gamma) << "):";
  for (int x = 0; x < 3 && p.estimated; ++x) {
    const OneSidedEstimate &e = p.estimates[x];
    os << (x ? ";" : "") << " stationary "
       << "ABC"[x] << " " << num(e.seconds(c)) << " = "
       << num(c.alpha * e.messages) << " + " << num(c.beta * e.words) << " + "
       << num(c.gamma * e.flops) << " (" << num(e.messages) << " messages, "
       << num(e.words) << " words, " << num(e.flops) << " flops)";
  }
  os << "; slices of the moving tensors are got with MPI_Rget";
  if (p.stationary != Stationary::C)
    os << " and partial results of '" << p.c
       << "' added into its owners with MPI_Raccumulate";
  os << ", " << p.prefetch << " get(s) in flight ahead of the GEMM, "
     << (p.offset ? "with" : "without") << " the iteration offset";
  if (p.batch)
    os << ", one product per batch element (" << p.batch.getShape()[0]
       << " in all)";
  return s;
}
