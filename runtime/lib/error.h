/*===- error.h - distrt internals: the bottom layer --------------*- C -*-===*
 *
 * Not installed.  The bottom of the runtime: fatal errors, the call-order
 * check, the argument validators that need no backend, and the
 * process-wide state they read.  error.c implements it and includes this
 * header only, so it calls nothing else of the runtime: every other file
 * may call down into it, it never calls up.
 *
 * What the error layer needs from above is handed to it:
 *   - the rank and size to print, and whether the runtime is initialised,
 *     are fields of distrt_g that core.c fills in (plain data);
 *   - ending the whole job is the backend's business: a backend registers
 *     how with distrt_set_abort_handler (backend_mpi.c when the library is
 *     loaded, so that a fatal error before distrt_init still aborts a job
 *     whose MPI the program started itself; distrt_init registers the
 *     backend it selects).  With no handler, or one that is not active,
 *     a fatal error ends this process with exit(1).
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_ERROR_H
#define DISTRT_ERROR_H

#include "distrt/distrt.h"

#include <stdint.h>

/* Keeps an internal function out of libdistrt's exported symbols (the
 * library is built with default visibility: unmarked functions here are
 * exported). */
#if defined(__GNUC__)
#define DISTRT_HIDDEN __attribute__((visibility("hidden")))
#else
#define DISTRT_HIDDEN
#endif

/* Seconds MPI_Abort may take before the process kills itself (SIGALRM). */
#define DISTRT_ABORT_WATCHDOG_S 20

/* Opaque to this layer (internal.h defines the backend seam). */
struct distrt_backend;
typedef struct distrt_bcomm distrt_bcomm; /* a backend communicator */

/* Process-wide runtime state (defined in error.c, set by core.c). */
struct distrt_state {
  int initialized; /* between distrt_init and distrt_finalize */
  int finalized;   /* distrt_finalize ran and the backend is gone */
  int library;     /* started by distrt_init_library: the caller owns MPI,
                      distrt finalizes itself when MPI_Finalize starts */
  const struct distrt_backend *be;
  distrt_bcomm *world; /* the whole job (distrt's duplicate if the program
                          started MPI itself) */
  int64_t world_rank;  /* fatal messages print these: "rank R of N" */
  int64_t world_size;
  int64_t tag_ub;
  int64_t checks_failed; /* distrt_check_result failures (check.c) */
  /* Live objects, by DISTRT_COUNT_* (distrt_debug_count). */
  int64_t live[DISTRT_NUM_COUNTS];
};
extern struct distrt_state distrt_g;

/* How a fatal error ends the whole job: `abort` (must not return) is used
 * when `active` returns nonzero.  The last registration wins. */
DISTRT_HIDDEN void distrt_set_abort_handler(int (*active)(void),
                                            void (*abort)(int code));

/* Fatal errors and call-order checks. */
void distrt_require_init(const char *op);
/* Fatal variant for errors every process detects identically: rank 0
 * prints and aborts; the others wait briefly so the message appears once. */
void distrt_fatal_collective(const char *op, const char *fmt, ...)
    DISTRT_NORETURN DISTRT_PRINTF(2, 3);
/* The same for an error every member of a group (a grid's communicator)
 * detects identically: the member of rank `rank` 0 in the group reports. */
DISTRT_HIDDEN void distrt_fatal_group(int64_t rank, const char *op,
                                      const char *fmt, ...) DISTRT_NORETURN
    DISTRT_PRINTF(3, 4);
/* 1 while a fatal error is being reported (the abort may run exit
 * handlers). */
DISTRT_HIDDEN int distrt_fatal_in_progress(void);

/* Validation; each is fatal with `op` on failure.  (The per-call element
 * limit depends on the backend: distrt_check_count, comm.c.) */
int64_t distrt_dtype_size(const char *op, int64_t dtype);
void distrt_check_op(const char *op, int64_t rop);
void distrt_check_buf(const char *op, const char *what, const void *buf,
                      int64_t count);
void distrt_check_no_overlap(const char *op, const char *wa, const void *a,
                             int64_t abytes, const char *wb, const void *b,
                             int64_t bbytes);
/* a * b with overflow check (fatal naming `what`). */
int64_t distrt_mul(const char *op, const char *what, int64_t a, int64_t b);
/* ceil(a / b) for a >= 0, b >= 1, without the overflow of (a + b - 1) / b
 * when a is near INT64_MAX. */
static inline int64_t distrt_ceil_div(int64_t a, int64_t b) {
  return a / b + (a % b != 0);
}
/* min(r * block, n) for r, block >= 0 and n >= 0, without overflow: where
 * block r of a cut of n starts (n past the last). */
static inline int64_t distrt_block_start(int64_t r, int64_t block, int64_t n) {
  return r > 0 && block > n / r ? n : (r * block < n ? r * block : n);
}
const char *distrt_dtype_name(int64_t dtype);

#endif /* DISTRT_ERROR_H */
