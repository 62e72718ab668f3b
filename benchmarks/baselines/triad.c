/* Baseline: memory bandwidth from a STREAM-like triad, a[i] = b[i] + s * c[i],
 * over three arrays of N doubles with OpenMP threads (OMP_NUM_THREADS or
 * argv[2]). Bandwidth counts 24 bytes per element (two reads, one write), as
 * STREAM does.
 *
 *   cc -O3 -march=native -fopenmp triad.c -o triad
 *   ./triad N THREADS REPS
 *
 * One untimed warm-up pass (which also first-touches the arrays), then REPS
 * timed passes, each printed as
 *   baseline: time triad n=N threads=T: SECONDS s (GB/s)
 * Then, the same way, the time to copy N doubles into a newly allocated
 * buffer (malloc + memcpy, one thread; GB/s of buffer filled):
 *   baseline: time fresh-copy n=N threads=1: SECONDS s (GB/s)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s N THREADS REPS\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]);
  int threads = atoi(argv[2]), reps = atoi(argv[3]);
  if (n <= 0 || threads <= 0 || reps <= 0) {
    fprintf(stderr, "triad: bad arguments\n");
    return 2;
  }
  omp_set_num_threads(threads);
  double *a = malloc(sizeof(double) * n);
  double *b = malloc(sizeof(double) * n);
  double *c = malloc(sizeof(double) * n);
  if (!a || !b || !c) {
    fprintf(stderr, "triad: out of memory\n");
    return 1;
  }
  /* First touch in parallel, with the same static schedule as the triad. */
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  const double s = 3.0;
  for (int r = 0; r <= reps; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + s * c[i];
    double t = omp_get_wtime() - t0;
    if (r > 0) /* r == 0 is the warm-up */
      printf("baseline: time triad n=%ld threads=%d: %.6f s (%.2f GB/s)\n", n,
             threads, t, 24.0 * n / t * 1e-9);
  }
  /* What dist's lowering does with a tile it "communicates" locally: copy it
   * into a newly allocated buffer (malloc: fresh pages, faulted in on first
   * write), once per call. One thread, like one rank. */
  for (int r = 0; r <= reps; ++r) {
    double t0 = omp_get_wtime();
    double *d = malloc(sizeof(double) * n);
    if (!d) {
      fprintf(stderr, "triad: out of memory\n");
      return 1;
    }
    memcpy(d, b, sizeof(double) * n);
    double t = omp_get_wtime() - t0;
    if (d[n / 3] != 1.0)
      printf("triad: wrong copy\n");
    free(d);
    if (r > 0)
      printf("baseline: time fresh-copy n=%ld threads=1: %.6f s (%.2f GB/s)\n",
             n, t, 8.0 * n / t * 1e-9);
  }
  fflush(stdout);
  if (a[n / 2] != 7.0)
    printf("triad: wrong result\n");
  free(a);
  free(b);
  free(c);
  return 0;
}
