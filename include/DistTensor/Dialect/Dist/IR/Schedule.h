//===- Schedule.h - DISTAL schedules applied to a statement -----*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Decodes a #dist.schedule into commands and applies them, in order, to the
// loop nest of a statement. The result (`LoopNest`) records every loop with
// its extent, how it derives from the statement's index variables, which
// loops are distributed, rotations, communication points, parallel loops and
// the substituted leaf kernel. The verifier and every later pass use it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_SCHEDULE_H
#define DISTTENSOR_DIALECT_DIST_IR_SCHEDULE_H

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"

#include "llvm/ADT/StringMap.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace mlir {
namespace dist {

class ScheduleAttr;

/// One decoded scheduling command.
struct ScheduleCommand {
  enum class Kind {
    Divide,         // divide(i, io, ii, parts)
    Split,          // split(i, io, ii, chunk)
    Reorder,        // reorder({vars})
    Collapse,       // collapse(i, j, f) / fuse(i, j, f)
    Pos,            // pos(f, fp, T): iterate T's stored entries (sparse)
    Distribute,     // distribute(v) or distribute({vars})
    DistributeOnto, // distribute({targets}, {dist}, {local}, Grid(..) | @m)
    Communicate,    // communicate(T | {T..}, v)
    Rotate,         // rotate(t, {vars}, r)
    Parallelize,    // parallelize(v)
    Substitute,     // substitute({vars}, kernel)
    Overlap,        // overlap(on | off)
    Stationary,     // stationary(T | auto): the one-sided lowering
    Prefetch,       // prefetch(depth): the one-sided lowering
    Offset          // offset(on | off): the one-sided lowering
  };
  Kind kind;
  /// Variable lists in the order of the command's arguments: for divide /
  /// split {i}, {io}, {ii}; reorder {vars}; collapse {i}, {j}, {f};
  /// pos {f}, {fp}, {T};
  /// distribute {vars}; distribute-onto {targets}, {dist}, {local};
  /// communicate {tensors}, {v}; rotate {t}, {vars}, {r}; parallelize {v};
  /// substitute {vars}; overlap {on | off}; stationary {T | auto};
  /// offset {on | off}; prefetch: none (the depth is `factor`).
  llvm::SmallVector<llvm::SmallVector<std::string>, 3> lists;
  /// divide / split factor; prefetch depth.
  int64_t factor = 0;
  /// distribute-onto: grid extents (from Grid(...) or the named machine).
  llvm::SmallVector<int64_t> gridShape;
  /// distribute-onto with @machine: the machine's name (empty for Grid()).
  std::string machine;
  /// substitute: kernel name.
  std::string kernel;
  /// Position of the command in the schedule (0-based), for messages.
  unsigned position = 0;

  /// The command as written, e.g. "split(k, ko, ki, 32)".
  std::string str() const;
};

/// For a DISTAL scheduling command that dist does not support (`precompute`),
/// why and what to write instead; empty for every other name.
std::string unsupportedScheduleCommand(llvm::StringRef name);

/// Decodes the command arrays of a #dist.schedule; returns false and sets
/// `error` on a malformed one. A ScheduleAttr runs this once, when it is
/// made (ScheduleAttr::getDecoded gives the result).
bool decodeSchedule(ArrayAttr schedule,
                    llvm::SmallVectorImpl<ScheduleCommand> &commands,
                    std::string &error);

/// A loop of the scheduled nest.
struct Loop {
  std::string name;
  int64_t extent = 0;
  /// Statement index variables this loop derives from (one, or several after
  /// collapse).
  llvm::SmallVector<std::string> origins;
  bool distributed = false;
  /// Grid dimension this loop is distributed over (compound distribute), or
  /// -1 for a single-variable distribute.
  int64_t gridDim = -1;
  bool parallel = false;
  /// Set when the loop is the result of rotate(t, vars, r): the rotating
  /// variables; the loop's iteration is offset by their sum mod extent.
  llvm::SmallVector<std::string> rotatedBy;
};

/// How a variable of the nest came to be (divide, split, collapse, rotate).
struct Derivation {
  enum class Kind { Original, DivideOuter, DivideInner, SplitOuter,
                    SplitInner, Collapsed, Rotated, Position };
  Kind kind = Kind::Original;
  /// Parent variable(s): one for divide/split/rotate, two for collapse.
  llvm::SmallVector<std::string> parents;
  /// divide: parts; split: chunk size.
  int64_t factor = 0;
  /// The inner block size of a divide/split (ceil(n/parts) or chunk).
  int64_t blockSize = 0;
  /// rotate: the rotating variables.
  llvm::SmallVector<std::string> rotatedBy;
  /// pos: the sparse tensor whose stored entries the variable counts
  /// (SpDISTAL's position space); its value is not a function of the
  /// parent's, so no range or expression is derived through it.
  std::string positionOf;
};

/// The statement's loop nest after every command.
struct LoopNest {
  /// Loops outermost first.
  llvm::SmallVector<Loop> loops;
  /// Every variable ever defined (statement and derived) and its origin.
  llvm::StringMap<Derivation> derivations;
  /// Extent of every variable ever defined.
  llvm::StringMap<int64_t> extents;
  /// communicate points: tensor name -> loop name (absent: innermost loop).
  llvm::StringMap<std::string> communicateAt;
  /// Substituted leaf: its variables (innermost loops) and kernel.
  llvm::SmallVector<std::string> substituteVars;
  std::string kernel;
  /// overlap(on | off): whether time-stepped communication is double
  /// buffered; unset: the lowering's default.
  std::optional<bool> overlap;
  /// Grid used by compound distribute commands (empty when none): the
  /// concatenation of their Grid(...) extents, one command per level of a
  /// machine of nodes, outermost first (or the flattened extents of the
  /// machine one command names).
  llvm::SmallVector<int64_t> gridShape;
  /// Number of compound distribute commands that made `gridShape`.
  unsigned gridLevels = 0;
  std::string machine;
  /// The one-sided lowering's commands (docs/onesided.md): the stationary
  /// tensor ("auto": the cost model chooses), the prefetch depth, and
  /// whether the iteration offset is used. Any of them selects the
  /// one-sided lowering.
  std::optional<std::string> stationary;
  std::optional<int64_t> prefetch;
  std::optional<bool> offset;

  /// Whether the schedule selects the one-sided lowering.
  bool isOneSided() const { return stationary || prefetch || offset; }
  /// Index of the loop named `name`, or -1.
  int indexOf(llvm::StringRef name) const;
  /// True if `var` is a statement variable or derives from `origin`.
  bool derivesFrom(llvm::StringRef var, llvm::StringRef origin) const;
  /// The (outer, inner) variables `var` was divided or split into, if it
  /// was.
  std::optional<std::pair<std::string, std::string>>
  splitOf(llvm::StringRef var) const;
  /// The statement index variables `var` derives from.
  llvm::SmallVector<std::string> originsOf(llvm::StringRef var) const;
  /// The tensor whose position space `var` lies in (pos(f, fp, T) made
  /// `var` or a variable it derives from), or empty.
  std::string positionTensorOf(llvm::StringRef var) const;
  /// Whether any pos command was applied.
  bool hasPositionSpace() const;
};

/// A schedule error: message and the position of the offending command.
struct ScheduleError {
  std::string message;
  unsigned command = 0;
};

/// Applies `commands` to `stmt` whose index variables have `extents`.
/// `machineShapes` gives the extents of machines a compound distribute may
/// name with `@m` (all levels, flattened outermost first). Returns the nest, or
/// an error saying what is wrong with which command.
std::optional<LoopNest>
applySchedule(const IndexStatement &stmt,
              const llvm::StringMap<int64_t> &extents,
              llvm::ArrayRef<ScheduleCommand> commands,
              const llvm::StringMap<llvm::SmallVector<int64_t>> &machineShapes,
              ScheduleError &error);

/// Why the distributed loops of `nest` cannot run on a one-level machine
/// `grid` (spelled `@m`) of extents `gridShape`: a distributed loop inside a
/// local one, a number of distributed loops other than the machine's
/// dimensions, two loops on one grid dimension, or a loop whose extent is
/// not its grid dimension's, or no distributed loop on a machine of more
/// than one processor (every processor would compute everything). None
/// when they can. The verifier and the lowering both use it, so what
/// verifies lowers.
std::optional<std::string>
distributionError(const LoopNest &nest, llvm::ArrayRef<int64_t> gridShape,
                  llvm::StringRef grid);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_SCHEDULE_H
