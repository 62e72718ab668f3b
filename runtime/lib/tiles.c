/*===- tiles.c - tile descriptors: extents, fill, gather, check -*- C -*-===*/

#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- one dimension ----------------------------------------------------===*/

/* Validate (n, p, c, b) of dimension `dim` (or a lone dimension if dim < 0). */
static void check_dim(const char *op, int64_t dim, int64_t n, int64_t p,
                      int64_t c, int64_t b) {
  char where[48] = "";
  if (dim >= 0)
    snprintf(where, sizeof where, "dimension %lld: ", (long long)dim);
  if (n < 0)
    distrt_fatal(op, "%sglobal extent %lld is negative", where, (long long)n);
  if (p < 1)
    distrt_fatal(op, "%sprocess count %lld must be >= 1", where, (long long)p);
  if (c < 0 || c >= p)
    distrt_fatal(op, "%scoordinate %lld is out of range for %lld process%s",
                 where, (long long)c, (long long)p, p == 1 ? "" : "es");
  if (b < 1 && !(b == 0 && n == 0))
    distrt_fatal(op, "%sblock size %lld must be >= 1", where, (long long)b);
}

static int64_t extent(int64_t n, int64_t p, int64_t c, int64_t b) {
  if (n == 0)
    return 0;
  int64_t bp, cb;
  int64_t full = 0, rem = n;
  if (!__builtin_mul_overflow(b, p, &bp)) {
    full = n / bp;
    rem = n % bp;
  }
  int64_t tail = 0;
  if (!__builtin_mul_overflow(c, b, &cb) && cb < rem) {
    tail = rem - cb;
    if (tail > b)
      tail = b;
  }
  return full * b + tail;
}

static inline int64_t to_global(int64_t l, int64_t p, int64_t c, int64_t b) {
  return (l / b) * (b * p) + c * b + (l % b);
}

int64_t distrt_local_extent(int64_t n, int64_t p, int64_t c, int64_t b) {
  check_dim("distrt_local_extent", -1, n, p, c, b);
  return extent(n, p, c, b);
}

int64_t distrt_local_to_global(int64_t l, int64_t p, int64_t c, int64_t b) {
  const char *op = "distrt_local_to_global";
  if (l < 0)
    distrt_fatal(op, "local index %lld is negative", (long long)l);
  if (b < 1)
    distrt_fatal(op, "block size %lld must be >= 1", (long long)b);
  check_dim(op, -1, 0, p, c, b);
  int64_t bp, q, r;
  if (__builtin_mul_overflow(b, p, &bp) ||
      __builtin_mul_overflow(l / b, bp, &q) ||
      __builtin_add_overflow(q, c * b + l % b, &r))
    distrt_fatal(op, "global index of local index %lld overflows",
                 (long long)l);
  return r;
}

/*===-- values -----------------------------------------------------------===*/

static uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static double value(int64_t seed, int64_t linear) {
  uint64_t h = splitmix64((uint64_t)seed * 0xD1B54A32D192ED03ULL ^
                          splitmix64((uint64_t)linear));
  int64_t k = (int64_t)(h >> 40); /* 24 bits */
  return (double)(k - (1 << 23)) / 8388608.0;
}

double distrt_value(int64_t seed, int64_t linear) {
  if (linear < 0)
    distrt_fatal("distrt_value", "linear index %lld is negative",
                 (long long)linear);
  return value(seed, linear);
}

static void store(void *base, int64_t i, int64_t dtype, double v) {
  switch (dtype) {
  case DISTRT_F32:
    ((float *)base)[i] = (float)v;
    break;
  case DISTRT_F64:
    ((double *)base)[i] = v;
    break;
  case DISTRT_I32:
    ((int32_t *)base)[i] = (int32_t)floor(8.0 * v);
    break;
  default:
    ((int64_t *)base)[i] = (int64_t)floor(8.0 * v);
    break;
  }
}

static double load(const void *base, int64_t i, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
    return ((const float *)base)[i];
  case DISTRT_F64:
    return ((const double *)base)[i];
  case DISTRT_I32:
    return ((const int32_t *)base)[i];
  default:
    return (double)((const int64_t *)base)[i];
  }
}

/*===-- descriptors ------------------------------------------------------===*/

struct desc {
  int64_t dtype, es, ndims;
  int64_t shape[DISTRT_MAX_DIMS], procs[DISTRT_MAX_DIMS];
  int64_t coords[DISTRT_MAX_DIMS], blocks[DISTRT_MAX_DIMS];
  int64_t local[DISTRT_MAX_DIMS]; /* local extents */
  int64_t local_count;            /* product of local extents */
  int64_t global_count;           /* product of shape */
  int64_t stride[DISTRT_MAX_DIMS]; /* global row-major strides */
};

static void desc_init(const char *op, struct desc *d, int64_t dtype,
                      int64_t ndims, const int64_t *shape,
                      const int64_t *procs, const int64_t *coords,
                      const int64_t *blocks) {
  d->dtype = dtype;
  d->es = distrt_dtype_size(op, dtype);
  if (ndims < 0 || ndims > DISTRT_MAX_DIMS)
    distrt_fatal(op, "ndims %lld is out of range (0 .. %d)", (long long)ndims,
                 DISTRT_MAX_DIMS);
  d->ndims = ndims;
  if (ndims > 0) {
    if (!shape)
      distrt_fatal(op, "shape is NULL");
    if (!procs)
      distrt_fatal(op, "procs is NULL");
    if (!coords)
      distrt_fatal(op, "coords is NULL");
    if (!blocks)
      distrt_fatal(op, "blocks is NULL");
  }
  d->local_count = 1;
  d->global_count = 1;
  for (int64_t i = 0; i < ndims; ++i) {
    check_dim(op, i, shape[i], procs[i], coords[i], blocks[i]);
    d->shape[i] = shape[i];
    d->procs[i] = procs[i];
    d->coords[i] = coords[i];
    d->blocks[i] = blocks[i];
    d->local[i] = extent(shape[i], procs[i], coords[i], blocks[i]);
    d->local_count =
        distrt_mul(op, "local element count", d->local_count, d->local[i]);
    d->global_count =
        distrt_mul(op, "global element count", d->global_count, shape[i]);
  }
  distrt_mul(op, "tensor size in bytes", d->global_count, d->es);
  int64_t s = 1;
  for (int64_t i = ndims - 1; i >= 0; --i) {
    d->stride[i] = s;
    s *= d->shape[i];
  }
}

/* Calls fn(ctx, local_linear, global_linear) for every tile element, in
 * local row-major order. */
typedef void (*elem_fn)(void *ctx, int64_t l, int64_t g);

static void for_each(const struct desc *d, elem_fn fn, void *ctx) {
  if (d->local_count == 0)
    return;
  if (d->ndims == 0) {
    fn(ctx, 0, 0);
    return;
  }
  int64_t idx[DISTRT_MAX_DIMS] = {0};
  int64_t last = d->ndims - 1;
  int64_t l = 0;
  for (;;) {
    int64_t base = 0; /* global offset of all dims but the last */
    for (int64_t i = 0; i < last; ++i)
      base += to_global(idx[i], d->procs[i], d->coords[i], d->blocks[i]) *
              d->stride[i];
    for (int64_t j = 0; j < d->local[last]; ++j)
      fn(ctx, l++,
         base + to_global(j, d->procs[last], d->coords[last], d->blocks[last]));
    int64_t i = last - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < d->local[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      return;
  }
}

struct fill_ctx {
  void *tile;
  int64_t dtype, seed;
};

static void fill_one(void *ctx, int64_t l, int64_t g) {
  struct fill_ctx *f = (struct fill_ctx *)ctx;
  store(f->tile, l, f->dtype, value(f->seed, g));
}

void distrt_fill(void *tile, int64_t dtype, int64_t ndims, const int64_t *shape,
                 const int64_t *procs, const int64_t *coords,
                 const int64_t *blocks, int64_t seed) {
  const char *op = "distrt_fill";
  struct desc d;
  desc_init(op, &d, dtype, ndims, shape, procs, coords, blocks);
  distrt_check_buf(op, "tile", tile, d.local_count);
  int64_t bytes = d.local_count * d.es;
  void *h = distrt_stage_in(op, tile, bytes, 0); /* device: host scratch */
  struct fill_ctx f = {h, dtype, seed};
  for_each(&d, fill_one, &f);
  distrt_stage_out(op, tile, h, bytes, 1);
}

void distrt_fill_global(void *buf, int64_t dtype, int64_t ndims,
                        const int64_t *shape, int64_t seed) {
  const char *op = "distrt_fill_global";
  if (ndims < 0 || ndims > DISTRT_MAX_DIMS)
    distrt_fatal(op, "ndims %lld is out of range (0 .. %d)", (long long)ndims,
                 DISTRT_MAX_DIMS);
  if (ndims > 0 && !shape)
    distrt_fatal(op, "shape is NULL");
  int64_t ones[DISTRT_MAX_DIMS], zeros[DISTRT_MAX_DIMS];
  for (int64_t i = 0; i < ndims; ++i) {
    ones[i] = 1;
    zeros[i] = 0;
  }
  struct desc d;
  desc_init(op, &d, dtype, ndims, shape, ones, zeros, shape);
  distrt_check_buf(op, "buf", buf, d.global_count);
  struct fill_ctx f = {buf, dtype, seed};
  for_each(&d, fill_one, &f);
}

/*===-- gather -----------------------------------------------------------===*/

/* Header every process sends to the root. */
enum {
  H_DTYPE,
  H_NDIMS,
  H_LOCAL,
  H_SHAPE,
  H_PROCS = H_SHAPE + DISTRT_MAX_DIMS,
  H_COORDS = H_PROCS + DISTRT_MAX_DIMS,
  H_BLOCKS = H_COORDS + DISTRT_MAX_DIMS,
  H_LEN = H_BLOCKS + DISTRT_MAX_DIMS
};

static void format_index(char *out, size_t n, const struct desc *d,
                         int64_t linear) {
  size_t len = (size_t)snprintf(out, n, "(");
  for (int64_t i = 0; i < d->ndims && len < n; ++i)
    len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? ", " : "",
                            (long long)((linear / d->stride[i]) % d->shape[i]));
  if (len < n)
    snprintf(out + len, n - len, ")");
}

static void format_value(char *out, size_t n, const void *p, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32: {
    float f;
    uint32_t bits;
    memcpy(&f, p, 4);
    memcpy(&bits, p, 4);
    snprintf(out, n, "%.9g (bits 0x%08x)", (double)f, (unsigned)bits);
    break;
  }
  case DISTRT_F64: {
    double f;
    uint64_t bits;
    memcpy(&f, p, 8);
    memcpy(&bits, p, 8);
    snprintf(out, n, "%.17g (bits 0x%016llx)", f, (unsigned long long)bits);
    break;
  }
  case DISTRT_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    snprintf(out, n, "%d", (int)v);
    break;
  }
  default: {
    int64_t v;
    memcpy(&v, p, 8);
    snprintf(out, n, "%lld", (long long)v);
    break;
  }
  }
}

struct place_ctx {
  const char *tile; /* the tile being placed */
  char *global;
  int32_t *owner; /* per global element, -1 = nobody yet */
  int64_t es, rank;
  /* first (lowest linear index) disagreement so far */
  int64_t bad, bad_rank_a, bad_rank_b;
  char bad_a[8], bad_b[8];
};

static void place_one(void *ctx, int64_t l, int64_t g) {
  struct place_ctx *p = (struct place_ctx *)ctx;
  const char *src = p->tile + l * p->es;
  char *dst = p->global + g * p->es;
  if (p->owner[g] < 0) {
    memcpy(dst, src, (size_t)p->es);
    p->owner[g] = (int32_t)p->rank;
  } else if (memcmp(dst, src, (size_t)p->es) != 0 &&
             (p->bad < 0 || g < p->bad)) {
    p->bad = g;
    p->bad_rank_a = p->owner[g];
    p->bad_rank_b = p->rank;
    memcpy(p->bad_a, dst, (size_t)p->es);
    memcpy(p->bad_b, src, (size_t)p->es);
  }
}

static void gather_tensor(const char *op, distrt_grid *G, const void *tile,
                          int64_t dtype, int64_t ndims, const int64_t *shape,
                          const int64_t *procs, const int64_t *coords,
                          const int64_t *blocks, void *global, int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  struct desc d;
  desc_init(op, &d, dtype, ndims, shape, procs, coords, blocks);
  distrt_check_count(op, "local element count", d.local_count);
  distrt_check_buf(op, "tile", tile, d.local_count);
  if (root < 0 || root >= G->size)
    distrt_fatal(op, "root %lld is out of range for a grid of %lld processes",
                 (long long)root, (long long)G->size);
  int is_root = G->rank == root;
  if (is_root)
    distrt_check_buf(op, "global (at root)", global, d.global_count);

  int64_t hdr[H_LEN] = {0};
  hdr[H_DTYPE] = dtype;
  hdr[H_NDIMS] = ndims;
  hdr[H_LOCAL] = d.local_count;
  for (int64_t i = 0; i < ndims; ++i) {
    hdr[H_SHAPE + i] = d.shape[i];
    hdr[H_PROCS + i] = d.procs[i];
    hdr[H_COORDS + i] = d.coords[i];
    hdr[H_BLOCKS + i] = d.blocks[i];
  }
  int64_t *all = NULL;
  if (is_root) {
    all = (int64_t *)malloc((size_t)G->size * H_LEN * sizeof *all);
    if (!all)
      distrt_fatal(op, "out of memory gathering %lld descriptors",
                   (long long)G->size);
  }
  if (G->size > 1)
    be->gather(op, G->icomm, hdr, all, H_LEN, DISTRT_I64, root);
  else
    memcpy(all, hdr, sizeof hdr);

  if (!is_root) {
    be->send(op, G->icomm, tile, d.local_count, dtype, root, DISTRT_TAG_GATHER);
    /* Wait for the root's verdict, so that no rank runs ahead (e.g. into
     * distrt_finalize) while the root may still stop the job. */
    int64_t ok = 0;
    if (G->size > 1)
      be->bcast(op, G->icomm, &ok, 1, DISTRT_I64, root);
    return;
  }

  /* Root: check that everybody describes the same tensor. */
  int64_t max_local = 0;
  for (int64_t r = 0; r < G->size; ++r) {
    const int64_t *h = all + r * H_LEN;
    if (h[H_DTYPE] != dtype || h[H_NDIMS] != ndims)
      distrt_fatal(op,
                   "rank %lld passed dtype %s with %lld dimensions, but rank "
                   "%lld passed dtype %s with %lld dimensions",
                   (long long)r, distrt_dtype_name(h[H_DTYPE]),
                   (long long)h[H_NDIMS], (long long)root,
                   distrt_dtype_name(dtype), (long long)ndims);
    for (int64_t i = 0; i < ndims; ++i)
      if (h[H_SHAPE + i] != d.shape[i])
        distrt_fatal(op,
                     "rank %lld passed extent %lld for dimension %lld, but "
                     "rank %lld passed %lld",
                     (long long)r, (long long)h[H_SHAPE + i], (long long)i,
                     (long long)root, (long long)d.shape[i]);
    if (h[H_LOCAL] > max_local)
      max_local = h[H_LOCAL];
  }

  int32_t *owner = (int32_t *)malloc((size_t)(d.global_count ? d.global_count
                                                             : 1) *
                                     sizeof *owner);
  char *buf = (char *)malloc((size_t)(max_local ? max_local : 1) * d.es);
  if (!owner || !buf)
    distrt_fatal(op, "out of memory assembling a tensor of %lld elements",
                 (long long)d.global_count);
  for (int64_t i = 0; i < d.global_count; ++i)
    owner[i] = -1;

  struct place_ctx pc;
  pc.global = (char *)global;
  pc.owner = owner;
  pc.es = d.es;
  pc.bad = -1;
  pc.bad_rank_a = pc.bad_rank_b = -1;
  for (int64_t r = 0; r < G->size; ++r) {
    const int64_t *h = all + r * H_LEN;
    struct desc rd;
    desc_init(op, &rd, dtype, ndims, h + H_SHAPE, h + H_PROCS, h + H_COORDS,
              h + H_BLOCKS);
    if (r == root) {
      pc.tile = (const char *)tile;
    } else {
      be->recv(op, G->icomm, buf, h[H_LOCAL], dtype, r, DISTRT_TAG_GATHER);
      pc.tile = buf;
    }
    pc.rank = r;
    for_each(&rd, place_one, &pc);
  }

  if (pc.bad >= 0) {
    char where[256], va[96], vb[96];
    format_index(where, sizeof where, &d, pc.bad);
    format_value(va, sizeof va, pc.bad_a, dtype);
    format_value(vb, sizeof vb, pc.bad_b, dtype);
    distrt_fatal(op,
                 "replicated copies disagree at element %s (linear index "
                 "%lld): rank %lld holds %s but rank %lld holds %s",
                 where, (long long)pc.bad, (long long)pc.bad_rank_a, va,
                 (long long)pc.bad_rank_b, vb);
  }
  int64_t unowned = 0, first = -1;
  for (int64_t i = 0; i < d.global_count; ++i)
    if (owner[i] < 0) {
      if (first < 0)
        first = i;
      ++unowned;
    }
  if (unowned) {
    char where[256];
    format_index(where, sizeof where, &d, first);
    distrt_fatal(op,
                 "element %s (linear index %lld) is owned by no process "
                 "(%lld of %lld elements unowned; check procs/coords/blocks)",
                 where, (long long)first, (long long)unowned,
                 (long long)d.global_count);
  }
  free(buf);
  free(owner);
  free(all);
  int64_t ok = 1;
  if (G->size > 1)
    be->bcast(op, G->icomm, &ok, 1, DISTRT_I64, root);
}

void distrt_gather_tensor(distrt_grid *g, const void *tile, int64_t dtype,
                          int64_t ndims, const int64_t *shape,
                          const int64_t *procs, const int64_t *coords,
                          const int64_t *blocks, void *global, int64_t root) {
  const char *op = "distrt_gather_tensor";
  distrt_grid *G = distrt_grid_check(op, g);
  struct desc d;
  desc_init(op, &d, dtype, ndims, shape, procs, coords, blocks);
  int64_t tb = d.local_count * d.es;
  void *ht = distrt_stage_in(op, tile, tb, 1); /* device tiles: staged */
  int64_t gb = G->rank == root ? d.global_count * d.es : 0;
  void *hg = distrt_stage_in(op, global, gb, 0);
  gather_tensor(op, G, ht, dtype, ndims, shape, procs, coords, blocks, hg,
                root);
  distrt_stage_out(op, global, hg, gb, 1);
  distrt_stage_out(op, (void *)(uintptr_t)tile, ht, tb, 0);
}

/*===-- checking ---------------------------------------------------------===*/

double distrt_max_rel_error(const void *a, const void *ref, int64_t count,
                            int64_t dtype) {
  const char *op = "distrt_max_rel_error";
  distrt_dtype_size(op, dtype);
  if (count < 0)
    distrt_fatal(op, "count is negative (%lld)", (long long)count);
  distrt_check_buf(op, "a", a, count);
  distrt_check_buf(op, "ref", ref, count);
  double maxdiff = 0.0, maxref = 0.0;
  int nan = 0;
  for (int64_t i = 0; i < count; ++i) {
    double x = load(a, i, dtype), r = load(ref, i, dtype);
    double diff = fabs(x - r);
    if (isnan(x) || isnan(r) || isnan(diff))
      nan = 1;
    if (diff > maxdiff)
      maxdiff = diff;
    if (fabs(r) > maxref)
      maxref = fabs(r);
  }
  if (nan)
    return NAN;
  if (maxdiff == 0.0)
    return 0.0;
  return maxdiff / (maxref > DBL_MIN ? maxref : DBL_MIN);
}

int64_t distrt_check_tensor(distrt_grid *g, const char *name, const void *tile,
                            int64_t dtype, int64_t ndims, const int64_t *shape,
                            const int64_t *procs, const int64_t *coords,
                            const int64_t *blocks, const void *ref,
                            double tol) {
  const char *op = "distrt_check_tensor";
  distrt_grid *G = distrt_grid_check(op, g);
  if (isnan(tol) || tol < 0)
    distrt_fatal(op, "tolerance %g must be >= 0", tol);
  if (!name)
    name = "tensor";
  const int64_t root = 0;
  struct desc d;
  desc_init(op, &d, dtype, ndims, shape, procs, coords, blocks);
  void *global = NULL;
  if (G->rank == root) {
    distrt_check_buf(op, "ref (at rank 0)", ref, d.global_count);
    global = malloc((size_t)(d.global_count ? d.global_count : 1) * d.es);
    if (!global)
      distrt_fatal(op, "out of memory allocating %lld bytes for '%s'",
                   (long long)(d.global_count * d.es), name);
  }
  int64_t tb = d.local_count * d.es;
  void *ht = distrt_stage_in(op, tile, tb, 1); /* device tiles: staged */
  gather_tensor(op, G, ht, dtype, ndims, shape, procs, coords, blocks, global,
                root);
  distrt_stage_out(op, (void *)(uintptr_t)tile, ht, tb, 0);
  int64_t pass = 0;
  if (G->rank == root) {
    double err = distrt_max_rel_error(global, ref, d.global_count, dtype);
    pass = err <= tol; /* false for NaN */
    fflush(stdout);
    printf("distrt: check %s: max relative error %.3e (tolerance %.3e): %s\n",
           name, err, tol, pass ? "PASS" : "FAIL");
    fflush(stdout);
    free(global);
  }
  if (G->size > 1)
    distrt_g.be->bcast(op, G->icomm, &pass, 1, DISTRT_I64, root);
  return pass;
}
