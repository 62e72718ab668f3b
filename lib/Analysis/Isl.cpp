//===- Isl.cpp - small RAII wrappers around isl's C API ---------*- C++ -*-===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
//===----------------------------------------------------------------------===//

#include "DistTensor/Analysis/Isl.h"

#include "llvm/ADT/STLExtras.h"

#include <isl/options.h>

using namespace mlir;
using namespace mlir::dist;

IslContext::IslContext() : ctx(isl_ctx_alloc()) {
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() { isl_ctx_free(ctx); }

bool IslContext::hasError() const {
  return isl_ctx_last_error(ctx) != isl_error_none;
}

std::string IslContext::takeErrorMessage() {
  std::string message = "isl: ";
  const char *msg = isl_ctx_last_error_msg(ctx);
  if (msg && *msg)
    message += msg;
  else if (isl_ctx_last_error(ctx) == isl_error_quota)
    message += "operation limit exceeded";
  else
    message += "internal error";
  isl_ctx_reset_error(ctx);
  return message;
}

IslSet mlir::dist::islReadSet(IslContext &ctx, llvm::StringRef text) {
  std::string s = text.str();
  return IslSet(isl_set_read_from_str(ctx.get(), s.c_str()));
}

IslMap mlir::dist::islReadMap(IslContext &ctx, llvm::StringRef text) {
  std::string s = text.str();
  return IslMap(isl_map_read_from_str(ctx.get(), s.c_str()));
}

IslPwMultiAff mlir::dist::islReadPwMultiAff(IslContext &ctx,
                                            llvm::StringRef text) {
  std::string s = text.str();
  return IslPwMultiAff(isl_pw_multi_aff_read_from_str(ctx.get(), s.c_str()));
}

std::optional<bool> mlir::dist::islBool(isl_bool b) {
  if (b == isl_bool_error)
    return std::nullopt;
  return b == isl_bool_true;
}

namespace {
struct PointCollector {
  llvm::SmallVector<llvm::SmallVector<int64_t>> points;
  int64_t limit = 0;
  int64_t count = 0;
  bool collect = true;
  bool failed = false;
  bool tooMany = false;
};
} // namespace

static isl_stat collectPoint(isl_point *pnt, void *user) {
  auto *c = static_cast<PointCollector *>(user);
  IslPoint point(pnt);
  if (++c->count > c->limit) {
    c->tooMany = true;
    return isl_stat_error;
  }
  if (!c->collect)
    return isl_stat_ok;
  IslSpace space(isl_point_get_space(point.get()));
  isl_size n = isl_space_dim(space.get(), isl_dim_set);
  if (n < 0) {
    c->failed = true;
    return isl_stat_error;
  }
  llvm::SmallVector<int64_t> coords;
  for (isl_size i = 0; i < n; ++i) {
    IslVal v(isl_point_get_coordinate_val(point.get(), isl_dim_set, i));
    if (!v || !isl_val_is_int(v.get())) {
      c->failed = true;
      return isl_stat_error;
    }
    coords.push_back(isl_val_get_num_si(v.get()));
  }
  c->points.push_back(std::move(coords));
  return isl_stat_ok;
}

std::optional<llvm::SmallVector<llvm::SmallVector<int64_t>>>
mlir::dist::islSetPoints(const IslSet &set, int64_t limit) {
  if (!set)
    return std::nullopt;
  PointCollector c;
  c.limit = limit;
  if (isl_set_foreach_point(set.get(), collectPoint, &c) != isl_stat_ok ||
      c.failed || c.tooMany)
    return std::nullopt;
  llvm::sort(c.points);
  return std::move(c.points);
}

std::optional<int64_t> mlir::dist::islCountPoints(const IslSet &set,
                                                  int64_t limit) {
  if (!set)
    return std::nullopt;
  PointCollector c;
  c.limit = limit;
  c.collect = false;
  if (isl_set_foreach_point(set.get(), collectPoint, &c) != isl_stat_ok ||
      c.failed || c.tooMany)
    return std::nullopt;
  return c.count;
}
