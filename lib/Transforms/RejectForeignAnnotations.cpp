//===- RejectForeignAnnotations.cpp - shard IR gets an error ----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Upstream's `shard` operations that dist-import-shard did not turn into
// dist IR (it runs before this pass in dist-to-llvm). Left in the input,
// `shard.shard` folds away and the function compiles as an undistributed
// one; this pass stops that with a located error at every `shard` operation.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTREJECTFOREIGNANNOTATIONS
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

namespace {
struct RejectForeignAnnotations
    : dist::impl::DistRejectForeignAnnotationsBase<RejectForeignAnnotations> {
  void runOnOperation() override {
    bool found = false;
    getOperation().walk([&](Operation *op) {
      if (op->getName().getDialectNamespace() != "shard")
        return;
      op->emitError("upstream 'shard' operation that dist-import-shard did "
                    "not import: run dist-import-shard first, or write the "
                    "program with dist.grid, #dist.layout and dist.compute "
                    "(docs/interop.md)");
      found = true;
    });
    if (found)
      signalPassFailure();
  }
};
} // namespace
