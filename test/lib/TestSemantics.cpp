//===- TestSemantics.cpp - print and cross-check the semantic model -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// --test-dist-semantics prints, for every dist.alloc (in program order), the
// tensor's ownership and local-index relations and, for every processor of
// its machine (row-major), the owned index set, the local extents and, for
// tensors of at most 64 elements, the explicit owned elements; and for every
// dist.compute the iteration domain, access relations, scheduled loops,
// schedule map and the processor / time split.
//
// It also cross-checks the closed form against isl (owned elements, counts,
// local indices, owners) and reports any disagreement as an error, so the
// lit tests fail when the two models drift apart.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Semantics.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

namespace {

/// Tensors with at most this many elements list their owned elements.
constexpr int64_t kListElements = 64;
/// Tensors with at most this many elements are checked element by element
/// (when elements x processors stays below kCheckWork).
constexpr int64_t kCheckElements = 4096;
constexpr int64_t kCheckWork = int64_t(1) << 20;
/// Owned sets of tensors with at most this many elements are counted.
constexpr int64_t kCountElements = int64_t(1) << 16;
/// Machines with at most this many processors are listed processor by
/// processor.
constexpr int64_t kListProcessors = 64;
/// Machines with at most this many processors are cross-checked processor
/// by processor.
constexpr int64_t kCheckProcessors = 4096;

void printTuple(llvm::raw_ostream &os, ArrayRef<int64_t> v) {
  os << "(";
  llvm::interleave(v, os, ",");
  os << ")";
}

/// `{(1,2),(5,2)}`; one-dimensional tensors print bare indices `{2,8}`.
void printElements(llvm::raw_ostream &os,
                   ArrayRef<SmallVector<int64_t>> elements) {
  os << "{";
  llvm::interleave(
      elements, os,
      [&](const SmallVector<int64_t> &e) {
        if (e.size() == 1)
          os << e.front();
        else
          printTuple(os, e);
      },
      ",");
  os << "}";
}

void printList(llvm::raw_ostream &os, ArrayRef<int64_t> v) {
  os << "[";
  llvm::interleaveComma(v, os);
  os << "]";
}

struct TestDistSemanticsPass
    : public PassWrapper<TestDistSemanticsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestDistSemanticsPass)

  StringRef getArgument() const final { return "test-dist-semantics"; }
  StringRef getDescription() const final {
    return "Print (and cross-check) the isl semantics of every dist.alloc "
           "layout and every dist.compute statement and schedule";
  }

  void runOnOperation() override {
    IslContext ctx;
    llvm::raw_ostream &os = llvm::outs();
    bool ok = true;
    unsigned allocs = 0, computes = 0;
    getOperation()->walk([&](Operation *op) {
      if (auto alloc = dyn_cast<AllocOp>(op))
        ok &= succeeded(printAlloc(ctx, alloc, allocs++, os));
      else if (auto compute = dyn_cast<ComputeOp>(op))
        ok &= succeeded(printCompute(ctx, compute, computes++, os));
    });
    os.flush();
    if (!ok)
      signalPassFailure();
  }

  LogicalResult printAlloc(IslContext &ctx, AllocOp alloc, unsigned ordinal,
                           llvm::raw_ostream &os) {
    auto type = alloc.getResult().getType();
    auto emitError = [&]() { return alloc.emitError(); };
    FailureOr<LayoutSemantics> semOr =
        LayoutSemantics::get(type, alloc.getOperation(), emitError);
    if (failed(semOr))
      return failure();
    const LayoutSemantics &sem = *semOr;

    os << "alloc #" << ordinal << ": ";
    if (type.getRank() == 0)
      os << "scalar";
    llvm::interleave(type.getShape(), os, "x");
    os << " over " << type.getLayout().getGrid() << " ";
    llvm::interleave(
        llvm::seq<unsigned>(0, sem.getNumLevels()), os,
        [&](unsigned l) { printList(os, sem.getLevelGridShape(l)); }, " x ");
    os << " as ";
    printLayoutLevels(os, type.getLayout().getLevels());
    os << "\n";

    FailureOr<IslMap> own = sem.getOwnershipMap(ctx, emitError);
    if (failed(own))
      return failure();
    FailureOr<IslMap> local = sem.getLocalIndexMap(ctx, emitError);
    if (failed(local))
      return failure();
    os << "  ownership: " << *own << "\n";
    os << "  local index: " << *local << "\n";
    os << "  max local extents: ";
    printList(os, sem.getMaxLocalExtents());
    os << "\n";

    int64_t numElements = type.getNumElements();
    SmallVector<SmallVector<int64_t>> allElements;
    if (numElements <= kCheckElements &&
        numElements * sem.getNumProcessors() <= kCheckWork)
      forEachCoordinate(type.getShape(), [&](ArrayRef<int64_t> g) {
        allElements.emplace_back(g);
      });

    // Owners of the first and the last element.
    if (numElements > 0) {
      SmallVector<int64_t> first(type.getRank(), 0), last;
      for (int64_t e : type.getShape())
        last.push_back(e - 1);
      SmallVector<ArrayRef<int64_t>, 2> probes{first};
      if (last != first)
        probes.push_back(last);
      for (ArrayRef<int64_t> g : probes) {
        FailureOr<IslSet> owners = sem.getOwnerSet(ctx, g, emitError);
        if (failed(owners))
          return failure();
        os << "  owners of ";
        printTuple(os, g);
        os << ": " << *owners << "\n";
        if (sem.getNumProcessors() <= kCheckProcessors) {
          auto points = islSetPoints(*owners, sem.getNumProcessors());
          if (!points || *points != sem.getOwners(g))
            return alloc.emitError("semantics mismatch: isl and the closed "
                                   "form disagree on the owners of an "
                                   "element");
        }
      }
    }

    if (sem.getNumProcessors() > kCheckProcessors) {
      os << "  (" << sem.getNumProcessors()
         << " processors: per-processor checks skipped)\n";
      return success();
    }
    bool list = sem.getNumProcessors() <= kListProcessors;
    LogicalResult result = success();
    int64_t totalOwned = 0;
    sem.forEachProcessor([&](ArrayRef<int64_t> p) {
      if (failed(result))
        return;
      result = checkProcessor(ctx, alloc, sem, *local, p, allElements,
                              numElements, totalOwned, list, os);
    });
    if (failed(result))
      return failure();
    if (!list)
      os << "  (" << sem.getNumProcessors()
         << " processors: per-processor listing skipped)\n";
    os << "  total owned (with replication): " << totalOwned << "\n";
    return success();
  }

  /// Cross-checks processor `p` and, when `print`, prints its line.
  LogicalResult checkProcessor(IslContext &ctx, AllocOp alloc,
                               const LayoutSemantics &sem,
                               const IslMap &localMap, ArrayRef<int64_t> p,
                               ArrayRef<SmallVector<int64_t>> allElements,
                               int64_t numElements, int64_t &totalOwned,
                               bool print, llvm::raw_ostream &os) {
    auto emitError = [&]() { return alloc.emitError(); };
    auto mismatch = [&](StringRef what) {
      InFlightDiagnostic d = alloc.emitError("semantics mismatch on processor ");
      std::string s;
      llvm::raw_string_ostream ss(s);
      printTuple(ss, p);
      d << s << ": " << what;
      return failure();
    };
    FailureOr<IslSet> owned = sem.getOwnedSet(ctx, p, emitError);
    if (failed(owned))
      return failure();
    SmallVector<int64_t> extents = sem.getLocalExtents(p);
    int64_t volume = 1;
    for (int64_t e : extents)
      volume *= e;
    totalOwned += volume;

    // isl's count against the closed form.
    if (numElements <= kCountElements) {
      std::optional<int64_t> count = islCountPoints(*owned, numElements);
      if (!count)
        return mismatch("cannot count the owned set");
      if (*count != volume)
        return mismatch("isl counts " + std::to_string(*count) +
                        " owned elements, the local extents give " +
                        std::to_string(volume));
    }

    // The local-index relation maps p's elements one-to-one onto its tile.
    isl_map *m = localMap.copy();
    for (auto [a, c] : llvm::enumerate(p))
      m = isl_map_fix_si(m, isl_dim_in, sem.getRank() + a, c);
    IslMap onP(m);
    FailureOr<IslSet> box = sem.getLocalBox(ctx, p, emitError);
    if (failed(box))
      return failure();
    IslSet image(isl_map_range(onP.copy()));
    std::optional<bool> equal =
        islBool(isl_set_is_equal(image.get(), box->get()));
    std::optional<bool> injective = islBool(isl_map_is_injective(onP.get()));
    if (!equal || !injective)
      return alloc.emitError("isl failed: ") << ctx.takeErrorMessage();
    if (!*equal || !*injective)
      return mismatch("the local-index relation is not a bijection onto the "
                      "local tile");

    SmallVector<SmallVector<int64_t>> expected;
    if (!allElements.empty()) {
      for (const SmallVector<int64_t> &g : allElements)
        if (sem.owns(p, g))
          expected.push_back(g);
      auto points = islSetPoints(*owned, numElements);
      if (!points)
        return mismatch("cannot enumerate the owned set");
      if (*points != expected)
        return mismatch("isl and the closed form own different elements");
      // Local indices: isl's relation against toLocal / toGlobal.
      if (numElements <= kListElements) {
        for (const SmallVector<int64_t> &g : expected) {
          isl_map *mg = onP.copy();
          for (auto [d, v] : llvm::enumerate(g))
            mg = isl_map_fix_si(mg, isl_dim_in, d, v);
          auto li = islSetPoints(IslSet(isl_map_range(mg)), 2);
          std::optional<SmallVector<int64_t>> l = sem.toLocal(p, g);
          if (!li || !l || li->size() != 1 || li->front() != *l ||
              sem.toGlobal(p, *l) != g)
            return mismatch("isl and the closed form disagree on a local "
                            "index");
        }
      }
    }

    if (!print)
      return success();
    os << "  P";
    printTuple(os, p);
    os << ": extents ";
    printList(os, extents);
    if (numElements <= kListElements) {
      os << " elements ";
      printElements(os, expected);
    }
    os << " owned " << *owned << "\n";
    return success();
  }

  LogicalResult printCompute(IslContext &ctx, ComputeOp op, unsigned ordinal,
                             llvm::raw_ostream &os) {
    FailureOr<StatementSemantics> semOr = StatementSemantics::get(ctx, op);
    if (failed(semOr))
      return failure();
    const StatementSemantics &sem = *semOr;
    os << "compute #" << ordinal << ": " << op.getStatement() << "\n";
    os << "  domain: " << sem.getDomain() << "\n";
    for (const AccessRelation &a : sem.getAccesses())
      os << "  access " << a.tensor << " "
         << (a.read && a.write ? "read-write" : a.write ? "write" : "read")
         << ": " << a.map << "\n";
    for (const ScheduledLoop &l : sem.getLoops()) {
      os << "  loop " << l.name << ": extent " << l.extent << ", ";
      if (l.distributed) {
        os << "processor";
        if (l.gridDim >= 0)
          os << " (grid dim " << l.gridDim << ")";
      } else {
        os << "time";
      }
      if (l.parallel)
        os << ", parallel";
      if (l.leaf)
        os << ", leaf " << sem.getLoopNest().kernel;
      if (!l.communicated.empty()) {
        os << ", communicates ";
        llvm::interleave(l.communicated, os, " ");
      }
      os << ", " << l.name << " = " << l.definition;
      if (l.expression != l.definition)
        os << " = " << l.expression;
      os << "\n";
    }
    os << "  schedule: " << sem.getSchedule() << "\n";
    os << "  processor dims:";
    for (unsigned k : sem.getProcessorDims())
      os << " " << sem.getLoops()[k].name;
    os << "\n  time dims:";
    for (unsigned k : sem.getTimeDims())
      os << " " << sem.getLoops()[k].name;
    os << "\n";
    os << "  processor map: " << sem.getProcessorSchedule() << "\n";
    os << "  time map: " << sem.getTimeSchedule() << "\n";

    // A schedule only reorders iterations: it must be one-to-one.
    std::optional<bool> injective =
        islBool(isl_map_is_injective(sem.getScheduleMap().get()));
    if (!injective)
      return op.emitError("isl failed: ") << ctx.takeErrorMessage();
    if (!*injective)
      return op.emitError("semantics mismatch: the schedule map is not "
                          "one-to-one");
    return success();
  }
};
} // namespace

namespace mlir {
namespace dist {
namespace test {
void registerTestCommunicationPasses();
void registerTestPasses() {
  PassRegistration<TestDistSemanticsPass>();
  registerTestCommunicationPasses();
}
} // namespace test
} // namespace dist
} // namespace mlir
