//===- Transfers.h - a computation's tensor transfers -----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The code that moves one tensor of a dist.compute at one level of its loop
// nest, as its TransferPlan (Communication.h) says, with dist ops on the
// tensor's tile and buffers: an input's box is copied locally
// (dist.copy_box), broadcast, shifted, all-gathered, permuted point to
// point (dist.permute) or fetched with the general exchange
// (dist.fetch_box) into the tensor's buffer (blocking: dist-double-buffer
// overlaps them later); the output's box is added locally
// (dist.add_box), reduced, all-reduced, reduce-scattered or accumulated
// with the general exchange (dist.accumulate_box) into the owners' tiles.
// Everything that reads a plan's groups, roots, peers, shift and split
// dimension is in Transfers.cpp; roots and peers are emitted from the
// plan's QExprs as arithmetic on the processor's coordinates and the step
// loops' values (no per-processor tables); the computation's lowering
// (Compute.cpp, ComputeTransfers.cpp) owns the buffers, the boxes and the
// loop nest and hands a TransferSite to a TransferEmitter.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_TRANSFERS_H
#define DIST_LIB_TRANSFORMS_SPMD_TRANSFERS_H

#include "ComputeRanges.h"
#include "SPMDBuilder.h"

#include "DistTensor/Analysis/Communication.h"

#include <functional>

namespace mlir {
namespace dist {
namespace spmd {

/// One tensor's transfer at one level of the loop nest: where its box is,
/// what it is read from and written to.
struct TransferSite {
  const TransferPlan &plan;
  /// The loop-nest level: 0 once per processor, k at each step of local
  /// loop k - 1.
  unsigned level;
  /// The box (lo and size per tensor dimension, set for this step) and the
  /// memref holding it: the buffer, or a view of the tile when the box is
  /// read in place.
  BoxBuffer &box;
  /// The tensor's communication buffer.
  Value buffer;
  /// Its second buffer (what this rank sends, or its piece), or null.
  Value sendBuffer;
  /// The tensor's local tile and its type (the layout the dist ops on the
  /// tile read).
  Value tile;
  DistTensorType type;
  /// Local plans: i1, whether the box is a view of the tile (nothing to
  /// copy); null where the box is never read in place.
  Value inPlace;
  /// Shift: the value of the time loop of this level (step 0 aligns).
  Value timeIv;
};

/// Emits the transfers of one computation's tensors as dist ops on the
/// tiles and buffers (dist.copy_box, dist.broadcast, ...;
/// DistTransferOps.td and DistOps.td).
class TransferEmitter {
public:
  /// `varsAt(b, k)` gives the variables of the plans' QExprs at level k:
  /// this processor's grid coordinates, then the values of local loops < k
  /// (index values). `boxOfPeer(b, plan, k, coords, lo, size)` sets (lo,
  /// size) to the box the plan's tensor has at level k on the processor at
  /// `coords` (same steps) and returns its element count (index).
  using VarsFn = std::function<SmallVector<Value>(OpBuilder &, unsigned)>;
  using PeerBoxFn = std::function<Value(
      OpBuilder &, const TransferPlan &, unsigned, ArrayRef<Value>,
      SmallVectorImpl<Value> &, SmallVectorImpl<Value> &)>;
  TransferEmitter(SPMDBuilder &rt, Location loc, FlatSymbolRefAttr grid,
                  ArrayRef<int64_t> gridShape, VarsFn varsAt,
                  PeerBoxFn boxOfPeer);

  /// Whether a tensor moved by `plan` needs a second buffer (what this
  /// rank sends for permutations, its piece for allgather and
  /// reduce-scatter).
  static bool needsSendBuffer(const TransferPlan &plan);

  /// An input: fills the box of this step (blocking).
  void emitInput(OpBuilder &b, const TransferSite &site);
  /// The output: adds the partial results in the box to the owners' tiles.
  void emitOutput(OpBuilder &b, const TransferSite &site);

private:
  Value rootAt(OpBuilder &b, const TransferPlan &plan, unsigned k);
  Value rankOf(OpBuilder &b, ArrayRef<Value> coords);
  Value axesRank(OpBuilder &b, const TransferPlan &plan);
  Value volume(OpBuilder &b, ArrayRef<Value> sizes);
  Value viewOf(OpBuilder &b, const BoxBuffer &box);
  Value flatView(OpBuilder &b, Value buf, Value vol);
  Value pieceOf(OpBuilder &b, const TransferSite &site,
                SmallVectorImpl<Value> &lo, SmallVectorImpl<Value> &size);
  void copyBox(OpBuilder &b, const TransferSite &site, ValueRange lo,
               ValueRange size, Value dest);
  void addBox(OpBuilder &b, const TransferSite &site, ValueRange lo,
              ValueRange size, Value src);
  void alignShift(OpBuilder &b, const TransferSite &site);
  void emitPermutation(OpBuilder &b, const TransferSite &site);
  void emitShiftInput(OpBuilder &b, const TransferSite &site);

  SPMDBuilder &rt;
  Location loc;
  FlatSymbolRefAttr grid;
  ArrayRef<int64_t> gridShape;
  VarsFn varsAt;
  PeerBoxFn boxOfPeer;
};

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_TRANSFERS_H
