//===- DistKernelOps.td - SPMD leaf kernels, tiles, redistribution steps, instrumentation -*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td. The SPMD ops of SPMD leaf kernels, tiles, redistribution steps, instrumentation: what
// dist-materialize-spmd emits and convert-dist-to-runtime lowers to distrt
// calls (lib/Conversion/DistToRuntime/KernelToRuntime.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_KERNEL_OPS_TD
#define DIST_KERNEL_OPS_TD

#endif // DIST_KERNEL_OPS_TD
