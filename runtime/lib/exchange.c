/*
 * exchange.c - the general exchanges the compiler uses on tensors described
 * by layout descriptors (layout_desc.c): fetch a box, accumulate a box into
 * the owners, redistribute, gather; and point-to-point permutations.
 *
 * Every exchange decides who provides an element without communication:
 * for a requester with coordinates r, the provider of element e has e's
 * owner digits on the partitioned axes, the fixed coordinates on fixed axes
 * and r's own coordinates on replicated axes, so data a process holds is
 * never sent to it. Messages are packed per peer in row-major element order
 * and exchanged with one all-to-all-v; both sides derive the order from the
 * (allgathered) boxes, so no indices travel.
 */
#include "layout_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* Runs of a selection held in a tile of layout T whose elements come from
 * owners under layout O: stretches along the last dimension that are
 * consecutive globally and in T's tile and have one owner under O (so one
 * provider).  A run is contiguous in a row-major box, in T's tile and in
 * a packed stream.  Returns NULL for 0-D layouts. */
static int64_t *provider_runs(const char *op, const layout_t *T,
                              const layout_t *O, const sel_t *s) {
  if (T->ndims == 0)
    return NULL;
  int64_t d = T->ndims - 1, n = s->cnt[d];
  const int64_t *x = s->idx[d];
  int64_t *run = xmalloc(op, sizeof(int64_t) * (n > 0 ? n : 1));
  for (int64_t j = 0; j < n;) {
    int64_t len = 1;
    while (j + len < n && x[j + len] == x[j + len - 1] + 1 &&
           local_of(T, d, x[j + len]) == local_of(T, d, x[j + len - 1]) + 1 &&
           (O->kind[d] == K_NONE ||
            owner_q(O, d, x[j + len]) == owner_q(O, d, x[j + len - 1])))
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
  char *sbuf = distrt_alloc(stotal * es);
  int64_t at = 0;
  for (int64_t p = 0; p < P; ++p) {
    if (!scount[p])
      continue;
    sel_t s;
    int64_t n = select_box(&L, boxes + p * 2 * nd, boxes + p * 2 * nd + nd,
                           myq, &s);
    int64_t *run = provider_runs(op, &L, &L, &s);
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
  int64_t *mrun = provider_runs(op, &L, &L, &mine);
  FOR_SELECTION_RUNS(&L, &mine, mrun, vol, e, k, len, {
    (void)k;
    rcount[provider_of(g, &L, e, g->coords)] += len;
  });
  int64_t rtotal = 0;
  for (int64_t p = 0; p < P; ++p)
    rtotal += rcount[p];
  char *rbuf = distrt_alloc(rtotal * es);
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
  distrt_free(rbuf);
  distrt_free(sbuf);
  free(rcount);
  free(scount);
  free(boxes);
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
  char *sbuf = distrt_alloc(stotal * es);
  int64_t at = 0;
  for (int64_t p = 0; p < P; ++p) {
    if (!scount[p])
      continue;
    distrt_grid_coords_of(g, p, c);
    digits_of(g, &L, c, q);
    sel_t s;
    int64_t n = select_box(&L, lo, size, q, &s);
    int64_t *run = provider_runs(op, &L, &L, &s);
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
  char *rbuf = distrt_alloc(rtotal * es);
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
      int64_t *run = provider_runs(op, &L, &L, &s);
      FOR_SELECTION_RUNS(&L, &s, run, n, e, k, len, {
        add_row((char *)tile + tile_offset(&L, stride, e) * es,
                rbuf + (at + k) * es, len, dtype);
      });
      free(run);
      at += n;
      select_free(&L, &s);
    }
  }
  distrt_free(rbuf);
  distrt_free(sbuf);
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

/* The global indices of local indices 0..ext-1 of dimension d on the
 * processes with owner digit q (all of 0..n-1 for an unpartitioned
 * dimension), ascending. */
static int64_t *owned_indices(const char *op, const layout_t *L, int64_t d,
                              int64_t q, int64_t ext) {
  int64_t *v = xmalloc(op, sizeof(int64_t) * (ext > 0 ? ext : 1));
  for (int64_t l = 0; l < ext; ++l)
    v[l] = L->kind[d] == K_NONE
               ? l
               : distrt_local_to_global(l, L->Q[d], q, L->bsz[d]);
  return v;
}

/* The n indices of `idx` grouped by their owner digit under dimension d of
 * L, each group ascending: group q is sorted[start[q] .. start[q + 1]).
 * A counting sort: O(n + Q), whatever the number of processes holding
 * the indices. */
typedef struct {
  int64_t *sorted, *start;
} groups_t;

static groups_t group_by_owner(const char *op, const layout_t *L, int64_t d,
                               const int64_t *idx, int64_t n) {
  int64_t Q = L->Q[d];
  groups_t g;
  g.sorted = xmalloc(op, sizeof(int64_t) * (n > 0 ? n : 1));
  g.start = xmalloc(op, sizeof(int64_t) * (Q + 2));
  for (int64_t q = 0; q < Q + 2; ++q)
    g.start[q] = 0;
  for (int64_t i = 0; i < n; ++i)
    g.start[owner_q(L, d, idx[i]) + 2]++;
  for (int64_t q = 2; q < Q + 2; ++q)
    g.start[q] += g.start[q - 1];
  /* start[q + 1] is now group q's first slot: fill, advancing it. */
  for (int64_t i = 0; i < n; ++i)
    g.sorted[g.start[owner_q(L, d, idx[i]) + 1]++] = idx[i];
  return g;
}

/* What this process sends receiver r of a redistribution from S on gs to
 * D on gd: per dimension, its source indices (`mine`, `ext`) in the group
 * of r's destination digit (all of them on an unpartitioned dimension).
 * Returns the number of elements (0 unless this process provides to r). */
static int64_t receiver_selection(const distrt_grid *gs, const distrt_grid *gd,
                                  const layout_t *S, const layout_t *D,
                                  int sholder, int64_t *const *mine,
                                  const groups_t *grp, const int64_t *ext,
                                  int64_t r, sel_t *s) {
  int64_t cs[LMAX], cd[LMAX], dq[LMAX];
  distrt_grid_coords_of(gs, r, cs);
  distrt_grid_coords_of(gd, r, cd);
  if (!sholder || !is_holder(D, cd) || !provides_to(gs, S, gs->coords, cs))
    return 0;
  digits_of(gd, D, cd, dq);
  int64_t n = 1;
  for (int64_t d = 0; d < S->ndims; ++d) {
    if (D->kind[d] == K_NONE) {
      s->idx[d] = mine[d];
      s->cnt[d] = ext[d];
    } else {
      s->idx[d] = grp[d].sorted + grp[d].start[dq[d]];
      s->cnt[d] = grp[d].start[dq[d] + 1] - grp[d].start[dq[d]];
    }
    n *= s->cnt[d];
  }
  return n;
}

/* The general redistribution.  The setup costs O(P + the local tiles):
 * each dimension's indices of my source tile are grouped by their owner
 * digit under the destination layout once, and a receiver's selection is
 * the product of its digits' groups (nothing scans the global extents
 * per receiver).  Packing and unpacking copy runs, not elements. */
static void redistribute_impl(distrt_grid *gs, const int64_t *sdesc,
                              const void *stile, distrt_grid *gd,
                              const int64_t *ddesc, void *dtile,
                              int64_t dtype) {
  const char *op = "distrt_redistribute";
  distrt_require_init(op);
  distrt_grid_check(op, gs);
  distrt_grid_check(op, gd);
  int64_t es = distrt_dtype_size(op, dtype);
  distrt_grid_check_order(op, gs, "source", gd, "destination");
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
  int64_t P = gs->size, nd = S.ndims;
  int64_t *scount = xmalloc(op, sizeof(int64_t) * P);
  int64_t *rcount = xmalloc(op, sizeof(int64_t) * P);
  int64_t cs[LMAX], dq[LMAX], myq[LMAX];
  int64_t sext[LMAX], sstride[LMAX];
  tile_shape(gs, &S, gs->coords, sext, sstride);
  digits_of(gs, &S, gs->coords, myq);
  int sholder = is_holder(&S, gs->coords);
  /* My source indices per dimension, grouped by destination owner. */
  int64_t *mine[LMAX] = {NULL};
  groups_t grp[LMAX];
  memset(grp, 0, sizeof grp);
  for (int64_t d = 0; sholder && d < nd; ++d) {
    mine[d] = owned_indices(op, &S, d, myq[d], sext[d]);
    if (D.kind[d] != K_NONE)
      grp[d] = group_by_owner(op, &D, d, mine[d], sext[d]);
  }
  int64_t stotal = 0;
  for (int64_t r = 0; r < P; ++r) {
    sel_t s;
    scount[r] =
        receiver_selection(gs, gd, &S, &D, sholder, mine, grp, sext, r, &s);
    stotal += scount[r];
  }
  char *sbuf = distrt_alloc(stotal * es);
  int64_t at = 0;
  for (int64_t r = 0; r < P; ++r) {
    if (!scount[r])
      continue;
    sel_t s;
    receiver_selection(gs, gd, &S, &D, sholder, mine, grp, sext, r, &s);
    int64_t *run = provider_runs(op, &S, &S, &s);
    FOR_SELECTION_RUNS(&S, &s, run, scount[r], e, k, len, {
      memcpy(sbuf + (at + k) * es,
             (const char *)stile + tile_offset(&S, sstride, e) * es,
             (size_t)(len * es));
    });
    free(run);
    at += scount[r];
  }
  for (int64_t d = 0; d < nd; ++d) {
    free(mine[d]);
    free(grp[d].sorted);
    free(grp[d].start);
  }
  /* Receive: my destination tile in local row-major order, run by run
   * (one provider per run). */
  int64_t dext[LMAX], dstride[LMAX];
  tile_shape(gd, &D, gd->coords, dext, dstride);
  int holder = is_holder(&D, gd->coords);
  int64_t vol = 1;
  for (int64_t d = 0; d < nd; ++d)
    vol *= dext[d];
  if (!holder)
    vol = 0;
  if (vol > 0)
    distrt_check_buf(op, "destination tile", dtile, vol);
  for (int64_t p = 0; p < P; ++p)
    rcount[p] = 0;
  digits_of(gd, &D, gd->coords, dq);
  distrt_grid_coords_of(gs, gs->rank, cs);
  sel_t want = {{NULL}, {0}};
  for (int64_t d = 0; d < nd; ++d) {
    want.idx[d] = owned_indices(op, &D, d, dq[d], holder ? dext[d] : 0);
    want.cnt[d] = holder ? dext[d] : 0;
  }
  int64_t *wrun = provider_runs(op, &D, &S, &want);
  FOR_SELECTION_RUNS(&D, &want, wrun, vol, e, k, len, {
    (void)k;
    rcount[provider_of(gs, &S, e, cs)] += len;
  });
  int64_t rtotal = 0;
  for (int64_t p = 0; p < P; ++p)
    rtotal += rcount[p];
  char *rbuf = distrt_alloc(rtotal * es);
  distrt_g.be->alltoallv(op, gs->icomm, sbuf, scount, rbuf, rcount, dtype);
  int64_t *cursor = xmalloc(op, sizeof(int64_t) * P);
  int64_t off = 0;
  for (int64_t p = 0; p < P; ++p) {
    cursor[p] = off;
    off += rcount[p];
  }
  FOR_SELECTION_RUNS(&D, &want, wrun, vol, e, k, len, {
    int64_t p = provider_of(gs, &S, e, cs);
    memcpy((char *)dtile + k * es, rbuf + cursor[p] * es, (size_t)(len * es));
    cursor[p] += len;
  });
  free(wrun);
  for (int64_t d = 0; d < nd; ++d)
    free(want.idx[d]);
  free(cursor);
  distrt_free(rbuf);
  distrt_free(sbuf);
  free(rcount);
  free(scount);
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
  /* Every process of the grid calls distrt_permute, also those that copy
   * locally or take no part: the one point where the grid's device
   * communicator can be made collectively (NCCL's init is collective). */
  if (distrt_g.be->dev_comm_ready &&
      (distrt_is_device_ptr(send) || distrt_is_device_ptr(recv)))
    distrt_g.be->dev_comm_ready(op, g->icomm);
  if (dest == g->rank) {
    if (scount != rcount)
      distrt_fatal(op, "local copy of %lld elements into %lld",
                   (long long)scount, (long long)rcount);
    if (rcount > 0 &&
        (distrt_is_device_ptr(recv) || distrt_is_device_ptr(send)))
      distrt_g.be->dev_copy(op, recv, send, rcount * es);
    else if (rcount > 0)
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

/* ---- profiled entry points (profile.c: packing) ------------------------*/

/* Bytes of a row-major box of extents size[] (0 unless `buf` is device
 * memory: only device boxes are staged). */
static int64_t stage_box_bytes(const char *op, distrt_grid *g,
                               const int64_t *desc, int64_t dtype,
                               const int64_t *size, const void *buf) {
  if (!distrt_is_device_ptr(buf))
    return 0;
  distrt_grid_check(op, g);
  layout_t L;
  parse_layout(op, g, desc, &L);
  int64_t n = distrt_dtype_size(op, dtype);
  for (int64_t d = 0; d < L.ndims; ++d)
    n = distrt_mul(op, "the box's size in bytes", n, size[d]);
  return n;
}

void distrt_fetch_box(distrt_grid *g, const int64_t *desc, const void *tile,
                      int64_t dtype, const int64_t *lo, const int64_t *size,
                      void *out) {
  const char *op = "distrt_fetch_box";
  distrt_profile_enter(DISTRT_PROF_PACK);
  /* Device tiles and boxes: staged through host copies (device_stage.c). */
  int64_t ob = stage_box_bytes(op, g, desc, dtype, size, out);
  void *ht = distrt_stage_tile_in(op, g, desc, tile, dtype, 1);
  void *ho = distrt_stage_in(op, out, ob, 0);
  fetch_box_impl(g, desc, ht, dtype, lo, size, ho);
  distrt_stage_out(op, out, ho, ob, 1);
  distrt_stage_tile_out(op, g, desc, (void *)(uintptr_t)tile, ht, dtype, 0);
  distrt_profile_leave();
}

void distrt_accumulate_box(distrt_grid *g, const int64_t *desc, void *tile,
                           int64_t dtype, const int64_t *lo,
                           const int64_t *size, const void *in) {
  const char *op = "distrt_accumulate_box";
  distrt_profile_enter(DISTRT_PROF_PACK);
  int64_t ib = stage_box_bytes(op, g, desc, dtype, size, in);
  void *ht = distrt_stage_tile_in(op, g, desc, tile, dtype, 1);
  void *hi = distrt_stage_in(op, in, ib, 1);
  accumulate_box_impl(g, desc, ht, dtype, lo, size, hi);
  distrt_stage_out(op, (void *)(uintptr_t)in, hi, ib, 0);
  distrt_stage_tile_out(op, g, desc, tile, ht, dtype, 1);
  distrt_profile_leave();
}

void distrt_redistribute(distrt_grid *gs, const int64_t *sdesc,
                         const void *stile, distrt_grid *gd,
                         const int64_t *ddesc, void *dtile, int64_t dtype) {
  const char *op = "distrt_redistribute";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs = distrt_stage_tile_in(op, gs, sdesc, stile, dtype, 1);
  void *hd = distrt_stage_tile_in(op, gd, ddesc, dtile, dtype, 1);
  redistribute_impl(gs, sdesc, hs, gd, ddesc, hd, dtype);
  distrt_stage_tile_out(op, gd, ddesc, dtile, hd, dtype, 1);
  distrt_stage_tile_out(op, gs, sdesc, (void *)(uintptr_t)stile, hs, dtype, 0);
  distrt_profile_leave();
}
