/*
 * redist_sum.c - the partial-sum steps of a redistribution (dist.redistribute
 * ... sum [...]): allreduce, reduce-scatter and reduce-to-one over the grid
 * axes of the summed dimensions, and distrt_sum_reference, their --check
 * reference.  Shared helpers: redist_internal.h.
 */
#include "redist_internal.h"

#include <stdlib.h>
#include <string.h>

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
  x->partial = distrt_alloc(x->pvol * x->es);
  sum_dims(stile, dtype, x->es, x->S.ndims, sext, sumdims, x->partial,
           x->pvol);
}
static void redist_allreduce_impl(distrt_grid *g, int64_t axes, int64_t sumdims,
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
  distrt_free(x.partial);
}

static void redist_reduce_impl(distrt_grid *g, int64_t axes, int64_t sumdims,
                               const int64_t *sdesc, const void *stile,
                               const int64_t *ddesc, void *dtile,
                               int64_t dtype) {
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
  distrt_free(x.partial);
}

static void redist_reduce_scatter_impl(distrt_grid *g, int64_t axes,
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
    char *sbuf = distrt_alloc(
        distrt_mul(op, "reduce-scatter buffer", np * cap, x.es));
    memset(sbuf, 0, (size_t)(np * cap * x.es));
    for (int64_t j = 0; j < np; ++j)
      pack_box(x.K.ndims, &bx[j], x.es, x.partial, x.kstr,
               sbuf + j * cap * x.es);
    char *rbuf = distrt_alloc(cap * x.es);
    distrt_g.be->reduce_scatter(op, distrt_grid_sub(op, g, axes), sbuf, rbuf,
                                cap, dtype, DISTRT_SUM);
    unpack_box(x.K.ndims, &bx[me], x.es, rbuf, dtile, x.dstr);
    distrt_free(rbuf);
    distrt_free(sbuf);
  }
  for (int64_t j = 0; j < np; ++j)
    box_free(&bx[j], x.K.ndims);
  free(bx);
  free(cnt);
  distrt_free(x.partial);
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
    if (shape[d] < 0)
      distrt_fatal(op, "dimension %lld has extent %lld", (long long)d,
                   (long long)shape[d]);
    invol = distrt_mul(op, "the input's element count", invol, shape[d]);
    if (!(sumdims >> d & 1))
      outvol = distrt_mul(op, "the output's element count", outvol, shape[d]);
  }
  outvol = distrt_mul(op, "the output's bytes", outvol, es) / es;
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

/* ---- profiled entry points (profile.c: packing) ------------------------*/

void distrt_redist_allreduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                             const int64_t *sdesc, const void *stile,
                             const int64_t *ddesc, void *dtile,
                             int64_t dtype) {
  const char *op = "distrt_redist_allreduce";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_allreduce_impl(g, axes, sumdims, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_reduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                          const int64_t *sdesc, const void *stile,
                          const int64_t *ddesc, void *dtile, int64_t dtype) {
  const char *op = "distrt_redist_reduce";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_reduce_impl(g, axes, sumdims, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}

void distrt_redist_reduce_scatter(distrt_grid *g, int64_t axes, int64_t sumdims,
                                  const int64_t *sdesc, const void *stile,
                                  const int64_t *ddesc, void *dtile,
                                  int64_t dtype) {
  const char *op = "distrt_redist_reduce_scatter";
  distrt_profile_enter(DISTRT_PROF_PACK);
  void *hs, *hd; /* device tiles: staged (device_stage.c) */
  distrt_stage_pair_in(op, g, sdesc, stile, ddesc, dtile, dtype, &hs, &hd);
  redist_reduce_scatter_impl(g, axes, sumdims, sdesc, hs, ddesc, hd, dtype);
  distrt_stage_pair_out(op, g, sdesc, stile, ddesc, dtile, dtype, hs, hd);
  distrt_profile_leave();
}
