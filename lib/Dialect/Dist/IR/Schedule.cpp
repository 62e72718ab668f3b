//===- Schedule.cpp - DISTAL schedules applied to a statement ---*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Applies decoded scheduling commands (ScheduleCommands.cpp), in order, to
// the loop nest of a statement, and answers questions about the result.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/Schedule.h"
#include "DistTensor/Dialect/Dist/IR/DistDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// LoopNest
//===----------------------------------------------------------------------===//

int LoopNest::indexOf(StringRef name) const {
  for (auto [i, l] : llvm::enumerate(loops))
    if (l.name == name)
      return i;
  return -1;
}

SmallVector<std::string> LoopNest::originsOf(StringRef var) const {
  SmallVector<std::string> out;
  SmallVector<std::string> work{var.str()};
  while (!work.empty()) {
    std::string v = work.pop_back_val();
    auto it = derivations.find(v);
    if (it == derivations.end())
      continue;
    if (it->second.kind == Derivation::Kind::Original) {
      if (!llvm::is_contained(out, v))
        out.push_back(v);
      continue;
    }
    for (const std::string &p : it->second.parents)
      work.push_back(p);
  }
  return out;
}

std::optional<std::pair<std::string, std::string>>
LoopNest::splitOf(StringRef var) const {
  std::string outer, inner;
  for (auto &entry : derivations) {
    const Derivation &d = entry.getValue();
    if (d.parents.size() != 1 || d.parents.front() != var)
      continue;
    if (d.kind == Derivation::Kind::DivideOuter ||
        d.kind == Derivation::Kind::SplitOuter)
      outer = entry.getKey().str();
    else if (d.kind == Derivation::Kind::DivideInner ||
             d.kind == Derivation::Kind::SplitInner)
      inner = entry.getKey().str();
  }
  if (outer.empty() || inner.empty())
    return std::nullopt;
  return std::make_pair(outer, inner);
}

bool LoopNest::derivesFrom(StringRef var, StringRef origin) const {
  return llvm::is_contained(originsOf(var), origin.str());
}

std::string LoopNest::positionTensorOf(StringRef var) const {
  std::string v = var.str();
  for (unsigned depth = 0; depth < 256; ++depth) {
    auto it = derivations.find(v);
    if (it == derivations.end() ||
        it->second.kind == Derivation::Kind::Original)
      return "";
    if (it->second.kind == Derivation::Kind::Position)
      return it->second.positionOf;
    if (it->second.parents.size() != 1)
      return "";
    v = it->second.parents.front();
  }
  return "";
}

bool LoopNest::hasPositionSpace() const {
  return llvm::any_of(derivations, [](const auto &entry) {
    return entry.getValue().kind == Derivation::Kind::Position;
  });
}

//===----------------------------------------------------------------------===//
// Applying commands
//===----------------------------------------------------------------------===//

namespace {
class ScheduleApplier {
public:
  ScheduleApplier(const IndexStatement &stmt, ScheduleError &error)
      : stmt(stmt), error(error) {}

  LoopNest nest;
  /// Variable name -> the command that consumed it.
  llvm::StringMap<std::string> consumedBy;
  const IndexStatement &stmt;
  ScheduleError &error;
  const ScheduleCommand *current = nullptr;

  bool fail(const Twine &message) {
    error.message = (current ? current->str() + ": " : std::string()) +
                    message.str();
    error.command = current ? current->position : 0;
    return false;
  }

  /// `name` must be a loop of the current nest.
  bool live(StringRef name, int &index) {
    index = nest.indexOf(name);
    if (index >= 0)
      return true;
    auto it = consumedBy.find(name);
    if (it != consumedBy.end())
      return fail("index variable '" + name + "' no longer exists: it was "
                  "consumed by " + it->second);
    return fail("unknown index variable '" + name + "'");
  }

  bool fresh(StringRef name) {
    if (nest.extents.count(name))
      return fail("index variable '" + name + "' is already defined");
    if (llvm::is_contained(stmt.tensorNames(), name.str()))
      return fail("'" + name + "' names a tensor, not a new index variable");
    return true;
  }

  void define(StringRef name, int64_t extent, Derivation d) {
    nest.extents[name] = extent;
    nest.derivations[name] = std::move(d);
  }

  bool divideOrSplit(StringRef var, StringRef outer, StringRef inner,
                     int64_t factor, bool isDivide) {
    int idx;
    if (!live(var, idx))
      return false;
    if (outer == inner)
      return fail("outer and inner variables must differ");
    if (!fresh(outer) || !fresh(inner))
      return false;
    if (factor < 1)
      return fail(Twine(isDivide ? "the number of parts" : "the chunk size") +
                  " must be at least 1, got " + Twine(factor));
    Loop old = nest.loops[idx];
    if (old.distributed)
      return fail("cannot " + Twine(isDivide ? "divide" : "split") + " '" +
                  var + "': it is already distributed");
    int64_t n = old.extent;
    auto ceilDiv = [](int64_t a, int64_t b) { return a / b + (a % b != 0); };
    if (isDivide && factor > std::max<int64_t>(n, kMaxProcessors))
      return fail("cannot divide " + Twine(n) + " iterations into " +
                  Twine(factor) + " parts (at most " +
                  Twine(std::max<int64_t>(n, kMaxProcessors)) + ")");
    // A chunk longer than the loop is the whole loop (the outer loop then
    // has one iteration); clamping keeps extents within the tensor's.
    int64_t block = isDivide ? ceilDiv(n, factor) : std::min(factor, n);
    int64_t outerExtent = isDivide ? factor : ceilDiv(n, block);
    Derivation dOuter, dInner;
    dOuter.kind = isDivide ? Derivation::Kind::DivideOuter
                           : Derivation::Kind::SplitOuter;
    dInner.kind = isDivide ? Derivation::Kind::DivideInner
                           : Derivation::Kind::SplitInner;
    dOuter.parents = dInner.parents = {var.str()};
    dOuter.factor = dInner.factor = factor;
    dOuter.blockSize = dInner.blockSize = block;
    define(outer, outerExtent, dOuter);
    define(inner, block, dInner);
    Loop lo, li;
    lo.name = outer.str();
    lo.extent = outerExtent;
    li.name = inner.str();
    li.extent = block;
    lo.origins = li.origins = old.origins;
    lo.parallel = old.parallel;
    nest.loops[idx] = li;
    nest.loops.insert(nest.loops.begin() + idx, lo);
    consumedBy[var] = current ? current->str() : "a schedule command";
    return true;
  }

  bool reorder(ArrayRef<std::string> vars) {
    SmallVector<int> positions;
    llvm::StringSet<> seen;
    for (const std::string &v : vars) {
      int idx;
      if (!live(v, idx))
        return false;
      if (!seen.insert(v).second)
        return fail("'" + v + "' is listed twice");
      positions.push_back(idx);
    }
    SmallVector<Loop> moved;
    for (int p : positions)
      moved.push_back(nest.loops[p]);
    llvm::sort(positions);
    for (auto [p, l] : llvm::zip(positions, moved))
      nest.loops[p] = l;
    return true;
  }

  bool collapse(StringRef outer, StringRef inner, StringRef fused) {
    int io, ii;
    if (!live(outer, io) || !live(inner, ii))
      return false;
    if (ii != io + 1)
      return fail("'" + inner + "' must be the loop directly inside '" +
                  outer + "'");
    if (!fresh(fused))
      return false;
    if (nest.loops[io].distributed || nest.loops[ii].distributed)
      return fail("cannot collapse distributed loops");
    Derivation d;
    d.kind = Derivation::Kind::Collapsed;
    d.parents = {outer.str(), inner.str()};
    std::optional<int64_t> fusedExtent = mulWithin(
        nest.loops[io].extent, nest.loops[ii].extent, kMaxTensorElements);
    if (!fusedExtent)
      return fail("the collapsed loop would have more than 2^50 iterations");
    int64_t extent = *fusedExtent;
    define(fused, extent, d);
    Loop f;
    f.name = fused.str();
    f.extent = extent;
    f.origins = nest.loops[io].origins;
    llvm::append_range(f.origins, nest.loops[ii].origins);
    nest.loops[io] = f;
    nest.loops.erase(nest.loops.begin() + ii);
    consumedBy[outer] = consumedBy[inner] = current->str();
    return true;
  }

  /// pos(var, posVar, tensor): `posVar` counts the stored entries of
  /// `tensor` that `var`'s iterations visit (SpDISTAL's position space), in
  /// place of `var`. Which tensors are sparse the statement does not say:
  /// the verifier of dist.compute checks `tensor`.
  bool position(StringRef var, StringRef posVar, StringRef tensor) {
    int idx;
    if (!live(var, idx) || !fresh(posVar))
      return false;
    if (!llvm::is_contained(stmt.tensorNames(), tensor.str()))
      return fail("'" + tensor + "' is not a tensor of the statement");
    if (nest.loops[idx].distributed || nest.loops[idx].parallel)
      return fail("'" + var + "' is already distributed or parallel; pos "
                  "comes before distribute");
    Derivation d;
    d.kind = Derivation::Kind::Position;
    d.parents = {var.str()};
    d.positionOf = tensor.str();
    define(posVar, nest.loops[idx].extent, d);
    nest.loops[idx].name = posVar.str();
    consumedBy[var] = current->str();
    return true;
  }

  bool distribute(ArrayRef<std::string> vars, ArrayRef<int64_t> gridDims) {
    for (auto [n, v] : llvm::enumerate(vars)) {
      int idx;
      if (!live(v, idx))
        return false;
      Loop &l = nest.loops[idx];
      if (l.distributed)
        return fail("'" + v + "' is already distributed");
      if (l.parallel)
        return fail("'" + v + "' is parallelized; a loop is either "
                    "distributed over processors or parallel inside one");
      l.distributed = true;
      l.gridDim = gridDims.empty() ? -1 : gridDims[n];
    }
    return true;
  }

  bool apply(const ScheduleCommand &c,
             const llvm::StringMap<SmallVector<int64_t>> &machines) {
    current = &c;
    using K = ScheduleCommand::Kind;
    switch (c.kind) {
    case K::Divide:
    case K::Split:
      return divideOrSplit(c.lists[0][0], c.lists[1][0], c.lists[2][0],
                           c.factor, c.kind == K::Divide);
    case K::Reorder:
      return reorder(c.lists[0]);
    case K::Collapse:
      return collapse(c.lists[0][0], c.lists[1][0], c.lists[2][0]);
    case K::Pos:
      return position(c.lists[0][0], c.lists[1][0], c.lists[2][0]);
    case K::Distribute:
      return distribute(c.lists[0], {});
    case K::DistributeOnto: {
      SmallVector<int64_t> shape = c.gridShape;
      if (!c.machine.empty()) {
        auto it = machines.find(c.machine);
        if (it == machines.end())
          return fail("'@" + c.machine + "' does not name a dist.grid");
        shape = it->second;
      }
      size_t n = c.lists[0].size();
      if (c.lists[1].size() != n || c.lists[2].size() != n)
        return fail("the target, distributed and local variable lists must "
                    "have the same length");
      if (shape.size() != n)
        return fail("distributes " + Twine(n) + " variable(s) onto a grid of "
                    "rank " + Twine(shape.size()) +
                    "; the grid must have one dimension per variable");
      for (int64_t e : shape)
        if (e < 1)
          return fail("grid extents must be at least 1");
      // A later Grid(...) distributes onto the next level of a machine of
      // nodes: its grid dimensions follow the earlier ones. A named
      // machine stands for all its levels at once.
      if (!nest.gridShape.empty() &&
          (!c.machine.empty() || !nest.machine.empty()))
        return fail("a schedule that distributes onto a named machine ('@" +
                    (c.machine.empty() ? nest.machine : c.machine) +
                    "', all its levels at once) distributes once; write one "
                    "Grid(...) per level instead");
      size_t first = nest.gridShape.size();
      if (first + n > (size_t)kMaxDims)
        return fail("the distributions use " + Twine(first + n) +
                    " grid dimensions in all; a machine has at most " +
                    Twine(kMaxDims));
      llvm::append_range(nest.gridShape, shape);
      ++nest.gridLevels;
      nest.machine = c.machine;
      for (size_t i = 0; i < n; ++i)
        if (!divideOrSplit(c.lists[0][i], c.lists[1][i], c.lists[2][i],
                           shape[i], /*isDivide=*/true))
          return false;
      SmallVector<std::string> order(c.lists[1].begin(), c.lists[1].end());
      llvm::append_range(order, c.lists[2]);
      // DISTAL: reorder(dist + local) -- the listed loops take the
      // positions they occupy, in that order.
      if (!reorder(order))
        return false;
      SmallVector<int64_t> dims;
      for (size_t i = 0; i < n; ++i)
        dims.push_back(first + i);
      return distribute(c.lists[1], dims);
    }
    case K::Communicate: {
      SmallVector<std::string> names = stmt.tensorNames();
      int idx;
      if (!live(c.lists[1][0], idx))
        return fail("the loop of a communicate must enclose the tensor's "
                    "accesses; '" + c.lists[1][0] + "' is not a loop of the "
                    "nest");
      for (const std::string &t : c.lists[0]) {
        if (!llvm::is_contained(names, t))
          return fail("'" + t + "' is not a tensor of the statement");
        if (nest.communicateAt.count(t))
          return fail("tensor '" + t + "' already communicates at '" +
                      nest.communicateAt[t] + "'");
        nest.communicateAt[t] = c.lists[1][0];
      }
      return true;
    }
    case K::Rotate: {
      int idx;
      if (!live(c.lists[0][0], idx))
        return false;
      if (nest.loops[idx].distributed)
        return fail("cannot rotate '" + c.lists[0][0] +
                    "': it is distributed");
      if (c.lists[1].empty())
        return fail("rotate needs at least one variable to rotate by");
      for (const std::string &v : c.lists[1]) {
        int vi;
        if (!live(v, vi))
          return false;
        if (!nest.loops[vi].distributed)
          return fail("rotates by '" + v + "', which is not distributed; "
                      "rotate offsets a loop by distributed variables only");
      }
      if (!fresh(c.lists[2][0]))
        return false;
      Derivation d;
      d.kind = Derivation::Kind::Rotated;
      d.parents = {c.lists[0][0]};
      d.rotatedBy.assign(c.lists[1].begin(), c.lists[1].end());
      Loop &l = nest.loops[idx];
      define(c.lists[2][0], l.extent, d);
      consumedBy[l.name] = c.str();
      l.name = c.lists[2][0];
      l.rotatedBy.assign(c.lists[1].begin(), c.lists[1].end());
      return true;
    }
    case K::Parallelize: {
      int idx;
      if (!live(c.lists[0][0], idx))
        return false;
      if (nest.loops[idx].distributed)
        return fail("'" + c.lists[0][0] + "' is distributed; parallelize "
                    "is for loops inside a processor");
      nest.loops[idx].parallel = true;
      return true;
    }
    case K::Substitute:
      return substitute(c);
    case K::Overlap:
      if (nest.overlap)
        return fail("the schedule already has an overlap command");
      nest.overlap = c.lists[0][0] == "on";
      return true;
    case K::Stationary: {
      if (nest.stationary)
        return fail("the schedule already has a stationary command");
      const std::string &t = c.lists[0][0];
      if (t != "auto" && !llvm::is_contained(stmt.tensorNames(), t))
        return fail("'" + t +
                    "' is not a tensor of the statement; write "
                    "stationary(T) with T one of its tensors, or "
                    "stationary(auto)");
      nest.stationary = t;
      return true;
    }
    case K::Prefetch:
      if (nest.prefetch)
        return fail("the schedule already has a prefetch command");
      if (c.factor < 1 || c.factor > kMaxPrefetch)
        return fail("the prefetch depth must be between 1 and " +
                    Twine(kMaxPrefetch) + ", got " + Twine(c.factor));
      nest.prefetch = c.factor;
      return true;
    case K::Offset:
      if (nest.offset)
        return fail("the schedule already has an offset command");
      nest.offset = c.lists[0][0] == "on";
      return true;
    }
    return false;
  }

  /// A product of plain accesses: what a library leaf computes (constants,
  /// negation and sums have no place in its call).
  static bool productOfAccesses(const IndexExpr *e) {
    if (e->kind == IndexExpr::Kind::Access)
      return true;
    return e->kind == IndexExpr::Kind::Mul && productOfAccesses(e->lhs.get()) &&
           productOfAccesses(e->rhs.get());
  }

  /// A leaf kernel calls BLAS, whose sizes and leading dimensions are
  /// 32-bit integers. Along each of the leaf's variables (`roles`, statement
  /// variables) an access passes at most the variable's extent as a size
  /// and at most the product of the extents behind it as a leading
  /// dimension (the row length of a row-major buffer); both must fit.
  bool blasSizesFit(const ScheduleCommand &c, ArrayRef<std::string> roles) {
    SmallVector<const Access *> all{&stmt.lhs};
    llvm::append_range(all, stmt.rhsAccesses());
    auto advice = "; BLAS sizes and leading dimensions are 32-bit. Remove "
                  "the substitute command (the leaf then runs as compiled "
                  "loops) or use smaller tensors";
    for (const Access *a : all) {
      int64_t behind = 1; // product of the extents after dimension d
      for (int64_t d = a->indices.size() - 1; d >= 0; --d) {
        const std::string &v = a->indices[d];
        int64_t extent = nest.extents.lookup(v);
        if (llvm::is_contained(roles, v)) {
          if (extent > kMaxBlasSize)
            return fail("'" + a->tensor + "' has extent " + Twine(extent) +
                        " along '" + v + "' (dimension " + Twine(d) +
                        "), more than " + Twine(kMaxBlasSize) + ", the " +
                        c.kernel + " leaf's BLAS call can take" + advice);
          if (behind > kMaxBlasSize)
            return fail("'" + a->tensor + "' has rows of " + Twine(behind) +
                        " elements behind '" + v + "' (dimension " +
                        Twine(d) + "), a leading dimension of more than " +
                        Twine(kMaxBlasSize) + " for the " + c.kernel +
                        " leaf's BLAS call" + advice);
        }
        // Tensors hold at most kMaxTensorElements, so this stays in range.
        behind *= extent;
      }
    }
    return true;
  }

  static bool uses(const Access *a, StringRef v) {
    return llvm::is_contained(a->indices, v.str());
  }

  bool substitute(const ScheduleCommand &c) {
    if (!nest.kernel.empty())
      return fail("the statement already has a substituted leaf");
    if (c.kernel != "gemm" && c.kernel != "mttkrp" && c.kernel != "gemv" &&
        c.kernel != "dot")
      return fail("unknown leaf kernel '" + c.kernel + "'; known kernels: "
                  "gemm, mttkrp, gemv, dot");
    ArrayRef<std::string> vars = c.lists[0];
    llvm::StringSet<> seen;
    size_t n = nest.loops.size();
    for (const std::string &v : vars) {
      int idx;
      if (!live(v, idx))
        return false;
      if (!seen.insert(v).second)
        return fail("'" + v + "' is listed twice");
      if ((size_t)idx < n - vars.size())
        return fail("'" + v + "' is not among the " + Twine(vars.size()) +
                    " innermost loops; a leaf kernel replaces the innermost "
                    "loops of the nest");
      if (nest.loops[idx].distributed)
        return fail("'" + v + "' is distributed and cannot be part of a leaf");
    }
    SmallVector<std::string> origins;
    for (const std::string &v : vars) {
      SmallVector<std::string> o = nest.originsOf(v);
      if (o.size() != 1)
        return fail("'" + v + "' combines several index variables; " +
                    c.kernel + " needs one per loop");
      origins.push_back(o.front());
    }
    bool fits = c.kernel == "mttkrp" ? fitsMttkrp(vars, origins)
                : c.kernel == "gemm" ? fitsGemm(vars, origins)
                                     : fitsGemvOrDot(c, vars, origins);
    if (!fits || !blasSizesFit(c, origins))
      return false;
    nest.substituteVars.assign(vars.begin(), vars.end());
    nest.kernel = c.kernel;
    return true;
  }

  /// mttkrp: the loops `vars` (from statement variables `origins`) are i, l,
  /// j and k of A(i,l) = B(i,j,k) * C(j,l) * D(k,l).
  bool fitsMttkrp(ArrayRef<std::string> vars, ArrayRef<std::string> origins) {
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    // Out(I, L) = T(I, J, K) * M1(J, L) * M2(K, L), in any order of the
    // inputs and of their indices.
    if (vars.size() != 4)
      return fail("mttkrp replaces exactly 4 loops, got " + Twine(vars.size()));
    if (ins.size() != 3 || !productOfAccesses(stmt.rhs.get()) ||
        stmt.lhs.indices.size() != 2)
      return fail("mttkrp needs a statement of the form "
                  "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)");
    int roles[4] = {0, 0, 0, 0}; // I, L, J, K
    for (auto [v, o] : llvm::zip(vars, origins)) {
      int inputs = 0;
      for (const Access *a : ins)
        inputs += uses(a, o);
      bool inOut = uses(&stmt.lhs, o);
      if (inOut && inputs == 1)
        ++roles[0];
      else if (inOut && inputs == 2)
        ++roles[1];
      else if (!inOut && inputs == 2)
        ++(roles[2 + (roles[2] > 0)]);
      else
        return fail("'" + v + "' (from '" + o +
                    "') plays no role of "
                    "mttkrp A(i,l) = B(i,j,k) * C(j,l) * D(k,l)");
    }
    if (roles[0] != 1 || roles[1] != 1 || roles[2] != 1 || roles[3] != 1)
      return fail("the variables do not form mttkrp: it needs i, l, j "
                  "and k of A(i,l) = B(i,j,k) * C(j,l) * D(k,l)");
    return true;
  }

  /// gemv: a row and a reduction loop of Out(..., i) = M(..., i, ..., j, ...)
  /// * V(..., j); dot: the reduction loop of Out(...) = U(..., k) * V(..., k).
  /// Indices other than the substituted ones are fixed by the loops around
  /// the leaf (one call per point of them: TTV's A(i,j) = B(i,j,k) * c(k)
  /// with substitute({j, k}, gemv), innerprod with substitute({k}, dot)).
  /// The vectors must be contiguous: the row index last in Out, the
  /// reduction index last in V (gemv) or in U and V (dot), and the row or
  /// the reduction index last in M.
  bool fitsGemvOrDot(const ScheduleCommand &c, ArrayRef<std::string> vars,
                     ArrayRef<std::string> origins) {
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    bool gemv = c.kernel == "gemv";
    StringRef form = gemv ? "Out(i) = M(i,j) * V(j)" : "Out() = U(k) * V(k)";
    size_t want = gemv ? 2 : 1;
    if (vars.size() != want)
      return fail(c.kernel + " replaces exactly " + Twine(want) + " loop" +
                  (want == 1 ? "" : "s") + ", got " + Twine(vars.size()));
    if (ins.size() != 2 || !productOfAccesses(stmt.rhs.get()))
      return fail(c.kernel + " needs a statement of the form " + form +
                  " (no constants, negation or sums; other indices are "
                  "fixed by the loops around the leaf)");
    std::string row, red;
    for (auto [v, o] : llvm::zip(vars, origins)) {
      bool inOut = uses(&stmt.lhs, o), in1 = uses(ins[0], o),
           in2 = uses(ins[1], o);
      bool isRow = gemv && inOut && in1 != in2, isRed = !inOut && in1 && in2;
      if (!isRow && !isRed)
        return fail("'" + v + "' (from '" + o + "') is not a " +
                    (gemv ? "row or reduction index of a matrix-vector "
                            "product "
                          : "reduction index of a dot product ") +
                    stmt.lhs.tensor + " = " + ins[0]->tensor + " * " +
                    ins[1]->tensor);
      std::string &slot = isRow ? row : red;
      if (!slot.empty())
        break; // two rows or two reductions: said below
      slot = o;
    }
    if ((gemv && (row.empty() || red.empty())) || (!gemv && red.empty()))
      return fail("the variables do not form " + c.kernel + ": it needs " +
                  (gemv ? "one row and one reduction variable"
                        : "one reduction variable") +
                  " of " + form);
    auto last = [](const Access *a, StringRef v) {
      return !a->indices.empty() && a->indices.back() == v;
    };
    auto notLast = [&](const Access *a, StringRef v, StringRef role) {
      return fail("'" + a->tensor + "' must have '" + v + "' as its last " +
                  "index (the " + role + " of the " + c.kernel +
                  " leaf is contiguous); reorder the tensor's indices or "
                  "remove the substitute command");
    };
    if (!gemv) {
      // (An index occurs at most once per access: the statement's verifier.)
      for (const Access *a : ins)
        if (!last(a, red))
          return notLast(a, red, "vector");
      return true;
    }
    const Access *mat = uses(ins[0], row) ? ins[0] : ins[1];
    const Access *vec = mat == ins[0] ? ins[1] : ins[0];
    if (!last(&stmt.lhs, row))
      return notLast(&stmt.lhs, row, "output vector");
    if (!last(vec, red))
      return notLast(vec, red, "input vector");
    if (!last(mat, row) && !last(mat, red))
      return fail("'" + mat->tensor + "' must have '" + row + "' or '" + red +
                  "' as its last index (the matrix of the gemv leaf has "
                  "contiguous rows or columns); reorder the tensor's "
                  "indices or remove the substitute command");
    return true;
  }

  /// gemm: a row, a column and a reduction loop of Out = In1 * In2.
  bool fitsGemm(ArrayRef<std::string> vars, ArrayRef<std::string> origins) {
    SmallVector<const Access *> ins = stmt.rhsAccesses();
    // gemm: out(M, N) (+)= in1(M, K) * in2(K, N) with one variable per role.
    if (vars.size() != 3)
      return fail("gemm replaces exactly 3 loops, got " +
                  Twine(vars.size()));
    if (ins.size() != 2 || !productOfAccesses(stmt.rhs.get()))
      return fail("gemm needs a statement of the form Out = In1 * In2 "
                  "(no constants, negation or sums)");
    int m = 0, nn = 0, k = 0;
    for (auto [v, o] : llvm::zip(vars, origins)) {
      bool inOut = uses(&stmt.lhs, o), in1 = uses(ins[0], o),
           in2 = uses(ins[1], o);
      if (inOut && in1 && !in2)
        ++m;
      else if (inOut && in2 && !in1)
        ++nn;
      else if (!inOut && in1 && in2)
        ++k;
      else
        return fail("'" + v + "' (from '" + o + "') is not a row, column or "
                    "reduction index of a matrix multiply " +
                    stmt.lhs.tensor + " = " + ins[0]->tensor + " * " +
                    ins[1]->tensor);
    }
    if (m != 1 || nn != 1 || k != 1)
      return fail("the variables do not form gemm: it needs one row, one "
                  "column and one reduction variable");
    return true;
  }
};
} // namespace

std::optional<LoopNest>
mlir::dist::applySchedule(const IndexStatement &stmt,
                          const llvm::StringMap<int64_t> &extents,
                          ArrayRef<ScheduleCommand> commands,
                          const llvm::StringMap<SmallVector<int64_t>> &machines,
                          ScheduleError &error) {
  ScheduleApplier applier(stmt, error);
  for (const std::string &v : stmt.indexVariables()) {
    auto it = extents.find(v);
    if (it == extents.end()) {
      error.message = "no extent for index variable '" + v + "'";
      return std::nullopt;
    }
    Derivation d;
    applier.define(v, it->second, d);
    Loop l;
    l.name = v;
    l.extent = it->second;
    l.origins = {v};
    applier.nest.loops.push_back(l);
  }
  for (const ScheduleCommand &c : commands)
    if (!applier.apply(c, machines))
      return std::nullopt;
  // The one-sided lowering computes where the stationary tensor lives: loop
  // commands have nothing to act on.
  if (applier.nest.isOneSided()) {
    using K = ScheduleCommand::Kind;
    for (const ScheduleCommand &c : commands) {
      if (c.kind == K::Stationary || c.kind == K::Prefetch ||
          c.kind == K::Offset)
        continue;
      applier.current = &c;
      applier.fail("the one-sided lowering (stationary, prefetch, offset) "
                   "takes no loop commands: every process computes the "
                   "slices of the stationary tensor's tile it holds; remove "
                   "this command or the one-sided ones");
      return std::nullopt;
    }
  }
  // A communicate point must still be a loop at the end, outside the leaf.
  applier.current = nullptr;
  LoopNest &nest = applier.nest;
  for (const ScheduleCommand &c : commands) {
    if (c.kind != ScheduleCommand::Kind::Communicate)
      continue;
    applier.current = &c;
    const std::string &v = c.lists[1][0];
    if (nest.indexOf(v) < 0) {
      auto it = applier.consumedBy.find(v);
      applier.fail("loop '" + v + "' does not enclose the accesses of the "
                   "communicated tensor(s): it was consumed by " +
                   (it == applier.consumedBy.end() ? std::string("a later "
                                                                 "command")
                                                   : it->second));
      return std::nullopt;
    }
    if (llvm::is_contained(nest.substituteVars, v)) {
      applier.fail("loop '" + v + "' is inside the substituted " +
                   nest.kernel + " leaf; communicate at a loop outside it");
      return std::nullopt;
    }
  }
  return std::move(applier.nest);
}
