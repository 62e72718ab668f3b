/*===- device.c - device memory and leaves on it (public API) ----*- C -*-===*
 *
 * distrt_device_* (distrt.h): validated here, then the backend's device
 * slots (the NCCL backend: cudaMalloc, copies and cuBLAS on its stream).  A
 * backend without them (MPI) keeps "device" memory in host memory and runs
 * the leaves with the host BLAS, so the same program runs on both.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct distrt_backend *dev_backend(const char *op) {
  distrt_require_init(op);
  const struct distrt_backend *be = distrt_g.be;
  return be->dev_alloc ? be : NULL;
}

int distrt_device_is_gpu(void) {
  return dev_backend("distrt_device_is_gpu") != NULL;
}

void *distrt_device_alloc(int64_t bytes) {
  const char *op = "distrt_device_alloc";
  const struct distrt_backend *be = dev_backend(op);
  if (bytes < 0)
    distrt_fatal(op, "bytes is negative (%lld)", (long long)bytes);
  void *p;
  if (be) {
    p = be->dev_alloc(op, bytes);
  } else {
    size_t n = ((size_t)(bytes > 0 ? bytes : 1) + 63) / 64 * 64;
    p = aligned_alloc(64, n);
    if (!p)
      distrt_fatal(op, "out of memory allocating %lld bytes", (long long)bytes);
  }
  ++distrt_g.live[DISTRT_COUNT_DEVICE_BUFFERS];
  return p;
}

void distrt_device_free(void *p) {
  const char *op = "distrt_device_free";
  const struct distrt_backend *be = dev_backend(op);
  if (!p)
    return;
  if (be)
    be->dev_free(op, p);
  else
    free(p);
  --distrt_g.live[DISTRT_COUNT_DEVICE_BUFFERS];
}

static void copy(const char *op, void *dst, const void *src, int64_t bytes) {
  const struct distrt_backend *be = dev_backend(op);
  if (bytes < 0)
    distrt_fatal(op, "bytes is negative (%lld)", (long long)bytes);
  if (bytes == 0)
    return;
  if (!dst || !src)
    distrt_fatal(op, "%s is NULL", !dst ? "the destination" : "the source");
  if (be)
    be->dev_copy(op, dst, src, bytes);
  else
    memmove(dst, src, (size_t)bytes);
}

void distrt_copy_to_device(void *dev, const void *host, int64_t bytes) {
  copy("distrt_copy_to_device", dev, host, bytes);
}

void distrt_copy_from_device(void *host, const void *dev, int64_t bytes) {
  copy("distrt_copy_from_device", host, dev, bytes);
}

void distrt_device_synchronize(void) {
  const char *op = "distrt_device_synchronize";
  const struct distrt_backend *be = dev_backend(op);
  if (be)
    be->dev_sync(op);
}

/* Shared argument checks: 1 if there is work to do. */
static int check_sizes(const char *op, int64_t m, int64_t n, int64_t k,
                       int64_t ta, int64_t tb) {
  if (m < 0 || n < 0 || k < 0)
    distrt_fatal(op, "negative size (m=%lld, n=%lld, k=%lld)", (long long)m,
                 (long long)n, (long long)k);
  if (ta < 0 || ta > 1 || tb < 0 || tb > 1)
    distrt_fatal(op, "transpose flags must be 0 or 1 (got %lld, %lld)",
                 (long long)ta, (long long)tb);
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
    distrt_fatal(op,
                 "sizes exceed the BLAS integer range (m=%lld, n=%lld, "
                 "k=%lld)",
                 (long long)m, (long long)n, (long long)k);
  return m > 0 && n > 0 && k > 0;
}

static void check_ld(const char *op, const char *name, int64_t ld,
                     int64_t cols) {
  int64_t need = cols > 1 ? cols : 1;
  if (ld < need || ld > INT_MAX)
    distrt_fatal(op, "%s=%lld must be >= max(1, %lld) and fit an int", name,
                 (long long)ld, (long long)cols);
}

static void gemm(const char *op, int64_t dtype, int64_t ta, int64_t tb,
                 int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                 int64_t lda, const void *b, int64_t ldb, double beta, void *c,
                 int64_t ldc) {
  const struct distrt_backend *be = dev_backend(op);
  if (!check_sizes(op, m, n, k, ta, tb))
    return;
  check_ld(op, "lda", lda, ta ? m : k);
  check_ld(op, "ldb", ldb, tb ? k : n);
  check_ld(op, "ldc", ldc, n);
  if (!a || !b || !c)
    distrt_fatal(op, "%s is NULL", !a ? "a" : !b ? "b" : "c");
  if (be)
    be->dev_gemm(op, dtype, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                 ldc);
  else if (dtype == DISTRT_F64)
    distrt_gemm_t_f64(ta, tb, m, n, k, alpha, (const double *)a, lda,
                      (const double *)b, ldb, beta, (double *)c, ldc);
  else
    distrt_gemm_t_f32(ta, tb, m, n, k, alpha, (const float *)a, lda,
                      (const float *)b, ldb, beta, (float *)c, ldc);
}

void distrt_device_gemm_t_f64(int64_t transa, int64_t transb, int64_t m,
                              int64_t n, int64_t k, double alpha,
                              const double *a, int64_t lda, const double *b,
                              int64_t ldb, double beta, double *c,
                              int64_t ldc) {
  gemm("distrt_device_gemm_t_f64", DISTRT_F64, transa, transb, m, n, k, alpha,
       a, lda, b, ldb, beta, c, ldc);
}

void distrt_device_gemm_t_f32(int64_t transa, int64_t transb, int64_t m,
                              int64_t n, int64_t k, double alpha,
                              const float *a, int64_t lda, const float *b,
                              int64_t ldb, double beta, float *c, int64_t ldc) {
  gemm("distrt_device_gemm_t_f32", DISTRT_F32, transa, transb, m, n, k, alpha,
       a, lda, b, ldb, beta, c, ldc);
}

static void gemv(const char *op, int64_t dtype, int64_t ta, int64_t m,
                 int64_t n, double alpha, const void *a, int64_t lda,
                 const void *x, int64_t incx, double beta, void *y,
                 int64_t incy) {
  const struct distrt_backend *be = dev_backend(op);
  if (!check_sizes(op, m, n, 1, ta, 0))
    return;
  check_ld(op, "lda", lda, n);
  if (incx < 1 || incy < 1 || incx > INT_MAX || incy > INT_MAX)
    distrt_fatal(op, "strides must be >= 1 (incx=%lld, incy=%lld)",
                 (long long)incx, (long long)incy);
  if (!a || !x || !y)
    distrt_fatal(op, "%s is NULL", !a ? "a" : !x ? "x" : "y");
  if (be)
    be->dev_gemv(op, dtype, ta, m, n, alpha, a, lda, x, incx, beta, y, incy);
  else if (dtype == DISTRT_F64)
    distrt_gemv_t_f64(ta, m, n, alpha, (const double *)a, lda,
                      (const double *)x, incx, beta, (double *)y, incy);
  else
    distrt_gemv_t_f32(ta, m, n, alpha, (const float *)a, lda, (const float *)x,
                      incx, beta, (float *)y, incy);
}

void distrt_device_gemv_t_f64(int64_t transa, int64_t m, int64_t n,
                              double alpha, const double *a, int64_t lda,
                              const double *x, int64_t incx, double beta,
                              double *y, int64_t incy) {
  gemv("distrt_device_gemv_t_f64", DISTRT_F64, transa, m, n, alpha, a, lda, x,
       incx, beta, y, incy);
}

void distrt_device_gemv_t_f32(int64_t transa, int64_t m, int64_t n,
                              double alpha, const float *a, int64_t lda,
                              const float *x, int64_t incx, double beta,
                              float *y, int64_t incy) {
  gemv("distrt_device_gemv_t_f32", DISTRT_F32, transa, m, n, alpha, a, lda, x,
       incx, beta, y, incy);
}

static void dot(const char *op, int64_t dtype, int64_t n, const void *x,
                int64_t incx, const void *y, int64_t incy, void *result) {
  const struct distrt_backend *be = dev_backend(op);
  if (n < 0 || n > INT_MAX)
    distrt_fatal(op, "n=%lld is negative or exceeds the BLAS integer range",
                 (long long)n);
  if (incx < 1 || incy < 1 || incx > INT_MAX || incy > INT_MAX)
    distrt_fatal(op, "strides must be >= 1 (incx=%lld, incy=%lld)",
                 (long long)incx, (long long)incy);
  if (!result || (n > 0 && (!x || !y)))
    distrt_fatal(op, "%s is NULL", !result ? "result" : !x ? "x" : "y");
  if (be) {
    be->dev_dot(op, dtype, n, x, incx, y, incy, result);
  } else if (dtype == DISTRT_F64) {
    *(double *)result = 0;
    distrt_dot_acc_f64(n, (const double *)x, incx, (const double *)y, incy,
                       (double *)result);
  } else {
    *(float *)result = 0;
    distrt_dot_acc_f32(n, (const float *)x, incx, (const float *)y, incy,
                       (float *)result);
  }
}

void distrt_device_dot_f64(int64_t n, const double *x, int64_t incx,
                           const double *y, int64_t incy, double *result) {
  dot("distrt_device_dot_f64", DISTRT_F64, n, x, incx, y, incy, result);
}

void distrt_device_dot_f32(int64_t n, const float *x, int64_t incx,
                           const float *y, int64_t incy, float *result) {
  dot("distrt_device_dot_f32", DISTRT_F32, n, x, incx, y, incy, result);
}

void distrt_zero_buffer(void *buf, int64_t count, int64_t dtype) {
  const char *op = "distrt_zero_buffer";
  distrt_require_init(op);
  int64_t es = distrt_dtype_size(op, dtype);
  if (count < 0)
    distrt_fatal(op, "count is negative (%lld)", (long long)count);
  if (count == 0)
    return;
  if (!buf)
    distrt_fatal(op, "the buffer is NULL (count %lld)", (long long)count);
  if (count > INT64_MAX / es)
    distrt_fatal(op, "count %lld overflows the byte size", (long long)count);
  if (distrt_is_device_ptr(buf))
    distrt_g.be->dev_memset(op, buf, count * es);
  else
    memset(buf, 0, (size_t)(count * es));
}
