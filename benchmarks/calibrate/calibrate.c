/* calibrate.c - measure this machine's cost model: the redistribution
 * planner's alpha-beta, the one-sided products' gamma, and the collective,
 * GEMM, loop and copy costs of the automatic scheduler (benchmarks/calibrate
 * builds and runs it).
 *
 *   calibrate [--quick]        (under mpirun, at least 2 ranks)
 *
 * Rank 0 prints "key value" lines, every value in seconds (%.6e, > 0 and
 * <= 1); n counts f64 elements, p is the number of ranks, L = ceil(log2 p):
 *
 *   alpha, beta      a permutation step (Schatz 2015), ranks exchanging n
 *                    elements pairwise (rank r with r ^ 1, distrt_sendrecv,
 *                    as distrt_redist_permute does): t = alpha + n beta
 *   gamma            seconds per flop of one distrt_gemm_f64 of 384 x 384 x
 *                    384 (128 with --quick): the one-sided products' choice
 *                    of the stationary tensor (docs/onesided.md)
 *   alpha.K, beta.K  a collective over all p ranks, K one of
 *     broadcast      distrt_bcast of n from rank 0:    t = L alpha.K + n beta.K
 *     reduce         distrt_reduce (sum) of n to rank 0: t = L alpha.K + n beta.K
 *     allreduce      distrt_allreduce (sum) of n:      t = L alpha.K + n beta.K
 *     allgather      distrt_allgather, n elements gathered in all (n / p from
 *                    each rank):          t = L alpha.K + (p - 1) / p n beta.K
 *     reducescatter  distrt_reduce_scatter (sum) of n elements from every
 *                    rank, n / p back:    t = L alpha.K + (p - 1) / p n beta.K
 *   alpha.rma, beta.rma  a one-sided get of n from the next rank's window
 *                    (MPI_Rget, wait, MPI_Win_flush_all): t = alpha.rma +
 *                    n beta.rma (the one-sided product's transfers)
 *   gamma.gemm.N     seconds per flop (2 N^3) of distrt_gemm_f64 of N x N x N,
 *                    N = 32, 128, 512 (32, 128 with --quick)
 *   gamma.gemm.k.K   seconds per flop (2 n^2 K) of distrt_gemm_f64 of n x n x
 *                    K, C += A B with C out of cache (n = 2048), K = 32,
 *                    64, 128, 256, 1024 (n = 1024, K = 64, 1024 with --quick):
 *                    a leaf on thin slices (a thin extent K) runs at
 *                    gamma.gemm.N times gamma.gemm.k.K / gamma.gemm.k.1024
 *   gamma.loop       seconds per flop (2 n^3: a multiply-add is 2 flops) of
 *                    the plain C loop nest C[i][j] += A[i][k] * B[k][j]
 *                    (i, j, k order, n = 128, row-major): the compiler's
 *                    scalar loops when no GEMM leaf is substituted
 *   gamma.gemv       seconds per flop (2 n^2) of distrt_gemv_t_f64, n x n,
 *                    n = 128, in cache
 *   gamma.dot        seconds per flop (2 n) of distrt_dot_acc_f64, n = 4096,
 *                    in cache
 *   gamma.vec        seconds per flop (2 n) of a multiply-add loop over two
 *                    vectors of 2048, eight partial sums, in cache: the
 *                    compiler's loops when they vectorize (docs/autoschedule.md)
 *   beta.stream      seconds per f64 element of a streaming read of 2^23
 *                    elements (64 MiB): the memory side of the roofline (a
 *                    TTV or inner product streams its operands)
 *   alpha.onesided   seconds per call of distrt_onesided_matmul beyond its
 *                    gets: a product of 8p x 8p x 8p by rows (stationary
 *                    C, windows cached), less (p - 1) alpha.rma; its
 *                    windows' agreement, barriers and plan
 *   alpha.leaf       seconds per call of distrt_dot_acc_f64 of 4 elements
 *                    in cache: a leaf call's constant (its checks and the
 *                    library's dispatch), paid once per iteration of the
 *                    loops around a substituted leaf
 *   beta.copy        seconds per element of a memcpy of 2^23 f64 (64 MiB):
 *                    memory bandwidth
 *
 * Communication times are the slowest rank's (barrier, time, MAX all-reduce
 * of the time), minimum over repetitions, at several sizes; each model is the
 * least squares fit of t = a + n b in relative error, then alpha = a (a / L
 * for a collective) and beta = b (b / ((p - 1) / p) for allgather and
 * reducescatter).  A non-positive fit falls back to b = t / n at the largest
 * size and a = t at the smallest.  Local times (gamma.*, beta.copy) run on
 * every rank at once, as programs run them; the GEMM rates (gamma,
 * gamma.gemm.N, gamma.gemm.k.K) are sustained (the mean over the
 * repetitions, of the slowest rank), the others rank 0's minimum over
 * repetitions.  Then, as comments, every measured point against
 * its model, and an allgather against the exchange model's prediction
 * log2(p) alpha + (p - 1) (n / p) beta.
 */
#include "distrt/compiler.h"
#include "distrt/distrt.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The measured operations: the pairwise exchange, then the collectives. */
enum {
  OP_EXCHANGE,
  OP_BCAST,
  OP_REDUCE,
  OP_ALLREDUCE,
  OP_ALLGATHER,
  OP_REDUCE_SCATTER,
  NOPS
};

static const struct {
  const char *kind; /* the key suffix ("" for the exchange) */
  const char *call; /* what is timed (comments) */
  int spread;       /* n = count * p, bandwidth factor (p - 1) / p */
} ops[NOPS] = {
    {"", "pairwise exchange, distrt_sendrecv", 0},
    {"broadcast", "distrt_bcast from rank 0", 0},
    {"reduce", "distrt_reduce (sum) to rank 0", 0},
    {"allreduce", "distrt_allreduce (sum)", 0},
    {"allgather", "distrt_allgather, n gathered in all", 1},
    {"reducescatter", "distrt_reduce_scatter (sum), n from each rank", 1},
};

enum { MAX_SIZES = 6 };
/* Element counts per rank (the send count of allgather, the receive count
 * of reducescatter); the model's n is count * p for those two. */
static const int64_t counts[MAX_SIZES] = {1, 64, 1024, 16384, 131072, 524288};

typedef struct {
  int nsizes;
  double n[MAX_SIZES]; /* the model's n */
  double t[MAX_SIZES]; /* seconds */
  double alpha, beta;  /* the fitted model */
} sweep;

/* Buffers of nmax * p elements: `a` the send data, `b` the receive side,
 * `z` zeros for the in-place collectives (a sum of zeros stays zero over
 * any number of repetitions). */
typedef struct {
  double *a, *b, *z;
} buffers;

static int ceil_log2(int64_t p) {
  int l = 0;
  while (((int64_t)1 << l) < p)
    ++l;
  return l;
}

static void run_op(distrt_grid *g, int op, int64_t count, const buffers *x) {
  int64_t r = distrt_grid_rank(g), p = distrt_grid_size(g);
  int64_t partner = (r ^ 1) < p ? (r ^ 1) : r;
  switch (op) {
  case OP_EXCHANGE:
    if (partner != r)
      distrt_sendrecv(g, x->a, count, partner, x->b, count, partner,
                      DISTRT_F64, 7);
    break;
  case OP_BCAST:
    distrt_bcast(g, 1, x->z, count, DISTRT_F64, 0);
    break;
  case OP_REDUCE:
    distrt_reduce(g, 1, x->z, count, DISTRT_F64, DISTRT_SUM, 0);
    break;
  case OP_ALLREDUCE:
    distrt_allreduce(g, 1, x->z, count, DISTRT_F64, DISTRT_SUM);
    break;
  case OP_ALLGATHER:
    distrt_allgather(g, 1, x->a, x->b, count, DISTRT_F64);
    break;
  case OP_REDUCE_SCATTER:
    distrt_reduce_scatter(g, 1, x->a, x->b, count, DISTRT_F64, DISTRT_SUM);
    break;
  default:
    break;
  }
}

/* The slowest rank's time of one operation, minimum over repetitions. */
static double time_op(distrt_grid *g, int op, int64_t count, int reps,
                      const buffers *x) {
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    distrt_barrier(g, 1);
    double t0 = distrt_wtime();
    run_op(g, op, count, x);
    double worst = distrt_wtime() - t0;
    distrt_allreduce(g, 1, &worst, 1, DISTRT_F64, DISTRT_MAX);
    if (worst < best)
      best = worst;
  }
  return best;
}

/* Least squares fit of t = a + b n in relative error: weights 1 / t^2, so
 * that the latency-bound small sizes and the bandwidth-bound large ones
 * count alike.  A non-positive b falls back to t / n at the largest size, a
 * non-positive a to t at the smallest. */
static void fit_linear(const double *n, const double *t, int m, double *a,
                       double *b) {
  double sw = 0, sn = 0, snn = 0, st = 0, snt = 0;
  for (int s = 0; s < m; ++s) {
    double w = 1.0 / (t[s] * t[s]);
    sw += w;
    sn += w * n[s];
    snn += w * n[s] * n[s];
    st += w * t[s];
    snt += w * n[s] * t[s];
  }
  double det = sw * snn - sn * sn;
  *a = (st * snn - sn * snt) / det;
  *b = (sw * snt - sn * st) / det;
  if (!(*b > 0))
    *b = t[m - 1] / n[m - 1];
  if (!(*a > 0))
    *a = t[0];
}

/* The latency and bandwidth factors of an operation's model:
 * t = lat alpha + bw n beta. */
static double latency_factor(int op, int64_t p) {
  return op == OP_EXCHANGE ? 1.0 : (double)ceil_log2(p);
}
static double bandwidth_factor(int op, int64_t p) {
  return ops[op].spread ? (double)(p - 1) / (double)p : 1.0;
}

static sweep sweep_op(distrt_grid *g, int op, int nsizes, int reps,
                      const buffers *x) {
  int64_t p = distrt_grid_size(g);
  sweep w;
  w.nsizes = nsizes;
  for (int s = 0; s < nsizes; ++s) {
    w.n[s] = (double)(ops[op].spread ? counts[s] * p : counts[s]);
    /* Small messages cost microseconds: more tries at the quiet minimum. */
    int r = counts[s] <= 1024 ? 4 * reps : reps;
    w.t[s] = time_op(g, op, counts[s], r, x);
  }
  double a, b;
  fit_linear(w.n, w.t, nsizes, &a, &b);
  w.alpha = a / latency_factor(op, p);
  w.beta = b / bandwidth_factor(op, p);
  return w;
}

/* Seconds per flop of a local GEMM (distrt_gemm_f64, n x n x n), sustained:
 * every rank runs `reps` timings of `inner` calls at once, as the products
 * do, after one untimed call; the mean over the timings, of the slowest
 * rank.  A mean, not a minimum: with more ranks than cores the processes
 * share them, and a short timing that fits in one scheduling slice runs at
 * a whole core's rate while a product's long GEMMs run at the shared rate
 * (a minimum made 512^3 look slower per flop than 128^3 at 4 ranks on 2
 * cores, and favoured many small steps). */
static double time_gemm(int64_t n, int reps, int inner) {
  double *x = distrt_alloc((int64_t)sizeof(double) * n * n * 3);
  for (int64_t i = 0; i < n * n * 3; ++i)
    x[i] = (double)(i % 7) - 3;
  distrt_gemm_f64(n, n, n, 1.0, x, n, x + n * n, n, 0.0, x + 2 * n * n, n);
  double t0 = distrt_wtime();
  for (int k = 0; k < reps; ++k)
    for (int c = 0; c < inner; ++c)
      distrt_gemm_f64(n, n, n, 1.0, x, n, x + n * n, n, 0.0, x + 2 * n * n, n);
  double mean = (distrt_wtime() - t0) / ((double)reps * inner), slowest;
  MPI_Allreduce(&mean, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  distrt_free(x);
  return slowest / (2.0 * (double)n * (double)n * (double)n);
}

/* Seconds per flop of distrt_gemm_f64 of n x n x k, a panel update with
 * its n x n output out of cache, sustained as time_gemm (the products'
 * leaves on thin slices: a 2048 x 2048 x 64 GEMM runs 10 to 25 % slower
 * per flop than x 1024 here, whatever the cube rate).  `calls` of them,
 * after one untimed. */
static double time_gemm_panel(int64_t n, int64_t k, int calls) {
  double *a = distrt_alloc((int64_t)sizeof(double) * n * k * 2);
  double *c = distrt_alloc((int64_t)sizeof(double) * n * n);
  for (int64_t i = 0; i < n * k * 2; ++i)
    a[i] = (double)(i % 7) - 3;
  for (int64_t i = 0; i < n * n; ++i)
    c[i] = 0;
  distrt_gemm_f64(n, n, k, 1.0, a, k, a + n * k, n, 1.0, c, n);
  double t0 = distrt_wtime();
  for (int r = 0; r < calls; ++r)
    distrt_gemm_f64(n, n, k, 1.0, a, k, a + n * k, n, 1.0, c, n);
  double mean = (distrt_wtime() - t0) / calls, slowest;
  MPI_Allreduce(&mean, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  distrt_free(a);
  distrt_free(c);
  return slowest / (2.0 * (double)n * (double)n * (double)k);
}

/* The loop nest a compiler emits for a matmul without a GEMM leaf (called
 * through a volatile pointer so that it is not specialised for n). */
static void loop_nest(int64_t n, const double *a, const double *b, double *c) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
}
static void (*volatile loop_nest_ptr)(int64_t, const double *, const double *,
                                      double *) = loop_nest;
static volatile double sink;

/* Seconds per flop (2 n^3) of loop_nest, minimum over repetitions. */
static double time_loop(int64_t n, int reps) {
  double *x = distrt_alloc((int64_t)sizeof(double) * n * n * 3);
  for (int64_t i = 0; i < n * n * 2; ++i)
    x[i] = (double)(i % 5) - 2;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    memset(x + 2 * n * n, 0, sizeof(double) * (size_t)(n * n));
    double t0 = distrt_wtime();
    loop_nest_ptr(n, x, x + n * n, x + 2 * n * n);
    double t = distrt_wtime() - t0;
    if (t < best)
      best = t;
    sink += x[2 * n * n + k % (n * n)];
  }
  distrt_free(x);
  return best / (2.0 * (double)n * (double)n * (double)n);
}

/* Seconds per flop (2 n^2) of the gemv leaf (distrt_gemv_t_f64, n x n,
 * row-major, as a TTV's), `inner` calls per timing; minimum over
 * repetitions. */
static double time_gemv(int64_t n, int reps, int inner) {
  double *x = distrt_alloc((int64_t)sizeof(double) * (n * n + 2 * n));
  for (int64_t i = 0; i < n * n + 2 * n; ++i)
    x[i] = (double)(i % 7) - 3;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double t0 = distrt_wtime();
    for (int c = 0; c < inner; ++c)
      distrt_gemv_t_f64(0, n, n, 1.0, x, n, x + n * n, 1, 1.0,
                        x + n * n + n, 1);
    double t = (distrt_wtime() - t0) / inner;
    if (t < best)
      best = t;
  }
  sink += x[n * n + n];
  distrt_free(x);
  return best / (2.0 * (double)n * (double)n);
}

/* Seconds per f64 element of a streaming read of n elements (out of cache,
 * eight partial sums so that the adds do not wait on each other); minimum
 * over repetitions.  The memory side of the model's roofline. */
static double time_stream(int64_t n, int reps) {
  double *x = distrt_alloc((int64_t)sizeof(double) * n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = (double)(i % 7) - 3;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    double t0 = distrt_wtime();
    for (int64_t i = 0; i + 8 <= n; i += 8)
      for (int l = 0; l < 8; ++l)
        s[l] += x[i + l];
    double t = (distrt_wtime() - t0) / (double)n;
    for (int l = 0; l < 8; ++l)
      sink += s[l];
    if (t < best)
      best = t;
  }
  distrt_free(x);
  return best;
}

/* Seconds per flop (2 n) of a multiply-add loop over two vectors of n
 * elements in cache, eight partial sums (as the vectorized loops the
 * compiler emits for a reassociated sum), `inner` passes per timing. */
static double time_vec(int64_t n, int reps, int inner) {
  double *x = distrt_alloc((int64_t)sizeof(double) * 2 * n);
  for (int64_t i = 0; i < 2 * n; ++i)
    x[i] = (double)(i % 5) - 2;
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    double t0 = distrt_wtime();
    for (int c = 0; c < inner; ++c)
      for (int64_t i = 0; i + 8 <= n; i += 8)
        for (int l = 0; l < 8; ++l)
          s[l] += x[i + l] * x[n + i + l];
    double t = (distrt_wtime() - t0) / inner;
    for (int l = 0; l < 8; ++l)
      sink += s[l];
    if (t < best)
      best = t;
  }
  distrt_free(x);
  return best / (2.0 * (double)n);
}

/* Seconds per call of a leaf kernel beyond its arithmetic: distrt_dot_acc_f64
 * of 4 elements in cache, 2^16 calls per timing; minimum over repetitions.
 * The generated code calls a leaf once per iteration of the loops around
 * it (a dot per output element of a TTV, a gemv per row block). */
static double time_leaf_call(int reps) {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out = 0, best = INFINITY;
  const int inner = 1 << 16;
  for (int k = 0; k < reps; ++k) {
    double t0 = distrt_wtime();
    for (int c = 0; c < inner; ++c)
      distrt_dot_acc_f64(4, x, 1, x + 4, 1, &out);
    double t = (distrt_wtime() - t0) / inner;
    if (t < best)
      best = t;
  }
  sink += out;
  return best;
}

/* Seconds per flop (2 n) of the dot leaf (distrt_dot_acc_f64 of n), `inner`
 * calls per timing; minimum over repetitions. */
static double time_dot(int64_t n, int reps, int inner) {
  double *x = distrt_alloc((int64_t)sizeof(double) * 2 * n);
  for (int64_t i = 0; i < 2 * n; ++i)
    x[i] = (double)(i % 5) - 2;
  double out = 0, best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double t0 = distrt_wtime();
    for (int c = 0; c < inner; ++c)
      distrt_dot_acc_f64(n, x, 1, x + n, 1, &out);
    double t = (distrt_wtime() - t0) / inner;
    if (t < best)
      best = t;
  }
  sink += out;
  distrt_free(x);
  return best / (2.0 * (double)n);
}

/* The one-sided product's constant per call: distrt_onesided_matmul of
 * 8p x 8p x 8p f64, all three by rows on the world grid (stationary C,
 * windows cached after the first call), the slowest rank's minimum over
 * repetitions, less its p - 1 gets at alpha.rma: the windows' agreement
 * (an allreduce), the barriers that open and close the epoch, the plan
 * from the descriptors. */
static double time_onesided_call(distrt_grid *g, int reps, double alpha_rma) {
  int64_t p = distrt_world_size(), n = 8 * p, rows = 8;
  int64_t desc[11] = {2, n, DISTRT_KIND_BLOCKED, 0, 1, 0,
                      n, DISTRT_KIND_NONE, 0, 0, 0};
  double *a = distrt_alloc((int64_t)sizeof(double) * 3 * rows * n);
  for (int64_t i = 0; i < 3 * rows * n; ++i)
    a[i] = (double)(i % 5) - 2;
  double best = INFINITY;
  for (int k = 0; k < reps + 1; ++k) {
    distrt_barrier(g, 1);
    double t0 = distrt_wtime();
    distrt_onesided_matmul(g, DISTRT_F64, desc, a, desc, a + rows * n, desc,
                           a + 2 * rows * n, DISTRT_STATIONARY_C, 1, 2, 0);
    double dt = distrt_wtime() - t0, slowest;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (k > 0 && slowest < best) /* the first call creates the windows */
      best = slowest;
  }
  sink += a[2 * rows * n];
  distrt_free(a);
  double fixed = best - (double)(p - 1) * alpha_rma;
  return fixed > best / 10 ? fixed : best / 10;
}

/* The one-sided products' transport: every rank gets n f64 from the next
 * rank's window (MPI_Rget, wait, MPI_Win_flush_all, as the runtime's
 * passive-target epochs do) at the sizes of `counts`; the least squares
 * fit t = alpha.rma + n beta.rma of the slowest rank's minimum over
 * repetitions.  MPI directly: the runtime's windows are internal. */
static void time_rma(int nsizes, int reps, double *alpha, double *beta) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int64_t most = counts[nsizes - 1];
  double *base = distrt_alloc((int64_t)sizeof(double) * most * 2);
  for (int64_t i = 0; i < most * 2; ++i)
    base[i] = (double)(i % 11);
  MPI_Win win;
  MPI_Win_create(base, (MPI_Aint)(sizeof(double) * (size_t)most),
                 sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  double n[MAX_SIZES], t[MAX_SIZES];
  int target = (rank + 1) % size;
  for (int s = 0; s < nsizes; ++s) {
    int r = counts[s] <= 1024 ? 4 * reps : reps;
    double best = INFINITY;
    for (int k = 0; k < r; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      MPI_Request req;
      MPI_Rget(base + most, (int)counts[s], MPI_DOUBLE, target, 0,
               (int)counts[s], MPI_DOUBLE, win, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      MPI_Win_flush_all(win);
      double dt = MPI_Wtime() - t0, slowest;
      MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (slowest < best)
        best = slowest;
    }
    n[s] = (double)counts[s];
    t[s] = best;
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  distrt_free(base);
  fit_linear(n, t, nsizes, alpha, beta);
}

/* Seconds per element of a memcpy of n f64, minimum over repetitions. */
static double time_copy(int64_t n, int reps) {
  double *src = distrt_alloc((int64_t)sizeof(double) * n);
  double *dst = distrt_alloc((int64_t)sizeof(double) * n);
  for (int64_t i = 0; i < n; ++i)
    src[i] = (double)(i & 1023);
  memset(dst, 0, sizeof(double) * (size_t)n); /* first touch, untimed */
  double best = INFINITY;
  for (int k = 0; k < reps; ++k) {
    double t0 = distrt_wtime();
    memcpy(dst, src, sizeof(double) * (size_t)n);
    double t = distrt_wtime() - t0;
    if (t < best)
      best = t;
    sink += dst[(k * 4099) % n];
  }
  distrt_free(src);
  distrt_free(dst);
  return best / (double)n;
}

/* One "key value" line; the reader takes values in (0, 1] (a timer that
 * read 0 would be reported and clamped). */
static void put(const char *key, const char *suffix, double v) {
  char name[64];
  snprintf(name, sizeof name, "%s%s%s", key, *suffix ? "." : "", suffix);
  if (!(v > 0) || v > 1) {
    printf("# warning: %s measured %.3e, outside (0, 1]; clamped\n", name, v);
    v = v > 1 ? 1.0 : 1e-15;
  }
  printf("%s %.6e\n", name, v);
}

static void print_sweep(int op, const sweep *w, int64_t p) {
  double lat = latency_factor(op, p), bw = bandwidth_factor(op, p);
  if (op == OP_EXCHANGE)
    printf("# pairwise exchange (f64 elements, seconds, model):\n");
  else
    printf("# %s: %s over %lld ranks (n f64 elements, seconds, model "
           "L alpha.%s + %sn beta.%s, L = %g):\n",
           ops[op].kind, ops[op].call, (long long)p, ops[op].kind,
           ops[op].spread ? "(p - 1) / p " : "", ops[op].kind, lat);
  for (int s = 0; s < w->nsizes; ++s)
    printf("#   n %8lld  measured %.3e  model %.3e\n", (long long)w->n[s],
           w->t[s], lat * w->alpha + bw * w->n[s] * w->beta);
}

enum { NGEMM = 3, NPANEL = 5 };
static const int64_t gemm_sizes[NGEMM] = {32, 128, 512};
/* gamma.gemm.k.K: panels of 2048 x 2048 x K (1024 x 1024 x K with
 * --quick), as many calls as make an inner extent of 1024 in all. */
static const int64_t panel_k[NPANEL] = {32, 64, 128, 256, 1024};

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
  int nsizes = quick ? 4 : MAX_SIZES;
  int reps = quick ? 5 : 30;
  int64_t nmax = counts[nsizes - 1];
  buffers x;
  x.a = distrt_alloc((int64_t)sizeof(double) * nmax * p);
  x.b = distrt_alloc((int64_t)sizeof(double) * nmax * p);
  x.z = distrt_alloc((int64_t)sizeof(double) * nmax * p);
  for (int64_t i = 0; i < nmax * p; ++i) {
    x.a[i] = (double)i;
    x.b[i] = x.z[i] = 0;
  }
  sweep w[NOPS];
  for (int op = 0; op < NOPS; ++op)
    w[op] = sweep_op(g, op, nsizes, reps, &x);
  distrt_free(x.a);
  distrt_free(x.b);
  distrt_free(x.z);

  /* Local costs, every rank at once. */
  int64_t gn = quick ? 128 : 384;
  int ngemm = quick ? 2 : NGEMM;
  int greps = quick ? 3 : 20, lreps = quick ? 2 : 10, creps = quick ? 2 : 10;
  int64_t loop_n = 128, copy_n = (int64_t)1 << 23;
  distrt_barrier(g, 1);
  double gamma = time_gemm(gn, reps, 1);
  double gammas[NGEMM];
  for (int s = 0; s < ngemm; ++s) {
    int64_t n = gemm_sizes[s];
    int64_t inner = ((int64_t)1 << 25) / (n * n * n); /* 64 Mflop */
    gammas[s] = time_gemm(n, greps, inner > 1 ? (int)inner : 1);
  }
  int64_t panel_n = quick ? 1024 : 2048;
  static const int64_t quick_k[2] = {64, 1024};
  const int64_t *pk = quick ? quick_k : panel_k;
  int npanel = quick ? 2 : NPANEL;
  double panels[NPANEL];
  for (int s = 0; s < npanel; ++s)
    panels[s] = time_gemm_panel(panel_n, pk[s], (int)(1024 / pk[s]));
  distrt_barrier(g, 1);
  double gamma_loop = time_loop(loop_n, lreps);
  distrt_barrier(g, 1);
  double alpha_rma, beta_rma;
  time_rma(quick ? 4 : MAX_SIZES, quick ? 3 : reps, &alpha_rma, &beta_rma);
  double alpha_onesided = time_onesided_call(g, quick ? 5 : 4 * reps, alpha_rma);
  /* In cache: the arithmetic; beta.stream is the memory side. */
  double gamma_gemv = time_gemv(128, lreps, 256);
  double gamma_dot = time_dot(4096, lreps, 1024);
  double gamma_vec = time_vec(2048, lreps, 2048);
  distrt_barrier(g, 1);
  double beta_stream = time_stream(copy_n, creps);
  double alpha_leaf = time_leaf_call(lreps);
  distrt_barrier(g, 1);
  double beta_copy = time_copy(copy_n, creps);

  if (distrt_world_rank() == 0) {
    put("alpha", "", w[OP_EXCHANGE].alpha);
    put("beta", "", w[OP_EXCHANGE].beta);
    put("gamma", "", gamma);
    for (int op = OP_BCAST; op < NOPS; ++op) {
      put("alpha", ops[op].kind, w[op].alpha);
      put("beta", ops[op].kind, w[op].beta);
    }
    for (int s = 0; s < ngemm; ++s) {
      char n[24];
      snprintf(n, sizeof n, "gemm.%lld", (long long)gemm_sizes[s]);
      put("gamma", n, gammas[s]);
    }
    for (int s = 0; s < npanel; ++s) {
      char n[32];
      snprintf(n, sizeof n, "gemm.k.%lld", (long long)pk[s]);
      put("gamma", n, panels[s]);
    }
    put("alpha", "rma", alpha_rma);
    put("beta", "rma", beta_rma);
    put("alpha", "onesided", alpha_onesided);
    put("gamma", "loop", gamma_loop);
    put("gamma", "gemv", gamma_gemv);
    put("gamma", "dot", gamma_dot);
    put("gamma", "vec", gamma_vec);
    put("beta", "stream", beta_stream);
    put("alpha", "leaf", alpha_leaf);
    put("beta", "copy", beta_copy);
    printf("# gamma: distrt_gemm_f64 of %lld x %lld x %lld, seconds per flop "
           "(the one-sided products' choice, docs/onesided.md)\n",
           (long long)gn, (long long)gn, (long long)gn);
    printf("# gamma.gemm.N: distrt_gemm_f64 of N x N x N, seconds per flop "
           "(2 N^3)\n");
    printf("# gamma.gemm.k.K: distrt_gemm_f64 of %lld x %lld x K (C += A B, "
           "C out of cache), seconds per flop (2 %lld^2 K)\n",
           (long long)panel_n, (long long)panel_n, (long long)panel_n);
    printf("# gamma.loop: C[i][j] += A[i][k] * B[k][j] in C (i, j, k; n = "
           "%lld), seconds per flop (2 n^3)\n",
           (long long)loop_n);
    printf("# gamma.gemv: distrt_gemv_t_f64 of 128 x 128, seconds per flop "
           "(2 n^2); gamma.dot: distrt_dot_acc_f64 of 4096, seconds per "
           "flop (2 n); gamma.vec: a multiply-add loop over 2048, eight "
           "partial sums, seconds per flop (2 n): in cache\n");
    printf("# beta.stream: a read of %lld f64 (eight partial sums), seconds "
           "per element\n",
           (long long)copy_n);
    printf("# alpha.onesided: distrt_onesided_matmul of %lld^3 by rows "
           "(stationary C, windows cached), less its gets at alpha.rma\n",
           (long long)(8 * p));
    printf("# alpha.leaf: seconds per call of distrt_dot_acc_f64 of 4 "
           "elements in cache (a leaf's constant)\n");
    printf("# beta.copy: memcpy of %lld f64, seconds per element\n",
           (long long)copy_n);
    for (int op = 0; op < NOPS; ++op)
      print_sweep(op, &w[op], p);
    /* The allgather at 16384 elements per rank (counts[3]) against the
     * exchange model. */
    const sweep *ag = &w[OP_ALLGATHER];
    double e_alpha = w[OP_EXCHANGE].alpha, e_beta = w[OP_EXCHANGE].beta;
    printf("# allgather of %lld elements per rank over %lld ranks: measured "
           "%.3e, model %.3e\n",
           (long long)counts[3], (long long)p, ag->t[3],
           log2((double)p) * e_alpha +
               (double)(p - 1) * (ag->n[3] / (double)p) * e_beta);
  }
  distrt_finalize();
  return 0;
}
