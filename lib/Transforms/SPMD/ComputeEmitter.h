//===- ComputeEmitter.h - one dist.compute to its SPMD loop nest -*- C++
//-*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The state of lowering one dist.compute under its schedule, shared by
// Compute.cpp (set-up, the loop nest and its leaf) and ComputeTransfers.cpp
// (the boxes and transfers at each level of the loop nest).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SPMD_COMPUTEEMITTER_H
#define DIST_LIB_TRANSFORMS_SPMD_COMPUTEEMITTER_H

#include "LeafKernels.h"
#include "Transfers.h"

#include "llvm/ADT/StringSet.h"

#include <optional>

namespace mlir {
namespace dist {
namespace spmd {

/// Everything known about one dist.compute while it is lowered.
class ComputeEmitter {
public:
  ComputeEmitter(SPMDBuilder &rt, ComputeOp op, ComputeModel &model)
      : rt(rt), op(op), loc(op.getLoc()), model(model), stmt(model.stmt),
        nest(model.nest), localLoops(model.localLoops),
        leafLevel(model.leafLevel),
        cl(op, model.stmt, model.nest, model.extents),
        names(model.stmt.tensorNames()) {}

  LogicalResult run();

private:
  // --- set-up (Compute.cpp) ------------------------------------------------
  void collectPlans();
  /// The loops fixed at level k: the distributed loops and local loops < k.
  llvm::StringSet<> fixedAt(unsigned k);
  void allocateBuffers(OpBuilder &b);
  LogicalResult checkDistinctTiles(OpBuilder &b);
  LogicalResult setUpLeaf(OpBuilder &b);
  unsigned loopLeafLevel();
  void freeBuffers(OpBuilder &b);

  // --- boxes and transfers (ComputeTransfers.cpp) --------------------------
  SmallVector<Value> varsAt(OpBuilder &b, unsigned k);
  Value boxOfPeer(OpBuilder &b, const TransferPlan &plan, unsigned k,
                  ArrayRef<Value> at, SmallVectorImpl<Value> &lo,
                  SmallVectorImpl<Value> &size);
  void setBox(OpBuilder &b, const std::string &t, unsigned k);
  bool sharesOutput(const std::string &t);
  Value aliasTile(OpBuilder &b, const std::string &t, Value tile);
  TransferSite siteOf(const std::string &t, unsigned k, Value tile,
                      Value inPlace);
  LogicalResult enterLevel(OpBuilder &b, unsigned k);
  void zeroOutputBuffer(OpBuilder &b, const std::string &t, Value isTile);
  void exitLevel(OpBuilder &b, unsigned k);

  // --- the loop nest and its leaf (Compute.cpp) ----------------------------
  void emitLevel(OpBuilder &b, unsigned k);
  void emitTimeLoop(OpBuilder &b, unsigned k);
  LogicalResult cannotSubstitute(StringRef why);
  LogicalResult underNonEmpty(OpBuilder &b,
                              function_ref<LogicalResult(OpBuilder &)> body);
  LogicalResult emitLeaf(OpBuilder &b);
  void emitScalarLoops(OpBuilder &b, unsigned k);
  bool isFreeLoop(const Loop &l) const;
  void emitParallelLoop(OpBuilder &b, const Loop &l,
                        function_ref<void(OpBuilder &)> body);

  SPMDBuilder &rt;
  ComputeOp op;
  Location loc;
  ComputeModel &model;
  IndexStatement &stmt;
  LoopNest &nest;
  ArrayRef<const Loop *> localLoops;
  unsigned leafLevel;
  /// Tensor name -> how it moves.
  llvm::StringMap<TransferPlan> plans;
  ComputeRanges cl;
  /// The tensors, output first.
  SmallVector<std::string> names;
  Type elt;
  /// The output's tile.
  Value outTile;
  /// This processor's grid coordinates (index).
  SmallVector<Value> coords;
  std::optional<TransferEmitter> transfers;

  // Buffers, allocated once: a tensor's box and its buffer, its send
  // buffer, the buffer's capacity.
  llvm::StringMap<BoxBuffer> boxes;
  llvm::StringMap<Value> sendBufs;
  llvm::StringMap<int64_t> capacity;
  /// Each tensor's buffer (its box's memref may be a view of the tile).
  llvm::StringMap<Value> firstBufs;
  /// Tensor -> i1, whether its box is read in place (a view of the tile).
  llvm::StringMap<Value> aliasOf;

  // The leaf.
  MttkrpRoles roles;
  Value krBuf;
  bool mttkrpLeaf = false;
  bool gemmWarned = false;
  /// The level of the linalg.generic of a leaf without a library kernel.
  unsigned loopLeaf = 0;
  bool failedInside = false;
};

} // namespace spmd
} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SPMD_COMPUTEEMITTER_H
