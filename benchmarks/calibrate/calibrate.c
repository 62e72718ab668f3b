/* calibrate.c - measure the alpha-beta cost model of the redistribution
 * planner (and gamma, the flop time of the one-sided products' model) on
 * this machine (benchmarks/calibrate builds and runs it).
 *
 *   calibrate [--quick]        (under mpirun, at least 2 ranks)
 *
 * A permutation step costs alpha + n beta (Schatz 2015): ranks exchange n
 * f64 elements pairwise (rank r with r ^ 1) with distrt_sendrecv, which is
 * what distrt_redist_permute does.  For every size the minimum over
 * repetitions of the slowest pair is kept; alpha and beta are the least
 * squares fit of t = alpha + n beta in relative error.
 * Rank 0 prints "alpha A" and "beta B" (seconds per message, per element),
 * "gamma G" (seconds per flop of a local distrt_gemm_f64, for the one-sided
 * products' choice of the stationary tensor), then, as comments, every
 * measured point and an allgather over all ranks against the model's
 * prediction log2(p) alpha + (p - 1) (n / p) beta.
 */
#include "distrt/distrt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double time_exchange(distrt_grid *g, int64_t n, int reps, double *a,
                            double *b) {
  int64_t r = distrt_grid_rank(g), p = distrt_grid_size(g);
  int64_t partner = (r ^ 1) < p ? (r ^ 1) : r;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    distrt_barrier(g, 1);
    double t0 = distrt_wtime();
    if (partner != r)
      distrt_sendrecv(g, a, n, partner, b, n, partner, DISTRT_F64, 7);
    double t = distrt_wtime() - t0;
    double worst = t;
    distrt_allreduce(g, 1, &worst, 1, DISTRT_F64, DISTRT_MAX);
    if (worst < best)
      best = worst;
  }
  return best;
}

static double time_allgather(distrt_grid *g, int64_t n, int reps, double *a,
                             double *b) {
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    distrt_barrier(g, 1);
    double t0 = distrt_wtime();
    distrt_allgather(g, 1, a, b, n, DISTRT_F64);
    double worst = distrt_wtime() - t0;
    distrt_allreduce(g, 1, &worst, 1, DISTRT_F64, DISTRT_MAX);
    if (worst < best)
      best = worst;
  }
  return best;
}

/* Seconds per flop of a local GEMM (distrt_gemm_f64, n x n x n): the
 * minimum over repetitions on rank 0's process (every rank runs it at
 * once, as the products do). */
static double time_gemm(int64_t n, int reps) {
  double *x = distrt_alloc((int64_t)sizeof(double) * n * n * 3);
  for (int64_t i = 0; i < n * n * 3; ++i)
    x[i] = (double)(i % 7) - 3;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double t0 = distrt_wtime();
    distrt_gemm_f64(n, n, n, 1.0, x, n, x + n * n, n, 0.0, x + 2 * n * n, n);
    double t = distrt_wtime() - t0;
    if (t < best)
      best = t;
  }
  distrt_free(x);
  return best / (2.0 * (double)n * (double)n * (double)n);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  distrt_init();
  int64_t p = distrt_world_size();
  if (p < 2) {
    if (distrt_world_rank() == 0)
      fprintf(stderr, "calibrate: needs at least 2 ranks (mpirun -np 2)\n");
    distrt_finalize();
    return 2;
  }
  distrt_grid *g = distrt_grid_create1(p);
  const int64_t sizes[] = {1, 64, 1024, 16384, 131072, 524288};
  int nsizes = quick ? 4 : 6;
  int reps = quick ? 5 : 30;
  int64_t nmax = sizes[nsizes - 1];
  double *a = distrt_alloc((int64_t)sizeof(double) * nmax * p);
  double *b = distrt_alloc((int64_t)sizeof(double) * nmax * p);
  for (int64_t i = 0; i < nmax * p; ++i)
    a[i] = (double)i;
  double t[6];
  for (int s = 0; s < nsizes; ++s)
    t[s] = time_exchange(g, sizes[s], reps, a, b);
  /* Least squares of the relative error: weights 1 / t^2, so that the
   * latency-bound small sizes and the bandwidth-bound large ones count
   * alike. */
  double sw = 0, sn = 0, snn = 0, st = 0, snt = 0;
  for (int s = 0; s < nsizes; ++s) {
    double w = 1.0 / (t[s] * t[s]), x = (double)sizes[s];
    sw += w;
    sn += w * x;
    snn += w * x * x;
    st += w * t[s];
    snt += w * x * t[s];
  }
  double det = sw * snn - sn * sn;
  double alpha = (st * snn - sn * snt) / det;
  double beta = (sw * snt - sn * st) / det;
  if (!(beta > 0))
    beta = t[nsizes - 1] / (double)sizes[nsizes - 1];
  if (!(alpha > 0))
    alpha = t[0];
  int64_t gn = quick ? 128 : 384;
  double gamma = time_gemm(gn, reps);
  if (distrt_world_rank() == 0) {
    printf("alpha %.6e\n", alpha);
    printf("beta %.6e\n", beta);
    printf("gamma %.6e\n", gamma);
    printf("# gamma: distrt_gemm_f64 of %lld x %lld x %lld, seconds per flop "
           "(the one-sided products' choice, docs/onesided.md)\n",
           (long long)gn, (long long)gn, (long long)gn);
    printf("# pairwise exchange (f64 elements, seconds, model):\n");
    for (int s = 0; s < nsizes; ++s)
      printf("#   n %8lld  measured %.3e  model %.3e\n", (long long)sizes[s],
             t[s], alpha + beta * (double)sizes[s]);
  }
  int64_t n = quick ? 1024 : 16384; /* elements per rank */
  double ta = time_allgather(g, n, reps, a, b);
  if (distrt_world_rank() == 0) {
    double total = (double)(n * p);
    printf("# allgather of %lld elements per rank over %lld ranks: measured "
           "%.3e, model %.3e\n",
           (long long)n, (long long)p, ta,
           log2((double)p) * alpha + (double)(p - 1) * (total / p) * beta);
  }
  distrt_free(a);
  distrt_free(b);
  distrt_finalize();
  return 0;
}
