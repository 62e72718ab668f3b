/*===- emu_cuda.c - host emulation of the CUDA runtime subset ----*- C -*-===*
 *
 * Device memory, streams, events and copies (emu.h).  Test-only.
 * GPUEMU_DEVICES=N sets the device count (default 1; 0 emulates a machine
 * without a GPU: cudaGetDeviceCount fails with cudaErrorNoDevice).
 *===----------------------------------------------------------------------===*/

#define _DEFAULT_SOURCE
#include "emu.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void emu_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "gpuemu: %s\n", msg);
  fflush(stderr);
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin)
    MPI_Abort(MPI_COMM_WORLD, 3);
  abort();
}

void *emu_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    emu_fail("out of memory (%zu bytes)", bytes);
  return p;
}

/*===-- device memory ----------------------------------------------------===*/

struct alloc {
  char *base;
  size_t bytes;  /* requested */
  size_t mapped; /* page-rounded */
  int open;
  struct alloc *next;
};
static struct alloc *allocs;
static int any_open;

static struct alloc *find(const void *p) {
  const char *c = (const char *)p;
  for (struct alloc *a = allocs; a; a = a->next)
    if (c >= a->base && c < a->base + (a->bytes ? a->bytes : 1))
      return a;
  return NULL;
}

int emu_is_device(const void *p, size_t bytes) {
  struct alloc *a = find(p);
  if (!a)
    return 0;
  if ((const char *)p + bytes > a->base + a->bytes)
    emu_fail("device range [%p, +%zu) runs past the end of its allocation "
             "[%p, +%zu)",
             p, bytes, (void *)a->base, a->bytes);
  return 1;
}

void *emu_open(const void *p, size_t bytes) {
  if (!emu_is_device(p, bytes))
    return (void *)(uintptr_t)p;
  struct alloc *a = find(p);
  if (!a->open) {
    if (mprotect(a->base, a->mapped, PROT_READ | PROT_WRITE) != 0)
      emu_fail("mprotect failed opening device memory");
    a->open = 1;
    any_open = 1;
  }
  return (void *)(uintptr_t)p;
}

void emu_close_all(void) {
  if (!any_open)
    return;
  for (struct alloc *a = allocs; a; a = a->next)
    if (a->open) {
      if (mprotect(a->base, a->mapped, PROT_NONE) != 0)
        emu_fail("mprotect failed closing device memory");
      a->open = 0;
    }
  any_open = 0;
}

static int device_count(void) {
  const char *env = getenv("GPUEMU_DEVICES");
  return env && *env ? atoi(env) : 1;
}
static int current_device = -1;
int emu_device(void) { return current_device; }

cudaError_t cudaGetDeviceCount(int *count) {
  int n = device_count();
  *count = n > 0 ? n : 0;
  return n > 0 ? cudaSuccess : cudaErrorNoDevice;
}

cudaError_t cudaSetDevice(int device) {
  if (device < 0 || device >= device_count())
    return cudaErrorInvalidDevice;
  current_device = device;
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (!devPtr)
    return cudaErrorInvalidValue;
  if (current_device < 0)
    emu_fail("cudaMalloc before cudaSetDevice (the backend picks a device "
             "first)");
  long page = sysconf(_SC_PAGESIZE);
  size_t mapped = (size ? size : 1) + (size_t)page - 1;
  mapped -= mapped % (size_t)page;
  void *p = mmap(NULL, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return cudaErrorMemoryAllocation;
  struct alloc *a = (struct alloc *)emu_malloc(sizeof *a);
  a->base = (char *)p;
  a->bytes = size;
  a->mapped = mapped;
  a->open = 0;
  a->next = allocs;
  allocs = a;
  *devPtr = p;
  return cudaSuccess;
}

/*===-- streams ----------------------------------------------------------===*/

static struct CUstream_st legacy;
static struct CUstream_st *streams; /* created ones */

struct CUstream_st *emu_stream(cudaStream_t s) {
  /* NULL, cudaStreamLegacy (0x1) and cudaStreamPerThread (0x2). */
  if ((uintptr_t)s <= 2)
    return &legacy;
  return s;
}

void emu_enqueue(cudaStream_t stream, void (*run)(void *), void *arg) {
  struct CUstream_st *s = emu_stream(stream);
  struct emu_op *o = (struct emu_op *)emu_malloc(sizeof *o);
  o->run = run;
  o->arg = arg;
  o->next = NULL;
  if (s->tail)
    s->tail->next = o;
  else
    s->head = o;
  s->tail = o;
  ++s->queued;
}

void emu_drain(struct CUstream_st *s, uint64_t upto) {
  while (s->head && s->done < upto) {
    struct emu_op *o = s->head;
    s->head = o->next;
    if (!s->head)
      s->tail = NULL;
    ++s->done;
    o->run(o->arg);
    emu_close_all();
    free(o->arg);
    free(o);
  }
}

static void drain_all(void) {
  emu_drain(&legacy, legacy.queued);
  for (struct CUstream_st *s = streams; s; s = s->next)
    emu_drain(s, s->queued);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                      unsigned int flags) {
  (void)flags; /* every stream is treated as non-blocking (the strictest) */
  if (!pStream)
    return cudaErrorInvalidValue;
  struct CUstream_st *s = (struct CUstream_st *)calloc(1, sizeof *s);
  if (!s)
    return cudaErrorMemoryAllocation;
  s->next = streams;
  if (streams)
    streams->prev = s;
  streams = s;
  *pStream = s;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  struct CUstream_st *s = emu_stream(stream);
  emu_drain(s, s->queued);
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  struct CUstream_st *s = emu_stream(stream);
  if (s == &legacy)
    return cudaErrorInvalidResourceHandle;
  emu_drain(s, s->queued);
  /* Unlinked but not freed: events recorded on it may still name it. */
  if (s->prev)
    s->prev->next = s->next;
  else
    streams = s->next;
  if (s->next)
    s->next->prev = s->prev;
  return cudaSuccess;
}

/*===-- events -----------------------------------------------------------===*/

struct CUevent_st {
  struct CUstream_st *s; /* NULL until recorded */
  uint64_t seq;          /* complete when s->done >= seq */
};

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  (void)flags;
  if (!event)
    return cudaErrorInvalidValue;
  struct CUevent_st *e = (struct CUevent_st *)calloc(1, sizeof *e);
  if (!e)
    return cudaErrorMemoryAllocation;
  *event = e;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event)
    return cudaErrorInvalidResourceHandle;
  event->s = emu_stream(stream);
  event->seq = event->s->queued;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event)
    return cudaErrorInvalidResourceHandle;
  if (event->s)
    emu_drain(event->s, event->seq);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event)
    return cudaErrorInvalidResourceHandle;
  free(event);
  return cudaSuccess;
}

/*===-- copies and freeing -----------------------------------------------===*/

static cudaError_t check_kind(void *dst, const void *src, size_t n,
                              enum cudaMemcpyKind kind) {
  int dd = emu_is_device(dst, n), sd = emu_is_device(src, n);
  switch (kind) {
  case cudaMemcpyHostToDevice:
    return dd && !sd ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDeviceToHost:
    return sd && !dd ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDeviceToDevice:
    return sd && dd ? cudaSuccess : cudaErrorInvalidValue;
  case cudaMemcpyDefault:
  case cudaMemcpyHostToHost:
    return cudaSuccess;
  }
  return cudaErrorInvalidMemcpyDirection;
}

struct copy_arg {
  void *dst;
  const void *src;
  size_t n;
};
static void run_copy(void *p) {
  struct copy_arg *c = (struct copy_arg *)p;
  memmove(emu_open(c->dst, c->n), emu_open(c->src, c->n), c->n);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream) {
  if (count == 0)
    return cudaSuccess;
  if (!dst || !src)
    return cudaErrorInvalidValue;
  cudaError_t rc = check_kind(dst, src, count, kind);
  if (rc != cudaSuccess)
    return rc;
  struct copy_arg *c = (struct copy_arg *)emu_malloc(sizeof *c);
  c->dst = dst;
  c->src = src;
  c->n = count;
  emu_enqueue(stream, run_copy, c);
  return cudaSuccess;
}

struct set_arg {
  void *dst;
  size_t n;
  int value;
};
static void run_set(void *p) {
  struct set_arg *c = (struct set_arg *)p;
  memset(emu_open(c->dst, c->n), c->value, c->n);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream) {
  if (count == 0)
    return cudaSuccess;
  if (!emu_is_device(devPtr, count))
    return cudaErrorInvalidValue;
  struct set_arg *c = (struct set_arg *)emu_malloc(sizeof *c);
  c->dst = devPtr;
  c->n = count;
  c->value = value;
  emu_enqueue(stream, run_set, c);
  return cudaSuccess;
}

struct copy2d_arg {
  void *dst;
  const void *src;
  size_t dpitch, spitch, width, height;
};
static void run_copy2d(void *p) {
  struct copy2d_arg *c = (struct copy2d_arg *)p;
  size_t dspan = c->dpitch * (c->height - 1) + c->width;
  size_t sspan = c->spitch * (c->height - 1) + c->width;
  char *d = (char *)emu_open(c->dst, dspan);
  const char *s = (const char *)emu_open(c->src, sspan);
  for (size_t r = 0; r < c->height; ++r)
    memmove(d + r * c->dpitch, s + r * c->spitch, c->width);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream) {
  if (width == 0 || height == 0)
    return cudaSuccess;
  if (!dst || !src || width > dpitch || width > spitch)
    return cudaErrorInvalidValue;
  size_t dspan = dpitch * (height - 1) + width;
  size_t sspan = spitch * (height - 1) + width;
  /* The plugin passes cudaMemcpyDefault only; emu_is_device fails the job
   * when a span starts in a device allocation and runs past its end. */
  if (kind != cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  (void)emu_is_device(dst, dspan);
  (void)emu_is_device(src, sspan);
  struct copy2d_arg *c = (struct copy2d_arg *)emu_malloc(sizeof *c);
  c->dst = dst;
  c->src = src;
  c->dpitch = dpitch;
  c->spitch = spitch;
  c->width = width;
  c->height = height;
  emu_enqueue(stream, run_copy2d, c);
  return cudaSuccess;
}

cudaError_t cudaFree(void *devPtr) {
  if (!devPtr)
    return cudaSuccess;
  drain_all(); /* cudaFree synchronises the device */
  for (struct alloc **pa = &allocs; *pa; pa = &(*pa)->next)
    if ((*pa)->base == (char *)devPtr) {
      struct alloc *a = *pa;
      *pa = a->next;
      munmap(a->base, a->mapped);
      free(a);
      return cudaSuccess;
    }
  return cudaErrorInvalidValue;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                     const void *ptr) {
  if (!attributes)
    return cudaErrorInvalidValue;
  memset(attributes, 0, sizeof *attributes);
  struct alloc *a = find(ptr);
  attributes->type = a ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
  attributes->device = a ? current_device : -2;
  attributes->devicePointer = a ? (void *)(uintptr_t)ptr : NULL;
  attributes->hostPointer = a ? NULL : (void *)(uintptr_t)ptr;
  return cudaSuccess;
}

/* Generated kernels are device code (a fat binary for the GPU) that the
 * host cannot run: loading one fails, so a program with them stops with
 * the backend's message before any launch. */
cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                enum cudaJitOption *jitOptions,
                                void **jitOptionsValues,
                                unsigned int numJitOptions,
                                enum cudaLibraryOption *libraryOptions,
                                void **libraryOptionValues,
                                unsigned int numLibraryOptions) {
  (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
  (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
  if (!library || !code)
    return cudaErrorInvalidValue;
  *library = NULL;
  return cudaErrorNotSupported;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library,
                                 const char *name) {
  (void)pKernel, (void)library, (void)name;
  return cudaErrorNotSupported;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  (void)library;
  return cudaErrorNotSupported;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem,
                             cudaStream_t stream) {
  (void)func, (void)gridDim, (void)blockDim, (void)args, (void)sharedMem;
  (void)stream;
  return cudaErrorNotSupported;
}

cudaError_t cudaGetLastError(void) { return cudaSuccess; }

const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "no error (gpuemu)";
  case cudaErrorInvalidValue:
    return "invalid argument (gpuemu)";
  case cudaErrorMemoryAllocation:
    return "out of memory (gpuemu)";
  case cudaErrorNoDevice:
    return "no CUDA-capable device is detected (gpuemu, GPUEMU_DEVICES=0)";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal (gpuemu)";
  case cudaErrorNotSupported:
    return "the host emulation (gpuemu) cannot run generated GPU kernels; "
           "they run on a real GPU only";
  default:
    return "error (gpuemu)";
  }
}
