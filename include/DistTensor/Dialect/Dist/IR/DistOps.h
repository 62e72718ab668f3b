//===- DistOps.h - dist dialect operations ----------------------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_DISTOPS_H
#define DISTTENSOR_DIALECT_DIST_IR_DISTOPS_H

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::dist {
/// What a dist.compute computes and how (ComputeOp::getLoopNest).
struct ComputeLoopNest {
  /// The statement attribute, which owns the parsed statement.
  StatementAttr statement;
  /// Extent of each statement index variable (from the tensor types).
  llvm::StringMap<int64_t> extents;
  /// The loop nest after the schedule.
  LoopNest nest;

  const IndexStatement &getStatement() const {
    return statement.getStatement();
  }
};

/// The side-effect resource of communication: collectives and point-to-point
/// messages read and write it (see Dist_CommResource in DistOps.td).
struct CommResource : public SideEffects::Resource::Base<CommResource> {
  StringRef getName() final { return "dist.comm"; }
};
} // namespace mlir::dist

#define GET_OP_CLASSES
#include "DistTensor/Dialect/Dist/IR/DistOps.h.inc"

namespace mlir::dist {
/// The grid `gridRef` names, with `axes` in range and distinct; fails with
/// a diagnostic on `op` otherwise (the SPMD ops' symbol verifiers).
FailureOr<GridOp> verifyGridAxes(Operation *op, FlatSymbolRefAttr gridRef,
                                 ArrayRef<int64_t> axes,
                                 SymbolTableCollection &symbols);

/// Discardable attributes of the sequential time loops (scf.for) that
/// dist-lower-computations emits: `dist.time_loop` (unit) marks them for
/// dist-double-buffer; `dist.overlap` (bool) is the schedule's overlap
/// command, where it has one.
inline constexpr llvm::StringLiteral kTimeLoopAttr = "dist.time_loop";
inline constexpr llvm::StringLiteral kOverlapAttr = "dist.overlap";
/// Marks a leaf function whose floating-point sums may be reassociated
/// (dist-reassociate-leaves); a unit attribute on func.func.
inline constexpr llvm::StringLiteral kReassociateAttr = "dist.reassociate";
/// Marks a leaf function whose gathered sums dist-vectorize-leaf-gathers
/// rewrites (the SpMV / SpMM leaves); a unit attribute on func.func.
inline constexpr llvm::StringLiteral kVectorizeGathersAttr =
    "dist.vectorize_gathers";
/// Marks a leaf function that sets (instead of adding to) its output
/// argument, whose index the integer attribute holds (dist-overwrite-leaves).
inline constexpr llvm::StringLiteral kOverwriteAttr = "dist.overwrite";
/// Marks a leaf function's memref arguments whose memory no other argument
/// reaches (dist-restrict-leaves): a dictionary {args = array<i64: ...>,
/// type = <the function's type when it was marked>}.
inline constexpr llvm::StringLiteral kRestrictAttr = "dist.restrict";
} // namespace mlir::dist

#endif // DISTTENSOR_DIALECT_DIST_IR_DISTOPS_H
