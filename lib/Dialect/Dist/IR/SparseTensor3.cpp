//===- SparseTensor3.cpp - sparse tensors of order 3 ------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// What dist stores and computes with a sparse tensor of order 3 (sparse
// II): CSF with a dense root, its rows blocked or its (i, j) fibers split
// by non-zeros over a 1-D grid; SpTTV `A(i,j) = B(i,j,k) * c(k)` (A gets
// B's fibers as its pattern) and SpMTTKRP `A(i,l) = B(i,j,k) * C(j,l) *
// D(k,l)` (A dense). The recognizers share SparseMatch.h with the
// matrices' (SparseOps.cpp); the lowering is
// lib/Transforms/SPMD/SparseTensor3.cpp.
//
//===----------------------------------------------------------------------===//

#include "SparseMatch.h"

#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;
using namespace mlir::dist::sparse_match;

std::string dist::sparseTensor3StorageError(DistTensorType t,
                                            ArrayRef<int64_t> gridShape) {
  sparse_tensor::SparseTensorEncodingAttr enc = t.getEncoding();
  if (!(enc.isIdentity() && enc.isDenseLvl(0) && enc.isCompressedLvl(1) &&
        enc.isUniqueLvl(1) && enc.isCompressedLvl(2) && enc.isUniqueLvl(2)))
    return "tensors of order 3 are stored as CSF with a dense root (map = "
           "(i, j, k) -> (i : dense, j : compressed, k : compressed)) only; "
           "other formats parse and verify";
  if (!t.getElementType().isF32() && !t.getElementType().isF64())
    return "sparse tensors hold f32 or f64, not " +
           typeStr(t.getElementType());
  if (t.getLayout().getLevels().size() != 1 || gridShape.size() != 1)
    return "sparse tensors are stored on 1-D, one-level grids only";
  if (!t.getLayout().getOuter().getFixedAxes().empty() ||
      !(blockedOnAxis0(t, 0) || nonzerosOnAxis0(t)) || !whole(t, 1) ||
      !whole(t, 2))
    return "sparse tensors of order 3 are stored with their rows blocked "
           "over the grid (#dist.layout<@m, \"xyz -> x\">) or their (i, j) "
           "fibers split by non-zeros (#dist.layout<@m, \"xyz -> x~\">), "
           "the other dimensions whole";
  return "";
}

namespace {

/// The parts of a kernel on an order-3 tensor the two recognizers share.
struct Tensor3Match {
  const llvm::StringMap<DistTensorType> &types;
  const LoopNest &nest;
  ArrayRef<int64_t> gridShape;
  std::string &error;

  LogicalResult fail(const Twine &why) {
    error = why.str();
    return failure();
  }

  /// B's storage, the dense operands' grid and element type, and the
  /// schedule (rows, or the positions of fuse(i, j)); sets p.nonzeros and
  /// p.storedNonzeros.
  LogicalResult common(SparseProduct &p, const Access &b,
                       ArrayRef<StringRef> dense, StringRef kernel) {
    DistTensorType bt = types.lookup(b.tensor);
    std::string storage = sparseStorageError(bt, gridShape);
    if (!storage.empty())
      return fail(storage);
    FlatSymbolRefAttr grid = bt.getLayout().getGrid();
    for (StringRef name : dense) {
      DistTensorType t = types.lookup(name);
      if (t.getElementType() != bt.getElementType())
        return fail(Twine("the operands of an ") + kernel +
                    " must have one element type");
      if (!onOneLevelOf(t, grid))
        return fail(Twine("the dense operands of an ") + kernel +
                    " must be on the tensor's grid " + grid.getValue() +
                    ", on one level, not fixed to a face");
    }
    for (const auto &entry : nest.derivations) {
      const Derivation &d = entry.getValue();
      if (d.kind == Derivation::Kind::Position && d.positionOf != b.tensor)
        return fail(Twine("pos(") + d.parents.front() + ", " + entry.getKey().str() +
                    ", " + d.positionOf + ") needs the sparse tensor '" +
                    b.tensor + "'");
    }
    p.storedNonzeros = hasNonzeroPartition(bt);
    int64_t procs = gridShape.empty() ? 1 : gridShape[0];
    std::string sched =
        checkSparseSchedule(nest, b.tensor,
                            {StringRef(b.indices[0]), StringRef(b.indices[1]),
                             StringRef(b.indices[2])},
                            p.storedNonzeros, procs, p.nonzeros, &p.entries);
    if (!sched.empty())
      return fail(sched);
    // All three levels fused: the entries move to that partition from
    // either one (dist.sparse_entries).
    if (!p.entries && p.nonzeros != p.storedNonzeros)
      return fail(Twine("an ") + kernel +
                  " runs in the partition its tensor is stored in, or on "
                  "its entries split equally (all three levels fused): '" +
                  b.tensor + "' is stored " +
                  (p.storedNonzeros ? "by fibers" : "with its rows blocked") +
                  " and scheduled " + (p.nonzeros ? "by fibers" : "by rows"));
    return success();
  }

  /// Whether dense `name` is replicated on every process.
  LogicalResult replicated(StringRef name, StringRef role, StringRef kernel) {
    DistTensorType t = types.lookup(name);
    for (unsigned d = 0; d < t.getRank(); ++d)
      if (!whole(t, d))
        return fail(Twine("'") + name + "' (" + role + " in " + kernel +
                    ") must be replicated (\"" +
                    (t.getRank() == 1 ? "x -> *" : "xy -> *") +
                    "\"): every process reads the coordinates its entries "
                    "name");
    return success();
  }
};

} // namespace

/// SpTTV: `A(i,j) = B(i,j,k) * c(k)`.
static FailureOr<SparseProduct> matchTtv(Tensor3Match &m,
                                         const IndexStatement &stmt,
                                         const Access &b, const Access &c) {
  const char *form = "SpTTV reads A(i,j) = B(i,j,k) * c(k) with B sparse "
                     "of order 3, A sparse, c dense";
  const Access &a = stmt.lhs;
  if (c.indices.size() != 1 || a.indices.size() != 2 ||
      a.indices[0] != b.indices[0] || a.indices[1] != b.indices[1] ||
      c.indices[0] != b.indices[2])
    return m.fail(form);
  if (a.tensor == c.tensor)
    return m.fail("the three tensors of an SpTTV must be different tensors");
  if (stmt.accumulate)
    return m.fail("an SpTTV's sparse output is assigned ('='): its pattern "
                  "is the tensor's fibers");
  DistTensorType at = m.types.lookup(a.tensor), bt = m.types.lookup(b.tensor),
                 ct = m.types.lookup(c.tensor);
  if (!at.isSparse() || ct.isSparse())
    return m.fail(std::string("an SpTTV's output has the tensor's (i, j) "
                              "fibers as its pattern: ") +
                  form);
  SparseProduct p;
  p.kind = SparseKernel::Ttv;
  p.out = a.tensor;
  p.matrix = b.tensor;
  p.dense = c.tensor;
  if (failed(m.common(p, b, {c.tensor}, "SpTTV")))
    return failure();
  std::string storage = sparseStorageError(at, m.gridShape);
  if (!storage.empty())
    return m.fail(Twine("the output '") + a.tensor + "': " + storage);
  auto ae = at.getEncoding(), be = bt.getEncoding();
  if (at.getShape()[0] != bt.getShape()[0] ||
      at.getShape()[1] != bt.getShape()[1] ||
      at.getElementType() != bt.getElementType() ||
      ae.getPosWidth() != be.getPosWidth() ||
      ae.getCrdWidth() != be.getCrdWidth() ||
      at.getLayout().getGrid() != bt.getLayout().getGrid() ||
      hasNonzeroPartition(at) != p.storedNonzeros)
    return m.fail("an SpTTV's output gets the tensor's (i, j) fibers, so it "
                  "is a CSR matrix of the tensor's first two extents, "
                  "element type, index widths, grid and partition (\"xy -> "
                  "x\" with \"xyz -> x\", \"xy -> x~\" with \"xyz -> x~\"): "
                  "'" +
                  a.tensor + "' is " + typeStr(at) + ", '" + b.tensor +
                  "' " + typeStr(bt));
  if (p.entries && !p.storedNonzeros)
    return m.fail(Twine("an SpTTV over its entries split equally adds the "
                        "partial sums of a fiber split between processes "
                        "into the output's blocks of fibers: store '") +
                  b.tensor + "' and '" + a.tensor +
                  "' by fibers (\"xyz -> x~\" and \"xy -> x~\")");
  if (failed(m.replicated(c.tensor, "c", "A(i,j) = B(i,j,k) * c(k)")))
    return failure();
  p.denseReplicated = true;
  return p;
}

/// SpMTTKRP: `A(i,l) = B(i,j,k) * C(j,l) * D(k,l)`, the factors in any
/// order.
static FailureOr<SparseProduct>
matchMttkrp(Tensor3Match &m, const IndexStatement &stmt, const Access &b,
            ArrayRef<const Access *> factors) {
  const char *form = "SpMTTKRP reads A(i,l) = B(i,j,k) * C(j,l) * D(k,l) "
                     "with B sparse of order 3, A, C and D dense";
  const Access &a = stmt.lhs;
  StringRef i = b.indices[0], j = b.indices[1], k = b.indices[2];
  if (a.indices.size() != 2 || a.indices[0] != i)
    return m.fail(form);
  StringRef l = a.indices[1];
  if (l == i || l == j || l == k)
    return m.fail(form);
  const Access *c = nullptr, *d = nullptr;
  for (const Access *f : factors) {
    if (f == &b || f->indices.size() != 2 || f->indices[1] != l)
      continue;
    if (f->indices[0] == j)
      c = f;
    else if (f->indices[0] == k)
      d = f;
  }
  if (!c || !d)
    return m.fail(form);
  llvm::StringSet<> names;
  for (StringRef t : {StringRef(a.tensor), StringRef(b.tensor),
                      StringRef(c->tensor), StringRef(d->tensor)})
    names.insert(t);
  if (names.size() != 4)
    return m.fail("the four tensors of an SpMTTKRP must be different "
                  "tensors");
  DistTensorType at = m.types.lookup(a.tensor), ct = m.types.lookup(c->tensor),
                 dt = m.types.lookup(d->tensor);
  if (at.isSparse() || ct.isSparse() || dt.isSparse())
    return m.fail(form);
  SparseProduct p;
  p.kind = SparseKernel::Mttkrp;
  p.out = a.tensor;
  p.matrix = b.tensor;
  p.dense = c->tensor;
  p.dense2 = d->tensor;
  p.cols = at.getShape()[1];
  p.denseIsMatrix = true;
  p.denseReplicated = true;
  if (failed(m.common(p, b, {a.tensor, c->tensor, d->tensor}, "SpMTTKRP")))
    return failure();
  if (!blockedOnAxis0(at, 0) || !whole(at, 1))
    return m.fail("the output's rows must be blocked like the tensor's "
                  "(\"xy -> x\")");
  const char *kernel = "A(i,l) = B(i,j,k) * C(j,l) * D(k,l)";
  if (failed(m.replicated(c->tensor, "C", kernel)) ||
      failed(m.replicated(d->tensor, "D", kernel)))
    return failure();
  return p;
}

FailureOr<SparseProduct> sparse_match::matchSparseTensor3(
    const IndexStatement &stmt, const llvm::StringMap<DistTensorType> &types,
    const LoopNest &nest, ArrayRef<int64_t> gridShape, std::string &error) {
  Tensor3Match m{types, nest, gridShape, error};
  SmallVector<const Access *> factors;
  if (!accessesJoinedBy(stmt.rhs.get(), IndexExpr::Kind::Mul, factors) ||
      (factors.size() != 2 && factors.size() != 3))
    return m.fail("the kernels on sparse tensors of order 3 are SpTTV, "
                  "A(i,j) = B(i,j,k) * c(k), and SpMTTKRP, A(i,l) = "
                  "B(i,j,k) * C(j,l) * D(k,l), without constant factors or "
                  "signs");
  const Access *b = nullptr;
  for (const Access *f : factors) {
    if (!types.lookup(f->tensor).isSparse())
      continue;
    if (b || f->indices.size() != 3)
      return m.fail("exactly one operand, of order 3, is sparse in SpTTV "
                    "and SpMTTKRP");
    b = f;
  }
  if (!b || b->indices[0] == b->indices[1] || b->indices[0] == b->indices[2] ||
      b->indices[1] == b->indices[2])
    return m.fail("the sparse tensor of order 3 must be indexed by three "
                  "different variables");
  if (factors.size() == 2)
    return matchTtv(m, stmt, *b, *(factors[0] == b ? factors[1] : factors[0]));
  return matchMttkrp(m, stmt, *b, factors);
}
