/*===- distprof.c - where a dist kernel's time goes, by interposition -----===*
 *
 * An LD_PRELOAD library for compiled dist programs (benchmarks/bench.py
 * passes it to the ranks with `dist-run --mpirun-args "-x LD_PRELOAD=..."`).
 * It wraps the distrt entry points that generated code calls and adds up,
 * per rank, the wall time spent in
 *   gemm  the leaf GEMMs (distrt_gemm_*),
 *   comm  communication, waiting for partners included (collectives,
 *         shifts, point-to-point, permutations, general exchanges, waits),
 *   pack  local copies into and out of communication buffers
 *         (distrt_copy_box_local, distrt_add_box_local, distrt_layout_zero).
 * When the program reports a kernel's time (distrt_report_time, after every
 * call of a dist.compute with timing on), each rank prints
 *   distprof: rank R call C kernel T gemm G comm M pack P
 * and the sums start again. T - G - M - P is everything else: scalar loops,
 * buffer allocation and first touch, bookkeeping.
 *
 * Only the outermost wrapped call of a thread is timed, so a runtime function
 * calling another public one is not counted twice. The wrappers are compiled
 * against runtime/include/distrt/distrt.h: if a signature changes, this file
 * no longer compiles and the suite runs without the breakdown.
 *
 *   cc -O2 -shared -fPIC -I runtime/include distprof.c -o distprof.so -ldl
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "distrt/distrt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { GEMM, COMM, PACK, NCAT };
static double total[NCAT];
static long calls;
static __thread int depth;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void *real(const char *name) {
  void *p = dlsym(RTLD_NEXT, name);
  if (!p) {
    fprintf(stderr, "distprof: cannot find %s\n", name);
    abort();
  }
  return p;
}

#define ENTER double t0_ = depth++ ? -1.0 : now()
#define LEAVE(cat)                                                             \
  do {                                                                         \
    if (--depth == 0)                                                          \
      total[cat] += now() - t0_;                                               \
  } while (0)

/* void NAME(PARAMS), calling the real one with ARGS. */
#define WRAP(cat, name, params, args)                                          \
  void name params {                                                           \
    static void(*fn) params;                                                   \
    if (!fn)                                                                   \
      fn = (void(*) params)real(#name);                                        \
    ENTER;                                                                     \
    fn args;                                                                   \
    LEAVE(cat);                                                                \
  }
/* int64_t NAME(PARAMS). */
#define WRAP_I64(cat, name, params, args)                                      \
  int64_t name params {                                                        \
    static int64_t(*fn) params;                                                \
    if (!fn)                                                                   \
      fn = (int64_t(*) params)real(#name);                                     \
    ENTER;                                                                     \
    int64_t r_ = fn args;                                                      \
    LEAVE(cat);                                                                \
    return r_;                                                                 \
  }

/* Leaf kernels. */
WRAP(GEMM, distrt_gemm_f64,
     (int64_t m, int64_t n, int64_t k, double alpha, const double *a,
      int64_t lda, const double *b, int64_t ldb, double beta, double *c,
      int64_t ldc),
     (m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
WRAP(GEMM, distrt_gemm_f32,
     (int64_t m, int64_t n, int64_t k, double alpha, const float *a,
      int64_t lda, const float *b, int64_t ldb, double beta, float *c,
      int64_t ldc),
     (m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
WRAP(GEMM, distrt_gemm_t_f64,
     (int64_t transa, int64_t transb, int64_t m, int64_t n, int64_t k,
      double alpha, const double *a, int64_t lda, const double *b, int64_t ldb,
      double beta, double *c, int64_t ldc),
     (transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
WRAP(GEMM, distrt_gemm_t_f32,
     (int64_t transa, int64_t transb, int64_t m, int64_t n, int64_t k,
      double alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
      double beta, float *c, int64_t ldc),
     (transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))

/* Communication. */
WRAP(COMM, distrt_allreduce,
     (distrt_grid * g, int64_t axes, void *buf, int64_t count, int64_t dtype,
      int64_t op),
     (g, axes, buf, count, dtype, op))
WRAP(COMM, distrt_reduce,
     (distrt_grid * g, int64_t axes, void *buf, int64_t count, int64_t dtype,
      int64_t op, int64_t root),
     (g, axes, buf, count, dtype, op, root))
WRAP(COMM, distrt_bcast,
     (distrt_grid * g, int64_t axes, void *buf, int64_t count, int64_t dtype,
      int64_t root),
     (g, axes, buf, count, dtype, root))
WRAP(COMM, distrt_allgather,
     (distrt_grid * g, int64_t axes, const void *send, void *recv,
      int64_t count, int64_t dtype),
     (g, axes, send, recv, count, dtype))
WRAP(COMM, distrt_reduce_scatter,
     (distrt_grid * g, int64_t axes, const void *send, void *recv,
      int64_t count, int64_t dtype, int64_t op),
     (g, axes, send, recv, count, dtype, op))
WRAP(COMM, distrt_alltoall,
     (distrt_grid * g, int64_t axes, const void *send, void *recv,
      int64_t count, int64_t dtype),
     (g, axes, send, recv, count, dtype))
WRAP(COMM, distrt_gather,
     (distrt_grid * g, int64_t axes, const void *send, void *recv,
      int64_t count, int64_t dtype, int64_t root),
     (g, axes, send, recv, count, dtype, root))
WRAP(COMM, distrt_scatter,
     (distrt_grid * g, int64_t axes, const void *send, void *recv,
      int64_t count, int64_t dtype, int64_t root),
     (g, axes, send, recv, count, dtype, root))
WRAP(COMM, distrt_shift,
     (distrt_grid * g, int64_t axis, int64_t disp, void *buf, int64_t count,
      int64_t dtype),
     (g, axis, disp, buf, count, dtype))
WRAP(COMM, distrt_send,
     (distrt_grid * g, const void *buf, int64_t count, int64_t dtype,
      int64_t dest, int64_t tag),
     (g, buf, count, dtype, dest, tag))
WRAP(COMM, distrt_recv,
     (distrt_grid * g, void *buf, int64_t count, int64_t dtype, int64_t src,
      int64_t tag),
     (g, buf, count, dtype, src, tag))
WRAP(COMM, distrt_sendrecv,
     (distrt_grid * g, const void *send, int64_t scount, int64_t dest,
      void *recv, int64_t rcount, int64_t src, int64_t dtype, int64_t tag),
     (g, send, scount, dest, recv, rcount, src, dtype, tag))
WRAP(COMM, distrt_barrier, (distrt_grid * g, int64_t axes), (g, axes))
WRAP_I64(COMM, distrt_ibcast,
         (distrt_grid * g, int64_t axes, void *buf, int64_t count,
          int64_t dtype, int64_t root),
         (g, axes, buf, count, dtype, root))
WRAP_I64(COMM, distrt_iallreduce,
         (distrt_grid * g, int64_t axes, void *buf, int64_t count,
          int64_t dtype, int64_t op),
         (g, axes, buf, count, dtype, op))
WRAP_I64(COMM, distrt_ishift,
         (distrt_grid * g, int64_t axis, int64_t disp, const void *send,
          void *recv, int64_t count, int64_t dtype),
         (g, axis, disp, send, recv, count, dtype))
WRAP(COMM, distrt_wait, (int64_t request), (request))
WRAP(COMM, distrt_waitall, (void), ())
WRAP(COMM, distrt_fetch_box,
     (distrt_grid * g, const int64_t *desc, const void *tile, int64_t dtype,
      const int64_t *lo, const int64_t *size, void *out),
     (g, desc, tile, dtype, lo, size, out))
WRAP(COMM, distrt_accumulate_box,
     (distrt_grid * g, const int64_t *desc, void *tile, int64_t dtype,
      const int64_t *lo, const int64_t *size, const void *in),
     (g, desc, tile, dtype, lo, size, in))
WRAP(COMM, distrt_permute,
     (distrt_grid * g, const void *send, int64_t scount, int64_t dest,
      void *recv, int64_t rcount, int64_t src, int64_t dtype),
     (g, send, scount, dest, recv, rcount, src, dtype))
WRAP(COMM, distrt_redistribute,
     (distrt_grid * gs, const int64_t *sdesc, const void *stile,
      distrt_grid *gd, const int64_t *ddesc, void *dtile, int64_t dtype),
     (gs, sdesc, stile, gd, ddesc, dtile, dtype))

/* Packing. */
WRAP(PACK, distrt_copy_box_local,
     (distrt_grid * g, const int64_t *desc, const void *tile, int64_t dtype,
      const int64_t *lo, const int64_t *size, void *out),
     (g, desc, tile, dtype, lo, size, out))
WRAP(PACK, distrt_add_box_local,
     (distrt_grid * g, const int64_t *desc, void *tile, int64_t dtype,
      const int64_t *lo, const int64_t *size, const void *in),
     (g, desc, tile, dtype, lo, size, in))
WRAP(PACK, distrt_layout_zero,
     (distrt_grid * g, const int64_t *desc, void *tile, int64_t dtype),
     (g, desc, tile, dtype))

/* The end of a timed kernel: print this rank's sums and start again. */
void distrt_report_time(distrt_grid *g, const char *name, double seconds) {
  static void (*fn)(distrt_grid *, const char *, double);
  static int64_t (*rank)(void);
  if (!fn) {
    fn = (void (*)(distrt_grid *, const char *, double))real(
        "distrt_report_time");
    rank = (int64_t(*)(void))real("distrt_world_rank");
  }
  printf("distprof: rank %lld call %ld kernel %.6f gemm %.6f comm %.6f "
         "pack %.6f\n",
         (long long)rank(), calls++, seconds, total[GEMM], total[COMM],
         total[PACK]);
  fflush(stdout);
  for (int i = 0; i < NCAT; ++i)
    total[i] = 0;
  fn(g, name, seconds);
}
