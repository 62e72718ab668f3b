//===- ImportShard.h - shared state of dist-import-shard --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// dist-import-shard works in two phases per function: a check that plans
// every operation (and reports, with locations, everything it cannot
// import) without touching the IR, then the emission of dist IR from the
// plans. ImportShard.cpp holds the pass, the layouts and the function
// signature; ImportShardCompute.cpp turns tensor operations into
// statements and schedules.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_LIB_TRANSFORMS_IMPORTSHARD_H
#define DISTTENSOR_LIB_TRANSFORMS_IMPORTSHARD_H

#include "DistTensor/Dialect/Dist/IR/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir {
namespace dist {
namespace shard_import {

/// What a tensor value of the input is, as far as dist is concerned: a
/// tensor that needs storage, or a value known without any (an
/// uninitialised `tensor.empty`, or every element the same constant, from
/// `linalg.fill` or a splat `arith.constant`).
struct ValueInfo {
  enum class Kind { Tensor, Empty, Constant };
  Kind kind = Kind::Tensor;
  /// The constant, for Kind::Constant (a FloatAttr or IntegerAttr).
  TypedAttr constant;
  /// The layout the value has (its sharding).
  LayoutAttr layout;
};

/// One tensor bound to a name of a statement.
struct Binding {
  std::string name;
  Value tensor; // a value of the input function
};

/// A dist.compute to emit in place of one input operation.
struct ComputePlan {
  Operation *op = nullptr;
  Value result; // the input op's tensor result
  std::string statement;
  std::string outName;
  llvm::SmallVector<Binding> inputs;
  /// `+=` onto a copy of this value (a matrix product with a live
  /// initial value); null otherwise.
  Value accumulateOnto;
  /// The one-sided matrix product schedule; otherwise owner-computes.
  bool oneSided = false;
  /// The index variable of each dimension of the output.
  llvm::SmallVector<std::string> outIndices;
};

/// The state of importing one function, shared by the two files.
class FunctionImport {
public:
  FunctionImport(const llvm::StringMap<llvm::SmallVector<int64_t>> &grids)
      : grids(grids) {}

  const llvm::StringMap<llvm::SmallVector<int64_t>> &grids;
  llvm::DenseMap<Value, ValueInfo> info;

  /// The dist tensor standing for each input value (once emitted).
  llvm::DenseMap<Value, Value> mapped;

  /// The dist tensor type of input tensor value `v` under `layout`.
  DistTensorType typeOf(Value v, LayoutAttr layout) const;

  /// The statement for a linalg op or an element-wise arith op on tensors;
  /// reports why not and fails when it has none. Reads `info` only.
  FailureOr<ComputePlan> planCompute(Operation *op) const;

  /// The literal text of a constant, or failure (reported at `loc`).
  static FailureOr<std::string> literal(TypedAttr c, Location loc);

  /// Emits `plan` before `plan.op` into a new dist.alloc (returned), the
  /// inputs taken from `materialize`.
  FailureOr<Value>
  emitCompute(OpBuilder &b, const ComputePlan &plan,
              function_ref<FailureOr<Value>(Value)> materialize);

  /// Emits a computation of `text` into `out` (whose layout decides the
  /// schedule; `outIndices` name its dimensions), at `b`'s insertion point.
  LogicalResult
  emitOwnerComputes(OpBuilder &b, Location loc, StringRef statement,
                    StringRef outName, Value out,
                    ArrayRef<std::string> outIndices,
                    ArrayRef<std::pair<std::string, Value>> inputs);
};

/// The names given to the loop dimensions d0, d1, ... of a linalg op.
StringRef indexName(unsigned d);

} // namespace shard_import
} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_LIB_TRANSFORMS_IMPORTSHARD_H
