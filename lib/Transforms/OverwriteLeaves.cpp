//===- OverwriteLeaves.cpp - leaves that set their output -------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// A leaf function marked `dist.overwrite = N` sets its output argument N
// (`=`) instead of adding to it (`+=`): the caller does not zero the output
// first. The leaves are built as linalg.generic ops that accumulate into
// their output, and the upstream sparsifier turns a CSR row's sum into
//
//   scf.for %i = 0 to %rows {
//     %init = memref.load %y[%i]
//     %sum = scf.for ... iter_args(%acc = %init) { ... }
//     memref.store %sum, %y[%i]
//   }
//
// where every element of %y is loaded once, before it is stored. This pass
// starts such a sum from zero instead of from the loaded element, which
// saves the caller's pass over the output and the leaf's loads of it. Any
// other shape of code (SpMM's loops, code the pass does not know) gets a
// loop that zeroes the output at the function's entry instead, which is
// what the caller would have done: the function always sets its output.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTOVERWRITELEAVES
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

/// The single load of `y` whose value starts a row's sum, when every access
/// to `y` in `f` has the shape in the file comment; null otherwise.
static memref::LoadOp findRowSumStart(func::FuncOp f, Value y) {
  memref::LoadOp load;
  SmallVector<memref::StoreOp> stores;
  for (Operation *user : y.getUsers()) {
    if (auto l = dyn_cast<memref::LoadOp>(user)) {
      if (load)
        return {};
      load = l;
    } else if (auto s = dyn_cast<memref::StoreOp>(user)) {
      if (s.getMemRef() != y)
        return {};
      stores.push_back(s);
    } else if (auto c = dyn_cast<memref::CopyOp>(user)) {
      // The sparsifier's copy of the result onto itself.
      if (c.getSource() != y || c.getTarget() != y)
        return {};
    } else {
      return {};
    }
  }
  if (!load || stores.size() != 1)
    return {};
  // The row loop: directly in the function's body, from 0, one row an
  // iteration (so no element is visited twice), indexing y by its IV.
  auto rows = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!rows || rows->getParentOp() != f.getOperation() ||
      load.getIndices().size() != 1 ||
      load.getIndices()[0] != rows.getInductionVar())
    return {};
  auto lb = getConstantIntValue(rows.getLowerBound());
  auto step = getConstantIntValue(rows.getStep());
  if (!lb || *lb != 0 || !step || *step != 1)
    return {};
  memref::StoreOp store = stores.front();
  if (store->getBlock() != load->getBlock() ||
      store.getIndices().size() != 1 ||
      store.getIndices()[0] != rows.getInductionVar() ||
      !load->isBeforeInBlock(store))
    return {};
  // The loaded element only starts the sum (an iter_arg of a loop in the
  // same body), and that loop's result is what is stored.
  if (!load->hasOneUse())
    return {};
  OpOperand &use = *load->use_begin();
  auto sum = dyn_cast<scf::ForOp>(use.getOwner());
  if (!sum || sum->getBlock() != load->getBlock())
    return {};
  unsigned initIndex = use.getOperandNumber() - sum.getNumControlOperands();
  if (initIndex >= sum.getNumRegionIterArgs() ||
      store.getValueToStore() != sum.getResult(initIndex))
    return {};
  return load;
}

/// Zeroes the 1-D memref `y` at the entry of `f`.
static void zeroAtEntry(func::FuncOp f, Value y) {
  OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
  Location loc = f.getLoc();
  auto type = cast<MemRefType>(y.getType());
  Value zero = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(type.getElementType(), 0.0));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value n = memref::DimOp::create(b, loc, y, 0);
  auto loop = scf::ForOp::create(b, loc, c0, n, c1);
  b.setInsertionPointToStart(loop.getBody());
  memref::StoreOp::create(b, loc, zero, y, loop.getInductionVar());
}

namespace {
struct OverwriteLeaves
    : dist::impl::DistOverwriteLeavesBase<OverwriteLeaves> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp f) {
      auto attr = f->getAttrOfType<IntegerAttr>(dist::kOverwriteAttr);
      if (!attr)
        return;
      // The dialect's verifier checked the attribute against the
      // signature; a declaration has no body to change.
      f->removeAttr(dist::kOverwriteAttr);
      if (f.isExternal())
        return;
      Value y = f.getArgument(attr.getInt());
      if (memref::LoadOp load = findRowSumStart(f, y)) {
        auto b = OpBuilder::atBlockBegin(&f.getBody().front());
        Value zero = arith::ConstantOp::create(
            b, load.getLoc(), b.getFloatAttr(load.getType(), 0.0));
        load.replaceAllUsesWith(zero);
        load.erase();
        return;
      }
      zeroAtEntry(f, y);
    });
  }
};
} // namespace
