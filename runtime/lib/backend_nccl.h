/*===- backend_nccl.h - the NCCL backend plugin: internals -------*- C -*-===*
 *
 * Not installed.  Shared by backend_nccl.c (the table, communicators and
 * transfers) and backend_nccl_dev.c (the device, its stream, device memory
 * and the cuBLAS leaves).  Built twice: libdistrt_nccl.so against the real
 * CUDA runtime, NCCL and cuBLAS, and (test-only) libdistrt_nccl_emu.so
 * against their host emulation (runtime/gpuemu).
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_BACKEND_NCCL_H
#define DISTRT_BACKEND_NCCL_H

#include "internal.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

/* A communicator: the MPI backend's (bootstrap, host buffers) and, made on
 * the first transfer of device memory and kept until the communicator is
 * freed, an NCCL communicator over the same processes in the same order. */
struct distrt_bcomm {
  distrt_bcomm *mpi;
  ncclComm_t nccl;
  int64_t rank, size;
  struct distrt_bcomm *next; /* adopted communicators (backend_nccl.c) */
};

/* The device state of this process (backend_nccl_dev.c). */
struct nccl_dev {
  int device;
  int count;           /* devices this process sees */
  int local_size;      /* processes of the job on this node */
  cudaStream_t stream; /* every transfer and leaf, in order */
  cublasHandle_t blas;
};
extern struct nccl_dev nccl_dev DISTRT_HIDDEN;

/* Fatal with the CUDA / NCCL / cuBLAS error of `call`. */
DISTRT_HIDDEN void nccl_fail_cuda(const char *op, const char *call,
                                  cudaError_t rc) DISTRT_NORETURN;
DISTRT_HIDDEN void nccl_fail_nccl(const char *op, const char *call,
                                  ncclResult_t rc) DISTRT_NORETURN;
#define CUCHK(op, name, call)                                                  \
  do {                                                                         \
    cudaError_t rc_ = (call);                                                  \
    if (rc_ != cudaSuccess)                                                    \
      nccl_fail_cuda(op, name, rc_);                                           \
  } while (0)
#define NCCHK(op, name, call)                                                  \
  do {                                                                         \
    ncclResult_t rc_ = (call);                                                 \
    if (rc_ != ncclSuccess)                                                    \
      nccl_fail_nccl(op, name, rc_);                                           \
  } while (0)

/* Picks this process's device (its rank on the node modulo the device
 * count), makes the stream and the cuBLAS handle.  Fatal (collective) when
 * there is no device. */
DISTRT_HIDDEN void nccl_dev_init(const char *op);
DISTRT_HIDDEN void nccl_dev_finalize(const char *op);
/* Generated kernels (backend_nccl_kernels.c): the backend's dev_kernel,
 * dev_launch and dev_stream, and the unloading of the binaries at
 * finalize. */
DISTRT_HIDDEN void *nccl_dev_kernel(const char *op, const void *image,
                                    size_t size, const char *name);
DISTRT_HIDDEN void nccl_dev_launch(const char *op, void *kernel,
                                   const intptr_t dims[6], int32_t smem,
                                   void **params);
DISTRT_HIDDEN void *nccl_dev_stream(void);
DISTRT_HIDDEN void nccl_dev_unload_kernels(const char *op);
/* Sparse products (backend_nccl_sparse.c): the backend's dev_csrmm, and
 * the release of cuSPARSE's handle and work buffer at finalize. */
DISTRT_HIDDEN void nccl_dev_csrmm(const char *op, int64_t dtype,
                                  int64_t index_bits, int64_t rows,
                                  int64_t cols, int64_t nnz, const void *pos,
                                  const void *crd, const void *val, int64_t k,
                                  const void *x, void *y);
DISTRT_HIDDEN void nccl_dev_sparse_finalize(const char *op);
/* 1 if p is device memory (NULL: 0). */
DISTRT_HIDDEN int nccl_is_device(const void *p);
/* Waits for the stream. */
DISTRT_HIDDEN void nccl_dev_sync(const char *op);
/* Device scratch of `bytes` (freed with nccl_dev_free). */
DISTRT_HIDDEN void *nccl_dev_alloc(const char *op, int64_t bytes);
DISTRT_HIDDEN void nccl_dev_free(const char *op, void *p);
DISTRT_HIDDEN void nccl_dev_copy(const char *op, void *dst, const void *src,
                                 int64_t bytes);
/* The device-tile slots (struct distrt_backend): a zeroing memset, a
 * strided 2-D copy and an in-place add, queued on the stream. */
DISTRT_HIDDEN void nccl_dev_memset(const char *op, void *p, int64_t bytes);
DISTRT_HIDDEN void nccl_dev_copy2d(const char *op, void *dst, int64_t dpitch,
                                   const void *src, int64_t spitch,
                                   int64_t width, int64_t height);
DISTRT_HIDDEN void nccl_dev_geam(const char *op, int64_t dtype, int64_t m,
                                 int64_t n, const void *a, int64_t lda, void *c,
                                 int64_t ldc);
DISTRT_HIDDEN void nccl_dev_gemm(const char *op, int64_t dtype, int64_t transa,
                                 int64_t transb, int64_t m, int64_t n,
                                 int64_t k, double alpha, const void *a,
                                 int64_t lda, const void *b, int64_t ldb,
                                 double beta, void *c, int64_t ldc);
DISTRT_HIDDEN void nccl_dev_gemv(const char *op, int64_t dtype, int64_t transa,
                                 int64_t m, int64_t n, double alpha,
                                 const void *a, int64_t lda, const void *x,
                                 int64_t incx, double beta, void *y,
                                 int64_t incy);
DISTRT_HIDDEN void nccl_dev_dot(const char *op, int64_t dtype, int64_t n,
                                const void *x, int64_t incx, const void *y,
                                int64_t incy, void *result);

#endif /* DISTRT_BACKEND_NCCL_H */
