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
 * The partial-sum steps are in redist_sum.c; which elements go where, and
 * the packing, in redist_plan.c.
 */
#include "redist_internal.h"

#include <stdlib.h>
#include <string.h>

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

static void redist_slice_impl(distrt_grid *g, const int64_t *sdesc,
                              const void *stile, const int64_t *ddesc,
                              void *dtile, int64_t dtype) {
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

static void redist_allgather_impl(distrt_grid *g, int64_t axes,
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
  char *all = distrt_alloc(distrt_mul(op, "allgather buffer", np * cap, x.es));
  char *mine = distrt_alloc(cap * x.es);
  if (x.svol > 0)
    memcpy(mine, stile, (size_t)(x.svol * x.es));
  if (cap > 0)
    distrt_g.be->allgather(op, distrt_grid_sub(op, g, axes), mine, all, cap,
                           dtype);
  unpack_members(op, g, axes, &x.S, &x.D, x.es, x.dstr, x.dvol, np, all, cap,
                 dtile, "an allgather");
  distrt_free(mine);
  distrt_free(all);
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

static void redist_permute_impl(distrt_grid *g, int64_t axes,
                                const int64_t *sdesc, const void *stile,
                                const int64_t *ddesc, void *dtile,
                                int64_t dtype) {
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

static void redist_alltoall_impl(distrt_grid *g, int64_t axes,
                                 const int64_t *sdesc, const void *stile,
                                 const int64_t *ddesc, void *dtile,
                                 int64_t dtype) {
  const char *op = "distrt_redist_alltoall";
  ctx_t x;
  setup(op, g, axes, sdesc, stile, ddesc, dtile, dtype, 1, &x);
  alltoall_body(op, &x, axes, stile, dtile, dtype);
}

static void redist_kind_impl(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                             const void *stile, const int64_t *ddesc,
                             void *dtile, int64_t dtype) {
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
  /* My own part goes straight from the source tile into the destination
   * tile (unless they overlap): not packed, sent to myself and unpacked. */
  int64_t me = distrt_grid_mask_rank(g, axes);
  uintptr_t s0 = (uintptr_t)stile, d0 = (uintptr_t)dtile;
  int direct = s0 + (uintptr_t)(x.svol * x.es) <= d0 ||
               d0 + (uintptr_t)(x.dvol * x.es) <= s0;
  if (direct) {
    if (sc[me] > 0)
      copy_segs(x.S.ndims, &sb[me], x.es, stile, x.sstr, 0, dtile, x.dstr, 1);
    stot -= sc[me];
    rtot -= rc[me];
    sc[me] = rc[me] = 0;
  }
  /* From the runtime's reuse cache (alloc.c): a redistribution called every
   * step does not page-fault fresh buffers of a whole tile each time. */
  char *sbuf = distrt_alloc(stot * x.es), *rbuf = distrt_alloc(rtot * x.es);
  int64_t at = 0;
  for (int64_t j = 0; j < np; ++j) {
    if (direct && j == me)
      continue;
    pack_box(x.S.ndims, &sb[j], x.es, stile, x.sstr, sbuf + at * x.es);
    at += sc[j];
  }
  distrt_g.be->alltoallv(op, distrt_grid_sub(op, g, axes), sbuf, sc, rbuf, rc,
                         dtype);
  at = 0;
  for (int64_t j = 0; j < np; ++j) {
    if (direct && j == me)
      continue;
    unpack_box(x.S.ndims, &rb[j], x.es, rbuf + at * x.es, dtile, x.dstr);
    at += rc[j];
  }
  for (int64_t j = 0; j < np; ++j) {
    box_free(&sb[j], x.S.ndims);
    box_free(&rb[j], x.S.ndims);
  }
  distrt_free(rbuf);
  distrt_free(sbuf);
  free(rb);
  free(sb);
  free(rc);
  free(sc);
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

static void redist_gather_impl(distrt_grid *g, int64_t axes,
                               const int64_t *sdesc, const void *stile,
                               const int64_t *ddesc, void *dtile,
                               int64_t dtype) {
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
  char *all = x.me == root ? distrt_alloc(distrt_mul(op, "gather buffer",
                                                   x.np * cap, x.es))
                           : NULL;
  char *mine = distrt_alloc(cap * x.es);
  if (x.svol > 0)
    memcpy(mine, stile, (size_t)(x.svol * x.es));
  distrt_g.be->gather(op, distrt_grid_sub(op, g, axes), mine, all, cap,
                      dtype, root);
  if (x.me == root)
    unpack_members(op, g, axes, &x.S, &x.D, x.es, x.dstr, x.dvol, x.np, all,
                   cap, dtile, "a gather");
  distrt_free(mine);
  distrt_free(all);
}

static void redist_bcast_impl(distrt_grid *g, int64_t axes,
                              const int64_t *sdesc, const void *stile,
                              const int64_t *ddesc, void *dtile,
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

static void redist_scatter_impl(distrt_grid *g, int64_t axes,
                                const int64_t *sdesc, const void *stile,
                                const int64_t *ddesc, void *dtile,
                                int64_t dtype) {
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
      sbuf = distrt_alloc(distrt_mul(op, "scatter buffer", x.np * cap, x.es));
      int64_t sst[RMAX], ext[RMAX];
      tile_at(g, &x.S, rc, ext, sst);
      for (int64_t j = 0; j < x.np; ++j)
        pack_box(x.S.ndims, &bx[j], x.es, stile, sst,
                 sbuf + j * cap * x.es);
    }
    char *rbuf = distrt_alloc(cap * x.es);
    distrt_g.be->scatter(op, distrt_grid_sub(op, g, axes), sbuf, rbuf, cap,
                         dtype, root);
    unpack_box(x.S.ndims, &bx[x.me], x.es, rbuf, dtile, x.dstr);
    distrt_free(rbuf);
    distrt_free(sbuf);
  }
  for (int64_t j = 0; j < x.np; ++j)
    box_free(&bx[j], x.S.ndims);
  free(bx);
  free(cnt);
}

/* ---- profiled entry points (profile.c: packing) ------------------------*/

void distrt_redist_slice(distrt_grid *g, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype) {
  const char *op = "distrt_redist_slice";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_slice_impl(g, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_allgather(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                             const void *stile, const int64_t *ddesc,
                             void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_allgather";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_allgather_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_permute(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                           const void *stile, const int64_t *ddesc, void *dtile,
                           int64_t dtype) {
  const char *op = "distrt_redist_permute";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_permute_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_alltoall(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                            const void *stile, const int64_t *ddesc,
                            void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_alltoall";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_alltoall_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_kind(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                        const void *stile, const int64_t *ddesc, void *dtile,
                        int64_t dtype) {
  const char *op = "distrt_redist_kind";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_kind_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_gather(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                          const void *stile, const int64_t *ddesc, void *dtile,
                          int64_t dtype) {
  const char *op = "distrt_redist_gather";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_gather_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_bcast(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype) {
  const char *op = "distrt_redist_bcast";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_bcast_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_scatter(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                           const void *stile, const int64_t *ddesc, void *dtile,
                           int64_t dtype) {
  const char *op = "distrt_redist_scatter";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_scatter_impl(g, axes, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}
