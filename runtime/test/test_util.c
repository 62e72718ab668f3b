#include "test_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog;
static distrt_grid *world;
static int64_t rank_, size_;
static int64_t section_failures, total_failures, sections;

void tu_init(const char *program) {
  prog = program;
  distrt_init();
  rank_ = distrt_world_rank();
  size_ = distrt_world_size();
  world = distrt_grid_create1(size_);
}

int64_t tu_rank(void) { return rank_; }
int64_t tu_size(void) { return size_; }
distrt_grid *tu_world(void) { return world; }

int tu_expect(int ok, const char *file, int line, const char *fmt, ...) {
  if (ok)
    return 1;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *base = strrchr(file, '/');
  printf("FAIL rank %lld: %s:%d: %s\n", (long long)rank_,
         base ? base + 1 : file, line, msg);
  fflush(stdout);
  ++section_failures;
  return 0;
}

int tu_section(const char *fmt, ...) {
  char name[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  int64_t f = section_failures;
  distrt_allreduce(world, 1, &f, 1, DISTRT_I64, DISTRT_SUM);
  /* If the allreduce itself were broken, local failures still count. */
  if (f < section_failures)
    f = section_failures;
  if (rank_ == 0) {
    if (f == 0)
      printf("PASS %s\n", name);
    else
      printf("FAIL %s (%lld failed checks)\n", name, (long long)f);
    fflush(stdout);
  }
  total_failures += section_failures;
  section_failures = 0;
  ++sections;
  return f == 0;
}

int tu_finish(void) {
  int64_t f = total_failures + section_failures;
  distrt_allreduce(world, 1, &f, 1, DISTRT_I64, DISTRT_SUM);
  if (rank_ == 0) {
    printf("%s: %lld rank%s: %lld sections, %s\n", prog, (long long)size_,
           size_ == 1 ? "" : "s", (long long)sections,
           f ? "FAILED" : "DONE");
    fflush(stdout);
  }
  distrt_finalize();
  return f ? 1 : 0;
}

void tu_coords(int64_t ndims, const int64_t *dims, int64_t rank,
               int64_t *coords) {
  /* Row-major: the last axis varies fastest.  Computed with divisions by
   * the products of the trailing extents (not the same loop as distrt). */
  for (int64_t i = 0; i < ndims; ++i) {
    int64_t stride = 1;
    for (int64_t j = i + 1; j < ndims; ++j)
      stride *= dims[j];
    coords[i] = (rank / stride) % dims[i];
  }
}

int64_t tu_members(int64_t ndims, const int64_t *dims, int64_t rank,
                   int64_t axes, int64_t *out) {
  int64_t total = 1;
  for (int64_t i = 0; i < ndims; ++i)
    total *= dims[i];
  int64_t mine[16], other[16];
  tu_coords(ndims, dims, rank, mine);
  int64_t n = 0;
  for (int64_t r = 0; r < total; ++r) {
    tu_coords(ndims, dims, r, other);
    int same = 1;
    for (int64_t i = 0; i < ndims; ++i)
      if (!(axes & ((int64_t)1 << i)) && other[i] != mine[i])
        same = 0;
    if (same)
      out[n++] = r;
  }
  return n;
}

double tu_get(const void *buf, int64_t dtype, int64_t i) {
  switch (dtype) {
  case DISTRT_F32:
    return ((const float *)buf)[i];
  case DISTRT_F64:
    return ((const double *)buf)[i];
  case DISTRT_I32:
    return ((const int32_t *)buf)[i];
  default:
    return (double)((const int64_t *)buf)[i];
  }
}

void tu_set(void *buf, int64_t dtype, int64_t i, double v) {
  switch (dtype) {
  case DISTRT_F32:
    ((float *)buf)[i] = (float)v;
    break;
  case DISTRT_F64:
    ((double *)buf)[i] = v;
    break;
  case DISTRT_I32:
    ((int32_t *)buf)[i] = (int32_t)v;
    break;
  default:
    ((int64_t *)buf)[i] = (int64_t)v;
    break;
  }
}

int64_t tu_esize(int64_t dtype) {
  return dtype == DISTRT_F32 || dtype == DISTRT_I32 ? 4 : 8;
}

const char *tu_dtype_name(int64_t dtype) {
  static const char *names[] = {"f32", "f64", "i32", "i64"};
  return dtype >= 0 && dtype < 4 ? names[dtype] : "?";
}
