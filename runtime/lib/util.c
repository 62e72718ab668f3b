/*===- util.c - distrt memory, timers and printing --------------*- C -*-===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===-- memory -----------------------------------------------------------===*/

/* distrt_alloc and distrt_free are in alloc.c. */

int64_t distrt_debug_count(int64_t what) {
  if (what < 0 || what >= DISTRT_NUM_COUNTS)
    distrt_fatal("distrt_debug_count",
                 "counter %lld is out of range (0 .. %d)", (long long)what,
                 DISTRT_NUM_COUNTS - 1);
  return distrt_g.live[what];
}

/*===-- timers -----------------------------------------------------------===*/

static struct {
  double start, total;
  int running;
} timers[DISTRT_NUM_TIMERS];

double distrt_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check_timer(const char *op, int64_t id) {
  if (id < 0 || id >= DISTRT_NUM_TIMERS)
    distrt_fatal(op, "timer id %lld is out of range (0 .. %d)", (long long)id,
                 DISTRT_NUM_TIMERS - 1);
}

void distrt_timer_start(int64_t id) {
  check_timer("distrt_timer_start", id);
  timers[id].start = distrt_wtime();
  timers[id].running = 1;
}

double distrt_timer_stop(int64_t id) {
  const char *op = "distrt_timer_stop";
  check_timer(op, id);
  if (!timers[id].running)
    distrt_fatal(op, "timer %lld was not started", (long long)id);
  double dt = distrt_wtime() - timers[id].start;
  timers[id].total += dt;
  timers[id].running = 0;
  return dt;
}

double distrt_timer_total(int64_t id) {
  check_timer("distrt_timer_total", id);
  return timers[id].total;
}

/*===-- printing ---------------------------------------------------------===*/

/* Formats "rank R: v0 v1 ...\n" into one buffer and writes it at once. */
static void print_values(const char *op, const void *buf, int64_t n,
                         int is_f64) {
  distrt_require_init(op);
  if (n < 0)
    distrt_fatal(op, "n is negative (%lld)", (long long)n);
  distrt_check_buf(op, "buf", buf, n);
  const int64_t per = 32; /* enough for %lld and %.17g plus a space */
  if (n > (INT64_MAX - 64) / per)
    distrt_fatal(op, "too many values (%lld)", (long long)n);
  size_t cap = (size_t)(n * per + 64);
  char *s = (char *)malloc(cap);
  if (!s)
    distrt_fatal(op, "out of memory formatting %lld values", (long long)n);
  size_t len = (size_t)snprintf(s, cap, "rank %lld:",
                                (long long)distrt_g.world_rank);
  for (int64_t i = 0; i < n; ++i) {
    if (is_f64)
      len += (size_t)snprintf(s + len, cap - len, " %.17g",
                              ((const double *)buf)[i]);
    else
      len += (size_t)snprintf(s + len, cap - len, " %lld",
                              (long long)((const int64_t *)buf)[i]);
  }
  s[len++] = '\n';
  fflush(stdout);
  fwrite(s, 1, len, stdout);
  fflush(stdout);
  free(s);
}

void distrt_print_i64(const int64_t *buf, int64_t n) {
  print_values("distrt_print_i64", buf, n, 0);
}

void distrt_print_f64(const double *buf, int64_t n) {
  print_values("distrt_print_f64", buf, n, 1);
}

void distrt_check_alloc(const void *p, int64_t bytes, const char *what) {
  if (!p && bytes > 0)
    distrt_fatal("allocation", "cannot allocate %lld bytes for %s",
                 (long long)bytes, what ? what : "a buffer");
}

void distrt_check_distinct(const void *out, const void *in, const char *what,
                           const char *name) {
  if (out && out == in)
    distrt_fatal(what ? what : "dist.compute",
                 "the output and input %s are the same tensor; a computation "
                 "cannot read the tensor it writes (copy it into a separate "
                 "tensor first)",
                 name ? name : "?");
}
