/* Baseline: single-process OpenBLAS dgemv, y = A * x + y on an n x n
 * row-major f64 matrix, with as many threads as argv[2].
 *
 *   cc -O2 dgemv.c -o dgemv -lopenblas
 *   ./dgemv N THREADS REPS
 *
 * Prints one line per timed call after one untimed warm-up call:
 *   baseline: time dgemv n=N threads=T: SECONDS s
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s N THREADS REPS\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]);
  int threads = atoi(argv[2]), reps = atoi(argv[3]);
  if (n <= 0 || threads <= 0 || reps <= 0) {
    fprintf(stderr, "dgemv: bad arguments\n");
    return 2;
  }
  openblas_set_num_threads(threads);
  double *a = malloc(sizeof(double) * n * n);
  double *x = malloc(sizeof(double) * n);
  double *y = malloc(sizeof(double) * n);
  if (!a || !x || !y) {
    fprintf(stderr, "dgemv: out of memory\n");
    return 1;
  }
  srand(1);
  for (long i = 0; i < n * n; ++i)
    a[i] = (double)rand() / RAND_MAX - 0.5;
  for (long i = 0; i < n; ++i) {
    x[i] = (double)rand() / RAND_MAX - 0.5;
    y[i] = 0.0;
  }
  for (int r = 0; r <= reps; ++r) {
    double t0 = now();
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)n, 1.0, a, (int)n, x,
                1, 1.0, y, 1);
    double t = now() - t0;
    if (r > 0) /* r == 0 is the warm-up */
      printf("baseline: time dgemv n=%ld threads=%d: %.6f s\n", n, threads, t);
  }
  fflush(stdout);
  /* Keep the result live. */
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += y[i];
  if (s != s)
    printf("nan\n");
  free(a);
  free(x);
  free(y);
  return 0;
}
