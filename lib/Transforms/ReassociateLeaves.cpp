//===- ReassociateLeaves.cpp - fast-math flags on marked leaves -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Functions marked `dist.reassociate` (the sparse leaves) get `reassoc` and
// `contract` on their floating-point adds and multiplies, so that the
// backend can split a row's sum over several accumulators. The flags are set
// after the sparsifier, which rebuilds the leaves' loops without them.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTREASSOCIATELEAVES
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

namespace {
struct ReassociateLeaves
    : dist::impl::DistReassociateLeavesBase<ReassociateLeaves> {
  void runOnOperation() override {
    constexpr arith::FastMathFlags added =
        arith::FastMathFlags::reassoc | arith::FastMathFlags::contract;
    getOperation().walk([&](func::FuncOp f) {
      if (!f->hasAttr(dist::kReassociateAttr))
        return;
      f.walk([&](Operation *op) {
        if (!isa<arith::AddFOp, arith::MulFOp>(op))
          return;
        auto iface = cast<arith::ArithFastMathInterface>(op);
        arith::FastMathFlagsAttr attr = iface.getFastMathFlagsAttr();
        arith::FastMathFlags now =
            attr ? attr.getValue() : arith::FastMathFlags::none;
        op->setAttr(iface.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(op->getContext(),
                                                  now | added));
      });
    });
  }
};
} // namespace
