/*===- emu_cusparse.c - host emulation of the cuSPARSE subset ----*- C -*-===*
 *
 * Test-only (emu.h).  The generic-API subset the NCCL backend's sparse
 * products call (backend_nccl_sparse.c): CSR matrices of 32- or 64-bit
 * indices, dense vectors and row-major dense matrices of f32 or f64, and
 * SpMV / SpMM (non-transposed, y = alpha A x + beta y with host scalars),
 * queued on the handle's stream.  The descriptors are read at the call (the
 * caller may destroy them before the stream runs); every array must be
 * device memory.
 *===----------------------------------------------------------------------===*/

#include "emu.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cusparse.h>
#pragma GCC diagnostic pop
#include <stdlib.h>

struct cusparseContext {
  cudaStream_t stream;
};

struct cusparseSpMatDescr {
  int64_t rows, cols, nnz;
  void *pos, *crd, *val;
  int index64, f32;
};

struct cusparseDnVecDescr {
  int64_t size;
  void *values;
  int f32;
};

struct cusparseDnMatDescr {
  int64_t rows, cols, ld;
  void *values;
  int f32, row_major;
};

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle) {
  if (!handle)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *handle = (cusparseHandle_t)emu_malloc(sizeof **handle);
  (*handle)->stream = NULL;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDestroy(cusparseHandle_t handle) {
  if (!handle)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  cudaStreamSynchronize(handle->stream);
  free(handle);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t handle,
                                   cudaStream_t streamId) {
  if (!handle)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUSPARSE_STATUS_SUCCESS;
}

const char *cusparseGetErrorString(cusparseStatus_t status) {
  switch (status) {
  case CUSPARSE_STATUS_SUCCESS:
    return "success (gpuemu)";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "not initialized (gpuemu)";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "invalid value (gpuemu)";
  default:
    return "error (gpuemu)";
  }
}

static int data_type(cudaDataType t, int *f32) {
  if (t != CUDA_R_32F && t != CUDA_R_64F)
    return 0;
  *f32 = t == CUDA_R_32F;
  return 1;
}

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr,
                                   int64_t rows, int64_t cols, int64_t nnz,
                                   void *csrRowOffsets, void *csrColInd,
                                   void *csrValues,
                                   cusparseIndexType_t csrRowOffsetsType,
                                   cusparseIndexType_t csrColIndType,
                                   cusparseIndexBase_t idxBase,
                                   cudaDataType valueType) {
  int f32;
  if (!spMatDescr || rows < 0 || cols < 0 || nnz < 0 ||
      csrRowOffsetsType != csrColIndType ||
      (csrColIndType != CUSPARSE_INDEX_32I &&
       csrColIndType != CUSPARSE_INDEX_64I) ||
      idxBase != CUSPARSE_INDEX_BASE_ZERO || !data_type(valueType, &f32))
    return CUSPARSE_STATUS_INVALID_VALUE;
  struct cusparseSpMatDescr *d = emu_malloc(sizeof *d);
  *d = (struct cusparseSpMatDescr){rows,      cols,
                                   nnz,       csrRowOffsets,
                                   csrColInd, csrValues,
                                   csrColIndType == CUSPARSE_INDEX_64I, f32};
  *spMatDescr = d;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateConstCsr(
    cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
    int64_t nnz, const void *csrRowOffsets, const void *csrColInd,
    const void *csrValues, cusparseIndexType_t csrRowOffsetsType,
    cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase,
    cudaDataType valueType) {
  cusparseSpMatDescr_t d = NULL;
  /* The emulation never writes through a descriptor's arrays' constness. */
  cusparseStatus_t rc = cusparseCreateCsr(
      &d, rows, cols, nnz, (void *)(uintptr_t)csrRowOffsets,
      (void *)(uintptr_t)csrColInd, (void *)(uintptr_t)csrValues,
      csrRowOffsetsType, csrColIndType, idxBase, valueType);
  if (spMatDescr)
    *spMatDescr = d;
  return rc;
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr) {
  free((void *)(uintptr_t)spMatDescr);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *dnVecDescr,
                                     int64_t size, void *values,
                                     cudaDataType valueType) {
  int f32;
  if (!dnVecDescr || size < 0 || !data_type(valueType, &f32))
    return CUSPARSE_STATUS_INVALID_VALUE;
  struct cusparseDnVecDescr *d = emu_malloc(sizeof *d);
  *d = (struct cusparseDnVecDescr){size, values, f32};
  *dnVecDescr = d;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *dnVecDescr,
                                          int64_t size, const void *values,
                                          cudaDataType valueType) {
  cusparseDnVecDescr_t d = NULL;
  cusparseStatus_t rc =
      cusparseCreateDnVec(&d, size, (void *)(uintptr_t)values, valueType);
  if (dnVecDescr)
    *dnVecDescr = d;
  return rc;
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr) {
  free((void *)(uintptr_t)dnVecDescr);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *dnMatDescr,
                                     int64_t rows, int64_t cols, int64_t ld,
                                     void *values, cudaDataType valueType,
                                     cusparseOrder_t order) {
  int f32;
  if (!dnMatDescr || rows < 0 || cols < 0 || !data_type(valueType, &f32) ||
      (order == CUSPARSE_ORDER_ROW ? ld < cols : ld < rows))
    return CUSPARSE_STATUS_INVALID_VALUE;
  struct cusparseDnMatDescr *d = emu_malloc(sizeof *d);
  *d = (struct cusparseDnMatDescr){rows, cols, ld, values, f32,
                                   order == CUSPARSE_ORDER_ROW};
  *dnMatDescr = d;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *dnMatDescr,
                                          int64_t rows, int64_t cols,
                                          int64_t ld, const void *values,
                                          cudaDataType valueType,
                                          cusparseOrder_t order) {
  cusparseDnMatDescr_t d = NULL;
  cusparseStatus_t rc = cusparseCreateDnMat(
      &d, rows, cols, ld, (void *)(uintptr_t)values, valueType, order);
  if (dnMatDescr)
    *dnMatDescr = d;
  return rc;
}

cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr) {
  free((void *)(uintptr_t)dnMatDescr);
  return CUSPARSE_STATUS_SUCCESS;
}

/* One queued product: y (rows x k, element (i, j) at y[i * ys + j * yt]) =
 * alpha A x + beta y, x likewise (cols x k). */
struct sp_op {
  struct cusparseSpMatDescr a;
  const void *x;
  void *y;
  int64_t k, xs, xt, ys, yt;
  double alpha, beta;
};

static int64_t index_at(const void *p, int index64, int64_t i) {
  return index64 ? ((const int64_t *)p)[i] : (int64_t)((const int32_t *)p)[i];
}

static void run_sp(void *arg) {
  struct sp_op *o = arg;
  const struct cusparseSpMatDescr *a = &o->a;
  size_t ib = a->index64 ? 8 : 4, es = a->f32 ? 4 : 8;
  const void *pos = emu_open(a->pos, (size_t)(a->rows + 1) * ib);
  const void *crd = emu_open(a->crd, (size_t)a->nnz * ib);
  const void *val = emu_open(a->val, (size_t)a->nnz * es);
  const void *x = emu_open(o->x, 1);
  void *y = emu_open(o->y, 1);
  /* emu_open checks the first byte; the arrays were checked at the call. */
  (void)x, (void)y;
  for (int64_t i = 0; i < a->rows; ++i)
    for (int64_t j = 0; j < o->k; ++j) {
      double s = 0;
      for (int64_t p = index_at(pos, a->index64, i);
           p < index_at(pos, a->index64, i + 1); ++p) {
        int64_t c = index_at(crd, a->index64, p);
        int64_t xi = c * o->xs + j * o->xt;
        double v = a->f32 ? ((const float *)val)[p] : ((const double *)val)[p];
        double xv = a->f32 ? ((const float *)o->x)[xi] : ((const double *)o->x)[xi];
        s += v * xv;
      }
      int64_t yi = i * o->ys + j * o->yt;
      if (a->f32) {
        float *yp = (float *)o->y + yi;
        *yp = (float)(o->alpha * s + (o->beta == 0 ? 0 : o->beta * *yp));
      } else {
        double *yp = (double *)o->y + yi;
        *yp = o->alpha * s + (o->beta == 0 ? 0 : o->beta * *yp);
      }
    }
}

static cusparseStatus_t enqueue(cusparseHandle_t h, const char *fn,
                                const struct cusparseSpMatDescr *a,
                                const void *x, int64_t xrows, void *y,
                                int64_t yrows, int64_t k, int64_t xs,
                                int64_t xt, int64_t ys, int64_t yt,
                                const void *alpha, const void *beta) {
  if (!h)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (xrows != a->cols || yrows != a->rows)
    return CUSPARSE_STATUS_INVALID_VALUE;
  size_t ib = a->index64 ? 8 : 4, es = a->f32 ? 4 : 8;
  const struct {
    const char *what;
    const void *p;
    size_t bytes;
  } arrays[] = {{"the row offsets", a->pos, (size_t)(a->rows + 1) * ib},
                {"the column indices", a->crd, (size_t)a->nnz * ib},
                {"the values", a->val, (size_t)a->nnz * es},
                {"x", x, (size_t)(xrows * k) * es},
                {"y", y, (size_t)(yrows * k) * es}};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
    if (arrays[i].bytes && !emu_is_device(arrays[i].p, arrays[i].bytes))
      emu_fail("%s: %s %p is not device memory", fn, arrays[i].what,
               arrays[i].p);
  struct sp_op *o = emu_malloc(sizeof *o);
  *o = (struct sp_op){*a, x, y, k, xs, xt, ys, yt, 0, 0};
  o->alpha = a->f32 ? *(const float *)alpha : *(const double *)alpha;
  o->beta = a->f32 ? *(const float *)beta : *(const double *)beta;
  emu_enqueue(h->stream, run_sp, o);
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
    const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
    cusparseSpMVAlg_t alg, size_t *bufferSize) {
  (void)alpha, (void)beta, (void)alg, (void)computeType;
  if (!handle)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (opA != CUSPARSE_OPERATION_NON_TRANSPOSE || !matA || !vecX || !vecY ||
      !bufferSize)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *bufferSize = 64; /* a work buffer, as the library may want */
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA,
                              const void *alpha,
                              cusparseConstSpMatDescr_t matA,
                              cusparseConstDnVecDescr_t vecX, const void *beta,
                              cusparseDnVecDescr_t vecY,
                              cudaDataType computeType, cusparseSpMVAlg_t alg,
                              void *externalBuffer) {
  (void)alg;
  if (opA != CUSPARSE_OPERATION_NON_TRANSPOSE || !matA || !vecX || !vecY ||
      vecX->f32 != matA->f32 || vecY->f32 != matA->f32 ||
      (computeType == CUDA_R_32F) != matA->f32)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (!emu_is_device(externalBuffer, 64))
    emu_fail("cusparseSpMV: the work buffer %p is not device memory",
             externalBuffer);
  return enqueue(handle, "cusparseSpMV", matA, vecX->values, vecX->size,
                 vecY->values, vecY->size, 1, 1, 0, 1, 0, alpha, beta);
}

cusparseStatus_t cusparseSpMM_bufferSize(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    const void *alpha, cusparseConstSpMatDescr_t matA,
    cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
    cudaDataType computeType, cusparseSpMMAlg_t alg, size_t *bufferSize) {
  (void)alpha, (void)beta, (void)alg, (void)computeType;
  if (!handle)
    return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (opA != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      opB != CUSPARSE_OPERATION_NON_TRANSPOSE || !matA || !matB || !matC ||
      !bufferSize)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *bufferSize = 64;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA,
                              cusparseOperation_t opB, const void *alpha,
                              cusparseConstSpMatDescr_t matA,
                              cusparseConstDnMatDescr_t matB, const void *beta,
                              cusparseDnMatDescr_t matC,
                              cudaDataType computeType, cusparseSpMMAlg_t alg,
                              void *externalBuffer) {
  (void)alg;
  if (opA != CUSPARSE_OPERATION_NON_TRANSPOSE ||
      opB != CUSPARSE_OPERATION_NON_TRANSPOSE || !matA || !matB || !matC ||
      matB->f32 != matA->f32 || matC->f32 != matA->f32 ||
      (computeType == CUDA_R_32F) != matA->f32 || matB->cols != matC->cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (!emu_is_device(externalBuffer, 64))
    emu_fail("cusparseSpMM: the work buffer %p is not device memory",
             externalBuffer);
  int64_t bs = matB->row_major ? matB->ld : 1, bt = matB->row_major ? 1 : matB->ld;
  int64_t cs = matC->row_major ? matC->ld : 1, ct = matC->row_major ? 1 : matC->ld;
  /* The arrays' extents: checked as rows x ld (row-major) blocks. */
  return enqueue(handle, "cusparseSpMM", matA, matB->values, matB->rows,
                 matC->values, matC->rows, matB->cols, bs, bt, cs, ct, alpha,
                 beta);
}
