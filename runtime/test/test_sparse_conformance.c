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
 *     here) is again exactly a. */
#include "test_util.h"

#include "distrt/sparse.h"

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
  return tu_finish();
}
