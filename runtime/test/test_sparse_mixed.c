/* distrt-test-sparse-mixed: SpDISTAL's mixed partitions
 * (distrt_spmat_in_partition, distrt_spmat_moved_entries; distrt/sparse.h).
 *
 *   distrt-test-sparse-mixed DIR             every case (DIR: scratch
 *                                            directory for the files)
 *   distrt-test-sparse-mixed verbose         the fixture both ways only (for
 *                                            the DISTRT_VERBOSE lines)
 *   distrt-test-sparse-mixed error NAME      one error case, which must end
 *                                            the job (prints "UNEXPECTED
 *                                            success" otherwise)
 *
 * Each case fills a matrix of one partition (the source) and, as the
 * reference, a matrix created directly in the other partition from the
 * same source: a generator (banded, R-MAT, uniform rectangular; fixed
 * seeds) or SpDISTAL's 8 x 8 fixture (test_sparse_conformance.c: pos =
 * [0,2,3,6,7,12,13,15,16], crd = [0,1,1,0,2,5,3,3,4,5,6,7,7,2,6,7],
 * vals[p] = p + 1), every rank the COO of its own rows.  Both directions
 * (rows -> nonzeros, nonzeros -> rows); widths (pos, crd) 32/32, 64/64,
 * 64/32; f32 and f64.  The companion c = distrt_spmat_in_partition(src,
 * other):
 *   - is not src, is of the other partition, comes back on a second call
 *     (and after products), gives src back when asked for src's partition;
 *     distrt_spmat_in_partition(src, src's partition) is src;
 *   - its local rows (first, count, ids), the ALL part, DIAG, OFFDIAG and
 *     the OFFDIAG rows equal the reference's byte for byte, and the ALL
 *     part is exactly the expected slice of D's entries (D: the dense
 *     matrix, from the fixture's arrays or the dense gather of the
 *     row-partitioned matrix of the pair; the slice from the test's own
 *     list of D's entries: rows [r B, (r + 1) B) or entries [r E,
 *     (r + 1) E));
 *   - products (distrt_spmat_mul, x blocked, k = 1 and 3; distrt_spmat_mul_add
 *     from the block and from the whole x; a DCSR loop into
 *     distrt_spmat_partial then distrt_spmat_reduce_rows) equal the
 *     reference's byte for byte and D x within rounding;
 *   - its dense gather is D; its write_mm file is the reference's byte for
 *     byte;
 *   - distrt_spmat_moved_entries(src) is the count of D's entries e (row
 *     major) whose row-block owner floor(row / B) is not their non-zero
 *     owner floor(e / E), computed here (and hard-coded for the fixture);
 *   - after a second fill with other values (seed 8, the fixture's values
 *     negated and halved) the moved count is 0 until the next call, and the
 *     companion then holds the new entries. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_BANDED, SRC_RMAT, SRC_UNIFORM, SRC_FIXTURE };

typedef struct {
  const char *name;
  int64_t rows, cols;
  int src;
  int64_t param;
} mcase;

static const int64_t fx_pos[9] = {0, 2, 3, 6, 7, 12, 13, 15, 16};
static const int64_t fx_crd[16] = {0, 1, 1, 0, 2, 5, 3, 3,
                                   4, 5, 6, 7, 7, 2, 6, 7};

/* The fixture's entries moved between the partitions, by rank count.  On 4
 * ranks B = ceil(8 / 4) = 2 and E = ceil(16 / 4) = 4; the entries' rows
 * (from pos) are e0-1: row 0, e2: 1, e3-5: 2, e6: 3, e7-11: 4, e12: 5,
 * e13-14: 6, e15: 7, so their row owners floor(row / 2) are
 *   e:     0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
 *   rows:  0 0 0 1 1 1 1 2 2 2  2  2  2  3  3  3
 *   nz:    0 0 0 0 1 1 1 1 2 2  2  2  3  3  3  3   (floor(e / 4))
 * and they differ for e3, e7 and e12: 3 entries move.  On 2 ranks (B = 4,
 * E = 8) only e7 (row 4: rank 1; nz rank 0); on 3 (B = 3, E = 6) only e12
 * (row 5: rank 1; nz rank 2); on 8 (B = 1, E = 2) e3, e7, e10, e11, e12,
 * e14: 6; on 1 none. */
static int64_t fixture_moved(int64_t P) {
  switch (P) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 3:
    return 1;
  case 4:
    return 3;
  case 8:
    return 6;
  default:
    return -1; /* not hard-coded: the computed count only */
  }
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t idx(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

static double stored(int64_t dtype, double v) {
  return dtype == DISTRT_F32 ? (double)(float)v : v;
}

static double fx_val(int64_t p, int64_t seed) {
  return seed == 7 ? (double)(p + 1) : -0.5 * (double)(p + 1);
}

static double xval(int64_t r, int64_t j) {
  return (double)((r * 7 + j * 3) % 11 - 5);
}

static const char *pname(int64_t kind) {
  return kind == DISTRT_SPMAT_ROWS ? "rows" : "nonzeros";
}

/* A matrix of partition `kind`, filled from the case's source. */
static distrt_spmat *make(const mcase *mc, int64_t kind, int64_t pb,
                          int64_t cb, int64_t dtype) {
  if (kind == DISTRT_SPMAT_ROWS)
    return distrt_spmat_create(tu_world(), mc->rows, mc->cols, pb, cb, dtype);
  return distrt_spmat_create_nonzeros(tu_world(), mc->rows, mc->cols, pb, cb,
                                      dtype);
}

static void fill(distrt_spmat *m, const mcase *mc, int64_t seed) {
  if (mc->src == SRC_BANDED) {
    distrt_spmat_generate(m, DISTRT_GEN_BANDED, mc->param, seed);
    return;
  }
  if (mc->src == SRC_RMAT) {
    distrt_spmat_generate(m, DISTRT_GEN_RMAT, mc->param, seed);
    return;
  }
  if (mc->src == SRC_UNIFORM) {
    distrt_spmat_generate(m, DISTRT_GEN_UNIFORM, mc->param, seed);
    return;
  }
  /* The fixture's rows of this rank, as the readers give them. */
  int64_t P = tu_size(), r = tu_rank(), B = (8 + P - 1) / P;
  int64_t lo = min64(r * B, 8), hi = min64((r + 1) * B, 8);
  distrt_coo coo;
  memset(&coo, 0, sizeof coo);
  coo.order = 2;
  coo.dims[0] = coo.dims[1] = 8;
  coo.lo = lo;
  coo.hi = hi;
  coo.coords = (int64_t *)malloc(2 * 16 * 8);
  coo.values = (double *)malloc(16 * 8);
  for (int64_t i = lo; i < hi; ++i)
    for (int64_t p = fx_pos[i]; p < fx_pos[i + 1]; ++p) {
      coo.coords[2 * coo.nnz] = i;
      coo.coords[2 * coo.nnz + 1] = fx_crd[p];
      coo.values[coo.nnz++] = fx_val(p, seed);
    }
  distrt_spmat_assign(m, &coo, "the fixture");
  free(coo.coords);
  free(coo.values);
}

/*===-- the reference ----------------------------------------------------===*/

typedef struct {
  const mcase *mc;
  int64_t pb, cb, dtype, kind; /* kind: the companion's partition */
  char tag[64];
  double *d; /* D, rows x cols, on every rank */
  /* D's entries in row-major order; this rank's slice in `kind`. */
  int64_t nnz, *er, *ec;
  int64_t e0, e1, first, nr;
  int64_t B, lo, hi, C, xlo, xhi;
} ctx;

/* D from the fixture or from `rowsm` (the row-partitioned matrix of the
 * pair, made directly), then its entries and this rank's slice. */
static void setup(ctx *c, distrt_spmat *rowsm, int64_t seed) {
  const mcase *mc = c->mc;
  int64_t n = mc->rows * mc->cols, P = tu_size(), r = tu_rank();
  c->d = (double *)calloc((size_t)n + 1, sizeof *c->d);
  if (mc->src == SRC_FIXTURE) {
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t p = fx_pos[i]; p < fx_pos[i + 1]; ++p)
        c->d[i * 8 + fx_crd[p]] = stored(c->dtype, fx_val(p, seed));
  } else {
    void *g = malloc((size_t)(n + 1) * 8);
    distrt_spmat_gather_dense(rowsm, r == 0 ? g : NULL, 0);
    distrt_bcast(tu_world(), 1, g, n, c->dtype, 0);
    for (int64_t i = 0; i < n; ++i)
      c->d[i] = tu_get(g, c->dtype, i);
    free(g);
  }
  c->nnz = 0;
  for (int64_t i = 0; i < n; ++i)
    c->nnz += c->d[i] != 0;
  c->er = (int64_t *)malloc((size_t)(c->nnz + 1) * 8);
  c->ec = (int64_t *)malloc((size_t)(c->nnz + 1) * 8);
  int64_t e = 0;
  for (int64_t i = 0; i < mc->rows; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      if (c->d[i * mc->cols + j] != 0) {
        c->er[e] = i;
        c->ec[e++] = j;
      }
  c->B = (mc->rows + P - 1) / P;
  c->lo = min64(r * c->B, mc->rows);
  c->hi = min64((r + 1) * c->B, mc->rows);
  c->C = (mc->cols + P - 1) / P;
  c->xlo = min64(r * c->C, mc->cols);
  c->xhi = min64((r + 1) * c->C, mc->cols);
  if (c->kind == DISTRT_SPMAT_NONZEROS) {
    int64_t E = (c->nnz + P - 1) / P;
    c->e0 = min64(r * E, c->nnz);
    c->e1 = min64((r + 1) * E, c->nnz);
    c->first = c->e1 > c->e0 ? c->er[c->e0] : 0;
    c->nr = c->e1 > c->e0 ? c->er[c->e1 - 1] - c->first + 1 : 0;
  } else {
    c->e0 = c->e1 = 0;
    while (c->e0 < c->nnz && c->er[c->e0] < c->lo)
      ++c->e0;
    c->e1 = c->e0;
    while (c->e1 < c->nnz && c->er[c->e1] < c->hi)
      ++c->e1;
    c->first = c->lo;
    c->nr = c->B;
  }
}

static void teardown(ctx *c) {
  free(c->d);
  free(c->er);
  free(c->ec);
}

/* Entries moved between the partitions: row owner != non-zero owner. */
static int64_t expected_moved(const ctx *c) {
  int64_t P = tu_size(), E = (c->nnz + P - 1) / P, moved = 0;
  for (int64_t e = 0; e < c->nnz; ++e)
    moved += c->er[e] / c->B != e / E;
  return moved;
}

/*===-- checks -----------------------------------------------------------===*/

/* Bytes of a and b differ (n elements of `bits` bits)? */
static int differ(const void *a, const void *b, int64_t n, int64_t bits) {
  return n > 0 && memcmp(a, b, (size_t)(n * bits / 8)) != 0;
}

/* The companion's piece against the reference's, byte for byte. */
static void check_same(const ctx *c, distrt_spmat *cm, distrt_spmat *ref) {
  const char *nm = c->mc->name;
  int64_t vb = 8 * tu_esize(c->dtype);
  void *ia, *ib;
  int64_t fa, fb, na, nb;
  distrt_spmat_local_rows(cm, &ia, &fa, &na);
  distrt_spmat_local_rows(ref, &ib, &fb, &nb);
  int ok = fa == fb && na == nb && !differ(ia, ib, na, c->cb);
  EXPECT(ok, "%s %s: rows from %lld, %lld of them; the reference's from "
         "%lld, %lld (or the ids differ)", nm, c->tag, (long long)fa,
         (long long)na, (long long)fb, (long long)nb);
  if (!ok)
    return;
  distrt_spmat_plan(cm);
  distrt_spmat_plan(ref);
  static const int64_t parts[3] = {DISTRT_SPMAT_ALL, DISTRT_SPMAT_DIAG,
                                   DISTRT_SPMAT_OFFDIAG};
  for (int i = 0; i < 3; ++i) {
    void *pa, *ca, *va, *pb, *cb, *vb2;
    int64_t za, zb, ka, kb;
    distrt_spmat_part(cm, parts[i], &pa, &ca, &va, &za, &ka);
    distrt_spmat_part(ref, parts[i], &pb, &cb, &vb2, &zb, &kb);
    EXPECT(za == zb && ka == kb && !differ(pa, pb, na + 1, c->pb) &&
               !differ(ca, cb, za, c->cb) && !differ(va, vb2, za, vb),
           "%s %s: part %d: %lld entries (ncols %lld); the reference's "
           "%lld (%lld), or the arrays differ",
           nm, c->tag, i, (long long)za, (long long)ka, (long long)zb,
           (long long)kb);
  }
  void *ra, *rb, *qa, *qb;
  distrt_spmat_offdiag_rows(cm, &ra, &qa, &na);
  distrt_spmat_offdiag_rows(ref, &rb, &qb, &nb);
  EXPECT(na == nb && !differ(ra, rb, na, c->cb) &&
             !differ(qa, qb, na + 1, c->pb),
         "%s %s: OFFDIAG rows: %lld, the reference's %lld, or they differ",
         nm, c->tag, (long long)na, (long long)nb);
  EXPECT(distrt_spmat_local_nnz(cm) == distrt_spmat_local_nnz(ref) &&
             distrt_spmat_global_nnz(cm) == c->nnz,
         "%s %s: local nnz %lld (reference %lld), global %lld (D %lld)", nm,
         c->tag, (long long)distrt_spmat_local_nnz(cm),
         (long long)distrt_spmat_local_nnz(ref),
         (long long)distrt_spmat_global_nnz(cm), (long long)c->nnz);
}

/* The companion's ALL part is exactly D's entries [e0, e1) over rows
 * [first, first + nr). */
static void check_slice(const ctx *c, distrt_spmat *cm) {
  const char *nm = c->mc->name;
  void *pos, *crd, *val;
  int64_t first, nr, nnz;
  distrt_spmat_local_rows(cm, NULL, &first, &nr);
  distrt_spmat_part(cm, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, NULL);
  int ok = first == c->first && nr == c->nr && nnz == c->e1 - c->e0;
  EXPECT(ok, "%s %s: rows from %lld, %lld of them, %lld entries; expected "
         "%lld, %lld, %lld", nm, c->tag, (long long)first, (long long)nr,
         (long long)nnz, (long long)c->first, (long long)c->nr,
         (long long)(c->e1 - c->e0));
  if (!ok)
    return;
  int64_t bad = 0;
  for (int64_t i = 0, e = c->e0; i <= nr; ++i) {
    while (e < c->e1 && c->er[e] < first + i)
      ++e;
    bad += idx(pos, c->pb, i) != e - c->e0;
  }
  for (int64_t p = 0; p < nnz; ++p) {
    int64_t e = c->e0 + p;
    bad += idx(crd, c->cb, p) != c->ec[e] ||
           tu_get(val, c->dtype, p) != c->d[c->er[e] * c->mc->cols + c->ec[e]];
  }
  EXPECT(bad == 0, "%s %s: %lld positions, coordinates or values differ "
         "from D's entries [%lld, %lld)", nm, c->tag, (long long)bad,
         (long long)c->e0, (long long)c->e1);
}

/* y (B rows of k) against y0 + D x within rounding. */
static int64_t check_y(const ctx *c, const void *y, double y0, int64_t k,
                       const char *what) {
  int64_t bad = 0, cols = c->mc->cols;
  double tol = c->dtype == DISTRT_F32 ? 1e-5 : 1e-12;
  for (int64_t r = 0; r < c->B; ++r)
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = c->lo + r;
      double want = y0, mag = fabs(y0);
      for (int64_t col = 0; col < cols && i < c->hi; ++col) {
        want += c->d[i * cols + col] * xval(col, j);
        mag += fabs(c->d[i * cols + col] * xval(col, j));
      }
      double got = tu_get(y, c->dtype, r * k + j);
      if (fabs(got - want) > tol * (1 + mag) && bad++ < 3)
        EXPECT(0, "%s %s: %s k=%lld: y(%lld, %lld) = %.17g, expected %.17g",
               c->mc->name, c->tag, what, (long long)k, (long long)i,
               (long long)j, got, want);
    }
  return bad;
}

/* y = y0 + m x by mul (y0 = 0), mul_add from the block, mul_add from the
 * whole x, or a DCSR loop into the partial sums then reduce_rows. */
static void product(distrt_spmat *m, const ctx *c, int how, const void *x,
                    const void *whole, void *y, int64_t k) {
  int64_t ny = c->B * k;
  for (int64_t e = 0; e < ny; ++e)
    tu_set(y, c->dtype, e, how == 0 ? 999.0 : 1.0);
  if (how == 0) {
    distrt_spmat_mul(m, x, y, k);
  } else if (how == 1) {
    distrt_spmat_mul_add(m, x, y, k, 0);
  } else if (how == 2) {
    distrt_spmat_mul_add(m, whole, y, k, 1);
  } else {
    void *ids, *pos, *crd, *val, *part = distrt_spmat_partial(m, k);
    int64_t nr;
    distrt_spmat_local_rows(m, &ids, NULL, &nr);
    distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, NULL, NULL);
    for (int64_t t = 0; t < nr; ++t) {
      int64_t i = idx(ids, c->cb, t);
      for (int64_t p = idx(pos, c->pb, i); p < idx(pos, c->pb, i + 1); ++p)
        for (int64_t j = 0; j < k; ++j)
          tu_set(part, c->dtype, i * k + j,
                 tu_get(part, c->dtype, i * k + j) +
                     tu_get(val, c->dtype, p) *
                         tu_get(whole, c->dtype,
                                idx(crd, c->cb, p) * k + j));
    }
    distrt_spmat_reduce_rows(m, part, y, k);
  }
}

static void check_products(const ctx *c, distrt_spmat *cm, distrt_spmat *ref,
                           int64_t k) {
  static const char *const how[4] = {"mul", "mul_add", "mul_add whole",
                                     "partial + reduce_rows"};
  int64_t cols = c->mc->cols, ny = c->B * k, es = tu_esize(c->dtype);
  void *x = malloc((size_t)((c->xhi - c->xlo) * k + 1) * 8);
  void *whole = malloc((size_t)(cols * k + 1) * 8);
  for (int64_t r = 0; r < cols; ++r)
    for (int64_t j = 0; j < k; ++j) {
      tu_set(whole, c->dtype, r * k + j, xval(r, j));
      if (r >= c->xlo && r < c->xhi)
        tu_set(x, c->dtype, (r - c->xlo) * k + j, xval(r, j));
    }
  void *ya = malloc((size_t)(ny + 1) * 8), *yb = malloc((size_t)(ny + 1) * 8);
  for (int h = 0; h < 4; ++h) {
    product(cm, c, h, x, whole, ya, k);
    product(ref, c, h, x, whole, yb, k);
    EXPECT(ny == 0 || memcmp(ya, yb, (size_t)(ny * es)) == 0,
           "%s %s: %s k=%lld: the companion's product differs from the "
           "reference's", c->mc->name, c->tag, how[h], (long long)k);
    EXPECT(check_y(c, ya, h == 0 ? 0 : 1, k, how[h]) == 0,
           "%s %s: %s k=%lld: wrong elements", c->mc->name, c->tag, how[h],
           (long long)k);
  }
  free(ya);
  free(yb);
  free(x);
  free(whole);
}

/* The dense gather, and the file against the reference's. */
static void check_files(const ctx *c, distrt_spmat *cm, distrt_spmat *ref,
                        const char *dir) {
  const mcase *mc = c->mc;
  int64_t n = mc->rows * mc->cols, root = tu_size() - 1, bad = 0;
  void *g = malloc((size_t)(n + 1) * 8);
  distrt_spmat_gather_dense(cm, tu_rank() == root ? g : NULL, root);
  for (int64_t i = 0; tu_rank() == root && i < n; ++i)
    bad += tu_get(g, c->dtype, i) != c->d[i];
  EXPECT(bad == 0, "%s %s: gather_dense: %lld elements differ from D",
         mc->name, c->tag, (long long)bad);
  free(g);
  if (!dir)
    return;
  char pa[4096], pb[4096];
  snprintf(pa, sizeof pa, "%s/mixed-%s-%s.mtx", dir, mc->name,
           pname(c->kind));
  snprintf(pb, sizeof pb, "%s/ref-%s-%s.mtx", dir, mc->name, pname(c->kind));
  distrt_spmat_write_mm(cm, pa);
  distrt_spmat_write_mm(ref, pb);
  if (tu_rank() == 0) {
    FILE *a = fopen(pa, "rb"), *b = fopen(pb, "rb");
    int same = a && b;
    while (same) {
      int ca = fgetc(a), cb = fgetc(b);
      same = ca == cb;
      if (ca == EOF)
        break;
    }
    EXPECT(same, "%s %s: %s differs from %s", mc->name, c->tag, pa, pb);
    if (a)
      fclose(a);
    if (b)
      fclose(b);
  }
}

/* One source partition, widths and dtype: two fills (seeds 7, 8). */
static void run_one(const mcase *mc, int64_t from, int64_t pb, int64_t cb,
                    int64_t dt, const char *dir) {
  int64_t to = from == DISTRT_SPMAT_ROWS ? DISTRT_SPMAT_NONZEROS
                                         : DISTRT_SPMAT_ROWS;
  distrt_spmat *src = make(mc, from, pb, cb, dt);
  distrt_spmat *ref = make(mc, to, pb, cb, dt);
  distrt_spmat *rowsm = from == DISTRT_SPMAT_ROWS ? src : ref;
  for (int64_t seed = 7; seed <= 8; ++seed) {
    fill(src, mc, seed);
    fill(ref, mc, seed);
    ctx c;
    memset(&c, 0, sizeof c);
    c.mc = mc;
    c.pb = pb;
    c.cb = cb;
    c.dtype = dt;
    c.kind = to;
    snprintf(c.tag, sizeof c.tag, "%s -> %s p%lld c%lld %s seed %lld",
             pname(from), pname(to), (long long)pb, (long long)cb,
             tu_dtype_name(dt), (long long)seed);
    setup(&c, rowsm, seed);
    const char *nm = mc->name;
    /* New entries: no companion, nothing moved yet. */
    EXPECT(distrt_spmat_moved_entries(src) == 0,
           "%s %s: %lld entries moved before the companion is made", nm,
           c.tag, (long long)distrt_spmat_moved_entries(src));
    EXPECT(distrt_spmat_in_partition(src, from) == src,
           "%s %s: the matrix in its own partition is not itself", nm,
           c.tag);
    distrt_spmat *cm = distrt_spmat_in_partition(src, to);
    EXPECT(cm && cm != src && distrt_spmat_partition(cm) == to,
           "%s %s: companion %p of partition %lld", nm, c.tag, (void *)cm,
           cm ? (long long)distrt_spmat_partition(cm) : -1LL);
    if (!cm || cm == src) {
      teardown(&c);
      continue;
    }
    EXPECT(distrt_spmat_in_partition(src, to) == cm &&
               distrt_spmat_in_partition(cm, to) == cm &&
               distrt_spmat_in_partition(cm, from) == src,
           "%s %s: a second call, or the companion asked for either "
           "partition, gives another matrix", nm, c.tag);
    int64_t want = expected_moved(&c), got = distrt_spmat_moved_entries(src);
    int64_t hard = mc->src == SRC_FIXTURE ? fixture_moved(tu_size()) : -1;
    EXPECT(got == want && (hard < 0 || got == hard) &&
               distrt_spmat_moved_entries(cm) == 0,
           "%s %s: moved %lld entries; counted %lld (hard-coded %lld); the "
           "companion's count %lld", nm, c.tag, (long long)got,
           (long long)want, (long long)hard,
           (long long)distrt_spmat_moved_entries(cm));
    check_same(&c, cm, ref);
    check_slice(&c, cm);
    check_products(&c, cm, ref, 1);
    check_products(&c, cm, ref, 3);
    check_files(&c, cm, ref,
                pb == 32 && cb == 32 && dt == DISTRT_F64 && seed == 7 ? dir
                                                                      : NULL);
    EXPECT(distrt_spmat_in_partition(src, to) == cm,
           "%s %s: the companion changed after the products", nm, c.tag);
    teardown(&c);
  }
  distrt_spmat_free(src);
  distrt_spmat_free(ref);
}

static void run_case(const mcase *mc, const char *dir) {
  static const int64_t widths[3][2] = {{32, 32}, {64, 64}, {64, 32}};
  for (int64_t from = DISTRT_SPMAT_ROWS; from <= DISTRT_SPMAT_NONZEROS;
       ++from) {
    for (int w = 0; w < 3; ++w)
      for (int64_t dt = DISTRT_F32; dt <= DISTRT_F64; ++dt)
        run_one(mc, from, widths[w][0], widths[w][1], dt, dir);
    tu_section("mixed %s %lldx%lld %s -> %s", mc->name, (long long)mc->rows,
               (long long)mc->cols, pname(from),
               pname(from == DISTRT_SPMAT_ROWS ? DISTRT_SPMAT_NONZEROS
                                               : DISTRT_SPMAT_ROWS));
  }
}

static const mcase fixture = {"fixture", 8, 8, SRC_FIXTURE, 0};

/*===-- errors -----------------------------------------------------------===*/

static int error_case(const char *name) {
  tu_init("distrt-test-sparse-mixed");
  distrt_spmat *m =
      distrt_spmat_create(tu_world(), 8, 8, 32, 32, DISTRT_F64);
  fill(m, &fixture, 7);
  if (strcmp(name, "bad-partition") == 0) {
    distrt_spmat_in_partition(m, 3);
  } else if (strcmp(name, "entries-partition") == 0) {
    distrt_spmat_in_partition(m, DISTRT_SPMAT_ENTRIES);
  } else if (strcmp(name, "null") == 0) {
    distrt_spmat_in_partition(NULL, DISTRT_SPMAT_ROWS);
  } else if (strcmp(name, "free-companion") == 0) {
    distrt_spmat_free(distrt_spmat_in_partition(m, DISTRT_SPMAT_NONZEROS));
  } else if (strcmp(name, "assign-companion") == 0) {
    fill(distrt_spmat_in_partition(m, DISTRT_SPMAT_NONZEROS), &fixture, 8);
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
  if (argc == 3 && strcmp(argv[1], "error") == 0)
    return error_case(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-mixed DIR | verbose | error "
                    "NAME\n");
    return 2;
  }
  tu_init("distrt-test-sparse-mixed");
  if (strcmp(argv[1], "verbose") == 0) {
    for (int64_t from = DISTRT_SPMAT_ROWS; from <= DISTRT_SPMAT_NONZEROS;
         ++from)
      run_one(&fixture, from, 32, 32, DISTRT_F64, NULL);
    tu_section("mixed fixture, verbose");
    return tu_finish();
  }
  static const mcase cases[] = {
      {"banded", 37, 37, SRC_BANDED, 5},
      {"rmat", 64, 64, SRC_RMAT, 4}, /* the first rows densest */
      {"uniform", 37, 29, SRC_UNIFORM, 3},
      {"fixture", 8, 8, SRC_FIXTURE, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run_case(&cases[i], argv[1]);
  return tu_finish();
}
