/*===- watchdog.c - DISTRT_WATCHDOG for the MPI backend ----------*- C -*-===*
 *
 * A process that stays in one MPI call longer than DISTRT_WATCHDOG seconds
 * prints which call and aborts the job (backend_mpi.c arms it around every
 * MPI call).
 *===----------------------------------------------------------------------===*/

#include "watchdog.h"

#include "internal.h"

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Watchdog (DISTRT_WATCHDOG=seconds, off by default): a process that
 * stays in one MPI call longer than the limit prints which call and aborts
 * the job. Armed around every MPI call with a one-shot real-time timer. */
static double wd_seconds;
static const char *volatile wd_op;
static const char *volatile wd_call;
static char wd_rank[32];

static void wd_write(const char *s, size_t n) {
  while (n > 0) {
    ssize_t w = write(2, s, n);
    if (w <= 0)
      return;
    s += w;
    n -= (size_t)w;
  }
}

/* Appends s to buf[*n..cap), truncating (async-signal-safe: no stdio). */
static void wd_append(char *buf, size_t *n, size_t cap, const char *s) {
  while (*s && *n + 1 < cap)
    buf[(*n)++] = *s++;
}

static void wd_fire(int sig) {
  (void)sig;
  /* One write of the whole line: a pipe takes it whole (it is shorter
   * than PIPE_BUF), so the lines of two processes that fire at once do
   * not interleave. */
  char line[512];
  size_t n = 0;
  const char *parts[] = {"distrt: fatal: rank ",
                         wd_rank,
                         ": ",
                         wd_op ? wd_op : "?",
                         ": watchdog: stuck in ",
                         wd_call ? wd_call : "?",
                         " for longer than DISTRT_WATCHDOG allows; aborting "
                         "the job"};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i)
    wd_append(line, &n, sizeof line, parts[i]);
  line[n++] = '\n';
  wd_write(line, n);
  /* The abort itself may get stuck (e.g. the network is gone): then die by
   * SIGALRM so that at least this process ends. */
  signal(SIGALRM, SIG_DFL);
  alarm(DISTRT_ABORT_WATCHDOG_S);
  MPI_Abort(MPI_COMM_WORLD, 1);
  _exit(1);
}

void distrt_wd_arm(const char *op, const char *call) {
  if (wd_seconds <= 0)
    return;
  wd_op = op;
  wd_call = call;
  struct itimerval t;
  memset(&t, 0, sizeof t);
  t.it_value.tv_sec = (time_t)wd_seconds;
  t.it_value.tv_usec =
      (suseconds_t)((wd_seconds - (double)(time_t)wd_seconds) * 1e6);
  if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
    t.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &t, NULL);
}

void distrt_wd_disarm(void) {
  if (wd_seconds <= 0)
    return;
  struct itimerval t;
  memset(&t, 0, sizeof t);
  setitimer(ITIMER_REAL, &t, NULL);
}

void distrt_wd_setup(const char *op, int rank) {
  const char *env = getenv("DISTRT_WATCHDOG");
  if (!env || !*env)
    return;
  char *end = NULL;
  double v = strtod(env, &end);
  if (!end || *end != '\0' || !(v > 0) || v > 1e6)
    distrt_fatal(op,
                 "DISTRT_WATCHDOG must be a number of seconds > 0, got "
                 "'%s'",
                 env);
  wd_seconds = v;
  snprintf(wd_rank, sizeof wd_rank, "%d", rank);
  signal(SIGALRM, wd_fire);
}
