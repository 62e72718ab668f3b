//===- DistDialect.h - dist dialect -----------------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H
#define DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SparseTensor/IR/SparseTensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include <limits>
#include <optional>

#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"

#include "DistTensor/Dialect/Dist/IR/DistOpsDialect.h.inc"
#include "DistTensor/Dialect/Dist/IR/DistEnums.h.inc"

namespace mlir::dist {
struct ScheduleCommand;
} // namespace mlir::dist

namespace mlir::dist::detail {
/// Storage of #dist.statement (its text and parse; DistAttrs.cpp).
struct StatementAttrStorage;
/// Storage of #dist.schedule (its commands and their decoding).
struct ScheduleAttrStorage;
} // namespace mlir::dist::detail

#define GET_ATTRDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOpsTypes.h.inc"

namespace mlir {
namespace dist {

/// Limits that keep every size computation inside int64 (the verifiers
/// reject larger machines and tensors with a diagnostic).
constexpr int64_t kMaxProcessors = int64_t(1) << 20;
constexpr int64_t kMaxTensorElements = int64_t(1) << 50;
/// Most grid axes of a machine (all levels together) and most dimensions
/// of a tensor: the runtime's DISTRT_MAX_DIMS (runtime/include/distrt/
/// distrt.h). DistDialect.cpp includes that header and static_asserts that
/// the two agree, so the verifier and the runtime keep one limit.
constexpr int64_t kMaxDims = 8;
/// Largest size or leading dimension a BLAS call takes (BLAS integers are
/// 32-bit): a leaf substituted by a BLAS kernel needs every size it passes
/// within this.
constexpr int64_t kMaxBlasSize = 2147483647; // INT32_MAX
/// Deepest prefetch of the one-sided lowering (gets in flight ahead of the
/// slice being multiplied; each holds a slice buffer).
constexpr int64_t kMaxPrefetch = 16;
/// Discardable attribute of a `dist.grid` that dist-flatten-machines made
/// from a machine of nodes: how many leading axes index nodes (i64).
constexpr llvm::StringLiteral kNodeAxesAttrName = "dist.node_axes";
/// Unit attribute that dist-device-memory puts on the module whose tiles
/// and transfer buffers it moved to device memory (convert-dist-to-runtime
/// lowers grids of GPUs only then).
constexpr llvm::StringLiteral kDeviceMemoryAttrName = "dist.device_memory";

/// a * b, or nothing on overflow of `limit` (a, b >= 0).
inline std::optional<int64_t> mulWithin(int64_t a, int64_t b, int64_t limit) {
  if (a < 0 || b < 0)
    return std::nullopt;
  if (a != 0 && b > limit / a)
    return std::nullopt;
  return a * b;
}

/// a * b for a, b >= 0, saturated at INT64_MAX: a block-cyclic cycle
/// (block * processes) that overflows is longer than any extent, and every
/// use of one (a division or remainder of an index below the extent) gives
/// the same result with INT64_MAX.
inline int64_t mulSaturated(int64_t a, int64_t b) {
  return mulWithin(a, b, std::numeric_limits<int64_t>::max())
      .value_or(std::numeric_limits<int64_t>::max());
}

/// Number of processors of a level of a layout: the product of the extents
/// of `axes` in `gridShape`.
int64_t productOfAxes(llvm::ArrayRef<int64_t> gridShape,
                      llvm::ArrayRef<int64_t> axes);

/// Prints the canonical layout body (the part after `@grid, `).
void printLayoutLevels(llvm::raw_ostream &os,
                       llvm::ArrayRef<LevelLayoutAttr> levels);

/// Parses a layout given in DISTAL's tensor distribution notation (e.g.
/// "xy -> xy0") for one level. Returns null and sets `error` on failure.
LevelLayoutAttr parseTDN(MLIRContext *ctx, llvm::StringRef text,
                         PartitionKind kind, int64_t block,
                         std::string &error);

/// Parses a layout in the thesis' mode-tuple notation (e.g. "[(0,2),(1)]",
/// "[(0),(); (1), 0]"). Returns null and sets `error` on failure.
LevelLayoutAttr parseModeTuples(MLIRContext *ctx, llvm::StringRef text,
                                std::string &error);

/// Parses the bracketed command list of a schedule, `[cmd(args), ...]`
/// (dist.compute's `schedule [...]`).
ScheduleAttr parseScheduleBody(AsmParser &parser);
/// Prints the bracketed command list of a schedule.
void printScheduleBody(AsmPrinter &printer, ScheduleAttr schedule);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_DISTDIALECT_H
