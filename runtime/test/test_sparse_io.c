/* distrt-test-sparse-io: the sparse file readers (distrt/sparse.h).
 *
 *   distrt-test-sparse-io DIR          every small file of DIR
 *                                      (test/Runtime/Inputs/sparse)
 *   distrt-test-sparse-io gen FILE N   a generated N x N MatrixMarket file
 *                                      (shuffled, comments, long lines):
 *                                      entry (i, j), 1-based, iff
 *                                      (7 i + 3 j) % 5 == 0, value i - j / 8
 *   distrt-test-sparse-io [ok-]mm|tns|hb FILE [EXTENT...]
 *                                      read FILE, expecting a fatal error
 *                                      (prints "UNEXPECTED success"); tns
 *                                      takes the extents, if any, after it
 *
 * Every case is checked against entries written out here by hand (or by the
 * formula above), not by anything the reader computes: each rank's row
 * range [lo, hi) against block = ceil(rows / P); its entries sorted
 * strictly (so no duplicates) and inside its rows; every entry it holds in
 * the expected list; the total count (all-reduce) and a checksum of
 * (coordinates, value) over all ranks.  Subset + distinct + equal count
 * means every rank together holds exactly the expected entries. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An expected entry: 0-based coordinates (unused ones 0) and the value. */
typedef struct {
  int64_t c[3];
  double v;
} entry;

static double weight(int64_t order, const int64_t *c, double v) {
  double h = 1.0;
  for (int64_t d = 0; d < order; ++d)
    h = h * 1009.0 + (double)(c[d] + 1) * (double)(2 * d + 3);
  return (v + 0.375) * h;
}

static void check_coo(const char *name, const distrt_coo *coo,
                      int64_t order, const int64_t *dims,
                      const entry *want, int64_t nwant) {
  int64_t P = tu_size(), r = tu_rank();
  EXPECT(coo->order == order, "%s: order %lld, expected %lld", name,
         (long long)coo->order, (long long)order);
  for (int64_t d = 0; d < order; ++d)
    EXPECT(coo->dims[d] == dims[d], "%s: dims[%lld] = %lld, expected %lld",
           name, (long long)d, (long long)coo->dims[d], (long long)dims[d]);
  int64_t block = (dims[0] + P - 1) / P;
  int64_t lo = r * block < dims[0] ? r * block : dims[0];
  int64_t hi = (r + 1) * block < dims[0] ? (r + 1) * block : dims[0];
  EXPECT(coo->lo == lo && coo->hi == hi,
         "%s: rows [%lld, %lld), expected [%lld, %lld)", name,
         (long long)coo->lo, (long long)coo->hi, (long long)lo, (long long)hi);
  double sum = 0;
  for (int64_t k = 0; k < coo->nnz && coo->order == order; ++k) {
    const int64_t *c = coo->coords + k * order;
    EXPECT(c[0] >= lo && c[0] < hi, "%s: entry %lld has row %lld outside "
           "[%lld, %lld)", name, (long long)k, (long long)c[0], (long long)lo,
           (long long)hi);
    if (k > 0) {
      const int64_t *p = c - order;
      int64_t d = 0;
      while (d < order && p[d] == c[d])
        ++d;
      EXPECT(d < order && p[d] < c[d], "%s: entries %lld and %lld out of "
             "order or equal", name, (long long)k - 1, (long long)k);
    }
    int found = 0;
    for (int64_t e = 0; e < nwant && !found; ++e)
      found = memcmp(want[e].c, c, (size_t)order * 8) == 0 &&
              want[e].v == coo->values[k];
    EXPECT(found, "%s: unexpected entry %lld: (%lld, %lld%s) = %g", name,
           (long long)k, (long long)c[0], (long long)c[1],
           order > 2 ? ", ..." : "", coo->values[k]);
    sum += weight(order, c, coo->values[k]);
  }
  int64_t n = coo->nnz;
  distrt_allreduce(tu_world(), 1, &n, 1, DISTRT_I64, DISTRT_SUM);
  distrt_allreduce(tu_world(), 1, &sum, 1, DISTRT_F64, DISTRT_SUM);
  double want_sum = 0;
  for (int64_t e = 0; e < nwant; ++e)
    want_sum += weight(order, want[e].c, want[e].v);
  EXPECT(n == nwant, "%s: %lld entries in all, expected %lld", name,
         (long long)n, (long long)nwant);
  EXPECT(fabs(sum - want_sum) <= 1e-9 * fabs(want_sum),
         "%s: checksum %.17g, expected %.17g", name, sum, want_sum);
  tu_section("%s", name);
}

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof(a)[0]))

static void path_of(char *buf, size_t n, const char *dir, const char *file) {
  snprintf(buf, n, "%s/%s", dir, file);
}

typedef void (*matrix_reader)(const char *, distrt_grid *, distrt_coo *);

/* Reads a matrix file with `read` and checks it against `want`. */
static void matrix_case(matrix_reader read, const char *kind, const char *dir,
                        const char *file, int64_t rows, int64_t cols,
                        const entry *want, int64_t nwant) {
  char path[4096], name[256];
  path_of(path, sizeof path, dir, file);
  snprintf(name, sizeof name, "%s %s", kind, file);
  distrt_coo coo;
  /* Alternate between the whole job and a grid: same partition. */
  read(path, nwant % 2 ? tu_world() : NULL, &coo);
  int64_t dims[2] = {rows, cols};
  check_coo(name, &coo, 2, dims, want, nwant);
  distrt_coo_free(&coo);
  EXPECT(coo.coords == NULL && coo.values == NULL && coo.nnz == 0,
         "distrt_coo_free did not clear the struct");
}

static void mm_case(const char *dir, const char *file, int64_t rows,
                    int64_t cols, const entry *want, int64_t nwant) {
  matrix_case(distrt_coo_read_mm, "mm", dir, file, rows, cols, want, nwant);
}

static void tns_files(const char *dir) {
  char path[4096];
  path_of(path, sizeof path, dir, "tensor.tns");
  static const entry tensor[] = {{{0, 0, 0}, 1.0},
                                 {{2, 3, 1}, -2.5},
                                 {{1, 0, 1}, 3.25},
                                 {{0, 2, 0}, 4.0},
                                 {{2, 0, 0}, 0.5}};
  distrt_coo coo;
  /* Extents from the largest indices: 3 x 4 x 2. */
  distrt_coo_read_tns(path, NULL, 0, NULL, &coo);
  int64_t dims[3] = {3, 4, 2};
  check_coo("tns tensor.tns", &coo, 3, dims, tensor, N_OF(tensor));
  distrt_coo_free(&coo);
  /* Extents given, larger than the indices: 5 rows spread further. */
  int64_t big[3] = {5, 4, 3};
  distrt_coo_read_tns(path, tu_world(), 3, big, &coo);
  check_coo("tns tensor.tns, dims 5x4x3", &coo, 3, big, tensor,
            N_OF(tensor));
  distrt_coo_free(&coo);
  /* No entries: an empty tensor of the given shape. */
  path_of(path, sizeof path, dir, "empty.tns");
  int64_t shape[2] = {4, 3};
  distrt_coo_read_tns(path, NULL, 2, shape, &coo);
  check_coo("tns empty.tns, dims 4x3", &coo, 2, shape, tensor, 0);
  distrt_coo_free(&coo);
}

static void hb_case(const char *dir, const char *file, int64_t rows,
                    int64_t cols, const entry *want, int64_t nwant) {
  matrix_case(distrt_coo_read_hb, "hb", dir, file, rows, cols, want, nwant);
}

static void hb_files(const char *dir) {
  static const entry rua[] = {{{0, 0}, 1.0}, {{2, 0}, -2.5}, {{1, 1}, 3.0},
                              {{0, 2}, 4.25}, {{3, 2}, 5.0}, {{1, 3}, -6.0},
                              {{3, 3}, 7.5}};
  hb_case(dir, "small.rua", 4, 4, rua, N_OF(rua));
  static const entry rsa[] = {
      {{0, 0}, 4.0}, {{1, 0}, -1.0}, {{3, 0}, 0.5}, {{1, 1}, 5.0},
      {{2, 2}, 6.0}, {{3, 2}, -2.0}, {{3, 3}, 7.0}, {{0, 1}, -1.0},
      {{0, 3}, 0.5}, {{2, 3}, -2.0}};
  hb_case(dir, "small.rsa", 4, 4, rsa, N_OF(rsa));
  static const entry pra[] = {{{1, 0}, 1.0}, {{0, 2}, 1.0}, {{2, 2}, 1.0},
                              {{2, 3}, 1.0}, {{0, 4}, 1.0}};
  hb_case(dir, "small.pra", 3, 5, pra, N_OF(pra));
}

static void small_files(const char *dir) {
  static const entry general[] = {
      {{2, 1}, -1.5}, {{0, 0}, 1.0},   {{3, 4}, 25.0},  {{0, 3}, -0.25},
      {{1, 2}, 3.0},  {{3, 0}, 7.125}, {{2, 4}, 1e-3}};
  mm_case(dir, "general.mtx", 4, 5, general, N_OF(general));

  static const entry symmetric[] = {
      {{0, 0}, 2.0}, {{1, 0}, -1.0}, {{0, 1}, -1.0}, {{2, 2}, 4.5},
      {{3, 1}, 0.5}, {{1, 3}, 0.5},  {{3, 3}, 1.0}};
  mm_case(dir, "symmetric.mtx", 4, 4, symmetric, N_OF(symmetric));

  static const entry pattern[] = {
      {{0, 1}, 1.0}, {{2, 3}, 1.0}, {{1, 0}, 1.0}, {{2, 0}, 1.0}};
  mm_case(dir, "pattern.mtx", 3, 4, pattern, N_OF(pattern));

  static const entry integer[] = {
      {{0, 2}, -7.0}, {{1, 1}, 42.0}, {{2, 0}, 1000000.0}};
  mm_case(dir, "integer.mtx", 3, 3, integer, N_OF(integer));

  static const entry array[] = {{{0, 0}, 1.0},  {{1, 0}, 0.0},
                                {{2, 0}, 3.0},  {{0, 1}, -4.0},
                                {{1, 1}, 5.5},  {{2, 1}, 6.0}};
  mm_case(dir, "array.mtx", 3, 2, array, N_OF(array));

  static const entry array_sym[] = {
      {{0, 0}, 1.0}, {{1, 0}, 2.0}, {{2, 0}, 3.0}, {{1, 1}, 4.0},
      {{2, 1}, 5.0}, {{2, 2}, 6.0}, {{0, 1}, 2.0}, {{0, 2}, 3.0},
      {{1, 2}, 5.0}};
  mm_case(dir, "array-sym.mtx", 3, 3, array_sym, N_OF(array_sym));

  static const entry empty_rows[] = {
      {{0, 1}, 1.5}, {{2, 0}, -2.0}, {{2, 3}, 0.5}};
  mm_case(dir, "empty-rows.mtx", 3, 4, empty_rows, N_OF(empty_rows));
  tns_files(dir);
  hb_files(dir);
}

/* The generated file: the formula of the header comment. */
static void generated(const char *path, int64_t n) {
  int64_t count = 0;
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= n; ++j)
      count += (7 * i + 3 * j) % 5 == 0;
  entry *want = (entry *)calloc((size_t)count + 1, sizeof *want);
  int64_t k = 0;
  for (int64_t i = 1; i <= n; ++i)
    for (int64_t j = 1; j <= n; ++j)
      if ((7 * i + 3 * j) % 5 == 0) {
        want[k].c[0] = i - 1;
        want[k].c[1] = j - 1;
        want[k++].v = (double)i - (double)j / 8.0;
      }
  distrt_coo coo;
  distrt_coo_read_mm(path, NULL, &coo);
  int64_t dims[2] = {n, n};
  char name[64];
  snprintf(name, sizeof name, "mm generated %lldx%lld", (long long)n,
           (long long)n);
  check_coo(name, &coo, 2, dims, want, count);
  distrt_coo_free(&coo);
  free(want);
}

/* Error cases: the reader must end the job.  For tns, extents may
 * follow the path. */
static int read_expecting_error(const char *kind, const char *path,
                                int ndims, char **dims_arg) {
  distrt_init();
  /* "ok-mm" etc.: the read must succeed; print what each rank holds. */
  int expect_ok = strncmp(kind, "ok-", 3) == 0;
  if (expect_ok)
    kind += 3;
  distrt_coo coo;
  int64_t dims[8];
  for (int d = 0; d < ndims && d < 8; ++d)
    dims[d] = atoll(dims_arg[d]);
  if (strcmp(kind, "mm") == 0)
    distrt_coo_read_mm(path, NULL, &coo);
  else if (strcmp(kind, "tns") == 0 && ndims <= 8)
    distrt_coo_read_tns(path, NULL, ndims, ndims ? dims : NULL, &coo);
  else if (strcmp(kind, "hb") == 0)
    distrt_coo_read_hb(path, NULL, &coo);
  else {
    fprintf(stderr, "unknown reader '%s'\n", kind);
    distrt_finalize();
    return 2;
  }
  printf("%s: rank %lld holds %lld entries, rows [%lld, %lld) of %lld\n",
         expect_ok ? "read" : "UNEXPECTED success",
         (long long)distrt_world_rank(), (long long)coo.nnz, (long long)coo.lo,
         (long long)coo.hi, (long long)coo.dims[0]);
  distrt_coo_free(&coo);
  distrt_finalize();
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "gen") != 0)
    return read_expecting_error(argv[1], argv[2], argc - 3, argv + 3);
  if (argc == 4 && strcmp(argv[1], "gen") == 0) {
    tu_init("distrt-test-sparse-io");
    generated(argv[2], atoll(argv[3]));
    return tu_finish();
  }
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-io DIR | gen FILE N | "
                    "mm|tns|hb FILE [EXTENT...]\n");
    return 2;
  }
  tu_init("distrt-test-sparse-io");
  small_files(argv[1]);
  return tu_finish();
}
