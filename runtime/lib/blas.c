/*===- blas.c - distrt local GEMM/GEMV/DOT, BLAS threading ------*- C -*-===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#if DISTRT_HAVE_CBLAS
#include <cblas.h>
#endif

/* Called once from distrt_init.  If the BLAS lets us pick its thread count
 * (OpenBLAS), use DISTRT_BLAS_THREADS if set; otherwise, unless the user set
 * OPENBLAS_NUM_THREADS / GOTO_NUM_THREADS / OMP_NUM_THREADS, give each rank
 * an equal share of the node's cores so co-located ranks do not
 * oversubscribe the machine. */
void distrt_blas_setup(void) {
#if DISTRT_HAVE_OPENBLAS_SET_NUM_THREADS
  const char *op = "distrt_init";
  const char *env = getenv("DISTRT_BLAS_THREADS");
  long threads;
  if (env && *env) {
    char *end = NULL;
    threads = strtol(env, &end, 10);
    if (*end || threads < 1 || threads > 4096)
      distrt_fatal(op, "DISTRT_BLAS_THREADS='%s' is not a positive integer",
                   env);
  } else {
    if (getenv("OPENBLAS_NUM_THREADS") || getenv("GOTO_NUM_THREADS") ||
        getenv("OMP_NUM_THREADS"))
      return;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t local = distrt_g.be->node_size(op);
    threads = cpus > 0 && local > 0 ? cpus / (long)local : 1;
    if (threads < 1)
      threads = 1;
  }
  openblas_set_num_threads((int)threads);
#endif
}

static void check_gemm_t(const char *op, int64_t transa, int64_t transb,
                         int64_t m, int64_t n, int64_t k, const void *a,
                         int64_t lda, const void *b, int64_t ldb,
                         const void *c, int64_t ldc);

static void check_gemm(const char *op, int64_t m, int64_t n, int64_t k,
                       const void *a, int64_t lda, const void *b, int64_t ldb,
                       const void *c, int64_t ldc) {
  check_gemm_t(op, 0, 0, m, n, k, a, lda, b, ldb, c, ldc);
}

static void check_gemm_t(const char *op, int64_t transa, int64_t transb,
                         int64_t m, int64_t n, int64_t k, const void *a,
                         int64_t lda, const void *b, int64_t ldb,
                         const void *c, int64_t ldc) {
  if (m < 0 || n < 0 || k < 0)
    distrt_fatal(op, "negative size (m=%lld, n=%lld, k=%lld)", (long long)m,
                 (long long)n, (long long)k);
  if (transa < 0 || transa > 1 || transb < 0 || transb > 1)
    distrt_fatal(op, "transpose flags must be 0 or 1 (got %lld, %lld)",
                 (long long)transa, (long long)transb);
  /* Nothing is read or written: an empty product (leading dimensions of
   * empty boxes may be 0). */
  if (m == 0 || n == 0 || k == 0)
    return;
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || lda > INT_MAX ||
      ldb > INT_MAX || ldc > INT_MAX)
    distrt_fatal(op, "sizes exceed the BLAS integer range (m=%lld, n=%lld, "
                     "k=%lld, lda=%lld, ldb=%lld, ldc=%lld)",
                 (long long)m, (long long)n, (long long)k, (long long)lda,
                 (long long)ldb, (long long)ldc);
  int64_t acols = transa ? m : k, bcols = transb ? k : n;
  if (lda < (acols > 1 ? acols : 1))
    distrt_fatal(op, "lda=%lld must be >= max(1, %s=%lld)", (long long)lda,
                 transa ? "m" : "k", (long long)acols);
  if (ldb < (bcols > 1 ? bcols : 1))
    distrt_fatal(op, "ldb=%lld must be >= max(1, %s=%lld)", (long long)ldb,
                 transb ? "k" : "n", (long long)bcols);
  if (ldc < (n > 1 ? n : 1))
    distrt_fatal(op, "ldc=%lld must be >= max(1, n=%lld)", (long long)ldc,
                 (long long)n);
  if (!a && m > 0 && k > 0)
    distrt_fatal(op, "a is NULL");
  if (!b && k > 0 && n > 0)
    distrt_fatal(op, "b is NULL");
  if (!c && m > 0 && n > 0)
    distrt_fatal(op, "c is NULL");
}

/* Device operands (the NCCL backend's device memory): 1 if all three are
 * device memory, 0 if none is; fatal naming them when they are mixed.  The
 * device leaves are queued on the backend's stream, like device.c's. */
static int leaf_on_device(const char *op, const void *a, const char *na,
                          const void *b, const char *nb, const void *c,
                          const char *nc) {
  int da = distrt_is_device_ptr(a), db = distrt_is_device_ptr(b),
      dc = distrt_is_device_ptr(c);
  if (da == db && db == dc)
    return da;
  const char *dev = da ? na : db ? nb : nc, *host = !da ? na : !db ? nb : nc;
  distrt_fatal(op,
               "%s is device memory but %s is host memory; a library leaf "
               "takes all its operands on the device or all on the host",
               dev, host);
}

#if !DISTRT_HAVE_CBLAS
/* Fallback when no cblas was found at configure time. */
#define NAIVE_GEMM(T)                                                          \
  for (int64_t i = 0; i < m; ++i)                                              \
    for (int64_t j = 0; j < n; ++j) {                                          \
      T acc = 0;                                                               \
      for (int64_t p = 0; p < k; ++p)                                          \
        acc += a[i * lda + p] * b[p * ldb + j];                                \
      T old = beta == 0 ? (T)0 : (T)beta * c[i * ldc + j];                     \
      c[i * ldc + j] = (T)alpha * acc + old;                                   \
    }
#endif

void distrt_gemm_f64(int64_t m, int64_t n, int64_t k, double alpha,
                     const double *a, int64_t lda, const double *b, int64_t ldb,
                     double beta, double *c, int64_t ldc) {
  check_gemm("distrt_gemm_f64", m, n, k, a, lda, b, ldb, c, ldc);
  if (m == 0 || n == 0 || (k == 0 && beta == 1.0))
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemm_f64", a, "a", b, "b", c, "c")) {
    distrt_g.be->dev_gemm("distrt_gemm_f64", DISTRT_F64, 0, 0, m, n, k, alpha,
                          a, lda, b, ldb, beta, c, ldc);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
              (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
#else
  NAIVE_GEMM(double)
#endif
  distrt_profile_leave();
}

void distrt_gemm_f32(int64_t m, int64_t n, int64_t k, double alpha,
                     const float *a, int64_t lda, const float *b, int64_t ldb,
                     double beta, float *c, int64_t ldc) {
  check_gemm("distrt_gemm_f32", m, n, k, a, lda, b, ldb, c, ldc);
  if (m == 0 || n == 0 || (k == 0 && beta == 1.0))
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemm_f32", a, "a", b, "b", c, "c")) {
    distrt_g.be->dev_gemm("distrt_gemm_f32", DISTRT_F32, 0, 0, m, n, k, alpha,
                          a, lda, b, ldb, beta, c, ldc);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
              (int)k, (float)alpha, a, (int)lda, b, (int)ldb, (float)beta, c,
              (int)ldc);
#else
  NAIVE_GEMM(float)
#endif
  distrt_profile_leave();
}

#if !DISTRT_HAVE_CBLAS
#define NAIVE_GEMM_T(T)                                                        \
  for (int64_t i = 0; i < m; ++i)                                              \
    for (int64_t j = 0; j < n; ++j) {                                          \
      T acc = 0;                                                               \
      for (int64_t p = 0; p < k; ++p)                                          \
        acc += (transa ? a[p * lda + i] : a[i * lda + p]) *                    \
               (transb ? b[j * ldb + p] : b[p * ldb + j]);                     \
      T old = beta == 0 ? (T)0 : (T)beta * c[i * ldc + j];                     \
      c[i * ldc + j] = (T)alpha * acc + old;                                   \
    }
#endif

void distrt_gemm_t_f64(int64_t transa, int64_t transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const double *a, int64_t lda,
                       const double *b, int64_t ldb, double beta, double *c,
                       int64_t ldc) {
  check_gemm_t("distrt_gemm_t_f64", transa, transb, m, n, k, a, lda, b, ldb,
               c, ldc);
  if (m == 0 || n == 0 || (k == 0 && beta == 1.0))
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemm_t_f64", a, "a", b, "b", c, "c")) {
    distrt_g.be->dev_gemm("distrt_gemm_t_f64", DISTRT_F64, transa, transb, m, n,
                          k, alpha, a, lda, b, ldb, beta, c, ldc);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_dgemm(CblasRowMajor, transa ? CblasTrans : CblasNoTrans,
              transb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k,
              alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
#else
  NAIVE_GEMM_T(double)
#endif
  distrt_profile_leave();
}

void distrt_gemm_t_f32(int64_t transa, int64_t transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, double beta, float *c,
                       int64_t ldc) {
  check_gemm_t("distrt_gemm_t_f32", transa, transb, m, n, k, a, lda, b, ldb,
               c, ldc);
  if (m == 0 || n == 0 || (k == 0 && beta == 1.0))
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemm_t_f32", a, "a", b, "b", c, "c")) {
    distrt_g.be->dev_gemm("distrt_gemm_t_f32", DISTRT_F32, transa, transb, m, n,
                          k, alpha, a, lda, b, ldb, beta, c, ldc);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_sgemm(CblasRowMajor, transa ? CblasTrans : CblasNoTrans,
              transb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k,
              (float)alpha, a, (int)lda, b, (int)ldb, (float)beta, c,
              (int)ldc);
#else
  NAIVE_GEMM_T(float)
#endif
  distrt_profile_leave();
}

/*===----------------------------------------------------------------------===*
 * GEMV and DOT leaves (substitute(..., gemv), substitute(..., dot))
 *===----------------------------------------------------------------------===*/

static void check_gemv(const char *op, int64_t transa, int64_t m, int64_t n,
                       const void *a, int64_t lda, const void *x, int64_t incx,
                       const void *y, int64_t incy) {
  if (m < 0 || n < 0)
    distrt_fatal(op, "negative size (m=%lld, n=%lld)", (long long)m,
                 (long long)n);
  if (transa < 0 || transa > 1)
    distrt_fatal(op, "transpose flag must be 0 or 1 (got %lld)",
                 (long long)transa);
  if (incx < 1 || incy < 1)
    distrt_fatal(op, "strides must be >= 1 (incx=%lld, incy=%lld)",
                 (long long)incx, (long long)incy);
  if (m == 0 || n == 0)
    return;
  if (m > INT_MAX || n > INT_MAX || lda > INT_MAX || incx > INT_MAX ||
      incy > INT_MAX)
    distrt_fatal(op, "sizes exceed the BLAS integer range (m=%lld, n=%lld, "
                     "lda=%lld, incx=%lld, incy=%lld)",
                 (long long)m, (long long)n, (long long)lda, (long long)incx,
                 (long long)incy);
  if (lda < n)
    distrt_fatal(op, "lda=%lld must be >= max(1, n=%lld)", (long long)lda,
                 (long long)n);
  if (!a || !x || !y)
    distrt_fatal(op, "%s is NULL", !a ? "a" : !x ? "x" : "y");
}

#if !DISTRT_HAVE_CBLAS
#define NAIVE_GEMV(T)                                                          \
  {                                                                            \
    int64_t ylen = transa ? n : m, xlen = transa ? m : n;                      \
    for (int64_t i = 0; i < ylen; ++i) {                                       \
      T acc = 0;                                                               \
      for (int64_t p = 0; p < xlen; ++p)                                       \
        acc += (transa ? a[p * lda + i] : a[i * lda + p]) * x[p * incx];       \
      T old = beta == 0 ? (T)0 : (T)beta * y[i * incy];                        \
      y[i * incy] = (T)alpha * acc + old;                                      \
    }                                                                          \
  }
#endif

void distrt_gemv_t_f64(int64_t transa, int64_t m, int64_t n, double alpha,
                       const double *a, int64_t lda, const double *x,
                       int64_t incx, double beta, double *y, int64_t incy) {
  check_gemv("distrt_gemv_t_f64", transa, m, n, a, lda, x, incx, y, incy);
  if (m == 0 || n == 0)
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemv_t_f64", a, "a", x, "x", y, "y")) {
    distrt_g.be->dev_gemv("distrt_gemv_t_f64", DISTRT_F64, transa, m, n, alpha,
                          a, lda, x, incx, beta, y, incy);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_dgemv(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, (int)m,
              (int)n, alpha, a, (int)lda, x, (int)incx, beta, y, (int)incy);
#else
  NAIVE_GEMV(double)
#endif
  distrt_profile_leave();
}

void distrt_gemv_t_f32(int64_t transa, int64_t m, int64_t n, double alpha,
                       const float *a, int64_t lda, const float *x,
                       int64_t incx, double beta, float *y, int64_t incy) {
  check_gemv("distrt_gemv_t_f32", transa, m, n, a, lda, x, incx, y, incy);
  if (m == 0 || n == 0)
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_gemv_t_f32", a, "a", x, "x", y, "y")) {
    distrt_g.be->dev_gemv("distrt_gemv_t_f32", DISTRT_F32, transa, m, n, alpha,
                          a, lda, x, incx, beta, y, incy);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  cblas_sgemv(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, (int)m,
              (int)n, (float)alpha, a, (int)lda, x, (int)incx, (float)beta, y,
              (int)incy);
#else
  NAIVE_GEMV(float)
#endif
  distrt_profile_leave();
}

static void check_dot(const char *op, int64_t n, const void *x, int64_t incx,
                      const void *y, int64_t incy, const void *out) {
  if (n < 0)
    distrt_fatal(op, "negative size (n=%lld)", (long long)n);
  if (incx < 1 || incy < 1)
    distrt_fatal(op, "strides must be >= 1 (incx=%lld, incy=%lld)",
                 (long long)incx, (long long)incy);
  if (n > INT_MAX || incx > INT_MAX || incy > INT_MAX)
    distrt_fatal(op, "sizes exceed the BLAS integer range (n=%lld, "
                     "incx=%lld, incy=%lld)",
                 (long long)n, (long long)incx, (long long)incy);
  if (!out || (n > 0 && (!x || !y)))
    distrt_fatal(op, "%s is NULL", !out ? "out" : !x ? "x" : "y");
}

void distrt_dot_acc_f64(int64_t n, const double *x, int64_t incx,
                        const double *y, int64_t incy, double *out) {
  check_dot("distrt_dot_acc_f64", n, x, incx, y, incy, out);
  if (n == 0)
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_dot_acc_f64", x, "x", y, "y", out, "out")) {
    /* *out += x . y as a GEMV with beta 1: x is a row-major n x 1 matrix
     * with leading dimension incx, transposed. */
    distrt_g.be->dev_gemv("distrt_dot_acc_f64", DISTRT_F64, 1, n, 1, 1.0, x,
                          incx, y, incy, 1.0, out, 1);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  *out += cblas_ddot((int)n, x, (int)incx, y, (int)incy);
#else
  double acc = 0;
  for (int64_t i = 0; i < n; ++i)
    acc += x[i * incx] * y[i * incy];
  *out += acc;
#endif
  distrt_profile_leave();
}

void distrt_dot_acc_f32(int64_t n, const float *x, int64_t incx,
                        const float *y, int64_t incy, float *out) {
  check_dot("distrt_dot_acc_f32", n, x, incx, y, incy, out);
  if (n == 0)
    return;
  distrt_profile_enter(DISTRT_PROF_GEMM);
  if (leaf_on_device("distrt_dot_acc_f32", x, "x", y, "y", out, "out")) {
    /* *out += x . y as a GEMV with beta 1: x is a row-major n x 1 matrix
     * with leading dimension incx, transposed. */
    distrt_g.be->dev_gemv("distrt_dot_acc_f32", DISTRT_F32, 1, n, 1, 1.0, x,
                          incx, y, incy, 1.0, out, 1);
    distrt_profile_leave();
    return;
  }
#if DISTRT_HAVE_CBLAS
  *out += cblas_sdot((int)n, x, (int)incx, y, (int)incy);
#else
  float acc = 0;
  for (int64_t i = 0; i < n; ++i)
    acc += x[i * incx] * y[i * incy];
  *out += acc;
#endif
  distrt_profile_leave();
}
