//===- SparseCompute.h - the sparse products dist lowers --------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// Which dist.compute ops with a sparse operand can be lowered (sparse I:
// SpMV and SpMM with a CSR matrix whose rows are blocked over a 1-D grid),
// shared by the verifier of dist.compute and the lowering
// (lib/Transforms/SPMD/SparseCompute.cpp), so that what verifies lowers.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_SPARSECOMPUTE_H
#define DISTTENSOR_DIALECT_DIST_IR_SPARSECOMPUTE_H

#include "DistTensor/Dialect/Dist/IR/DistDialect.h"
#include "DistTensor/Dialect/Dist/IR/IndexNotation.h"
#include "DistTensor/Dialect/Dist/IR/Schedule.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir {
namespace dist {

/// The sparse computations dist lowers.
enum class SparseKernel {
  /// SpMV / SpMM: `Y(i[,k]) (+)= B(i,j) * X(j[,k])`, Y and X dense.
  Product,
  /// SDDMM: `A(i,j) = B(i,j) * C(i,k) * D(k,j)`, A sparse with B's
  /// pattern (a sparse output of B's type), C and D dense.
  Sddmm,
  /// SpAdd: `A(i,j) = B(i,j) + C(i,j) [+ D(i,j)]`, all sparse of one type,
  /// A with the union of the others' patterns (`addends`).
  Add,
  /// SpTTV: `A(i,j) = B(i,j,k) * c(k)`, B sparse of order 3, A sparse with
  /// B's (i, j) fibers as its pattern, c dense (`dense`).
  Ttv,
  /// SpMTTKRP: `A(i,l) = B(i,j,k) * C(j,l) * D(k,l)`, B sparse of order 3,
  /// A, C (`dense`) and D (`dense2`) dense.
  Mttkrp,
};

/// A recognized sparse computation: a product `Y(i[,k]) (+)= B(i,j) *
/// X(j[,k])` (B sparse: CSR, rows blocked or split by non-zeros over a 1-D
/// grid; X and Y dense), or an SDDMM `A(i,j) = B(i,j) * C(i,k) * D(k,j)`
/// (`dense` names C, `dense2` D; A sparse, of B's type).
struct SparseProduct {
  SparseKernel kind = SparseKernel::Product;
  std::string out, matrix, dense, dense2;
  /// SpAdd: the sparse terms, in the statement's order (`matrix` is the
  /// first).
  std::vector<std::string> addends;
  /// Columns of X and Y (1 for SpMV); for SDDMM the extent of k (C's
  /// columns, D's rows); for SpMTTKRP the extent of l.
  int64_t cols = 1;
  /// Whether X is a matrix (SpMM) rather than a vector.
  bool denseIsMatrix = false;
  /// Whether X (SDDMM: C) is replicated on every process (no exchange
  /// needed) rather than blocked like B's rows.
  bool denseReplicated = false;
  /// Whether the schedule splits B's entries by non-zeros (fuse / pos /
  /// distribute): a process's rows may overlap its neighbours', and the
  /// partial sums of a row are reduced into Y's owner.
  bool nonzeros = false;
  /// Whether B is stored so (`"xy -> x~"`). When it differs from
  /// `nonzeros` (SpDISTAL's mixed partitions) the product runs on B's
  /// entries moved to the schedule's partition (dist.sparse_in_partition).
  bool storedNonzeros = false;
  /// Order 3: whether the schedule fuses all three levels (`fuse(i, j, f),
  /// fuse(f, k, g), pos(g, gp, B)`; `nonzeros` is set too): the product
  /// runs on B's entries split equally (dist.sparse_entries), whichever
  /// way B is stored, its fibers and rows split between processes reduced.
  bool entries = false;
};

/// Recognizes `stmt` over `types` (scheduled as `nest` on a grid of
/// `gridShape`) as a sparse product dist lowers. On failure, `error` says
/// what does not fit, in a sentence that can follow "sparse computation: ".
FailureOr<SparseProduct>
matchSparseProduct(const IndexStatement &stmt,
                   const llvm::StringMap<DistTensorType> &types,
                   const LoopNest &nest, ArrayRef<int64_t> gridShape,
                   std::string &error);

/// Whether sparse tensor `t` is stored with a non-zero partition.
bool hasNonzeroPartition(DistTensorType t);

class ComputeOp;
/// Whether `op` has a sparse operand (its lowering is the sparse one).
bool isSparseCompute(ComputeOp op);

/// Why a sparse tensor of type `t` cannot be stored at run time (empty
/// when it can): rank 2, CSR, f32 or f64, rows blocked over the processes
/// of a 1-D, one-level grid or split by non-zeros; or rank 3 (below).
std::string sparseStorageError(DistTensorType t,
                               ArrayRef<int64_t> gridShape);

/// The same for a tensor of order 3: CSF with a dense root
/// (`(i, j, k) -> (i : dense, j : compressed, k : compressed)`), f32 or
/// f64, on a 1-D, one-level grid, its rows blocked (`"xyz -> x"`) or its
/// (i, j) fibers split by non-zeros (`"xyz -> x~"`), the other dimensions
/// whole.
std::string sparseTensor3StorageError(DistTensorType t,
                                      ArrayRef<int64_t> gridShape);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_SPARSECOMPUTE_H
