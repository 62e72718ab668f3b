/*===- backend_nccl_sparse.c - NCCL backend: sparse products -----*- C -*-===*
 *
 * The backend's dev_csrmm (internal.h) through cuSPARSE's generic API:
 * y += A x with A in CSR (one index width for positions and coordinates)
 * and x, y dense and row-major, SpMV when k is 1 and SpMM otherwise,
 * queued on the backend's stream.  The handle and the work buffer are made
 * at the first product and kept until the backend finalizes.
 *===----------------------------------------------------------------------===*/

#include "backend_nccl.h"

/* cusparse.h declares deprecated types of the legacy API. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cusparse.h>
#pragma GCC diagnostic pop

static cusparseHandle_t handle;
static void *work;
static size_t work_bytes;

static void sp_check(const char *op, const char *call, cusparseStatus_t rc) {
  if (rc != CUSPARSE_STATUS_SUCCESS)
    distrt_fatal(op, "%s failed (cuSPARSE status %d): %s", call, (int)rc,
                 cusparseGetErrorString(rc));
}

static void *work_of(const char *op, size_t bytes) {
  if (bytes <= work_bytes && work)
    return work;
  if (work) {
    nccl_dev_sync(op); /* earlier products may still use it */
    nccl_dev_free(op, work);
  }
  work = nccl_dev_alloc(op, (int64_t)(bytes ? bytes : 8));
  work_bytes = bytes;
  return work;
}

void nccl_dev_csrmm(const char *op, int64_t dtype, int64_t index_bits,
                    int64_t rows, int64_t cols, int64_t nnz, const void *pos,
                    const void *crd, const void *val, int64_t k,
                    const void *x, void *y) {
  if (!handle) {
    sp_check(op, "cusparseCreate", cusparseCreate(&handle));
    sp_check(op, "cusparseSetStream", cusparseSetStream(handle, nccl_dev.stream));
  }
  cudaDataType vt = dtype == DISTRT_F32 ? CUDA_R_32F : CUDA_R_64F;
  cusparseIndexType_t it =
      index_bits == 32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
  double one64 = 1.0;
  float one32 = 1.0f;
  const void *one = dtype == DISTRT_F32 ? (const void *)&one32
                                        : (const void *)&one64;
  cusparseConstSpMatDescr_t a;
  sp_check(op, "cusparseCreateConstCsr",
           cusparseCreateConstCsr(&a, rows, cols, nnz, pos, crd, val, it, it,
                                  CUSPARSE_INDEX_BASE_ZERO, vt));
  size_t bytes = 0;
  if (k == 1) {
    cusparseConstDnVecDescr_t vx;
    cusparseDnVecDescr_t vy;
    sp_check(op, "cusparseCreateConstDnVec",
             cusparseCreateConstDnVec(&vx, cols, x, vt));
    sp_check(op, "cusparseCreateDnVec", cusparseCreateDnVec(&vy, rows, y, vt));
    sp_check(op, "cusparseSpMV_bufferSize",
             cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     one, a, vx, one, vy, vt,
                                     CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    sp_check(op, "cusparseSpMV",
             cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, a, vx,
                          one, vy, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                          work_of(op, bytes)));
    sp_check(op, "cusparseDestroyDnVec", cusparseDestroyDnVec(vx));
    sp_check(op, "cusparseDestroyDnVec", cusparseDestroyDnVec(vy));
  } else {
    cusparseConstDnMatDescr_t mx;
    cusparseDnMatDescr_t my;
    sp_check(op, "cusparseCreateConstDnMat",
             cusparseCreateConstDnMat(&mx, cols, k, k, x, vt,
                                      CUSPARSE_ORDER_ROW));
    sp_check(op, "cusparseCreateDnMat",
             cusparseCreateDnMat(&my, rows, k, k, y, vt, CUSPARSE_ORDER_ROW));
    sp_check(op, "cusparseSpMM_bufferSize",
             cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     CUSPARSE_OPERATION_NON_TRANSPOSE, one, a,
                                     mx, one, my, vt, CUSPARSE_SPMM_ALG_DEFAULT,
                                     &bytes));
    sp_check(op, "cusparseSpMM",
             cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                          CUSPARSE_OPERATION_NON_TRANSPOSE, one, a, mx, one, my,
                          vt, CUSPARSE_SPMM_ALG_DEFAULT, work_of(op, bytes)));
    sp_check(op, "cusparseDestroyDnMat", cusparseDestroyDnMat(mx));
    sp_check(op, "cusparseDestroyDnMat", cusparseDestroyDnMat(my));
  }
  sp_check(op, "cusparseDestroySpMat", cusparseDestroySpMat(a));
}

void nccl_dev_sparse_finalize(const char *op) {
  if (work)
    nccl_dev_free(op, work);
  work = NULL;
  work_bytes = 0;
  if (handle)
    sp_check(op, "cusparseDestroy", cusparseDestroy(handle));
  handle = NULL;
}
