/*===- backend_nccl_kernels.c - NCCL backend: generated kernels --*- C -*-===*
 *
 * Generated GPU kernels (gpu_kernels.c) on the NCCL backend: the embedded
 * binaries are loaded with the CUDA runtime's library API into this
 * process's device at their first kernel (cudaLibraryLoadData takes fat
 * binaries, cubins and PTX), kept in a short list until the backend
 * finalizes, and every launch is queued on the backend's one stream.
 *===----------------------------------------------------------------------===*/

#include "backend_nccl.h"

#include <stdlib.h>

struct loaded_image {
  const void *image;
  cudaLibrary_t library;
  struct loaded_image *next;
};

/* One entry per embedded binary (one per compiled module): the list stays
 * as short as the program's modules. */
static struct loaded_image *images;

void *nccl_dev_kernel(const char *op, const void *image, size_t size,
                      const char *name) {
  (void)size; /* the binaries carry their own size */
  struct loaded_image *l = images;
  while (l && l->image != image)
    l = l->next;
  if (!l) {
    l = calloc(1, sizeof *l);
    if (!l)
      distrt_fatal(op, "out of memory");
    cudaError_t rc =
        cudaLibraryLoadData(&l->library, image, NULL, NULL, 0, NULL, NULL, 0);
    if (rc != cudaSuccess)
      distrt_fatal(op,
                   "cudaLibraryLoadData failed loading the program's GPU "
                   "kernels (CUDA error %d): %s%s",
                   (int)rc, cudaGetErrorString(rc),
                   rc == cudaErrorNotSupported
                       ? ""
                       : "; were they compiled for this GPU (dist-run "
                         "--pipeline-options gpu-chip=sm_XX)?");
    l->image = image;
    l->next = images;
    images = l;
  }
  cudaKernel_t kernel = NULL;
  cudaError_t rc = cudaLibraryGetKernel(&kernel, l->library, name);
  if (rc != cudaSuccess)
    distrt_fatal(op, "cudaLibraryGetKernel('%s') failed (CUDA error %d): %s",
                 name, (int)rc, cudaGetErrorString(rc));
  return (void *)kernel;
}

void nccl_dev_launch(const char *op, void *kernel, const intptr_t dims[6],
                     int32_t smem, void **params) {
  dim3 grid = {(unsigned)dims[0], (unsigned)dims[1], (unsigned)dims[2]};
  dim3 block = {(unsigned)dims[3], (unsigned)dims[4], (unsigned)dims[5]};
  CUCHK(op, "cudaLaunchKernel",
        cudaLaunchKernel((const void *)kernel, grid, block, params,
                         (size_t)(smem > 0 ? smem : 0), nccl_dev.stream));
}

void *nccl_dev_stream(void) { return (void *)nccl_dev.stream; }

void nccl_dev_unload_kernels(const char *op) {
  while (images) {
    struct loaded_image *l = images;
    images = l->next;
    CUCHK(op, "cudaLibraryUnload", cudaLibraryUnload(l->library));
    free(l);
  }
}
