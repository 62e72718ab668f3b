/* distrt-test-sparse-nonzeros: the non-zero partition of distributed CSR
 * matrices (distrt_spmat_create_nonzeros, distrt/sparse.h).
 *
 *   distrt-test-sparse-nonzeros DIR             every case (DIR: scratch
 *                                               directory for the files)
 *   distrt-test-sparse-nonzeros error NAME DIR  one error case, which must
 *                                               end the job (prints
 *                                               "UNEXPECTED success"
 *                                               otherwise)
 *
 * Each case fills a non-zero-partitioned matrix and, as the reference, a
 * row-partitioned twin from the same source: a generator (banded, R-MAT,
 * uniform; the dense matrix D is the twin's dense gather, broadcast) or a
 * formula every rank turns into the COO of its own rows (a row holding
 * most entries, split over every rank; fewer entries than ranks; no
 * entries; no rows; D from the formula itself).  Every expectation comes
 * from D and the test's own loops, never from the matrix under test:
 *   - the slice: D's non-zeros numbered row-major, E = ceil(nnz / P), this
 *     rank's [min(r E, nnz), min((r + 1) E, nnz)): first row, row count,
 *     ids, and the ALL part's positions, coordinates and values exactly;
 *     local counts summing to the global count;
 *   - DIAG + OFFDIAG mapped back to global columns (the test's own ghost
 *     list) give the ALL entries, with nrows + 1 positions;
 *   - products y = D x (x small integers) for k = 1 and 3: distrt_spmat_mul
 *     (twice: the reduction plan reused), distrt_spmat_mul_add from x's
 *     block and from the whole x, a DCSR loop over (ids, pos, crd, val)
 *     into distrt_spmat_partial then distrt_spmat_reduce_rows, and the
 *     shared operand when distrt_spmat_share_x shares; each within a
 *     rounding tolerance of the test's dense product (the sums are
 *     grouped differently);
 *   - distrt_spmat_gather_dense equal to D bitwise; distrt_spmat_write_mm
 *     byte-identical to the twin's file, and read back into a non-zero
 *     matrix, D again;
 *   - own rows straight into y (distrt_spmat_row_targets, on this matrix,
 *     its row-partitioned twin and each one's companion of the other
 *     partition): the targets and own ranges of ALL, DIAG and OFFDIAG's
 *     compressed rows against the test's own (own iff the row lies in
 *     [lo, hi): its row of y, else its local row); products the compiler's
 *     way, own rows into y and the others into
 *     distrt_spmat_partial_foreign (its own rows poisoned with NaN), then
 *     distrt_spmat_reduce_foreign: ALL over the whole x into y = 0 (against
 *     D x and distrt_spmat_mul), and DIAG + exchange + OFFDIAG's compressed
 *     rows over x's block into y = 1;
 *   - a second fill with other values (the plan and the reduction's plan
 *     are dropped).
 * Widths (pos, crd) 32/32, 64/64 and 64/32; f32 and f64. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_BANDED, SRC_RMAT, SRC_UNIFORM, SRC_SPLIT, SRC_FEW, SRC_NONE };

typedef struct {
  const char *name;
  int64_t rows, cols;
  int src;
  int64_t param;
} ncase;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t idx(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

static double stored(int64_t dtype, double v) {
  return dtype == DISTRT_F32 ? (double)(float)v : v;
}

/*===-- the formula sources ----------------------------------------------===*/

static int present(const ncase *nc, int64_t i, int64_t j) {
  switch (nc->src) {
  case SRC_SPLIT: /* row 2 full; (0, 0) and (rows - 1, cols - 1) */
    return i == 2 || (i == 0 && j == 0) ||
           (i == nc->rows - 1 && j == nc->cols - 1);
  case SRC_FEW: /* three entries */
    return (i == 1 && j == 3) || (i == 6 && j == 6) || (i == 9 && j == 0);
  default:
    return 0;
  }
}

/* Non-zero multiples of 1/4. */
static double value(int64_t i, int64_t j, int64_t seed) {
  double v = (double)((i * 3 + j * 5 + seed) % 8 + 1) * 0.25;
  return (i + j) & 1 ? -v : v;
}

static double xval(int64_t r, int64_t j) {
  return (double)((r * 7 + j * 3) % 11 - 5);
}

/* Fills m (either partition) from the case's source. */
static void fill(distrt_spmat *m, const ncase *nc, int64_t seed) {
  if (nc->src == SRC_BANDED) {
    distrt_spmat_generate(m, DISTRT_GEN_BANDED, nc->param, seed);
    return;
  }
  if (nc->src == SRC_RMAT) {
    distrt_spmat_generate(m, DISTRT_GEN_RMAT, nc->param, seed);
    return;
  }
  if (nc->src == SRC_UNIFORM) {
    distrt_spmat_generate(m, DISTRT_GEN_UNIFORM, nc->param, seed);
    return;
  }
  /* This rank's row block, as the readers give it. */
  int64_t P = tu_size(), r = tu_rank(), B = (nc->rows + P - 1) / P;
  distrt_coo coo;
  memset(&coo, 0, sizeof coo);
  coo.order = 2;
  coo.dims[0] = nc->rows;
  coo.dims[1] = nc->cols;
  coo.lo = min64(r * B, nc->rows);
  coo.hi = min64((r + 1) * B, nc->rows);
  coo.coords = (int64_t *)malloc((size_t)(2 * (coo.hi - coo.lo) * nc->cols +
                                          2) * 8);
  coo.values = (double *)malloc((size_t)((coo.hi - coo.lo) * nc->cols + 1) *
                                8);
  for (int64_t i = coo.lo; i < coo.hi; ++i)
    for (int64_t j = 0; j < nc->cols; ++j)
      if (present(nc, i, j)) {
        coo.coords[2 * coo.nnz] = i;
        coo.coords[2 * coo.nnz + 1] = j;
        coo.values[coo.nnz++] = value(i, j, seed);
      }
  distrt_spmat_assign(m, &coo, nc->name);
  free(coo.coords);
  free(coo.values);
}

/* D (rows x cols doubles) on every rank: from the formula, or the twin's
 * dense gather. */
static double *dense_ref(const ncase *nc, distrt_spmat *twin, int64_t dtype,
                         int64_t seed) {
  int64_t n = nc->rows * nc->cols;
  double *d = (double *)calloc((size_t)n + 1, sizeof *d);
  if (nc->src >= SRC_SPLIT) {
    for (int64_t i = 0; i < nc->rows; ++i)
      for (int64_t j = 0; j < nc->cols; ++j)
        if (present(nc, i, j))
          d[i * nc->cols + j] = stored(dtype, value(i, j, seed));
    return d;
  }
  void *g = malloc((size_t)(n + 1) * 8);
  distrt_spmat_gather_dense(twin, tu_rank() == 0 ? g : NULL, 0);
  distrt_bcast(tu_world(), 1, g, n, dtype, 0);
  for (int64_t i = 0; i < n; ++i)
    d[i] = tu_get(g, dtype, i);
  free(g);
  return d;
}

/*===-- checks -----------------------------------------------------------===*/

typedef struct {
  const ncase *nc;
  int64_t pb, cb, dtype;
  const char *tag;
  const double *d;
  /* D's non-zeros in row-major order, and this rank's slice of them. */
  int64_t nnz, *er, *ec;
  int64_t e0, e1, first, nr;
  /* Row block of the output and of x. */
  int64_t B, lo, hi, C, xlo, xhi;
} ctx;

static void setup(ctx *c) {
  const ncase *nc = c->nc;
  int64_t P = tu_size(), r = tu_rank();
  c->nnz = 0;
  for (int64_t i = 0; i < nc->rows * nc->cols; ++i)
    c->nnz += c->d[i] != 0;
  c->er = (int64_t *)malloc((size_t)(c->nnz + 1) * 8);
  c->ec = (int64_t *)malloc((size_t)(c->nnz + 1) * 8);
  int64_t e = 0;
  for (int64_t i = 0; i < nc->rows; ++i)
    for (int64_t j = 0; j < nc->cols; ++j)
      if (c->d[i * nc->cols + j] != 0) {
        c->er[e] = i;
        c->ec[e++] = j;
      }
  int64_t E = (c->nnz + P - 1) / P;
  c->e0 = min64(r * E, c->nnz);
  c->e1 = min64((r + 1) * E, c->nnz);
  c->first = c->e1 > c->e0 ? c->er[c->e0] : 0;
  c->nr = c->e1 > c->e0 ? c->er[c->e1 - 1] - c->first + 1 : 0;
  c->B = (nc->rows + P - 1) / P;
  c->lo = min64(r * c->B, nc->rows);
  c->hi = min64((r + 1) * c->B, nc->rows);
  c->C = (nc->cols + P - 1) / P;
  c->xlo = min64(r * c->C, nc->cols);
  c->xhi = min64((r + 1) * c->C, nc->cols);
}

static double dval(const ctx *c, int64_t e) {
  return c->d[c->er[e] * c->nc->cols + c->ec[e]];
}

static void check_slice(const ctx *c, distrt_spmat *m) {
  const char *nm = c->nc->name;
  EXPECT(distrt_spmat_partition(m) == DISTRT_SPMAT_NONZEROS,
         "%s %s: partition %lld", nm, c->tag,
         (long long)distrt_spmat_partition(m));
  void *ids = NULL, *pos, *crd, *val;
  int64_t first = -1, nr = -1, nnz = -1, nc = -1;
  distrt_spmat_local_rows(m, &ids, &first, &nr);
  EXPECT(first == c->first && nr == c->nr && ids,
         "%s %s: rows from %lld, %lld of them; expected %lld, %lld", nm,
         c->tag, (long long)first, (long long)nr, (long long)c->first,
         (long long)c->nr);
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, &nc);
  EXPECT(nnz == c->e1 - c->e0 && nc == c->nc->cols,
         "%s %s: %lld entries (ncols %lld), expected %lld", nm, c->tag,
         (long long)nnz, (long long)nc, (long long)(c->e1 - c->e0));
  if (first != c->first || nr != c->nr || nnz != c->e1 - c->e0)
    return;
  int64_t bad = 0;
  for (int64_t i = 0; i < nr; ++i)
    bad += idx(ids, c->cb, i) != i;
  for (int64_t i = 0, e = c->e0; i <= nr; ++i) {
    while (e < c->e1 && c->er[e] < c->first + i)
      ++e;
    bad += idx(pos, c->pb, i) != e - c->e0;
  }
  for (int64_t p = 0; p < nnz; ++p)
    bad += idx(crd, c->cb, p) != c->ec[c->e0 + p] ||
           tu_get(val, c->dtype, p) != dval(c, c->e0 + p);
  EXPECT(bad == 0, "%s %s: %lld ids, positions, coordinates or values "
         "differ from entries [%lld, %lld) of D", nm, c->tag,
         (long long)bad, (long long)c->e0, (long long)c->e1);
  int64_t sum = distrt_spmat_local_nnz(m);
  distrt_allreduce(tu_world(), 1, &sum, 1, DISTRT_I64, DISTRT_SUM);
  EXPECT(distrt_spmat_local_nnz(m) == nnz && sum == c->nnz &&
             distrt_spmat_global_nnz(m) == c->nnz,
         "%s %s: local nnz %lld (sum %lld), global %lld; expected %lld of "
         "%lld", nm, c->tag, (long long)distrt_spmat_local_nnz(m),
         (long long)sum, (long long)distrt_spmat_global_nnz(m),
         (long long)nnz, (long long)c->nnz);
}

/* DIAG + OFFDIAG back to global columns give this rank's slice. */
static void check_parts(const ctx *c, distrt_spmat *m) {
  distrt_spmat_plan(m);
  int64_t *ghost = (int64_t *)malloc((size_t)(c->nc->cols + 1) * 8), ng = 0;
  for (int64_t j = 0; j < c->nc->cols; ++j) {
    if (j >= c->xlo && j < c->xhi)
      continue;
    int used = 0;
    for (int64_t e = c->e0; e < c->e1 && !used; ++e)
      used = c->ec[e] == j;
    if (used)
      ghost[ng++] = j;
  }
  void *dp, *dc, *dv, *op, *oc, *ov;
  int64_t dn, dnc, on, onc, bad = 0;
  distrt_spmat_part(m, DISTRT_SPMAT_DIAG, &dp, &dc, &dv, &dn, &dnc);
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, &op, &oc, &ov, &on, &onc);
  bad += dnc != c->C || onc != ng || dn + on != c->e1 - c->e0;
  for (int64_t i = 0, e = c->e0; !bad && i < c->nr; ++i) {
    int64_t p = idx(dp, c->pb, i), pe = idx(dp, c->pb, i + 1);
    int64_t q = idx(op, c->pb, i), qe = idx(op, c->pb, i + 1);
    for (; e < c->e1 && c->er[e] == c->first + i; ++e) {
      int64_t j = c->ec[e];
      if (j >= c->xlo && j < c->xhi) {
        bad += p >= pe || idx(dc, c->cb, p) != j - c->xlo ||
               tu_get(dv, c->dtype, p) != dval(c, e);
        ++p;
      } else {
        bad += q >= qe || ghost[idx(oc, c->cb, q)] != j ||
               tu_get(ov, c->dtype, q) != dval(c, e);
        ++q;
      }
    }
    bad += p != pe || q != qe;
  }
  EXPECT(bad == 0, "%s %s: DIAG (%lld) + OFFDIAG (%lld, %lld ghosts) differ "
         "from the slice", c->nc->name, c->tag, (long long)dn, (long long)on,
         (long long)onc);
  free(ghost);
}

/* y (B rows of k) against y0 + D x: rows of the block, 0 past it when
 * y0 = 0. */
static int64_t check_y(const ctx *c, const void *y, double y0, int64_t k,
                       const char *what) {
  int64_t bad = 0, cols = c->nc->cols;
  double tol = c->dtype == DISTRT_F32 ? 1e-5 : 1e-12;
  for (int64_t r = 0; r < c->B; ++r)
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = c->lo + r;
      double want = y0, mag = fabs(y0);
      for (int64_t col = 0; col < cols && i < c->hi; ++col) {
        want += c->d[i * cols + col] * xval(col, j);
        mag += fabs(c->d[i * cols + col] * xval(col, j));
      }
      if (i >= c->hi)
        want = y0;
      double got = tu_get(y, c->dtype, r * k + j);
      if (!(fabs(got - want) <= tol * (1 + mag)) && bad++ < 3)
        EXPECT(0, "%s %s: %s k=%lld: y(%lld, %lld) = %.17g, expected %.17g",
               c->nc->name, c->tag, what, (long long)k, (long long)i,
               (long long)j, got, want);
    }
  return bad;
}

/* partial += the piece times the whole x, as a DCSR leaf would: over ids. */
static void dcsr_leaf(const ctx *c, distrt_spmat *m, const void *whole,
                      void *partial, int64_t k) {
  void *ids, *pos, *crd, *val;
  int64_t nr;
  distrt_spmat_local_rows(m, &ids, NULL, &nr);
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, NULL, NULL);
  for (int64_t t = 0; t < nr; ++t) {
    int64_t i = idx(ids, c->cb, t);
    for (int64_t p = idx(pos, c->pb, i); p < idx(pos, c->pb, i + 1); ++p)
      for (int64_t j = 0; j < k; ++j)
        tu_set(partial, c->dtype, i * k + j,
               tu_get(partial, c->dtype, i * k + j) +
                   tu_get(val, c->dtype, p) *
                       tu_get(whole, c->dtype, idx(crd, c->cb, p) * k + j));
  }
}

static void check_products(const ctx *c, distrt_spmat *m, int64_t k) {
  const char *nm = c->nc->name;
  int64_t cols = c->nc->cols, ny = c->B * k;
  void *x = malloc((size_t)((c->xhi - c->xlo) * k + 1) * 8);
  void *whole = malloc((size_t)(cols * k + 1) * 8);
  for (int64_t r = 0; r < cols; ++r)
    for (int64_t j = 0; j < k; ++j) {
      tu_set(whole, c->dtype, r * k + j, xval(r, j));
      if (r >= c->xlo && r < c->xhi)
        tu_set(x, c->dtype, (r - c->xlo) * k + j, xval(r, j));
    }
  void *y[5];
  for (int i = 0; i < 5; ++i) {
    y[i] = malloc((size_t)(ny + 1) * 8);
    for (int64_t e = 0; e < ny; ++e)
      tu_set(y[i], c->dtype, e, i < 2 ? 999.0 : 1.0);
  }
  distrt_spmat_mul(m, x, y[0], k);
  distrt_spmat_mul(m, x, y[1], k);
  distrt_spmat_mul_add(m, x, y[2], k, 0);
  distrt_spmat_mul_add(m, whole, y[3], k, 1);
  /* The compiler's path: a leaf into the partial sums, then the sums. */
  void *partial = distrt_spmat_partial(m, k);
  int64_t zero = 0;
  for (int64_t e = 0; e < c->nr * k; ++e)
    zero += tu_get(partial, c->dtype, e) != 0;
  EXPECT(partial && zero == 0, "%s %s: partial k=%lld: %lld non-zero "
         "elements", nm, c->tag, (long long)k, (long long)zero);
  dcsr_leaf(c, m, whole, partial, k);
  /* Each partial row: the slice's entries of that row times x. */
  int64_t pbad = 0;
  for (int64_t t = 0; t < c->nr; ++t)
    for (int64_t j = 0; j < k; ++j) {
      double want = 0, mag = 0;
      for (int64_t e = c->e0; e < c->e1; ++e)
        if (c->er[e] == c->first + t) {
          want += dval(c, e) * xval(c->ec[e], j);
          mag += fabs(dval(c, e) * xval(c->ec[e], j));
        }
      pbad += fabs(tu_get(partial, c->dtype, t * k + j) - want) >
              (c->dtype == DISTRT_F32 ? 1e-5 : 1e-12) * (1 + mag);
    }
  EXPECT(pbad == 0, "%s %s: partial k=%lld: %lld wrong partial sums", nm,
         c->tag, (long long)k, (long long)pbad);
  distrt_spmat_reduce_rows(m, partial, y[4], k);
  int64_t bad = check_y(c, y[0], 0, k, "mul") + check_y(c, y[2], 1, k,
                                                          "mul_add") +
                check_y(c, y[3], 1, k, "mul_add whole") +
                check_y(c, y[4], 1, k, "partial + reduce_rows");
  EXPECT(bad == 0, "%s %s: k=%lld: %lld wrong elements", nm, c->tag,
         (long long)k, (long long)bad);
  EXPECT(memcmp(y[0], y[1], (size_t)(ny * tu_esize(c->dtype))) == 0,
         "%s %s: k=%lld: a second product differs", nm, c->tag,
         (long long)k);

  /* The shared operand (only x moves): ALL over it, then the sums. */
  const void *sh = distrt_spmat_share_x(m, x, k);
  const char *env = getenv("DISTRT_SPARSE_SHARED");
  int forced = env && strcmp(env, "1") == 0 && tu_size() > 1 && c->C > 0;
  EXPECT(!forced || sh, "%s %s: DISTRT_SPARSE_SHARED=1 but share_x did not "
         "share", nm, c->tag);
  if (sh) {
    partial = distrt_spmat_partial(m, k);
    dcsr_leaf(c, m, sh, partial, k);
    for (int64_t e = 0; e < ny; ++e)
      tu_set(y[4], c->dtype, e, 1.0);
    distrt_spmat_reduce_rows(m, partial, y[4], k);
    EXPECT(check_y(c, y[4], 1, k, "shared") == 0, "%s %s: k=%lld: the "
           "product over the shared x differs", nm, c->tag, (long long)k);
  }
  for (int i = 0; i < 5; ++i)
    free(y[i]);
  free(x);
  free(whole);
}

/*===-- own rows straight into y ----------------------------------------===*/

/* The row partition's piece as a ctx: rows [lo, lo + B), the entries of
 * rows [lo, hi). */
static ctx rows_ctx(const ctx *c) {
  ctx r = *c;
  r.first = c->lo;
  r.nr = c->B;
  r.e0 = 0;
  while (r.e0 < c->nnz && c->er[r.e0] < c->lo)
    ++r.e0;
  r.e1 = r.e0;
  while (r.e1 < c->nnz && c->er[r.e1] < c->hi)
    ++r.e1;
  return r;
}

/* n rows with local numbers rows[i]: targets t and own range [ob, oe)
 * against the test's own: own iff first + rows[i] in [lo, hi), then
 * first + rows[i] - lo, else rows[i]. */
static int64_t bad_targets(const ctx *c, const void *t, int64_t ob,
                           int64_t oe, int64_t n, const int64_t *rows) {
  if (!t || ob < 0 || ob > oe || oe > n)
    return 1;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t g = c->first + rows[i];
    int own = g >= c->lo && g < c->hi;
    bad += own != (i >= ob && i < oe) ||
           idx(t, c->cb, i) != (own ? g - c->lo : rows[i]);
  }
  return bad;
}

/* distrt_spmat_row_targets for ALL, DIAG and OFFDIAG (the test's own
 * compressed rows: the local rows with an entry outside x's block). */
static void check_targets(const ctx *c, distrt_spmat *m, const char *who) {
  distrt_spmat_plan(m);
  int64_t *rows = (int64_t *)malloc((size_t)(c->nr + 1) * 8), no = 0;
  for (int64_t i = 0; i < c->nr; ++i)
    rows[i] = i;
  void *t = NULL, *td = NULL, *t2 = NULL, *to = NULL;
  int64_t ob = -1, oe = -1, n = -1, ob2, oe2, n2, bad = 0;
  distrt_spmat_row_targets(m, DISTRT_SPMAT_ALL, &t, &ob, &oe, &n);
  distrt_spmat_row_targets(m, DISTRT_SPMAT_DIAG, &td, &ob2, &oe2, &n2);
  bad += n != c->nr || td != t || ob2 != ob || oe2 != oe || n2 != n;
  if (!bad)
    bad += bad_targets(c, t, ob, oe, n, rows);
  for (int64_t i = 0; i < c->nr; ++i) {
    int off = 0;
    for (int64_t e = c->e0; e < c->e1; ++e)
      off |= c->er[e] == c->first + i &&
             (c->ec[e] < c->xlo || c->ec[e] >= c->xhi);
    if (off)
      rows[no++] = i;
  }
  distrt_spmat_row_targets(m, DISTRT_SPMAT_OFFDIAG, &to, &ob, &oe, &n);
  distrt_spmat_row_targets(m, DISTRT_SPMAT_OFFDIAG, &t2, NULL, NULL, NULL);
  bad += n != no || t2 != to;
  if (n == no)
    bad += bad_targets(c, to, ob, oe, n, rows);
  EXPECT(bad == 0, "%s %s %s: %lld wrong row targets or own ranges "
         "(OFFDIAG: %lld rows, own [%lld, %lld); expected %lld rows)",
         c->nc->name, c->tag, who, (long long)bad, (long long)n,
         (long long)ob, (long long)oe, (long long)no);
  free(rows);
}

/* distrt_spmat_partial_foreign: its rows outside [ob, oe) zeroed, those
 * inside untouched (set to 777 first); then the own rows poisoned (NaN),
 * which distrt_spmat_reduce_foreign must not read. */
static void *foreign_partial(const ctx *c, distrt_spmat *m, int64_t k,
                             int64_t ob, int64_t oe) {
  void *p = distrt_spmat_partial_foreign(m, k);
  for (int64_t e = 0; e < c->nr * k; ++e)
    tu_set(p, c->dtype, e, 777.0);
  void *q = distrt_spmat_partial_foreign(m, k);
  int64_t bad = q != p;
  for (int64_t e = 0; !bad && e < c->nr * k; ++e) {
    int own = e / k >= ob && e / k < oe;
    bad += tu_get(q, c->dtype, e) != (own ? 777.0 : 0.0);
    if (own)
      tu_set(q, c->dtype, e, NAN);
  }
  EXPECT(bad == 0, "%s %s: partial_foreign k=%lld: %lld rows wrongly "
         "zeroed or not", c->nc->name, c->tag, (long long)k, (long long)bad);
  return q;
}

/* dst rows targets[i] (y for i in [ob, oe), partial otherwise) += the
 * CSR rows i of (pos, crd, val) (n of them) times src. */
static void direct_leaf(const ctx *c, const void *pos, const void *crd,
                        const void *val, int64_t n, const void *t,
                        int64_t ob, int64_t oe, const void *src, void *y,
                        void *partial, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    void *dst = i >= ob && i < oe ? y : partial;
    int64_t ti = idx(t, c->cb, i);
    for (int64_t p = idx(pos, c->pb, i); p < idx(pos, c->pb, i + 1); ++p)
      for (int64_t j = 0; j < k; ++j)
        tu_set(dst, c->dtype, ti * k + j,
               tu_get(dst, c->dtype, ti * k + j) +
                   tu_get(val, c->dtype, p) *
                       tu_get(src, c->dtype, idx(crd, c->cb, p) * k + j));
  }
}

/* The compiler's way: own rows straight into y, the others into
 * distrt_spmat_partial_foreign, then distrt_spmat_reduce_foreign; ALL
 * over the whole x into y = 0 (against D x and distrt_spmat_mul), and
 * DIAG + the exchange + OFFDIAG's compressed rows over x's block into
 * y = 1. */
static void check_direct(const ctx *c, distrt_spmat *m, int64_t k,
                         const char *who) {
  int64_t cols = c->nc->cols, ny = c->B * k, bad = 0;
  double tol = c->dtype == DISTRT_F32 ? 1e-5 : 1e-12;
  void *x = malloc((size_t)((c->xhi - c->xlo) * k + 1) * 8);
  void *whole = malloc((size_t)(cols * k + 1) * 8);
  void *y = malloc((size_t)(ny + 1) * 8), *ym = malloc((size_t)(ny + 1) * 8);
  for (int64_t r = 0; r < cols; ++r)
    for (int64_t j = 0; j < k; ++j) {
      tu_set(whole, c->dtype, r * k + j, xval(r, j));
      if (r >= c->xlo && r < c->xhi)
        tu_set(x, c->dtype, (r - c->xlo) * k + j, xval(r, j));
    }
  distrt_spmat_mul(m, x, ym, k);
  void *t, *pos, *crd, *val, *ghost;
  int64_t ob, oe, n;
  distrt_spmat_row_targets(m, DISTRT_SPMAT_ALL, &t, &ob, &oe, &n);
  for (int64_t e = 0; e < ny; ++e)
    tu_set(y, c->dtype, e, 0.0);
  void *partial = foreign_partial(c, m, k, ob, oe);
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, NULL, NULL);
  direct_leaf(c, pos, crd, val, n, t, ob, oe, whole, y, partial, k);
  distrt_spmat_reduce_foreign(m, partial, y, k);
  bad += check_y(c, y, 0, k, "direct ALL");
  for (int64_t e = 0; e < ny; ++e)
    bad += !(fabs(tu_get(y, c->dtype, e) - tu_get(ym, c->dtype, e)) <=
             tol * (1 + fabs(tu_get(ym, c->dtype, e))));

  distrt_spmat_plan(m);
  for (int64_t e = 0; e < ny; ++e)
    tu_set(y, c->dtype, e, 1.0);
  partial = foreign_partial(c, m, k, ob, oe);
  ghost = distrt_spmat_exchange_begin(m, x, k);
  distrt_spmat_part(m, DISTRT_SPMAT_DIAG, &pos, &crd, &val, NULL, NULL);
  direct_leaf(c, pos, crd, val, n, t, ob, oe, x, y, partial, k);
  distrt_spmat_exchange_end(m);
  distrt_spmat_row_targets(m, DISTRT_SPMAT_OFFDIAG, &t, &ob, &oe, &n);
  distrt_spmat_offdiag_rows(m, NULL, &pos, NULL);
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, NULL, &crd, &val, NULL, NULL);
  direct_leaf(c, pos, crd, val, n, t, ob, oe, ghost, y, partial, k);
  distrt_spmat_reduce_foreign(m, partial, y, k);
  bad += check_y(c, y, 1, k, "direct DIAG + OFFDIAG");
  EXPECT(bad == 0, "%s %s %s: k=%lld: %lld wrong elements with the own "
         "rows written straight into y", c->nc->name, c->tag, who,
         (long long)k, (long long)bad);
  free(x);
  free(whole);
  free(y);
  free(ym);
}

/* Row targets and the direct products on m, on the row-partitioned twin
 * and on each one's companion of the other partition. */
static void check_own_rows(const ctx *c, distrt_spmat *m, distrt_spmat *twin) {
  ctx rc = rows_ctx(c);
  distrt_spmat *mc = distrt_spmat_in_partition(m, DISTRT_SPMAT_ROWS);
  distrt_spmat *tc = distrt_spmat_in_partition(twin, DISTRT_SPMAT_NONZEROS);
  check_targets(c, m, "nonzeros");
  check_targets(&rc, twin, "rows");
  check_targets(&rc, mc, "rows companion");
  check_targets(c, tc, "nonzeros companion");
  for (int64_t k = 1; k <= 3; k += 2) {
    check_direct(c, m, k, "nonzeros");
    check_direct(&rc, twin, k, "rows");
    check_direct(&rc, mc, k, "rows companion");
    check_direct(c, tc, k, "nonzeros companion");
  }
}

/* The dense gather, the file (against the twin's) and its read-back. */
static void check_files(const ctx *c, distrt_spmat *m, distrt_spmat *twin,
                        const char *dir) {
  const ncase *nc = c->nc;
  int64_t n = nc->rows * nc->cols, root = tu_size() - 1, bad = 0;
  void *g = malloc((size_t)(n + 1) * 8);
  distrt_spmat_gather_dense(m, tu_rank() == root ? g : NULL, root);
  for (int64_t i = 0; tu_rank() == root && i < n; ++i)
    bad += tu_get(g, c->dtype, i) != c->d[i];
  EXPECT(bad == 0, "%s %s: gather_dense: %lld elements differ from D",
         nc->name, c->tag, (long long)bad);

  char pn[4096], pr[4096];
  snprintf(pn, sizeof pn, "%s/nz-%s-%s.mtx", dir, nc->name,
           tu_dtype_name(c->dtype));
  snprintf(pr, sizeof pr, "%s/rows-%s-%s.mtx", dir, nc->name,
           tu_dtype_name(c->dtype));
  distrt_spmat_write_mm(m, pn);
  distrt_spmat_write_mm(twin, pr);
  if (tu_rank() == 0) {
    FILE *a = fopen(pn, "rb"), *b = fopen(pr, "rb");
    int same = a && b;
    while (same) {
      int ca = fgetc(a), cb = fgetc(b);
      same = ca == cb;
      if (ca == EOF)
        break;
    }
    EXPECT(same, "%s %s: %s differs from %s", nc->name, c->tag, pn, pr);
    if (a)
      fclose(a);
    if (b)
      fclose(b);
  }
  distrt_spmat *back = distrt_spmat_create_nonzeros(
      tu_world(), nc->rows, nc->cols, 64, 32, c->dtype);
  distrt_spmat_read(back, pn);
  distrt_spmat_gather_dense(back, tu_rank() == 0 ? g : NULL, 0);
  bad = 0;
  for (int64_t i = 0; tu_rank() == 0 && i < n; ++i)
    bad += tu_get(g, c->dtype, i) != c->d[i];
  EXPECT(bad == 0 && distrt_spmat_global_nnz(back) == c->nnz,
         "%s %s: %s read back: %lld elements differ, %lld entries", nc->name,
         c->tag, pn, (long long)bad, (long long)distrt_spmat_global_nnz(back));
  distrt_spmat_free(back);
  free(g);
}

static void run_case(const ncase *nc, const char *dir) {
  static const int64_t widths[3][2] = {{32, 32}, {64, 64}, {64, 32}};
  for (int w = 0; w < 3; ++w)
    for (int64_t dt = DISTRT_F32; dt <= DISTRT_F64; ++dt) {
      char tag[32];
      snprintf(tag, sizeof tag, "p%lld c%lld %s", (long long)widths[w][0],
               (long long)widths[w][1], tu_dtype_name(dt));
      distrt_spmat *m = distrt_spmat_create_nonzeros(
          tu_world(), nc->rows, nc->cols, widths[w][0], widths[w][1], dt);
      distrt_spmat *twin = distrt_spmat_create(
          tu_world(), nc->rows, nc->cols, widths[w][0], widths[w][1], dt);
      EXPECT(distrt_spmat_partition(twin) == DISTRT_SPMAT_ROWS,
             "%s %s: the twin's partition is %lld", nc->name, tag,
             (long long)distrt_spmat_partition(twin));
      /* Twice: new values drop the plans. */
      for (int64_t seed = 7; seed <= 8; ++seed) {
        fill(m, nc, seed);
        fill(twin, nc, seed);
        ctx c;
        memset(&c, 0, sizeof c);
        c.nc = nc;
        c.pb = widths[w][0];
        c.cb = widths[w][1];
        c.dtype = dt;
        c.tag = tag;
        double *d = dense_ref(nc, twin, dt, seed);
        c.d = d;
        setup(&c);
        check_slice(&c, m);
        check_parts(&c, m);
        check_products(&c, m, 1);
        check_products(&c, m, 3);
        check_own_rows(&c, m, twin);
        if (w == 0 && seed == 7)
          check_files(&c, m, twin, dir);
        free(d);
        free(c.er);
        free(c.ec);
      }
      distrt_spmat_free(m);
      distrt_spmat_free(twin);
    }
  tu_section("nonzeros %s %lldx%lld", nc->name, (long long)nc->rows,
             (long long)nc->cols);
}

/*===-- errors -----------------------------------------------------------===*/

static int error_case(const char *name) {
  tu_init("distrt-test-sparse-nonzeros");
  distrt_spmat *m =
      distrt_spmat_create_nonzeros(tu_world(), 8, 8, 32, 32, DISTRT_F64);
  double p[64], y[64];
  if (strcmp(name, "reduce-null") == 0) {
    distrt_spmat_reduce_rows(NULL, p, y, 1);
  } else if (strcmp(name, "partial-freed") == 0) {
    distrt_spmat *f =
        distrt_spmat_create_nonzeros(tu_world(), 4, 4, 64, 64, DISTRT_F32);
    distrt_spmat_free(f);
    distrt_spmat_partial(f, 1);
  } else if (strcmp(name, "partial-k") == 0) {
    distrt_spmat_partial(m, 0);
  } else if (strcmp(name, "reduce-k") == 0) {
    distrt_spmat_reduce_rows(m, p, y, -1);
  } else if (strcmp(name, "targets-null") == 0) {
    distrt_spmat_row_targets(NULL, DISTRT_SPMAT_ALL, NULL, NULL, NULL, NULL);
  } else if (strcmp(name, "targets-part") == 0) {
    distrt_spmat_row_targets(m, 3, NULL, NULL, NULL, NULL);
  } else if (strcmp(name, "targets-plan") == 0) {
    distrt_spmat_row_targets(m, DISTRT_SPMAT_OFFDIAG, NULL, NULL, NULL, NULL);
  } else if (strcmp(name, "foreign-freed") == 0) {
    distrt_spmat *f =
        distrt_spmat_create_nonzeros(tu_world(), 4, 4, 64, 64, DISTRT_F32);
    distrt_spmat_free(f);
    distrt_spmat_partial_foreign(f, 1);
  } else if (strcmp(name, "foreign-k") == 0) {
    distrt_spmat_partial_foreign(m, 0);
  } else if (strcmp(name, "reduce-foreign-null") == 0) {
    distrt_spmat_reduce_foreign(NULL, p, y, 1);
  } else if (strcmp(name, "reduce-foreign-k") == 0) {
    distrt_spmat_reduce_foreign(m, p, y, 0);
  } else if (strcmp(name, "device") == 0) {
    /* Device tiles (the NCCL backend) are refused, collectively. */
    void *dx = distrt_device_alloc(8 * 8), *dy = distrt_device_alloc(8 * 8);
    distrt_spmat_mul_add(m, dx, dy, 1, 0);
  } else {
    fprintf(stderr, "unknown error case '%s'\n", name);
    distrt_finalize();
    return 2;
  }
  printf("UNEXPECTED success: rank %lld\n", (long long)distrt_world_rank());
  distrt_spmat_free(m);
  distrt_finalize();
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "error") == 0)
    return error_case(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-nonzeros DIR | error NAME "
                    "DIR\n");
    return 2;
  }
  tu_init("distrt-test-sparse-nonzeros");
  static const ncase cases[] = {
      {"banded", 37, 37, SRC_BANDED, 5},
      {"rmat", 64, 64, SRC_RMAT, 4}, /* the first rows densest */
      {"uniform", 23, 17, SRC_UNIFORM, 3},
      {"split", 5, 41, SRC_SPLIT, 0}, /* row 2 split over every rank */
      {"few", 10, 10, SRC_FEW, 0},    /* 3 entries: fewer than P on 4, 8 */
      {"empty", 6, 5, SRC_NONE, 0},
      {"zero", 0, 4, SRC_NONE, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run_case(&cases[i], argv[1]);
  return tu_finish();
}
