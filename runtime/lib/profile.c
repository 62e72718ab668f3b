/*===- profile.c - where the time goes (DISTRT_PROFILE=1) -------*- C -*-===*
 *
 * With DISTRT_PROFILE set to anything but "" or "0", every public entry
 * point that computes, communicates or packs charges its wall time to one
 * category.  Regions nest (distrt_fetch_box packs and then calls the
 * backend's alltoallv): time is charged to the innermost open region only,
 * so the categories never count a second twice.  Computations lowered with
 * `timing` mark their extent (distrt_profile_kernel_begin, and
 * distrt_report_time ends it); when any did, only time inside them counts
 * and the total is their summed wall time on this rank, otherwise the total
 * is the time from distrt_init to distrt_finalize.  distrt_finalize prints
 * one line per rank (rank 0 gathers); with DISTRT_PROFILE=calls, every
 * timed computation also prints one line per rank when it ends.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROF_MAX_DEPTH 16

static struct {
  int on;
  int kernels;   /* distrt_profile_kernel_begin was called */
  int in_kernel; /* inside a marked computation */
  int per_call;  /* DISTRT_PROFILE=calls: one line per computation too */
  int64_t calls; /* computations ended so far */
  double kernel_start, kernel_total, last_kernel;
  double mark[DISTRT_PROF_N]; /* acc at the start of the computation */
  double run_start;
  double acc[DISTRT_PROF_N];
  int stack[PROF_MAX_DEPTH];
  int depth;
  double last;
} P;

void distrt_profile_setup(void) {
  const char *v = getenv("DISTRT_PROFILE");
  memset(&P, 0, sizeof P);
  P.on = v && *v && strcmp(v, "0") != 0;
  P.per_call = P.on && strcmp(v, "calls") == 0;
  P.run_start = distrt_wtime();
}

int distrt_profile_enabled(void) { return P.on; }

static int counting(void) { return P.on && (!P.kernels || P.in_kernel); }

void distrt_profile_enter(int cat) {
  if (!P.on)
    return;
  double now = distrt_wtime();
  if (P.depth > 0 && counting())
    P.acc[P.stack[P.depth - 1]] += now - P.last;
  if (P.depth < PROF_MAX_DEPTH)
    P.stack[P.depth] = cat;
  ++P.depth;
  P.last = now;
}

void distrt_profile_leave(void) {
  if (!P.on || P.depth == 0)
    return;
  double now = distrt_wtime();
  --P.depth;
  if (P.depth < PROF_MAX_DEPTH && counting())
    P.acc[P.stack[P.depth]] += now - P.last;
  P.last = now;
}

/*===-- communication: a backend table that times every transfer ----------===*/

static const struct distrt_backend *real;
static struct distrt_backend timed;

static void prof_allreduce(const char *op, distrt_bcomm *c, void *buf,
                           int64_t count, int64_t dtype, int64_t rop) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->allreduce(op, c, buf, count, dtype, rop);
  distrt_profile_leave();
}

static void prof_reduce(const char *op, distrt_bcomm *c, void *buf,
                        int64_t count, int64_t dtype, int64_t rop,
                        int64_t root) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->reduce(op, c, buf, count, dtype, rop, root);
  distrt_profile_leave();
}

static void prof_bcast(const char *op, distrt_bcomm *c, void *buf,
                       int64_t count, int64_t dtype, int64_t root) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->bcast(op, c, buf, count, dtype, root);
  distrt_profile_leave();
}

static void prof_allgather(const char *op, distrt_bcomm *c, const void *send,
                           void *recv, int64_t count, int64_t dtype) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->allgather(op, c, send, recv, count, dtype);
  distrt_profile_leave();
}

static void prof_reduce_scatter(const char *op, distrt_bcomm *c,
                                const void *send, void *recv, int64_t count,
                                int64_t dtype, int64_t rop) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->reduce_scatter(op, c, send, recv, count, dtype, rop);
  distrt_profile_leave();
}

static void prof_alltoall(const char *op, distrt_bcomm *c, const void *send,
                          void *recv, int64_t count, int64_t dtype) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->alltoall(op, c, send, recv, count, dtype);
  distrt_profile_leave();
}

static void prof_alltoallv(const char *op, distrt_bcomm *c, const void *send,
                           const int64_t *scounts, void *recv,
                           const int64_t *rcounts, int64_t dtype) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->alltoallv(op, c, send, scounts, recv, rcounts, dtype);
  distrt_profile_leave();
}

static void prof_gather(const char *op, distrt_bcomm *c, const void *send,
                        void *recv, int64_t count, int64_t dtype,
                        int64_t root) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->gather(op, c, send, recv, count, dtype, root);
  distrt_profile_leave();
}

static void prof_scatter(const char *op, distrt_bcomm *c, const void *send,
                         void *recv, int64_t count, int64_t dtype,
                         int64_t root) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->scatter(op, c, send, recv, count, dtype, root);
  distrt_profile_leave();
}

static void prof_barrier(const char *op, distrt_bcomm *c) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->barrier(op, c);
  distrt_profile_leave();
}

static void prof_send(const char *op, distrt_bcomm *c, const void *buf,
                      int64_t count, int64_t dtype, int64_t dest, int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->send(op, c, buf, count, dtype, dest, tag);
  distrt_profile_leave();
}

static void prof_recv(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                      int64_t dtype, int64_t src, int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->recv(op, c, buf, count, dtype, src, tag);
  distrt_profile_leave();
}

static void prof_sendrecv(const char *op, distrt_bcomm *c, const void *send,
                          int64_t scount, int64_t dest, void *recv,
                          int64_t rcount, int64_t src, int64_t dtype,
                          int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->sendrecv(op, c, send, scount, dest, recv, rcount, src, dtype, tag);
  distrt_profile_leave();
}

static void prof_sendrecv_replace(const char *op, distrt_bcomm *c, void *buf,
                                  int64_t count, int64_t dtype, int64_t dest,
                                  int64_t src, int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->sendrecv_replace(op, c, buf, count, dtype, dest, src, tag);
  distrt_profile_leave();
}

static distrt_breq *prof_ibcast(const char *op, distrt_bcomm *c, void *buf,
                                int64_t count, int64_t dtype, int64_t root) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->ibcast(op, c, buf, count, dtype, root);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_iallreduce(const char *op, distrt_bcomm *c, void *buf,
                                    int64_t count, int64_t dtype, int64_t rop) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->iallreduce(op, c, buf, count, dtype, rop);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_isendrecv(const char *op, distrt_bcomm *c,
                                   const void *send, int64_t dest, void *recv,
                                   int64_t src, int64_t count, int64_t dtype,
                                   int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r =
      real->isendrecv(op, c, send, dest, recv, src, count, dtype, tag);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_iallgather(const char *op, distrt_bcomm *c,
                                    const void *send, void *recv, int64_t count,
                                    int64_t dtype) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->iallgather(op, c, send, recv, count, dtype);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_ipermute(const char *op, distrt_bcomm *c,
                                  const void *send, int64_t scount,
                                  int64_t dest, void *recv, int64_t rcount,
                                  int64_t src, int64_t dtype, int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r =
      real->ipermute(op, c, send, scount, dest, recv, rcount, src, dtype, tag);
  distrt_profile_leave();
  return r;
}

static void prof_wait(const char *op, distrt_breq *r) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->wait(op, r);
  distrt_profile_leave();
}

const struct distrt_backend *
distrt_profile_backend(const struct distrt_backend *be) {
  if (!P.on)
    return be;
  real = be;
  timed = *be;
  timed.allreduce = prof_allreduce;
  timed.reduce = prof_reduce;
  timed.bcast = prof_bcast;
  timed.allgather = prof_allgather;
  timed.reduce_scatter = prof_reduce_scatter;
  timed.alltoall = prof_alltoall;
  timed.alltoallv = prof_alltoallv;
  timed.gather = prof_gather;
  timed.scatter = prof_scatter;
  timed.barrier = prof_barrier;
  timed.send = prof_send;
  timed.recv = prof_recv;
  timed.sendrecv = prof_sendrecv;
  timed.sendrecv_replace = prof_sendrecv_replace;
  timed.ibcast = prof_ibcast;
  timed.iallreduce = prof_iallreduce;
  timed.isendrecv = prof_isendrecv;
  timed.iallgather = prof_iallgather;
  timed.ipermute = prof_ipermute;
  timed.wait = prof_wait;
  return &timed;
}

void distrt_profile_kernel_begin(void) {
  if (!P.on)
    return;
  /* From the first marked computation on only time inside them counts:
   * forget what was charged before it (a redistribution, fill, ...), which
   * the totals would otherwise hold against the computations' time. */
  if (!P.kernels)
    memset(P.acc, 0, sizeof P.acc);
  P.kernels = 1;
  P.in_kernel = 1;
  memcpy(P.mark, P.acc, sizeof P.mark);
  P.kernel_start = distrt_wtime();
}

void distrt_profile_kernel_end(void) {
  if (!P.on || !P.in_kernel)
    return;
  P.last_kernel = distrt_wtime() - P.kernel_start;
  P.kernel_total += P.last_kernel;
  P.in_kernel = 0;
}

void distrt_profile_call_report(const char *op, distrt_grid *g,
                                const char *name) {
  if (!P.per_call)
    return;
  double mine[4] = {P.last_kernel, P.acc[0] - P.mark[0], P.acc[1] - P.mark[1],
                    P.acc[2] - P.mark[2]};
  double *all = NULL;
  if (g->rank == 0) {
    all = (double *)malloc(sizeof(double) * 4 * (size_t)g->size);
    if (!all)
      distrt_fatal(op, "out of memory gathering the profile");
  }
  if (g->size == 1)
    memcpy(all, mine, sizeof mine);
  else
    distrt_g.be->gather(op, g->icomm, mine, all, 4, DISTRT_F64, 0);
  if (g->rank == 0) {
    for (int64_t r = 0; r < g->size; ++r)
      printf("dist: profile call %lld rank %lld %s: total %.6f compute %.6f "
             "comm %.6f packing %.6f\n",
             (long long)P.calls, (long long)r, name ? name : "kernel",
             all[4 * r], all[4 * r + 1], all[4 * r + 2], all[4 * r + 3]);
    fflush(stdout);
  }
  free(all);
  ++P.calls;
}

void distrt_profile_report(const char *op) {
  /* Every rank takes part when any has profiling on. */
  double on = P.on ? 1.0 : 0.0;
  distrt_g.be->allreduce(op, distrt_g.world, &on, 1, DISTRT_F64, DISTRT_MAX);
  if (on == 0.0)
    return;
  int64_t n = distrt_g.world_size;
  double mine[5];
  mine[0] = P.kernels ? P.kernel_total : distrt_wtime() - P.run_start;
  for (int c = 0; c < DISTRT_PROF_N; ++c)
    mine[1 + c] = P.acc[c];
  mine[4] = P.kernels ? 1.0 : 0.0;
  double *all = NULL;
  if (distrt_g.world_rank == 0) {
    all = (double *)malloc(sizeof(double) * 5 * (size_t)n);
    if (!all)
      distrt_fatal(op, "out of memory gathering the profile");
  }
  if (n == 1)
    memcpy(all, mine, sizeof mine);
  else
    distrt_g.be->gather(op, distrt_g.world, mine, all, 5, DISTRT_F64, 0);
  if (distrt_g.world_rank != 0)
    return;
  fflush(stdout);
  printf("dist: profile: total = %s\n",
         all[4] != 0.0 ? "wall time of the timed computations"
                       : "wall time from distrt_init to distrt_finalize");
  printf("dist: profile: %4s %10s %17s %17s %17s %17s\n", "rank", "total s",
         "compute s", "comm s", "packing s", "other s");
  for (int64_t r = 0; r < n; ++r) {
    const double *v = all + 5 * r;
    double tot = v[0], other = v[0] - v[1] - v[2] - v[3];
    double pct = tot > 0 ? 100.0 / tot : 0.0;
    printf("dist: profile: %4lld %10.6f %10.6f %5.1f%% %10.6f %5.1f%% "
           "%10.6f %5.1f%% %10.6f %5.1f%%\n",
           (long long)r, tot, v[1], v[1] * pct, v[2], v[2] * pct, v[3],
           v[3] * pct, other, other * pct);
  }
  fflush(stdout);
  free(all);
}
