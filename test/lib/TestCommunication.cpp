//===- TestCommunication.cpp - symbolic vs enumerated communication -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// --test-dist-communication-crosscheck classifies every tensor of every
// dist.compute twice: symbolically with isl (analyzeCommunication, what the
// lowering uses) and by enumerating every (processor, step) pair
// (analyzeCommunicationByEnumeration, the oracle). The kinds and their
// parameters must agree, and the symbolic roots and peers, evaluated at
// every processor and step, must equal the enumerated tables. A
// disagreement is an error naming the tensor, the processor and the step.
// Computations beyond the oracle's 2^18 pairs get a remark and no check.
//
// With `print`, each symbolic root and peer is printed as a remark.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/Semantics.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

std::string varName(const ComputeModel &m, unsigned i) {
  if (i < m.gridShape.size())
    return "p" + std::to_string(i);
  return m.localLoops[i - m.gridShape.size()]->name;
}

/// The variables of processor `r` at linear step `s` of level k.
SmallVector<int64_t> varsAt(const ComputeModel &m, int64_t r, int64_t s,
                            unsigned k) {
  SmallVector<int64_t> vars = rowMajorCoord(r, m.gridShape);
  SmallVector<int64_t> steps(k);
  for (int i = int(k) - 1; i >= 0; --i) {
    steps[i] = s % m.localLoops[i]->extent;
    s /= m.localLoops[i]->extent;
  }
  llvm::append_range(vars, steps);
  return vars;
}

int64_t rankOf(const ComputeModel &m, ArrayRef<QExpr> coords,
               ArrayRef<int64_t> vars) {
  SmallVector<int64_t> c;
  for (const QExpr &e : coords)
    c.push_back(e.evaluate(vars));
  if (llvm::any_of(c, [](int64_t x) { return x < 0; }))
    return -1;
  return rowMajorRank(c, m.gridShape);
}

struct TestCommunicationCrossCheckPass
    : public PassWrapper<TestCommunicationCrossCheckPass,
                         OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(
      TestCommunicationCrossCheckPass)
  TestCommunicationCrossCheckPass() = default;
  TestCommunicationCrossCheckPass(const TestCommunicationCrossCheckPass &p)
      : PassWrapper(p) {}
  StringRef getArgument() const final {
    return "test-dist-communication-crosscheck";
  }
  StringRef getDescription() const final {
    return "Cross-check the symbolic communication analysis against "
           "enumeration";
  }
  Option<bool> print{*this, "print",
                     llvm::cl::desc("Print the symbolic roots and peers"),
                     llvm::cl::init(false)};

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](ComputeOp op) {
      // A sparse product has no box model: its exchange is the matrix's
      // plan, built at run time (tested by test/Runtime/sparse-spmat.test).
      if (isSparseCompute(op) || isOneSidedCompute(op))
        return;
      FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
      if (failed(model)) {
        failedAny = true;
        return;
      }
      if (!check(op, **model))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }

  bool check(ComputeOp op, const ComputeModel &m) {
    std::vector<TransferPlan> sym = analyzeCommunication(m);
    std::vector<TransferPlan> enu = analyzeCommunicationByEnumeration(m);
    bool ok = true;
    int64_t P = 1;
    for (int64_t e : m.gridShape)
      P *= e;
    auto name = [&](unsigned i) { return varName(m, i); };
    for (auto [s, e] : llvm::zip(sym, enu)) {
      if (print)
        printPlan(op, m, s, name);
      if (e.kind == TransferPlan::Kind::General && e.maxElements < 0) {
        op.emitRemark() << "crosscheck " << s.tensor
                        << ": too many (processor, step) pairs to enumerate";
        continue;
      }
      std::string what;
      if (s.kind == TransferPlan::Kind::General &&
          e.kind != TransferPlan::Kind::General) {
        // Giving up is allowed (the general exchange is always correct)
        // when the symbolic analysis says why.
        op.emitRemark() << "crosscheck " << s.tensor << ": symbolic general ("
                        << s.whyGeneral << "), enumeration "
                        << stringifyTransferKind(e.kind);
        continue;
      }
      if (s.kind != e.kind)
        what = ("kind " + stringifyTransferKind(s.kind) + " vs " +
                stringifyTransferKind(e.kind))
                   .str();
      else if (s.axes != e.axes || s.shiftAxis != e.shiftAxis ||
               s.shiftOffset != e.shiftOffset || s.splitDim != e.splitDim ||
               s.pieceBlock != e.pieceBlock ||
               s.alignByPermutation != e.alignByPermutation ||
               s.alignLocal != e.alignLocal)
        what = "parameters differ: " + s.describe(m) + " vs " + e.describe(m);
      else if (s.maxElements >= 0 && s.maxElements < e.maxElements)
        what = "maxElements " + std::to_string(s.maxElements) + " below " +
               std::to_string(e.maxElements);
      else
        what = compareFunctions(m, s, e, P);
      if (!what.empty()) {
        op.emitError() << "crosscheck " << s.tensor << ": " << what;
        ok = false;
      } else {
        op.emitRemark() << "crosscheck " << s.tensor << ": agree ("
                        << stringifyTransferKind(s.kind)
                        << (s.whyGeneral.empty() ? "" : ": " + s.whyGeneral)
                        << ")";
      }
    }
    return ok;
  }

  /// Roots and peers at every processor and step.
  std::string compareFunctions(const ComputeModel &m, const TransferPlan &s,
                               const TransferPlan &e, int64_t P) {
    bool roots = !e.rootTable.empty();
    bool peers = !e.srcTable.empty();
    for (int64_t r = 0; r < P; ++r) {
      for (int64_t st = 0; st < e.steps; ++st) {
        SmallVector<int64_t> vars = varsAt(m, r, st, s.level);
        int64_t at = r * e.steps + st;
        auto where = [&] {
          return " on rank " + std::to_string(r) + " at step " +
                 std::to_string(st);
        };
        if (roots && s.root.evaluate(vars) != e.rootTable[at])
          return "root " + std::to_string(s.root.evaluate(vars)) + " vs " +
                 std::to_string(e.rootTable[at]) + where();
        // Alignment steps only for a shift (the tables hold -1 elsewhere).
        if (!peers || (s.kind == TransferPlan::Kind::Shift &&
                       vars.back() != 0))
          continue;
        int64_t src = rankOf(m, s.srcCoords, vars);
        int64_t dst = rankOf(m, s.dstCoords, vars);
        if (src != e.srcTable[at] || dst != e.dstTable[at])
          return "peers (" + std::to_string(src) + ", " +
                 std::to_string(dst) + ") vs (" +
                 std::to_string(e.srcTable[at]) + ", " +
                 std::to_string(e.dstTable[at]) + ")" + where();
      }
    }
    return "";
  }

  void printPlan(ComputeOp op, const ComputeModel &m, const TransferPlan &s,
                 function_ref<std::string(unsigned)> name) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << s.tensor << ": " << stringifyTransferKind(s.kind);
    if (s.kind == TransferPlan::Kind::Broadcast ||
        s.kind == TransferPlan::Kind::Reduce) {
      os << " root = ";
      s.root.print(os, name);
    }
    auto coords = [&](const char *what, ArrayRef<QExpr> c) {
      os << " " << what << " = (";
      for (size_t i = 0; i < c.size(); ++i) {
        if (i)
          os << ", ";
        c[i].print(os, name);
      }
      os << ")";
    };
    if (!s.srcCoords.empty()) {
      coords("src", s.srcCoords);
      coords("dst", s.dstCoords);
    }
    op.emitRemark() << text;
  }
};
} // namespace

namespace mlir {
namespace dist {
namespace test {
void registerTestCommunicationPasses() {
  PassRegistration<TestCommunicationCrossCheckPass>();
}
} // namespace test
} // namespace dist
} // namespace mlir
