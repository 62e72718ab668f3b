//===- Isl.h - small RAII wrappers around isl's C API -----------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// LLVM and MLIR build without exceptions, so the project uses isl's C API
// (not isl/cpp.h) through these wrappers:
//
//   * IslContext owns an isl_ctx configured to *continue* on errors
//     (ISL_ON_ERROR_CONTINUE): a failing isl call returns null / an error
//     value instead of aborting, and takeErrorMessage() turns the last error
//     into text for a diagnostic.
//   * IslPtr<T> owns one isl object (isl_set, isl_map, ...): copying the
//     wrapper copies the object (a reference-count increment in isl), moving
//     transfers it, the destructor frees it. get() lends the pointer to
//     __isl_keep arguments, copy() hands a new reference to __isl_take
//     arguments, release() gives up ownership.
//
// Every isl object must be destroyed before the IslContext it was created
// in.
//
//===----------------------------------------------------------------------===//

#ifndef DISTTENSOR_ANALYSIS_ISL_H
#define DISTTENSOR_ANALYSIS_ISL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace mlir {
namespace dist {

/// An isl_ctx that reports errors instead of aborting.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;

  isl_ctx *get() const { return ctx; }

  /// True when isl recorded an error since the last takeErrorMessage().
  bool hasError() const;
  /// The last isl error as text ("isl: <message>"; a generic text when isl
  /// gave none) and clears it.
  std::string takeErrorMessage();

private:
  isl_ctx *ctx;
};

namespace detail {
template <typename T>
struct IslOps;
#define DIST_ISL_OPS(T)                                                        \
  template <>                                                                  \
  struct IslOps<T> {                                                           \
    static T *copy(T *p) { return T##_copy(p); }                               \
    static void free(T *p) { T##_free(p); }                                    \
    static char *toStr(T *p) { return T##_to_str(p); }                         \
  };
DIST_ISL_OPS(isl_val)
DIST_ISL_OPS(isl_space)
DIST_ISL_OPS(isl_point)
DIST_ISL_OPS(isl_basic_set)
DIST_ISL_OPS(isl_basic_map)
DIST_ISL_OPS(isl_set)
DIST_ISL_OPS(isl_map)
DIST_ISL_OPS(isl_union_set)
DIST_ISL_OPS(isl_union_map)
DIST_ISL_OPS(isl_aff)
DIST_ISL_OPS(isl_pw_aff)
DIST_ISL_OPS(isl_multi_aff)
DIST_ISL_OPS(isl_pw_multi_aff)
DIST_ISL_OPS(isl_multi_pw_aff)
#undef DIST_ISL_OPS
} // namespace detail

/// Owns one isl object of type T (null allowed).
template <typename T>
class IslPtr {
  using Ops = detail::IslOps<T>;

public:
  IslPtr() = default;
  /// Takes ownership of `p` (an __isl_give result).
  explicit IslPtr(T *p) : ptr(p) {}
  IslPtr(const IslPtr &other) : ptr(other.ptr ? Ops::copy(other.ptr) : nullptr) {}
  IslPtr(IslPtr &&other) : ptr(std::exchange(other.ptr, nullptr)) {}
  IslPtr &operator=(const IslPtr &other) {
    if (this != &other)
      reset(other.ptr ? Ops::copy(other.ptr) : nullptr);
    return *this;
  }
  IslPtr &operator=(IslPtr &&other) {
    if (this != &other)
      reset(std::exchange(other.ptr, nullptr));
    return *this;
  }
  ~IslPtr() { reset(nullptr); }

  /// The pointer, for __isl_keep arguments.
  T *get() const { return ptr; }
  /// A new reference, for __isl_take arguments.
  T *copy() const { return ptr ? Ops::copy(ptr) : nullptr; }
  /// Gives up ownership.
  T *release() { return std::exchange(ptr, nullptr); }
  /// Replaces the object by `p` (taking ownership).
  void reset(T *p) {
    if (ptr)
      Ops::free(ptr);
    ptr = p;
  }
  explicit operator bool() const { return ptr != nullptr; }

  /// isl's text form ("<null>" for a null object).
  std::string str() const {
    if (!ptr)
      return "<null>";
    char *s = Ops::toStr(ptr);
    if (!s)
      return "<null>";
    std::string result(s);
    ::free(s);
    return result;
  }

private:
  T *ptr = nullptr;
};

template <typename T>
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const IslPtr<T> &obj) {
  return os << obj.str();
}

using IslVal = IslPtr<isl_val>;
using IslSpace = IslPtr<isl_space>;
using IslPoint = IslPtr<isl_point>;
using IslBasicSet = IslPtr<isl_basic_set>;
using IslBasicMap = IslPtr<isl_basic_map>;
using IslSet = IslPtr<isl_set>;
using IslMap = IslPtr<isl_map>;
using IslUnionSet = IslPtr<isl_union_set>;
using IslUnionMap = IslPtr<isl_union_map>;
using IslAff = IslPtr<isl_aff>;
using IslPwAff = IslPtr<isl_pw_aff>;
using IslMultiAff = IslPtr<isl_multi_aff>;
using IslPwMultiAff = IslPtr<isl_pw_multi_aff>;
using IslMultiPwAff = IslPtr<isl_multi_pw_aff>;

/// Parses isl text; a null result means failure (see
/// IslContext::takeErrorMessage()).
IslSet islReadSet(IslContext &ctx, llvm::StringRef text);
IslMap islReadMap(IslContext &ctx, llvm::StringRef text);
IslPwMultiAff islReadPwMultiAff(IslContext &ctx, llvm::StringRef text);

/// The integer points of a bounded `set`, each as its coordinates, sorted
/// lexicographically. Returns std::nullopt when isl fails or the set has
/// more than `limit` points (it stops enumerating then).
std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
islSetPoints(const IslSet &set, int64_t limit);

/// Number of integer points of a bounded `set`, by enumeration; std::nullopt
/// when isl fails or there are more than `limit`.
std::optional<int64_t> islCountPoints(const IslSet &set, int64_t limit);

/// True/false for isl_bool results; std::nullopt for isl_bool_error.
std::optional<bool> islBool(isl_bool b);

} // namespace dist
} // namespace mlir

#endif // DISTTENSOR_ANALYSIS_ISL_H
