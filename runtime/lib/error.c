/*===- error.c - fatal errors, call-order and argument checks -*- C -*-===*
 *
 * The bottom layer (error.h): everything here only reports errors and
 * calls nothing else of the runtime, so any file can report one without
 * needing core.c (init / finalize) or a backend.  The process-wide state is
 * defined here too, since the messages read the rank from it; core.c fills
 * it in.  How to end the whole job is registered by the backend
 * (distrt_set_abort_handler).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "error.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct distrt_state distrt_g;

/* Set while a fatal error is being reported (the abort may run exit
 * handlers). */
static volatile int in_fatal;

int distrt_fatal_in_progress(void) { return in_fatal; }

/* How to end the whole job (the backend's; see error.h). */
static int (*abort_active)(void);
static void (*abort_job)(int code);

void distrt_set_abort_handler(int (*active)(void), void (*abort)(int code)) {
  abort_active = active;
  abort_job = abort;
}

/*===-- fatal errors -----------------------------------------------------===*/

/* Rank / size for messages: from the runtime if it was ever initialised,
 * otherwise from the launcher's environment, otherwise "?". */
static void rank_strings(char *rank, char *size, size_t n) {
  if (distrt_g.world_size > 0) {
    snprintf(rank, n, "%lld", (long long)distrt_g.world_rank);
    snprintf(size, n, "%lld", (long long)distrt_g.world_size);
    return;
  }
  static const char *rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                    "PMI_RANK", NULL};
  static const char *size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL};
  const char *r = NULL, *s = NULL;
  for (int i = 0; rank_vars[i] && !r; ++i)
    r = getenv(rank_vars[i]);
  for (int i = 0; size_vars[i] && !s; ++i)
    s = getenv(size_vars[i]);
  snprintf(rank, n, "%s", r ? r : "?");
  snprintf(size, n, "%s", s ? s : "?");
}

static void vfatal(const char *op, const char *fmt, va_list ap)
    DISTRT_NORETURN;
static void vfatal(const char *op, const char *fmt, va_list ap) {
  if (in_fatal) /* an error while reporting an error */
    _Exit(1);
  in_fatal = 1;

  char msg[4096];
  if (fmt)
    vsnprintf(msg, sizeof msg, fmt, ap);
  else
    msg[0] = '\0';
  char rank[32], size[32];
  rank_strings(rank, size, sizeof rank);
  char line[4400];
  snprintf(line, sizeof line, "distrt: fatal: rank %s of %s: %s: %s\n", rank,
           size, op ? op : "distrt", msg);
  fflush(stdout);
  fputs(line, stderr);
  fflush(stderr);

  if (abort_active && abort_job && abort_active()) {
    /* Watchdog: if the abort itself gets stuck, die by SIGALRM so that the
     * launcher still tears the job down. */
    signal(SIGALRM, SIG_DFL);
    alarm(DISTRT_ABORT_WATCHDOG_S);
    abort_job(1);
  }
  exit(1);
}

void distrt_fatal(const char *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal(op, fmt, ap);
}

static int64_t known_rank(void) {
  if (distrt_g.world_size > 0)
    return distrt_g.world_rank;
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  if (!r)
    r = getenv("PMIX_RANK");
  if (!r)
    r = getenv("PMI_RANK");
  return r ? atoll(r) : 0;
}

/* Every member of a group found the same error: the member of rank 0 in
 * the group reports it and brings the job down; the others only report if
 * they are still alive after a while. */
static void vfatal_group(int64_t rank, const char *op, const char *fmt,
                         va_list ap) DISTRT_NORETURN;
static void vfatal_group(int64_t rank, const char *op, const char *fmt,
                         va_list ap) {
  if (rank != 0) {
    struct timespec ts = {2, 0};
    nanosleep(&ts, NULL);
  }
  vfatal(op, fmt, ap);
}

void distrt_fatal_collective(const char *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal_group(known_rank(), op, fmt, ap);
}

void distrt_fatal_group(int64_t rank, const char *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal_group(rank, op, fmt, ap);
}

/*===-- call order -------------------------------------------------------===*/

void distrt_require_init(const char *op) {
  if (distrt_g.initialized)
    return;
  if (distrt_g.finalized)
    distrt_fatal(op, "called after distrt_finalize()");
  distrt_fatal(op, "called before distrt_init(); call distrt_init() first");
}

/*===-- validation helpers -----------------------------------------------===*/

const char *distrt_dtype_name(int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
    return "f32";
  case DISTRT_F64:
    return "f64";
  case DISTRT_I32:
    return "i32";
  case DISTRT_I64:
    return "i64";
  default:
    return "?";
  }
}

int64_t distrt_dtype_size(const char *op, int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
  case DISTRT_I32:
    return 4;
  case DISTRT_F64:
  case DISTRT_I64:
    return 8;
  default:
    distrt_fatal(op,
                 "invalid dtype %lld (expected DISTRT_F32=0, DISTRT_F64=1, "
                 "DISTRT_I32=2 or DISTRT_I64=3)",
                 (long long)dtype);
  }
}

void distrt_check_op(const char *op, int64_t rop) {
  if (rop < DISTRT_SUM || rop > DISTRT_MAX)
    distrt_fatal(op,
                 "invalid reduction op %lld (expected DISTRT_SUM=0, "
                 "DISTRT_PROD=1, DISTRT_MIN=2 or DISTRT_MAX=3)",
                 (long long)rop);
}

void distrt_check_buf(const char *op, const char *what, const void *buf,
                      int64_t count) {
  if (!buf && count > 0)
    distrt_fatal(op, "%s is NULL but holds %lld elements", what,
                 (long long)count);
}

void distrt_check_no_overlap(const char *op, const char *wa, const void *a,
                             int64_t abytes, const char *wb, const void *b,
                             int64_t bbytes) {
  if (!a || !b || abytes <= 0 || bbytes <= 0)
    return;
  uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
  if (a0 < b0 + (uintptr_t)bbytes && b0 < a0 + (uintptr_t)abytes)
    distrt_fatal(op, "%s and %s overlap (%lld and %lld bytes at %p and %p)",
                 wa, wb, (long long)abytes, (long long)bbytes, a, b);
}

int64_t distrt_mul(const char *op, const char *what, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    distrt_fatal(op, "%s overflows 64 bits (%lld * %lld)", what, (long long)a,
                 (long long)b);
  return r;
}
