/*===- gpu_kernels.c - generated GPU kernels: load and launch ----*- C -*-===*
 *
 * The four functions that dist-translate's lowering of gpu.binary and
 * gpu.launch_func calls (upstream MLIR's names, as in its CUDA runtime
 * wrappers), implemented over the backend's device slots, and the stream
 * that dist-gpu-launch-to-llvm gives every launch.
 *
 * mgpuModuleLoad runs in a global constructor, before main and before the
 * backend has chosen this process's GPU: it only records the embedded
 * binary. The backend loads it into its device's context at the first
 * mgpuModuleGetFunction, keeps it until it finalizes, and queues every
 * launch on its one stream (after the transfers and library leaves queued
 * before it; the host does not wait). On a backend without device memory
 * (MPI) a generated kernel is a fatal error naming the backend to use.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The kernels looked up so far, by name pointer (the names are constants
 * of the program): upstream's lowering looks a kernel up at every launch. */
struct kernel_entry {
  const char *name;
  void *kernel;
  struct kernel_entry *next;
};

struct distrt_gpu_module {
  const void *image;
  size_t size;
  struct kernel_entry *kernels;
};

static const struct distrt_backend *kernel_backend(const char *op) {
  distrt_require_init(op);
  const struct distrt_backend *be = distrt_g.be;
  if (!be->dev_kernel || !be->dev_launch)
    distrt_fatal(op,
                 "this program runs generated GPU kernels, which need the "
                 "NCCL backend (DISTRT_BACKEND=nccl, dist-run --backend nccl) "
                 "on a machine with a GPU; the %s backend has no device",
                 be->name);
  return be;
}

void *mgpuModuleLoad(void *data, size_t size) {
  struct distrt_gpu_module *m = malloc(sizeof *m);
  if (!m)
    distrt_fatal("mgpuModuleLoad", "out of memory");
  m->image = data;
  m->size = size;
  m->kernels = NULL;
  return m;
}

/* A PTX image (gpu-module-to-binary format=isa): its text ends at its NUL;
 * the driver compiles it when the backend loads it. */
void *mgpuModuleLoadJIT(void *data, int optLevel) {
  (void)optLevel;
  return mgpuModuleLoad(data, data ? strlen((const char *)data) + 1 : 0);
}

void mgpuModuleUnload(void *module) {
  struct distrt_gpu_module *m = module;
  if (!m)
    return;
  while (m->kernels) {
    struct kernel_entry *e = m->kernels;
    m->kernels = e->next;
    free(e);
  }
  free(m);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  const char *op = "mgpuModuleGetFunction";
  const struct distrt_backend *be = kernel_backend(op);
  struct distrt_gpu_module *m = module;
  if (!m || !m->image || !name)
    distrt_fatal(op, "no kernel binary or name (was mgpuModuleLoad run?)");
  for (struct kernel_entry *e = m->kernels; e; e = e->next)
    if (e->name == name)
      return e->kernel;
  struct kernel_entry *e = malloc(sizeof *e);
  if (!e)
    distrt_fatal(op, "out of memory");
  e->name = name;
  e->kernel = be->dev_kernel(op, m->image, m->size, name);
  e->next = m->kernels;
  m->kernels = e;
  return e->kernel;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  const char *op = "mgpuLaunchKernel";
  const struct distrt_backend *be = kernel_backend(op);
  (void)paramsCount;
  if (extra)
    distrt_fatal(op, "kernel 'extra' arguments are not supported");
  if (stream != distrt_gpu_stream())
    distrt_fatal(op, "the launch is not on the runtime's stream "
                     "(dist-gpu-launch-to-llvm gives every launch "
                     "distrt_gpu_stream())");
  const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
  for (int d = 0; d < 6; ++d)
    if (dims[d] < 1 || dims[d] > INT32_MAX)
      distrt_fatal(op, "%s dimension %c is %lld (must be 1 .. 2^31-1)",
                   d < 3 ? "grid" : "block", "xyz"[d % 3], (long long)dims[d]);
  be->dev_launch(op, function, dims, smem, params);
}

void *distrt_gpu_stream(void) {
  const struct distrt_backend *be = kernel_backend("distrt_gpu_stream");
  return be->dev_stream();
}
