//===- DistTransferOps.td - SPMD transfers, boxes and tile views -*- tablegen -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Included by DistOps.td. The SPMD ops of SPMD transfers, boxes and tile views: what
// dist-materialize-spmd emits and convert-dist-to-runtime lowers to distrt
// calls (lib/Conversion/DistToRuntime/TransferToRuntime.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_TRANSFER_OPS_TD
#define DIST_TRANSFER_OPS_TD

#endif // DIST_TRANSFER_OPS_TD
