/* distrt-test-sparse-write: distrt_spmat_write_mm (distrt/sparse.h).
 *
 *   distrt-test-sparse-write DIR             every case; the files stay in
 *                                            DIR (sparse-write.test compares
 *                                            the files of 1 to 4 ranks)
 *   distrt-test-sparse-write error NAME DIR  one error case, which must end
 *                                            the job (prints "UNEXPECTED
 *                                            success" otherwise)
 *
 * Hand cases: every rank builds the COO of its own rows from a formula
 * (empty rows; fewer rows than ranks; rectangular; ranks with rows but no
 * entries; no entries; no rows; no columns; values with 17 significant
 * digits, wide exponents and subnormals), assigns it, writes DIR/NAME-f64.mtx
 * and DIR/NAME-f32.mtx, and checks:
 *   - the file's exact text (rank 0 reads it whole) against the text this
 *     test formats itself from the formula: the banner, "rows cols nnz",
 *     then "i j v" 1-based in row-major order, %.17g (f64) / %.9g (f32);
 *   - no PATH.partial is left;
 *   - distrt_spmat_read of the file into a new matrix (other widths): the
 *     same global count and a bitwise equal distrt_spmat_gather_dense.
 * Generated cases (distrt_spmat_generate, DISTRT_GEN_UNIFORM) check the
 * text against the dense gather's non-zeros (the generator's values are
 * never 0) and the read-back the same way.  Finally a stale PATH.partial
 * (longer than the new file) and a stale PATH are replaced. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*===-- the formulas -----------------------------------------------------===*/

enum { PAT_MIXED, PAT_FULL, PAT_NONE, PAT_GAP, PAT_TINY };

typedef struct {
  const char *name;
  int64_t rows, cols;
  int pattern;
  int64_t pb, cb; /* widths of the written matrix */
} mcase;

static int present(const mcase *mc, int64_t i, int64_t j) {
  switch (mc->pattern) {
  case PAT_MIXED:
    return i % 4 != 3 && (i == j || (i * 5 + j * 3) % 7 == 0);
  case PAT_FULL:
    return 1;
  case PAT_NONE:
    return 0;
  case PAT_GAP: /* the first and the last row only */
    return (i == 0 || i == mc->rows - 1) && (i + j) % 2 == 0;
  default: /* PAT_TINY, 2 x 3 */
    return (i == 0 && (j == 0 || j == 2)) || (i == 1 && j == 1);
  }
}

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* A non-zero value exact at dtype: full mantissas, exponents over a wide
 * range, some subnormals. */
static double value(const mcase *mc, int64_t dtype, int64_t i, int64_t j) {
  if (mc->pattern == PAT_TINY) {
    static const double v[3] = {0.1, -1.0 / 3.0, 1e-30};
    double x = v[i == 0 ? (j == 0 ? 0 : 1) : 2];
    return dtype == DISTRT_F32 ? (double)(float)x : x;
  }
  uint64_t h = mix((uint64_t)(i * 1000003 + j));
  int e = (int)(h % 120) - 60;
  int neg = (int)((h >> 7) & 1);
  double v;
  if (dtype == DISTRT_F64) {
    v = (i + j) % 11 == 5 ? ldexp((double)((h >> 13) | 1), -1074)
                          : ldexp((double)((h >> 11) | 1), e - 53);
  } else {
    float f = (i + j) % 11 == 5 ? ldexpf((float)((h >> 42) | 1), -149)
                                : (float)ldexp((double)((h >> 40) | 1),
                                               e - 24);
    v = (double)f;
  }
  return neg ? -v : v;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static void rows_of(int64_t rows, int64_t *lo, int64_t *hi) {
  int64_t P = tu_size(), r = tu_rank(), B = (rows + P - 1) / P;
  *lo = min64(r * B, rows);
  *hi = min64((r + 1) * B, rows);
}

/* This rank's rows of the case as a COO, by hand. */
static void build_coo(const mcase *mc, int64_t dtype, distrt_coo *coo) {
  memset(coo, 0, sizeof *coo);
  coo->order = 2;
  coo->dims[0] = mc->rows;
  coo->dims[1] = mc->cols;
  rows_of(mc->rows, &coo->lo, &coo->hi);
  int64_t n = 0;
  for (int64_t i = coo->lo; i < coo->hi; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      n += present(mc, i, j);
  coo->coords = (int64_t *)malloc((size_t)(2 * n + 2) * 8);
  coo->values = (double *)malloc((size_t)(n + 1) * 8);
  for (int64_t i = coo->lo; i < coo->hi; ++i)
    for (int64_t j = 0; j < mc->cols; ++j)
      if (present(mc, i, j)) {
        coo->coords[2 * coo->nnz] = i;
        coo->coords[2 * coo->nnz + 1] = j;
        coo->values[coo->nnz++] = value(mc, dtype, i, j);
      }
}

/*===-- text -------------------------------------------------------------===*/

typedef struct {
  char *buf;
  size_t len, cap;
} text;

static void append(text *t, const char *fmt, ...) TU_PRINTF(2, 3);

static void append(text *t, const char *fmt, ...) {
  if (t->cap - t->len < 128) {
    t->cap = t->cap ? 2 * t->cap : 4096;
    t->buf = (char *)realloc(t->buf, t->cap);
  }
  va_list ap;
  va_start(ap, fmt);
  t->len += (size_t)vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
}

static void append_entry(text *t, int64_t dtype, int64_t i, int64_t j,
                         double v) {
  if (dtype == DISTRT_F32)
    append(t, "%lld %lld %.9g\n", (long long)i + 1, (long long)j + 1, v);
  else
    append(t, "%lld %lld %.17g\n", (long long)i + 1, (long long)j + 1, v);
}

/* The whole file, or NULL (its length in *n). */
static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  char *b = (char *)malloc(cap);
  size_t r;
  while ((r = fread(b + len, 1, cap - len, f)) > 0) {
    len += r;
    if (len == cap)
      b = (char *)realloc(b, cap *= 2);
  }
  fclose(f);
  *n = len;
  return b;
}

/* Rank 0: the file equals `want`, and no PATH.partial is left. */
static void check_text(const char *path, const text *want) {
  if (tu_rank() != 0)
    return;
  size_t n = 0;
  char *got = slurp(path, &n);
  EXPECT(got != NULL, "%s: cannot read the written file", path);
  if (got) {
    size_t k = 0;
    while (k < n && k < want->len && got[k] == want->buf[k])
      ++k;
    EXPECT(n == want->len && k == n,
           "%s: %zu bytes, expected %zu; first difference at byte %zu "
           "(got \"%.40s\", expected \"%.40s\")",
           path, n, want->len, k, k < n ? got + k : "",
           k < want->len ? want->buf + k : "");
    free(got);
  }
  char partial[4200];
  snprintf(partial, sizeof partial, "%s.partial", path);
  EXPECT(access(partial, F_OK) != 0, "%s: left behind", partial);
}

/* Reads path back into a new matrix of other widths; its global count and
 * dense gather (on rank 0) must equal m's, bitwise. */
static void check_read_back(distrt_spmat *m, const char *path, int64_t rows,
                            int64_t cols, int64_t pb, int64_t cb,
                            int64_t dtype) {
  distrt_spmat *r = distrt_spmat_create(tu_world(), rows, cols,
                                        pb == 32 ? 64 : 32,
                                        cb == 32 ? 64 : 32, dtype);
  distrt_spmat_read(r, path);
  EXPECT(distrt_spmat_global_nnz(r) == distrt_spmat_global_nnz(m),
         "%s: read back %lld entries, wrote %lld", path,
         (long long)distrt_spmat_global_nnz(r),
         (long long)distrt_spmat_global_nnz(m));
  size_t bytes = (size_t)(rows * cols * tu_esize(dtype)) + 8;
  char *a = NULL, *b = NULL;
  if (tu_rank() == 0) {
    a = (char *)calloc(1, bytes);
    b = (char *)calloc(1, bytes);
  }
  distrt_spmat_gather_dense(m, a, 0);
  distrt_spmat_gather_dense(r, b, 0);
  if (tu_rank() == 0) {
    int64_t bad = 0, first = -1, es = tu_esize(dtype);
    for (int64_t e = 0; e < rows * cols; ++e)
      if (memcmp(a + e * es, b + e * es, (size_t)es) != 0) {
        if (first < 0)
          first = e;
        ++bad;
      }
    EXPECT(bad == 0,
           "%s: %lld elements differ after reading back (first (%lld, %lld): "
           "%.17g written, %.17g read)",
           path, (long long)bad, first < 0 ? 0LL : (long long)(first / cols),
           first < 0 ? 0LL : (long long)(first % cols),
           first < 0 ? 0.0 : tu_get(a, dtype, first),
           first < 0 ? 0.0 : tu_get(b, dtype, first));
  }
  free(a);
  free(b);
  distrt_spmat_free(r);
}

static void banner(text *t, int64_t rows, int64_t cols, int64_t nnz) {
  append(t, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n",
         (long long)rows, (long long)cols, (long long)nnz);
}

/*===-- cases ------------------------------------------------------------===*/

static void hand_case(const char *dir, const mcase *mc) {
  for (int d = 0; d < 2; ++d) {
    int64_t dtype = d == 0 ? DISTRT_F64 : DISTRT_F32;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s.mtx", dir, mc->name,
             tu_dtype_name(dtype));
    distrt_coo coo;
    build_coo(mc, dtype, &coo);
    distrt_spmat *m = distrt_spmat_create(tu_world(), mc->rows, mc->cols,
                                          mc->pb, mc->cb, dtype);
    distrt_spmat_assign(m, &coo, mc->name);
    free(coo.coords);
    free(coo.values);
    distrt_spmat_write_mm(m, path);

    text want = {NULL, 0, 0};
    int64_t nnz = 0;
    for (int64_t i = 0; i < mc->rows; ++i)
      for (int64_t j = 0; j < mc->cols; ++j)
        nnz += present(mc, i, j);
    banner(&want, mc->rows, mc->cols, nnz);
    for (int64_t i = 0; i < mc->rows; ++i)
      for (int64_t j = 0; j < mc->cols; ++j)
        if (present(mc, i, j))
          append_entry(&want, dtype, i, j, value(mc, dtype, i, j));
    check_text(path, &want);
    free(want.buf);
    check_read_back(m, path, mc->rows, mc->cols, mc->pb, mc->cb, dtype);
    distrt_spmat_free(m);
  }
  tu_section("write %s %lldx%lld", mc->name, (long long)mc->rows,
             (long long)mc->cols);
}

static void gen_case(const char *dir, int64_t rows, int64_t cols,
                     int64_t param, int64_t seed) {
  for (int d = 0; d < 2; ++d) {
    int64_t dtype = d == 0 ? DISTRT_F64 : DISTRT_F32;
    int64_t pb = d == 0 ? 64 : 32, cb = d == 0 ? 32 : 64;
    char path[4096];
    snprintf(path, sizeof path, "%s/gen-%lldx%lld-%s.mtx", dir,
             (long long)rows, (long long)cols, tu_dtype_name(dtype));
    distrt_spmat *m =
        distrt_spmat_create(tu_world(), rows, cols, pb, cb, dtype);
    distrt_spmat_generate(m, DISTRT_GEN_UNIFORM, param, seed);
    distrt_spmat_write_mm(m, path);
    void *dense = tu_rank() == 0
                      ? calloc(1, (size_t)(rows * cols * tu_esize(dtype)) + 8)
                      : NULL;
    distrt_spmat_gather_dense(m, dense, 0);
    text want = {NULL, 0, 0};
    if (tu_rank() == 0) {
      int64_t nnz = 0;
      for (int64_t e = 0; e < rows * cols; ++e)
        nnz += tu_get(dense, dtype, e) != 0.0;
      EXPECT(nnz == distrt_spmat_global_nnz(m) && nnz > 0,
             "%s: %lld non-zeros, %lld entries", path, (long long)nnz,
             (long long)distrt_spmat_global_nnz(m));
      banner(&want, rows, cols, nnz);
      for (int64_t e = 0; e < rows * cols; ++e)
        if (tu_get(dense, dtype, e) != 0.0)
          append_entry(&want, dtype, e / cols, e % cols,
                       tu_get(dense, dtype, e));
    }
    check_text(path, &want);
    free(want.buf);
    free(dense);
    check_read_back(m, path, rows, cols, pb, cb, dtype);
    distrt_spmat_free(m);
  }
  tu_section("write gen %lldx%lld", (long long)rows, (long long)cols);
}

/* A stale, longer PATH.partial and a stale PATH are replaced. */
static void stale_case(const char *dir) {
  static const mcase mc = {"stale", 5, 4, PAT_MIXED, 32, 32};
  char path[4096], partial[4200];
  snprintf(path, sizeof path, "%s/stale.mtx", dir);
  snprintf(partial, sizeof partial, "%s.partial", path);
  if (tu_rank() == 0) {
    FILE *f = fopen(partial, "wb");
    for (int i = 0; f && i < 20000; ++i)
      fputs("garbage\n", f);
    if (f)
      fclose(f);
    f = fopen(path, "wb");
    if (f) {
      fputs("old contents\n", f);
      fclose(f);
    }
  }
  distrt_barrier(tu_world(), 1);
  distrt_coo coo;
  build_coo(&mc, DISTRT_F64, &coo);
  distrt_spmat *m = distrt_spmat_create(tu_world(), 5, 4, 32, 32, DISTRT_F64);
  distrt_spmat_assign(m, &coo, "stale");
  free(coo.coords);
  free(coo.values);
  distrt_spmat_write_mm(m, path);
  text want = {NULL, 0, 0};
  int64_t nnz = 0;
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 4; ++j)
      nnz += present(&mc, i, j);
  banner(&want, 5, 4, nnz);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 4; ++j)
      if (present(&mc, i, j))
        append_entry(&want, DISTRT_F64, i, j, value(&mc, DISTRT_F64, i, j));
  check_text(path, &want);
  free(want.buf);
  distrt_spmat_free(m);
  /* Not part of the rank-count comparison: its old contents differ. */
  if (tu_rank() == 0)
    unlink(path);
  distrt_barrier(tu_world(), 1);
  tu_section("write over a stale file");
}

/*===-- errors -----------------------------------------------------------===*/

static int error_case(const char *name, const char *dir) {
  tu_init("distrt-test-sparse-write");
  static const mcase mc = {"err", 7, 5, PAT_MIXED, 32, 32};
  char path[4096];
  distrt_coo coo;
  build_coo(&mc, DISTRT_F64, &coo);
  distrt_spmat *m = distrt_spmat_create(tu_world(), 7, 5, 32, 32, DISTRT_F64);
  distrt_spmat_assign(m, &coo, "err");
  if (strcmp(name, "nodir") == 0) {
    snprintf(path, sizeof path, "%s/missing/m.mtx", dir);
    distrt_spmat_write_mm(m, path);
  } else if (strcmp(name, "isdir") == 0) {
    /* The target is a directory: every part is written, the rename fails;
     * the partial file must be removed. */
    snprintf(path, sizeof path, "%s/isdir.mtx", dir);
    if (tu_rank() == 0)
      mkdir(path, 0755);
    distrt_barrier(tu_world(), 1);
    distrt_spmat_write_mm(m, path);
  } else if (strcmp(name, "partial-dir") == 0) {
    /* PATH.partial is a directory: cannot create it (and it stays). */
    char partial[4200];
    snprintf(path, sizeof path, "%s/pdir.mtx", dir);
    snprintf(partial, sizeof partial, "%s.partial", path);
    if (tu_rank() == 0)
      mkdir(partial, 0755);
    distrt_barrier(tu_world(), 1);
    distrt_spmat_write_mm(m, path);
  } else if (strcmp(name, "null") == 0) {
    distrt_spmat_write_mm(m, NULL);
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
    fprintf(stderr, "usage: distrt-test-sparse-write DIR | error NAME DIR\n");
    return 2;
  }
  tu_init("distrt-test-sparse-write");
  static const mcase cases[] = {
      {"tiny", 2, 3, PAT_TINY, 32, 32},   /* FileCheck'd in the lit test */
      {"mixed", 10, 10, PAT_MIXED, 32, 32}, /* empty rows */
      {"short", 3, 3, PAT_FULL, 64, 32},  /* fewer rows than ranks */
      {"wide", 3, 11, PAT_MIXED, 32, 64}, /* rectangular */
      {"gap", 9, 6, PAT_GAP, 64, 64},     /* middle ranks: rows, no entries */
      {"empty", 6, 5, PAT_NONE, 32, 32},  /* no entries */
      {"zero", 0, 4, PAT_FULL, 32, 32},   /* no rows */
      {"nocols", 5, 0, PAT_FULL, 64, 64}, /* no columns */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    hand_case(argv[1], &cases[i]);
  gen_case(argv[1], 37, 23, 3, 7);
  gen_case(argv[1], 401, 257, 6, 12345);
  stale_case(argv[1]);
  return tu_finish();
}
