/* The check and the baseline of the main example (scripts/quickstart.sh,
 * examples/quickstart/summa.mlir): reads the tensor files the example
 * writes, C (m x n), A (m x k) and B (k x n), all f64, and
 *
 *   1. computes A * B with OpenBLAS (cblas_dgemm) on this one process, with
 *      the first thread count given; that call is also the warm-up;
 *   2. times REPS more calls for every thread count given and prints the
 *      median;
 *   3. checks C against the OpenBLAS product, every element;
 *   4. checks C against textbook loops (a plain sum over k in index order,
 *      no BLAS) on one element of every row, at column (7919 i + 13) mod n
 *      (a different column for every row when m <= n and 7919 does not
 *      divide n), so that the check does not rest on OpenBLAS alone.
 *
 * The error measure is that of dist-run --check: the largest |got -
 * expected| over the elements compared, divided by the largest |expected|;
 * a check passes when it is at most 1e-12 (and nothing is NaN). The
 * program shares no code with dist: it reads the tensor file format
 * (docs/reliability.md#tensor-files) itself.
 *
 *   cc -O2 check-dgemm.c -o check-dgemm -lopenblas
 *   ./check-dgemm C.dtensor A.dtensor B.dtensor REPS THREADS...
 *
 * Prints, with T a thread count and "..." as in the program's output:
 *   check-dgemm: C = A * B with m=M n=N k=K
 *   check-dgemm: openblas dgemm threads=T: median S s over REPS calls (...)
 *   check-dgemm: against OpenBLAS dgemm, every element (M*N): ...: PASS
 *   check-dgemm: against textbook loops, one element of every row (M): ...
 * where ... is "max relative error E (tolerance 1e-12)" and PASS or FAIL,
 * and, for a check that fails,
 *   check-dgemm: first mismatch at (i,j): got X, expected Y
 * Exit status: 0 when both checks pass, 1 when one fails, 2 for bad
 * arguments or an unreadable or malformed file.
 */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void openblas_set_num_threads(int);

#define TOLERANCE 1e-12

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void fail_input(const char *path, const char *what) {
  fprintf(stderr, "check-dgemm: %s: %s\n", path, what);
  exit(2);
}

/* A 2-D f64 tensor file: the header (magic "DISTTNSR", version 1, byte
 * order mark 0x01020304, element type 1 = f64, rank 2, the two extents),
 * then the elements in row-major order. */
static double *read_matrix(const char *path, int64_t *rows, int64_t *cols) {
  FILE *f = fopen(path, "rb");
  if (!f)
    fail_input(path, "cannot open (did the dist program run and write it?)");
  unsigned char head[24];
  int64_t shape[2];
  if (fread(head, 1, sizeof head, f) != sizeof head)
    fail_input(path, "too short for a tensor file header");
  uint32_t version, bom, dtype, rank;
  memcpy(&version, head + 8, 4);
  memcpy(&bom, head + 12, 4);
  memcpy(&dtype, head + 16, 4);
  memcpy(&rank, head + 20, 4);
  if (memcmp(head, "DISTTNSR", 8) != 0)
    fail_input(path, "not a dist tensor file (bad magic)");
  if (version != 1 || bom != 0x01020304u)
    fail_input(path, "not a version 1 tensor file of this byte order");
  if (dtype != 1 || rank != 2)
    fail_input(path, "not a matrix of f64 (element type 1, rank 2)");
  if (fread(shape, sizeof shape[0], 2, f) != 2)
    fail_input(path, "truncated header");
  if (shape[0] < 1 || shape[1] < 1 || shape[0] > (1 << 20) ||
      shape[1] > (1 << 20))
    fail_input(path, "extents out of range");
  size_t count = (size_t)shape[0] * (size_t)shape[1];
  double *data = malloc(count * sizeof(double));
  if (!data)
    fail_input(path, "out of memory");
  if (fread(data, sizeof(double), count, f) != count)
    fail_input(path, "truncated data");
  if (fgetc(f) != EOF)
    fail_input(path, "longer than its header says");
  fclose(f);
  *rows = shape[0];
  *cols = shape[1];
  return data;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Compares got[pos[e]] with want[e] for e < count (pos NULL: the
 * identity), prints the check line and, on a failure, the first mismatch;
 * returns 1 when it passes. */
static int compare(const char *what, const double *got, const double *want,
                   const int64_t *pos, int64_t count, int64_t cols) {
  double maxref = 0.0, maxdiff = 0.0;
  int nan = 0;
  for (int64_t e = 0; e < count; ++e)
    if (fabs(want[e]) > maxref)
      maxref = fabs(want[e]);
  double den = maxref > DBL_MIN ? maxref : DBL_MIN;
  int64_t first = -1;
  for (int64_t e = 0; e < count; ++e) {
    double x = got[pos ? pos[e] : e], r = want[e], diff = fabs(x - r);
    if (isnan(x) || isnan(r) || isnan(diff))
      nan = 1;
    else if (diff > maxdiff)
      maxdiff = diff;
    if (first < 0 && !(diff / den <= TOLERANCE))
      first = e;
  }
  double err = nan ? NAN : maxdiff / den;
  int ok = !nan && err <= TOLERANCE;
  printf("check-dgemm: against %s: max relative error %.3e (tolerance "
         "%.0e): %s\n",
         what, err, TOLERANCE, ok ? "PASS" : "FAIL");
  if (first >= 0) {
    int64_t at = pos ? pos[first] : first;
    printf("check-dgemm: first mismatch at (%lld,%lld): got %.17g, expected "
           "%.17g\n",
           (long long)(at / cols), (long long)(at % cols), got[at],
           want[first]);
  }
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s C.dtensor A.dtensor B.dtensor REPS THREADS...\n",
            argv[0]);
    return 2;
  }
  int reps = atoi(argv[4]);
  if (reps < 1 || reps > 1000) {
    fprintf(stderr, "check-dgemm: REPS must be 1 to 1000, got '%s'\n", argv[4]);
    return 2;
  }
  int nthreads = argc - 5;
  int *threads = malloc(sizeof(int) * nthreads);
  for (int t = 0; t < nthreads; ++t) {
    threads[t] = atoi(argv[5 + t]);
    if (threads[t] < 1 || threads[t] > 1024) {
      fprintf(stderr,
              "check-dgemm: a thread count must be 1 to 1024, got "
              "'%s'\n",
              argv[5 + t]);
      return 2;
    }
  }
  int64_t cm, cn, am, ak, bk, bn;
  double *c = read_matrix(argv[1], &cm, &cn);
  double *a = read_matrix(argv[2], &am, &ak);
  double *b = read_matrix(argv[3], &bk, &bn);
  if (am != cm || bn != cn || ak != bk) {
    fprintf(stderr,
            "check-dgemm: shapes do not fit C = A * B: C %lldx%lld, A "
            "%lldx%lld, B %lldx%lld\n",
            (long long)cm, (long long)cn, (long long)am, (long long)ak,
            (long long)bk, (long long)bn);
    return 2;
  }
  int64_t m = cm, n = cn, k = ak;
  printf("check-dgemm: C = A * B with m=%lld n=%lld k=%lld\n", (long long)m,
         (long long)n, (long long)k);
  fflush(stdout);

  double *ref = malloc(sizeof(double) * (size_t)(m * n));
  double *times = malloc(sizeof(double) * reps);
  if (!ref || !times) {
    fprintf(stderr, "check-dgemm: out of memory\n");
    return 2;
  }
  /* 1 and 2: the reference (also the warm-up), then the timed calls. */
  for (int t = 0; t < nthreads; ++t) {
    openblas_set_num_threads(threads[t]);
    for (int r = t == 0 ? -1 : 0; r < reps; ++r) {
      double t0 = now();
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
                  (int)k, 1.0, a, (int)k, b, (int)n, 0.0, ref, (int)n);
      if (r >= 0)
        times[r] = now() - t0;
    }
    qsort(times, reps, sizeof(double), cmp_double);
    double median = reps % 2 ? times[reps / 2]
                             : (times[reps / 2 - 1] + times[reps / 2]) / 2;
    printf("check-dgemm: openblas dgemm threads=%d: median %.6f s over %d "
           "calls (min %.6f s, max %.6f s)\n",
           threads[t], median, reps, times[0], times[reps - 1]);
    fflush(stdout);
  }

  /* 3: every element against OpenBLAS. */
  char what[128];
  snprintf(what, sizeof what, "OpenBLAS dgemm, every element (%lld)",
           (long long)(m * n));
  int ok = compare(what, c, ref, NULL, m * n, n);

  /* 4: one element of every row against textbook loops. */
  int64_t *pos = malloc(sizeof(int64_t) * (size_t)m);
  double *want = malloc(sizeof(double) * (size_t)m);
  if (!pos || !want) {
    fprintf(stderr, "check-dgemm: out of memory\n");
    return 2;
  }
  for (int64_t i = 0; i < m; ++i) {
    int64_t j = (i * 7919 + 13) % n;
    double s = 0.0;
    for (int64_t l = 0; l < k; ++l)
      s += a[i * k + l] * b[l * n + j];
    pos[i] = i * n + j;
    want[i] = s;
  }
  snprintf(what, sizeof what, "textbook loops, one element of every row (%lld)",
           (long long)m);
  ok &= compare(what, c, want, pos, m, n);
  fflush(stdout);

  free(pos);
  free(want);
  free(ref);
  free(times);
  free(threads);
  free(a);
  free(b);
  free(c);
  return ok ? 0 : 1;
}
