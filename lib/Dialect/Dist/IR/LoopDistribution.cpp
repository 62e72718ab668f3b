//===- LoopDistribution.cpp - distributed loops that a machine can run ---===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// distributionError: the one check, shared by the dist.compute verifier and
// the lowering, that a scheduled nest's distributed loops fit a one-level
// machine (or a machine of nodes, through its flattened axes).
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::dist;

std::optional<std::string>
mlir::dist::distributionError(const LoopNest &nest,
                              llvm::ArrayRef<int64_t> gridShape,
                              llvm::StringRef grid) {
  llvm::SmallVector<const Loop *> distributed;
  const Loop *firstLocal = nullptr;
  for (const Loop &l : nest.loops) {
    if (!l.distributed) {
      if (!firstLocal)
        firstLocal = &l;
      continue;
    }
    if (firstLocal)
      return "loop '" + l.name + "' is distributed but sits inside loop '" +
             firstLocal->name +
             "'; distributed loops must be the outermost loops";
    distributed.push_back(&l);
  }
  if (distributed.empty()) {
    int64_t size = 1;
    for (int64_t e : gridShape)
      size *= e;
    if (size == 1)
      return std::nullopt;
    return ("no loop is distributed, so every processor of " + grid +
            " would compute everything; distribute the loops onto the "
            "machine")
        .str();
  }
  // Several Grid(...) commands: one per level of a machine of nodes, so
  // together they must spell its axes, outermost level first.
  if (nest.gridLevels > 1 &&
      llvm::ArrayRef<int64_t>(nest.gridShape) != gridShape) {
    std::string got, want;
    llvm::raw_string_ostream gs(got), ws(want);
    llvm::interleaveComma(nest.gridShape, gs);
    llvm::interleaveComma(gridShape, ws);
    return ("its " + llvm::Twine(nest.gridLevels) +
            " distribute commands onto Grid(...) distribute onto the levels "
            "of one machine, together [" +
            got + "], but " + grid + " has the axes [" + want +
            "] (all levels, outermost first); a second Grid(...) continues "
            "with the next level of a machine of nodes")
        .str();
  }
  if (distributed.size() != gridShape.size())
    return ("it distributes " + llvm::Twine(distributed.size()) +
            " loop(s) but the tensors' machine " + grid + " has " +
            llvm::Twine(gridShape.size()) + " dimension(s)")
        .str();
  llvm::SmallVector<bool, 8> used(gridShape.size(), false);
  for (auto [i, l] : llvm::enumerate(distributed)) {
    int64_t d = l->gridDim >= 0 ? l->gridDim : (int64_t)i;
    if (d >= (int64_t)gridShape.size() || used[d])
      return ("two loops are distributed over grid dimension " +
              llvm::Twine(d))
          .str();
    used[d] = true;
    if (l->extent != gridShape[d])
      return ("distributed loop '" + l->name + "' has " +
              llvm::Twine(l->extent) + " iterations but grid dimension " +
              llvm::Twine(d) + " of " + grid + " has extent " +
              llvm::Twine(gridShape[d]))
          .str();
  }
  return std::nullopt;
}
