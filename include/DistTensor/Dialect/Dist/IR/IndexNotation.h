//===- IndexNotation.h - tensor index notation statements -------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// A parsed tensor-index-notation statement such as
//   A(i,l) = B(i,j,k) * C(j,l) * D(k,l)
// with +, -, *, scalar constants and parentheses. Index variables that occur
// only on the right-hand side are summed over.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_DIALECT_DIST_IR_INDEXNOTATION_H
#define DISTTENSOR_DIALECT_DIST_IR_INDEXNOTATION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir {
namespace dist {

/// An access `T(i, j)`.
struct Access {
  std::string tensor;
  llvm::SmallVector<std::string> indices;
};

/// A node of the right-hand side expression.
struct IndexExpr {
  enum class Kind { Access, Constant, Add, Sub, Mul, Neg };
  Kind kind;
  Access access;                  // Kind::Access
  double constant = 0.0;          // Kind::Constant
  std::unique_ptr<IndexExpr> lhs; // binary ops and Neg (operand in lhs)
  std::unique_ptr<IndexExpr> rhs;
};

/// A whole statement `lhs = rhs` or `lhs += rhs`.
struct IndexStatement {
  Access lhs;
  bool accumulate = false;
  std::unique_ptr<IndexExpr> rhs;

  /// Every access of the right-hand side, left to right.
  llvm::SmallVector<const Access *> rhsAccesses() const;
  /// Index variables in loop order: those of the left-hand side, then the
  /// summed ones in order of first appearance on the right.
  llvm::SmallVector<std::string> indexVariables() const;
  /// Index variables that occur only on the right-hand side (summed).
  llvm::SmallVector<std::string> reductionVariables() const;
  /// Distinct tensor names: the output first, then inputs in order of first
  /// appearance.
  llvm::SmallVector<std::string> tensorNames() const;
  /// True when the right-hand side is a product of accesses (and constants),
  /// with no addition or subtraction.
  bool isPureProduct() const;
  /// Prints the statement in canonical spacing: `A(i,j) = B(i,k) * C(k,j)`.
  /// Constants are printed so that they read back exactly.
  void print(llvm::raw_ostream &os) const;
  /// A deep copy, for a holder that needs a statement of its own (readers
  /// of a dist.compute share the one its #dist.statement holds).
  IndexStatement clone() const;
};

/// Where each summed index variable is summed. A summed variable is summed
/// over the smallest sub-expression that contains all its uses, where an
/// addition or subtraction never sums: `B(i,j) + C(i) + D(i,j)` is
/// `sum_j B(i,j) + C(i) + sum_j D(i,j)` (as TACO and DISTAL read it). A
/// product sums the variables that both of its factors use.
///
/// The lowering evaluates the right-hand side at every point of the loop nest
/// over all the statement's variables and adds up. That equals the scoped
/// sum when each addend of an addition or subtraction counts only at the
/// first value (0) of the summed variables that are still unsummed there and
/// that the addend does not use. `addendGuards` returns, for each such
/// addend, those variables (addends that need none are absent).
using AddendGuards =
    llvm::DenseMap<const IndexExpr *, llvm::SmallVector<std::string>>;
AddendGuards addendGuards(const IndexStatement &stmt);

/// Parses `text`. On failure returns false and sets `error` to a message and
/// `errorColumn` to the 0-based column it refers to.
bool parseIndexStatement(llvm::StringRef text, IndexStatement &result,
                         std::string &error, size_t &errorColumn);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_DIALECT_DIST_IR_INDEXNOTATION_H
