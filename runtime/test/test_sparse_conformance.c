/* distrt-test-sparse-conformance DIR: SpDISTAL's conformance fixture (seed
 * 001; ../shared/design/spdistal-digest.md, section 6) on any number of
 * ranks.
 *
 * The 8 x 8 CSR matrix B with pos = [0,2,3,6,7,12,13,15,16], crd =
 * [0,1,1,0,2,5,3,3,4,5,6,7,7,2,6,7], vals[p] = p + 1, and c[j] = j + 1:
 * a = B c = [5, 6, 55, 28, 310, 104, 147, 128].  The test writes B as a
 * MatrixMarket file from those arrays, reads it with distrt_spmat_read, and
 * checks against the digest's numbers, never against runtime output:
 *   - the row (universe) partition: this rank's rows are [r*R, (r+1)*R)
 *     with R = ceil(8 / P) (on 4 ranks rows {2r, 2r+1} and crd positions
 *     [0,2], [3,6], [7,12], [13,15], as the digest lists; on 3 ranks rows
 *     of 3, 3 and 2: the rows-not-divisible convention); the ALL part's
 *     positions, coordinates and values are exactly that slice of the
 *     fixture's arrays, rebased;
 *   - distrt_spmat_mul gives exactly this rank's rows of a;
 *   - distrt_spmat_share_x, when it shares (DISTRT_SPARSE_SHARED=1 on more
 *     than one rank), gives c whole, and the ALL part times it (computed
 *     here) is again exactly a.
 * Then the non-zero partition (distrt_spmat_create_nonzeros; the digest's
 * "fuse, pos, divide by 4"):
 *   - rank r holds crd positions [r E, (r + 1) E) with E = ceil(16 / P)
 *     (on 4 ranks the digest's blocks [0,3], [4,7], [8,11], [12,15], its
 *     rows {0,1,2}, {2,3,4}, {4}, {5,6,7}, written out below; on other
 *     counts derived here from the fixture's arrays): first row, row count,
 *     ids, and the ALL part exactly that slice of pos, crd and vals;
 *   - the partial sums (ALL times c, computed here into
 *     distrt_spmat_partial): on 4 ranks the digest's numbers, row 2 = 4 on
 *     rank 0 and 51 on rank 1, row 4 = 32 on rank 1 and 278 on rank 2;
 *   - after distrt_spmat_reduce_rows, and from distrt_spmat_mul and
 *     distrt_spmat_mul_add (x blocked and whole), exactly this rank's rows
 *     of a; through the shared c too when distrt_spmat_share_x shares;
 *   - own rows straight into y (both partitions): distrt_spmat_row_targets
 *     against the test's own (own iff the row lies in the rank's block: its
 *     row of y, else its local row; on 4 ranks written out: own ranges
 *     [0,2), [0,2), [0,1), [1,3), targets [0,1,2], [0,1,2], [0], [0,0,1]),
 *     and ALL times c with the own rows into y, the others into
 *     distrt_spmat_partial_foreign (own rows NaN), then
 *     distrt_spmat_reduce_foreign: exactly a.
 * Last the digest's sparse vector (10 entries, non-zero partition; on 4
 * ranks positions [0,2], [3,5], [6,8], [9,9]) as a one-row matrix. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int64_t fx_pos[9] = {0, 2, 3, 6, 7, 12, 13, 15, 16};
static const int64_t fx_crd[16] = {0, 1, 1, 0, 2, 5, 3, 3,
                                   4, 5, 6, 7, 7, 2, 6, 7};
static const double fx_a[8] = {5, 6, 55, 28, 310, 104, 147, 128};

static void write_fixture(const char *path) {
  if (tu_rank() == 0) {
    FILE *f = fopen(path, "w");
    if (!f) {
      perror(path);
      exit(2);
    }
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n8 8 16\n");
    for (int64_t i = 0; i < 8; ++i)
      for (int64_t p = fx_pos[i]; p < fx_pos[i + 1]; ++p)
        fprintf(f, "%lld %lld %lld\n", (long long)i + 1,
                (long long)fx_crd[p] + 1, (long long)p + 1);
    fclose(f);
  }
  distrt_barrier(tu_world(), 1);
}

static int64_t at(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

static int64_t bad_rows(const double *y, int64_t lo, int64_t hi);
static int64_t bad_direct(distrt_spmat *m, int64_t bits, int64_t first,
                          int64_t nr, int64_t lo, int64_t hi, int nz4);

static void run(const char *path, int64_t bits) {
  int64_t P = tu_size(), r = tu_rank();
  int64_t R = (8 + P - 1) / P;
  int64_t lo = r * R < 8 ? r * R : 8, hi = (r + 1) * R < 8 ? (r + 1) * R : 8;
  distrt_spmat *m =
      distrt_spmat_create(tu_world(), 8, 8, bits, bits, DISTRT_F64);
  distrt_spmat_read(m, path);
  void *pos, *crd, *val;
  int64_t nnz = -1;
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, NULL);
  int64_t base = fx_pos[lo], bad = 0;
  EXPECT(nnz == fx_pos[hi] - base,
         "p%lld: rank %lld holds %lld entries, expected %lld (positions "
         "[%lld, %lld))",
         (long long)bits, (long long)r, (long long)nnz,
         (long long)(fx_pos[hi] - base), (long long)base,
         (long long)fx_pos[hi]);
  for (int64_t i = 0; i <= R; ++i) {
    int64_t want = fx_pos[lo + i < hi ? lo + i : hi] - base;
    bad += at(pos, bits, i) != want;
  }
  for (int64_t p = 0; nnz == fx_pos[hi] - base && p < nnz; ++p)
    bad += at(crd, bits, p) != fx_crd[base + p] ||
           ((const double *)val)[p] != (double)(base + p + 1);
  EXPECT(bad == 0, "p%lld: rank %lld (rows [%lld, %lld)): %lld positions, "
         "coordinates or values differ from the fixture's",
         (long long)bits, (long long)r, (long long)lo, (long long)hi,
         (long long)bad);

  /* c blocked as the matrix's columns: ceil(8 / P) rows a rank. */
  int64_t clo = lo, chi = hi; /* square: the same blocks */
  double c[8], y[8];
  for (int64_t j = clo; j < chi; ++j)
    c[j - clo] = (double)(j + 1);
  for (int64_t i = 0; i < R; ++i)
    y[i] = -1;
  distrt_spmat_mul(m, c, y, 1);
  bad = 0;
  for (int64_t i = lo; i < hi; ++i)
    bad += y[i - lo] != fx_a[i];
  EXPECT(bad == 0, "p%lld: rank %lld: %lld of its rows of a = B c differ "
         "from the digest's",
         (long long)bits, (long long)r, (long long)bad);

  const double *whole = (const double *)distrt_spmat_share_x(m, c, 1);
  const char *env = getenv("DISTRT_SPARSE_SHARED");
  int forced = env && strcmp(env, "1") == 0 && P > 1;
  EXPECT(!forced || whole, "p%lld: DISTRT_SPARSE_SHARED=1 on %lld ranks "
         "but distrt_spmat_share_x did not share", (long long)bits,
         (long long)P);
  if (whole) {
    bad = 0;
    for (int64_t j = 0; j < 8; ++j)
      bad += whole[j] != (double)(j + 1);
    for (int64_t i = lo; i < hi; ++i) {
      double s = 0;
      for (int64_t p = at(pos, bits, i - lo); p < at(pos, bits, i - lo + 1);
           ++p)
        s += ((const double *)val)[p] * whole[at(crd, bits, p)];
      bad += s != fx_a[i];
    }
    EXPECT(bad == 0, "p%lld: rank %lld: the shared c or the product over "
           "it differs in %lld places", (long long)bits, (long long)r,
           (long long)bad);
  }
  /* Own rows straight into y: all this rank's real rows. */
  bad = bad_direct(m, bits, lo, R, lo, hi, 0);
  EXPECT(bad == 0, "p%lld: rank %lld: %lld row targets, own ranges or rows "
         "of a written straight into y differ", (long long)bits,
         (long long)r, (long long)bad);
  distrt_spmat_free(m);
}

/* The fixture's row of crd position e. */
static int64_t row_of(int64_t e) {
  int64_t i = 0;
  while (fx_pos[i + 1] <= e)
    ++i;
  return i;
}

/* The digest's non-zero partition on 4 ranks: crd blocks, first rows and
 * row counts, and the partial sums of each rank's rows (a c, unreduced). */
static const int64_t nz4_block[4][2] = {{0, 3}, {4, 7}, {8, 11}, {12, 15}};
static const int64_t nz4_rows[4][2] = {{0, 3}, {2, 3}, {4, 1}, {5, 3}};
static const double nz4_partial[4][3] = {
    {5, 6, 4}, {51, 28, 32}, {278, 0, 0}, {104, 147, 128}};

/* this rank's rows of y (R of them from lo) against a. */
static int64_t bad_rows(const double *y, int64_t lo, int64_t hi) {
  int64_t bad = 0;
  for (int64_t i = lo; i < hi; ++i)
    bad += y[i - lo] != fx_a[i];
  return bad;
}

/* The digest's rows on 4 ranks written straight into y: own ranges (rows
 * in the rank's block [2r, 2r + 2)) and the targets (row - 2r inside, the
 * local row outside). */
static const int64_t nz4_own[4][2] = {{0, 2}, {0, 2}, {0, 1}, {1, 3}};
static const int64_t nz4_tgt[4][3] = {{0, 1, 2}, {0, 1, 2}, {0}, {0, 0, 1}};

/* distrt_spmat_row_targets (ALL) of m, whose piece is nr rows from
 * `first`, against the test's own; then ALL times the whole c with the own
 * rows straight into y, the others into distrt_spmat_partial_foreign (own
 * rows poisoned with NaN) and distrt_spmat_reduce_foreign: exactly a. */
static int64_t bad_direct(distrt_spmat *m, int64_t bits, int64_t first,
                          int64_t nr, int64_t lo, int64_t hi, int nz4) {
  void *t = NULL, *pos, *crd, *val;
  int64_t ob = -1, oe = -1, n = -1, bad = 0, r = tu_rank();
  distrt_spmat_row_targets(m, DISTRT_SPMAT_ALL, &t, &ob, &oe, &n);
  if (n != nr || ob < 0 || ob > oe || oe > n)
    return 1;
  for (int64_t i = 0; i < nr; ++i) {
    int own = first + i >= lo && first + i < hi;
    bad += own != (i >= ob && i < oe) ||
           at(t, bits, i) != (own ? first + i - lo : i);
    bad += nz4 && at(t, bits, i) != nz4_tgt[r][i];
  }
  bad += nz4 && (ob != nz4_own[r][0] || oe != nz4_own[r][1]);
  double y[8], *part = (double *)distrt_spmat_partial_foreign(m, 1);
  for (int64_t i = 0; i < nr; ++i)
    bad += !(i >= ob && i < oe) && part[i] != 0;
  for (int64_t i = ob; i < oe; ++i)
    part[i] = NAN;
  for (int64_t i = 0; i < 8; ++i)
    y[i] = 0;
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, NULL, NULL);
  for (int64_t i = 0; i < nr; ++i) {
    double *dst = i >= ob && i < oe ? y : part;
    for (int64_t p = at(pos, bits, i); p < at(pos, bits, i + 1); ++p)
      dst[at(t, bits, i)] +=
          ((const double *)val)[p] * (double)(at(crd, bits, p) + 1);
  }
  distrt_spmat_reduce_foreign(m, part, y, 1);
  return bad + bad_rows(y, lo, hi);
}

static void run_nonzeros(const char *path, int64_t bits) {
  int64_t P = tu_size(), r = tu_rank();
  int64_t R = (8 + P - 1) / P, E = (16 + P - 1) / P;
  int64_t lo = r * R < 8 ? r * R : 8, hi = (r + 1) * R < 8 ? (r + 1) * R : 8;
  int64_t e0 = r * E < 16 ? r * E : 16;
  int64_t e1 = (r + 1) * E < 16 ? (r + 1) * E : 16;
  int64_t first = e1 > e0 ? row_of(e0) : 0;
  int64_t nr = e1 > e0 ? row_of(e1 - 1) - first + 1 : 0;
  if (P == 4)
    EXPECT(e0 == nz4_block[r][0] && e1 - 1 == nz4_block[r][1] &&
               first == nz4_rows[r][0] && nr == nz4_rows[r][1],
           "rank %lld: the test's own slice [%lld, %lld), rows %lld + %lld, "
           "differs from the digest's", (long long)r, (long long)e0,
           (long long)e1, (long long)first, (long long)nr);
  distrt_spmat *m =
      distrt_spmat_create_nonzeros(tu_world(), 8, 8, bits, bits, DISTRT_F64);
  distrt_spmat_read(m, path);
  void *ids = NULL, *pos, *crd, *val;
  int64_t gfirst = -1, gnr = -1, nnz = -1;
  distrt_spmat_local_rows(m, &ids, &gfirst, &gnr);
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, NULL);
  EXPECT(distrt_spmat_partition(m) == DISTRT_SPMAT_NONZEROS &&
             gfirst == first && gnr == nr && nnz == e1 - e0 &&
             distrt_spmat_global_nnz(m) == 16,
         "p%lld: rank %lld: rows from %lld, %lld of them, %lld entries; "
         "expected rows from %lld, %lld, crd positions [%lld, %lld)",
         (long long)bits, (long long)r, (long long)gfirst, (long long)gnr,
         (long long)nnz, (long long)first, (long long)nr, (long long)e0,
         (long long)e1);
  if (gfirst != first || gnr != nr || nnz != e1 - e0) {
    distrt_spmat_free(m);
    return;
  }
  int64_t bad = 0;
  for (int64_t i = 0; i <= nr; ++i) {
    int64_t p = fx_pos[first + i] < e0 ? e0 : fx_pos[first + i];
    bad += at(pos, bits, i) != (p < e1 ? p : e1) - e0;
    bad += i < nr && at(ids, bits, i) != i;
  }
  for (int64_t p = 0; p < nnz; ++p)
    bad += at(crd, bits, p) != fx_crd[e0 + p] ||
           ((const double *)val)[p] != (double)(e0 + p + 1);
  EXPECT(bad == 0, "p%lld: rank %lld: %lld ids, positions, coordinates or "
         "values differ from the fixture's positions [%lld, %lld)",
         (long long)bits, (long long)r, (long long)bad, (long long)e0,
         (long long)e1);

  /* The partial sums: ALL times the whole c, by a loop here. */
  double cw[8], c[8], y[8];
  for (int64_t j = 0; j < 8; ++j)
    cw[j] = (double)(j + 1);
  for (int64_t j = lo; j < hi; ++j)
    c[j - lo] = (double)(j + 1);
  double *part = (double *)distrt_spmat_partial(m, 1);
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t p = at(pos, bits, i); p < at(pos, bits, i + 1); ++p)
      part[i] += ((const double *)val)[p] * cw[at(crd, bits, p)];
  bad = 0;
  for (int64_t i = 0; i < nr; ++i) {
    double want = 0; /* the slice's entries of row first + i, times c */
    for (int64_t e = e0; e < e1; ++e)
      if (row_of(e) == first + i)
        want += (double)(e + 1) * (double)(fx_crd[e] + 1);
    bad += part[i] != want || (P == 4 && part[i] != nz4_partial[r][i]);
  }
  EXPECT(bad == 0, "p%lld: rank %lld: %lld partial sums differ (row %lld: "
         "%g)", (long long)bits, (long long)r, (long long)bad,
         (long long)first, nr > 0 ? part[0] : 0.0);
  for (int64_t i = 0; i < 8; ++i)
    y[i] = 0;
  distrt_spmat_reduce_rows(m, part, y, 1);
  EXPECT(bad_rows(y, lo, hi) == 0, "p%lld: rank %lld: the reduced partial "
         "sums differ from a", (long long)bits, (long long)r);

  for (int64_t i = 0; i < 8; ++i)
    y[i] = -1;
  distrt_spmat_mul(m, c, y, 1);
  bad = bad_rows(y, lo, hi);
  for (int64_t i = 0; i < 8; ++i)
    y[i] = 0;
  distrt_spmat_mul_add(m, c, y, 1, 0);
  bad += bad_rows(y, lo, hi);
  for (int64_t i = 0; i < 8; ++i)
    y[i] = 0;
  distrt_spmat_mul_add(m, cw, y, 1, 1);
  bad += bad_rows(y, lo, hi);
  EXPECT(bad == 0, "p%lld: rank %lld: %lld rows of mul, mul_add (blocked, "
         "whole) differ from a", (long long)bits, (long long)r,
         (long long)bad);

  const double *whole = (const double *)distrt_spmat_share_x(m, c, 1);
  if (whole) {
    part = (double *)distrt_spmat_partial(m, 1);
    for (int64_t i = 0; i < nr; ++i)
      for (int64_t p = at(pos, bits, i); p < at(pos, bits, i + 1); ++p)
        part[i] += ((const double *)val)[p] * whole[at(crd, bits, p)];
    for (int64_t i = 0; i < 8; ++i)
      y[i] = 0;
    distrt_spmat_reduce_rows(m, part, y, 1);
    EXPECT(bad_rows(y, lo, hi) == 0, "p%lld: rank %lld: the product over "
           "the shared c differs from a", (long long)bits, (long long)r);
  }
  bad = bad_direct(m, bits, first, nr, lo, hi, P == 4);
  EXPECT(bad == 0, "p%lld: rank %lld: %lld row targets, own ranges or rows "
         "of a written straight into y differ", (long long)bits,
         (long long)r, (long long)bad);
  distrt_spmat_free(m);
}

/* The digest's sparse vector x_x |->_x~ M: 10 stored entries split by
 * non-zeros, on 4 ranks the position blocks [0,2], [3,5], [6,8], [9,9].
 * The runtime splits a vector's positions as a one-row matrix's (the
 * compiler stores no sparse tensor of rank 1): a 1 x 23 matrix with its
 * entries at columns 2 v + 1, assigned by rank 0 (the row's owner). */
static const int64_t sv4_block[4][2] = {{0, 2}, {3, 5}, {6, 8}, {9, 9}};

static void run_vector(int64_t bits) {
  int64_t P = tu_size(), r = tu_rank();
  int64_t E = (10 + P - 1) / P;
  int64_t e0 = r * E < 10 ? r * E : 10;
  int64_t e1 = (r + 1) * E < 10 ? (r + 1) * E : 10;
  if (P == 4)
    EXPECT(e0 == sv4_block[r][0] && e1 - 1 == sv4_block[r][1],
           "rank %lld: the test's own block [%lld, %lld) differs from the "
           "digest's", (long long)r, (long long)e0, (long long)e1);
  distrt_spmat *m =
      distrt_spmat_create_nonzeros(tu_world(), 1, 23, bits, bits, DISTRT_F64);
  int64_t coords[20];
  double values[10];
  distrt_coo coo = {.order = 2, .dims = {1, 23}, .lo = 0, .hi = r == 0};
  if (r == 0) {
    for (int64_t v = 0; v < 10; ++v) {
      coords[2 * v] = 0;
      coords[2 * v + 1] = 2 * v + 1;
      values[v] = (double)(v + 1);
    }
    coo.nnz = 10;
    coo.coords = coords;
    coo.values = values;
  }
  distrt_spmat_assign(m, &coo, "the sparse vector");
  void *pos, *crd, *val;
  int64_t nnz = -1;
  distrt_spmat_part(m, DISTRT_SPMAT_ALL, &pos, &crd, &val, &nnz, NULL);
  int64_t bad = nnz != e1 - e0;
  for (int64_t p = 0; !bad && p < nnz; ++p)
    bad += at(crd, bits, p) != 2 * (e0 + p) + 1 ||
           ((const double *)val)[p] != (double)(e0 + p + 1);
  EXPECT(bad == 0, "p%lld: rank %lld: %lld entries; expected positions "
         "[%lld, %lld) of the vector", (long long)bits, (long long)r,
         (long long)nnz, (long long)e0, (long long)e1);
  distrt_spmat_free(m);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-conformance DIR\n");
    return 2;
  }
  tu_init("distrt-test-sparse-conformance");
  char path[4096];
  snprintf(path, sizeof path, "%s/spdistal-fixture.mtx", argv[1]);
  write_fixture(path);
  run(path, 32);
  run(path, 64);
  tu_section("spdistal fixture, row partition");
  run_nonzeros(path, 32);
  run_nonzeros(path, 64);
  tu_section("spdistal fixture, non-zero partition");
  run_vector(32);
  run_vector(64);
  tu_section("spdistal sparse vector, non-zero partition");
  return tu_finish();
}
