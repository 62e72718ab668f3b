/*===- sparse_gen.c - distrt sparse generators -------------------*- C -*-===*
 *
 * distrt_coo_gen_banded, distrt_coo_gen_rmat, distrt_coo_gen_uniform,
 * distrt_coo_gen_kronecker
 * (distrt/sparse.h): synthetic matrices and tensors in the readers' row
 * partition and order, independent of the number of processes.
 *
 * Randomness is counter-based, never a sequential stream:
 *   - draw number t (0 .. draws - 1) of a random generator takes its words
 *     from splitmix64 of (seed, t, word number), so which process makes a
 *     draw does not change it.  Process r makes the draws
 *     [draws * r / P, draws * (r + 1) / P) and sends each entry to the owner
 *     of its row (sp_distribute_merge: sort, keep duplicates once);
 *   - the value of entry (i, j, ...) is a hash of (seed, coordinates) mapped
 *     to an odd multiple of 2^-52 in (-1, 1): never 0, and the same for
 *     every draw that hits the coordinate.
 * The banded generator draws nothing: each process writes its own rows.
 *
 * Memory: a process holds its share of the draws (32 or more bytes each)
 * and then the entries of its rows, never anything of size n * P.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- counter-based random numbers -------------------------------------===*/

#define GOLDEN 0x9E3779B97F4A7C15ULL

static uint64_t splitmix64(uint64_t x) {
  x += GOLDEN;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/* Separate streams for the draws and the values of one seed. */
enum { STREAM_DRAW = 1, STREAM_VALUE = 2 };

static uint64_t stream_key(int64_t seed, uint64_t stream) {
  return splitmix64(splitmix64((uint64_t)seed) ^ (stream * GOLDEN));
}

/* Word `k` of draw `t`: splitmix64 of (base of t) + k * GOLDEN. */
static uint64_t draw_base(uint64_t key, uint64_t t) {
  return splitmix64(key ^ splitmix64(t));
}
static uint64_t draw_word(uint64_t base, uint64_t k) {
  return splitmix64(base + k * GOLDEN);
}

/* The high 64 bits of a * b (exact; no 128-bit type needed). */
static uint64_t mulhi(uint64_t a, uint64_t b) {
  uint64_t alo = (uint32_t)a, ahi = a >> 32, blo = (uint32_t)b, bhi = b >> 32;
  uint64_t p0 = alo * blo, p1 = alo * bhi, p2 = ahi * blo, p3 = ahi * bhi;
  uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
  return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

/* The value of the entry at `coords`: (2 m + 1) 2^-52 - 1 for a 52-bit m,
 * so in (-1, 1), exact, and never 0 (the numerator 2 m + 1 - 2^52 is
 * odd). */
static double entry_value(uint64_t vkey, int64_t order,
                          const int64_t *coords) {
  uint64_t h = vkey;
  for (int64_t d = 0; d < order; ++d)
    h = splitmix64(h ^ (uint64_t)coords[d]);
  uint64_t m = h >> 12;
  return (double)(2 * m + 1) * 0x1p-52 - 1.0;
}

/* First draw of process r of P out of `draws` (no overflow). */
static int64_t share_start(int64_t draws, int64_t r, int64_t P) {
  return (draws / P) * r + (draws % P) * r / P;
}

/*===-- common -----------------------------------------------------------===*/

static int64_t block_of(int64_t rows, int64_t P) {
  return rows > 0 ? distrt_ceil_div(rows, P) : 1;
}

/*===-- banded -----------------------------------------------------------===*/

void distrt_coo_gen_banded(distrt_grid *g, int64_t n, int64_t width,
                           int64_t seed, distrt_coo *coo) {
  static const char op[] = "distrt_coo_gen_banded";
  char what[128];
  snprintf(what, sizeof what, "banded %lld x %lld, width %lld", (long long)n,
           (long long)n, (long long)width);
  sp_ctx c;
  sp_begin(&c, op, what, g, coo);
  if (n < 0)
    distrt_fatal_collective(op, "the extent n = %lld is negative",
                            (long long)n);
  if (width < 1 || width % 2 == 0)
    distrt_fatal_collective(op, "the band width %lld is not odd and >= 1",
                            (long long)width);
  int64_t half = width / 2;
  if (half > n)
    half = n; /* a wider band than the matrix: every column */
  int64_t block = block_of(n, c.size);
  int64_t lo = distrt_block_start(c.rank, block, n);
  int64_t hi = distrt_block_start(c.rank + 1, block, n);

  int64_t nnz = 0;
  for (int64_t i = lo; i < hi; ++i) {
    int64_t j0 = i - half > 0 ? i - half : 0;
    int64_t j1 = i + half < n - 1 ? i + half : n - 1;
    nnz += j1 - j0 + 1;
  }
  if (nnz > INT64_MAX / 16)
    distrt_fatal(op, "%s: %lld entries on this process overflow 64 bits",
                 what, (long long)nnz);
  int64_t *coords = (int64_t *)sp_alloc(&c, nnz * 2 * 8);
  double *values = (double *)sp_alloc(&c, nnz * 8);
  uint64_t vkey = stream_key(seed, STREAM_VALUE);
  int64_t k = 0;
  for (int64_t i = lo; i < hi; ++i) {
    int64_t j0 = i - half > 0 ? i - half : 0;
    int64_t j1 = i + half < n - 1 ? i + half : n - 1;
    for (int64_t j = j0; j <= j1; ++j, ++k) {
      coords[2 * k] = i;
      coords[2 * k + 1] = j;
      values[k] = entry_value(vkey, 2, coords + 2 * k);
    }
  }
  coo->order = 2;
  coo->dims[0] = coo->dims[1] = n;
  coo->nnz = nnz;
  coo->coords = coords;
  coo->values = values;
  coo->lo = lo;
  coo->hi = hi;
}

/*===-- R-MAT ------------------------------------------------------------===*/

void distrt_coo_gen_rmat(distrt_grid *g, int64_t n, int64_t edges_per_row,
                         int64_t seed, distrt_coo *coo) {
  static const char op[] = "distrt_coo_gen_rmat";
  char what[128];
  snprintf(what, sizeof what, "R-MAT %lld x %lld, %lld edges per row",
           (long long)n, (long long)n, (long long)edges_per_row);
  sp_ctx c;
  sp_begin(&c, op, what, g, coo);
  if (n < 0)
    distrt_fatal_collective(op, "the extent n = %lld is negative",
                            (long long)n);
  if (edges_per_row < 0)
    distrt_fatal_collective(op, "edges_per_row = %lld is negative",
                            (long long)edges_per_row);
  if (n > 0 && edges_per_row > INT64_MAX / n)
    distrt_fatal_collective(op, "edges_per_row * n = %lld * %lld draws "
                            "overflow 64 bits",
                            (long long)edges_per_row, (long long)n);
  int64_t draws = edges_per_row * n;
  int levels = 0;
  while (levels < 63 && ((int64_t)1 << levels) < n)
    ++levels;

  /* Cumulative quadrant probabilities as 32-bit thresholds. */
  const double a = 0.57, b = 0.19, cc = 0.19;
  const uint64_t ta = (uint64_t)(a * 4294967296.0);
  const uint64_t tb = (uint64_t)((a + b) * 4294967296.0);
  const uint64_t tc = (uint64_t)((a + b + cc) * 4294967296.0);

  int64_t t0 = share_start(draws, c.rank, c.size);
  int64_t t1 = share_start(draws, c.rank + 1, c.size);
  sp_recs r = {4, 0, 0, NULL};
  if (t1 - t0 > INT64_MAX / 32)
    distrt_fatal(op, "%s: %lld draws on this process overflow 64 bits", what,
                 (long long)(t1 - t0));
  r.cap = t1 - t0;
  r.a = (int64_t *)sp_alloc(&c, (t1 - t0) * 4 * 8);
  uint64_t dkey = stream_key(seed, STREAM_DRAW);
  uint64_t vkey = stream_key(seed, STREAM_VALUE);
  for (int64_t t = t0; t < t1; ++t) {
    int64_t ij[2] = {0, 0};
    uint64_t base = draw_base(dkey, (uint64_t)t), word = 0;
    for (int l = 0; l < levels; ++l) {
      /* Two 32-bit uniforms a word. */
      uint64_t u;
      if (l % 2 == 0) {
        word = draw_word(base, (uint64_t)(l / 2));
        u = word & 0xFFFFFFFFu;
      } else {
        u = word >> 32;
      }
      int64_t rb = u >= tb, cb = (u >= ta && u < tb) || u >= tc;
      ij[0] = 2 * ij[0] + rb;
      ij[1] = 2 * ij[1] + cb;
    }
    if (ij[0] >= n || ij[1] >= n)
      continue; /* outside n x n in the 2^levels square */
    sp_push(&c, &r, ij, entry_value(vkey, 2, ij), t);
  }
  int64_t dims[2] = {n, n};
  sp_distribute_merge(&c, 2, dims, &r, coo);
}

/*===-- uniform ----------------------------------------------------------===*/

/* "KIND d0 x d1 ..., N draws": a tensor generator's name in messages. */
static void tensor_name(const char *kind, int64_t order, const int64_t *dims,
                        int64_t draws, char *what, size_t size) {
  int len = snprintf(what, size, "%s", kind);
  for (int64_t d = 0; dims && d < order && d < DISTRT_MAX_DIMS &&
                      len < (int)size;
       ++d)
    len += snprintf(what + len, size - (size_t)len, "%s%lld",
                    d ? " x " : " ", (long long)dims[d]);
  if (len < (int)size)
    snprintf(what + len, size - (size_t)len, ", %lld draws",
             (long long)draws);
}

/* A tensor generator's arguments (collective: every process checks the
 * same values); whether some extent is 0 (nothing to draw). */
static int check_tensor_args(const char *op, int64_t order,
                             const int64_t *dims, int64_t draws) {
  if (order < 1 || order > DISTRT_MAX_DIMS)
    distrt_fatal_collective(op, "order %lld is out of range 1..%d",
                            (long long)order, DISTRT_MAX_DIMS);
  if (!dims)
    distrt_fatal_collective(op, "dims is NULL");
  int empty = 0;
  for (int64_t d = 0; d < order; ++d) {
    if (dims[d] < 0)
      distrt_fatal_collective(op, "dims[%lld] = %lld is negative",
                              (long long)d, (long long)dims[d]);
    empty |= dims[d] == 0;
  }
  if (draws < 0)
    distrt_fatal_collective(op, "draws = %lld is negative",
                            (long long)draws);
  return empty;
}

void distrt_coo_gen_uniform(distrt_grid *g, int64_t order,
                            const int64_t *dims, int64_t draws, int64_t seed,
                            distrt_coo *coo) {
  static const char op[] = "distrt_coo_gen_uniform";
  char what[160];
  tensor_name("uniform", order, dims, draws, what, sizeof what);
  sp_ctx c;
  sp_begin(&c, op, what, g, coo);
  if (check_tensor_args(op, order, dims, draws))
    draws = 0; /* no coordinate to draw */

  int64_t t0 = share_start(draws, c.rank, c.size);
  int64_t t1 = share_start(draws, c.rank + 1, c.size);
  int64_t w = order + 2;
  sp_recs r = {w, 0, 0, NULL};
  if (t1 - t0 > INT64_MAX / (8 * w))
    distrt_fatal(op, "%s: %lld draws on this process overflow 64 bits", what,
                 (long long)(t1 - t0));
  r.cap = t1 - t0;
  r.a = (int64_t *)sp_alloc(&c, (t1 - t0) * w * 8);
  uint64_t dkey = stream_key(seed, STREAM_DRAW);
  uint64_t vkey = stream_key(seed, STREAM_VALUE);
  int64_t x[DISTRT_MAX_DIMS];
  for (int64_t t = t0; t < t1; ++t) {
    uint64_t base = draw_base(dkey, (uint64_t)t);
    for (int64_t d = 0; d < order; ++d)
      x[d] = (int64_t)mulhi(draw_word(base, (uint64_t)d), (uint64_t)dims[d]);
    sp_push(&c, &r, x, entry_value(vkey, order, x), t);
  }
  sp_distribute_merge(&c, order, dims, &r, coo);
}

/*===-- Kronecker (R-MAT) tensors -------------------------------------------===*/

void distrt_coo_gen_kronecker(distrt_grid *g, int64_t order,
                              const int64_t *dims, int64_t draws,
                              int64_t seed, distrt_coo *coo) {
  static const char op[] = "distrt_coo_gen_kronecker";
  char what[160];
  tensor_name("Kronecker", order, dims, draws, what, sizeof what);
  sp_ctx c;
  sp_begin(&c, op, what, g, coo);
  if (check_tensor_args(op, order, dims, draws))
    draws = 0;
  int levels[DISTRT_MAX_DIMS];
  for (int64_t d = 0; d < order; ++d) {
    levels[d] = 0;
    while (levels[d] < 62 && ((int64_t)1 << levels[d]) < dims[d])
      ++levels[d];
  }

  /* A bit of a coordinate is 1 with probability 0.24, the Graph500 R-MAT's
   * c + d: each mode is drawn as an R-MAT matrix's rows are. */
  const uint64_t t1bit = (uint64_t)(0.76 * 4294967296.0);
  int64_t t0 = share_start(draws, c.rank, c.size);
  int64_t tN = share_start(draws, c.rank + 1, c.size);
  int64_t w = order + 2;
  sp_recs r = {w, 0, 0, NULL};
  if (tN - t0 > INT64_MAX / (8 * w))
    distrt_fatal(op, "%s: %lld draws on this process overflow 64 bits", what,
                 (long long)(tN - t0));
  r.cap = tN - t0;
  r.a = (int64_t *)sp_alloc(&c, (tN - t0) * w * 8);
  uint64_t dkey = stream_key(seed, STREAM_DRAW);
  uint64_t vkey = stream_key(seed, STREAM_VALUE);
  int64_t x[DISTRT_MAX_DIMS];
  for (int64_t t = t0; t < tN; ++t) {
    uint64_t base = draw_base(dkey, (uint64_t)t), word = 0;
    uint64_t n = 0; /* 32-bit uniforms drawn for this coordinate */
    int inside = 1;
    for (int64_t d = 0; d < order; ++d) {
      x[d] = 0;
      for (int l = 0; l < levels[d]; ++l, ++n) {
        uint64_t u;
        if (n % 2 == 0) {
          word = draw_word(base, n / 2);
          u = word & 0xFFFFFFFFu;
        } else {
          u = word >> 32;
        }
        x[d] = 2 * x[d] + (u >= t1bit);
      }
      inside &= x[d] < dims[d];
    }
    if (inside) /* else outside dims in the power-of-two box */
      sp_push(&c, &r, x, entry_value(vkey, order, x), t);
  }
  sp_distribute_merge(&c, order, dims, &r, coo);
}
