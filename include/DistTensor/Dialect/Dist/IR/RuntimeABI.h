//===- RuntimeABI.h - dist types in distrt's encoding ----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The compiler's half of the runtime contract (runtime/include/distrt/abi.h):
// the element type codes and layout descriptors the lowerings
// (dist-materialize-spmd, convert-dist-to-runtime) emit for distrt, and the
// signatures of the runtime functions they call (RuntimeFunctions.def). One
// encoder for every pass; test/lib/RuntimeABI checks it against the
// runtime's parser, test/Runtime/runtime-table.test (Inputs/runtime-table.cpp)
// the function table against the runtime's headers and libdistrt.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H
#define DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace dist {
namespace abi {

/// The distrt element type code (DISTRT_F32 ..) of `t`, or -1 when the
/// runtime has none (types other than f32, f64, i32 and i64).
int64_t dtypeCode(Type t);

/// The distrt element type code of the element type of a dist.tensor (one
/// the type verifier accepted: f32, f64, i32 or i64).
int64_t dtypeOf(Type t);

/// The distrt partition kind code (DISTRT_KIND_*) of `kind`.
int64_t kindCode(PartitionKind kind);

/// The runtime layout descriptor of the outermost level of `type`'s layout:
///   [ndims, per dim: n, kind, block, naxes, axes..., nfixed, (axis, coord)...]
/// with a skewed dimension's skew modes as a mask in bits
/// DISTRT_SKEW_SHIFT.. of its kind (distrt/abi.h).
llvm::SmallVector<int64_t> layoutDescriptor(DistTensorType type);
/// The longest layout descriptor (DISTRT_DESC_MAX_LEN): the room a
/// descriptor filled in at run time needs.
int64_t maxDescriptorLength();

//===----------------------------------------------------------------------===//
// Runtime functions
//===----------------------------------------------------------------------===//

/// The abstract types of the runtime's C ABI (distrt.h: every scalar is
/// int64_t or double, every buffer, grid, descriptor or string a pointer).
enum class RuntimeType : uint8_t {
  Void, // no result
  I64,  // int64_t
  F64,  // double
  Ptr,  // any pointer
};

/// A distrt function generated code calls, and its signature.
struct RuntimeFunction {
  llvm::StringRef name;
  RuntimeType result;
  llvm::SmallVector<RuntimeType, 8> args;
};

/// Every runtime function the compiler calls (RuntimeFunctions.def), in the
/// order of that file.
llvm::ArrayRef<RuntimeFunction> runtimeFunctions();

/// The table's entry for `name`, or null when it has none.
const RuntimeFunction *lookupRuntimeFunction(llvm::StringRef name);

/// The table's entry for `name`, checked against the types of the
/// arguments a lowering passes: fails with an internal-error diagnostic at
/// `loc` when `name` is not in the table or the arguments differ from its
/// signature.
FailureOr<const RuntimeFunction *>
lookupRuntimeFunction(Location loc, llvm::StringRef name, TypeRange args);

/// The MLIR type of a runtime type (Void has none: a null Type).
Type getRuntimeType(MLIRContext *ctx, RuntimeType type);

/// `fn` as a builtin function type (func.func declarations).
FunctionType getFunctionType(MLIRContext *ctx, const RuntimeFunction &fn);

/// `fn` as an LLVM function type (llvm.func declarations).
LLVM::LLVMFunctionType getLLVMFunctionType(MLIRContext *ctx,
                                           const RuntimeFunction &fn);

} // namespace abi
} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H
