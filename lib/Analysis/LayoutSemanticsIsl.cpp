//===- LayoutSemanticsIsl.cpp - layouts as exact isl relations --*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The ownership and local-index relations of a LayoutSemantics as isl
// maps. They are built as text (quasi-affine constraints with floor / mod,
// which isl turns into existentially quantified variables) and parsed;
// every name in the text is generated here (T, P, L, i<d>, p<a>, l<d>), so
// no user name can clash with isl's syntax. The closed forms they must
// agree with are in LayoutSemantics.cpp.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Semantics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// LayoutSemantics: isl text
//===----------------------------------------------------------------------===//

namespace {
/// An affine expression over processor variables: sum coeff * var + constant.
struct Linear {
  SmallVector<std::pair<int64_t, std::string>> terms;
  int64_t constant = 0;

  Linear scaled(int64_t k) const {
    Linear r;
    for (const auto &[c, v] : terms)
      r.terms.push_back({c * k, v});
    r.constant = constant * k;
    return r;
  }
  /// Appends the terms as " + 3*p0 - 2*p1 + 5" (signed, never empty).
  void appendSigned(std::string &out) const {
    for (const auto &[c, v] : terms) {
      if (c == 0)
        continue;
      out += c < 0 ? " - " : " + ";
      int64_t a = c < 0 ? -c : c;
      if (a != 1)
        out += std::to_string(a) + "*";
      out += v;
    }
    if (constant != 0)
      out += (constant < 0 ? " - " : " + ") +
             std::to_string(constant < 0 ? -constant : constant);
  }
  std::string str() const {
    std::string s = "0";
    appendSigned(s);
    return s;
  }
};

std::string paren(const std::string &s) { return "(" + s + ")"; }

/// `e` (an index expression) shifted by `lin`: "(e) + lin".
std::string plus(const std::string &e, const Linear &lin) {
  std::string s = paren(e);
  lin.appendSigned(s);
  return s;
}

/// Constraints for tensor dimension `dim` with index expression `e` owned
/// by part `q`; appends them to `out`. Returns the local index expression.
std::string dimText(const DimDistribution &dim, const std::string &e,
                    const Linear &q, SmallVectorImpl<std::string> &out) {
  const int64_t b = dim.block, Q = dim.parts;
  switch (dim.kind) {
  case PartitionKind::none:
    return e;
  case PartitionKind::nonzeros: // sparse tensors only (DistTensorType::verify)
  case PartitionKind::blocked: {
    if (b <= 0)
      return e; // empty dimension: the bounds already exclude every index
    Linear lo = q.scaled(b), hi = q.scaled(b);
    hi.constant += b - 1;
    out.push_back(lo.str() + " <= " + paren(e) + " <= " + hi.str());
    return plus(e, q.scaled(-b));
  }
  case PartitionKind::cyclic:
    if (Q == 1)
      return e;
    out.push_back(paren(e) + " mod " + std::to_string(Q) + " = " + q.str());
    return "floor(" + paren(e) + "/" + std::to_string(Q) + ")";
  case PartitionKind::block_cyclic: {
    if (Q > 1)
      out.push_back("floor(" + paren(e) + "/" + std::to_string(b) + ") mod " +
                    std::to_string(Q) + " = " + q.str());
    if (b == 1)
      return Q == 1 ? e : "floor(" + paren(e) + "/" + std::to_string(Q) + ")";
    if (Q == 1)
      return e;
    return std::to_string(b) + "*floor(" + paren(e) + "/" +
           std::to_string(mulSaturated(b, Q)) + ") + " + paren(e) + " mod " +
           std::to_string(b);
  }
  }
  return e;
}

std::string joinAnd(ArrayRef<std::string> parts) {
  std::string s;
  for (auto [i, p] : llvm::enumerate(parts)) {
    if (i)
      s += " and ";
    s += p;
  }
  return s;
}

std::string tupleText(char name, char var, size_t n) {
  std::string s(1, name);
  s += "[";
  for (size_t i = 0; i < n; ++i) {
    if (i)
      s += ", ";
    s += var + std::to_string(i);
  }
  return s + "]";
}
} // namespace

std::string LayoutSemantics::buildText(bool withLocal) const {
  const size_t rank = shape.size(), procRank = gridShape.size();
  const unsigned last = getNumLevels() - 1;
  std::string space =
      tupleText('T', 'i', rank) + " -> " + tupleText('P', 'p', procRank);
  if (withLocal)
    space = "[" + space + "] -> " + tupleText('L', 'l', rank);

  SmallVector<std::string> bounds;
  for (size_t d = 0; d < rank; ++d)
    bounds.push_back("0 <= i" + std::to_string(d) + " < " +
                     std::to_string(shape[d]));
  for (size_t a = 0; a < procRank; ++a)
    bounds.push_back("0 <= p" + std::to_string(a) + " < " +
                     std::to_string(gridShape[a]));

  // One disjunct per processor of the outer levels (levels 0 .. last-1,
  // whose tile extents fix the tensor of the next level); the innermost
  // level stays symbolic in its processor coordinates.
  SmallVector<int64_t> outerShape(gridShape.begin(),
                                  gridShape.begin() + getLevelOffset(last));
  SmallVector<std::string> disjuncts;
  forEachCoordinate(outerShape, [&](ArrayRef<int64_t> outer) {
    SmallVector<std::string> parts;
    SmallVector<int64_t> levelShape = shape;
    SmallVector<std::string> exprs;
    for (size_t d = 0; d < rank; ++d)
      exprs.push_back("i" + std::to_string(d));
    for (auto [a, c] : llvm::enumerate(outer))
      parts.push_back("p" + std::to_string(a) + " = " + std::to_string(c));
    for (unsigned l = 0; l < last; ++l) {
      LevelDistribution dist(levelShape, layout.getLevels()[l], levelGrids[l]);
      ArrayRef<int64_t> c =
          outer.slice(getLevelOffset(l), levelGrids[l].size());
      if (!dist.isHolder(c))
        return; // this outer processor holds nothing
      for (size_t d = 0; d < rank; ++d) {
        Linear q;
        q.constant = dist.getPart(d, c);
        exprs[d] = dimText(dist.getDim(d), exprs[d], q, parts);
      }
      levelShape = dist.getLocalExtents(c);
    }
    LevelDistribution dist(levelShape, layout.getLevels()[last],
                           levelGrids[last]);
    unsigned offset = getLevelOffset(last);
    for (auto [a, c] : llvm::zip(dist.getFixedAxes(), dist.getFixedCoords()))
      parts.push_back("p" + std::to_string(offset + a) + " = " +
                      std::to_string(c));
    for (size_t d = 0; d < rank; ++d) {
      Linear q;
      int64_t stride = 1;
      for (int64_t a : dist.getAxes(d)) {
        q.terms.push_back({stride, "p" + std::to_string(offset + a)});
        stride *= levelGrids[last][a];
      }
      if (!dist.getSkews(d).empty()) {
        // Skewed owners: q = (linear + sum of skew coordinates) mod parts,
        // a quasi-affine term isl represents with an existential.
        Linear skewed = q;
        for (int64_t s : dist.getSkews(d))
          skewed.terms.push_back({1, "p" + std::to_string(offset + s)});
        q = Linear();
        q.terms.push_back(
            {1, paren(skewed.str()) + " mod " + std::to_string(stride)});
      }
      exprs[d] = dimText(dist.getDim(d), exprs[d], q, parts);
    }
    if (withLocal)
      for (size_t d = 0; d < rank; ++d)
        parts.push_back("l" + std::to_string(d) + " = " + exprs[d]);
    disjuncts.push_back(parts.empty() ? "0 = 0" : joinAnd(parts));
  });

  std::string body = joinAnd(bounds);
  std::string cases;
  if (disjuncts.empty()) {
    cases = "1 = 0";
  } else if (disjuncts.size() == 1) {
    cases = disjuncts.front();
  } else {
    for (auto [k, d] : llvm::enumerate(disjuncts)) {
      if (k)
        cases += " or ";
      cases += paren(d);
    }
    cases = paren(cases);
  }
  if (!body.empty())
    body += " and ";
  body += cases;
  return "{ " + space + " : " + body + " }";
}

std::string LayoutSemantics::getOwnershipText() const {
  return buildText(/*withLocal=*/false);
}

std::string LayoutSemantics::getLocalIndexText() const {
  return buildText(/*withLocal=*/true);
}

template <typename T>
static FailureOr<IslPtr<T>> checked(IslContext &ctx, IslPtr<T> obj,
                                    EmitErrorFn emitError, StringRef what) {
  if (obj)
    return std::move(obj);
  emitError() << "cannot build " << what << ": " << ctx.takeErrorMessage();
  return failure();
}

/// Fails unless the outer levels are small enough to enumerate.
static LogicalResult checkOuterSize(const LayoutSemantics &sem,
                                    EmitErrorFn emitError) {
  int64_t outer = 1;
  unsigned last = sem.getNumLevels() - 1;
  for (unsigned l = 0; l < last; ++l)
    for (int64_t e : sem.getLevelGridShape(l))
      outer *= e;
  if (outer > kMaxOuterProcessors)
    return emitError() << "the outer levels of the machine have " << outer
                       << " processors; the exact relation of a "
                          "hierarchical layout is built for at most "
                       << kMaxOuterProcessors;
  return success();
}

FailureOr<IslMap>
LayoutSemantics::getOwnershipMap(IslContext &ctx, EmitErrorFn emitError,
                                 StringRef tensorTuple) const {
  if (failed(checkOuterSize(*this, emitError)))
    return failure();
  IslMap map = islReadMap(ctx, getOwnershipText());
  if (map && tensorTuple != "T")
    map.reset(isl_map_set_tuple_name(map.release(), isl_dim_in,
                                     tensorTuple.str().c_str()));
  return checked(ctx, std::move(map), emitError, "the ownership relation");
}

FailureOr<IslMap>
LayoutSemantics::getLocalIndexMap(IslContext &ctx, EmitErrorFn emitError,
                                  StringRef tensorTuple) const {
  if (failed(checkOuterSize(*this, emitError)))
    return failure();
  IslMap map = islReadMap(ctx, getLocalIndexText());
  if (map && tensorTuple != "T") {
    // { [T -> P] -> L } -> { T -> [P -> L] }, rename, and back.
    isl_map *m = isl_map_curry(map.release());
    m = isl_map_set_tuple_name(m, isl_dim_in, tensorTuple.str().c_str());
    map.reset(isl_map_uncurry(m));
  }
  return checked(ctx, std::move(map), emitError, "the local-index relation");
}

FailureOr<IslSet> LayoutSemantics::getOwnedSet(IslContext &ctx,
                                               ArrayRef<int64_t> coord,
                                               EmitErrorFn emitError,
                                               StringRef tensorTuple) const {
  if (coord.size() != gridShape.size())
    return emitError() << "processor coordinate has " << coord.size()
                       << " entries, the machine " << gridShape.size();
  FailureOr<IslMap> own = getOwnershipMap(ctx, emitError, tensorTuple);
  if (failed(own))
    return failure();
  isl_map *m = own->release();
  for (auto [a, c] : llvm::enumerate(coord))
    m = isl_map_fix_si(m, isl_dim_out, a, c);
  isl_set *set = isl_set_coalesce(isl_set_detect_equalities(isl_map_domain(m)));
  return checked(ctx, IslSet(set), emitError, "an owned set");
}

FailureOr<IslSet> LayoutSemantics::getOwnerSet(IslContext &ctx,
                                               ArrayRef<int64_t> index,
                                               EmitErrorFn emitError) const {
  if (index.size() != shape.size())
    return emitError() << "index has " << index.size()
                       << " entries, the tensor rank " << shape.size();
  FailureOr<IslMap> own = getOwnershipMap(ctx, emitError);
  if (failed(own))
    return failure();
  isl_map *m = own->release();
  for (auto [d, g] : llvm::enumerate(index))
    m = isl_map_fix_si(m, isl_dim_in, d, g);
  isl_set *set = isl_set_coalesce(isl_set_detect_equalities(isl_map_range(m)));
  return checked(ctx, IslSet(set), emitError, "an owner set");
}

FailureOr<IslSet> LayoutSemantics::getLocalBox(IslContext &ctx,
                                               ArrayRef<int64_t> coord,
                                               EmitErrorFn emitError) const {
  SmallVector<int64_t> extents = getLocalExtents(coord);
  SmallVector<std::string> bounds;
  for (auto [d, e] : llvm::enumerate(extents))
    bounds.push_back("0 <= l" + std::to_string(d) + " < " + std::to_string(e));
  std::string text = "{ " + tupleText('L', 'l', extents.size());
  if (!bounds.empty())
    text += " : " + joinAnd(bounds);
  text += " }";
  return checked(ctx, islReadSet(ctx, text), emitError, "a local box");
}

FailureOr<IslSet> LayoutSemantics::getTensorBox(IslContext &ctx,
                                                EmitErrorFn emitError,
                                                StringRef tensorTuple) const {
  SmallVector<std::string> bounds;
  for (auto [d, e] : llvm::enumerate(shape))
    bounds.push_back("0 <= i" + std::to_string(d) + " < " + std::to_string(e));
  std::string text = "{ " + tupleText('T', 'i', shape.size());
  if (!bounds.empty())
    text += " : " + joinAnd(bounds);
  text += " }";
  IslSet set = islReadSet(ctx, text);
  if (set && tensorTuple != "T")
    set.reset(isl_set_set_tuple_name(set.release(), tensorTuple.str().c_str()));
  return checked(ctx, std::move(set), emitError, "a tensor box");
}
