//===- ComputeRanges.cpp - index ranges of a computation's loops ----------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "ComputeRanges.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::spmd;

StaticRange ComputeRanges::staticRange(StringRef v,
                                       const llvm::StringSet<> &fixedSet) {
  StaticRange r;
  int64_t n = extentOf(v);
  if (isLoop(v)) {
    if (fixedSet.contains(v)) {
      r.point = true;
      r.maxSize = 1;
    } else {
      r.full = true;
      r.maxSize = n;
    }
    return r;
  }
  auto it = children.find(v);
  if (it == children.end() || it->second.empty()) {
    r.full = true;
    r.maxSize = n;
    return r;
  }
  const SmallVector<std::string, 2> &kids = it->second;
  const Derivation &d0 = nest.derivations[kids[0]];
  switch (d0.kind) {
  case Derivation::Kind::DivideOuter:
  case Derivation::Kind::DivideInner:
  case Derivation::Kind::SplitOuter:
  case Derivation::Kind::SplitInner: {
    auto [outer, inner] = *nest.splitOf(v);
    int64_t b = d0.blockSize;
    StaticRange ro = staticRange(outer, fixedSet);
    StaticRange ri = staticRange(inner, fixedSet);
    r.maxSize = std::min(n, (ro.maxSize - 1) * b + ri.maxSize);
    r.point = ro.point && ri.point;
    r.full = ro.full && ri.full;
    r.exact = ro.exact && ri.exact && (ro.point || ri.full);
    return r;
  }
  case Derivation::Kind::Rotated: {
    StaticRange rr = staticRange(kids[0], fixedSet);
    r.point = rr.point;
    r.full = !rr.point;
    r.exact = rr.point || rr.full;
    r.maxSize = rr.point ? 1 : n;
    return r;
  }
  case Derivation::Kind::Collapsed: {
    StaticRange rf = staticRange(kids[0], fixedSet);
    r.point = rf.point;
    r.full = !rf.point;
    r.exact = rf.point || rf.full;
    r.maxSize = rf.point ? 1 : n;
    return r;
  }
  case Derivation::Kind::Position: // data-dependent: the whole range
  case Derivation::Kind::Original:
    break;
  }
  r.full = true;
  r.maxSize = n;
  return r;
}

Value ComputeRanges::cst(OpBuilder &b, int64_t v) {
  return arith::ConstantIndexOp::create(b, op.getLoc(), v);
}

namespace {
/// variableRange's arithmetic as emitted index operations. A divided or
/// split variable whose range is statically one value adds the guard
/// `lo < extent` to `guards` (an uneven tail can put it past the end).
struct Emitter {
  using Value = mlir::Value;
  ComputeRanges &cl;
  OpBuilder &b;
  const llvm::StringSet<> &fixedSet;
  SmallVectorImpl<Value> *guards;
  Location loc() const { return cl.op.getLoc(); }
  Value constant(int64_t c) { return cl.cst(b, c); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc(), x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc(), x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc(), x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc(), x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc(), x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc(), x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc(), x, y); }
  std::optional<Value> fixedLoop(StringRef loop) {
    if (!fixedSet.contains(loop))
      return std::nullopt;
    return cl.fixed.lookup(loop);
  }
  bool isPoint(StringRef var, const VariableRange<Emitter> &) {
    return cl.staticRange(var, fixedSet).point;
  }
  void onDerivedPoint(StringRef var, Value lo, int64_t extent) {
    if (guards && cl.staticRange(var, fixedSet).point)
      guards->push_back(arith::CmpIOp::create(
          b, loc(), arith::CmpIPredicate::slt, lo, constant(extent)));
  }
};
} // namespace

DynRange ComputeRanges::range(OpBuilder &b, StringRef v,
                              const llvm::StringSet<> &fixedSet,
                              SmallVectorImpl<Value> *guards) {
  Emitter e{*this, b, fixedSet, guards};
  VariableRange<Emitter> r = variableRange(nest, children, v, e);
  return DynRange{r.lo, r.size, staticRange(v, fixedSet)};
}
