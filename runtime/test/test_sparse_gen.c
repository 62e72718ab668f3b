/* distrt-test-sparse-gen: the sparse generators (distrt/sparse.h).
 *
 *   distrt-test-sparse-gen          every check below; rank 0 also prints
 *                                   one "HASH <case>: ..." line per case
 *                                   (entry count and an order-independent
 *                                   hash of every (coordinates, value) of
 *                                   every rank), which the lit test
 *                                   (sparse-gen.test) compares between the
 *                                   1, 2, 3 and 4 rank runs: the generated
 *                                   tensors must not depend on P
 *   distrt-test-sparse-gen err CASE a call with bad arguments, expecting a
 *                                   fatal error (prints "UNEXPECTED success")
 *
 * Checks on every case: order, extents, each rank's row range [lo, hi)
 * against block = ceil(rows / P), entries inside the rank's rows, strictly
 * increasing (sorted, no duplicates), coordinates in range, values in
 * [-1, 1) and not 0, and the same entry always having the same value.
 * Banded: exactly the entries |i - j| <= width / 2 (each local entry is in
 * the band, and the count of each row and of the whole matrix is the
 * formula's).  R-MAT: at most edges_per_row * n entries, most draws kept,
 * the first rows far denser than the last.  Uniform: nnz close to the
 * draws when sparse; every coordinate present when the draws cover a tiny
 * tensor many times over.  Same seed, same tensor; another seed, another.
 */
#include "test_util.h"

#include "distrt/sparse.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- helpers ----------------------------------------------------------===*/

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/* The count and an order-independent hash of every entry of every rank
 * (sums of the two 32-bit halves of a per-entry hash: no overflow). */
typedef struct {
  int64_t nnz;
  int64_t lo32, hi32;
} digest;

static digest digest_of(const distrt_coo *coo) {
  int64_t v[3] = {coo->nnz, 0, 0};
  for (int64_t k = 0; k < coo->nnz; ++k) {
    uint64_t h = 0x1234567ULL;
    for (int64_t d = 0; d < coo->order; ++d)
      h = mix(h ^ (uint64_t)coo->coords[k * coo->order + d]);
    uint64_t bits;
    memcpy(&bits, &coo->values[k], 8);
    h = mix(h ^ bits);
    v[1] += (int64_t)(h & 0xFFFFFFFFu);
    v[2] += (int64_t)(h >> 32);
  }
  distrt_allreduce(tu_world(), 1, v, 3, DISTRT_I64, DISTRT_SUM);
  digest g = {v[0], v[1], v[2]};
  return g;
}

static int same_digest(digest a, digest b) {
  return a.nnz == b.nnz && a.lo32 == b.lo32 && a.hi32 == b.hi32;
}

static void print_hash(const char *name, digest g) {
  if (tu_rank() == 0) {
    printf("HASH %s: nnz %lld, %016" PRIx64 "%016" PRIx64 "\n", name,
           (long long)g.nnz, (uint64_t)g.hi32, (uint64_t)g.lo32);
    fflush(stdout);
  }
}

/* What every generated tensor must satisfy. */
static void check_common(const char *name, const distrt_coo *coo,
                         int64_t order, const int64_t *dims) {
  int64_t P = tu_size(), r = tu_rank();
  EXPECT(coo->order == order, "%s: order %lld, expected %lld", name,
         (long long)coo->order, (long long)order);
  if (coo->order != order)
    return;
  for (int64_t d = 0; d < order; ++d)
    EXPECT(coo->dims[d] == dims[d], "%s: dims[%lld] = %lld, expected %lld",
           name, (long long)d, (long long)coo->dims[d], (long long)dims[d]);
  int64_t block = dims[0] > 0 ? (dims[0] + P - 1) / P : 1;
  int64_t lo = r * block < dims[0] ? r * block : dims[0];
  int64_t hi = (r + 1) * block < dims[0] ? (r + 1) * block : dims[0];
  EXPECT(coo->lo == lo && coo->hi == hi,
         "%s: rows [%lld, %lld), expected [%lld, %lld)", name,
         (long long)coo->lo, (long long)coo->hi, (long long)lo, (long long)hi);
  EXPECT(coo->nnz == 0 || (coo->coords && coo->values),
         "%s: %lld entries but NULL arrays", name, (long long)coo->nnz);
  int bad = 0;
  for (int64_t k = 0; k < coo->nnz && bad < 5; ++k) {
    const int64_t *c = coo->coords + k * order;
    double v = coo->values[k];
    int ok = c[0] >= lo && c[0] < hi;
    for (int64_t d = 0; d < order; ++d)
      ok = ok && c[d] >= 0 && c[d] < dims[d];
    bad += !EXPECT(ok, "%s: entry %lld (%lld, %lld%s) outside rows [%lld, "
                   "%lld) or the extents", name, (long long)k,
                   (long long)c[0], (long long)(order > 1 ? c[1] : 0),
                   order > 2 ? ", ..." : "", (long long)lo, (long long)hi);
    bad += !EXPECT(v >= -1.0 && v < 1.0 && v != 0.0,
                   "%s: entry %lld has value %.17g (expected [-1, 1), not 0)",
                   name, (long long)k, v);
    if (k > 0) {
      const int64_t *p = c - order;
      int64_t d = 0;
      while (d < order && p[d] == c[d])
        ++d;
      bad += !EXPECT(d < order && p[d] < c[d],
                     "%s: entries %lld and %lld out of order or equal", name,
                     (long long)k - 1, (long long)k);
    }
  }
}

/*===-- banded -----------------------------------------------------------===*/

static int64_t band_row(int64_t n, int64_t half, int64_t i) {
  int64_t j0 = i - half > 0 ? i - half : 0;
  int64_t j1 = i + half < n - 1 ? i + half : n - 1;
  return j1 - j0 + 1;
}

static void banded_case(int64_t n, int64_t width, int64_t seed,
                        distrt_grid *g) {
  char name[128];
  snprintf(name, sizeof name, "banded n=%lld width=%lld seed=%lld",
           (long long)n, (long long)width, (long long)seed);
  distrt_coo coo;
  distrt_coo_gen_banded(g, n, width, seed, &coo);
  int64_t dims[2] = {n, n};
  check_common(name, &coo, 2, dims);
  int64_t half = width / 2;
  /* Every local entry in the band; each local row has its full count. */
  int64_t k = 0, bad = 0;
  for (int64_t i = coo.lo; i < coo.hi && bad < 5; ++i) {
    int64_t cnt = 0;
    while (k < coo.nnz && coo.coords[2 * k] == i) {
      int64_t j = coo.coords[2 * k + 1];
      bad += !EXPECT(llabs(i - j) <= half, "%s: (%lld, %lld) outside the band",
                     name, (long long)i, (long long)j);
      ++cnt;
      ++k;
    }
    bad += !EXPECT(cnt == band_row(n, half, i),
                   "%s: row %lld has %lld entries, expected %lld", name,
                   (long long)i, (long long)cnt,
                   (long long)band_row(n, half, i));
  }
  EXPECT(bad || k == coo.nnz, "%s: entries after the rank's rows", name);
  /* The closed form: n * width less the triangles clipped at the corners. */
  int64_t h = half < n ? half : n;
  int64_t want = n == 0 ? 0 : n * (2 * h + 1) - h * (h + 1);
  if (half >= n)
    want = n * n;
  digest dg = digest_of(&coo);
  EXPECT(dg.nnz == want, "%s: %lld entries in all, expected %lld", name,
         (long long)dg.nnz, (long long)want);
  print_hash(name, dg);
  distrt_coo_free(&coo);
  tu_section("%s", name);
}

/*===-- R-MAT ------------------------------------------------------------===*/

static digest rmat_case(int64_t n, int64_t epr, int64_t seed,
                        distrt_grid *g) {
  char name[128];
  snprintf(name, sizeof name, "rmat n=%lld epr=%lld seed=%lld", (long long)n,
           (long long)epr, (long long)seed);
  distrt_coo coo;
  distrt_coo_gen_rmat(g, n, epr, seed, &coo);
  int64_t dims[2] = {n, n};
  check_common(name, &coo, 2, dims);
  /* Skew: entries in the first and the last eighth of the rows. */
  int64_t cnt[2] = {0, 0};
  for (int64_t k = 0; k < coo.nnz; ++k) {
    int64_t i = coo.coords[2 * k];
    cnt[0] += i < n / 8;
    cnt[1] += i >= n - n / 8;
  }
  distrt_allreduce(tu_world(), 1, cnt, 2, DISTRT_I64, DISTRT_SUM);
  digest dg = digest_of(&coo);
  int64_t draws = n * epr;
  EXPECT(dg.nnz <= draws, "%s: %lld entries, more than the %lld draws", name,
         (long long)dg.nnz, (long long)draws);
  if (n >= 1024 && epr >= 4) {
    /* Graph500 parameters keep most draws (~2/3 at this size and for
     * non-powers of 2 slightly fewer land inside); far above a quarter. */
    EXPECT(4 * dg.nnz > draws, "%s: only %lld entries of %lld draws", name,
           (long long)dg.nnz, (long long)draws);
    EXPECT(cnt[0] > 8 * cnt[1] && cnt[1] >= 0,
           "%s: not skewed: %lld entries in the first eighth of the rows, "
           "%lld in the last", name, (long long)cnt[0], (long long)cnt[1]);
  }
  if (n == 1)
    EXPECT(dg.nnz == (epr > 0), "%s: %lld entries, expected %d", name,
           (long long)dg.nnz, epr > 0);
  print_hash(name, dg);
  distrt_coo_free(&coo);
  tu_section("%s", name);
  return dg;
}

/*===-- uniform ----------------------------------------------------------===*/

static digest uniform_case(int64_t order, const int64_t *dims, int64_t draws,
                           int64_t seed, distrt_grid *g) {
  char name[160];
  int len = snprintf(name, sizeof name, "uniform");
  for (int64_t d = 0; d < order; ++d)
    len += snprintf(name + len, sizeof name - (size_t)len, "%s%lld",
                    d ? "x" : " ", (long long)dims[d]);
  snprintf(name + len, sizeof name - (size_t)len, " draws=%lld seed=%lld",
           (long long)draws, (long long)seed);
  distrt_coo coo;
  distrt_coo_gen_uniform(g, order, dims, draws, seed, &coo);
  check_common(name, &coo, order, dims);
  digest dg = digest_of(&coo);
  double cells = 1.0;
  for (int64_t d = 0; d < order; ++d)
    cells *= (double)dims[d];
  /* Expected distinct cells: cells * (1 - (1 - 1/cells)^draws). */
  double expect = cells > 0 ? cells * -expm1((double)draws *
                                             log1p(-1.0 / cells))
                            : 0.0;
  if (cells == 1.0)
    expect = draws > 0;
  EXPECT(dg.nnz <= draws && (double)dg.nnz <= cells,
         "%s: %lld entries, more than the draws or the cells", name,
         (long long)dg.nnz);
  EXPECT(fabs((double)dg.nnz - expect) <= 6.0 * sqrt(expect) + 2.0,
         "%s: %lld entries, expected about %.1f", name, (long long)dg.nnz,
         expect);
  if (cells > 0 && cells <= 64 && (double)draws >= 40.0 * cells)
    EXPECT((double)dg.nnz == cells, "%s: %lld entries, expected every one "
           "of the %.0f cells", name, (long long)dg.nnz, cells);
  print_hash(name, dg);
  distrt_coo_free(&coo);
  tu_section("%s", name);
  return dg;
}

/*===-- Kronecker (power-law) tensors -------------------------------------===*/

/* distrt_coo_gen_kronecker: the common properties, at most `draws`
 * entries, and every mode skewed toward low indices (a bit is 0 with
 * probability 0.76: in a power-of-two extent, well over half the entries
 * lie in the lower half of every mode, where a uniform tensor has half). */
static void kronecker_case(int64_t order, const int64_t *dims, int64_t draws,
                           int64_t seed, distrt_grid *g) {
  char name[160];
  int len = snprintf(name, sizeof name, "kronecker");
  for (int64_t d = 0; d < order; ++d)
    len += snprintf(name + len, sizeof name - (size_t)len, "%s%lld",
                    d ? "x" : " ", (long long)dims[d]);
  snprintf(name + len, sizeof name - (size_t)len, " draws=%lld seed=%lld",
           (long long)draws, (long long)seed);
  distrt_coo coo;
  distrt_coo_gen_kronecker(g, order, dims, draws, seed, &coo);
  check_common(name, &coo, order, dims);
  digest dg = digest_of(&coo);
  EXPECT(dg.nnz <= draws, "%s: %lld entries, more than the %lld draws",
         name, (long long)dg.nnz, (long long)draws);
  int64_t low[DISTRT_MAX_DIMS] = {0};
  for (int64_t k = 0; k < coo.nnz; ++k)
    for (int64_t d = 0; d < order; ++d)
      low[d] += coo.coords[k * order + d] < dims[d] / 2;
  distrt_allreduce(tu_world(), 1, low, order, DISTRT_I64, DISTRT_SUM);
  for (int64_t d = 0; d < order && dg.nnz >= 1000; ++d)
    EXPECT((double)low[d] > 0.6 * (double)dg.nnz,
           "%s: %lld of %lld entries in the lower half of mode %lld "
           "(expected well over half: a power-law mode)",
           name, (long long)low[d], (long long)dg.nnz, (long long)d);
  print_hash(name, dg);
  distrt_coo_free(&coo);
  tu_section("%s", name);
}

/*===-- seeds and values -------------------------------------------------===*/

/* A generated entry's value depends only on (seed, coordinates): the band
 * of width 3 and of width 7 agree where they overlap, for every rank. */
static void value_by_coordinates(void) {
  distrt_coo a, b;
  distrt_coo_gen_banded(NULL, 50, 3, 11, &a);
  distrt_coo_gen_banded(tu_world(), 50, 7, 11, &b);
  int64_t kb = 0, matched = 0;
  for (int64_t k = 0; k < a.nnz; ++k) {
    while (kb < b.nnz &&
           (b.coords[2 * kb] < a.coords[2 * k] ||
            (b.coords[2 * kb] == a.coords[2 * k] &&
             b.coords[2 * kb + 1] < a.coords[2 * k + 1])))
      ++kb;
    if (kb < b.nnz && b.coords[2 * kb] == a.coords[2 * k] &&
        b.coords[2 * kb + 1] == a.coords[2 * k + 1]) {
      EXPECT(a.values[k] == b.values[kb], "(%lld, %lld): %.17g and %.17g",
             (long long)a.coords[2 * k], (long long)a.coords[2 * k + 1],
             a.values[k], b.values[kb]);
      ++matched;
    }
  }
  EXPECT(matched == a.nnz, "%lld of %lld entries of width 3 in width 7",
         (long long)matched, (long long)a.nnz);
  /* Values are spread over [-1, 1): both signs, mean near 0. */
  double s[3] = {0, 0, 0};
  for (int64_t k = 0; k < b.nnz; ++k) {
    s[0] += b.values[k];
    s[1] += b.values[k] < 0;
    s[2] += 1;
  }
  distrt_allreduce(tu_world(), 1, s, 3, DISTRT_F64, DISTRT_SUM);
  EXPECT(fabs(s[0] / s[2]) < 0.15 && s[1] > 0.35 * s[2] &&
             s[1] < 0.65 * s[2],
         "values not spread: mean %g, %g negative of %g", s[0] / s[2], s[1],
         s[2]);
  distrt_coo_free(&a);
  distrt_coo_free(&b);
  tu_section("values depend on (seed, coordinates) only");
}

static void seeds(void) {
  int64_t d3[3] = {20, 30, 40};
  digest a = rmat_case(2048, 8, 1, NULL);
  digest b = rmat_case(2048, 8, 1, tu_world());
  digest c = rmat_case(2048, 8, 2, NULL);
  digest u = uniform_case(3, d3, 500, 5, NULL);
  digest v = uniform_case(3, d3, 500, 5, tu_world());
  digest w = uniform_case(3, d3, 500, 6, NULL);
  distrt_coo p, q;
  distrt_coo_gen_banded(NULL, 100, 5, 1, &p);
  distrt_coo_gen_banded(NULL, 100, 5, 2, &q);
  digest bp = digest_of(&p), bq = digest_of(&q);
  distrt_coo_free(&p);
  distrt_coo_free(&q);
  EXPECT(same_digest(a, b), "rmat: the same seed gave different matrices");
  EXPECT(!same_digest(a, c), "rmat: seeds 1 and 2 gave the same matrix");
  EXPECT(same_digest(u, v), "uniform: the same seed gave different tensors");
  EXPECT(!same_digest(u, w), "uniform: seeds 5 and 6 gave the same tensor");
  EXPECT(bp.nnz == bq.nnz && !same_digest(bp, bq),
         "banded: seeds 1 and 2 gave the same values");
  tu_section("same seed same tensor, other seed other tensor");
}

/*===-- error cases ------------------------------------------------------===*/

static int expect_error(const char *what) {
  distrt_init();
  distrt_coo coo;
  int64_t dims[3] = {4, 5, 6}, neg[2] = {4, -1};
  if (!strcmp(what, "banded-even"))
    distrt_coo_gen_banded(NULL, 10, 4, 1, &coo);
  else if (!strcmp(what, "banded-zero-width"))
    distrt_coo_gen_banded(NULL, 10, 0, 1, &coo);
  else if (!strcmp(what, "banded-n"))
    distrt_coo_gen_banded(NULL, -3, 3, 1, &coo);
  else if (!strcmp(what, "rmat-n"))
    distrt_coo_gen_rmat(NULL, -1, 4, 1, &coo);
  else if (!strcmp(what, "rmat-epr"))
    distrt_coo_gen_rmat(NULL, 16, -2, 1, &coo);
  else if (!strcmp(what, "uniform-order0"))
    distrt_coo_gen_uniform(NULL, 0, dims, 10, 1, &coo);
  else if (!strcmp(what, "uniform-order9"))
    distrt_coo_gen_uniform(NULL, DISTRT_MAX_DIMS + 1, dims, 10, 1, &coo);
  else if (!strcmp(what, "uniform-draws"))
    distrt_coo_gen_uniform(NULL, 3, dims, -5, 1, &coo);
  else if (!strcmp(what, "uniform-dims"))
    distrt_coo_gen_uniform(NULL, 2, neg, 5, 1, &coo);
  else if (!strcmp(what, "uniform-null"))
    distrt_coo_gen_uniform(NULL, 2, NULL, 5, 1, &coo);
  else {
    fprintf(stderr, "unknown error case '%s'\n", what);
    distrt_finalize();
    return 2;
  }
  printf("UNEXPECTED success: rank %lld holds %lld entries\n",
         (long long)distrt_world_rank(), (long long)coo.nnz);
  distrt_coo_free(&coo);
  distrt_finalize();
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "err"))
    return expect_error(argv[2]);
  if (argc != 1) {
    fprintf(stderr, "usage: distrt-test-sparse-gen [err CASE]\n");
    return 2;
  }
  tu_init("distrt-test-sparse-gen");
  distrt_grid *w = tu_world();
  banded_case(37, 5, 7, NULL);
  banded_case(10, 1, 7, w);
  banded_case(7, 21, 7, NULL); /* wider than the matrix: dense */
  banded_case(3, 5, 7, w);     /* half = n - 1 */
  banded_case(0, 3, 7, NULL);
  banded_case(1000, 11, 3, w);
  rmat_case(4096, 8, 42, w);
  rmat_case(3000, 6, 42, NULL); /* not a power of 2: draws dropped */
  rmat_case(1, 3, 1, NULL);
  rmat_case(0, 3, 1, w);
  rmat_case(5, 0, 1, NULL);
  int64_t d1[1] = {100000}, d2[2] = {300, 200}, d3[3] = {50, 40, 30};
  int64_t tiny[2] = {3, 3}, empty[3] = {4, 0, 5};
  int64_t d4[4] = {7, 6, 5, 4};
  uniform_case(1, d1, 1000, 9, w);
  uniform_case(2, d2, 2000, 9, NULL);
  uniform_case(3, d3, 1000, 9, w);
  uniform_case(4, d4, 300, 9, NULL);
  uniform_case(2, tiny, 1000, 9, NULL); /* every cell, many duplicates */
  uniform_case(3, empty, 100, 9, w);
  uniform_case(2, d2, 0, 9, NULL);
  value_by_coordinates();
  seeds();
  int64_t k3[3] = {256, 128, 1024}, k3odd[3] = {37, 20, 50};
  kronecker_case(3, k3, 20000, 4, w);
  kronecker_case(3, k3odd, 3000, 4, NULL); /* draws outside dropped */
  kronecker_case(3, empty, 100, 4, w);
  return tu_finish();
}
