//===- ReportCommunication.cpp - remarks on every transfer ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Analysis/LayoutSuggestion.h"
#include "DistTensor/Analysis/Redistribution.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"
#include "DistTensor/Dialect/Dist/IR/OneSided.h"
#include "DistTensor/Dialect/Dist/IR/SparseCompute.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTREPORTCOMMUNICATION
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

/// What a sparse computation moves (its kind as the verifier recognized
/// it: SparseCompute.h).
static std::string describeSparse(ComputeOp op) {
  FailureOr<ComputeLoopNest> nest = op.getLoopNest();
  llvm::StringMap<DistTensorType> types;
  for (auto [n, v] : llvm::zip(op.getNames(), op.getTensors()))
    types[cast<StringAttr>(n).getValue()] = cast<DistTensorType>(v.getType());
  FailureOr<SparseProduct> p = failure();
  if (succeeded(nest)) {
    const IndexStatement &stmt = nest->getStatement();
    auto grid = SymbolTable::lookupNearestSymbolFrom<GridOp>(
        op, types[stmt.lhs.tensor].getLayout().getGrid());
    std::string why;
    if (grid)
      p = matchSparseProduct(stmt, types, nest->nest, grid.getShape(), why);
  }
  SparseKernel kind = succeeded(p) ? p->kind : SparseKernel::Product;
  switch (kind) {
  case SparseKernel::Add:
    return "sum of sparse matrices: nothing moves (the terms' rows are "
           "blocked alike; docs/sparse.md)";
  case SparseKernel::Sddmm:
    return "SDDMM: nothing moves (each process computes its own entries; D "
           "is replicated, C blocked like the matrix's rows or replicated; "
           "docs/sparse.md)";
  case SparseKernel::Ttv:
    if (p->entries)
      return "SpTTV over the entries split equally: the entries whose "
             "owner differs move once per tensor's entries, then every call "
             "the partial sums of the fibers split between processes or "
             "lying outside the process's block of the output's fibers "
             "(c is replicated; docs/sparse.md)";
    return "SpTTV: nothing moves (the output takes the tensor's fibers, "
           "split as the tensor's; c is replicated; docs/sparse.md)";
  case SparseKernel::Mttkrp:
    return std::string("SpMTTKRP: ") +
           (p->entries ? "the entries whose owner differs move once per "
                         "tensor's entries (all three levels fused); "
                       : "") +
           (p->nonzeros ? "the partial sums of the rows split between "
                          "processes move to their owners"
                        : "nothing moves") +
           " (C and D are replicated; docs/sparse.md)";
  case SparseKernel::Product:
    break;
  }
  return "sparse product: the dense operand's rows that other processes' "
         "columns use move through the matrix's exchange plan, built at run "
         "time (docs/sparse.md); nothing moves when it is replicated";
}

namespace {
struct DistReportCommunicationPass
    : public dist::impl::DistReportCommunicationBase<
          DistReportCommunicationPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    CostModel costModel;
    if (!costFile.empty()) {
      std::string err = readCostModel(costFile, costModel);
      if (!err.empty()) {
        getOperation().emitError() << err;
        return signalPassFailure();
      }
    }
    OneSidedCosts costs{costModel.alpha, costModel.beta, costModel.gamma};
    getOperation().walk([&](ComputeOp op) {
      // A sparse product moves what its matrix's exchange plan says, which
      // is known only at run time (the columns each process's rows use).
      if (isSparseCompute(op)) {
        if (!generalOnly)
          (quiet ? emitRemark(op.getLoc()) : op.emitRemark())
              << describeSparse(op);
        return;
      }
      if (isOneSidedCompute(op)) {
        if (generalOnly)
          return;
        FailureOr<OneSidedProduct> p = getOneSidedProduct(op, costs);
        if (failed(p)) {
          failedAny = true;
          return;
        }
        (quiet ? emitRemark(op.getLoc()) : op.emitRemark())
            << describeOneSided(*p);
        return;
      }
      FailureOr<std::unique_ptr<ComputeModel>> model = [&] {
        if (!generalOnly)
          return buildComputeModel(op);
        // general-only: computations that cannot be lowered are the
        // lowering's to report.
        ScopedDiagnosticHandler skip(op.getContext(),
                                     [](Diagnostic &) { return success(); });
        return buildComputeModel(op);
      }();
      if (failed(model)) {
        failedAny |= !generalOnly;
        return;
      }
      for (const TransferPlan &plan : analyzeCommunication(**model)) {
        bool general = plan.kind == TransferPlan::Kind::General;
        if (generalOnly && !general)
          continue;
        // quiet: a remark at the location only, never the operation note.
        InFlightDiagnostic diag =
            quiet ? emitRemark(op.getLoc()) : op.emitRemark();
        std::string suggestion =
            general ? layoutSuggestionClause(**model, plan.tensor) : "";
        if (generalOnly) {
          diag << "tensor '" << plan.tensor
               << "' moves with the general exchange at every call of '"
               << op.getStatement() << "': " << plan.whyGeneral;
          if (suggestion.empty())
            diag << "; no layout of '" << plan.tensor
                 << "' alone makes it local or a collective under this "
                    "schedule";
        } else {
          diag << plan.describe(**model);
        }
        diag << suggestion;
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
