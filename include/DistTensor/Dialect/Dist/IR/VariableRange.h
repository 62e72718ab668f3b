//===- VariableRange.h - values of a variable at a loop level ---*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The interval of values an index variable of a scheduled loop nest takes
// when some loops are fixed (distributed loops, enclosing loops) and the
// others run over their whole extent: derived variables combine the ranges of
// the loops they were divided, split, rotated or collapsed into. The
// communication analysis evaluates it with integers and dist-materialize-spmd
// emits it as index arithmetic; both use this one template, so the boxes the
// analysis reasons about are the boxes the lowering computes.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_VARIABLERANGE_H
#define DISTTENSOR_DIALECT_DIST_IR_VARIABLERANGE_H

#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir {
namespace dist {

/// For every variable of a nest, the variables derived from it (the inverse
/// of LoopNest::derivations).
using DerivedVariables = llvm::StringMap<llvm::SmallVector<std::string, 2>>;

inline DerivedVariables derivedVariables(const LoopNest &nest) {
  DerivedVariables children;
  for (const auto &entry : nest.derivations)
    for (const std::string &p : entry.getValue().parents)
      children[p].push_back(entry.getKey().str());
  return children;
}

/// [lo, lo + size) in the values of `Arith`.
template <typename Arith>
struct VariableRange {
  typename Arith::Value lo, size;
};

/// The range of `v` in the arithmetic `a`, which provides:
///   using Value;                                  integers or emitted values
///   Value constant(int64_t);
///   Value add(Value, Value), sub, mul, min, max;  signed
///   Value rem(Value, Value), div;                 of non-negative values
///   std::optional<Value> fixedLoop(StringRef);    a fixed loop's value
///   bool isPoint(StringRef var, const VariableRange<Arith> &);
///   void onDerivedPoint(StringRef var, Value lo, int64_t extent);
/// `isPoint` says whether a rotated or collapsed variable's source is a
/// single value (the range is the whole extent otherwise);
/// `onDerivedPoint` is told the start of a divided or split variable, which
/// may lie past its extent when the inner loop runs past an uneven tail.
template <typename Arith>
VariableRange<Arith> variableRange(const LoopNest &nest,
                                   const DerivedVariables &derived,
                                   llvm::StringRef v, Arith &a) {
  int64_t n = nest.extents.lookup(v);
  auto whole = [&] {
    return VariableRange<Arith>{a.constant(0), a.constant(n)};
  };
  if (nest.indexOf(v) >= 0) {
    if (std::optional<typename Arith::Value> at = a.fixedLoop(v))
      return {*at, a.constant(1)};
    return whole();
  }
  auto it = derived.find(v);
  if (it == derived.end() || it->second.empty())
    return whole();
  const llvm::SmallVector<std::string, 2> &kids = it->second;
  const Derivation &d0 = nest.derivations.find(kids[0])->second;
  switch (d0.kind) {
  case Derivation::Kind::DivideOuter:
  case Derivation::Kind::DivideInner:
  case Derivation::Kind::SplitOuter:
  case Derivation::Kind::SplitInner: {
    auto [outer, inner] = *nest.splitOf(v);
    typename Arith::Value b = a.constant(d0.blockSize);
    VariableRange<Arith> ro = variableRange(nest, derived, outer, a);
    VariableRange<Arith> ri = variableRange(nest, derived, inner, a);
    // lo = lo_o * b + lo_i; hi = (lo_o + size_o - 1) * b + lo_i + size_i,
    // clipped to the extent. One operation per statement, so that emitted
    // operations come out in this order whatever the compiler.
    using V = typename Arith::Value;
    V scaled = a.mul(ro.lo, b);
    V lo = a.add(scaled, ri.lo);
    V endOuter = a.add(ro.lo, ro.size);
    V one = a.constant(1);
    V lastOuter = a.sub(endOuter, one);
    V lastScaled = a.mul(lastOuter, b);
    V hiStart = a.add(lastScaled, ri.lo);
    V hiRaw = a.add(hiStart, ri.size);
    V extent = a.constant(n);
    V hi = a.min(hiRaw, extent);
    V span = a.sub(hi, lo);
    V zero = a.constant(0);
    V size = a.max(span, zero);
    a.onDerivedPoint(v, lo, n);
    return {lo, size};
  }
  case Derivation::Kind::Rotated: {
    VariableRange<Arith> rr = variableRange(nest, derived, kids[0], a);
    if (!a.isPoint(kids[0], rr))
      return whole();
    // (rotated value + the rotating variables) mod n.
    typename Arith::Value s = rr.lo;
    for (const std::string &by : d0.rotatedBy) {
      VariableRange<Arith> rb = variableRange(nest, derived, by, a);
      s = a.add(s, rb.lo);
    }
    typename Arith::Value extent = a.constant(n);
    typename Arith::Value at = a.rem(s, extent);
    // Empty where the rotated variable runs past the end of its extent
    // (the uneven tail of a split).
    return {at, rr.size};
  }
  case Derivation::Kind::Collapsed: {
    VariableRange<Arith> rf = variableRange(nest, derived, kids[0], a);
    if (!a.isPoint(kids[0], rf))
      return whole();
    const Derivation &dc = nest.derivations.find(kids[0])->second;
    typename Arith::Value innerExtent =
        a.constant(nest.extents.lookup(dc.parents[1]));
    typename Arith::Value at = v == dc.parents[0]
                                   ? a.div(rf.lo, innerExtent)
                                   : a.rem(rf.lo, innerExtent);
    // Where the collapsed loop runs past its extent (the uneven tail of a
    // split of it), both parents' ranges are empty, starting at most at
    // their extent.
    typename Arith::Value clipped = a.min(at, a.constant(n));
    return {clipped, rf.size};
  }
  case Derivation::Kind::Position: // data-dependent: no closed form
  case Derivation::Kind::Original:
    break;
  }
  return whole();
}

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_VARIABLERANGE_H
