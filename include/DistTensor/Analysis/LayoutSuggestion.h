//===- LayoutSuggestion.h - the layout a schedule implies -------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// The layout a dist.compute's schedule implies for one of its tensors (each
// dimension indexed by a distributed loop blocked over that loop's grid
// dimension, the others whole), used to redistribute tensors that would
// move with the general exchange (dist-insert-redistributions) and to tell
// the user which layout makes such a transfer local or a collective
// (dist-report-communication, the lowering's remark, dist-run's warning).
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_LAYOUTSUGGESTION_H
#define DISTTENSOR_ANALYSIS_LAYOUTSUGGESTION_H

#include "DistTensor/Analysis/Communication.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace dist {

/// The layout the schedule implies for `tensor`: a dimension indexed by the
/// statement variable of a distributed loop made by a divide into as many
/// parts as its grid dimension is blocked over it; the other dimensions
/// are whole. Nothing when the schedule distributes in another way (a
/// split, a divide into another number of parts, two loops on one
/// dimension) or `tensor` is not an operand of the computation.
std::optional<LayoutAttr> impliedLayout(const ComputeModel &m,
                                        llvm::StringRef tensor);

/// Elements of the largest tile of `type`'s shape under `layout` on a grid
/// of `gridShape` (what one process holds).
int64_t largestTileElements(DistTensorType type, LayoutAttr layout,
                            llvm::ArrayRef<int64_t> gridShape);

/// How `tensor` would move if it had `layout` instead of its own, the
/// other tensors and the schedule unchanged (analyzeCommunication on a
/// copy of `m`).
TransferPlan transferWithLayout(const ComputeModel &m, llvm::StringRef tensor,
                                LayoutAttr layout);

/// The text of a layout attribute (`#dist.layout<@m, [(0) blocked, ()]>`)
/// for `tensor` under which its transfer is not the general exchange: the
/// layout the schedule implies, when it differs from the tensor's own and
/// the analysis under it picks local or a collective. Nothing otherwise.
std::optional<std::string> suggestLayout(const ComputeModel &m,
                                         llvm::StringRef tensor);

/// "give 'A' the layout #dist.layout<...> (then: local)" for a tensor with
/// a suggestion (the pattern after "then" is what the analysis picks
/// under the suggested layout), with ", up to N elements per process
/// instead of M" added when the layout's tiles are larger than the
/// tensor's own (it replicates); nothing when suggestLayout has none.
std::optional<std::string> describeLayoutSuggestion(const ComputeModel &m,
                                                    llvm::StringRef tensor);

/// "; suggestion: " followed by describeLayoutSuggestion's text, or "" when
/// there is none: appended to a remark about a tensor that moves with the
/// general exchange.
std::string layoutSuggestionClause(const ComputeModel &m,
                                   llvm::StringRef tensor);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_LAYOUTSUGGESTION_H
