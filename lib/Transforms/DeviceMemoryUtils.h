//===- DeviceMemoryUtils.h - which memory a buffer is -----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Shared by dist-device-memory and dist-gpu-kernels: after the first, a
// buffer is host memory when it views a stack buffer, a global or an
// allocation that stayed on the host (the --check copies); anything else
// (a dist.device_alloc, a function argument) is device memory.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_DEVICEMEMORYUTILS_H
#define DIST_LIB_TRANSFORMS_DEVICEMEMORYUTILS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace dist {

/// The memref `v` is a view of (itself when it is not a view).
inline Value viewBase(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      v = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      v = cast.getSource();
    else
      break;
  }
  return v;
}

/// Host memory: a stack buffer, a global, or an allocation that stayed on
/// the host.
inline bool isHostMemory(Value v) {
  Operation *root = viewBase(v).getDefiningOp();
  return root &&
         isa<memref::AllocaOp, memref::AllocOp, memref::GetGlobalOp>(root);
}

} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_DEVICEMEMORYUTILS_H
