//===- RestrictLeaves.cpp - llvm.noalias on marked leaf outputs -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// A leaf function marked `dist.restrict = {args = [...], type = T}` promises
// that the memory of those memref arguments is reached through no other
// argument. func-to-llvm expands a memref argument into its descriptor's
// fields and drops its argument attributes, so the promise is kept on the
// function and applied here, after the conversion: each marked argument's
// aligned pointer gets `llvm.noalias`. Without it LLVM must assume that a
// store to a sparse leaf's output row may change the dense inputs it reads
// next, and loads and stores the row for every stored entry.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Transforms/Passes.h"

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace dist {
#define GEN_PASS_DEF_DISTRESTRICTLEAVES
#include "DistTensor/Transforms/Passes.h.inc"
} // namespace dist
} // namespace mlir

using namespace mlir;

void dist::markRestrict(Operation *leaf, ArrayRef<int64_t> args) {
  auto f = cast<func::FuncOp>(leaf);
  MLIRContext *ctx = f.getContext();
  NamedAttribute fields[] = {
      NamedAttribute(StringAttr::get(ctx, "args"),
                     DenseI64ArrayAttr::get(ctx, args)),
      NamedAttribute(StringAttr::get(ctx, "type"),
                     TypeAttr::get(f.getFunctionType()))};
  f->setAttr(kRestrictAttr, DictionaryAttr::get(ctx, fields));
}

/// The number of LLVM arguments that func-to-llvm makes of `t` (a ranked
/// memref is its descriptor's fields; anything else stays one argument).
static unsigned expandedArgs(Type t) {
  if (auto m = dyn_cast<MemRefType>(t))
    return 3 + 2 * m.getRank();
  return 1;
}

/// Sets llvm.noalias on the aligned pointers of the marked arguments of `f`
/// (the dialect's verifier has checked the marker against its type); an
/// error when the function is not that type's expansion.
static LogicalResult restrict(LLVM::LLVMFuncOp f, DictionaryAttr marker) {
  auto args = cast<DenseI64ArrayAttr>(marker.get("args"));
  auto type =
      cast<FunctionType>(cast<TypeAttr>(marker.get("type")).getValue());
  SmallVector<unsigned> first;
  unsigned total = 0;
  for (Type t : type.getInputs()) {
    first.push_back(total);
    total += expandedArgs(t);
  }
  if (total != f.getNumArguments())
    return f.emitError("'")
           << dist::kRestrictAttr << "' describes " << type << ", which is "
           << total << " LLVM arguments, but the function has "
           << f.getNumArguments();
  for (int64_t a : args.asArrayRef()) {
    unsigned aligned = first[a] + 1;
    if (!isa<LLVM::LLVMPointerType>(f.getArgumentTypes()[aligned]))
      return f.emitError("'")
             << dist::kRestrictAttr << "': LLVM argument " << aligned
             << " (the aligned pointer of argument " << a
             << ") is not a pointer";
    f.setArgAttr(aligned, LLVM::LLVMDialect::getNoAliasAttrName(),
                 UnitAttr::get(f.getContext()));
  }
  f->removeAttr(dist::kRestrictAttr);
  return success();
}

namespace {
struct RestrictLeaves : dist::impl::DistRestrictLeavesBase<RestrictLeaves> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](Operation *op) {
      auto marker = op->getAttrOfType<DictionaryAttr>(dist::kRestrictAttr);
      if (!marker)
        return;
      auto f = dyn_cast<LLVM::LLVMFuncOp>(op);
      if (!f) {
        op->emitError("'") << dist::kRestrictAttr
                           << "' is applied to llvm.func operations; run "
                              "dist-restrict-leaves after the conversion "
                              "to the LLVM dialect";
        failed = true;
        return;
      }
      failed |= ::restrict(f, marker).failed();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
