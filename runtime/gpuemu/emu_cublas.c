/*===- emu_cublas.c - host emulation of the cuBLAS subset --------*- C -*-===*
 *
 * Test-only (emu.h).  gemm, gemv and dot in double and single precision,
 * queued on the handle's stream and run through OpenBLAS with cuBLAS's
 * column-major semantics; the argument checks are cuBLAS's
 * (CUBLAS_STATUS_INVALID_VALUE).  Scalars follow the pointer mode: host
 * scalars are read at the call, device scalars when the stream runs; a dot
 * product into host memory waits for its stream, as in cuBLAS.
 *===----------------------------------------------------------------------===*/

#include "emu.h"

#include <cblas.h>
#include <cublas_v2.h>
#include <stdlib.h>
#include <string.h>

struct cublasContext {
  cudaStream_t stream;
  cublasPointerMode_t mode;
};

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (!handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  struct cublasContext *h = (struct cublasContext *)calloc(1, sizeof *h);
  if (!h)
    return CUBLAS_STATUS_ALLOC_FAILED;
  h->mode = CUBLAS_POINTER_MODE_HOST;
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  cudaStreamSynchronize(handle->stream);
  free(handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle,
                                  cudaStream_t streamId) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle,
                                       cublasPointerMode_t mode) {
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

/* Bytes of a column-major rows x cols operand with leading dimension ld. */
static size_t span(int rows, int cols, int ld, size_t es) {
  if (rows <= 0 || cols <= 0)
    return 0;
  return ((size_t)ld * (size_t)(cols - 1) + (size_t)rows) * es;
}
static size_t vspan(int n, int inc, size_t es) {
  if (n <= 0)
    return 0;
  return ((size_t)(n - 1) * (size_t)(inc < 0 ? -inc : inc) + 1) * es;
}

static void need_device(const char *fn, const char *what, const void *p,
                        size_t bytes) {
  if (bytes && !emu_is_device(p, bytes))
    emu_fail("%s: %s %p is not device memory", fn, what, p);
}

static enum CBLAS_TRANSPOSE cb(cublasOperation_t t) {
  return t == CUBLAS_OP_N ? CblasNoTrans : CblasTrans;
}

struct blas_op {
  int kind; /* 0 gemm, 1 gemv, 2 dot */
  int f32;
  cublasOperation_t ta, tb;
  int m, n, k, lda, ldb, ldc;
  double alpha, beta;         /* host mode */
  const void *palpha, *pbeta; /* device mode, else NULL */
  const void *a, *b;
  void *c;
  size_t sa, sb, sc; /* bytes of a, b, c */
};

static double scalar(const void *p, int f32) {
  if (f32)
    return *(const float *)emu_open(p, 4);
  return *(const double *)emu_open(p, 8);
}

static void run_blas(void *arg) {
  struct blas_op *o = (struct blas_op *)arg;
  double alpha = o->palpha ? scalar(o->palpha, o->f32) : o->alpha;
  double beta = o->pbeta ? scalar(o->pbeta, o->f32) : o->beta;
  const void *a = emu_open(o->a, o->sa), *b = emu_open(o->b, o->sb);
  void *c = emu_open(o->c, o->sc);
  if (o->kind == 0 && o->k == 0) { /* C = beta * C (C not read if 0) */
    for (int j = 0; j < o->n; ++j)
      for (int i = 0; i < o->m; ++i) {
        size_t at = (size_t)j * (size_t)o->ldc + (size_t)i;
        if (o->f32)
          ((float *)c)[at] = beta == 0 ? 0.f : (float)beta * ((float *)c)[at];
        else
          ((double *)c)[at] = beta == 0 ? 0.0 : beta * ((double *)c)[at];
      }
  } else if (o->kind == 0 && o->f32)
    cblas_sgemm(CblasColMajor, cb(o->ta), cb(o->tb), o->m, o->n, o->k,
                (float)alpha, a, o->lda, b, o->ldb, (float)beta, c, o->ldc);
  else if (o->kind == 0)
    cblas_dgemm(CblasColMajor, cb(o->ta), cb(o->tb), o->m, o->n, o->k, alpha, a,
                o->lda, b, o->ldb, beta, c, o->ldc);
  else if (o->kind == 1 && o->f32)
    cblas_sgemv(CblasColMajor, cb(o->ta), o->m, o->n, (float)alpha, a, o->lda,
                b, o->ldb, (float)beta, c, o->ldc);
  else if (o->kind == 1)
    cblas_dgemv(CblasColMajor, cb(o->ta), o->m, o->n, alpha, a, o->lda, b,
                o->ldb, beta, c, o->ldc);
  else if (o->f32)
    *(float *)c = o->n > 0 ? cblas_sdot(o->n, a, o->lda, b, o->ldb) : 0.f;
  else
    *(double *)c = o->n > 0 ? cblas_ddot(o->n, a, o->lda, b, o->ldb) : 0.0;
}

static void set_scalars(cublasHandle_t h, struct blas_op *o, const void *alpha,
                        const void *beta) {
  if (h->mode == CUBLAS_POINTER_MODE_DEVICE) {
    need_device("cuBLAS", "alpha", alpha, o->f32 ? 4 : 8);
    need_device("cuBLAS", "beta", beta, o->f32 ? 4 : 8);
    o->palpha = alpha;
    o->pbeta = beta;
  } else {
    o->alpha = o->f32 ? *(const float *)alpha : *(const double *)alpha;
    o->beta = o->f32 ? *(const float *)beta : *(const double *)beta;
  }
}

static cublasStatus_t gemm(int f32, cublasHandle_t h, cublasOperation_t ta,
                           cublasOperation_t tb, int m, int n, int k,
                           const void *alpha, const void *A, int lda,
                           const void *B, int ldb, const void *beta, void *C,
                           int ldc) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  int ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
  int br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
  if (m < 0 || n < 0 || k < 0 || lda < (ar > 1 ? ar : 1) ||
      ldb < (br > 1 ? br : 1) || ldc < (m > 1 ? m : 1) ||
      (ta != CUBLAS_OP_N && ta != CUBLAS_OP_T) ||
      (tb != CUBLAS_OP_N && tb != CUBLAS_OP_T))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  size_t es = f32 ? 4 : 8;
  struct blas_op *o = (struct blas_op *)emu_malloc(sizeof *o);
  *o = (struct blas_op){.kind = 0,
                        .f32 = f32,
                        .ta = ta,
                        .tb = tb,
                        .m = m,
                        .n = n,
                        .k = k,
                        .lda = lda,
                        .ldb = ldb,
                        .ldc = ldc,
                        .a = A,
                        .b = B,
                        .c = C,
                        .sa = k ? span(ar, ac, lda, es) : 0,
                        .sb = k ? span(br, bc, ldb, es) : 0,
                        .sc = span(m, n, ldc, es)};
  need_device("cublas gemm", "A", A, o->sa);
  need_device("cublas gemm", "B", B, o->sb);
  need_device("cublas gemm", "C", C, o->sc);
  set_scalars(h, o, alpha, beta);
  emu_enqueue(h->stream, run_blas, o);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const double *alpha, const double *A, int lda,
                              const double *B, int ldb, const double *beta,
                              double *C, int ldc) {
  return gemm(0, handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
              C, ldc);
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc) {
  return gemm(1, handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
              C, ldc);
}

static cublasStatus_t gemv(int f32, cublasHandle_t h, cublasOperation_t t,
                           int m, int n, const void *alpha, const void *A,
                           int lda, const void *x, int incx, const void *beta,
                           void *y, int incy) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 ||
      (t != CUBLAS_OP_N && t != CUBLAS_OP_T))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  size_t es = f32 ? 4 : 8;
  int xn = t == CUBLAS_OP_N ? n : m, yn = t == CUBLAS_OP_N ? m : n;
  struct blas_op *o = (struct blas_op *)emu_malloc(sizeof *o);
  *o = (struct blas_op){.kind = 1,
                        .f32 = f32,
                        .ta = t,
                        .m = m,
                        .n = n,
                        .lda = lda,
                        .ldb = incx,
                        .ldc = incy,
                        .a = A,
                        .b = x,
                        .c = y,
                        .sa = span(m, n, lda, es),
                        .sb = vspan(xn, incx, es),
                        .sc = vspan(yn, incy, es)};
  need_device("cublas gemv", "A", A, o->sa);
  need_device("cublas gemv", "x", x, o->sb);
  need_device("cublas gemv", "y", y, o->sc);
  set_scalars(h, o, alpha, beta);
  emu_enqueue(h->stream, run_blas, o);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans,
                              int m, int n, const double *alpha,
                              const double *A, int lda, const double *x,
                              int incx, const double *beta, double *y,
                              int incy) {
  return gemv(0, handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans,
                              int m, int n, const float *alpha, const float *A,
                              int lda, const float *x, int incx,
                              const float *beta, float *y, int incy) {
  return gemv(1, handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

static cublasStatus_t dot(int f32, cublasHandle_t h, int n, const void *x,
                          int incx, const void *y, int incy, void *result) {
  if (!h)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result)
    return CUBLAS_STATUS_INVALID_VALUE;
  size_t es = f32 ? 4 : 8;
  struct blas_op *o = (struct blas_op *)emu_malloc(sizeof *o);
  *o = (struct blas_op){.kind = 2,
                        .f32 = f32,
                        .n = n,
                        .lda = incx,
                        .ldb = incy,
                        .a = x,
                        .b = y,
                        .c = result,
                        .sa = vspan(n, incx, es),
                        .sb = vspan(n, incy, es),
                        .sc = es};
  need_device("cublas dot", "x", x, o->sa);
  need_device("cublas dot", "y", y, o->sb);
  if (h->mode == CUBLAS_POINTER_MODE_DEVICE) {
    need_device("cublas dot", "result", result, es);
    emu_enqueue(h->stream, run_blas, o);
  } else { /* host result: cuBLAS waits for the stream */
    cudaStreamSynchronize(h->stream);
    run_blas(o);
    emu_close_all();
    free(o);
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDdot_v2(cublasHandle_t handle, int n, const double *x,
                             int incx, const double *y, int incy,
                             double *result) {
  return dot(0, handle, n, x, incx, y, incy, result);
}

cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float *x,
                             int incx, const float *y, int incy,
                             float *result) {
  return dot(1, handle, n, x, incx, y, incy, result);
}

/* C = alpha op(A) + beta op(B), column-major m x n; only what the plugin
 * uses (no transposes, C == B in place, host scalars) is emulated. */
struct geam_op {
  int f32, m, n, lda, ldc;
  double alpha, beta;
  const void *a;
  void *c;
  size_t sa, sc;
};

static void run_geam(void *arg) {
  struct geam_op *o = (struct geam_op *)arg;
  const char *a = (const char *)emu_open(o->a, o->sa);
  char *c = (char *)emu_open(o->c, o->sc);
  for (int j = 0; j < o->n; ++j)
    for (int i = 0; i < o->m; ++i) {
      size_t ia = (size_t)j * (size_t)o->lda + (size_t)i;
      size_t ic = (size_t)j * (size_t)o->ldc + (size_t)i;
      if (o->f32)
        ((float *)c)[ic] = (float)o->alpha * ((const float *)a)[ia] +
                           (float)o->beta * ((float *)c)[ic];
      else
        ((double *)c)[ic] =
            o->alpha * ((const double *)a)[ia] + o->beta * ((double *)c)[ic];
    }
}

static cublasStatus_t geam(int f32, cublasHandle_t h, cublasOperation_t ta,
                           cublasOperation_t tb, int m, int n,
                           const void *alpha, const void *a, int lda,
                           const void *beta, const void *b, int ldb, void *c,
                           int ldc) {
  if (!h || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (ta != CUBLAS_OP_N || tb != CUBLAS_OP_N || b != c || ldb != ldc ||
      h->mode != CUBLAS_POINTER_MODE_HOST)
    emu_fail("cublas%cgeam: only C = alpha A + beta C in place, without "
             "transposes and with host scalars, is emulated",
             f32 ? 'S' : 'D');
  size_t es = f32 ? 4 : 8;
  struct geam_op *o = (struct geam_op *)emu_malloc(sizeof *o);
  o->f32 = f32;
  o->m = m;
  o->n = n;
  o->lda = lda;
  o->ldc = ldc;
  o->alpha = f32 ? *(const float *)alpha : *(const double *)alpha;
  o->beta = f32 ? *(const float *)beta : *(const double *)beta;
  o->a = a;
  o->c = c;
  o->sa = span(m, n, lda, es);
  o->sc = span(m, n, ldc, es);
  need_device("cublasgeam", "A", a, o->sa);
  need_device("cublasgeam", "C", c, o->sc);
  emu_enqueue(h->stream, run_geam, o);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgeam(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n,
                           const double *alpha, const double *A, int lda,
                           const double *beta, const double *B, int ldb,
                           double *C, int ldc) {
  return geam(0, handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C,
              ldc);
}

cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n,
                           const float *alpha, const float *A, int lda,
                           const float *beta, const float *B, int ldb, float *C,
                           int ldc) {
  return geam(1, handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C,
              ldc);
}
