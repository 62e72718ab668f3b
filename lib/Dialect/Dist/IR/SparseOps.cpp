//===- SparseOps.cpp - sparse tensors: ops and what dist lowers -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The one definition of which sparse computations dist lowers
// (SparseCompute.h), which the verifier of dist.compute and the lowering
// share; the ops' own verifiers are in SparseOpVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"
#include "SparseMatch.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::sparse_match;

//===----------------------------------------------------------------------===//
// What can be stored and computed
//===----------------------------------------------------------------------===//

/// The dimension distribution of dimension `d` of `t` (outer level).
DimDistAttr sparse_match::dimOf(DistTensorType t, unsigned d) {
  return t.getLayout().getOuter().getDims()[d];
}

/// Whether dimension `d` of `t` is split by non-zeros over axis 0.
bool sparse_match::nonzerosOnAxis0(DistTensorType t) {
  DimDistAttr dim = dimOf(t, 0);
  return dim.getKind() == PartitionKind::nonzeros &&
         dim.getAxes().size() == 1 && dim.getAxes()[0] == 0 &&
         dim.getSkew().empty();
}

/// Whether dimension `d` of `t` is blocked over axis 0 of a 1-D grid.
bool sparse_match::blockedOnAxis0(DistTensorType t, unsigned d) {
  DimDistAttr dim = dimOf(t, d);
  return dim.getKind() == PartitionKind::blocked &&
         dim.getAxes().size() == 1 && dim.getAxes()[0] == 0 &&
         dim.getSkew().empty();
}

bool sparse_match::whole(DistTensorType t, unsigned d) {
  return dimOf(t, d).getKind() == PartitionKind::none;
}

/// Whether dense operand `t` lies on `grid`, one level, not fixed to a
/// face (what the sparse computations' dense operands must be).
bool sparse_match::onOneLevelOf(DistTensorType t, FlatSymbolRefAttr grid) {
  return t.getLayout().getGrid() == grid &&
         t.getLayout().getLevels().size() == 1 &&
         t.getLayout().getOuter().getFixedAxes().empty();
}

std::string sparse_match::typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool dist::isSparseCompute(ComputeOp op) {
  return llvm::any_of(op.getTensors().getTypes(), [](Type t) {
    return cast<DistTensorType>(t).isSparse();
  });
}

std::string dist::sparseStorageError(DistTensorType t,
                                     ArrayRef<int64_t> gridShape) {
  using namespace sparse_tensor;
  SparseTensorEncodingAttr enc = t.getEncoding();
  if (!enc)
    return "the tensor is not sparse";
  if (t.getRank() == 3)
    return sparseTensor3StorageError(t, gridShape);
  if (t.getRank() != 2)
    return "sparse tensors of rank " + std::to_string(t.getRank()) +
           " are not stored (matrices and tensors of order 3 only)";
  if (!(enc.isIdentity() && enc.isDenseLvl(0) && enc.isCompressedLvl(1) &&
        enc.isUniqueLvl(1)))
    return "only CSR matrices (map = (i, j) -> (i : dense, j : compressed)) "
           "are stored yet; other formats parse and verify (sparse II)";
  if (!t.getElementType().isF32() && !t.getElementType().isF64())
    return "sparse matrices hold f32 or f64, not " +
           typeStr(t.getElementType());
  if (t.getLayout().getLevels().size() != 1 || gridShape.size() != 1)
    return "sparse matrices are stored on 1-D, one-level grids only";
  if (!t.getLayout().getOuter().getFixedAxes().empty() ||
      !(blockedOnAxis0(t, 0) || nonzerosOnAxis0(t)) || !whole(t, 1))
    return "sparse matrices are stored with their rows blocked over the "
           "grid and their columns whole (#dist.layout<@m, \"xy -> x\">), "
           "or with their entries split by non-zeros over the grid "
           "(#dist.layout<@m, \"xy -> x~\">)";
  return "";
}

bool dist::hasNonzeroPartition(DistTensorType t) {
  return t.isSparse() && t.getLayout().getLevels().size() == 1 &&
         llvm::any_of(t.getLayout().getOuter().getDims(), [](DimDistAttr d) {
           return d.getKind() == PartitionKind::nonzeros;
         });
}

/// Whether `v` is fuse(a, b) in `nest`.
static bool isFusionOf(const LoopNest &nest, StringRef v, StringRef a,
                       StringRef b) {
  auto f = nest.derivations.find(v);
  return f != nest.derivations.end() &&
         f->second.kind == Derivation::Kind::Collapsed &&
         f->second.parents.size() == 2 && f->second.parents[0] == a &&
         f->second.parents[1] == b;
}

/// How many of `levels` (row, column[, depth]) `var` fuses: 2 when it is
/// `pos(f, var, B)` with f = fuse(row, col) (SpDISTAL's position space of
/// B's non-zeros, coordinate fusion), 3 when f = fuse(fuse(row, col),
/// depth) (all three levels of an order-3 tensor), or a divide of either;
/// 0 otherwise.
static unsigned fusedPositionLevels(const LoopNest &nest, StringRef var,
                                    StringRef matrix,
                                    ArrayRef<StringRef> levels) {
  if (nest.positionTensorOf(var) != matrix)
    return 0;
  std::string v = var.str();
  for (unsigned depth = 0; depth < 256; ++depth) {
    auto it = nest.derivations.find(v);
    if (it == nest.derivations.end())
      return 0;
    const Derivation &d = it->second;
    if (d.kind == Derivation::Kind::Position) {
      StringRef f = d.parents.front();
      if (isFusionOf(nest, f, levels[0], levels[1]))
        return 2;
      if (levels.size() < 3)
        return 0;
      auto g = nest.derivations.find(f);
      if (g == nest.derivations.end() ||
          g->second.kind != Derivation::Kind::Collapsed ||
          g->second.parents.size() != 2 || g->second.parents[1] != levels[2] ||
          !isFusionOf(nest, g->second.parents[0], levels[0], levels[1]))
        return 0;
      return 3;
    }
    if (d.parents.size() != 1)
      return 0;
    v = d.parents.front();
  }
  return 0;
}

/// The loops of `nest` must only block the rows over the grid: one
/// distributed loop, from the row variable, over all `procs` processes; or
/// one distributed loop over the positions of the fused rows and columns
/// (SpDISTAL's non-zero partition), which sets `positions`, or with
/// `levels[2]` (an order-3 tensor's third variable) of all three fused,
/// which sets `positions` and `entries`. The tensor may be stored either
/// way (`storedNonzeros`): a schedule that differs is a mixed partition,
/// which the lowering reshapes.
std::string sparse_match::checkSparseSchedule(
    const LoopNest &nest, StringRef matrix, ArrayRef<StringRef> levels,
    bool storedNonzeros, int64_t procs, bool &positions, bool *entries) {
  StringRef rowVar = levels[0], colVar = levels[1];
  std::string fusedSchedule = "fuse(" + rowVar.str() + ", " + colVar.str() +
                              ", f), pos(f, fp, " + matrix.str() +
                              "), distribute({fp}, {fo}, {fi}, Grid(" +
                              std::to_string(procs) + "))";
  if (levels.size() > 2)
    fusedSchedule += " (or, all three levels fused, fuse(" + rowVar.str() +
                     ", " + colVar.str() + ", f), fuse(f, " + levels[2].str() +
                     ", g), pos(g, gp, " + matrix.str() +
                     "), distribute({gp}, {go}, {gi}, Grid(" +
                     std::to_string(procs) + ")))";
  if (entries)
    *entries = false;
  if (!nest.kernel.empty())
    return "the leaf of a sparse product is compiled by the sparsifier; "
           "substitute(..., " +
           nest.kernel + ") does not apply";
  int distributed = 0;
  positions = false;
  for (const Loop &l : nest.loops) {
    if (l.parallel)
      return "parallelize is not supported on sparse products yet";
    if (!l.rotatedBy.empty())
      return "rotate is not supported on sparse products";
    if (!l.distributed)
      continue;
    ++distributed;
    if (!nest.positionTensorOf(l.name).empty()) {
      unsigned fused = fusedPositionLevels(nest, l.name, matrix, levels);
      if (!fused)
        return "loop '" + l.name +
               "' distributes positions other than those of '" + matrix.str() +
               "''s fused " +
               (levels.size() > 2 ? "levels" : "rows and columns") +
               "; a non-zero partition is scheduled " + fusedSchedule;
      positions = true;
      if (entries)
        *entries = fused == 3;
      if (l.extent != procs)
        return "the positions are distributed over " +
               std::to_string(l.extent) + " parts, but the grid has " +
               std::to_string(procs) + " processes";
      continue;
    }
    if (l.origins.size() != 1 || l.origins[0] != rowVar)
      return "loop '" + l.name +
             "' distributes a column or reduction variable; sparse "
             "products distribute the rows ('" +
             rowVar.str() + "') or the positions of the matrix (" +
             fusedSchedule + ")";
    if (l.extent != procs)
      return "the rows are distributed over " + std::to_string(l.extent) +
             " parts, but the grid has " + std::to_string(procs) +
             " processes";
  }
  if (distributed != 1)
    return storedNonzeros ? "distribute the positions of '" + matrix.str() +
                                "' over the grid (one distributed loop): " +
                                fusedSchedule
                          : "distribute the row variable '" + rowVar.str() +
                                "' over the grid (one distributed loop)";
  return "";
}

/// Appends the operands of `e` to `out` when it is accesses joined by
/// `kind` only (Mul: a product without constants or signs; Add: a sum).
bool sparse_match::accessesJoinedBy(const IndexExpr *e, IndexExpr::Kind kind,
                             SmallVectorImpl<const Access *> &out) {
  if (!e)
    return false;
  if (e->kind == IndexExpr::Kind::Access) {
    out.push_back(&e->access);
    return true;
  }
  return e->kind == kind && accessesJoinedBy(e->lhs.get(), kind, out) &&
         accessesJoinedBy(e->rhs.get(), kind, out);
}

/// SDDMM: `A(i,j) = B(i,j) * C(i,k) * D(k,j)` with B sparse (its factors
/// in any order), A sparse of B's type (it gets B's pattern), C's rows
/// blocked like B's or replicated, D replicated.
static FailureOr<SparseProduct>
matchSddmm(const IndexStatement &stmt,
           const llvm::StringMap<DistTensorType> &types, const LoopNest &nest,
           ArrayRef<int64_t> gridShape, ArrayRef<const Access *> factors,
           std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  const char *form = "SDDMM reads A(i,j) = B(i,j) * C(i,k) * D(k,j) with B "
                     "and A sparse, C and D dense";
  const Access &a = stmt.lhs;
  const Access *b = nullptr, *c = nullptr, *d = nullptr;
  for (const Access *f : factors) {
    if (!types.lookup(f->tensor).isSparse())
      continue;
    if (b)
      return fail(Twine("exactly one factor of an SDDMM is sparse; ") + form);
    b = f;
  }
  if (!b || b->indices.size() != 2 || a.indices.size() != 2 ||
      a.indices != b->indices || a.indices[0] == a.indices[1])
    return fail(form);
  StringRef i = a.indices[0], j = a.indices[1];
  for (const Access *f : factors) {
    if (f == b || f->indices.size() != 2)
      continue;
    if (f->indices[0] == i && f->indices[1] != j && f->indices[1] != i)
      c = f;
    else if (f->indices[1] == j && f->indices[0] != i && f->indices[0] != j)
      d = f;
  }
  if (!c || !d || c == d || c->indices[1] != d->indices[0] ||
      llvm::any_of(factors, [&](const Access *f) {
        return f->indices.size() != 2;
      }))
    return fail(form);
  if (c->tensor == d->tensor || c->tensor == b->tensor ||
      d->tensor == b->tensor || a.tensor == b->tensor ||
      a.tensor == c->tensor || a.tensor == d->tensor)
    return fail("the four tensors of an SDDMM must be different tensors");
  if (stmt.accumulate)
    return fail("an SDDMM's sparse output is assigned ('='): '+=' would "
                "add B's pattern to the output's own, which needs sparse "
                "assembly (not supported yet)");
  DistTensorType at = types.lookup(a.tensor), bt = types.lookup(b->tensor),
                 ct = types.lookup(c->tensor), dt = types.lookup(d->tensor);
  if (!at.isSparse())
    return fail("an SDDMM's output has the matrix's pattern: give '" +
                a.tensor + "' the type of '" + b->tensor + "' (sparse)");
  std::string storage = sparseStorageError(bt, gridShape);
  if (!storage.empty())
    return fail(storage);
  if (at != bt)
    return fail("an SDDMM's output gets the matrix's pattern, so it must "
                "have the matrix's type: '" +
                a.tensor + "' is " + typeStr(at) + ", '" + b->tensor + "' " +
                typeStr(bt));
  if (ct.getElementType() != bt.getElementType() ||
      dt.getElementType() != bt.getElementType())
    return fail("the operands of an SDDMM must have one element type");
  FlatSymbolRefAttr grid = bt.getLayout().getGrid();
  for (DistTensorType t : {ct, dt})
    if (!onOneLevelOf(t, grid))
      return fail("the dense operands of an SDDMM must be on the matrix's "
                  "grid " +
                  grid.getValue() + ", on one level, not fixed to a face");
  if (!whole(dt, 0) || !whole(dt, 1))
    return fail("'" + d->tensor + "' (D in A(i,j) = B(i,j) * C(i,k) * "
                "D(k,j)) must be replicated (\"xy -> *\"): every process "
                "reads the columns its entries name");
  if (!whole(ct, 1))
    return fail("the columns of '" + c->tensor + "' must not be partitioned");

  SparseProduct p;
  p.kind = SparseKernel::Sddmm;
  p.out = a.tensor;
  p.matrix = b->tensor;
  p.dense = c->tensor;
  p.dense2 = d->tensor;
  p.cols = ct.getShape()[1];
  p.denseIsMatrix = true;
  p.denseReplicated = whole(ct, 0);
  p.storedNonzeros = hasNonzeroPartition(bt);
  int64_t procs = gridShape.empty() ? 1 : gridShape[0];
  for (const auto &entry : nest.derivations) {
    const Derivation &dv = entry.getValue();
    if (dv.kind == Derivation::Kind::Position && dv.positionOf != p.matrix)
      return fail("pos(" + dv.parents.front() + ", " + entry.getKey().str() +
                  ", " + dv.positionOf + ") needs the sparse matrix '" +
                  p.matrix + "'");
  }
  std::string sched =
      checkSparseSchedule(nest, p.matrix, {StringRef(i), StringRef(j)},
                          p.storedNonzeros, procs, p.nonzeros);
  if (!sched.empty())
    return fail(sched);
  if (p.nonzeros != p.storedNonzeros)
    return fail(Twine("an SDDMM runs in the partition its matrix is stored "
                      "in: '") +
                p.matrix + "' is stored " +
                (p.storedNonzeros ? "by non-zeros" : "with its rows blocked") +
                " and scheduled " +
                (p.nonzeros ? "by non-zeros" : "by rows") +
                " (mixed partitions are supported for SpMV and SpMM)");
  if (!p.denseReplicated && (p.nonzeros || !blockedOnAxis0(ct, 0)))
    return fail("'" + c->tensor + "' (C in A(i,j) = B(i,j) * C(i,k) * "
                "D(k,j)) must be replicated (\"xy -> *\")" +
                (p.nonzeros ? std::string(" when the matrix is split by "
                                          "non-zeros")
                            : std::string(" or have its rows blocked like "
                                          "the matrix's (\"xy -> x\")")));
  return p;
}

/// SpAdd: `A(i,j) = B(i,j) + C(i,j) [+ D(i,j)]`, every tensor sparse of
/// one type, rows blocked over the grid (SpDISTAL: a union of patterns is
/// not split by one operand's non-zeros).
static FailureOr<SparseProduct>
matchSparseAdd(const IndexStatement &stmt,
               const llvm::StringMap<DistTensorType> &types,
               const LoopNest &nest, ArrayRef<int64_t> gridShape,
               ArrayRef<const Access *> terms, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  const Access &a = stmt.lhs;
  DistTensorType at = types.lookup(a.tensor);
  const char *form = "a sum of sparse matrices reads A(i,j) = B(i,j) + "
                     "C(i,j) [+ D(i,j)] with every tensor sparse";
  if (terms.size() < 2 || terms.size() > 3)
    return fail(Twine(form) + " (two or three terms)");
  if (!at.isSparse())
    return fail(Twine("the output of a sum of sparse matrices is sparse "
                      "(the union of the terms' patterns): give '") +
                a.tensor + "' the terms' type");
  if (a.indices.size() != 2 || a.indices[0] == a.indices[1])
    return fail(form);
  llvm::StringSet<> seen{a.tensor};
  for (const Access *t : terms) {
    if (!types.lookup(t->tensor).isSparse())
      return fail(Twine(form) + "; '" + t->tensor + "' is dense");
    if (t->indices != a.indices)
      return fail(Twine(form) + ": every term indexed as the output (" +
                  t->tensor + " is not)");
    if (!seen.insert(t->tensor).second)
      return fail("the tensors of a sum of sparse matrices must be "
                  "different tensors");
    if (types.lookup(t->tensor) != at)
      return fail("the terms of a sum of sparse matrices must have the "
                  "output's type: '" +
                  t->tensor + "' is " + typeStr(types.lookup(t->tensor)) +
                  ", '" + a.tensor + "' " + typeStr(at));
  }
  if (stmt.accumulate)
    return fail("a sum of sparse matrices is assigned ('='): add the output "
                "as a term instead of '+='");
  std::string storage = sparseStorageError(at, gridShape);
  if (!storage.empty())
    return fail(storage);
  if (hasNonzeroPartition(at))
    return fail("a sum of sparse matrices is computed with their rows "
                "blocked (\"xy -> x\"): its output's pattern is the union "
                "of the terms', which one term's non-zero partition cannot "
                "split (SpDISTAL)");
  SparseProduct p;
  p.kind = SparseKernel::Add;
  p.out = a.tensor;
  p.matrix = terms.front()->tensor;
  for (const Access *t : terms)
    p.addends.push_back(t->tensor);
  int64_t procs = gridShape.empty() ? 1 : gridShape[0];
  for (const auto &entry : nest.derivations)
    if (entry.getValue().kind == Derivation::Kind::Position)
      return fail("a sum of sparse matrices is distributed by rows, not by "
                  "positions (its output's pattern is the union of the "
                  "terms')");
  std::string sched = checkSparseSchedule(
      nest, p.matrix, {StringRef(a.indices[0]), StringRef(a.indices[1])}, false,
      procs, p.nonzeros);
  if (!sched.empty())
    return fail(sched);
  return p;
}

FailureOr<SparseProduct>
dist::matchSparseProduct(const IndexStatement &stmt,
                         const llvm::StringMap<DistTensorType> &types,
                         const LoopNest &nest, ArrayRef<int64_t> gridShape,
                         std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  SmallVector<const Access *> factors, terms;
  if (llvm::any_of(stmt.rhsAccesses(), [&](const Access *a) {
        return types.lookup(a->tensor).isSparse() &&
               types.lookup(a->tensor).getRank() == 3;
      }))
    return matchSparseTensor3(stmt, types, nest, gridShape, error);
  if (accessesJoinedBy(stmt.rhs.get(), IndexExpr::Kind::Mul, factors) &&
      factors.size() == 3)
    return matchSddmm(stmt, types, nest, gridShape, factors, error);
  if (accessesJoinedBy(stmt.rhs.get(), IndexExpr::Kind::Add, terms) &&
      terms.size() > 1 &&
      llvm::any_of(terms, [&](const Access *t) {
        return types.lookup(t->tensor).isSparse();
      }))
    return matchSparseAdd(stmt, types, nest, gridShape, terms, error);
  SparseProduct p;
  p.out = stmt.lhs.tensor;
  SmallVector<const Access *> rhs = stmt.rhsAccesses();
  // Exactly `access * access`: a constant factor or a sign would be
  // dropped by the leaf, which multiplies the two operands only.
  const IndexExpr *e = stmt.rhs.get();
  bool twoAccesses = e && e->kind == IndexExpr::Kind::Mul && e->lhs &&
                     e->rhs && e->lhs->kind == IndexExpr::Kind::Access &&
                     e->rhs->kind == IndexExpr::Kind::Access;
  if (!twoAccesses || rhs.size() != 2)
    return fail("sparse computations are Y(i) = B(i,j) * X(j) or Y(i,k) = "
                "B(i,j) * X(j,k) (SpMV, SpMM), A(i,j) = B(i,j) * C(i,k) * "
                "D(k,j) (SDDMM) with B sparse, or A(i,j) = B(i,j) + C(i,j) "
                "[+ D(i,j)] (SpAdd) with all sparse, without constant "
                "factors or signs; other statements with sparse tensors are "
                "not supported yet");
  const Access *b = rhs[0], *x = rhs[1];
  if (!types.lookup(b->tensor).isSparse())
    std::swap(b, x);
  if (types.lookup(stmt.lhs.tensor).isSparse())
    return fail("a sparse output is supported for SDDMM only (A(i,j) = "
                "B(i,j) * C(i,k) * D(k,j)); a product's output is dense");
  if (!types.lookup(b->tensor).isSparse() ||
      types.lookup(x->tensor).isSparse() || b->tensor == x->tensor)
    return fail("exactly one operand of a sparse product is sparse");
  p.matrix = b->tensor;
  p.dense = x->tensor;
  const Access &y = stmt.lhs;
  p.denseIsMatrix = x->indices.size() == 2;
  bool shapeOk = b->indices.size() == 2 && b->indices[0] != b->indices[1] &&
                 y.indices.size() == x->indices.size() &&
                 y.indices[0] == b->indices[0] &&
                 x->indices[0] == b->indices[1];
  if (shapeOk && p.denseIsMatrix)
    shapeOk = y.indices.size() == 2 && y.indices[1] == x->indices[1] &&
              y.indices[1] != b->indices[0] && y.indices[1] != b->indices[1];
  if (!shapeOk || x->indices.size() > 2)
    return fail("the statement must read Y(i) = B(i,j) * X(j) or Y(i,k) = "
                "B(i,j) * X(j,k) with B sparse");

  DistTensorType bt = types.lookup(p.matrix), xt = types.lookup(p.dense),
                 yt = types.lookup(p.out);
  std::string storage = sparseStorageError(bt, gridShape);
  if (!storage.empty())
    return fail(storage);
  if (xt.getElementType() != bt.getElementType() ||
      yt.getElementType() != bt.getElementType())
    return fail("the operands of a sparse product must have one element "
                "type");
  FlatSymbolRefAttr grid = bt.getLayout().getGrid();
  for (DistTensorType t : {xt, yt})
    if (!onOneLevelOf(t, grid))
      return fail("the dense operands of a sparse product must be on the "
                  "matrix's grid " +
                  grid.getValue() + ", on one level, not fixed to a face");
  if (!blockedOnAxis0(yt, 0) || (p.denseIsMatrix && !whole(yt, 1)))
    return fail("the output's rows must be blocked like the matrix's ("
                "\"x -> x\" or \"xy -> x\")");
  if (p.denseIsMatrix && !whole(xt, 1))
    return fail("the columns of the dense operand must not be partitioned");
  p.denseReplicated = whole(xt, 0);
  if (!p.denseReplicated && !blockedOnAxis0(xt, 0))
    return fail("the dense operand's rows must be blocked over the grid "
                "or replicated (\"x -> x\" or \"x -> *\")");
  if (p.denseIsMatrix)
    p.cols = xt.getShape()[1];

  int64_t procs = gridShape.empty() ? 1 : gridShape[0];
  p.storedNonzeros = hasNonzeroPartition(bt);
  for (const auto &entry : nest.derivations) {
    const Derivation &d = entry.getValue();
    if (d.kind == Derivation::Kind::Position && d.positionOf != p.matrix)
      return fail("pos(" + d.parents.front() + ", " + entry.getKey().str() +
                  ", " + d.positionOf + ") needs a sparse tensor; '" +
                  d.positionOf + "' is dense (the positions are those of '" +
                  p.matrix + "')");
  }
  std::string sched = checkSparseSchedule(
      nest, p.matrix, {StringRef(b->indices[0]), StringRef(b->indices[1])},
      p.storedNonzeros, procs, p.nonzeros);
  if (!sched.empty())
    return fail(sched);
  return p;
}
