/*===- emu.h - host emulation of CUDA / NCCL / cuBLAS: internals -*- C -*-===*
 *
 * Test-only (never installed, never linked into dist-run output).  The
 * emulation implements exactly the CUDA runtime, NCCL and cuBLAS functions
 * the NCCL backend (runtime/lib/backend_nccl*.c) calls, with the signatures
 * of the real headers, so that the backend's own logic runs under mpirun on
 * machines without a GPU:
 *   - device memory is host memory mapped PROT_NONE: it is readable and
 *     writable only while an emulated call works on it, so host code that
 *     touches a device pointer faults (SIGSEGV);
 *   - streams are in-order queues run only at synchronisation points
 *     (cudaStreamSynchronize, cudaEventSynchronize, cudaFree), so a missing
 *     synchronisation reads stale values;
 *   - NCCL collectives and send/recv run over MPI when their stream runs;
 *   - cuBLAS leaves run through OpenBLAS (cblas, column-major).
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_GPUEMU_EMU_H
#define DISTRT_GPUEMU_EMU_H

#include <cuda_runtime_api.h>

#include <stddef.h>
#include <stdint.h>

/* One queued operation of a stream. */
struct emu_op {
  void (*run)(void *arg);
  void *arg; /* freed (free()) after run */
  struct emu_op *next;
};

struct CUstream_st {
  struct emu_op *head, *tail;
  uint64_t queued;                 /* operations ever enqueued */
  uint64_t done;                   /* operations run */
  struct CUstream_st *prev, *next; /* live streams */
};

/* Print "gpuemu: <what>" and end the job (an emulation invariant or a
 * misuse that the real library would report as undefined behaviour). */
void emu_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* The stream `s` stands for (NULL: the legacy default stream). */
struct CUstream_st *emu_stream(cudaStream_t s);
/* Append `run(arg)` to the stream (arg is malloc'd; freed after run). */
void emu_enqueue(cudaStream_t s, void (*run)(void *), void *arg);
/* Run the stream's queued operations up to operation number `upto`. */
void emu_drain(struct CUstream_st *s, uint64_t upto);
/* 1 if [p, p + bytes) lies inside one emulated device allocation; fatal if
 * it starts inside one and runs past its end. 0 for host memory. */
int emu_is_device(const void *p, size_t bytes);
/* Make [p, p + bytes) of a device allocation accessible (PROT_READ|WRITE)
 * until emu_close_all(); host memory is left alone.  Returns p. */
void *emu_open(const void *p, size_t bytes);
/* Make every allocation opened since the last call inaccessible again. */
void emu_close_all(void);
/* The device cudaSetDevice chose (-1 before). */
int emu_device(void);
/* malloc that fails the job when out of memory. */
void *emu_malloc(size_t bytes);

#endif /* DISTRT_GPUEMU_EMU_H */
