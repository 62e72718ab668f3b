//===- ReportCommunication.cpp - remarks on every transfer ------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Analysis/Communication.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTREPORTCOMMUNICATION
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;
using namespace mlir::dist;

namespace {
struct DistReportCommunicationPass
    : public dist::impl::DistReportCommunicationBase<
          DistReportCommunicationPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](ComputeOp op) {
      FailureOr<std::unique_ptr<ComputeModel>> model = buildComputeModel(op);
      if (failed(model)) {
        failedAny = true;
        return;
      }
      for (const TransferPlan &plan : analyzeCommunication(**model))
        op.emitRemark() << plan.describe(**model);
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
