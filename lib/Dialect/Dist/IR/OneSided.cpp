//===- OneSided.cpp - the one-sided matrix products dist lowers -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// matchOneSidedProduct (OneSided.h): the statement's form, the tensors'
// types and layouts, the schedule's one-sided commands, and the cost
// model that picks the stationary tensor for stationary(auto).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/OneSided.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

/// How a layout cuts a 2-D tensor: parts along each dimension and the
/// number of copies (the processes of the unused, unfixed grid axes).
struct Cuts {
  std::array<double, 2> parts = {1, 1};
  double copies = 1;
};

Cuts cutsOf(DistTensorType t, ArrayRef<int64_t> gridShape) {
  Cuts c;
  LevelLayoutAttr level = t.getLayout().getOuter();
  SmallVector<bool> used(gridShape.size(), false);
  for (auto [d, dim] : llvm::enumerate(level.getDims())) {
    for (int64_t a : dim.getAxes()) {
      c.parts[d] *= gridShape[a];
      used[a] = true;
    }
  }
  for (int64_t a : level.getFixedAxes())
    used[a] = true;
  for (auto [a, u] : llvm::enumerate(used))
    if (!u)
      c.copies *= gridShape[a];
  return c;
}

/// Whether dimension `dx` of `x` is dealt out exactly as dimension `ds` of
/// `s` (same grid axes, kind and block), so that a process holds the same
/// range of that index in both.
bool sameDealing(DistTensorType x, int64_t dx, DistTensorType s, int64_t ds) {
  DimDistAttr a = x.getLayout().getOuter().getDims()[dx];
  DimDistAttr b = s.getLayout().getOuter().getDims()[ds];
  return a.getAxes() == b.getAxes() && a.getKind() == b.getKind() &&
         a.getBlock() == b.getBlock();
}

/// The model's words per process (docs/onesided.md, "Choosing the
/// stationary tensor"): for each moving tensor, the elements the process's
/// share of the stationary tile needs that it does not hold itself; an
/// accumulated one (C) counts twice (a read and a write at the target); a
/// replicated C adds the allreduce across its copies. Indices named by
/// their position: i = 0, k = 1, j = 2.
std::array<double, 3> modelWords(DistTensorType at, DistTensorType bt,
                                 DistTensorType ct,
                                 ArrayRef<int64_t> gridShape) {
  struct Role {
    DistTensorType t;
    std::array<int, 2> idx; // the statement indices of its two dimensions
    Cuts cuts;
  };
  std::array<Role, 3> r = {Role{at, {0, 1}, cutsOf(at, gridShape)},
                           Role{bt, {1, 2}, cutsOf(bt, gridShape)},
                           Role{ct, {0, 2}, cutsOf(ct, gridShape)}};
  std::array<double, 3> extent = {double(at.getShape()[0]),
                                  double(at.getShape()[1]),
                                  double(bt.getShape()[1])};
  double cTile =
      extent[0] * extent[2] / (r[2].cuts.parts[0] * r[2].cuts.parts[1]);
  double reduceC = r[2].cuts.copies > 1 ? 2 * cTile : 0;
  std::array<double, 3> w;
  for (int s = 0; s < 3; ++s) {
    const Role &st = r[s];
    double words = reduceC;
    for (int x = 0; x < 3; ++x) {
      if (x == s)
        continue;
      const Role &mv = r[x];
      double needed = 1 / st.cuts.copies, local = 1;
      for (int d = 0; d < 2; ++d) {
        int index = mv.idx[d];
        auto *shared = llvm::find(st.idx, index);
        if (shared != st.idx.end()) {
          int ds = shared - st.idx.begin();
          needed *= extent[index] / st.cuts.parts[ds];
          if (mv.cuts.parts[d] > 1 && !sameDealing(mv.t, d, st.t, ds))
            local /= mv.cuts.parts[d];
        } else {
          needed *= extent[index];
          local /= mv.cuts.parts[d];
        }
      }
      words += needed * (1 - local) * (x == 2 ? 2 : 1);
    }
    w[s] = words;
  }
  return w;
}

bool skewed(DistTensorType t) {
  return llvm::any_of(t.getLayout().getOuter().getDims(),
                      [](DimDistAttr d) { return !d.getSkew().empty(); });
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

FailureOr<OneSidedProduct> dist::matchOneSidedProduct(
    const IndexStatement &stmt, const llvm::StringMap<DistTensorType> &types,
    const LoopNest &nest, ArrayRef<int64_t> gridShape, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  const IndexExpr *e = stmt.rhs.get();
  bool twoAccesses = e && e->kind == IndexExpr::Kind::Mul && e->lhs && e->rhs &&
                     e->lhs->kind == IndexExpr::Kind::Access &&
                     e->rhs->kind == IndexExpr::Kind::Access;
  const Access &out = stmt.lhs;
  if (!twoAccesses || out.indices.size() != 2)
    return fail("it computes matrix products C(i,j) = A(i,k) * B(k,j) or "
                "C(i,j) += A(i,k) * B(k,j), without constant factors, signs "
                "or sums");
  const Access *a = &e->lhs->access, *b = &e->rhs->access;
  // The operand that shares C's row index is A (products commute).
  if (b->indices.size() == 2 && b->indices[0] == out.indices[0])
    std::swap(a, b);
  const std::string &i = out.indices[0], &j = out.indices[1];
  bool shapeOk = a->indices.size() == 2 && b->indices.size() == 2 && i != j &&
                 a->indices[0] == i && b->indices[1] == j &&
                 a->indices[1] == b->indices[0] && a->indices[1] != i &&
                 a->indices[1] != j;
  if (!shapeOk)
    return fail("the statement must read C(i,j) = A(i,k) * B(k,j) (the "
                "operands in either order, no transposed accesses)");
  if (a->tensor == b->tensor || a->tensor == out.tensor ||
      b->tensor == out.tensor)
    return fail("A, B and C must be three different tensors");

  OneSidedProduct p;
  p.a = a->tensor;
  p.b = b->tensor;
  p.c = out.tensor;
  DistTensorType at = types.lookup(p.a), bt = types.lookup(p.b),
                 ct = types.lookup(p.c);
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
    if (t.getLayout().getGrid() != ct.getLayout().getGrid())
      return fail("'" + *name + "' is on grid @" +
                  t.getLayout().getGrid().getValue() + ", not on C's grid @" +
                  ct.getLayout().getGrid().getValue() +
                  "; put A, B and C on one grid");
    if (t.getLayout().getLevels().size() != 1)
      return fail("'" + *name +
                  "' is laid out on a hierarchical machine; "
                  "the one-sided lowering takes one-level grids");
    if (skewed(t))
      return fail("'" + *name +
                  "' has a skewed layout; the one-sided "
                  "lowering takes blocked, cyclic and block-cyclic "
                  "dimensions without skew");
  }
  if (at.getElementType() != ct.getElementType() ||
      bt.getElementType() != ct.getElementType())
    return fail("A, B and C must have one element type");

  p.words = modelWords(at, bt, ct, gridShape);
  StringRef chosen = nest.stationary ? StringRef(*nest.stationary) : "auto";
  if (chosen == "auto") {
    p.chosenByModel = true;
    // The fewest words; ties keep C, then A (C moves nothing back).
    p.stationary = Stationary::C;
    if (p.words[0] < p.words[2] && p.words[0] <= p.words[1])
      p.stationary = Stationary::A;
    else if (p.words[1] < p.words[2] && p.words[1] < p.words[0])
      p.stationary = Stationary::B;
  } else if (chosen == p.a) {
    p.stationary = Stationary::A;
  } else if (chosen == p.b) {
    p.stationary = Stationary::B;
  } else {
    p.stationary = Stationary::C;
  }
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

FailureOr<OneSidedProduct> dist::getOneSidedProduct(ComputeOp op) {
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  if (failed(nest))
    return failure();
  const IndexStatement &stmt = nest->getStatement();
  llvm::StringMap<DistTensorType> types;
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors()))
    types[cast<StringAttr>(n).getValue()] = cast<DistTensorType>(v.getType());
  auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
      op, types[stmt.lhs.tensor].getLayout().getGrid());
  std::string why = "its grid is not in scope";
  if (!grid)
    return op.emitOpError("one-sided product cannot be lowered: ") << why;
  FailureOr<OneSidedProduct> p =
      matchOneSidedProduct(stmt, types, nest->nest, grid.getShape(), why);
  if (failed(p))
    return op.emitOpError("one-sided product cannot be lowered: ") << why;
  return p;
}

std::string dist::describeOneSided(const OneSidedProduct &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto words = [](double w) { return llvm::format("%.4g", w); };
  os << "one-sided product (docs/onesided.md): stationary '"
     << stationaryTensor(p) << "' ("
     << (p.chosenByModel ? "chosen by the cost model" : "the schedule's")
     << "); the model's words per process: stationary A " << words(p.words[0])
     << ", B " << words(p.words[1]) << ", C " << words(p.words[2])
     << "; slices of the moving tensors are got with MPI_Rget";
  if (p.stationary != Stationary::C)
    os << " and partial results of '" << p.c
       << "' added into its owners with MPI_Raccumulate";
  os << ", " << p.prefetch << " get(s) in flight ahead of the GEMM, "
     << (p.offset ? "with" : "without") << " the iteration offset";
  return s;
}
