/*===- backend_nccl_dev.c - NCCL backend: device, memory, cuBLAS -*- C -*-===*
 *
 * The device side of the NCCL backend (backend_nccl.h): the device this
 * process uses, the one stream every transfer and leaf is queued on, device
 * memory and copies, and the library leaves through cuBLAS.  The runtime's
 * matrices are row-major and cuBLAS's column-major: a row-major product
 * C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T, so the operands
 * are passed swapped with the same transpose flags.
 *===----------------------------------------------------------------------===*/

#include "backend_nccl.h"

#include <mpi.h>
#include <stdlib.h>

struct nccl_dev nccl_dev;

void nccl_fail_cuda(const char *op, const char *call, cudaError_t rc) {
  distrt_fatal(op, "%s failed (CUDA error %d): %s", call, (int)rc,
               cudaGetErrorString(rc));
}

void nccl_fail_nccl(const char *op, const char *call, ncclResult_t rc) {
  distrt_fatal(op, "%s failed (NCCL error %d): %s", call, (int)rc,
               ncclGetErrorString(rc));
}

static void blas_check(const char *op, const char *call, cublasStatus_t rc) {
  if (rc != CUBLAS_STATUS_SUCCESS)
    distrt_fatal(op, "%s failed (cuBLAS status %d)", call, (int)rc);
}

/* This process's rank among the job's processes on its node, and their
 * number: from the launcher (Open MPI, MPICH / Hydra, Slurm) when it says,
 * with no communication (distrt_init_library need not be called by every
 * process), else MPI_Comm_split_type over the world (collective). */
static int node_rank(const char *op, int *size) {
  static const char *vars[][2] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
      {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"}};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
    const char *r = getenv(vars[i][0]), *n = getenv(vars[i][1]);
    if (r && n && atoi(n) > atoi(r) && atoi(r) >= 0) {
      *size = atoi(n);
      return atoi(r);
    }
  }
  MPI_Comm node;
  int local = 0;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                          MPI_INFO_NULL, &node) != MPI_SUCCESS)
    distrt_fatal(op, "MPI_Comm_split_type failed finding the node's ranks");
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, size);
  MPI_Comm_free(&node);
  return local;
}

void nccl_dev_init(const char *op) {
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess || count < 1)
    distrt_fatal_collective(
        op,
        "DISTRT_BACKEND=nccl: no CUDA device (cudaGetDeviceCount: %s); run "
        "on a machine with a GPU or unset DISTRT_BACKEND",
        rc != cudaSuccess ? cudaGetErrorString(rc) : "0 devices");
  int local = node_rank(op, &nccl_dev.local_size);
  nccl_dev.count = count;
  nccl_dev.device = local % count;
  CUCHK(op, "cudaSetDevice", cudaSetDevice(nccl_dev.device));
  CUCHK(op, "cudaStreamCreateWithFlags",
        cudaStreamCreateWithFlags(&nccl_dev.stream, cudaStreamNonBlocking));
  blas_check(op, "cublasCreate", cublasCreate(&nccl_dev.blas));
  blas_check(op, "cublasSetStream",
             cublasSetStream(nccl_dev.blas, nccl_dev.stream));
}

void nccl_dev_finalize(const char *op) {
  if (!nccl_dev.stream)
    return;
  nccl_dev_sync(op);
  nccl_dev_unload_kernels(op);
  nccl_dev_sparse_finalize(op);
  blas_check(op, "cublasDestroy", cublasDestroy(nccl_dev.blas));
  CUCHK(op, "cudaStreamDestroy", cudaStreamDestroy(nccl_dev.stream));
  nccl_dev.stream = NULL;
  nccl_dev.blas = NULL;
}

int nccl_is_device(const void *p) {
  if (!p)
    return 0;
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError(); /* clear it: plain host memory */
    return 0;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

void nccl_dev_sync(const char *op) {
  CUCHK(op, "cudaStreamSynchronize", cudaStreamSynchronize(nccl_dev.stream));
}

void *nccl_dev_alloc(const char *op, int64_t bytes) {
  void *p = NULL;
  CUCHK(op, "cudaMalloc", cudaMalloc(&p, (size_t)(bytes > 0 ? bytes : 1)));
  return p;
}

void nccl_dev_free(const char *op, void *p) {
  if (p)
    CUCHK(op, "cudaFree", cudaFree(p));
}

void nccl_dev_copy(const char *op, void *dst, const void *src, int64_t bytes) {
  if (bytes <= 0)
    return;
  CUCHK(op, "cudaMemcpyAsync",
        cudaMemcpyAsync(dst, src, (size_t)bytes, cudaMemcpyDefault,
                        nccl_dev.stream));
  nccl_dev_sync(op);
}

static cublasOperation_t trans(int64_t t) {
  return t ? CUBLAS_OP_T : CUBLAS_OP_N;
}

void nccl_dev_gemm(const char *op, int64_t dtype, int64_t transa,
                   int64_t transb, int64_t m, int64_t n, int64_t k,
                   double alpha, const void *a, int64_t lda, const void *b,
                   int64_t ldb, double beta, void *c, int64_t ldc) {
  blas_check(op, "cublasSetPointerMode",
             cublasSetPointerMode(nccl_dev.blas, CUBLAS_POINTER_MODE_HOST));
  /* Row-major C (m x n) = column-major C^T (n x m) = op(B)^T op(A)^T. */
  if (dtype == DISTRT_F64) {
    blas_check(op, "cublasDgemm",
               cublasDgemm(nccl_dev.blas, trans(transb), trans(transa), (int)n,
                           (int)m, (int)k, &alpha, (const double *)b, (int)ldb,
                           (const double *)a, (int)lda, &beta, (double *)c,
                           (int)ldc));
  } else {
    float fa = (float)alpha, fb = (float)beta;
    blas_check(op, "cublasSgemm",
               cublasSgemm(nccl_dev.blas, trans(transb), trans(transa), (int)n,
                           (int)m, (int)k, &fa, (const float *)b, (int)ldb,
                           (const float *)a, (int)lda, &fb, (float *)c,
                           (int)ldc));
  }
}

void nccl_dev_gemv(const char *op, int64_t dtype, int64_t transa, int64_t m,
                   int64_t n, double alpha, const void *a, int64_t lda,
                   const void *x, int64_t incx, double beta, void *y,
                   int64_t incy) {
  blas_check(op, "cublasSetPointerMode",
             cublasSetPointerMode(nccl_dev.blas, CUBLAS_POINTER_MODE_HOST));
  /* Row-major A (m x n, lda) is column-major A^T (n x m, lda). */
  cublasOperation_t t = transa ? CUBLAS_OP_N : CUBLAS_OP_T;
  if (dtype == DISTRT_F64) {
    blas_check(op, "cublasDgemv",
               cublasDgemv(nccl_dev.blas, t, (int)n, (int)m, &alpha,
                           (const double *)a, (int)lda, (const double *)x,
                           (int)incx, &beta, (double *)y, (int)incy));
  } else {
    float fa = (float)alpha, fb = (float)beta;
    blas_check(op, "cublasSgemv",
               cublasSgemv(nccl_dev.blas, t, (int)n, (int)m, &fa,
                           (const float *)a, (int)lda, (const float *)x,
                           (int)incx, &fb, (float *)y, (int)incy));
  }
}

void nccl_dev_dot(const char *op, int64_t dtype, int64_t n, const void *x,
                  int64_t incx, const void *y, int64_t incy, void *result) {
  blas_check(op, "cublasSetPointerMode",
             cublasSetPointerMode(nccl_dev.blas, CUBLAS_POINTER_MODE_DEVICE));
  if (dtype == DISTRT_F64)
    blas_check(op, "cublasDdot",
               cublasDdot(nccl_dev.blas, (int)n, (const double *)x, (int)incx,
                          (const double *)y, (int)incy, (double *)result));
  else
    blas_check(op, "cublasSdot",
               cublasSdot(nccl_dev.blas, (int)n, (const float *)x, (int)incx,
                          (const float *)y, (int)incy, (float *)result));
}

void nccl_dev_memset(const char *op, void *p, int64_t bytes) {
  if (bytes <= 0)
    return;
  CUCHK(op, "cudaMemsetAsync",
        cudaMemsetAsync(p, 0, (size_t)bytes, nccl_dev.stream));
}

void nccl_dev_copy2d(const char *op, void *dst, int64_t dpitch, const void *src,
                     int64_t spitch, int64_t width, int64_t height) {
  if (width <= 0 || height <= 0)
    return;
  CUCHK(op, "cudaMemcpy2DAsync",
        cudaMemcpy2DAsync(dst, (size_t)dpitch, src, (size_t)spitch,
                          (size_t)width, (size_t)height, cudaMemcpyDefault,
                          nccl_dev.stream));
}

void nccl_dev_geam(const char *op, int64_t dtype, int64_t m, int64_t n,
                   const void *a, int64_t lda, void *c, int64_t ldc) {
  if (m <= 0 || n <= 0)
    return;
  blas_check(op, "cublasSetPointerMode",
             cublasSetPointerMode(nccl_dev.blas, CUBLAS_POINTER_MODE_HOST));
  /* Row-major m x n is column-major n x m; C = 1 * A + 1 * C in place
   * (cuBLAS allows C == B with ldc == ldb and no transpose). */
  if (dtype == DISTRT_F64) {
    double one = 1;
    blas_check(op, "cublasDgeam",
               cublasDgeam(nccl_dev.blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n,
                           (int)m, &one, (const double *)a, (int)lda, &one,
                           (const double *)c, (int)ldc, (double *)c, (int)ldc));
  } else {
    float one = 1;
    blas_check(op, "cublasSgeam",
               cublasSgeam(nccl_dev.blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n,
                           (int)m, &one, (const float *)a, (int)lda, &one,
                           (const float *)c, (int)ldc, (float *)c, (int)ldc));
  }
}
