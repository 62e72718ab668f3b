/* distrt-test-sparse-spmat: distributed CSR matrices (distrt/sparse.h).
 *
 *   distrt-test-sparse-spmat DIR             every case (DIR: scratch
 *                                            directory for the file cases)
 *   distrt-test-sparse-spmat error NAME DIR  one error case, which must end
 *                                            the job (prints "UNEXPECTED
 *                                            success" otherwise)
 *
 * The matrices come from formulas (pattern(), value() below): every rank
 * builds the COO of its own rows by hand, in order, with B = ceil(rows / P)
 * computed here; the files of the read cases are written here from the same
 * formulas.  Every check compares with what the test computes itself from
 * the formulas, never with runtime output:
 *   - the ALL part: B + 1 positions, exactly this rank's entries in order;
 *   - DIAG + OFFDIAG mapped back to global columns (DIAG from this rank's
 *     block start, OFFDIAG through the test's own sorted list of off-block
 *     columns) give exactly the ALL entries, columns increasing;
 *   - the ghost rows after an exchange equal x at the ghost columns;
 *   - distrt_spmat_share_x (all ranks of these runs share one node): NULL
 *     on one rank or with DISTRT_SPARSE_SHARED=0, shared with =1 on more,
 *     either when unset; when shared, the whole of x in global row order,
 *     in two alternating arrays;
 *   - distrt_spmat_mul against a dense product from the formulas (values
 *     are multiples of 1/4 and x holds small integers, so every sum is
 *     exact in f32 too), twice (the plan is reused: same part pointers),
 *     for k = 1, 3, 1 (the ghost buffer grows, then is reused);
 *   - distrt_spmat_gather_dense on the last rank against the formula;
 *   - local and global entry counts; after a second assign (values scaled)
 *     the product uses the new values (the plan was dropped).
 * Every case runs with every (pos_bits, crd_bits) in {32, 64}^2 and with
 * f32 and f64. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===-- the formulas -----------------------------------------------------===*/

enum { PAT_MIXED, PAT_FULL, PAT_NONE, PAT_SPARSE };

typedef struct {
  const char *name;
  int64_t rows, cols;
  int pattern;
} mcase;

static int present(int pattern, int64_t i, int64_t j) {
  switch (pattern) {
  case PAT_MIXED: /* rows 3, 7, 11, ... empty; a diagonal and a scatter */
    return i % 4 != 3 && (i == j || (i * 5 + j * 3) % 7 == 0);
  case PAT_FULL:
    return 1;
  case PAT_NONE:
    return 0;
  default:
    return (i + 2 * j) % 3 == 0;
  }
}

/* Non-zero multiples of 1/4 (exact in f32). */
static double value(int64_t i, int64_t j, double scale) {
  double v = (double)((i * 3 + j * 5) % 8 + 1) * 0.25;
  return ((i + j) & 1 ? -v : v) * scale;
}

/* The dense operand: small integers. */
static double xval(int64_t r, int64_t j) {
  return (double)((r * 7 + j * 3) % 11 - 5);
}

/* value() as stored at dtype. */
static double stored(int64_t dtype, double v) {
  return dtype == DISTRT_F32 ? (double)(float)v : v;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t idx(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

/* This rank's rows [lo, hi) of B, and its rows [xlo, xhi) of x of C. */
typedef struct {
  int64_t B, lo, hi, C, xlo, xhi;
} blocks;

static blocks blocks_of(int64_t rows, int64_t cols) {
  int64_t P = tu_size(), r = tu_rank();
  blocks b;
  b.B = (rows + P - 1) / P;
  b.lo = min64(r * b.B, rows);
  b.hi = min64((r + 1) * b.B, rows);
  b.C = (cols + P - 1) / P;
  b.xlo = min64(r * b.C, cols);
  b.xhi = min64((r + 1) * b.C, cols);
  return b;
}

/* This rank's rows of the case as a COO, by hand. */
static void build_coo(const mcase *mc, double scale, distrt_coo *coo) {
  blocks b = blocks_of(mc->rows, mc->cols);
  memset(coo, 0, sizeof *coo);
  coo->order = 2;
  coo->dims[0] = mc->rows;
  coo->dims[1] = mc->cols;
  coo->lo = b.lo;
  coo->hi = b.hi;
  int64_t n = 0;
  for (int64_t i = b.lo; i < b.hi; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      n += present(mc->pattern, i, j);
  coo->coords = (int64_t *)malloc((size_t)(2 * n + 2) * 8);
  coo->values = (double *)malloc((size_t)(n + 1) * 8);
  for (int64_t i = b.lo; i < b.hi; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      if (present(mc->pattern, i, j)) {
        coo->coords[2 * coo->nnz] = i;
        coo->coords[2 * coo->nnz + 1] = j;
        coo->values[coo->nnz++] = value(i, j, scale);
      }
}

static void free_coo(distrt_coo *coo) {
  free(coo->coords);
  free(coo->values);
  memset(coo, 0, sizeof *coo);
}

/*===-- checks -----------------------------------------------------------===*/

typedef struct {
  const mcase *mc;
  blocks b;
  int64_t pb, cb, dtype;
  double scale;
  const char *tag; /* "p32 c64 f32", for messages */
} ctx;

static void check_all(const ctx *c, distrt_spmat *m) {
  void *pos, *crd, *val;
  int64_t nnz = -1, nc = -1;
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, &nc);
  const mcase *mc = c->mc;
  EXPECT(nc == mc->cols, "%s %s: ALL ncols %lld", mc->name, c->tag,
         (long long)nc);
  EXPECT(idx(pos, c->pb, 0) == 0 && idx(pos, c->pb, c->b.B) == nnz,
         "%s %s: ALL pos[0] = %lld, pos[B] = %lld, nnz %lld", mc->name,
         c->tag, (long long)idx(pos, c->pb, 0),
         (long long)idx(pos, c->pb, c->b.B), (long long)nnz);
  int64_t want = 0, bad = 0;
  for (int64_t r = 0; r < c->b.B; ++r) {
    int64_t i = c->b.lo + r, p = idx(pos, c->pb, r);
    int64_t e = idx(pos, c->pb, r + 1);
    for (int64_t j = 0; j < mc->cols && i < c->b.hi; ++j) {
      if (!present(mc->pattern, i, j))
        continue;
      ++want;
      if (p >= e || idx(crd, c->cb, p) != j ||
          tu_get(val, c->dtype, p) !=
              stored(c->dtype, value(i, j, c->scale)))
        ++bad;
      else
        ++p;
    }
    bad += p != e;
  }
  EXPECT(bad == 0 && want == nnz, "%s %s: ALL: %lld wrong rows or entries; "
         "%lld entries, expected %lld", mc->name, c->tag, (long long)bad,
         (long long)nnz, (long long)want);
  EXPECT(distrt_spmat_local_nnz(m) == want, "%s %s: local nnz %lld, "
         "expected %lld", mc->name, c->tag,
         (long long)distrt_spmat_local_nnz(m), (long long)want);
  int64_t total = 0;
  for (int64_t i = 0; i < mc->rows; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      total += present(mc->pattern, i, j);
  EXPECT(distrt_spmat_global_nnz(m) == total, "%s %s: global nnz %lld, "
         "expected %lld", mc->name, c->tag,
         (long long)distrt_spmat_global_nnz(m), (long long)total);
}

/* The test's own ghost list: sorted distinct columns outside [xlo, xhi) of
 * this rank's entries.  Returns their number; *out is malloc'd. */
static int64_t ghosts_of(const ctx *c, int64_t **out) {
  const mcase *mc = c->mc;
  int64_t *g = (int64_t *)malloc((size_t)(mc->cols + 1) * 8), n = 0;
  for (int64_t j = 0; j < mc->cols; ++j) {
    if (j >= c->b.xlo && j < c->b.xhi)
      continue;
    int used = 0;
    for (int64_t i = c->b.lo; i < c->b.hi && !used; ++i)
      used = present(mc->pattern, i, j);
    if (used)
      g[n++] = j;
  }
  *out = g;
  return n;
}

/* DIAG and OFFDIAG back to global columns: exactly the ALL entries. */
static void check_parts(const ctx *c, distrt_spmat *m, const int64_t *ghost,
                        int64_t nghost) {
  const mcase *mc = c->mc;
  void *dp, *dc, *dv, *op, *oc, *ov;
  int64_t dn, dnc, on, onc;
  distrt_spmat_part(m, DISTRT_SPMAT_DIAG, &dp, &dc, &dv, &dn, &dnc);
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, &op, &oc, &ov, &on, &onc);
  EXPECT(dnc == c->b.C, "%s %s: DIAG ncols %lld, expected C = %lld",
         mc->name, c->tag, (long long)dnc, (long long)c->b.C);
  EXPECT(onc == nghost, "%s %s: OFFDIAG ncols %lld, expected %lld ghosts",
         mc->name, c->tag, (long long)onc, (long long)nghost);
  if (onc != nghost)
    return;
  double *row = (double *)calloc((size_t)mc->cols + 1, sizeof *row);
  char *seen = (char *)calloc((size_t)mc->cols + 1, 1);
  int64_t bad = 0, count = 0;
  for (int64_t r = 0; r < c->b.B; ++r) {
    memset(seen, 0, (size_t)mc->cols + 1);
    int64_t prev = -1;
    for (int64_t p = idx(dp, c->pb, r); p < idx(dp, c->pb, r + 1); ++p) {
      int64_t j = idx(dc, c->cb, p);
      bad += j <= prev || j >= c->b.xhi - c->b.xlo;
      if (j > prev && j < c->b.xhi - c->b.xlo) {
        seen[c->b.xlo + j] = 1;
        row[c->b.xlo + j] = tu_get(dv, c->dtype, p);
      }
      prev = j;
      ++count;
    }
    prev = -1;
    for (int64_t p = idx(op, c->pb, r); p < idx(op, c->pb, r + 1); ++p) {
      int64_t gi = idx(oc, c->cb, p);
      bad += gi <= prev || gi >= nghost;
      if (gi > prev && gi < nghost) {
        bad += seen[ghost[gi]];
        seen[ghost[gi]] = 1;
        row[ghost[gi]] = tu_get(ov, c->dtype, p);
      }
      prev = gi;
      ++count;
    }
    int64_t i = c->b.lo + r;
    for (int64_t j = 0; j < mc->cols; ++j) {
      int want = i < c->b.hi && present(mc->pattern, i, j);
      bad += seen[j] != want;
      if (want && seen[j])
        bad += row[j] != stored(c->dtype, value(i, j, c->scale));
    }
  }
  EXPECT(bad == 0 && count == distrt_spmat_local_nnz(m) && dn + on == count,
         "%s %s: DIAG + OFFDIAG: %lld mismatches, %lld + %lld entries, ALL "
         "has %lld", mc->name, c->tag, (long long)bad, (long long)dn,
         (long long)on, (long long)distrt_spmat_local_nnz(m));
  free(row);
  free(seen);

  /* OFFDIAG's compressed rows: exactly the rows with entries, in order,
   * and their positions. */
  void *rows, *rpos;
  int64_t nrows, want = 0, rbad = 0;
  distrt_spmat_offdiag_rows(m, &rows, &rpos, &nrows);
  for (int64_t r = 0; r < c->b.B; ++r) {
    int64_t p = idx(op, c->pb, r), q = idx(op, c->pb, r + 1);
    if (q == p)
      continue;
    rbad += want >= nrows || idx(rows, c->cb, want) != r ||
            idx(rpos, c->pb, want) != p || idx(rpos, c->pb, want + 1) != q;
    ++want;
  }
  EXPECT(rbad == 0 && want == nrows,
         "%s %s: OFFDIAG rows: %lld listed, %lld with entries, %lld "
         "mismatches", mc->name, c->tag, (long long)nrows, (long long)want,
         (long long)rbad);
}

/* This rank's rows of x (k columns), at dtype. */
static void *make_x(const ctx *c, int64_t k) {
  int64_t n = (c->b.xhi - c->b.xlo) * k;
  void *x = malloc((size_t)(n + 1) * 8);
  for (int64_t r = c->b.xlo; r < c->b.xhi; ++r)
    for (int64_t j = 0; j < k; ++j)
      tu_set(x, c->dtype, (r - c->b.xlo) * k + j, xval(r, j));
  return x;
}

static void check_exchange(const ctx *c, distrt_spmat *m, const int64_t *ghost,
                           int64_t nghost, int64_t k) {
  void *x = make_x(c, k);
  void *g = distrt_spmat_exchange_begin(m, x, k);
  distrt_spmat_exchange_end(m);
  int64_t bad = 0;
  for (int64_t i = 0; i < nghost; ++i)
    for (int64_t j = 0; j < k; ++j)
      bad += tu_get(g, c->dtype, i * k + j) != xval(ghost[i], j);
  EXPECT(bad == 0, "%s %s: exchange k=%lld: %lld wrong ghost elements",
         c->mc->name, c->tag, (long long)k, (long long)bad);
  free(x);
}

static void check_share(const ctx *c, distrt_spmat *m, int64_t k) {
  const mcase *mc = c->mc;
  void *x = make_x(c, k);
  /* Forced (1) or off (0); unset, distrt chooses: either, the same on
   * both calls. */
  const char *env = getenv("DISTRT_SPARSE_SHARED");
  int mode = !env || !*env ? -1 : strcmp(env, "1") == 0;
  void *w1 = distrt_spmat_share_x(m, x, k);
  void *w2 = distrt_spmat_share_x(m, x, k);
  int expect = mode < 0 ? w1 != NULL : tu_size() > 1 && c->b.C > 0 && mode;
  EXPECT((w1 != NULL) == expect && (w2 != NULL) == expect,
         "%s %s: share_x k=%lld: %s, expected %s", mc->name, c->tag,
         (long long)k, w1 ? "shared" : "NULL", expect ? "shared" : "NULL");
  if (w1 && w2) {
    EXPECT(w1 != w2, "%s %s: share_x k=%lld: two calls gave one array",
           mc->name, c->tag, (long long)k);
    int64_t bad = 0;
    for (int64_t r = 0; r < mc->cols; ++r)
      for (int64_t j = 0; j < k; ++j)
        bad += tu_get(w1, c->dtype, r * k + j) != xval(r, j) ||
               tu_get(w2, c->dtype, r * k + j) != xval(r, j);
    EXPECT(bad == 0, "%s %s: share_x k=%lld: %lld wrong elements", mc->name,
           c->tag, (long long)k, (long long)bad);
  }
  free(x);
}

static void check_mul(const ctx *c, distrt_spmat *m, int64_t k) {
  const mcase *mc = c->mc;
  void *x = make_x(c, k);
  int64_t n = c->b.B * k;
  void *y = malloc((size_t)(n + 1) * 8), *y2 = malloc((size_t)(n + 1) * 8);
  /* distrt_spmat_mul_add accumulates: into 3, from x's block (the plan)
   * and from the whole of x (the ALL part). */
  void *y3 = malloc((size_t)(n + 1) * 8), *y4 = malloc((size_t)(n + 1) * 8);
  void *whole = malloc((size_t)(mc->cols * k + 1) * 8);
  for (int64_t r = 0; r < mc->cols; ++r)
    for (int64_t j = 0; j < k; ++j)
      tu_set(whole, c->dtype, r * k + j, xval(r, j));
  for (int64_t i = 0; i < n; ++i) {
    tu_set(y, c->dtype, i, 1234.0);
    tu_set(y2, c->dtype, i, -77.0);
    tu_set(y3, c->dtype, i, 3.0);
    tu_set(y4, c->dtype, i, 3.0);
  }
  distrt_spmat_mul(m, x, y, k);
  distrt_spmat_mul(m, x, y2, k);
  distrt_spmat_mul_add(m, x, y3, k, 0);
  distrt_spmat_mul_add(m, whole, y4, k, 1);
  int64_t bad = 0, same = 0, badadd = 0;
  for (int64_t r = 0; r < c->b.B; ++r)
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = c->b.lo + r;
      double want = 0;
      for (int64_t col = 0; col < mc->cols && i < c->b.hi; ++col)
        if (present(mc->pattern, i, col))
          want += stored(c->dtype, value(i, col, c->scale)) * xval(col, j);
      double got = tu_get(y, c->dtype, r * k + j);
      if (got != want && bad++ < 3)
        EXPECT(0, "%s %s: mul k=%lld: y(%lld, %lld) = %g, expected %g",
               mc->name, c->tag, (long long)k, (long long)i, (long long)j,
               got, want);
      same += got == tu_get(y2, c->dtype, r * k + j);
      double want3 = stored(c->dtype, stored(c->dtype, want) + 3.0);
      badadd += fabs(tu_get(y3, c->dtype, r * k + j) - want3) >
                    1e-5 * (1 + fabs(want3)) ||
                fabs(tu_get(y4, c->dtype, r * k + j) - want3) >
                    1e-5 * (1 + fabs(want3));
    }
  EXPECT(badadd == 0, "%s %s: mul_add k=%lld: %lld wrong elements (y += m x "
         "from the block or the whole of x)", mc->name, c->tag, (long long)k,
         (long long)badadd);
  free(y3);
  free(y4);
  free(whole);
  EXPECT(bad == 0, "%s %s: mul k=%lld: %lld wrong elements", mc->name,
         c->tag, (long long)k, (long long)bad);
  EXPECT(same == n, "%s %s: mul k=%lld: the second product differs in "
         "%lld elements", mc->name, c->tag, (long long)k,
         (long long)(n - same));
  free(x);
  free(y);
  free(y2);
}

static void check_gather(const ctx *c, distrt_spmat *m) {
  const mcase *mc = c->mc;
  int64_t root = tu_size() - 1, n = mc->rows * mc->cols;
  void *d = tu_rank() == root ? malloc((size_t)(n + 1) * 8) : NULL;
  for (int64_t i = 0; d && i < n; ++i)
    tu_set(d, c->dtype, i, 555.0);
  distrt_spmat_gather_dense(m, d, root);
  int64_t bad = 0;
  for (int64_t i = 0; d && i < mc->rows; ++i)
    for (int64_t j = 0; j < mc->cols; ++j) {
      double want = present(mc->pattern, i, j)
                        ? stored(c->dtype, value(i, j, c->scale))
                        : 0.0;
      bad += tu_get(d, c->dtype, i * mc->cols + j) != want;
    }
  EXPECT(bad == 0, "%s %s: gather_dense: %lld wrong elements", mc->name,
         c->tag, (long long)bad);
  free(d);
}

/* The plan and everything after it, for the entries now in m. */
static void check_planned(const ctx *c, distrt_spmat *m) {
  int64_t *ghost;
  int64_t nghost = ghosts_of(c, &ghost);
  distrt_spmat_plan(m);
  void *p1[3], *p2[3];
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, &p1[0], &p1[1], &p1[2], NULL,
                    NULL);
  distrt_spmat_plan(m); /* idempotent: the same arrays */
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, &p2[0], &p2[1], &p2[2], NULL,
                    NULL);
  EXPECT(memcmp(p1, p2, sizeof p1) == 0, "%s %s: a second plan rebuilt the "
         "parts", c->mc->name, c->tag);
  check_parts(c, m, ghost, nghost);
  static const int64_t ks[] = {1, 3, 1};
  for (int i = 0; i < 3; ++i) {
    check_exchange(c, m, ghost, nghost, ks[i]);
    check_share(c, m, ks[i]);
    check_mul(c, m, ks[i]);
  }
  distrt_spmat_part(m, DISTRT_SPMAT_OFFDIAG, &p2[0], &p2[1], &p2[2], NULL,
                    NULL);
  EXPECT(memcmp(p1, p2, sizeof p1) == 0, "%s %s: mul rebuilt the plan",
         c->mc->name, c->tag);
  check_gather(c, m);
  free(ghost);
}

static void run_case(const mcase *mc) {
  static const int64_t widths[4][2] = {{32, 32}, {32, 64}, {64, 32}, {64, 64}};
  for (int w = 0; w < 4; ++w)
    for (int64_t dt = DISTRT_F32; dt <= DISTRT_F64; ++dt) {
      char tag[32];
      snprintf(tag, sizeof tag, "p%lld c%lld %s", (long long)widths[w][0],
               (long long)widths[w][1], tu_dtype_name(dt));
      ctx c = {mc, blocks_of(mc->rows, mc->cols), widths[w][0],
               widths[w][1], dt, 1.0, tag};
      distrt_spmat *m = distrt_spmat_create(tu_world(), mc->rows, mc->cols,
                                            c.pb, c.cb, dt);
      distrt_coo coo;
      build_coo(mc, 1.0, &coo);
      distrt_spmat_assign(m, &coo, mc->name);
      free_coo(&coo);
      check_all(&c, m);
      check_planned(&c, m);
      /* New values: the plan is dropped and rebuilt with them. */
      c.scale = -2.0;
      build_coo(mc, c.scale, &coo);
      distrt_spmat_assign(m, &coo, mc->name);
      free_coo(&coo);
      check_all(&c, m);
      check_mul(&c, m, 3);
      check_planned(&c, m);
      distrt_spmat_free(m);
    }
  distrt_spmat_free(NULL);
  tu_section("spmat %s %lldx%lld", mc->name, (long long)mc->rows,
             (long long)mc->cols);
}

/*===-- files ------------------------------------------------------------===*/

/* Rank 0 writes the case as a MatrixMarket (tns = 0) or .tns file. */
static void write_file(const char *path, const mcase *mc, int tns) {
  if (tu_rank() == 0) {
    FILE *f = fopen(path, "w");
    if (!f) {
      EXPECT(0, "cannot write %s", path);
    } else {
      int64_t n = 0;
      for (int64_t i = 0; i < mc->rows; ++i)
        for (int64_t j = 0; j < mc->cols; ++j)
          n += present(mc->pattern, i, j);
      if (!tns)
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n"
                   "%lld %lld %lld\n",
                (long long)mc->rows, (long long)mc->cols, (long long)n);
      /* Backwards: the reader sorts. */
      for (int64_t i = mc->rows - 1; i >= 0; --i)
        for (int64_t j = mc->cols - 1; j >= 0; --j)
          if (present(mc->pattern, i, j))
            fprintf(f, "%lld %lld %.17g\n", (long long)i + 1,
                    (long long)j + 1, value(i, j, 1.0));
      fclose(f);
    }
  }
  distrt_barrier(tu_world(), 1);
}

static void file_case(const char *dir, const char *file, int tns) {
  static const mcase mc = {"file", 10, 7, PAT_MIXED};
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  write_file(path, &mc, tns);
  ctx c = {&mc, blocks_of(mc.rows, mc.cols), 64, 32, DISTRT_F64, 1.0, file};
  distrt_spmat *m =
      distrt_spmat_create(tu_world(), mc.rows, mc.cols, 64, 32, DISTRT_F64);
  distrt_spmat_read(m, path);
  check_all(&c, m);
  check_planned(&c, m);
  distrt_spmat_free(m);
  tu_section("spmat read %s", file);
}

/*===-- errors -----------------------------------------------------------===*/

static int error_case(const char *name, const char *dir) {
  tu_init("distrt-test-sparse-spmat");
  int64_t P = tu_size();
  distrt_grid *g = tu_world();
  char path[4096];
  distrt_spmat *m = NULL;
  if (strcmp(name, "width") == 0) {
    m = distrt_spmat_create(g, 4, 4, 16, 32, DISTRT_F64);
  } else if (strcmp(name, "dtype") == 0) {
    m = distrt_spmat_create(g, 4, 4, 32, 32, DISTRT_I32);
  } else if (strcmp(name, "shape") == 0) {
    /* A 10 x 12 file read into a 10 x 10 matrix. */
    static const mcase mc = {"shape", 10, 12, PAT_SPARSE};
    snprintf(path, sizeof path, "%s/shape.mtx", dir);
    write_file(path, &mc, 0);
    m = distrt_spmat_create(g, 10, 10, 32, 32, DISTRT_F64);
    distrt_spmat_read(m, path);
  } else if (strcmp(name, "assign-shape") == 0) {
    static const mcase mc = {"hand", 5, 6, PAT_SPARSE};
    distrt_coo coo;
    build_coo(&mc, 1.0, &coo);
    m = distrt_spmat_create(g, 5, 5, 64, 64, DISTRT_F32);
    distrt_spmat_assign(m, &coo, "hand");
  } else if (strcmp(name, "unsorted") == 0) {
    /* The last rank swaps its first two entries. */
    static const mcase mc = {"unsorted", 8, 8, PAT_FULL};
    distrt_coo coo;
    build_coo(&mc, 1.0, &coo);
    if (distrt_world_rank() == P - 1) {
      int64_t t = coo.coords[1];
      coo.coords[1] = coo.coords[3];
      coo.coords[3] = t;
    }
    m = distrt_spmat_create(g, 8, 8, 64, 64, DISTRT_F64);
    distrt_spmat_assign(m, &coo, "unsorted");
  } else if (strcmp(name, "wide") == 0) {
    /* Column 2999999999 does not fit 32-bit coordinates. */
    distrt_coo coo;
    memset(&coo, 0, sizeof coo);
    int64_t e[2] = {0, 2999999999LL};
    double v = 1.0;
    coo.order = 2;
    coo.dims[0] = 2;
    coo.dims[1] = 3000000000LL;
    if (distrt_world_rank() == 0) {
      coo.nnz = 1;
      coo.coords = e;
      coo.values = &v;
    }
    m = distrt_spmat_create(g, 2, 3000000000LL, 64, 32, DISTRT_F64);
    distrt_spmat_assign(m, &coo, "wide");
  } else if (strcmp(name, "ext") == 0) {
    snprintf(path, sizeof path, "%s/matrix.dat", dir);
    m = distrt_spmat_create(g, 4, 4, 32, 32, DISTRT_F64);
    distrt_spmat_read(m, path);
  } else if (strcmp(name, "diag") == 0) {
    void *pos, *crd, *val;
    int64_t nnz, nc;
    m = distrt_spmat_create(g, 4, 4, 32, 32, DISTRT_F64);
    distrt_spmat_part(m, DISTRT_SPMAT_DIAG, &pos, &crd, &val, &nnz, &nc);
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
    return error_case(argv[2], argv[3]);
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-spmat DIR | error NAME DIR\n");
    return 2;
  }
  tu_init("distrt-test-sparse-spmat");
  static const mcase cases[] = {
      {"mixed", 10, 10, PAT_MIXED}, /* empty rows, ghosts from many ranks */
      {"short", 3, 3, PAT_FULL},    /* fewer rows (and columns) than P */
      {"tall", 7, 3, PAT_SPARSE},   /* cols < P on 4 ranks */
      {"wide", 3, 11, PAT_MIXED},   /* rows < P, cols > rows */
      {"full", 9, 13, PAT_FULL},    /* every rank needs every other one */
      {"empty", 6, 5, PAT_NONE},    /* no entries at all */
      {"zero", 0, 4, PAT_FULL},     /* no rows */
      {"nocols", 5, 0, PAT_FULL},   /* no columns */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    run_case(&cases[i]);
  file_case(argv[1], "m.mtx", 0);
  file_case(argv[1], "m.TNS", 1);
  return tu_finish();
}
