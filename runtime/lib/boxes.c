/*
 * boxes.c - boxes of a tensor described by a layout descriptor
 * (layout_desc.c) that lie inside this process's own tile: copy out, add
 * in, and whether a box is one contiguous run of the tile.  No
 * communication.
 */
#include "layout_internal.h"

#include <stdint.h>
#include <string.h>

/* ---- boxes inside this process's own tile ------------------------------*/

/* Fatal unless this process holds every element of the box. */
static void require_own_box(const char *op, const distrt_grid *g,
                            const layout_t *L, const int64_t *lo,
                            const int64_t *size) {
  if (!is_holder(L, g->coords))
    distrt_fatal(op, "this process holds no part of the tensor");
  for (int64_t d = 0; d < L->ndims; ++d) {
    if (L->kind[d] == K_NONE || size[d] == 0)
      continue;
    int64_t q = dim_q(g, L, d, g->coords);
    for (int64_t e = lo[d]; e < lo[d] + size[d]; ++e)
      if (owner_q(L, d, e) != q)
        distrt_fatal(op, "index %lld of dimension %lld is not in this "
                         "process's tile",
                     (long long)e, (long long)d);
  }
}

/* Calls BODY(i, off) for the i-th element (row-major) of the box and its
 * offset in the tile. */
#define FOR_OWN_BOX(L, lo, size, stride, i, off, BODY)                         \
  do {                                                                         \
    int64_t _vol = box_volume((L), (size));                                    \
    int64_t _e[LMAX];                                                          \
    for (int64_t i = 0; i < _vol; ++i) {                                       \
      int64_t _rest = i;                                                       \
      for (int64_t _d = (L)->ndims - 1; _d >= 0; --_d) {                       \
        _e[_d] = (lo)[_d] + _rest % (size)[_d];                                \
        _rest /= (size)[_d];                                                   \
      }                                                                        \
      int64_t off = tile_offset((L), (stride), _e);                            \
      BODY;                                                                    \
    }                                                                          \
  } while (0)

/* Whether the last dimension's local indices are contiguous (blocked or
 * not partitioned), so a box row is one run in the tile. */
static int last_dim_contiguous(const layout_t *L) {
  if (L->ndims == 0)
    return 0;
  int64_t k = L->kind[L->ndims - 1];
  return k == K_NONE || k == K_BLOCKED;
}

/* Tile offset of the first element of row r (row-major over all but the
 * last dimension) of the box (lo, size). */
static int64_t row_offset(const layout_t *L, const int64_t *stride,
                          const int64_t *lo, const int64_t *size, int64_t r) {
  int64_t e[LMAX];
  e[L->ndims - 1] = lo[L->ndims - 1];
  for (int64_t d = L->ndims - 2; d >= 0; --d) {
    e[d] = lo[d] + r % size[d];
    r /= size[d];
  }
  return tile_offset(L, stride, e);
}

/* dst[i] += src[i] for a run of n elements. */
void add_row(void *dst, const void *src, int64_t n, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32: {
    float *d = dst;
    const float *x = src;
    for (int64_t i = 0; i < n; ++i)
      d[i] += x[i];
    break;
  }
  case DISTRT_F64: {
    double *d = dst;
    const double *x = src;
    for (int64_t i = 0; i < n; ++i)
      d[i] += x[i];
    break;
  }
  case DISTRT_I32: {
    int32_t *d = dst;
    const int32_t *x = src;
    for (int64_t i = 0; i < n; ++i)
      d[i] += x[i];
    break;
  }
  default: {
    int64_t *d = dst;
    const int64_t *x = src;
    for (int64_t i = 0; i < n; ++i)
      d[i] += x[i];
  }
  }
}

static void add_into(void *dst, const void *src, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32: *(float *)dst += *(const float *)src; break;
  case DISTRT_F64: *(double *)dst += *(const double *)src; break;
  case DISTRT_I32: *(int32_t *)dst += *(const int32_t *)src; break;
  default: *(int64_t *)dst += *(const int64_t *)src; break;
  }
}

/* The host loops: copy the box out of the tile, or add it into the tile. */
static void copy_host(const layout_t *L, const int64_t *stride,
                      const int64_t *lo, const int64_t *size, int64_t es,
                      const char *tile, char *out) {
  if (last_dim_contiguous(L)) {
    /* Whole rows: the last dimension is contiguous in tile and box. */
    int64_t n = size[L->ndims - 1];
    int64_t rows = box_volume(L, size) / n;
    for (int64_t r = 0; r < rows; ++r)
      memcpy(out + r * n * es, tile + row_offset(L, stride, lo, size, r) * es,
             (size_t)(n * es));
    return;
  }
  FOR_OWN_BOX(L, lo, size, stride, i, off,
              { memcpy(out + i * es, tile + off * es, (size_t)es); });
}

static void add_host(const layout_t *L, const int64_t *stride,
                     const int64_t *lo, const int64_t *size, int64_t es,
                     int64_t dtype, char *tile, const char *in) {
  if (last_dim_contiguous(L)) {
    int64_t n = size[L->ndims - 1];
    int64_t rows = box_volume(L, size) / n;
    for (int64_t r = 0; r < rows; ++r)
      add_row(tile + row_offset(L, stride, lo, size, r) * es, in + r * n * es,
              n, dtype);
    return;
  }
  FOR_OWN_BOX(L, lo, size, stride, i, off,
              { add_into(tile + off * es, in + i * es, dtype); });
}

/* Device tiles (last dimension contiguous): the box's rows as strided 2-D
 * runs, consecutive rows of one slab (one index of the dimensions before
 * the last two) whose tile offsets are equally spaced; one dev_copy2d
 * (tile to buf) or dev_geam (buf added into the tile) per run, queued on
 * the backend's stream.  The number of runs is bounded by the box's rows. */
static void device_runs(const char *op, const layout_t *L,
                        const int64_t *stride, const int64_t *lo,
                        const int64_t *size, int64_t es, int64_t dtype,
                        char *tile, char *buf, int add) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t n = size[L->ndims - 1];
  int64_t rows = box_volume(L, size) / n;
  int64_t slab = L->ndims >= 2 ? size[L->ndims - 2] : 1;
  for (int64_t r = 0; r < rows;) {
    int64_t off = row_offset(L, stride, lo, size, r), pitch = n, h = 1;
    if (r + 1 < rows && (r + 1) % slab != 0) {
      pitch = row_offset(L, stride, lo, size, r + 1) - off;
      while (pitch >= n && r + h < rows && (r + h) % slab != 0 &&
             row_offset(L, stride, lo, size, r + h) == off + h * pitch)
        ++h;
      if (pitch < n) { /* not a 2-D run: one row */
        pitch = n;
        h = 1;
      }
    }
    char *t = tile + off * es, *b = buf + r * n * es;
    if (add)
      be->dev_geam(op, dtype, h, n, b, n, t, pitch);
    else
      be->dev_copy2d(op, b, n * es, t, pitch * es, n * es, h);
    r += h;
  }
}

static void copy_box_local_impl(distrt_grid *g, const int64_t *desc,
                                const void *tile, int64_t dtype,
                                const int64_t *lo, const int64_t *size,
                                void *out) {
  const char *op = "distrt_copy_box_local";
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  check_box(op, &L, lo, size);
  if (box_volume(&L, size) == 0)
    return;
  require_own_box(op, g, &L, lo, size);
  int64_t ext[LMAX], stride[LMAX];
  tile_shape(g, &L, g->coords, ext, stride);
  int dt = distrt_is_device_ptr(tile), dout = distrt_is_device_ptr(out);
  if (!dt && !dout) {
    copy_host(&L, stride, lo, size, es, (const char *)tile, (char *)out);
  } else if (last_dim_contiguous(&L)) {
    device_runs(op, &L, stride, lo, size, es, dtype, (char *)(uintptr_t)tile,
                (char *)out, 0);
    if (!dt || !dout) /* a host side is read or written when the copy runs */
      distrt_g.be->dev_sync(op);
  } else { /* a cyclic last dimension: staged through the host */
    int64_t tb = tile_size_at(g, &L, g->coords) * es;
    int64_t ob = box_volume(&L, size) * es;
    char *ht = (char *)distrt_stage_in(op, tile, tb, 1);
    char *ho = (char *)distrt_stage_in(op, out, ob, 0);
    copy_host(&L, stride, lo, size, es, ht, ho);
    distrt_stage_out(op, out, ho, ob, 1);
    distrt_stage_out(op, (void *)(uintptr_t)tile, ht, tb, 0);
  }
}

static void add_box_local_impl(distrt_grid *g, const int64_t *desc, void *tile,
                               int64_t dtype, const int64_t *lo,
                               const int64_t *size, const void *in) {
  const char *op = "distrt_add_box_local";
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  check_box(op, &L, lo, size);
  if (box_volume(&L, size) == 0)
    return;
  require_own_box(op, g, &L, lo, size);
  int64_t ext[LMAX], stride[LMAX];
  tile_shape(g, &L, g->coords, ext, stride);
  int dt = distrt_is_device_ptr(tile), din = distrt_is_device_ptr(in);
  if (!dt && !din) {
    add_host(&L, stride, lo, size, es, dtype, (char *)tile, (const char *)in);
  } else if (dt && din && last_dim_contiguous(&L) &&
             (dtype == DISTRT_F32 || dtype == DISTRT_F64)) {
    device_runs(op, &L, stride, lo, size, es, dtype, (char *)tile,
                (char *)(uintptr_t)in, 1);
  } else { /* cyclic last dimension, integers, or one side on the host */
    int64_t tb = tile_size_at(g, &L, g->coords) * es;
    int64_t ib = box_volume(&L, size) * es;
    char *ht = (char *)distrt_stage_in(op, tile, tb, 1);
    char *hi = (char *)distrt_stage_in(op, in, ib, 1);
    add_host(&L, stride, lo, size, es, dtype, ht, hi);
    distrt_stage_out(op, (void *)(uintptr_t)in, hi, ib, 0);
    distrt_stage_out(op, tile, ht, tb, 1);
  }
}

/* ---- boxes that are the whole tile ------------------------------------*/

int64_t distrt_box_in_tile(distrt_grid *g, const int64_t *desc,
                           const int64_t *lo, const int64_t *size) {
  const char *op = "distrt_box_in_tile";
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  check_box(op, &L, lo, size);
  if (L.ndims == 0 || box_volume(&L, size) == 0 || !is_holder(&L, g->coords))
    return -1;
  int64_t ext[LMAX], stride[LMAX];
  tile_shape(g, &L, g->coords, ext, stride);
  /* Row-major contiguity: dimensions after the first partial one are whole,
   * dimensions before it hold a single index. */
  int64_t partial = -1;
  for (int64_t d = 0; d < L.ndims; ++d) {
    if (partial >= 0 && size[d] != ext[d])
      return -1;
    if (partial < 0 && size[d] != ext[d]) {
      partial = d;
      continue;
    }
  }
  for (int64_t d = 0; d < partial; ++d)
    if (size[d] != 1)
      partial = -2;
  if (partial == -2)
    return -1;
  for (int64_t d = 0; d < L.ndims; ++d) {
    if (L.kind[d] == K_NONE)
      continue; /* lo .. lo + size - 1 are the local indices */
    int64_t last = lo[d] + size[d] - 1;
    /* One run of indices this process owns, consecutive in the tile:
     * inside one block, or every index owned (one part). */
    if (L.Q[d] != 1 && lo[d] / L.bsz[d] != last / L.bsz[d])
      return -1;
    if (owner_q(&L, d, lo[d]) != dim_q(g, &L, d, g->coords))
      return -1;
    if (size[d] == ext[d] && local_of(&L, d, lo[d]) != 0)
      return -1;
  }
  return tile_offset(&L, stride, lo);
}

/* ---- profiled entry points (profile.c: packing) ------------------------*/

void distrt_copy_box_local(distrt_grid *g, const int64_t *desc,
                           const void *tile, int64_t dtype, const int64_t *lo,
                           const int64_t *size, void *out) {
  distrt_profile_enter(DISTRT_PROF_PACK);
  copy_box_local_impl(g, desc, tile, dtype, lo, size, out);
  distrt_profile_leave();
}

void distrt_add_box_local(distrt_grid *g, const int64_t *desc, void *tile,
                          int64_t dtype, const int64_t *lo,
                          const int64_t *size, const void *in) {
  distrt_profile_enter(DISTRT_PROF_PACK);
  add_box_local_impl(g, desc, tile, dtype, lo, size, in);
  distrt_profile_leave();
}
