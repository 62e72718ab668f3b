//===- RuntimeABI.h - dist types in distrt's encoding ----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The compiler's half of the runtime contract (runtime/include/distrt/abi.h):
// the element type codes and layout descriptors the lowerings
// (dist-materialize-spmd, convert-dist-to-runtime) emit for distrt. One
// encoder for every pass; test/lib/RuntimeABI checks it against the
// runtime's parser.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H
#define DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"

#include "llvm/ADT/SmallVector.h"

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

} // namespace abi
} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_RUNTIMEABI_H
