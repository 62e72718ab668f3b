/*
 * layout_desc.c - layout descriptors: parsing, the tile of a process (sizes,
 * shapes, local <-> global indices), deterministic fill, and the helpers the
 * exchanges (exchange.c), own-tile boxes (boxes.c) and the result check
 * (check.c) share; layout_internal.h declares them.
 *
 * parse_layout_as is the runtime's one descriptor parser: the tile
 * functions, the exchanges, the check, the tensor files and the balanced
 * redistribution steps (redist_plan.c, with LAYOUT_NO_SKEW / _NO_FIXED) all
 * read descriptors through it.
 *
 * A layout descriptor is the int64 array the compiler emits (its encoding,
 * the DISTRT_KIND_* and DISTRT_DESC_* names, is defined in distrt/abi.h):
 *   [ndims,
 *    per dimension d: n_d, kind_d, block_d, naxes_d, axes_d[0..naxes_d),
 *    nfixed, (axis, coord) * nfixed]
 * kind: 0 none (not partitioned), 1 blocked (blocks of ceil(n/Q)), 2 cyclic,
 * 3 block-cyclic(block); a skew mask in bits DISTRT_SKEW_SHIFT and up. The
 * processes of a dimension's mesh modes are
 * numbered q = c[a0] + P[a0] * (c[a1] + P[a1] * ...) (first mode fastest);
 * Q is their number. Grid axes used by no dimension and not fixed replicate
 * the tensor; fixed axes restrict the holders to one coordinate.
 */
#include "layout_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void parse_layout_as(const char *op, const distrt_grid *g,
                     const int64_t *desc, const char *which, int flags,
                     layout_t *L) {
  /* Message prefixes: "source layout ..." / "layout ..." and
   * "source layout: dimension ..." / "dimension ...". */
  char sp[40], pre[48];
  snprintf(sp, sizeof sp, "%s%s", which ? which : "", which ? " " : "");
  snprintf(pre, sizeof pre, "%s%s", which ? which : "",
           which ? " layout: " : "");
  if (!desc)
    distrt_fatal(op, "%slayout descriptor is NULL", sp);
  memset(L, 0, sizeof(*L));
  int64_t pos = DISTRT_DESC_NDIMS;
  L->ndims = desc[pos++];
  if (L->ndims < 0 || L->ndims > LMAX)
    distrt_fatal(op, "%slayout descriptor has %lld dimensions (at most %d)",
                 sp, (long long)L->ndims, LMAX);
  for (int64_t a = 0; a < g->ndims; ++a)
    L->role[a] = -1;
  for (int64_t d = 0; d < L->ndims; ++d) {
    const int64_t *dim = desc + pos; /* this dimension's record */
    int64_t field = dim[DISTRT_DESC_DIM_KIND];
    L->n[d] = dim[DISTRT_DESC_DIM_N];
    L->kind[d] = DISTRT_DESC_KIND_OF(field);
    L->skew[d] = DISTRT_DESC_SKEW_OF(field);
    L->block[d] = dim[DISTRT_DESC_DIM_BLOCK];
    L->naxes[d] = dim[DISTRT_DESC_DIM_NAXES];
    pos += DISTRT_DESC_DIM_AXES;
    if (L->n[d] < 1 || L->naxes[d] < 0 || L->naxes[d] > g->ndims)
      distrt_fatal(op, "malformed %slayout descriptor for dimension %lld", sp,
                   (long long)d);
    if ((flags & LAYOUT_NO_SKEW) && (field < 0 || field > DISTRT_KIND_LAST))
      /* The whole field: a skew mask makes it no balanced kind. */
      distrt_fatal(op,
                   "%sdimension %lld has partition kind %lld (skewed or "
                   "unknown); the balanced steps need blocked, cyclic, "
                   "block-cyclic or unpartitioned dimensions (use "
                   "distrt_redistribute)",
                   pre, (long long)d, (long long)field);
    if (L->kind[d] > DISTRT_KIND_LAST)
      distrt_fatal(op, "malformed %slayout descriptor for dimension %lld", sp,
                   (long long)d);
    if (L->skew[d] < 0 || L->skew[d] >= ((int64_t)1 << g->ndims))
      distrt_fatal(op, "%sdimension %lld is skewed by grid axes (mask %lld) "
                       "outside a grid of %lld axes",
                   pre, (long long)d, (long long)L->skew[d],
                   (long long)g->ndims);
    L->Q[d] = 1;
    for (int64_t i = 0; i < L->naxes[d]; ++i) {
      int64_t a = desc[pos++];
      if (a < 0 || a >= g->ndims || L->role[a] != -1)
        distrt_fatal(op,
                     "%slayout uses grid axis %lld, which is out of range for "
                     "a grid of %lld axes or used twice",
                     sp, (long long)a, (long long)g->ndims);
      L->axes[d][i] = a;
      L->role[a] = d;
      L->Q[d] *= g->dims[a];
    }
    if ((L->naxes[d] == 0) != (L->kind[d] == K_NONE))
      distrt_fatal(op, "%sdimension %lld: partition kind and mesh modes "
                       "disagree",
                   pre, (long long)d);
    switch (L->kind[d]) {
    case K_NONE:
      L->bsz[d] = L->n[d];
      break;
    case K_BLOCKED:
      L->bsz[d] = distrt_ceil_div(L->n[d], L->Q[d]);
      break;
    case K_CYCLIC:
      L->bsz[d] = 1;
      break;
    default:
      if (L->block[d] < 1)
        distrt_fatal(op, "%sblock-cyclic dimension %lld has block %lld (must "
                         "be at least 1)",
                     pre, (long long)d, (long long)L->block[d]);
      /* A block of the whole extent or more is one block held by the
       * first process: the same as a block of the extent. */
      L->bsz[d] = L->block[d] < L->n[d] ? L->block[d] : L->n[d];
    }
    int64_t cycle;
    if (L->kind[d] != K_NONE &&
        __builtin_mul_overflow(L->bsz[d], L->Q[d], &cycle))
      distrt_fatal(op,
                   "%sdimension %lld is dealt in blocks of %lld over "
                   "%lld processes: a cycle of blocks overflows 64-bit "
                   "indices",
                   pre, (long long)d, (long long)L->bsz[d], (long long)L->Q[d]);
  }
  int64_t elements = 1;
  for (int64_t d = 0; d < L->ndims; ++d)
    if (__builtin_mul_overflow(elements, L->n[d], &elements))
      distrt_fatal(op,
                   "%slayout describes a tensor whose element count "
                   "overflows 64 bits",
                   sp);
  L->nfixed = desc[pos++];
  if ((flags & LAYOUT_NO_FIXED) && L->nfixed != 0)
    distrt_fatal(op, "%slayout fixes grid axes; the balanced steps need "
                     "layouts without fixed axes (use distrt_redistribute)",
                 sp);
  if (L->nfixed < 0 || L->nfixed > g->ndims)
    distrt_fatal(op, "malformed %slayout descriptor (fixed axes)", sp);
  for (int64_t i = 0; i < L->nfixed; ++i) {
    L->faxis[i] = desc[pos + DISTRT_DESC_FIXED_AXIS];
    L->fcoord[i] = desc[pos + DISTRT_DESC_FIXED_COORD];
    pos += DISTRT_DESC_FIXED_FIELDS;
    int64_t a = L->faxis[i];
    if (a < 0 || a >= g->ndims || L->role[a] != -1)
      distrt_fatal(op, "%slayout fixes grid axis %lld, out of range or used",
                   sp, (long long)a);
    if (L->fcoord[i] < 0 || L->fcoord[i] >= g->dims[a])
      distrt_fatal(op,
                   "%slayout fixes grid axis %lld to %lld, outside 0..%lld",
                   sp, (long long)a, (long long)L->fcoord[i],
                   (long long)g->dims[a] - 1);
    L->role[a] = -2;
  }
  for (int64_t d = 0; d < L->ndims; ++d)
    for (int64_t a = 0; a < g->ndims; ++a)
      if ((L->skew[d] >> a) & 1) {
        int64_t r = L->role[a];
        if (r == d || (r >= 0 && L->skew[r]))
          distrt_fatal(op, "%sdimension %lld is skewed by grid axis %lld, "
                           "which partitions it or another skewed dimension",
                       pre, (long long)d, (long long)a);
      }
}

void parse_layout(const char *op, const distrt_grid *g, const int64_t *desc,
                  layout_t *L) {
  parse_layout_as(op, g, desc, NULL, 0, L);
}

int64_t tile_size_at(const distrt_grid *g, const layout_t *L,
                     const int64_t *c) {
  if (!is_holder(L, c))
    return 0;
  int64_t s = 1;
  for (int64_t d = 0; d < L->ndims; ++d)
    s *= local_extent(L, d, dim_q(g, L, d, c));
  return s;
}

int64_t distrt_layout_tile_size(distrt_grid *g, const int64_t *desc) {
  const char *op = "distrt_layout_tile_size";
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  return tile_size_at(g, &L, g->coords);
}

int64_t distrt_layout_tile_capacity(distrt_grid *g, const int64_t *desc) {
  const char *op = "distrt_layout_tile_capacity";
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  int64_t best = 1, c[LMAX];
  for (int64_t r = 0; r < g->size; ++r) {
    distrt_grid_coords_of(g, r, c);
    int64_t s = tile_size_at(g, &L, c);
    if (s > best)
      best = s;
  }
  return best;
}

/* Local extents and strides of this process's tile. */
void tile_shape(const distrt_grid *g, const layout_t *L, const int64_t *c,
                int64_t *ext, int64_t *stride) {
  for (int64_t d = 0; d < L->ndims; ++d)
    ext[d] = local_extent(L, d, dim_q(g, L, d, c));
  int64_t s = 1;
  for (int64_t d = L->ndims - 1; d >= 0; --d) {
    stride[d] = s;
    s *= ext[d];
  }
}

void distrt_layout_view(const char *op, distrt_grid *g, const int64_t *desc,
                        struct distrt_tile_view *v) {
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  memset(v, 0, sizeof(*v));
  v->ndims = L.ndims;
  v->elements = 1;
  for (int64_t d = 0; d < L.ndims; ++d) {
    v->n[d] = L.n[d];
    v->elements = distrt_mul(op, "the tensor's element count", v->elements,
                             L.n[d]);
    if (L.kind[d] == K_NONE) {
      v->p[d] = 1;
      v->c[d] = 0;
      v->b[d] = L.n[d];
    } else {
      v->p[d] = L.Q[d];
      v->c[d] = dim_q(g, &L, d, g->coords);
      v->b[d] = L.bsz[d];
    }
    v->ext[d] = local_extent(&L, d, dim_q(g, &L, d, g->coords));
  }
  v->size = tile_size_at(g, &L, g->coords);
  v->writer = v->size > 0;
  for (int64_t a = 0; a < g->ndims; ++a)
    if (L.role[a] == -1 && g->coords[a] != 0)
      v->writer = 0;
}

static void store_value(void *buf, int64_t i, int64_t dtype, double v) {
  switch (dtype) {
  case DISTRT_F32: ((float *)buf)[i] = (float)v; break;
  case DISTRT_F64: ((double *)buf)[i] = v; break;
  /* As distrt_fill: integers are floor(8 * value), in [-8, 8). */
  case DISTRT_I32: ((int32_t *)buf)[i] = (int32_t)floor(8.0 * v); break;
  default: ((int64_t *)buf)[i] = (int64_t)floor(8.0 * v); break;
  }
}

void distrt_layout_fill(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype, int64_t seed) {
  const char *op = "distrt_layout_fill";
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  if (!is_holder(&L, g->coords))
    return;
  int64_t ext[LMAX], stride[LMAX], total = 1;
  tile_shape(g, &L, g->coords, ext, stride);
  for (int64_t d = 0; d < L.ndims; ++d)
    total *= ext[d];
  if (total > 0)
    distrt_check_buf(op, "tile", tile, total);
  /* A device tile is filled in host scratch, then copied in. */
  void *h = distrt_stage_in(op, tile, total * es, 0);
  int64_t q[LMAX];
  for (int64_t d = 0; d < L.ndims; ++d)
    q[d] = dim_q(g, &L, d, g->coords);
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, linear = 0;
    for (int64_t d = 0; d < L.ndims; ++d) {
      int64_t l = rest / stride[d];
      rest %= stride[d];
      int64_t e = L.kind[d] == K_NONE
                      ? l
                      : distrt_local_to_global(l, L.Q[d], q[d], L.bsz[d]);
      linear = linear * L.n[d] + e;
    }
    store_value(h, i, dtype, distrt_value(seed, linear));
  }
  distrt_stage_out(op, tile, h, total * es, 1);
}

void distrt_layout_zero(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype) {
  const char *op = "distrt_layout_zero";
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  int64_t n = tile_size_at(g, &L, g->coords);
  if (n > 0) {
    distrt_check_buf(op, "tile", tile, n);
    if (distrt_is_device_ptr(tile))
      distrt_g.be->dev_memset(op, tile, n * es);
    else
      memset(tile, 0, (size_t)(n * es));
  }
}

/* ---- shared by the exchanges, own-tile boxes and the check -------------*/

/* The owner digits of process coordinates c, per dimension. */
void digits_of(const distrt_grid *g, const layout_t *L, const int64_t *c,
               int64_t *q) {
  for (int64_t d = 0; d < L->ndims; ++d)
    q[d] = L->kind[d] == K_NONE ? 0 : dim_q(g, L, d, c);
}

void *xmalloc(const char *op, int64_t bytes) {
  void *p = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!p)
    distrt_fatal(op, "cannot allocate %lld bytes for an exchange",
                 (long long)bytes);
  return p;
}

void check_box(const char *op, const layout_t *L, const int64_t *lo,
               const int64_t *size) {
  for (int64_t d = 0; d < L->ndims; ++d)
    if (size[d] < 0 || (size[d] > 0 && (lo[d] < 0 || lo[d] + size[d] > L->n[d])))
      distrt_fatal(op, "box [%lld, %lld) of dimension %lld is outside the "
                       "tensor's extent %lld",
                   (long long)lo[d], (long long)(lo[d] + size[d]),
                   (long long)d, (long long)L->n[d]);
}
