/* distrt-test-local: process-local services: GEMM against a naive loop,
 * aligned memory, timers, and the print format. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void naive(int64_t m, int64_t n, int64_t k, double alpha,
                  const double *a, int64_t lda, const double *b, int64_t ldb,
                  double beta, double *c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = alpha * acc + (beta == 0 ? 0 : beta * c[i * ldc + j]);
    }
}

static void test_gemm(int64_t m, int64_t n, int64_t k, int64_t pad,
                      double alpha, double beta) {
  int64_t lda = k + pad, ldb = n + pad, ldc = n + pad;
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (ldc < 1) ldc = 1;
  double *a = distrt_alloc((m * lda + 1) * 8);
  double *b = distrt_alloc((k * ldb + 1) * 8);
  double *c = distrt_alloc((m * ldc + 1) * 8);
  double *r = distrt_alloc((m * ldc + 1) * 8);
  float *af = distrt_alloc((m * lda + 1) * 4);
  float *bf = distrt_alloc((k * ldb + 1) * 4);
  float *cf = distrt_alloc((m * ldc + 1) * 4);
  int64_t sa[2] = {m, lda}, sb[2] = {k, ldb}, sc[2] = {m, ldc};
  distrt_fill_global(a, DISTRT_F64, 2, sa, 1);
  distrt_fill_global(b, DISTRT_F64, 2, sb, 2);
  distrt_fill_global(c, DISTRT_F64, 2, sc, 3);
  distrt_fill_global(af, DISTRT_F32, 2, sa, 1);
  distrt_fill_global(bf, DISTRT_F32, 2, sb, 2);
  distrt_fill_global(cf, DISTRT_F32, 2, sc, 3);
  memcpy(r, c, (size_t)(m * ldc * 8));
  naive(m, n, k, alpha, a, lda, b, ldb, beta, r, ldc);
  distrt_gemm_f64(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  distrt_gemm_f32(m, n, k, alpha, af, lda, bf, ldb, beta, cf, ldc);
  double scale = 1e-300, err = 0, errf = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      scale = fmax(scale, fabs(r[i * ldc + j]));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      double d = fabs(c[i * ldc + j] - r[i * ldc + j]);
      double df = fabs((double)cf[i * ldc + j] - r[i * ldc + j]);
      if (j >= n) { /* padding must be untouched */
        EXPECT(d == 0, "gemm_f64 wrote padding at (%lld, %lld)", (long long)i,
               (long long)j);
        continue;
      }
      err = fmax(err, d / scale);
      errf = fmax(errf, df / scale);
    }
  double tol = 1e-14 * (double)(k + 1), tolf = 1e-5 * (double)(k + 1);
  EXPECT(err <= tol, "gemm_f64 %lldx%lldx%lld pad %lld alpha %g beta %g: "
         "error %g", (long long)m, (long long)n, (long long)k, (long long)pad,
         alpha, beta, err);
  EXPECT(errf <= tolf, "gemm_f32 %lldx%lldx%lld pad %lld alpha %g beta %g: "
         "error %g", (long long)m, (long long)n, (long long)k, (long long)pad,
         alpha, beta, errf);
  distrt_free(a); distrt_free(b); distrt_free(c); distrt_free(r);
  distrt_free(af); distrt_free(bf); distrt_free(cf);
}

int main(void) {
  tu_init("distrt-test-local");

  int64_t sizes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 9, 33}, {64, 64, 64},
                        {100, 37, 1}, {5, 3, 0}, {0, 4, 4}, {4, 0, 4}};
  for (int s = 0; s < 8; ++s)
    for (int64_t pad = 0; pad <= 3; pad += 3) {
      test_gemm(sizes[s][0], sizes[s][1], sizes[s][2], pad, 1.0, 0.0);
      test_gemm(sizes[s][0], sizes[s][1], sizes[s][2], pad, -0.5, 2.0);
    }
  /* exact small case */
  {
    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {1, 1, 1, 1};
    distrt_gemm_f64(2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    EXPECT(c[0] == 20 && c[1] == 23 && c[2] == 44 && c[3] == 51,
           "2x2 gemm: %g %g %g %g", c[0], c[1], c[2], c[3]);
  }
  tu_section("gemm f64/f32 against a naive loop");

  for (int64_t bytes = 0; bytes < 300; bytes += 37) {
    char *p = distrt_alloc(bytes);
    EXPECT(p != NULL && ((uintptr_t)p % 64) == 0,
           "distrt_alloc(%lld) = %p is not 64-byte aligned", (long long)bytes,
           (void *)p);
    memset(p, 1, (size_t)bytes);
    distrt_free(p);
  }
  distrt_free(NULL);
  for (size_t align = 8; align <= 4096; align *= 8) {
    char *p = _mlir_memref_to_llvm_aligned_alloc(align, 3 << 20);
    EXPECT(p != NULL && ((uintptr_t)p % align) == 0,
           "_mlir_memref_to_llvm_aligned_alloc(%zu) = %p is not aligned",
           align, (void *)p);
    _mlir_memref_to_llvm_free(p);
  }
  tu_section("alloc alignment");

  /* The reuse cache (alloc.c): a freed block of 8 MiB comes back, contents
   * and all, for a request of 5 MiB, but not for one of 3 MiB (less than
   * half its size), and not at all with DISTRT_ALLOC_CACHE_MB=0. Fresh
   * blocks this large come from mmap and read as zero at their end. */
  {
    const char *env = getenv("DISTRT_ALLOC_CACHE_MB");
    int on = !(env && strcmp(env, "0") == 0);
    int64_t live = distrt_debug_count(DISTRT_COUNT_BUFFERS);
    size_t n = (8u << 20) / sizeof(double);
    double *p = _mlir_memref_to_llvm_alloc(n * sizeof(double));
    EXPECT(p != NULL, "8 MiB allocation failed");
    for (size_t i = 0; i < n; ++i)
      p[i] = 42.0;
    _mlir_memref_to_llvm_free(p);
    double *small = distrt_alloc(3 << 20);
    size_t ns = (3u << 20) / sizeof(double);
    EXPECT(small[ns - 1] == 0.0,
           "a 3 MiB request reused the cached 8 MiB block");
    double *q = _mlir_memref_to_llvm_alloc(5u << 20);
    size_t nq = (5u << 20) / sizeof(double);
    if (on)
      EXPECT(q == p && q[nq - 1] == 42.0,
             "a 5 MiB request did not reuse the cached 8 MiB block");
    else
      EXPECT(q[nq - 1] == 0.0,
             "DISTRT_ALLOC_CACHE_MB=0: a freed block was reused");
    EXPECT(distrt_debug_count(DISTRT_COUNT_BUFFERS) == live + 2,
           "live buffers %lld, expected %lld",
           (long long)distrt_debug_count(DISTRT_COUNT_BUFFERS),
           (long long)live + 2);
    _mlir_memref_to_llvm_free(q);
    distrt_free(small);
    EXPECT(distrt_debug_count(DISTRT_COUNT_BUFFERS) == live,
           "live buffers %lld after the frees, expected %lld",
           (long long)distrt_debug_count(DISTRT_COUNT_BUFFERS),
           (long long)live);
    /* Failing allocations return NULL (the generated code reports them). */
    EXPECT(_mlir_memref_to_llvm_alloc((size_t)1 << 62) == NULL,
           "a 2^62-byte allocation did not fail");
  }
  tu_section("alloc reuse cache");

  double t0 = distrt_wtime();
  distrt_timer_start(3);
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  double dt = distrt_timer_stop(3);
  distrt_timer_start(3);
  double dt2 = distrt_timer_stop(3);
  double t1 = distrt_wtime();
  EXPECT(dt >= 0.019 && dt < 5, "timer measured %g s for a 20 ms sleep", dt);
  EXPECT(dt2 >= 0 && fabs(distrt_timer_total(3) - (dt + dt2)) < 1e-12,
         "timer total %g != %g + %g", distrt_timer_total(3), dt, dt2);
  EXPECT(t1 - t0 >= dt, "wtime difference %g < timer %g", t1 - t0, dt);
  EXPECT(distrt_timer_total(63) == 0, "unused timer has a total");
  tu_section("timers");

  if (tu_rank() == 0) {
    int64_t iv[4] = {1, -2, 3, INT64_MIN};
    double dv[3] = {0.1, -2.5, 1e300};
    distrt_print_i64(iv, 4);
    distrt_print_f64(dv, 3);
    distrt_print_i64(NULL, 0);
  }
  return tu_finish();
}
