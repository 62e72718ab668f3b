/*
 * redist_plan.c - which elements of a tile go to which member of a group,
 * for the balanced redistribution steps (redistribute.c, redist_sum.c;
 * shared declarations in redist_internal.h).
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
#include "redist_internal.h"

#include <stdlib.h>
#include <string.h>

/* A layout as the steps read it: parsed by the runtime's one descriptor
 * parser (parse_layout_as, layout_desc.c), refusing skewed dimensions and,
 * unless `allow_fixed`, fixed axes.  Every partitioned dimension is dealt
 * block-cyclically, blocks of bsz[d] elements over Q[d] processes (blocked:
 * ceil(n/Q); cyclic: 1; unpartitioned: Q = 1, bsz = n). */
void parse_balanced(const char *op, const distrt_grid *g,
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

/* Both layouts of a step, which must describe tensors of one shape. */
void parse_pair(const char *op, const distrt_grid *g,
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
int64_t tile_at(const distrt_grid *g, const layout_t *L,
                const int64_t *c, int64_t *ext, int64_t *stride) {
  int64_t s = 1;
  for (int64_t d = L->ndims - 1; d >= 0; --d) {
    ext[d] = local_extent(L, d, dim_q(g, L, d, c));
    stride[d] = s;
    s *= ext[d];
  }
  return s;
}

void box_free(box_t *b, int64_t nd) {
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
int64_t intersect(const char *op, const distrt_grid *g,
                  const layout_t *S, const int64_t *cs,
                  const layout_t *D, const int64_t *cd, box_t *b) {
  int64_t total = 1;
  memset(b, 0, sizeof *b);
  for (int64_t d = 0; d < S->ndims; ++d) {
    int64_t Qs = S->Q[d], Bs = S->bsz[d], qs = dim_q(g, S, d, cs);
    int64_t Qd = D->Q[d], Bd = D->bsz[d], qd = dim_q(g, D, d, cd);
    int64_t n = S->n[d], nbs = distrt_ceil_div(n, Bs), cap = 0, cnt = 0;
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
int64_t copy_segs(int64_t nd, const box_t *b, int64_t es,
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
void pack_box(int64_t nd, const box_t *b, int64_t es, const void *tile,
              const int64_t *tstride, void *buf) {
  copy_segs(nd, b, es, tile, tstride, 0, buf, NULL, 0);
}

/* Unpack dense `buf` into the box of a destination tile. */
void unpack_box(int64_t nd, const box_t *b, int64_t es,
                const void *buf, void *tile, const int64_t *tstride) {
  copy_segs(nd, b, es, buf, NULL, 0, tile, tstride, 1);
}

/* Coordinates of member j of this process's group over `axes` (row-major
 * over the selected axes, as the sub-communicators number them). */
void member_coords(const distrt_grid *g, int64_t axes, int64_t j,
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
int64_t member_tile(const distrt_grid *g, int64_t axes,
                    const layout_t *L, int64_t j) {
  int64_t c[RMAX], ext[RMAX], st[RMAX];
  member_coords(g, axes, j, c);
  return tile_at(g, L, c, ext, st);
}

/* The largest member_tile over the np members of the group. */
int64_t largest_member_tile(const distrt_grid *g, int64_t axes,
                            const layout_t *L, int64_t np) {
  int64_t cap = 0;
  for (int64_t j = 0; j < np; ++j) {
    int64_t v = member_tile(g, axes, L, j);
    if (v > cap)
      cap = v;
  }
  return cap;
}

void *xalloc(const char *op, int64_t bytes) {
  void *p = malloc((size_t)(bytes > 0 ? bytes : 1));
  if (!p)
    distrt_fatal(op, "cannot allocate %lld bytes", (long long)bytes);
  return p;
}

/* Whether dimension tuples of A and B are the same. */
int same_tuples(const layout_t *A, const layout_t *B) {
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
