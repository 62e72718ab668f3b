/*
 * check.c - the result check of `--check` (distrt_check_result,
 * distrt_check_unchanged) on tensors described by layout descriptors
 * (layout_desc.c), and the timing report (distrt_report_time).
 */
#include "layout_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the result check (--check) ----------------------------------------*/

static double load_value(const void *buf, int64_t i, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32: return ((const float *)buf)[i];
  case DISTRT_F64: return ((const double *)buf)[i];
  case DISTRT_I32: return ((const int32_t *)buf)[i];
  default: return (double)((const int64_t *)buf)[i];
  }
}

/* This process's tile against the whole reference, with the measure of
 * distrt_max_rel_error: the largest |x - r|, whether some x, r or x - r is
 * NaN, and the first element (lowest global row-major index) whose
 * relative error |x - r| / den is not within tol, with its tile offset
 * (-1 if none). */
struct tile_compare {
  double maxdiff;
  int nan;
  int64_t first, first_off;
};

static void compare_tile(distrt_grid *g, const layout_t *L, const void *tile,
                         int64_t dtype, const void *ref, double den,
                         double tol, struct tile_compare *out) {
  out->maxdiff = 0.0;
  out->nan = 0;
  out->first = out->first_off = -1;
  int64_t size = tile_size_at(g, L, g->coords);
  if (size == 0)
    return; /* holds no part of the tensor */
  distrt_check_buf("distrt_check_result", "tile", tile, size);
  int64_t ext[LMAX], stride[LMAX], q[LMAX];
  tile_shape(g, L, g->coords, ext, stride);
  digits_of(g, L, g->coords, q);
  for (int64_t i = 0; i < size; ++i) {
    int64_t rest = i, linear = 0;
    for (int64_t d = 0; d < L->ndims; ++d) {
      int64_t l = rest / stride[d];
      rest %= stride[d];
      int64_t e = L->kind[d] == K_NONE
                      ? l
                      : distrt_local_to_global(l, L->Q[d], q[d], L->bsz[d]);
      linear = linear * L->n[d] + e;
    }
    double x = load_value(tile, i, dtype), r = load_value(ref, linear, dtype);
    double diff = fabs(x - r);
    int bad_nan = isnan(x) || isnan(r) || isnan(diff);
    out->nan |= bad_nan;
    if (diff > out->maxdiff)
      out->maxdiff = diff;
    double rel = bad_nan ? NAN : diff == 0.0 ? 0.0 : diff / den;
    if (!(rel <= tol) && (out->first < 0 || linear < out->first)) {
      out->first = linear;
      out->first_off = i;
    }
  }
}

static void format_float(char *buf, size_t size, const char *fmt, double v) {
  if (isnan(v))
    snprintf(buf, size, "nan");
  else
    snprintf(buf, size, fmt, v);
}

/* Rank 0 prints the first mismatching element of the lowest rank that has
 * one.  Collective over the grid. */
static void report_first_mismatch(const char *op, distrt_grid *g,
                                  const layout_t *L, const char *name,
                                  const void *tile, int64_t dtype,
                                  const void *ref,
                                  const struct tile_compare *c) {
  int64_t es = distrt_dtype_size(op, dtype);
  int64_t mine[2] = {c->first, 0}; /* global index, bits of the element */
  if (c->first >= 0)
    memcpy(&mine[1], (const char *)tile + c->first_off * es, (size_t)es);
  /* The lowest rank with a mismatch (a reduction, so nothing here grows
   * with the number of processes), then its element from that rank. */
  int64_t rank = c->first >= 0 ? g->rank : g->size;
  distrt_g.be->allreduce(op, g->icomm, &rank, 1, DISTRT_I64, DISTRT_MIN);
  if (rank < g->size)
    distrt_g.be->bcast(op, g->icomm, mine, 2, DISTRT_I64, rank);
  int64_t all[2] = {mine[0], mine[1]};
  if (g->rank == 0 && rank < g->size) {
    int64_t linear = all[0], e[LMAX];
    for (int64_t d = L->ndims - 1, rest = linear; d >= 0; --d) {
      e[d] = rest % L->n[d];
      rest /= L->n[d];
    }
    char where[LMAX * 24 + 4] = "(";
    for (int64_t d = 0; d < L->ndims; ++d)
      snprintf(where + strlen(where), sizeof where - strlen(where), "%s%lld",
               d ? "," : "", (long long)e[d]);
    strcat(where, ")");
    union {
      int64_t bits;
      double f64;
      float f32;
      int32_t i32;
    } got;
    got.bits = all[1];
    char gs[40], rs[40];
    switch (dtype) { /* NaN prints as "nan", whatever its sign */
    case DISTRT_F32:
      format_float(gs, sizeof gs, "%.9g", got.f32);
      format_float(rs, sizeof rs, "%.9g", ((const float *)ref)[linear]);
      break;
    case DISTRT_F64:
      format_float(gs, sizeof gs, "%.17g", got.f64);
      format_float(rs, sizeof rs, "%.17g", ((const double *)ref)[linear]);
      break;
    case DISTRT_I32:
      snprintf(gs, sizeof gs, "%d", (int)got.i32);
      snprintf(rs, sizeof rs, "%d", (int)((const int32_t *)ref)[linear]);
      break;
    default:
      snprintf(gs, sizeof gs, "%lld", (long long)got.bits);
      snprintf(rs, sizeof rs, "%lld", (long long)((const int64_t *)ref)[linear]);
    }
    printf("dist: check %s: first mismatch on rank %lld at element %s: got "
           "%s, expected %s\n",
           name, (long long)rank, where, gs, rs);
    fflush(stdout);
  }
}

/* Broadcast `count` elements from grid rank 0, in pieces the backend
 * accepts. */
static void bcast_all(const char *op, distrt_grid *g, void *buf,
                      int64_t count, int64_t dtype) {
  int64_t es = distrt_dtype_size(op, dtype), step = distrt_g.be->max_count;
  for (int64_t at = 0; at < count; at += step) {
    int64_t n = count - at < step ? count - at : step;
    distrt_g.be->bcast(op, g->icomm, (char *)buf + at * es, n, dtype, 0);
  }
}

/* distrt_check_result, and distrt_check_unchanged when `quiet` (which
 * prints only when the check fails). */
static int64_t check_host(const char *op, distrt_grid *g, const char *name,
                          const int64_t *desc, const void *tile, int64_t dtype,
                          const void *ref, double tol, int quiet) {
  distrt_require_init(op);
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  if (!name)
    name = "result";
  int64_t total = 1;
  for (int64_t d = 0; d < L.ndims; ++d)
    total = distrt_mul(op, "the tensor's element count", total, L.n[d]);
  distrt_mul(op, "the tensor's size in bytes", total, es);
  if (g->rank == 0)
    distrt_check_buf(op, "ref", ref, total);
  /* One gathered copy on rank 0, for the checksum. */
  void *global = g->rank == 0 ? xmalloc(op, total * es) : NULL;
  distrt_layout_gather(g, desc, tile, dtype, global, 0);
  /* Every rank compares every element of its own tile (all replicas) with
   * the whole reference, broadcast from rank 0. */
  void *whole = xmalloc(op, total * es);
  if (g->rank == 0)
    memcpy(whole, ref, (size_t)(total * es));
  bcast_all(op, g, whole, total, dtype);
  double maxref = 0.0;
  for (int64_t i = 0; i < total; ++i)
    if (fabs(load_value(whole, i, dtype)) > maxref)
      maxref = fabs(load_value(whole, i, dtype));
  double den = maxref > DBL_MIN ? maxref : DBL_MIN;
  struct tile_compare c;
  compare_tile(g, &L, tile, dtype, whole, den, tol, &c);
  double worst[2] = {c.maxdiff, c.nan ? 1.0 : 0.0};
  distrt_g.be->allreduce(op, g->icomm, worst, 2, DISTRT_F64, DISTRT_MAX);
  double err = worst[1] != 0.0 ? NAN
               : worst[0] == 0.0 ? 0.0
                                 : worst[0] / den;
  int64_t ok = err <= tol; /* false for NaN */
  if (!ok)
    report_first_mismatch(op, g, &L, name, tile, dtype, whole, &c);
  if (g->rank == 0 && (!quiet || !ok)) {
    /* FNV-1a over the gathered result's bytes: equal checksums mean
     * bitwise-equal results (the determinism tests compare them). */
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *bytes = (const unsigned char *)global;
    for (int64_t i = 0; i < total * es; ++i)
      h = (h ^ bytes[i]) * 1099511628211ULL;
    printf("dist: check %s: max relative error %.3e (tolerance %.1e) on %lld "
           "rank(s): %s (checksum %016llx)\n",
           name, err, tol, (long long)g->size, ok ? "PASS" : "FAIL",
           (unsigned long long)h);
    fflush(stdout);
  }
  free(global);
  free(whole);
  if (!ok)
    distrt_g.checks_failed++;
  return ok;
}

/* check_host on a host copy of a device tile (device_stage.c). */
static int64_t check_against(const char *op, distrt_grid *g, const char *name,
                             const int64_t *desc, const void *tile,
                             int64_t dtype, const void *ref, double tol,
                             int quiet) {
  distrt_require_init(op);
  void *h = distrt_stage_tile_in(op, g, desc, tile, dtype, 1);
  int64_t ok = check_host(op, g, name, desc, h, dtype, ref, tol, quiet);
  distrt_stage_tile_out(op, g, desc, (void *)(uintptr_t)tile, h, dtype, 0);
  return ok;
}

int64_t distrt_check_result(distrt_grid *g, const char *name,
                            const int64_t *desc, const void *tile,
                            int64_t dtype, const void *ref, double tol) {
  return check_against("distrt_check_result", g, name, desc, tile, dtype, ref,
                       tol, 0);
}

int64_t distrt_check_unchanged(distrt_grid *g, const char *name,
                               const int64_t *desc, const void *tile,
                               int64_t dtype, const void *ref, double tol) {
  return check_against("distrt_check_unchanged", g, name, desc, tile, dtype,
                       ref, tol, 1);
}

void distrt_report_time(distrt_grid *g, const char *name, double seconds) {
  distrt_profile_kernel_end();
  const char *op = "distrt_report_time";
  distrt_grid_check(op, g);
  double t[1] = {seconds};
  distrt_g.be->allreduce(op, g->icomm, t, 1, DISTRT_F64, DISTRT_MAX);
  if (g->rank == 0) {
    printf("dist: time %s: %.6f s on %lld rank(s)\n", name ? name : "kernel",
           t[0], (long long)g->size);
    /* Flushed at most every 2 s (and at exit, distrt_finalize and any
     * fatal error), into the 4 MiB buffer distrt_init gives stdout
     * (core.c): a write into mpirun's output forwarding wakes it between
     * the calls being timed, which on a machine with as many cores as
     * ranks lands in the next calls. */
    static double last_flush = -1;
    double now = distrt_wtime();
    if (last_flush < 0 || now - last_flush >= 2.0) {
      fflush(stdout);
      last_flush = now;
    }
  }
  distrt_profile_call_report(op, g, name);
}
