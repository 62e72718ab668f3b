//===- RuntimeABI.cpp - dist types in the distrt runtime's encoding -------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/RuntimeABI.h"

#include "mlir/IR/Diagnostics.h"

#include "distrt/abi.h"

#include <cassert>

using namespace mlir;
using namespace mlir::dist;

// The dialect's enums are emitted as their integer values: they must equal
// the codes the runtime reads (distrt/abi.h).
static_assert(static_cast<int64_t>(PartitionKind::none) == DISTRT_KIND_NONE,
              "PartitionKind::none != DISTRT_KIND_NONE");
static_assert(static_cast<int64_t>(PartitionKind::blocked) ==
                  DISTRT_KIND_BLOCKED,
              "PartitionKind::blocked != DISTRT_KIND_BLOCKED");
static_assert(static_cast<int64_t>(PartitionKind::cyclic) == DISTRT_KIND_CYCLIC,
              "PartitionKind::cyclic != DISTRT_KIND_CYCLIC");
static_assert(static_cast<int64_t>(PartitionKind::block_cyclic) ==
                  DISTRT_KIND_BLOCK_CYCLIC,
              "PartitionKind::block_cyclic != DISTRT_KIND_BLOCK_CYCLIC");
// PartitionKind::nonzeros (the last) is for sparse tensors only, which the
// runtime keeps as distrt_spmat: it never reaches a layout descriptor.
static_assert(static_cast<int64_t>(PartitionKind::nonzeros) ==
                  DISTRT_KIND_LAST + 1,
              "a dense PartitionKind without a DISTRT_KIND_* code");
static_assert(getMaxEnumValForPartitionKind() ==
                  static_cast<uint64_t>(PartitionKind::nonzeros),
              "a PartitionKind after nonzeros");
static_assert(static_cast<int64_t>(ReductionKind::sum) == DISTRT_SUM,
              "ReductionKind::sum != DISTRT_SUM");
static_assert(static_cast<int64_t>(ReductionKind::prod) == DISTRT_PROD,
              "ReductionKind::prod != DISTRT_PROD");
static_assert(static_cast<int64_t>(ReductionKind::min) == DISTRT_MIN,
              "ReductionKind::min != DISTRT_MIN");
static_assert(static_cast<int64_t>(ReductionKind::max) == DISTRT_MAX,
              "ReductionKind::max != DISTRT_MAX");
static_assert(getMaxEnumValForReductionKind() == DISTRT_MAX,
              "a ReductionKind without a DISTRT_* operator code");
// Grid axes are bits of the skew mask above the kind byte.
static_assert(DISTRT_MAX_DIMS + DISTRT_SKEW_SHIFT < 63,
              "skew masks do not fit a descriptor's kind field");

int64_t abi::dtypeCode(Type t) {
  if (t.isF32())
    return DISTRT_F32;
  if (t.isF64())
    return DISTRT_F64;
  if (t.isInteger(32))
    return DISTRT_I32;
  if (t.isInteger(64))
    return DISTRT_I64;
  return -1;
}

int64_t abi::dtypeOf(Type t) {
  int64_t code = dtypeCode(t);
  assert(code >= 0 && "not an element type of a dist.tensor");
  return code < 0 ? int64_t(DISTRT_I64) : code;
}

int64_t abi::kindCode(PartitionKind kind) { return static_cast<int64_t>(kind); }

SmallVector<int64_t> abi::layoutDescriptor(DistTensorType type) {
  LevelLayoutAttr level = type.getLayout().getOuter();
  SmallVector<int64_t> d{type.getRank()};
  for (auto [n, dim] : llvm::zip(type.getShape(), level.getDims())) {
    int64_t skewMask = 0;
    for (int64_t a : dim.getSkew())
      skewMask |= int64_t(1) << a;
    // DISTRT_DESC_DIM_N, _KIND, _BLOCK, _NAXES, then the axes. A dynamic
    // extent is filled in at call time (distrt_layout_with_extents).
    d.push_back(ShapedType::isDynamic(n) ? DISTRT_DESC_DYNAMIC : n);
    d.push_back(DISTRT_DESC_KIND(kindCode(dim.getKind()), skewMask));
    d.push_back(dim.getBlock());
    d.push_back(dim.getAxes().size());
    llvm::append_range(d, dim.getAxes());
  }
  d.push_back(level.getFixedAxes().size());
  for (auto [a, c] : llvm::zip(level.getFixedAxes(), level.getFixedCoords())) {
    // DISTRT_DESC_FIXED_AXIS, DISTRT_DESC_FIXED_COORD.
    d.push_back(a);
    d.push_back(c);
  }
  return d;
}

int64_t abi::maxDescriptorLength() { return DISTRT_DESC_MAX_LEN; }

//===----------------------------------------------------------------------===//
// Runtime functions
//===----------------------------------------------------------------------===//

ArrayRef<abi::RuntimeFunction> abi::runtimeFunctions() {
  static const SmallVector<RuntimeFunction> table = [] {
    constexpr RuntimeType Void = RuntimeType::Void, I64 = RuntimeType::I64,
                          F64 = RuntimeType::F64, Ptr = RuntimeType::Ptr;
#define DISTRT_ARGUMENTS(...) {__VA_ARGS__}
#define DISTRT_FUNCTION(NAME, RESULT, ARGS)                                    \
  RuntimeFunction{#NAME, RESULT, DISTRT_ARGUMENTS ARGS},
    return SmallVector<RuntimeFunction>{
#include "DistTensor/Dialect/Dist/IR/RuntimeFunctions.def"
    };
#undef DISTRT_ARGUMENTS
  }();
  return table;
}

const abi::RuntimeFunction *abi::lookupRuntimeFunction(StringRef name) {
  ArrayRef<RuntimeFunction> table = runtimeFunctions();
  const RuntimeFunction *it = llvm::find_if(
      table, [&](const RuntimeFunction &fn) { return fn.name == name; });
  return it == table.end() ? nullptr : it;
}

Type abi::getRuntimeType(MLIRContext *ctx, RuntimeType type) {
  switch (type) {
  case RuntimeType::Void:
    return Type();
  case RuntimeType::I64:
    return IntegerType::get(ctx, 64);
  case RuntimeType::F64:
    return Float64Type::get(ctx);
  case RuntimeType::Ptr:
    return LLVM::LLVMPointerType::get(ctx);
  }
  return Type();
}

FailureOr<const abi::RuntimeFunction *>
abi::lookupRuntimeFunction(Location loc, StringRef name, TypeRange args) {
  const RuntimeFunction *fn = lookupRuntimeFunction(name);
  if (!fn)
    return emitError(loc) << "internal error: runtime function " << name
                          << " is not in the runtime table "
                             "(RuntimeFunctions.def)";
  MLIRContext *ctx = loc.getContext();
  bool same = args.size() == fn->args.size();
  for (auto [type, expected] : llvm::zip(args, fn->args))
    same = same && type == getRuntimeType(ctx, expected);
  if (!same)
    return emitError(loc) << "internal error: runtime function " << name
                          << " called with arguments (" << args
                          << "), but the runtime table "
                             "(RuntimeFunctions.def) says ("
                          << getFunctionType(ctx, *fn).getInputs() << ")";
  return fn;
}

FunctionType abi::getFunctionType(MLIRContext *ctx,
                                  const RuntimeFunction &fn) {
  SmallVector<Type> args, results;
  for (RuntimeType t : fn.args)
    args.push_back(getRuntimeType(ctx, t));
  if (Type r = getRuntimeType(ctx, fn.result))
    results.push_back(r);
  return FunctionType::get(ctx, args, results);
}

LLVM::LLVMFunctionType abi::getLLVMFunctionType(MLIRContext *ctx,
                                                const RuntimeFunction &fn) {
  SmallVector<Type> args;
  for (RuntimeType t : fn.args)
    args.push_back(getRuntimeType(ctx, t));
  Type result = getRuntimeType(ctx, fn.result);
  if (!result)
    result = LLVM::LLVMVoidType::get(ctx);
  return LLVM::LLVMFunctionType::get(result, args);
}
