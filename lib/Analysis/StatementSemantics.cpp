//===- StatementSemantics.cpp - statements and schedules in isl -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The iteration domain, access relations and scheduled loop nest of a
// tensor-index-notation statement as isl objects. Every loop of the nest
// is a quasi-affine function of the statement's index variables:
//
//   divide / split outer   o = floor(x / b)        (b: the block size)
//   divide / split inner   i = x mod b
//   collapse(o, i, f)      f = o * extent(i) + i
//   rotate(t, {v...}, r)   r = (t - v1 - ...) mod extent(t), i.e. iteration r
//                          of processor v runs t = (r + v1 + ...) mod extent(t)
//                          (DISTAL: processor i starts at the i-th iteration)
//
// The isl text uses generated names (S, A0, c0, ...) so that no index
// variable or tensor name can clash with isl's keywords; the real names are
// set on the parsed objects afterwards.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Semantics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;

namespace {
/// True when `s` is an identifier, a number or one call "floor(...)".
bool isAtom(const std::string &s) {
  if (s.empty())
    return false;
  if (llvm::all_of(s, [](char c) { return isalnum((unsigned char)c) || c == '_'; }))
    return true;
  if (!StringRef(s).starts_with("floor(") || s.back() != ')')
    return false;
  int depth = 0;
  for (size_t k = 5; k < s.size(); ++k) {
    depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
    if (depth == 0)
      return k == s.size() - 1;
  }
  return false;
}

/// Parenthesises `s` unless it is an atom.
std::string paren(const std::string &s) {
  return isAtom(s) ? s : "(" + s + ")";
}

/// Builds the expression of a nest variable from its derivation.
class ExprBuilder {
public:
  ExprBuilder(const LoopNest &nest, llvm::function_ref<std::string(
                                        StringRef)> originalName)
      : nest(nest), originalName(originalName) {}

  /// Quasi-affine expression of `var` over the statement variables.
  /// Returns false (and sets `error`) on a broken derivation chain.
  bool expression(StringRef var, std::string &out, std::string &error,
                  unsigned depth = 0) {
    if (depth > 256) {
      error = "the derivation of '" + var.str() + "' is cyclic";
      return false;
    }
    auto it = nest.derivations.find(var);
    if (it == nest.derivations.end()) {
      error = "no derivation for loop variable '" + var.str() + "'";
      return false;
    }
    const Derivation &d = it->second;
    auto sub = [&](unsigned k, std::string &s) {
      if (k >= d.parents.size()) {
        error = "loop variable '" + var.str() + "' lacks a parent";
        return false;
      }
      return expression(d.parents[k], s, error, depth + 1);
    };
    std::string a, b;
    switch (d.kind) {
    case Derivation::Kind::Original:
      out = originalName(var);
      return true;
    case Derivation::Kind::Position:
      error = "'" + var.str() + "' counts the stored entries of sparse "
              "tensor '" + d.positionOf + "' (pos): it has no closed form";
      return false;
    case Derivation::Kind::DivideOuter:
    case Derivation::Kind::SplitOuter:
      if (!sub(0, a) || !positiveBlock(var, d, error))
        return false;
      out = "floor(" + paren(a) + "/" + std::to_string(d.blockSize) + ")";
      return true;
    case Derivation::Kind::DivideInner:
    case Derivation::Kind::SplitInner:
      if (!sub(0, a) || !positiveBlock(var, d, error))
        return false;
      out = paren(a) + " mod " + std::to_string(d.blockSize);
      return true;
    case Derivation::Kind::Collapsed: {
      if (!sub(0, a) || !sub(1, b))
        return false;
      int64_t inner = extentOf(d.parents[1]);
      out = std::to_string(inner) + "*" + paren(a) + " + " + paren(b);
      return true;
    }
    case Derivation::Kind::Rotated: {
      if (!sub(0, a))
        return false;
      std::string sum = paren(a);
      for (const std::string &v : d.rotatedBy) {
        std::string r;
        if (!expression(v, r, error, depth + 1))
          return false;
        sum += " - " + paren(r);
      }
      out = paren(sum) + " mod " + std::to_string(extentOf(d.parents[0]));
      return true;
    }
    }
    error = "unknown derivation of '" + var.str() + "'";
    return false;
  }

  /// The definition of `var` in terms of the variables it derives from.
  std::string definition(StringRef var) const {
    auto it = nest.derivations.find(var);
    if (it == nest.derivations.end())
      return var.str();
    const Derivation &d = it->second;
    auto parent = [&](unsigned k) {
      return k < d.parents.size() ? d.parents[k] : std::string("?");
    };
    switch (d.kind) {
    case Derivation::Kind::Original:
      return var.str();
    case Derivation::Kind::DivideOuter:
    case Derivation::Kind::SplitOuter:
      return "floor(" + parent(0) + "/" + std::to_string(d.blockSize) + ")";
    case Derivation::Kind::DivideInner:
    case Derivation::Kind::SplitInner:
      return parent(0) + " mod " + std::to_string(d.blockSize);
    case Derivation::Kind::Collapsed:
      return std::to_string(extentOf(parent(1))) + "*" + parent(0) + " + " +
             parent(1);
    case Derivation::Kind::Position:
      return "the position of " + parent(0) + " in " + d.positionOf;
    case Derivation::Kind::Rotated: {
      std::string sum = parent(0);
      for (const std::string &v : d.rotatedBy)
        sum += " - " + v;
      return "(" + sum + ") mod " + std::to_string(extentOf(parent(0)));
    }
    }
    return var.str();
  }

private:
  int64_t extentOf(StringRef var) const {
    auto it = nest.extents.find(var);
    return it == nest.extents.end() ? 0 : it->second;
  }
  static bool positiveBlock(StringRef var, const Derivation &d,
                            std::string &error) {
    if (d.blockSize >= 1)
      return true;
    error = "loop variable '" + var.str() + "' has block size " +
            std::to_string(d.blockSize);
    return false;
  }

  const LoopNest &nest;
  llvm::function_ref<std::string(StringRef)> originalName;
};

template <typename T>
FailureOr<IslPtr<T>> checked(IslContext &ctx, IslPtr<T> obj,
                             EmitErrorFn emitError, StringRef what) {
  if (obj)
    return std::move(obj);
  emitError() << "cannot build " << what << ": " << ctx.takeErrorMessage();
  return failure();
}

std::string joinComma(ArrayRef<std::string> parts) {
  std::string s;
  for (auto [i, p] : llvm::enumerate(parts)) {
    if (i)
      s += ", ";
    s += p;
  }
  return s;
}

/// Names the dimensions of a pw_multi_aff (input: statement variables,
/// output: `outNames`).
isl_pw_multi_aff *nameDims(isl_ctx *ctx, isl_pw_multi_aff *pma,
                           ArrayRef<std::string> inNames,
                           ArrayRef<std::string> outNames) {
  for (auto [k, n] : llvm::enumerate(inNames))
    pma = isl_pw_multi_aff_set_dim_id(pma, isl_dim_in, k,
                                      isl_id_alloc(ctx, n.c_str(), nullptr));
  for (auto [k, n] : llvm::enumerate(outNames))
    pma = isl_pw_multi_aff_set_dim_id(pma, isl_dim_out, k,
                                      isl_id_alloc(ctx, n.c_str(), nullptr));
  return pma;
}

isl_map *nameMapIn(isl_map *map, ArrayRef<std::string> inNames) {
  for (auto [k, n] : llvm::enumerate(inNames))
    map = isl_map_set_dim_name(map, isl_dim_in, k, n.c_str());
  return map;
}

/// The iteration space of a statement in isl's terms: S[c0, c1, ...] (one
/// generated name per index variable) and its bounds.
struct IterationSpace {
  SmallVector<std::string> vars, generic;
  llvm::StringMap<unsigned> position;
  /// "S[c0, c1]" and " : 0 <= c0 < 4 and 0 <= c1 < 8" (empty if no bound).
  std::string tuple, where;

  std::string genericName(StringRef v) const {
    auto it = position.find(v);
    return it == position.end() ? v.str() : generic[it->second];
  }
};

FailureOr<IterationSpace>
iterationSpace(const IndexStatement &stmt,
               const llvm::StringMap<int64_t> &extents, EmitErrorFn emitError) {
  IterationSpace space;
  space.vars = stmt.indexVariables();
  SmallVector<std::string> bounds;
  for (auto [k, v] : llvm::enumerate(space.vars)) {
    space.position[v] = k;
    auto it = extents.find(v);
    if (it == extents.end())
      return emitError() << "no extent for index variable '" << v << "'";
    space.generic.push_back("c" + std::to_string(k));
    bounds.push_back("0 <= c" + std::to_string(k) + " < " +
                     std::to_string(it->second));
  }
  space.tuple = "S[" + joinComma(space.generic) + "]";
  std::string constraints;
  for (auto [k, b] : llvm::enumerate(bounds))
    constraints += (k ? " and " : "") + b;
  space.where = constraints.empty() ? "" : " : " + constraints;
  return space;
}

FailureOr<IslSet> buildDomain(IslContext &ctx, const IterationSpace &space,
                              EmitErrorFn emitError) {
  IslSet set = islReadSet(ctx, "{ " + space.tuple + space.where + " }");
  isl_set *s = set.release();
  for (auto [k, v] : llvm::enumerate(space.vars))
    s = isl_set_set_dim_name(s, isl_dim_set, k, v.c_str());
  return checked(ctx, IslSet(s), emitError, "the iteration domain");
}

/// { S[...] -> T[...] } for the left-hand side, then each access of the
/// right.
FailureOr<SmallVector<AccessRelation>>
buildAccesses(IslContext &ctx, const IndexStatement &stmt,
              const IterationSpace &space, EmitErrorFn emitError) {
  SmallVector<AccessRelation> accesses;
  SmallVector<const Access *> all{&stmt.lhs};
  llvm::append_range(all, stmt.rhsAccesses());
  for (auto [k, access] : llvm::enumerate(all)) {
    SmallVector<std::string> idx;
    for (const std::string &v : access->indices) {
      if (!space.position.count(v))
        return emitError() << "access of '" << access->tensor
                           << "' uses unknown index variable '" << v << "'";
      idx.push_back(space.genericName(v));
    }
    IslMap map = islReadMap(ctx, "{ " + space.tuple + " -> A0[" +
                                     joinComma(idx) + "]" + space.where + " }");
    isl_map *m = nameMapIn(map.release(), space.vars);
    m = isl_map_set_tuple_name(m, isl_dim_out, access->tensor.c_str());
    FailureOr<IslMap> checkedMap = checked(
        ctx, IslMap(m), emitError, "the access relation of " + access->tensor);
    if (failed(checkedMap))
      return failure();
    AccessRelation rel;
    rel.tensor = access->tensor;
    rel.position = k;
    rel.write = k == 0;
    rel.read = k != 0 || stmt.accumulate;
    rel.map = std::move(*checkedMap);
    accesses.push_back(std::move(rel));
  }
  return accesses;
}

/// The loops of `nest`, each with its expression in the statement's
/// variables; `genericExprs` gets the same in the generated names.
LogicalResult buildLoops(const LoopNest &nest, const IterationSpace &space,
                         SmallVectorImpl<ScheduledLoop> &loops,
                         SmallVectorImpl<std::string> &genericExprs,
                         EmitErrorFn emitError) {
  auto genericName = [&](StringRef v) { return space.genericName(v); };
  auto realName = [&](StringRef v) -> std::string { return v.str(); };
  ExprBuilder genericBuilder(nest, genericName), realBuilder(nest, realName);
  for (const Loop &l : nest.loops) {
    ScheduledLoop loop;
    loop.name = l.name;
    loop.extent = l.extent;
    loop.distributed = l.distributed;
    loop.gridDim = l.gridDim;
    loop.parallel = l.parallel;
    loop.leaf = llvm::is_contained(nest.substituteVars, l.name);
    for (const auto &entry : nest.communicateAt)
      if (entry.getValue() == l.name)
        loop.communicated.push_back(entry.getKey().str());
    llvm::sort(loop.communicated);
    loop.definition = realBuilder.definition(l.name);
    std::string error, genericExpr;
    if (!realBuilder.expression(l.name, loop.expression, error) ||
        !genericBuilder.expression(l.name, genericExpr, error))
      return emitError() << "cannot model loop '" << l.name << "': " << error;
    genericExprs.push_back(genericExpr);
    loops.push_back(std::move(loop));
  }
  return success();
}
} // namespace

FailureOr<StatementSemantics>
StatementSemantics::get(IslContext &ctx, const IndexStatement &stmt,
                        const llvm::StringMap<int64_t> &extents,
                        const LoopNest &nest, EmitErrorFn emitError) {
  StatementSemantics sem;
  sem.nest = nest;
  FailureOr<IterationSpace> space = iterationSpace(stmt, extents, emitError);
  if (failed(space))
    return failure();
  const SmallVector<std::string> &vars = space->vars;
  sem.variables.assign(vars.begin(), vars.end());
  FailureOr<IslSet> domain = buildDomain(ctx, *space, emitError);
  if (failed(domain))
    return failure();
  sem.domain = std::move(*domain);
  FailureOr<SmallVector<AccessRelation>> accesses =
      buildAccesses(ctx, stmt, *space, emitError);
  if (failed(accesses))
    return failure();
  sem.accesses = std::move(*accesses);
  SmallVector<std::string> loopExprs;
  if (failed(buildLoops(nest, *space, sem.loops, loopExprs, emitError)))
    return failure();

  // Processor and time dimensions.
  for (auto [k, l] : llvm::enumerate(sem.loops))
    (l.distributed ? sem.processorDims : sem.timeDims).push_back(k);
  bool allGridDims = llvm::all_of(sem.processorDims, [&](unsigned k) {
    return sem.loops[k].gridDim >= 0;
  });
  if (allGridDims)
    llvm::sort(sem.processorDims, [&](unsigned a, unsigned b) {
      return std::make_pair(sem.loops[a].gridDim, a) <
             std::make_pair(sem.loops[b].gridDim, b);
    });

  auto buildSchedule = [&](ArrayRef<unsigned> dims, StringRef outTuple,
                           StringRef what) -> FailureOr<IslPwMultiAff> {
    SmallVector<std::string> exprs, names;
    for (unsigned k : dims) {
      exprs.push_back(paren(loopExprs[k]));
      names.push_back(sem.loops[k].name);
    }
    IslPwMultiAff pma = islReadPwMultiAff(
        ctx, "{ " + space->tuple + " -> " + outTuple.str() + "[" +
                 joinComma(exprs) + "]" + space->where + " }");
    if (pma)
      pma.reset(nameDims(ctx.get(), pma.release(), vars, names));
    return checked(ctx, std::move(pma), emitError, what);
  };
  SmallVector<unsigned> allDims;
  for (unsigned k = 0; k < sem.loops.size(); ++k)
    allDims.push_back(k);
  FailureOr<IslPwMultiAff> schedule =
      buildSchedule(allDims, "", "the schedule");
  if (failed(schedule))
    return failure();
  FailureOr<IslPwMultiAff> procs =
      buildSchedule(sem.processorDims, "P", "the processor schedule");
  if (failed(procs))
    return failure();
  FailureOr<IslPwMultiAff> times =
      buildSchedule(sem.timeDims, "", "the time schedule");
  if (failed(times))
    return failure();
  sem.schedule = std::move(*schedule);
  sem.processorSchedule = std::move(*procs);
  sem.timeSchedule = std::move(*times);
  auto toMap = [&](const IslPwMultiAff &pma, IslMap &out,
                   StringRef what) -> LogicalResult {
    FailureOr<IslMap> map = checked(
        ctx, IslMap(isl_map_from_pw_multi_aff(pma.copy())), emitError, what);
    if (failed(map))
      return failure();
    out = std::move(*map);
    return success();
  };
  if (failed(toMap(sem.schedule, sem.scheduleMap, "the schedule map")) ||
      failed(toMap(sem.processorSchedule, sem.processorMap,
                   "the processor map")) ||
      failed(toMap(sem.timeSchedule, sem.timeMap, "the time map")))
    return failure();
  return sem;
}

FailureOr<StatementSemantics> StatementSemantics::get(IslContext &ctx,
                                                      ComputeOp op) {
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  if (failed(nest))
    return failure();
  return get(ctx, nest->getStatement(), nest->extents, nest->nest,
             [&]() { return op.emitError(); });
}
