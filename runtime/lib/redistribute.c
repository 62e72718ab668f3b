/*
 * redistribute.c - the balanced redistribution steps of Schatz (2015),
 * executed as collectives over grid sub-communicators.
 *
 * The compiler plans a redistribution between two layouts given by mode
 * tuples (descriptor kinds 0-3: every partitioned dimension dealt in
 * blocks of B elements, B = 1 cyclic, ceil(n/Q) blocked, b block-cyclic,
 * round robin over its tuple; no skew) as a sequence of steps: local
 * slice, allgather, permutation, all-to-all, kind change (blocks change),
 * gather / broadcast / scatter; every step is one call here, over the
 * processes that differ only in the step's grid axes (`axes`, a bit mask).
 *
 * The global indices a process owns in a dimension are the blocks
 * k = q (mod Q); the part of a tile that goes to one peer is, per
 * dimension, a few segments of equally spaced runs (one segment of runs
 * of length 1 under elemental-cyclic layouts: a strided box).  It is
 * packed / unpacked once per message with one strided copy per
 * combination of segments whose innermost loop is a typed load/store or a
 * memcpy (no call per element).  Both sides derive the same segments, so
 * no indices travel.
 */
#include "layout_internal.h"

#include <stdlib.h>
#include <string.h>

#define RMAX DISTRT_MAX_DIMS

/* A layout as the steps read it: parsed by the runtime's one descriptor
 * parser (parse_layout_as, layout_desc.c), refusing skewed dimensions and,
 * unless `allow_fixed`, fixed axes.  Every partitioned dimension is dealt
 * block-cyclically, blocks of bsz[d] elements over Q[d] processes (blocked:
 * ceil(n/Q); cyclic: 1; unpartitioned: Q = 1, bsz = n). */
static void parse_balanced(const char *op, const distrt_grid *g,
                           const int64_t *desc, const char *which,
                           int allow_fixed, layout_t *L) {
  parse_layout_as(op, g, desc, which,
                  LAYOUT_NO_SKEW | (allow_fixed ? 0 : LAYOUT_NO_FIXED), L);
  /* A block of the whole extent or more is one block held by the first
   * process, however large: normalise so equal layouts compare equal. */
  for (int64_t d = 0; d < L->ndims; ++d)
    if (L->bsz[d] > L->n[d])
      L->bsz[d] = L->n[d];
}

/* Whether some dimension of L is dealt over grid axis a. */
static int axis_used(const layout_t *L, int64_t a) { return L->role[a] >= 0; }

/* Both layouts of a step, which must describe tensors of one shape. */
static void parse_pair(const char *op, const distrt_grid *g,
                       const int64_t *sdesc, const int64_t *ddesc,
                       int allow_fixed, layout_t *S, layout_t *D) {
  parse_balanced(op, g, sdesc, "source", allow_fixed, S);
  parse_balanced(op, g, ddesc, "destination", allow_fixed, D);
  if (S->ndims != D->ndims)
    distrt_fatal(op, "source has %lld dimensions, destination %lld",
                 (long long)S->ndims, (long long)D->ndims);
  for (int64_t d = 0; d < S->ndims; ++d)
    if (S->n[d] != D->n[d])
      distrt_fatal(op,
                   "dimension %lld has extent %lld in the source and %lld "
                   "in the destination",
                   (long long)d, (long long)S->n[d], (long long)D->n[d]);
}

/* Extents and row-major strides of the tile at coordinates c. */
static int64_t tile_at(const distrt_grid *g, const layout_t *L,
                       const int64_t *c, int64_t *ext, int64_t *stride) {
  int64_t s = 1;
  for (int64_t d = L->ndims - 1; d >= 0; --d) {
    ext[d] = local_extent(L, d, dim_q(g, L, d, c));
    stride[d] = s;
    s *= ext[d];
  }
  return s;
}

/* The elements held under S at c and under D at e, per dimension: a list
 * of segments, each `cnt` runs of `len` consecutive elements, starting at
 * local index s0 (d0) of the source (destination) tile and `ss` (`ds`)
 * apart.  Under elemental-cyclic layouts a dimension is one segment of
 * runs of length 1 (an arithmetic progression, stride lcm(Qs, Qd)); under
 * equal blocks it is the full blocks plus possibly a short last one; under
 * different blocks (a kind change) the runs of one period repeat.  The
 * message is the product of the dimensions' segment lists; both sides
 * derive the same lists, so no indices travel. */
typedef struct {
  int64_t cnt, len, s0, ss, d0, ds;
} seg_t;

typedef struct {
  int64_t nseg[RMAX];
  seg_t *seg[RMAX];
} box_t;

static void box_free(box_t *b, int64_t nd) {
  for (int64_t d = 0; d < nd; ++d)
    free(b->seg[d]);
}

static void seg_push(const char *op, box_t *b, int64_t d, int64_t *cap,
                     int64_t sl, int64_t dl, int64_t len) {
  int64_t n = b->nseg[d];
  if (n > 0) {
    seg_t *t = &b->seg[d][n - 1];
    if (t->len == len && t->cnt == 1) {
      t->ss = sl - t->s0;
      t->ds = dl - t->d0;
      t->cnt = 2;
      return;
    }
    if (t->len == len && sl == t->s0 + t->cnt * t->ss &&
        dl == t->d0 + t->cnt * t->ds) {
      t->cnt++;
      return;
    }
  }
  if (n == *cap) {
    *cap = *cap ? 2 * *cap : 4;
    seg_t *v = realloc(b->seg[d], sizeof(seg_t) * (size_t)*cap);
    if (!v)
      distrt_fatal(op, "cannot allocate %lld segments", (long long)*cap);
    b->seg[d] = v;
  }
  b->seg[d][n] = (seg_t){1, len, sl, 0, dl, 0};
  b->nseg[d] = n + 1;
}

/* Returns the number of elements; `b` must be freed with box_free. */
static int64_t intersect(const char *op, const distrt_grid *g,
                         const layout_t *S, const int64_t *cs,
                         const layout_t *D, const int64_t *cd, box_t *b) {
  int64_t total = 1;
  memset(b, 0, sizeof *b);
  for (int64_t d = 0; d < S->ndims; ++d) {
    int64_t Qs = S->Q[d], Bs = S->bsz[d], qs = dim_q(g, S, d, cs);
    int64_t Qd = D->Q[d], Bd = D->bsz[d], qd = dim_q(g, D, d, cd);
    int64_t n = S->n[d], nbs = (n + Bs - 1) / Bs, cap = 0, cnt = 0;
    /* Every source block this process holds, cut by the destination
     * blocks process e holds. */
    for (int64_t kb = qs; kb < nbs; kb += Qs) {
      int64_t lo = kb * Bs, hi = lo + Bs < n ? lo + Bs : n;
      int64_t sbase = kb / Qs * Bs;
      int64_t k = lo / Bd;
      k += ((qd - k % Qd) % Qd + Qd) % Qd;
      for (; k * Bd < hi; k += Qd) {
        int64_t a = k * Bd > lo ? k * Bd : lo;
        int64_t e = (k + 1) * Bd < hi ? (k + 1) * Bd : hi;
        if (a >= e)
          continue;
        seg_push(op, b, d, &cap, sbase + (a - lo), k / Qd * Bd + (a - k * Bd),
                 e - a);
        cnt += e - a;
      }
    }
    total *= cnt;
  }
  return total;
}

/* Copies the nd-dimensional box cnt[] from src (element offset soff, element
 * strides sst[]) to dst (doff, dst[]): an odometer over the outer dimensions
 * and a typed strided loop for the innermost one. */
static void copy_box(int64_t nd, const int64_t *cnt, int64_t es,
                     const char *src, int64_t soff, const int64_t *sst,
                     char *dst, int64_t doff, const int64_t *dstr) {
  for (int64_t d = 0; d < nd; ++d)
    if (cnt[d] == 0)
      return;
  if (nd == 0) {
    memcpy(dst + doff * es, src + soff * es, (size_t)es);
    return;
  }
  int64_t idx[2 * RMAX] = {0};
  int64_t inner = nd - 1, n = cnt[inner], si = sst[inner], di = dstr[inner];
  for (;;) {
    if (es == 8) {
      const uint64_t *s = (const uint64_t *)(const void *)src + soff;
      uint64_t *t = (uint64_t *)(void *)dst + doff;
      if (si == 1 && di == 1)
        memcpy(t, s, (size_t)n * 8);
      else
        for (int64_t k = 0; k < n; ++k)
          t[k * di] = s[k * si];
    } else if (es == 4) {
      const uint32_t *s = (const uint32_t *)(const void *)src + soff;
      uint32_t *t = (uint32_t *)(void *)dst + doff;
      if (si == 1 && di == 1)
        memcpy(t, s, (size_t)n * 4);
      else
        for (int64_t k = 0; k < n; ++k)
          t[k * di] = s[k * si];
    } else {
      for (int64_t k = 0; k < n; ++k)
        memcpy(dst + (doff + k * di) * es, src + (soff + k * si) * es,
               (size_t)es);
    }
    int64_t d = inner - 1;
    while (d >= 0) {
      soff += sst[d];
      doff += dstr[d];
      if (++idx[d] < cnt[d])
        break;
      soff -= sst[d] * cnt[d];
      doff -= dstr[d] * cnt[d];
      idx[d] = 0;
      --d;
    }
    if (d < 0)
      return;
  }
}

/* Copies the elements of box b from src to dst.  Each side is a tile with
 * row-major strides st[] addressed by the box's source (use_d = 0) or
 * destination (use_d = 1) local indices, or, when st is NULL, a dense
 * message buffer in the box's canonical order (the segment combinations
 * in odometer order, each a dense row-major block of (cnt, len) per
 * dimension).  One strided copy per combination of segments.  Returns the
 * number of elements. */
static int64_t copy_segs(int64_t nd, const box_t *b, int64_t es,
                         const char *src, const int64_t *sst, int s_use_d,
                         char *dst, const int64_t *dstt, int d_use_d) {
  for (int64_t d = 0; d < nd; ++d)
    if (b->nseg[d] == 0)
      return 0;
  int64_t pick[RMAX] = {0}, at = 0;
  for (;;) {
    int64_t c2[2 * RMAX], dense[2 * RMAX], vol = 1;
    for (int64_t d = 0; d < nd; ++d) {
      const seg_t *t = &b->seg[d][pick[d]];
      c2[2 * d] = t->cnt;
      c2[2 * d + 1] = t->len;
    }
    for (int64_t v = 2 * nd - 1; v >= 0; --v) {
      dense[v] = vol;
      vol *= c2[v];
    }
    int64_t so = 0, dof = 0, vc[2 * RMAX], vs[2 * RMAX], vd[2 * RMAX],
            nv = 0;
    for (int64_t d = 0; d < nd; ++d) {
      const seg_t *t = &b->seg[d][pick[d]];
      int64_t step[2][2], start[2];
      const int64_t *st[2] = {sst, dstt};
      int use[2] = {s_use_d, d_use_d};
      for (int side = 0; side < 2; ++side) {
        if (st[side]) {
          start[side] = (use[side] ? t->d0 : t->s0) * st[side][d];
          step[side][0] = (use[side] ? t->ds : t->ss) * st[side][d];
          step[side][1] = st[side][d];
        } else {
          start[side] = 0;
          step[side][0] = dense[2 * d];
          step[side][1] = dense[2 * d + 1];
        }
      }
      so += start[0];
      dof += start[1];
      for (int k = 0; k < 2; ++k)
        if (c2[2 * d + k] > 1) {
          vc[nv] = c2[2 * d + k];
          vs[nv] = step[0][k];
          vd[nv] = step[1][k];
          ++nv;
        }
    }
    copy_box(nv, vc, es, src, so + (sst ? 0 : at), vs, dst,
             dof + (dstt ? 0 : at), vd);
    at += vol;
    int64_t d = nd - 1;
    while (d >= 0) {
      if (++pick[d] < b->nseg[d])
        break;
      pick[d] = 0;
      --d;
    }
    if (d < 0)
      return at;
  }
}

/* Pack the box from a source tile into dense `buf`. */
static void pack_box(int64_t nd, const box_t *b, int64_t es, const void *tile,
                     const int64_t *tstride, void *buf) {
  copy_segs(nd, b, es, tile, tstride, 0, buf, NULL, 0);
}

/* Unpack dense `buf` into the box of a destination tile. */
static void unpack_box(int64_t nd, const box_t *b, int64_t es,
                       const void *buf, void *tile, const int64_t *tstride) {
  copy_segs(nd, b, es, buf, NULL, 0, tile, tstride, 1);
}

/* Coordinates of member j of this process's group over `axes` (row-major
 * over the selected axes, as the sub-communicators number them). */
static void member_coords(const distrt_grid *g, int64_t axes, int64_t j,
                          int64_t *c) {
  for (int64_t d = g->ndims - 1; d >= 0; --d) {
    if (axes & ((int64_t)1 << d)) {
      c[d] = j % g->dims[d];
      j /= g->dims[d];
    } else {
      c[d] = g->coords[d];
    }
  }
}

/* Number of elements member j of this process's group over `axes` holds in
 * layout L. */
static int64_t member_tile(const distrt_grid *g, int64_t axes,
                           const layout_t *L, int64_t j) {
  int64_t c[RMAX], ext[RMAX], st[RMAX];
  member_coords(g, axes, j, c);
  return tile_at(g, L, c, ext, st);
}

/* The largest member_tile over the np members of the group. */
static int64_t largest_member_tile(const distrt_grid *g, int64_t axes,
                                   const layout_t *L, int64_t np) {
  int64_t cap = 0;
  for (int64_t j = 0; j < np; ++j) {
    int64_t v = member_tile(g, axes, L, j);
    if (v > cap)
      cap = v;
  }
  return cap;
}

static void *xalloc(const char *op, int64_t bytes) {
  void *p = malloc((size_t)(bytes > 0 ? bytes : 1));
  if (!p)
    distrt_fatal(op, "cannot allocate %lld bytes", (long long)bytes);
  return p;
}

typedef enum { STEP_SLICE, STEP_ALLGATHER, STEP_PERMUTE, STEP_ALLTOALL } step_t;

typedef struct {
  distrt_grid *g;
  layout_t S, D;
  int64_t es, svol, dvol;
  int64_t sext[RMAX], sstr[RMAX], dext[RMAX], dstr[RMAX];
} ctx_t;

static void setup(const char *op, distrt_grid *g, int64_t axes,
                  const int64_t *sdesc, const void *stile,
                  const int64_t *ddesc, void *dtile, int64_t dtype,
                  int need_axes, ctx_t *x) {
  distrt_require_init(op);
  x->g = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, g, axes);
  x->es = distrt_dtype_size(op, dtype);
  parse_pair(op, g, sdesc, ddesc, 0, &x->S, &x->D);
  if (need_axes && axes == 0)
    distrt_fatal(op, "no grid axes to communicate over");
  /* The members of a group must hold disjoint pieces of the source, so
   * every axis of the group partitions the source. */
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && !axis_used(&x->S, a))
      distrt_fatal(op,
                   "grid axis %lld of the step does not partition the "
                   "source: the step is not a balanced redistribution",
                   (long long)a);
  x->svol = tile_at(g, &x->S, g->coords, x->sext, x->sstr);
  x->dvol = tile_at(g, &x->D, g->coords, x->dext, x->dstr);
  if (x->svol > 0)
    distrt_check_buf(op, "source tile", stile, x->svol);
  if (x->dvol > 0)
    distrt_check_buf(op, "destination tile", dtile, x->dvol);
}

void distrt_redist_slice(distrt_grid *g, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype) {
  const char *op = "distrt_redist_slice";
  ctx_t x;
  setup(op, g, 0, sdesc, stile, ddesc, dtile, dtype, 0, &x);
  box_t b;
  int64_t n = intersect(op, g, &x.S, g->coords, &x.D, g->coords, &b);
  if (n != x.dvol)
    distrt_fatal(op, "this process holds %lld of the %lld elements of its "
                     "destination tile: not a local slice",
                 (long long)n, (long long)x.dvol);
  if (n > 0)
    copy_segs(x.S.ndims, &b, x.es, stile, x.sstr, 0, dtile, x.dstr, 1);
  box_free(&b, x.S.ndims);
}

/* After an allgather or a gather of the group's source tiles (member j's
 * padded to `cap` elements at all + j * cap): copies each into this
 * process's destination tile, checking that every member's tile lies inside
 * it and that together they fill it (`what` names the step in errors). */
static void unpack_members(const char *op, const distrt_grid *g, int64_t axes,
                           const layout_t *S, const layout_t *D, int64_t es,
                           const int64_t *dstr, int64_t dvol, int64_t np,
                           const char *all, int64_t cap, void *dtile,
                           const char *what) {
  int64_t got = 0, c[RMAX], ext[RMAX], st[RMAX];
  for (int64_t j = 0; j < np; ++j) {
    member_coords(g, axes, j, c);
    int64_t v = tile_at(g, S, c, ext, st);
    box_t b;
    int64_t n = intersect(op, g, S, c, D, g->coords, &b);
    if (n != v)
      distrt_fatal(op, "group member %lld holds elements outside this "
                       "process's destination tile: not %s",
                   (long long)j, what);
    got += n;
    /* j's whole tile (row-major, strides st) into the destination box. */
    copy_segs(S->ndims, &b, es, all + j * cap * es, st, 0, dtile, dstr, 1);
    box_free(&b, S->ndims);
  }
  if (got != dvol)
    distrt_fatal(op, "the group holds %lld of the %lld elements of this "
                     "process's destination tile: not %s",
                 (long long)got, (long long)dvol, what);
}

void distrt_redist_allgather(distrt_grid *g, int64_t axes,
                             const int64_t *sdesc, const void *stile,
                             const int64_t *ddesc, void *dtile,
                             int64_t dtype) {
  const char *op = "distrt_redist_allgather";
  ctx_t x;
  setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && axis_used(&x.D, a))
      distrt_fatal(op, "grid axis %lld still partitions the destination: "
                       "not an allgather over it",
                   (long long)a);
  int64_t np = distrt_grid_mask_size(g, axes);
  /* Every member sends its whole tile, padded to the largest of the group
   * (one MPI_Allgather); member j's tile lands in the box j's source and my
   * destination share, which must be all of j's tile. */
  int64_t cap = largest_member_tile(g, axes, &x.S, np);
  char *all = xalloc(op, distrt_mul(op, "allgather buffer", np * cap, x.es));
  char *mine = xalloc(op, cap * x.es);
  if (x.svol > 0)
    memcpy(mine, stile, (size_t)(x.svol * x.es));
  if (cap > 0)
    distrt_g.be->allgather(op, distrt_grid_sub(op, g, axes), mine, all, cap,
                           dtype);
  unpack_members(op, g, axes, &x.S, &x.D, x.es, x.dstr, x.dvol, np, all, cap,
                 dtile, "an allgather");
  free(mine);
  free(all);
}

/* The member of my group whose layout-`A` digits equal my layout-`B`
 * digits in every dimension (-1 if none). */
static int64_t digit_partner(const distrt_grid *g, int64_t axes,
                             const layout_t *A, const layout_t *B) {
  int64_t np = distrt_grid_mask_size(g, axes), c[RMAX], found = -1;
  for (int64_t j = 0; j < np; ++j) {
    member_coords(g, axes, j, c);
    int ok = 1;
    for (int64_t d = 0; d < A->ndims && ok; ++d)
      ok = dim_q(g, A, d, c) == dim_q(g, B, d, g->coords);
    if (ok) {
      if (found >= 0)
        return -2;
      found = j;
    }
  }
  return found;
}

void distrt_redist_permute(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                           const void *stile, const int64_t *ddesc,
                           void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_permute";
  ctx_t x;
  setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  /* The per-mode stride condition: every dimension keeps its number of
   * processes, so a tile moves whole to the one member that owns the same
   * indices under the destination. */
  for (int64_t d = 0; d < x.S.ndims; ++d)
    if (x.S.Q[d] != x.D.Q[d])
      distrt_fatal(op,
                   "dimension %lld is dealt over %lld processes in the "
                   "source and %lld in the destination: not a permutation",
                   (long long)d, (long long)x.S.Q[d], (long long)x.D.Q[d]);
  for (int64_t d = 0; d < x.S.ndims; ++d)
    if (x.S.Q[d] > 1 && x.S.bsz[d] != x.D.bsz[d])
      distrt_fatal(op,
                   "dimension %lld has blocks of %lld elements in the source "
                   "and %lld in the destination: not a permutation",
                   (long long)d, (long long)x.S.bsz[d], (long long)x.D.bsz[d]);
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && !axis_used(&x.D, a))
      distrt_fatal(op, "grid axis %lld does not partition the destination: "
                       "not a permutation over it",
                   (long long)a);
  int64_t dest = digit_partner(g, axes, &x.D, &x.S);
  int64_t src = digit_partner(g, axes, &x.S, &x.D);
  if (dest < 0 || src < 0)
    distrt_fatal(op, "no unique partner in the group: not a permutation");
  int64_t me = distrt_grid_mask_rank(g, axes);
  /* Creating the sub-communicator is collective over the group: every
   * member takes part, including those that keep their tile. */
  distrt_bcomm *comm = distrt_grid_sub(op, g, axes);
  if (dest == me) {
    if (src != me || x.svol != x.dvol)
      distrt_fatal(op, "inconsistent permutation (internal error)");
    if (x.svol > 0)
      memcpy(dtile, stile, (size_t)(x.svol * x.es));
    return;
  }
  int64_t rcount = member_tile(g, axes, &x.S, src);
  if (rcount != x.dvol)
    distrt_fatal(op, "partner holds %lld elements for a tile of %lld "
                     "(internal error)",
                 (long long)rcount, (long long)x.dvol);
  distrt_g.be->sendrecv(op, comm, stile, x.svol, dest, dtile, x.dvol, src,
                        dtype, DISTRT_TAG_PERMUTE);
}

static void alltoall_body(const char *op, ctx_t *xp, int64_t axes,
                          const void *stile, void *dtile, int64_t dtype);

void distrt_redist_alltoall(distrt_grid *g, int64_t axes,
                            const int64_t *sdesc, const void *stile,
                            const int64_t *ddesc, void *dtile,
                            int64_t dtype) {
  const char *op = "distrt_redist_alltoall";
  ctx_t x;
  setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  alltoall_body(op, &x, axes, stile, dtile, dtype);
}

void distrt_redist_kind(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                        const void *stile, const int64_t *ddesc, void *dtile,
                        int64_t dtype) {
  const char *op = "distrt_redist_kind";
  ctx_t x;
  setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  /* Same tuples; the dimensions whose blocks differ are dealt over exactly
   * the grid axes of the step. */
  int64_t changed = 0;
  for (int64_t d = 0; d < x.S.ndims; ++d) {
    int same = x.S.naxes[d] == x.D.naxes[d];
    for (int64_t i = 0; same && i < x.S.naxes[d]; ++i)
      same = x.S.axes[d][i] == x.D.axes[d][i];
    if (!same)
      distrt_fatal(op, "dimension %lld is dealt over different grid axes in "
                       "the source and the destination: not a kind change",
                   (long long)d);
    if (x.S.Q[d] > 1 && x.S.bsz[d] != x.D.bsz[d])
      for (int64_t i = 0; i < x.S.naxes[d]; ++i)
        changed |= (int64_t)1 << x.S.axes[d][i];
  }
  if (changed != axes)
    distrt_fatal(op, "the dimensions whose blocks change are dealt over grid "
                     "axes 0x%llx, not the axes 0x%llx of the step",
                 (unsigned long long)changed, (unsigned long long)axes);
  alltoall_body(op, &x, axes, stile, dtile, dtype);
}

static void alltoall_body(const char *op, ctx_t *xp, int64_t axes,
                          const void *stile, void *dtile, int64_t dtype) {
  ctx_t x = *xp;
  distrt_grid *g = x.g;
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && !axis_used(&x.D, a))
      distrt_fatal(op, "grid axis %lld does not partition the destination: "
                       "not an all-to-all over it",
                   (long long)a);
  int64_t np = distrt_grid_mask_size(g, axes), c[RMAX];
  int64_t *sc = xalloc(op, (int64_t)sizeof(int64_t) * np);
  int64_t *rc = xalloc(op, (int64_t)sizeof(int64_t) * np);
  box_t *sb = xalloc(op, (int64_t)sizeof(box_t) * np);
  box_t *rb = xalloc(op, (int64_t)sizeof(box_t) * np);
  int64_t stot = 0, rtot = 0;
  for (int64_t j = 0; j < np; ++j) {
    member_coords(g, axes, j, c);
    sc[j] = intersect(op, g, &x.S, g->coords, &x.D, c, &sb[j]);
    rc[j] = intersect(op, g, &x.S, c, &x.D, g->coords, &rb[j]);
    stot += sc[j];
    rtot += rc[j];
  }
  if (stot != x.svol || rtot != x.dvol)
    distrt_fatal(op,
                 "the group exchanges %lld of %lld source and %lld of %lld "
                 "destination elements of this process: not an all-to-all",
                 (long long)stot, (long long)x.svol, (long long)rtot,
                 (long long)x.dvol);
  char *sbuf = xalloc(op, stot * x.es), *rbuf = xalloc(op, rtot * x.es);
  int64_t at = 0;
  for (int64_t j = 0; j < np; ++j) {
    pack_box(x.S.ndims, &sb[j], x.es, stile, x.sstr, sbuf + at * x.es);
    at += sc[j];
  }
  distrt_g.be->alltoallv(op, distrt_grid_sub(op, g, axes), sbuf, sc, rbuf, rc,
                         dtype);
  at = 0;
  for (int64_t j = 0; j < np; ++j) {
    unpack_box(x.S.ndims, &rb[j], x.es, rbuf + at * x.es, dtile, x.dstr);
    at += rc[j];
  }
  for (int64_t j = 0; j < np; ++j) {
    box_free(&sb[j], x.S.ndims);
    box_free(&rb[j], x.S.ndims);
  }
  free(rbuf);
  free(sbuf);
  free(rb);
  free(sb);
  free(rc);
  free(sc);
}

/*===----------------------------------------------------------------------===*
 * Partial sums: the source is a temporary with summed dimensions (bit mask
 * `sumdims`), distributed over the grid axes `axes` (the union of their
 * mesh modes).  Every process first sums its own slices of the summed
 * dimensions into a partial tile of the kept dimensions (layout K, which
 * does not use `axes`, so it is the same on every member of a group), then
 * the group reduces: allreduce (destination K), reduce-scatter (the freed
 * modes are tails of the destination's tuples) or reduce-to-one
 * (destination K fixed to coordinate 0 on the freed modes).
 *===----------------------------------------------------------------------===*/

static void add_elems(void *dst, const void *src, int64_t n, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
    for (int64_t i = 0; i < n; ++i)
      ((float *)dst)[i] += ((const float *)src)[i];
    break;
  case DISTRT_F64:
    for (int64_t i = 0; i < n; ++i)
      ((double *)dst)[i] += ((const double *)src)[i];
    break;
  case DISTRT_I32:
    for (int64_t i = 0; i < n; ++i)
      ((int32_t *)dst)[i] += ((const int32_t *)src)[i];
    break;
  default:
    for (int64_t i = 0; i < n; ++i)
      ((int64_t *)dst)[i] += ((const int64_t *)src)[i];
  }
}

/* Sums the dimensions in `sumdims` of the row-major array `in` (extents
 * ext[0..nd)) into `out` (the kept extents, zeroed here).  The innermost
 * kept run is added as a vector. */
static void sum_dims(const void *in, int64_t dtype, int64_t es, int64_t nd,
                     const int64_t *ext, int64_t sumdims, void *out,
                     int64_t outvol) {
  memset(out, 0, (size_t)(outvol * es));
  int64_t invol = 1;
  for (int64_t d = 0; d < nd; ++d)
    invol *= ext[d];
  if (invol == 0)
    return;
  /* Output stride of each input dimension (0 for summed ones). */
  int64_t ost[RMAX], s = 1;
  for (int64_t d = nd - 1; d >= 0; --d) {
    if (sumdims >> d & 1) {
      ost[d] = 0;
    } else {
      ost[d] = s;
      s *= ext[d];
    }
  }
  /* Innermost run: the trailing kept dimensions after the last summed one
   * are contiguous in both arrays. */
  int64_t run = 1, inner = nd;
  while (inner > 0 && !(sumdims >> (inner - 1) & 1)) {
    --inner;
    run *= ext[inner];
  }
  int64_t idx[RMAX] = {0}, off = 0;
  for (int64_t i = 0; i < invol; i += run) {
    add_elems((char *)out + off * es, (const char *)in + i * es, run, dtype);
    int64_t d = inner - 1;
    while (d >= 0) {
      off += ost[d];
      if (++idx[d] < ext[d])
        break;
      off -= ost[d] * ext[d];
      idx[d] = 0;
      --d;
    }
  }
}

typedef struct {
  distrt_grid *g;
  layout_t S, K, D;
  int64_t es, pvol, dvol;
  int64_t kext[RMAX], kstr[RMAX], dext[RMAX], dstr[RMAX];
  void *partial; /* the summed local tile, layout K */
} psum_t;

static void psum_setup(const char *op, distrt_grid *g, int64_t axes,
                       int64_t sumdims, const int64_t *sdesc,
                       const void *stile, const int64_t *ddesc, void *dtile,
                       int64_t dtype, int fixed_dest, psum_t *x) {
  distrt_require_init(op);
  x->g = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, g, axes);
  x->es = distrt_dtype_size(op, dtype);
  parse_balanced(op, g, sdesc, "source", 0, &x->S);
  parse_balanced(op, g, ddesc, "destination", fixed_dest, &x->D);
  if (sumdims <= 0 || sumdims >> x->S.ndims)
    distrt_fatal(op, "summed dimensions 0x%llx out of range for %lld "
                     "dimensions",
                 (unsigned long long)sumdims, (long long)x->S.ndims);
  /* K: the source without the summed dimensions; the freed modes must be
   * exactly `axes`. */
  memset(&x->K, 0, sizeof x->K);
  for (int64_t a = 0; a < g->ndims; ++a)
    x->K.role[a] = -1;
  int64_t freed = 0;
  for (int64_t d = 0; d < x->S.ndims; ++d) {
    if (sumdims >> d & 1) {
      if (x->S.naxes[d] == 0)
        distrt_fatal(op, "summed dimension %lld is not distributed",
                     (long long)d);
      for (int64_t i = 0; i < x->S.naxes[d]; ++i)
        freed |= (int64_t)1 << x->S.axes[d][i];
      continue;
    }
    int64_t k = x->K.ndims++;
    x->K.n[k] = x->S.n[d];
    x->K.kind[k] = x->S.kind[d];
    x->K.block[k] = x->S.block[d];
    x->K.naxes[k] = x->S.naxes[d];
    x->K.Q[k] = x->S.Q[d];
    x->K.bsz[k] = x->S.bsz[d];
    for (int64_t i = 0; i < x->S.naxes[d]; ++i) {
      x->K.axes[k][i] = x->S.axes[d][i];
      x->K.role[x->S.axes[d][i]] = k;
    }
  }
  if (freed != axes)
    distrt_fatal(op, "the summed dimensions are distributed over grid axes "
                     "0x%llx, not the axes 0x%llx of the reduction",
                 (unsigned long long)freed, (unsigned long long)axes);
  if (x->K.ndims != x->D.ndims)
    distrt_fatal(op, "destination has %lld dimensions; the source without "
                     "its summed dimensions has %lld",
                 (long long)x->D.ndims, (long long)x->K.ndims);
  for (int64_t d = 0; d < x->K.ndims; ++d)
    if (x->K.n[d] != x->D.n[d])
      distrt_fatal(op, "dimension %lld has extent %lld in the source and "
                       "%lld in the destination",
                   (long long)d, (long long)x->K.n[d], (long long)x->D.n[d]);
  int64_t sext[RMAX], sstr[RMAX];
  int64_t svol = tile_at(g, &x->S, g->coords, sext, sstr);
  if (svol > 0)
    distrt_check_buf(op, "source tile", stile, svol);
  x->pvol = tile_at(g, &x->K, g->coords, x->kext, x->kstr);
  x->dvol = tile_at(g, &x->D, g->coords, x->dext, x->dstr);
  int holder = 1;
  for (int64_t i = 0; i < x->D.nfixed; ++i)
    if (g->coords[x->D.faxis[i]] != x->D.fcoord[i])
      holder = 0;
  if (!holder)
    x->dvol = 0;
  if (x->dvol > 0)
    distrt_check_buf(op, "destination tile", dtile, x->dvol);
  x->partial = xalloc(op, x->pvol * x->es);
  sum_dims(stile, dtype, x->es, x->S.ndims, sext, sumdims, x->partial,
           x->pvol);
}

/* Whether dimension tuples of A and B are the same. */
static int same_tuples(const layout_t *A, const layout_t *B) {
  for (int64_t d = 0; d < A->ndims; ++d) {
    if (A->naxes[d] != B->naxes[d])
      return 0;
    if (A->Q[d] > 1 && A->bsz[d] != B->bsz[d])
      return 0;
    for (int64_t i = 0; i < A->naxes[d]; ++i)
      if (A->axes[d][i] != B->axes[d][i])
        return 0;
  }
  return 1;
}

void distrt_redist_allreduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                             const int64_t *sdesc, const void *stile,
                             const int64_t *ddesc, void *dtile,
                             int64_t dtype) {
  const char *op = "distrt_redist_allreduce";
  psum_t x;
  psum_setup(op, g, axes, sumdims, sdesc, stile, ddesc, dtile, dtype, 0, &x);
  if (!same_tuples(&x.K, &x.D))
    distrt_fatal(op, "the destination must be the source's layout without "
                     "the summed dimensions (the freed modes replicate)");
  if (x.pvol > 0) {
    memcpy(dtile, x.partial, (size_t)(x.pvol * x.es));
    distrt_g.be->allreduce(op, distrt_grid_sub(op, g, axes), dtile, x.pvol,
                           dtype, DISTRT_SUM);
  }
  free(x.partial);
}

void distrt_redist_reduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                          const int64_t *sdesc, const void *stile,
                          const int64_t *ddesc, void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_reduce";
  psum_t x;
  psum_setup(op, g, axes, sumdims, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  int64_t fixed = 0, ok = same_tuples(&x.K, &x.D);
  for (int64_t i = 0; i < x.D.nfixed; ++i) {
    fixed |= (int64_t)1 << x.D.faxis[i];
    ok = ok && x.D.fcoord[i] == 0;
  }
  if (!ok || fixed != axes)
    distrt_fatal(op, "the destination must be the source's layout without "
                     "the summed dimensions, fixed to coordinate 0 on the "
                     "freed grid axes");
  if (x.pvol > 0) {
    distrt_g.be->reduce(op, distrt_grid_sub(op, g, axes), x.partial, x.pvol,
                        dtype, DISTRT_SUM, 0);
    if (x.dvol > 0)
      memcpy(dtile, x.partial, (size_t)(x.pvol * x.es));
  }
  free(x.partial);
}

void distrt_redist_reduce_scatter(distrt_grid *g, int64_t axes,
                                  int64_t sumdims, const int64_t *sdesc,
                                  const void *stile, const int64_t *ddesc,
                                  void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_reduce_scatter";
  psum_t x;
  psum_setup(op, g, axes, sumdims, sdesc, stile, ddesc, dtile, dtype, 0, &x);
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && !axis_used(&x.D, a))
      distrt_fatal(op, "freed grid axis %lld does not partition the "
                       "destination: not a reduce-scatter over it",
                   (long long)a);
  int64_t np = distrt_grid_mask_size(g, axes), c[RMAX], me = -1;
  int64_t *cnt = xalloc(op, (int64_t)sizeof(int64_t) * np);
  box_t *bx = xalloc(op, (int64_t)sizeof(box_t) * np);
  int64_t cap = 0, total = 0;
  for (int64_t j = 0; j < np; ++j) {
    member_coords(g, axes, j, c);
    cnt[j] = intersect(op, g, &x.K, g->coords, &x.D, c, &bx[j]);
    total += cnt[j];
    if (cnt[j] > cap)
      cap = cnt[j];
  }
  me = distrt_grid_mask_rank(g, axes);
  if (total != x.pvol || cnt[me] != x.dvol)
    distrt_fatal(op, "the group's destination tiles cover %lld of the %lld "
                     "partial results of this process: not a reduce-scatter",
                 (long long)total, (long long)x.pvol);
  if (cap > 0) {
    char *sbuf = xalloc(op, distrt_mul(op, "reduce-scatter buffer", np * cap,
                                       x.es));
    memset(sbuf, 0, (size_t)(np * cap * x.es));
    for (int64_t j = 0; j < np; ++j)
      pack_box(x.K.ndims, &bx[j], x.es, x.partial, x.kstr,
               sbuf + j * cap * x.es);
    char *rbuf = xalloc(op, cap * x.es);
    distrt_g.be->reduce_scatter(op, distrt_grid_sub(op, g, axes), sbuf, rbuf,
                                cap, dtype, DISTRT_SUM);
    unpack_box(x.K.ndims, &bx[me], x.es, rbuf, dtile, x.dstr);
    free(rbuf);
    free(sbuf);
  }
  for (int64_t j = 0; j < np; ++j)
    box_free(&bx[j], x.K.ndims);
  free(bx);
  free(cnt);
  free(x.partial);
}

void distrt_sum_reference(distrt_grid *g, int64_t root, const void *in,
                          int64_t dtype, int64_t ndims, const int64_t *shape,
                          int64_t sumdims, void *out) {
  const char *op = "distrt_sum_reference";
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  if (ndims < 1 || ndims > RMAX || sumdims <= 0 || sumdims >> ndims)
    distrt_fatal(op, "bad dimensions (%lld, summed 0x%llx)", (long long)ndims,
                 (unsigned long long)sumdims);
  if (g->rank != root)
    return;
  /* Deliberately naive and independent of sum_dims: every input element,
   * its multi-index by division, added to its output element. */
  int64_t invol = 1, outvol = 1;
  for (int64_t d = 0; d < ndims; ++d) {
    invol *= shape[d];
    if (!(sumdims >> d & 1))
      outvol *= shape[d];
  }
  memset(out, 0, (size_t)(outvol * es));
  for (int64_t i = 0; i < invol; ++i) {
    int64_t rest = i, o = 0, mult = 1;
    for (int64_t d = ndims - 1; d >= 0; --d) {
      int64_t x = rest % shape[d];
      rest /= shape[d];
      if (!(sumdims >> d & 1)) {
        o += x * mult;
        mult *= shape[d];
      }
    }
    add_elems((char *)out + o * es, (const char *)in + i * es, 1, dtype);
  }
}

/*===----------------------------------------------------------------------===*
 * Non-replicated forms [D; E, w] (layouts fixed to coordinates on some grid
 * axes): gather-to-one, broadcast and scatter over `axes`.  Groups whose
 * coordinates on the other fixed axes do not match hold nothing on either
 * side and skip the step.
 *===----------------------------------------------------------------------===*/

typedef struct {
  distrt_grid *g;
  layout_t S, D;
  int64_t es, svol, dvol, np, me, root;
  int64_t sstr[RMAX], dstr[RMAX];
  int active; /* this group holds data */
} nr_t;

/* Whether coordinates c match L's fixed coordinates on axes outside
 * `skip`. */
static int fixed_match(const layout_t *L, const int64_t *c, int64_t skip) {
  for (int64_t i = 0; i < L->nfixed; ++i)
    if (!(skip >> L->faxis[i] & 1) && c[L->faxis[i]] != L->fcoord[i])
      return 0;
  return 1;
}

/* The fixed axes of L inside `axes` (mask) and the group member they name
 * (row-major over `axes`), or -1 when L fixes some axis of `axes` not. */
static int64_t fixed_member(const distrt_grid *g, const layout_t *L,
                            int64_t axes, int64_t *mask) {
  int64_t c[RMAX];
  memcpy(c, g->coords, sizeof(int64_t) * (size_t)g->ndims);
  *mask = 0;
  for (int64_t i = 0; i < L->nfixed; ++i)
    if (axes >> L->faxis[i] & 1) {
      *mask |= (int64_t)1 << L->faxis[i];
      c[L->faxis[i]] = L->fcoord[i];
    }
  int64_t r = 0;
  for (int64_t d = 0; d < g->ndims; ++d)
    if (axes >> d & 1)
      r = r * g->dims[d] + c[d];
  return r;
}

static void nr_setup(const char *op, distrt_grid *g, int64_t axes,
                     const int64_t *sdesc, const void *stile,
                     const int64_t *ddesc, void *dtile, int64_t dtype,
                     nr_t *x) {
  distrt_require_init(op);
  x->g = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, g, axes);
  if (axes == 0)
    distrt_fatal(op, "no grid axes to communicate over");
  x->es = distrt_dtype_size(op, dtype);
  parse_pair(op, g, sdesc, ddesc, 1, &x->S, &x->D);
  int64_t ext[RMAX];
  x->svol = tile_at(g, &x->S, g->coords, ext, x->sstr);
  x->dvol = tile_at(g, &x->D, g->coords, ext, x->dstr);
  if (!fixed_match(&x->S, g->coords, 0))
    x->svol = 0;
  if (!fixed_match(&x->D, g->coords, 0))
    x->dvol = 0;
  if (x->svol > 0)
    distrt_check_buf(op, "source tile", stile, x->svol);
  if (x->dvol > 0)
    distrt_check_buf(op, "destination tile", dtile, x->dvol);
  x->np = distrt_grid_mask_size(g, axes);
  x->me = distrt_grid_mask_rank(g, axes);
  /* Outside `axes` both layouts must fix the same coordinates. */
  int64_t ms = 0, md = 0;
  fixed_member(g, &x->S, axes, &ms);
  fixed_member(g, &x->D, axes, &md);
  for (int64_t i = 0; i < x->S.nfixed; ++i) {
    int64_t a = x->S.faxis[i], found = 0;
    if (axes >> a & 1)
      continue;
    for (int64_t j = 0; j < x->D.nfixed; ++j)
      found |= x->D.faxis[j] == a && x->D.fcoord[j] == x->S.fcoord[i];
    if (!found)
      distrt_fatal(op, "source and destination fix grid axis %lld "
                       "differently",
                   (long long)a);
  }
  int64_t ns = 0, nd = 0;
  for (int64_t a = 0; a < g->ndims; ++a) {
    ns += ms >> a & 1;
    nd += md >> a & 1;
  }
  if (x->S.nfixed - ns != x->D.nfixed - nd)
    distrt_fatal(op, "source and destination fix different grid axes "
                     "outside the step's");
  x->active = fixed_match(&x->S, g->coords, axes);
}

void distrt_redist_gather(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                          const void *stile, const int64_t *ddesc,
                          void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_gather";
  nr_t x;
  nr_setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, &x);
  int64_t mask;
  int64_t root = fixed_member(g, &x.D, axes, &mask);
  if (mask != axes)
    distrt_fatal(op, "the destination must be fixed on every axis of the "
                     "step (the root)");
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && (!axis_used(&x.S, a) || axis_used(&x.D, a)))
      distrt_fatal(op, "grid axis %lld must partition the source and not "
                       "the destination: not a gather over it",
                   (long long)a);
  if (!x.active)
    return;
  int64_t cap = largest_member_tile(g, axes, &x.S, x.np);
  if (cap == 0)
    return;
  char *all = x.me == root ? xalloc(op, distrt_mul(op, "gather buffer",
                                                   x.np * cap, x.es))
                           : NULL;
  char *mine = xalloc(op, cap * x.es);
  if (x.svol > 0)
    memcpy(mine, stile, (size_t)(x.svol * x.es));
  distrt_g.be->gather(op, distrt_grid_sub(op, g, axes), mine, all, cap,
                      dtype, root);
  if (x.me == root)
    unpack_members(op, g, axes, &x.S, &x.D, x.es, x.dstr, x.dvol, x.np, all,
                   cap, dtile, "a gather");
  free(mine);
  free(all);
}

void distrt_redist_bcast(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype) {
  const char *op = "distrt_redist_bcast";
  nr_t x;
  nr_setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, &x);
  int64_t mask;
  int64_t root = fixed_member(g, &x.S, axes, &mask);
  if (mask != axes || !same_tuples(&x.S, &x.D))
    distrt_fatal(op, "the source must be the destination fixed on every "
                     "axis of the step: not a broadcast");
  if (!x.active)
    return;
  int64_t n = member_tile(g, axes, &x.S, root);
  if (n != x.dvol)
    distrt_fatal(op, "root tile of %lld elements for a tile of %lld "
                     "(internal error)",
                 (long long)n, (long long)x.dvol);
  if (n == 0)
    return;
  if (x.me == root)
    memcpy(dtile, stile, (size_t)(n * x.es));
  distrt_g.be->bcast(op, distrt_grid_sub(op, g, axes), dtile, n, dtype, root);
}

void distrt_redist_scatter(distrt_grid *g, int64_t axes,
                           const int64_t *sdesc, const void *stile,
                           const int64_t *ddesc, void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_scatter";
  nr_t x;
  nr_setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, &x);
  int64_t mask;
  int64_t root = fixed_member(g, &x.S, axes, &mask);
  if (mask != axes)
    distrt_fatal(op, "the source must be fixed on every axis of the step "
                     "(the root)");
  for (int64_t a = 0; a < g->ndims; ++a)
    if ((axes >> a & 1) && (axis_used(&x.S, a) || !axis_used(&x.D, a)))
      distrt_fatal(op, "grid axis %lld must partition the destination and "
                       "not the source: not a scatter over it",
                   (long long)a);
  if (!x.active)
    return;
  int64_t c[RMAX], rc[RMAX];
  int64_t *cnt = xalloc(op, (int64_t)sizeof(int64_t) * x.np);
  box_t *bx = xalloc(op, (int64_t)sizeof(box_t) * x.np);
  memset(cnt, 0, sizeof(int64_t) * (size_t)x.np);
  int64_t cap = 0, total = 0;
  member_coords(g, axes, root, rc);
  for (int64_t j = 0; j < x.np; ++j) {
    member_coords(g, axes, j, c);
    cnt[j] = intersect(op, g, &x.S, rc, &x.D, c, &bx[j]);
    total += cnt[j];
    if (cnt[j] > cap)
      cap = cnt[j];
  }
  if (cnt[x.me] != x.dvol)
    distrt_fatal(op, "the root holds %lld of this process's %lld elements: "
                     "not a scatter",
                 (long long)cnt[x.me], (long long)x.dvol);
  if (cap > 0) {
    char *sbuf = NULL;
    if (x.me == root) {
      if (total != x.svol)
        distrt_fatal(op, "the group's tiles cover %lld of the root's %lld "
                         "elements: not a scatter",
                     (long long)total, (long long)x.svol);
      sbuf = xalloc(op, distrt_mul(op, "scatter buffer", x.np * cap, x.es));
      int64_t sst[RMAX], ext[RMAX];
      tile_at(g, &x.S, rc, ext, sst);
      for (int64_t j = 0; j < x.np; ++j)
        pack_box(x.S.ndims, &bx[j], x.es, stile, sst,
                 sbuf + j * cap * x.es);
    }
    char *rbuf = xalloc(op, cap * x.es);
    distrt_g.be->scatter(op, distrt_grid_sub(op, g, axes), sbuf, rbuf, cap,
                         dtype, root);
    unpack_box(x.S.ndims, &bx[x.me], x.es, rbuf, dtile, x.dstr);
    free(rbuf);
    free(sbuf);
  }
  for (int64_t j = 0; j < x.np; ++j)
    box_free(&bx[j], x.S.ndims);
  free(bx);
  free(cnt);
}
