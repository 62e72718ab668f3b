//===- ScheduleCandidates.h - schedules dist-auto-schedule tries -*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LIB_TRANSFORMS_SCHEDULECANDIDATES_H
#define DIST_LIB_TRANSFORMS_SCHEDULECANDIDATES_H

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir {
namespace dist {

/// The schedules dist-auto-schedule tries for `stmt` (variable extents
/// `extents`) on a one-level grid of `grid`, each as the text of a
/// `#dist.schedule` command list ("[distribute(...), ...]"). Per ordered
/// choice of distributed variables (one per grid dimension) it writes the
/// DISTAL Fig. 9 families that fit: every operand moved once (Johnson's
/// form with a distributed reduction), the summed variable split into
/// chunks or divided into parts with the inputs moved per step (SUMMA,
/// COSMA's steps), and the parts rotated over distributed variables
/// (Cannon, PUMMA, 2.5D); each with and without a GEMM leaf. Nothing here
/// checks them: the pass keeps those the verifier and the lowering accept.
/// With `overlapOff`, every family that steps is also written with
/// overlap(off): no double buffering, half the transfer memory (for a
/// memory cap). The number of candidates depends on the statement and the
/// grid's dimensions, not on the number of processes.
std::vector<std::string>
enumerateScheduleCandidates(const IndexStatement &stmt,
                            const llvm::StringMap<int64_t> &extents,
                            llvm::ArrayRef<int64_t> grid,
                            bool overlapOff = false);

} // namespace dist
} // namespace mlir

#endif // DIST_LIB_TRANSFORMS_SCHEDULECANDIDATES_H
