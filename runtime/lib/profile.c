/*===- profile.c - where the time goes (DISTRT_PROFILE=1) -------*- C -*-===*
 *
 * With DISTRT_PROFILE set to anything but "" or "0", every public entry
 * point that computes in a library leaf, communicates, waits at a barrier
 * or packs charges its wall time to one category (DISTRT_PROF_*).  Regions
 * nest (distrt_fetch_box packs and then calls the backend's alltoallv):
 * time is charged to the innermost open region only, so the categories
 * never count a second twice.  Barriers are their own category: the time a
 * process waits there is the other processes' lead (load imbalance), not
 * the cost of moving data.
 *
 * Computations lowered with `timing` mark their extent
 * (distrt_profile_kernel_begin, and distrt_report_time ends it); when any
 * did, only time inside them counts, the total is their summed wall time
 * on this rank, and the time inside them that no region claims is local
 * compute: the generated loops (scalar leaves, zeroing, the Khatri-Rao
 * product) run between the runtime's calls, so compute = total - comm -
 * barrier wait - packing (library leaves included).  Otherwise the total
 * is the time from distrt_init to distrt_finalize, compute is the library
 * leaves only, and what no region claims is "other" (set-up, fills, I/O,
 * generated code, anything between calls).  distrt_finalize prints one line
 * per rank (rank 0 gathers); with DISTRT_PROFILE=calls, every timed
 * computation also prints one line per rank when it ends.
 *
 * Words: the same wrappers count the elements each rank moves (P.words,
 * distrt_profile_words): what it receives from other processes
 * (collectives by the data a rank receives: the wrappers below,
 * docs/runtime.md#profile) plus, one-sided, what it gets (rget) and what it
 * pushes (raccumulate).  Integer adds only.  The profile's own gathers (the
 * reports) are not counted.  With DISTRT_PROFILE=calls each per-call line
 * is followed by "dist: words call N rank R NAME: W"; the summary ends
 * with "dist: words rank R: W" lines.
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
  /* Words (elements) this rank moved: since distrt_init (`words`), at the
   * start of the current computation (`word_mark`), in the last one and in
   * all of them (`last_words`, `kernel_words`). */
  int64_t words, word_mark, last_words, kernel_words;
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

/*===-- communication: a backend table that times and counts transfers ----===*/

static const struct distrt_backend *real;
static struct distrt_backend timed;

/* Words per operation: the elements this rank receives from the other
 * members of c (p = comm_size(c)).  allreduce counts `count`, a lower
 * bound (ring and recursive-doubling algorithms move up to 2x); reduce
 * counts `count` on the root; reduce-scatter `count` from each other
 * member.  A communicator of one process moves nothing. */
static int64_t others(distrt_bcomm *c) { return real->comm_size(c) - 1; }
static int is_me(distrt_bcomm *c, int64_t r) { return real->comm_rank(c) == r; }

static void prof_allreduce(const char *op, distrt_bcomm *c, void *buf,
                           int64_t count, int64_t dtype, int64_t rop) {
  if (others(c) > 0)
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->allreduce(op, c, buf, count, dtype, rop);
  distrt_profile_leave();
}

static void prof_reduce(const char *op, distrt_bcomm *c, void *buf,
                        int64_t count, int64_t dtype, int64_t rop,
                        int64_t root) {
  if (others(c) > 0 && is_me(c, root))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->reduce(op, c, buf, count, dtype, rop, root);
  distrt_profile_leave();
}

static void prof_bcast(const char *op, distrt_bcomm *c, void *buf,
                       int64_t count, int64_t dtype, int64_t root) {
  if (!is_me(c, root))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->bcast(op, c, buf, count, dtype, root);
  distrt_profile_leave();
}

static void prof_allgather(const char *op, distrt_bcomm *c, const void *send,
                           void *recv, int64_t count, int64_t dtype) {
  P.words += count * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->allgather(op, c, send, recv, count, dtype);
  distrt_profile_leave();
}

static void prof_reduce_scatter(const char *op, distrt_bcomm *c,
                                const void *send, void *recv, int64_t count,
                                int64_t dtype, int64_t rop) {
  P.words += count * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->reduce_scatter(op, c, send, recv, count, dtype, rop);
  distrt_profile_leave();
}

static void prof_reduce_scatter_v(const char *op, distrt_bcomm *c,
                                  const void *send, void *recv,
                                  const int64_t *counts, int64_t dtype,
                                  int64_t rop) {
  P.words += counts[real->comm_rank(c)] * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->reduce_scatter_v(op, c, send, recv, counts, dtype, rop);
  distrt_profile_leave();
}

static void prof_alltoall(const char *op, distrt_bcomm *c, const void *send,
                          void *recv, int64_t count, int64_t dtype) {
  P.words += count * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->alltoall(op, c, send, recv, count, dtype);
  distrt_profile_leave();
}

static void prof_alltoallv(const char *op, distrt_bcomm *c, const void *send,
                           const int64_t *scounts, void *recv,
                           const int64_t *rcounts, int64_t dtype) {
  for (int64_t i = 0, n = real->comm_size(c), me = real->comm_rank(c); i < n;
       ++i)
    if (i != me)
      P.words += rcounts[i];
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->alltoallv(op, c, send, scounts, recv, rcounts, dtype);
  distrt_profile_leave();
}

static void prof_gather(const char *op, distrt_bcomm *c, const void *send,
                        void *recv, int64_t count, int64_t dtype,
                        int64_t root) {
  if (is_me(c, root))
    P.words += count * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->gather(op, c, send, recv, count, dtype, root);
  distrt_profile_leave();
}

static void prof_scatter(const char *op, distrt_bcomm *c, const void *send,
                         void *recv, int64_t count, int64_t dtype,
                         int64_t root) {
  if (!is_me(c, root))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->scatter(op, c, send, recv, count, dtype, root);
  distrt_profile_leave();
}

/* Waiting at a barrier is waiting for the slowest process: its own
 * category, not communication. */
static void prof_barrier(const char *op, distrt_bcomm *c) {
  distrt_profile_enter(DISTRT_PROF_BARRIER);
  real->barrier(op, c);
  distrt_profile_leave();
}

/* Creating a communicator is collective over its members. */
static distrt_bcomm *prof_comm_dup(const char *op, distrt_bcomm *parent) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_bcomm *c = real->comm_dup(op, parent);
  distrt_profile_leave();
  return c;
}

static distrt_bcomm *prof_comm_subset(const char *op, distrt_bcomm *parent,
                                      int64_t n, const int64_t *ranks,
                                      int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_bcomm *c = real->comm_subset(op, parent, n, ranks, tag);
  distrt_profile_leave();
  return c;
}

static void prof_send(const char *op, distrt_bcomm *c, const void *buf,
                      int64_t count, int64_t dtype, int64_t dest, int64_t tag) {
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->send(op, c, buf, count, dtype, dest, tag);
  distrt_profile_leave();
}

static void prof_recv(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                      int64_t dtype, int64_t src, int64_t tag) {
  if (!is_me(c, src))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->recv(op, c, buf, count, dtype, src, tag);
  distrt_profile_leave();
}

static void prof_sendrecv(const char *op, distrt_bcomm *c, const void *send,
                          int64_t scount, int64_t dest, void *recv,
                          int64_t rcount, int64_t src, int64_t dtype,
                          int64_t tag) {
  if (!is_me(c, src))
    P.words += rcount;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->sendrecv(op, c, send, scount, dest, recv, rcount, src, dtype, tag);
  distrt_profile_leave();
}

static void prof_sendrecv_replace(const char *op, distrt_bcomm *c, void *buf,
                                  int64_t count, int64_t dtype, int64_t dest,
                                  int64_t src, int64_t tag) {
  if (!is_me(c, src))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  real->sendrecv_replace(op, c, buf, count, dtype, dest, src, tag);
  distrt_profile_leave();
}

static distrt_breq *prof_ibcast(const char *op, distrt_bcomm *c, void *buf,
                                int64_t count, int64_t dtype, int64_t root) {
  if (!is_me(c, root))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->ibcast(op, c, buf, count, dtype, root);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_iallreduce(const char *op, distrt_bcomm *c, void *buf,
                                    int64_t count, int64_t dtype, int64_t rop) {
  if (others(c) > 0)
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->iallreduce(op, c, buf, count, dtype, rop);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_isendrecv(const char *op, distrt_bcomm *c,
                                   const void *send, int64_t dest, void *recv,
                                   int64_t src, int64_t count, int64_t dtype,
                                   int64_t tag) {
  if (!is_me(c, src))
    P.words += count;
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r =
      real->isendrecv(op, c, send, dest, recv, src, count, dtype, tag);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_iallgather(const char *op, distrt_bcomm *c,
                                    const void *send, void *recv, int64_t count,
                                    int64_t dtype) {
  P.words += count * others(c);
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_breq *r = real->iallgather(op, c, send, recv, count, dtype);
  distrt_profile_leave();
  return r;
}

static distrt_breq *prof_ipermute(const char *op, distrt_bcomm *c,
                                  const void *send, int64_t scount,
                                  int64_t dest, void *recv, int64_t rcount,
                                  int64_t src, int64_t dtype, int64_t tag) {
  if (src >= 0 && !is_me(c, src))
    P.words += rcount;
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

/* One-sided: the callers (onesided_exec.c) charge these to DISTRT_PROF_COMM
 * themselves and never target their own rank (local blocks are used in
 * place); the wrappers only count. */
static distrt_breq *prof_rget(const char *op, distrt_bwin *w, void *dst,
                              int64_t rows, int64_t cols, int64_t dtype,
                              int64_t target, int64_t disp, int64_t ld) {
  P.words += rows * cols;
  return real->rget(op, w, dst, rows, cols, dtype, target, disp, ld);
}

static distrt_breq *prof_raccumulate(const char *op, distrt_bwin *w,
                                     const void *src, int64_t rows,
                                     int64_t cols, int64_t dtype,
                                     int64_t target, int64_t disp, int64_t ld) {
  P.words += rows * cols;
  return real->raccumulate(op, w, src, rows, cols, dtype, target, disp, ld);
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
  timed.reduce_scatter_v = prof_reduce_scatter_v;
  timed.alltoall = prof_alltoall;
  timed.alltoallv = prof_alltoallv;
  timed.gather = prof_gather;
  timed.scatter = prof_scatter;
  timed.barrier = prof_barrier;
  timed.comm_dup = prof_comm_dup;
  timed.comm_subset = prof_comm_subset;
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
  if (be->rget)
    timed.rget = prof_rget;
  if (be->raccumulate)
    timed.raccumulate = prof_raccumulate;
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
  P.word_mark = P.words;
  P.kernel_start = distrt_wtime();
}

void distrt_profile_kernel_end(void) {
  if (!P.on || !P.in_kernel)
    return;
  P.last_kernel = distrt_wtime() - P.kernel_start;
  P.kernel_total += P.last_kernel;
  P.last_words = P.words - P.word_mark;
  P.kernel_words += P.last_words;
  P.in_kernel = 0;
}

int64_t distrt_profile_words(void) { return P.on ? P.words : 0; }

/* One rank's split of `total` seconds, from the seconds `v` charged to
 * each category (DISTRT_PROF_*).  Inside timed computations (`kernels`)
 * the time no category claims is local compute; otherwise it is "other". */
struct prof_split {
  double total, compute, comm, barrier, pack, other, gemm;
};

static struct prof_split split_of(double total, const double *v,
                                  int kernels) {
  struct prof_split s;
  s.total = total;
  s.gemm = v[DISTRT_PROF_GEMM];
  s.comm = v[DISTRT_PROF_COMM];
  s.barrier = v[DISTRT_PROF_BARRIER];
  s.pack = v[DISTRT_PROF_PACK];
  double rest = total - s.gemm - s.comm - s.barrier - s.pack;
  if (rest < 0) /* clock granularity */
    rest = 0;
  s.compute = kernels ? s.gemm + rest : s.gemm;
  s.other = kernels ? 0 : rest;
  return s;
}

void distrt_profile_call_report(const char *op, distrt_grid *g,
                                const char *name) {
  if (!P.per_call)
    return;
  /* Per rank: the wall time, the categories, the words (exact as a double
   * below 2^53). */
  enum { N = 2 + DISTRT_PROF_N };
  double mine[N];
  mine[0] = P.last_kernel;
  for (int c = 0; c < DISTRT_PROF_N; ++c)
    mine[1 + c] = P.acc[c] - P.mark[c];
  mine[1 + DISTRT_PROF_N] = (double)P.last_words;
  const int n = N;
  double *all = NULL;
  if (g->rank == 0) {
    all = (double *)malloc(sizeof(double) * n * (size_t)g->size);
    if (!all)
      distrt_fatal(op, "out of memory gathering the profile");
  }
  int64_t words = P.words; /* the report's own gather is not counted */
  if (g->size == 1)
    memcpy(all, mine, sizeof mine);
  else
    distrt_g.be->gather(op, g->icomm, mine, all, n, DISTRT_F64, 0);
  P.words = words;
  if (g->rank == 0) {
    const char *nm = name ? name : "kernel";
    for (int64_t r = 0; r < g->size; ++r) {
      const double *v = all + n * r;
      struct prof_split s = split_of(v[0], v + 1, 1);
      printf("dist: profile call %lld rank %lld %s: total %.6f compute %.6f "
             "comm %.6f barrier %.6f packing %.6f gemm %.6f\n",
             (long long)P.calls, (long long)r, nm, s.total, s.compute, s.comm,
             s.barrier, s.pack, s.gemm);
      printf("dist: words call %lld rank %lld %s: %lld\n", (long long)P.calls,
             (long long)r, nm, (long long)v[1 + DISTRT_PROF_N]);
    }
    fflush(stdout);
  }
  free(all);
  ++P.calls;
}

void distrt_profile_report(const char *op) {
  /* Every rank takes part when any has profiling on. */
  double on = P.on ? 1.0 : 0.0;
  int64_t words = P.words; /* the report's own traffic is not counted */
  distrt_g.be->allreduce(op, distrt_g.world, &on, 1, DISTRT_F64, DISTRT_MAX);
  P.words = words;
  if (on == 0.0)
    return;
  int64_t nr = distrt_g.world_size;
  /* Per rank: total, the categories, the mode, the words. */
  enum { N = 3 + DISTRT_PROF_N };
  const int n = N;
  double mine[N];
  mine[0] = P.kernels ? P.kernel_total : distrt_wtime() - P.run_start;
  for (int c = 0; c < DISTRT_PROF_N; ++c)
    mine[1 + c] = P.acc[c];
  mine[1 + DISTRT_PROF_N] = P.kernels ? 1.0 : 0.0;
  mine[2 + DISTRT_PROF_N] = (double)(P.kernels ? P.kernel_words : P.words);
  double *all = NULL;
  if (distrt_g.world_rank == 0) {
    all = (double *)malloc(sizeof(double) * n * (size_t)nr);
    if (!all)
      distrt_fatal(op, "out of memory gathering the profile");
  }
  if (nr == 1)
    memcpy(all, mine, sizeof mine);
  else
    distrt_g.be->gather(op, distrt_g.world, mine, all, n, DISTRT_F64, 0);
  P.words = words;
  if (distrt_g.world_rank != 0)
    return;
  /* Rank 0's mode decides the columns (every rank runs the same
   * computations, so all agree). */
  int kernels = all[1 + DISTRT_PROF_N] != 0.0;
  fflush(stdout);
  if (kernels)
    printf("dist: profile: total = wall time of the timed computations; "
           "compute = the rest of it (generated loops and library leaves)\n");
  else
    printf("dist: profile: total = wall time from distrt_init to "
           "distrt_finalize; compute = library leaves (GEMM), other = the "
           "rest\n");
  printf("dist: profile: %4s %10s %17s %17s %17s %17s%s\n", "rank",
         "total s", "compute s", "comm s", "barrier wait s", "packing s",
         kernels ? "" : "           other s");
  for (int64_t r = 0; r < nr; ++r) {
    const double *v = all + n * r;
    struct prof_split s = split_of(v[0], v + 1, kernels);
    double pct = s.total > 0 ? 100.0 / s.total : 0.0;
    printf("dist: profile: %4lld %10.6f %10.6f %5.1f%% %10.6f %5.1f%% "
           "%10.6f %5.1f%% %10.6f %5.1f%%",
           (long long)r, s.total, s.compute, s.compute * pct, s.comm,
           s.comm * pct, s.barrier, s.barrier * pct, s.pack, s.pack * pct);
    if (!kernels)
      printf(" %10.6f %5.1f%%", s.other, s.other * pct);
    printf("\n");
  }
  /* The words, over the same extent as the total (separate lines: the
   * table's rows keep their columns). */
  printf("dist: words: elements each rank received from others (+ one-sided "
         "accumulates pushed), %s\n",
         kernels ? "in the timed computations" : "from distrt_init on");
  for (int64_t r = 0; r < nr; ++r)
    printf("dist: words rank %lld: %lld\n", (long long)r,
           (long long)all[n * r + 2 + DISTRT_PROF_N]);
  fflush(stdout);
  free(all);
}
