/*
 * layout.c - distributed tensors described by layout descriptors: tiles,
 * deterministic fill, and the general exchanges the compiler uses (fetch a
 * box, accumulate a box into the owners, redistribute, gather).
 *
 * A layout descriptor is the int64 array the compiler emits:
 *   [ndims,
 *    per dimension d: n_d, kind_d, block_d, naxes_d, axes_d[0..naxes_d),
 *    nfixed, (axis, coord) * nfixed]
 * kind: 0 none (not partitioned), 1 blocked (blocks of ceil(n/Q)), 2 cyclic,
 * 3 block-cyclic(block). The processes of a dimension's mesh modes are
 * numbered q = c[a0] + P[a0] * (c[a1] + P[a1] * ...) (first mode fastest);
 * Q is their number. Grid axes used by no dimension and not fixed replicate
 * the tensor; fixed axes restrict the holders to one coordinate.
 *
 * Every exchange decides who provides an element without communication:
 * for a requester with coordinates r, the provider of element e has e's
 * owner digits on the partitioned axes, the fixed coordinates on fixed axes
 * and r's own coordinates on replicated axes, so data a process holds is
 * never sent to it. Messages are packed per peer in row-major element order
 * and exchanged with one all-to-all-v; both sides derive the order from the
 * (allgathered) boxes, so no indices travel.
 */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LMAX DISTRT_MAX_DIMS

typedef struct {
  int64_t ndims;
  int64_t n[LMAX], kind[LMAX], block[LMAX], naxes[LMAX], axes[LMAX][LMAX];
  int64_t Q[LMAX];     /* processes over which the dimension is dealt */
  int64_t bsz[LMAX];   /* effective block size */
  int64_t nfixed, faxis[LMAX], fcoord[LMAX];
  int64_t role[LMAX];  /* per grid axis: -1 replicated, -2 fixed, d: dim d */
  int64_t skew[LMAX];  /* per dimension: mask of grid axes rotating owners */
} layout_t;

enum { K_NONE = 0, K_BLOCKED = 1, K_CYCLIC = 2, K_BLOCK_CYCLIC = 3 };

static void parse_layout(const char *op, const distrt_grid *g,
                         const int64_t *desc, layout_t *L) {
  if (!desc)
    distrt_fatal(op, "layout descriptor is NULL");
  memset(L, 0, sizeof(*L));
  int64_t pos = 0;
  L->ndims = desc[pos++];
  if (L->ndims < 0 || L->ndims > LMAX)
    distrt_fatal(op, "layout descriptor has %lld dimensions (at most %d)",
                 (long long)L->ndims, LMAX);
  for (int64_t a = 0; a < g->ndims; ++a)
    L->role[a] = -1;
  for (int64_t d = 0; d < L->ndims; ++d) {
    L->n[d] = desc[pos++];
    L->kind[d] = desc[pos] & 0xff;
    L->skew[d] = desc[pos++] >> 8;
    L->block[d] = desc[pos++];
    if (L->skew[d] < 0 || L->skew[d] >= ((int64_t)1 << g->ndims))
      distrt_fatal(op, "dimension %lld is skewed by grid axes (mask %lld) "
                       "outside a grid of %lld axes",
                   (long long)d, (long long)L->skew[d], (long long)g->ndims);
    L->naxes[d] = desc[pos++];
    if (L->n[d] < 1 || L->kind[d] < 0 || L->kind[d] > 3 ||
        L->naxes[d] < 0 || L->naxes[d] > g->ndims)
      distrt_fatal(op, "malformed layout descriptor for dimension %lld",
                   (long long)d);
    L->Q[d] = 1;
    for (int64_t i = 0; i < L->naxes[d]; ++i) {
      int64_t a = desc[pos++];
      if (a < 0 || a >= g->ndims || L->role[a] != -1)
        distrt_fatal(op,
                     "layout uses grid axis %lld, which is out of range for "
                     "a grid of %lld axes or used twice",
                     (long long)a, (long long)g->ndims);
      L->axes[d][i] = a;
      L->role[a] = d;
      L->Q[d] *= g->dims[a];
    }
    if ((L->naxes[d] == 0) != (L->kind[d] == K_NONE))
      distrt_fatal(op, "dimension %lld: partition kind and mesh modes "
                       "disagree", (long long)d);
    switch (L->kind[d]) {
    case K_NONE:
      L->bsz[d] = L->n[d];
      break;
    case K_BLOCKED:
      L->bsz[d] = (L->n[d] + L->Q[d] - 1) / L->Q[d];
      break;
    case K_CYCLIC:
      L->bsz[d] = 1;
      break;
    default:
      if (L->block[d] < 1)
        distrt_fatal(op, "block-cyclic dimension %lld has block %lld",
                     (long long)d, (long long)L->block[d]);
      L->bsz[d] = L->block[d];
    }
  }
  L->nfixed = desc[pos++];
  if (L->nfixed < 0 || L->nfixed > g->ndims)
    distrt_fatal(op, "malformed layout descriptor (fixed axes)");
  for (int64_t i = 0; i < L->nfixed; ++i) {
    L->faxis[i] = desc[pos++];
    L->fcoord[i] = desc[pos++];
    int64_t a = L->faxis[i];
    if (a < 0 || a >= g->ndims || L->role[a] != -1)
      distrt_fatal(op, "layout fixes grid axis %lld, out of range or used",
                   (long long)a);
    if (L->fcoord[i] < 0 || L->fcoord[i] >= g->dims[a])
      distrt_fatal(op, "layout fixes grid axis %lld to %lld, outside 0..%lld",
                   (long long)a, (long long)L->fcoord[i],
                   (long long)g->dims[a] - 1);
    L->role[a] = -2;
  }
  for (int64_t d = 0; d < L->ndims; ++d)
    for (int64_t a = 0; a < g->ndims; ++a)
      if ((L->skew[d] >> a) & 1) {
        int64_t r = L->role[a];
        if (r == d || (r >= 0 && L->skew[r]))
          distrt_fatal(op, "dimension %lld is skewed by grid axis %lld, which "
                           "partitions it or another skewed dimension",
                       (long long)d, (long long)a);
      }
}

/* Linear index q of coordinates c among the mesh modes of dimension d. */
static int64_t dim_q(const distrt_grid *g, const layout_t *L, int64_t d,
                     const int64_t *c) {
  int64_t q = 0;
  for (int64_t i = L->naxes[d] - 1; i >= 0; --i) {
    int64_t a = L->axes[d][i];
    q = q * g->dims[a] + c[a];
  }
  if (L->skew[d]) {
    for (int64_t a = 0; a < g->ndims; ++a)
      if ((L->skew[d] >> a) & 1)
        q += c[a];
    q %= L->Q[d];
  }
  return q;
}

/* Owner index q of global index e in dimension d (partitioned dims). */
static int64_t owner_q(const layout_t *L, int64_t d, int64_t e) {
  return (e / L->bsz[d]) % L->Q[d];
}

static int64_t local_of(const layout_t *L, int64_t d, int64_t e) {
  if (L->kind[d] == K_NONE)
    return e;
  int64_t b = L->bsz[d];
  return (e / (b * L->Q[d])) * b + e % b;
}

static int64_t local_extent(const layout_t *L, int64_t d, int64_t q) {
  if (L->kind[d] == K_NONE)
    return L->n[d];
  int64_t b = L->bsz[d], Q = L->Q[d], n = L->n[d];
  int64_t full = (n / (b * Q)) * b;
  int64_t rem = n % (b * Q) - q * b;
  if (rem < 0)
    rem = 0;
  if (rem > b)
    rem = b;
  return full + rem;
}

/* Whether process coordinates c hold data (fixed axes match). */
static int is_holder(const layout_t *L, const int64_t *c) {
  for (int64_t i = 0; i < L->nfixed; ++i)
    if (c[L->faxis[i]] != L->fcoord[i])
      return 0;
  return 1;
}

static int64_t tile_size_at(const distrt_grid *g, const layout_t *L,
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
static void tile_shape(const distrt_grid *g, const layout_t *L,
                       const int64_t *c, int64_t *ext, int64_t *stride) {
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
  distrt_dtype_size(op, dtype);
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
    store_value(tile, i, dtype, distrt_value(seed, linear));
  }
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
    memset(tile, 0, (size_t)(n * es));
  }
}

/* ---- general exchange ---------------------------------------------------*/

/* The elements of box (lo, size) whose dimension-d index has owner digit q
 * on dimension d (all of them for unpartitioned dims), as per-dimension
 * index lists; returns the number of elements of the product. */
typedef struct {
  int64_t *idx[LMAX];
  int64_t cnt[LMAX];
} sel_t;

static int64_t select_box(const layout_t *L, const int64_t *lo,
                          const int64_t *size, const int64_t *qwant,
                          sel_t *s) {
  int64_t total = 1;
  for (int64_t d = 0; d < L->ndims; ++d) {
    s->idx[d] = malloc(sizeof(int64_t) * (size[d] > 0 ? size[d] : 1));
    if (!s->idx[d])
      distrt_fatal("distrt exchange", "out of memory for an index list of "
                                      "%lld entries", (long long)size[d]);
    s->cnt[d] = 0;
    for (int64_t e = lo[d]; e < lo[d] + size[d]; ++e)
      if (L->kind[d] == K_NONE || owner_q(L, d, e) == qwant[d])
        s->idx[d][s->cnt[d]++] = e;
    total *= s->cnt[d];
  }
  return total;
}

static void select_free(const layout_t *L, sel_t *s) {
  for (int64_t d = 0; d < L->ndims; ++d)
    free(s->idx[d]);
}

/* Every element of the box (lo, size), as a selection. */
static int64_t select_all(const layout_t *L, const int64_t *lo,
                          const int64_t *size, sel_t *s) {
  int64_t total = 1;
  for (int64_t d = 0; d < L->ndims; ++d) {
    s->idx[d] = malloc(sizeof(int64_t) * (size[d] > 0 ? size[d] : 1));
    if (!s->idx[d])
      distrt_fatal("distrt exchange", "out of memory for an index list of "
                                      "%lld entries", (long long)size[d]);
    s->cnt[d] = size[d];
    for (int64_t i = 0; i < size[d]; ++i)
      s->idx[d][i] = lo[d] + i;
    total *= size[d];
  }
  return total;
}

/* Calls f(k, e[]) for the k-th element (row-major) of the selection. */
#define FOR_SELECTION(L, s, total, e, k, BODY)                                 \
  do {                                                                         \
    int64_t e[LMAX], _pos[LMAX];                                               \
    for (int64_t _d = 0; _d < (L)->ndims; ++_d)                                \
      _pos[_d] = 0;                                                            \
    for (int64_t k = 0; k < (total); ++k) {                                    \
      for (int64_t _d = 0; _d < (L)->ndims; ++_d)                              \
        e[_d] = (s)->idx[_d][_pos[_d]];                                        \
      BODY;                                                                    \
      for (int64_t _d = (L)->ndims - 1; _d >= 0; --_d) {                       \
        if (++_pos[_d] < (s)->cnt[_d])                                         \
          break;                                                               \
        _pos[_d] = 0;                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

/* Runs of the selection along the last dimension: run[j] is the length of
 * the run starting at position j (0 inside a run).  A run is a stretch of
 * selected indices that are consecutive both globally and in the tile, so
 * it is contiguous in a row-major box, in the tile and in a packed stream.
 * Returns NULL for 0-D layouts. */
static void *xmalloc(const char *op, int64_t bytes);
static void add_row(void *dst, const void *src, int64_t n, int64_t dtype);

static int64_t *selection_runs(const char *op, const layout_t *L,
                               const sel_t *s) {
  if (L->ndims == 0)
    return NULL;
  int64_t d = L->ndims - 1, n = s->cnt[d];
  int64_t *run = xmalloc(op, sizeof(int64_t) * (n > 0 ? n : 1));
  for (int64_t j = 0; j < n;) {
    int64_t len = 1;
    while (j + len < n && s->idx[d][j + len] == s->idx[d][j + len - 1] + 1 &&
           local_of(L, d, s->idx[d][j + len]) ==
               local_of(L, d, s->idx[d][j + len - 1]) + 1 &&
           (L->kind[d] == K_NONE ||
            owner_q(L, d, s->idx[d][j + len]) ==
                owner_q(L, d, s->idx[d][j + len - 1])))
      ++len;
    run[j] = len;
    for (int64_t i = 1; i < len; ++i)
      run[j + i] = 0;
    j += len;
  }
  return run;
}

/* Calls BODY for each run of the selection: e[] its first element, k its
 * position in the selection's row-major order, len its length. */
#define FOR_SELECTION_RUNS(L, s, run, total, e, k, len, BODY)                  \
  do {                                                                         \
    int64_t e[LMAX] = {0}, _pos[LMAX];                                         \
    int64_t _nd = (L)->ndims;                                                  \
    if (_nd == 0) {                                                            \
      int64_t k = 0, len = 1;                                                  \
      if ((total) > 0)                                                         \
        BODY;                                                                  \
      break;                                                                   \
    }                                                                          \
    int64_t _last = _nd - 1, _w = (s)->cnt[_last];                             \
    for (int64_t _d = 0; _d < _nd; ++_d)                                       \
      _pos[_d] = 0;                                                            \
    for (int64_t _row = 0; _w > 0 && _row * _w < (total); ++_row) {            \
      for (int64_t _d = 0; _d < _last; ++_d)                                   \
        e[_d] = (s)->idx[_d][_pos[_d]];                                        \
      for (int64_t _j = 0; _j < _w; _j += (run)[_j]) {                         \
        int64_t k = _row * _w + _j, len = (run)[_j];                           \
        e[_last] = (s)->idx[_last][_j];                                        \
        BODY;                                                                  \
      }                                                                        \
      for (int64_t _d = _last - 1; _d >= 0; --_d) {                            \
        if (++_pos[_d] < (s)->cnt[_d])                                         \
          break;                                                               \
        _pos[_d] = 0;                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

/* The owner digits of process coordinates c, per dimension. */
static void digits_of(const distrt_grid *g, const layout_t *L,
                      const int64_t *c, int64_t *q) {
  for (int64_t d = 0; d < L->ndims; ++d)
    q[d] = L->kind[d] == K_NONE ? 0 : dim_q(g, L, d, c);
}

/* Whether process p provides to requester r: same coordinates on the
 * replicated axes, p on the fixed coordinates. */
static int provides_to(const distrt_grid *g, const layout_t *L,
                       const int64_t *p, const int64_t *r) {
  for (int64_t a = 0; a < g->ndims; ++a)
    if (L->role[a] == -1 && p[a] != r[a])
      return 0;
  return is_holder(L, p);
}

/* Rank providing element e to requester coordinates r. */
static int64_t provider_of(const distrt_grid *g, const layout_t *L,
                           const int64_t *e, const int64_t *r) {
  int64_t c[LMAX];
  for (int64_t a = 0; a < g->ndims; ++a)
    c[a] = r[a];
  for (int64_t i = 0; i < L->nfixed; ++i)
    c[L->faxis[i]] = L->fcoord[i];
  /* Unskewed dimensions first: a skewed one needs the coordinates of its
   * skew axes, which are replicated, fixed, or partition unskewed
   * dimensions (parse_layout rejects chains). */
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t d = 0; d < L->ndims; ++d) {
      if (L->kind[d] == K_NONE || (L->skew[d] != 0) != (pass == 1))
        continue;
      int64_t q = owner_q(L, d, e[d]);
      if (L->skew[d]) {
        for (int64_t a = 0; a < g->ndims; ++a)
          if ((L->skew[d] >> a) & 1)
            q -= c[a] % L->Q[d];
        q = ((q % L->Q[d]) + L->Q[d]) % L->Q[d];
      }
      for (int64_t i = 0; i < L->naxes[d]; ++i) {
        int64_t a = L->axes[d][i];
        c[a] = q % g->dims[a];
        q /= g->dims[a];
      }
    }
  return distrt_grid_rank_of(g, c);
}

static int64_t tile_offset(const layout_t *L, const int64_t *stride,
                           const int64_t *e) {
  int64_t off = 0;
  for (int64_t d = 0; d < L->ndims; ++d)
    off += local_of(L, d, e[d]) * stride[d];
  return off;
}

static void *xmalloc(const char *op, int64_t bytes) {
  void *p = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!p)
    distrt_fatal(op, "cannot allocate %lld bytes for an exchange",
                 (long long)bytes);
  return p;
}

static void check_box(const char *op, const layout_t *L, const int64_t *lo,
                      const int64_t *size) {
  for (int64_t d = 0; d < L->ndims; ++d)
    if (size[d] < 0 || (size[d] > 0 && (lo[d] < 0 || lo[d] + size[d] > L->n[d])))
      distrt_fatal(op, "box [%lld, %lld) of dimension %lld is outside the "
                       "tensor's extent %lld",
                   (long long)lo[d], (long long)(lo[d] + size[d]),
                   (long long)d, (long long)L->n[d]);
}

static int64_t box_volume(const layout_t *L, const int64_t *size) {
  int64_t v = 1;
  for (int64_t d = 0; d < L->ndims; ++d)
    v *= size[d];
  return v;
}

/* All processes' boxes: boxes[p * 2nd + d] = lo, [p * 2nd + nd + d] = size. */
static int64_t *allgather_boxes(const char *op, distrt_grid *g,
                                const layout_t *L, const int64_t *lo,
                                const int64_t *size) {
  int64_t nd = L->ndims > 0 ? L->ndims : 1;
  int64_t mine[2 * LMAX];
  for (int64_t d = 0; d < nd; ++d) {
    mine[d] = L->ndims ? lo[d] : 0;
    mine[nd + d] = L->ndims ? size[d] : 1;
  }
  int64_t *all = xmalloc(op, (int64_t)sizeof(int64_t) * 2 * nd * g->size);
  distrt_g.be->allgather(op, g->icomm, mine, all, 2 * nd, DISTRT_I64);
  return all;
}

static void fetch_box_impl(distrt_grid *g, const int64_t *desc, const void *tile,
                      int64_t dtype, const int64_t *lo, const int64_t *size,
                      void *out) {
  const char *op = "distrt_fetch_box";
  distrt_require_init(op);
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  check_box(op, &L, lo, size);
  int64_t nd = L.ndims > 0 ? L.ndims : 1;
  int64_t *boxes = allgather_boxes(op, g, &L, lo, size);
  int64_t P = g->size;
  int64_t *scount = xmalloc(op, sizeof(int64_t) * P);
  int64_t *rcount = xmalloc(op, sizeof(int64_t) * P);
  int64_t ext[LMAX], stride[LMAX], myq[LMAX], c[LMAX];
  tile_shape(g, &L, g->coords, ext, stride);
  digits_of(g, &L, g->coords, myq);
  /* What I send to each requester. */
  int64_t stotal = 0;
  for (int64_t p = 0; p < P; ++p) {
    scount[p] = 0;
    distrt_grid_coords_of(g, p, c);
    if (!provides_to(g, &L, g->coords, c))
      continue;
    sel_t s;
    scount[p] = select_box(&L, boxes + p * 2 * nd, boxes + p * 2 * nd + nd,
                           myq, &s);
    select_free(&L, &s);
    stotal += scount[p];
  }
  char *sbuf = xmalloc(op, stotal * es);
  int64_t at = 0;
  for (int64_t p = 0; p < P; ++p) {
    if (!scount[p])
      continue;
    sel_t s;
    int64_t n = select_box(&L, boxes + p * 2 * nd, boxes + p * 2 * nd + nd,
                           myq, &s);
    int64_t *run = selection_runs(op, &L, &s);
    FOR_SELECTION_RUNS(&L, &s, run, n, e, k, len, {
      memcpy(sbuf + (at + k) * es,
             (const char *)tile + tile_offset(&L, stride, e) * es,
             (size_t)(len * es));
    });
    free(run);
    at += n;
    select_free(&L, &s);
  }
  /* What I receive from each provider: count over my box. */
  int64_t vol = box_volume(&L, size);
  if (vol > 0)
    distrt_check_buf(op, "out", out, vol);
  for (int64_t p = 0; p < P; ++p)
    rcount[p] = 0;
  /* Run by run along my box's rows: one owner, so one provider, per run. */
  sel_t mine = {{NULL}, {0}};
  select_all(&L, lo, size, &mine);
  int64_t *mrun = selection_runs(op, &L, &mine);
  FOR_SELECTION_RUNS(&L, &mine, mrun, vol, e, k, len, {
    (void)k;
    rcount[provider_of(g, &L, e, g->coords)] += len;
  });
  int64_t rtotal = 0;
  for (int64_t p = 0; p < P; ++p)
    rtotal += rcount[p];
  char *rbuf = xmalloc(op, rtotal * es);
  distrt_g.be->alltoallv(op, g->icomm, sbuf, scount, rbuf, rcount, dtype);
  /* Unpack in my box's row-major order, one cursor per provider. */
  int64_t *cursor = xmalloc(op, sizeof(int64_t) * P);
  int64_t off = 0;
  for (int64_t p = 0; p < P; ++p) {
    cursor[p] = off;
    off += rcount[p];
  }
  FOR_SELECTION_RUNS(&L, &mine, mrun, vol, e, k, len, {
    int64_t p = provider_of(g, &L, e, g->coords);
    memcpy((char *)out + k * es, rbuf + cursor[p] * es, (size_t)(len * es));
    cursor[p] += len;
  });
  free(cursor);
  free(mrun);
  select_free(&L, &mine);
  free(rbuf);
  free(sbuf);
  free(rcount);
  free(scount);
  free(boxes);
}

static void add_into(void *dst, const void *src, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32: *(float *)dst += *(const float *)src; break;
  case DISTRT_F64: *(double *)dst += *(const double *)src; break;
  case DISTRT_I32: *(int32_t *)dst += *(const int32_t *)src; break;
  default: *(int64_t *)dst += *(const int64_t *)src; break;
  }
}

static void accumulate_box_impl(distrt_grid *g, const int64_t *desc, void *tile,
                           int64_t dtype, const int64_t *lo,
                           const int64_t *size, const void *in) {
  const char *op = "distrt_accumulate_box";
  distrt_require_init(op);
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  check_box(op, &L, lo, size);
  int64_t nd = L.ndims > 0 ? L.ndims : 1;
  int64_t *boxes = allgather_boxes(op, g, &L, lo, size);
  int64_t P = g->size;
  int64_t *scount = xmalloc(op, sizeof(int64_t) * P);
  int64_t *rcount = xmalloc(op, sizeof(int64_t) * P);
  int64_t c[LMAX], q[LMAX];
  int64_t vol = box_volume(&L, size);
  if (vol > 0)
    distrt_check_buf(op, "in", in, vol);
  /* Every holder of an element receives its contribution. */
  int64_t stotal = 0;
  for (int64_t p = 0; p < P; ++p) {
    scount[p] = 0;
    distrt_grid_coords_of(g, p, c);
    if (!is_holder(&L, c))
      continue;
    digits_of(g, &L, c, q);
    sel_t s;
    scount[p] = select_box(&L, lo, size, q, &s);
    select_free(&L, &s);
    stotal += scount[p];
  }
  char *sbuf = xmalloc(op, stotal * es);
  int64_t at = 0;
  for (int64_t p = 0; p < P; ++p) {
    if (!scount[p])
      continue;
    distrt_grid_coords_of(g, p, c);
    digits_of(g, &L, c, q);
    sel_t s;
    int64_t n = select_box(&L, lo, size, q, &s);
    int64_t *run = selection_runs(op, &L, &s);
    FOR_SELECTION_RUNS(&L, &s, run, n, e, k, len, {
      int64_t off = 0;
      for (int64_t d = 0; d < L.ndims; ++d)
        off = off * size[d] + (e[d] - lo[d]);
      memcpy(sbuf + (at + k) * es, (const char *)in + off * es,
             (size_t)(len * es));
    });
    free(run);
    at += n;
    select_free(&L, &s);
  }
  /* I receive, from each sender, the elements of its box I hold. */
  int64_t myq[LMAX], ext[LMAX], stride[LMAX];
  digits_of(g, &L, g->coords, myq);
  tile_shape(g, &L, g->coords, ext, stride);
  int holder = is_holder(&L, g->coords);
  int64_t rtotal = 0;
  for (int64_t p = 0; p < P; ++p) {
    rcount[p] = 0;
    if (!holder)
      continue;
    sel_t s;
    rcount[p] = select_box(&L, boxes + p * 2 * nd, boxes + p * 2 * nd + nd,
                           myq, &s);
    select_free(&L, &s);
    rtotal += rcount[p];
  }
  char *rbuf = xmalloc(op, rtotal * es);
  distrt_g.be->alltoallv(op, g->icomm, sbuf, scount, rbuf, rcount, dtype);
  if (holder) {
    int64_t size_tile = tile_size_at(g, &L, g->coords);
    if (size_tile > 0)
      distrt_check_buf(op, "tile", tile, size_tile);
    at = 0;
    for (int64_t p = 0; p < P; ++p) {
      if (!rcount[p])
        continue;
      sel_t s;
      int64_t n = select_box(&L, boxes + p * 2 * nd, boxes + p * 2 * nd + nd,
                             myq, &s);
      int64_t *run = selection_runs(op, &L, &s);
      FOR_SELECTION_RUNS(&L, &s, run, n, e, k, len, {
        add_row((char *)tile + tile_offset(&L, stride, e) * es,
                rbuf + (at + k) * es, len, dtype);
      });
      free(run);
      at += n;
      select_free(&L, &s);
    }
  }
  free(rbuf);
  free(sbuf);
  free(rcount);
  free(scount);
  free(boxes);
}

void distrt_layout_gather(distrt_grid *g, const int64_t *desc,
                          const void *tile, int64_t dtype, void *global,
                          int64_t root) {
  const char *op = "distrt_layout_gather";
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  if (root < 0 || root >= g->size)
    distrt_fatal(op, "root %lld is not a rank of the grid (0..%lld)",
                 (long long)root, (long long)g->size - 1);
  int64_t lo[LMAX] = {0}, size[LMAX] = {0};
  for (int64_t d = 0; d < L.ndims; ++d)
    size[d] = g->rank == root ? L.n[d] : 0;
  /* An order-0 tensor is one element, which every process fetches; only
   * the root keeps it. */
  int64_t scratch[2];
  if (L.ndims == 0 && g->rank != root)
    global = scratch;
  distrt_fetch_box(g, desc, tile, dtype, lo, size, global);
}

static void redistribute_impl(distrt_grid *gs, const int64_t *sdesc,
                         const void *stile, distrt_grid *gd,
                         const int64_t *ddesc, void *dtile, int64_t dtype) {
  const char *op = "distrt_redistribute";
  distrt_require_init(op);
  distrt_grid_check(op, gs);
  distrt_grid_check(op, gd);
  int64_t es = distrt_dtype_size(op, dtype);
  if (gs->size != gd->size)
    distrt_fatal(op, "source grid has %lld processes but destination grid "
                     "%lld; redistribution needs grids of the same size",
                 (long long)gs->size, (long long)gd->size);
  layout_t S, D;
  parse_layout(op, gs, sdesc, &S);
  parse_layout(op, gd, ddesc, &D);
  if (S.ndims != D.ndims)
    distrt_fatal(op, "source has %lld dimensions, destination %lld",
                 (long long)S.ndims, (long long)D.ndims);
  for (int64_t d = 0; d < S.ndims; ++d)
    if (S.n[d] != D.n[d])
      distrt_fatal(op, "dimension %lld has extent %lld in the source and "
                       "%lld in the destination",
                   (long long)d, (long long)S.n[d], (long long)D.n[d]);
  int64_t P = gs->size;
  int64_t *scount = xmalloc(op, sizeof(int64_t) * P);
  int64_t *rcount = xmalloc(op, sizeof(int64_t) * P);
  int64_t cs[LMAX], cd[LMAX], sq[LMAX], dq[LMAX], myq[LMAX];
  int64_t sext[LMAX], sstride[LMAX];
  tile_shape(gs, &S, gs->coords, sext, sstride);
  digits_of(gs, &S, gs->coords, myq);
  /* For receiver r: per dimension, the global indices it owns under D that
   * I own under S (digit match), restricted to replicated/fixed matches. */
  int64_t stotal = 0;
  int64_t **sel_idx = xmalloc(op, sizeof(int64_t *) * P * LMAX);
  int64_t *sel_cnt = xmalloc(op, sizeof(int64_t) * P * LMAX);
  for (int64_t r = 0; r < P; ++r) {
    scount[r] = 0;
    distrt_grid_coords_of(gs, r, cs);
    distrt_grid_coords_of(gd, r, cd);
    for (int64_t d = 0; d < LMAX; ++d) {
      sel_idx[r * LMAX + d] = NULL;
      sel_cnt[r * LMAX + d] = 0;
    }
    if (!is_holder(&D, cd) || !provides_to(gs, &S, gs->coords, cs))
      continue;
    digits_of(gd, &D, cd, dq);
    int64_t n = 1;
    for (int64_t d = 0; d < S.ndims; ++d) {
      int64_t *list = xmalloc(op, sizeof(int64_t) * S.n[d]);
      int64_t cnt = 0;
      for (int64_t e = 0; e < S.n[d]; ++e)
        if ((D.kind[d] == K_NONE || owner_q(&D, d, e) == dq[d]) &&
            (S.kind[d] == K_NONE || owner_q(&S, d, e) == myq[d]))
          list[cnt++] = e;
      sel_idx[r * LMAX + d] = list;
      sel_cnt[r * LMAX + d] = cnt;
      n *= cnt;
    }
    scount[r] = n;
    stotal += n;
  }
  char *sbuf = xmalloc(op, stotal * es);
  int64_t at = 0;
  for (int64_t r = 0; r < P; ++r) {
    if (!scount[r])
      continue;
    sel_t s;
    for (int64_t d = 0; d < S.ndims; ++d) {
      s.idx[d] = sel_idx[r * LMAX + d];
      s.cnt[d] = sel_cnt[r * LMAX + d];
    }
    FOR_SELECTION(&S, &s, scount[r], e, k, {
      memcpy(sbuf + (at + k) * es,
             (const char *)stile + tile_offset(&S, sstride, e) * es,
             (size_t)es);
    });
    at += scount[r];
  }
  for (int64_t i = 0; i < P * LMAX; ++i)
    free(sel_idx[i]);
  free(sel_idx);
  free(sel_cnt);
  /* Receive: my destination tile in local row-major order. */
  int64_t dext[LMAX], dstride[LMAX];
  tile_shape(gd, &D, gd->coords, dext, dstride);
  int holder = is_holder(&D, gd->coords);
  int64_t vol = 1;
  for (int64_t d = 0; d < D.ndims; ++d)
    vol *= dext[d];
  if (!holder)
    vol = 0;
  if (vol > 0)
    distrt_check_buf(op, "destination tile", dtile, vol);
  int64_t *prov = xmalloc(op, sizeof(int64_t) * (vol > 0 ? vol : 1));
  for (int64_t p = 0; p < P; ++p)
    rcount[p] = 0;
  digits_of(gd, &D, gd->coords, dq);
  distrt_grid_coords_of(gs, gs->rank, cs);
  for (int64_t i = 0; i < vol; ++i) {
    int64_t rest = i, e[LMAX];
    for (int64_t d = D.ndims - 1; d >= 0; --d) {
      int64_t l = rest % dext[d];
      rest /= dext[d];
      e[d] = D.kind[d] == K_NONE
                 ? l
                 : distrt_local_to_global(l, D.Q[d], dq[d], D.bsz[d]);
    }
    prov[i] = provider_of(gs, &S, e, cs);
    rcount[prov[i]]++;
  }
  int64_t rtotal = 0;
  for (int64_t p = 0; p < P; ++p)
    rtotal += rcount[p];
  char *rbuf = xmalloc(op, rtotal * es);
  distrt_g.be->alltoallv(op, gs->icomm, sbuf, scount, rbuf, rcount, dtype);
  int64_t *cursor = xmalloc(op, sizeof(int64_t) * P);
  int64_t off = 0;
  for (int64_t p = 0; p < P; ++p) {
    cursor[p] = off;
    off += rcount[p];
  }
  for (int64_t i = 0; i < vol; ++i)
    memcpy((char *)dtile + i * es, rbuf + (cursor[prov[i]]++) * es,
           (size_t)es);
  (void)sq;
  free(cursor);
  free(prov);
  free(rbuf);
  free(sbuf);
  free(rcount);
  free(scount);
}

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
static int64_t check_against(const char *op, distrt_grid *g, const char *name,
                             const int64_t *desc, const void *tile,
                             int64_t dtype, const void *ref, double tol,
                             int quiet) {
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
    fflush(stdout);
  }
  distrt_profile_call_report(op, g, name);
}

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
static void add_row(void *dst, const void *src, int64_t n, int64_t dtype) {
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

static void copy_box_local_impl(distrt_grid *g, const int64_t *desc,
                           const void *tile, int64_t dtype, const int64_t *lo,
                           const int64_t *size, void *out) {
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
  if (last_dim_contiguous(&L)) {
    /* Whole rows: the last dimension is contiguous in tile and box. */
    int64_t n = size[L.ndims - 1];
    int64_t rows = box_volume(&L, size) / n;
    for (int64_t r = 0; r < rows; ++r)
      memcpy((char *)out + r * n * es,
             (const char *)tile + row_offset(&L, stride, lo, size, r) * es,
             (size_t)(n * es));
    return;
  }
  FOR_OWN_BOX(&L, lo, size, stride, i, off, {
    memcpy((char *)out + i * es, (const char *)tile + off * es, (size_t)es);
  });
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
  if (last_dim_contiguous(&L)) {
    int64_t n = size[L.ndims - 1];
    int64_t rows = box_volume(&L, size) / n;
    for (int64_t r = 0; r < rows; ++r)
      add_row((char *)tile + row_offset(&L, stride, lo, size, r) * es,
              (const char *)in + r * n * es, n, dtype);
    return;
  }
  FOR_OWN_BOX(&L, lo, size, stride, i, off, {
    add_into((char *)tile + off * es, (const char *)in + i * es, dtype);
  });
}

void distrt_permute(distrt_grid *g, const void *send, int64_t scount,
                    int64_t dest, void *recv, int64_t rcount, int64_t src,
                    int64_t dtype) {
  const char *op = "distrt_permute";
  distrt_require_init(op);
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  if (dest < -1 || dest >= g->size || src < -1 || src >= g->size)
    distrt_fatal(op, "partner out of range (dest %lld, source %lld, grid of "
                     "%lld)",
                 (long long)dest, (long long)src, (long long)g->size);
  if (scount < 0 || rcount < 0)
    distrt_fatal(op, "negative count (send %lld, receive %lld)",
                 (long long)scount, (long long)rcount);
  if ((dest == g->rank) != (src == g->rank))
    distrt_fatal(op, "a process that sends to itself must also receive from "
                     "itself (dest %lld, source %lld, rank %lld)",
                 (long long)dest, (long long)src, (long long)g->rank);
  if (dest == g->rank) {
    if (scount != rcount)
      distrt_fatal(op, "local copy of %lld elements into %lld",
                   (long long)scount, (long long)rcount);
    if (rcount > 0)
      memcpy(recv, send, (size_t)(rcount * es));
    return;
  }
  if (dest >= 0 && scount > 0)
    distrt_check_buf(op, "send", send, scount);
  if (src >= 0 && rcount > 0)
    distrt_check_buf(op, "recv", recv, rcount);
  const struct distrt_backend *be = distrt_g.be;
  if (dest >= 0 && src >= 0)
    be->sendrecv(op, g->icomm, send, scount, dest, recv, rcount, src, dtype,
                 DISTRT_TAG_PERMUTE);
  else if (dest >= 0)
    be->send(op, g->icomm, send, scount, dtype, dest, DISTRT_TAG_PERMUTE);
  else if (src >= 0)
    be->recv(op, g->icomm, recv, rcount, dtype, src, DISTRT_TAG_PERMUTE);
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

void distrt_fetch_box(distrt_grid *g, const int64_t *desc, const void *tile,
                      int64_t dtype, const int64_t *lo, const int64_t *size,
                      void *out) {
  distrt_profile_enter(DISTRT_PROF_PACK);
  fetch_box_impl(g, desc, tile, dtype, lo, size, out);
  distrt_profile_leave();
}

void distrt_accumulate_box(distrt_grid *g, const int64_t *desc, void *tile,
                           int64_t dtype, const int64_t *lo,
                           const int64_t *size, const void *in) {
  distrt_profile_enter(DISTRT_PROF_PACK);
  accumulate_box_impl(g, desc, tile, dtype, lo, size, in);
  distrt_profile_leave();
}

void distrt_redistribute(distrt_grid *gs, const int64_t *sdesc,
                         const void *stile, distrt_grid *gd,
                         const int64_t *ddesc, void *dtile, int64_t dtype) {
  distrt_profile_enter(DISTRT_PROF_PACK);
  redistribute_impl(gs, sdesc, stile, gd, ddesc, dtile, dtype);
  distrt_profile_leave();
}

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
