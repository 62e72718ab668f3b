//===- DistDialect.cpp - dist dialect ---------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "distrt/abi.h"

using namespace mlir;
using namespace mlir::dist;

// One limit for the verifier and the runtime: grids and tensors the
// verifier accepts fit the runtime's fixed-size descriptors.
static_assert(kMaxDims == DISTRT_MAX_DIMS, "kMaxDims (DistDialect.h) must "
                                           "equal DISTRT_MAX_DIMS (abi.h)");

static_assert((int)mlir::dist::GeneratorKind::banded == DISTRT_GEN_BANDED &&
                  (int)mlir::dist::GeneratorKind::rmat == DISTRT_GEN_RMAT &&
                  (int)mlir::dist::GeneratorKind::uniform ==
                      DISTRT_GEN_UNIFORM,
              "GeneratorKind (DistAttrs.td) must match DISTRT_GEN_* (abi.h)");
static_assert((int)mlir::dist::SparsePart::all == DISTRT_SPMAT_ALL &&
                  (int)mlir::dist::SparsePart::diag == DISTRT_SPMAT_DIAG &&
                  (int)mlir::dist::SparsePart::offdiag ==
                      DISTRT_SPMAT_OFFDIAG,
              "SparsePart (DistAttrs.td) must match DISTRT_SPMAT_* (abi.h)");
// dist.sparse_in_partition lowers its `nonzeros` flag to these, and
// dist.sparse_entries to DISTRT_SPMAT_ENTRIES.
static_assert(DISTRT_SPMAT_ROWS == 0 && DISTRT_SPMAT_NONZEROS == 1 &&
                  DISTRT_SPMAT_ENTRIES == 2,
              "the sparse partitions' lowering needs DISTRT_SPMAT_ROWS = 0, "
              "DISTRT_SPMAT_NONZEROS = 1 and DISTRT_SPMAT_ENTRIES = 2 "
              "(abi.h)");

static_assert(static_cast<int>(Stationary::A) == DISTRT_STATIONARY_A &&
                  static_cast<int>(Stationary::B) == DISTRT_STATIONARY_B &&
                  static_cast<int>(Stationary::C) == DISTRT_STATIONARY_C,
              "Stationary (DistAttrs.td) must match DISTRT_STATIONARY_* "
              "(abi.h)");

#include "DistTensor/Dialect/Dist/IR/DistOpsDialect.cpp.inc"
#include "DistTensor/Dialect/Dist/IR/DistEnums.cpp.inc"

/// `dist.restrict = {args = array<i64: ...>, type = T}` on a leaf function
/// (dist-restrict-leaves): memref arguments of T, and T the function's type
/// until the conversion to LLVM expands it.
static LogicalResult verifyRestrict(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto f = dyn_cast<FunctionOpInterface>(op);
  if (!f)
    return op->emitError("'") << name << "' is for leaf functions";
  auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
  if (!dict)
    return op->emitError("'") << name << "' must be a dictionary attribute";
  auto args = dyn_cast_or_null<DenseI64ArrayAttr>(dict.get("args"));
  auto typeAttr = dyn_cast_or_null<TypeAttr>(dict.get("type"));
  auto type =
      typeAttr ? dyn_cast<FunctionType>(typeAttr.getValue()) : FunctionType();
  if (!args || !type || dict.size() != 2)
    return op->emitError("'")
           << name
           << "' must be {args = array<i64: ...>, type = <function type>}";
  for (int64_t a : args.asArrayRef())
    if (a < 0 || a >= static_cast<int64_t>(type.getNumInputs()) ||
        !isa<MemRefType>(type.getInput(a)))
      return op->emitError("'") << name << "' names argument " << a
                                << ", which is not a memref argument of "
                                << type;
  if (isa<FunctionType>(f.getFunctionType()) && f.getFunctionType() != type)
    return op->emitError("'") << name << "' describes " << type
                              << ", but the function's type is "
                              << f.getFunctionType();
  return success();
}

/// `dist.time_loop` (unit) and `dist.overlap` (bool) mark the time loops
/// of a lowered computation for dist-double-buffer; `dist.reassociate`
/// (unit) marks a leaf function for dist-reassociate-leaves,
/// `dist.vectorize_gathers` (unit) one for dist-vectorize-leaf-gathers, and
/// `dist.overwrite` (the output argument's index) one for
/// dist-overwrite-leaves, `dist.restrict` one for dist-restrict-leaves
/// (DistOps.h).
LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kReassociateAttr || name == kVectorizeGathersAttr) {
    // func.func, and llvm.func after the conversion to LLVM.
    if (!isa<FunctionOpInterface>(op))
      return op->emitError("'") << name << "' is for leaf functions";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'") << name << "' must be a unit attribute";
    return success();
  }
  if (name == kOverwriteAttr) {
    auto f = dyn_cast<FunctionOpInterface>(op);
    if (!f)
      return op->emitError("'") << name << "' is for leaf functions";
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    if (!index)
      return op->emitError("'")
             << name << "' must be an integer: the index of the output "
             << "argument";
    int64_t n = index.getValue().getSExtValue();
    ArrayRef<Type> args = f.getArgumentTypes();
    if (n < 0 || n >= static_cast<int64_t>(args.size()))
      return op->emitError("'")
             << name << "' names argument " << n << ", but the function has "
             << args.size() << " argument(s)";
    auto type = dyn_cast<MemRefType>(args[n]);
    if (!type || type.getRank() != 1 || !isa<FloatType>(type.getElementType()))
      return op->emitError("'")
             << name << "' names argument " << n << " of type " << args[n]
             << ", but the output must be a 1-D memref of floats";
    return success();
  }
  if (name == kRestrictAttr)
    return verifyRestrict(op, attr);
  if (name != kTimeLoopAttr && name != kOverlapAttr)
    return success();
  if (op->getName().getStringRef() != "scf.for")
    return op->emitError("'") << name << "' is for scf.for time loops";
  if (name == kTimeLoopAttr && !isa<UnitAttr>(attr.getValue()))
    return op->emitError("'") << name << "' must be a unit attribute";
  if (name == kOverlapAttr && !isa<BoolAttr>(attr.getValue()))
    return op->emitError("'") << name << "' must be true or false";
  return success();
}

void DistDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "DistTensor/Dialect/Dist/IR/DistOps.cpp.inc"
      >();
}

