/* distrt-test-profile [whole]: the profile's categories (DISTRT_PROFILE;
 * test/Runtime/profile.test reads the report distrt_finalize prints).
 *
 * One timed computation (distrt_profile_kernel_begin ..
 * distrt_report_time, as generated code marks it): the last rank computes
 * for 0.3 s of wall time in plain C (what generated loops do: no runtime
 * call), then every rank enters a barrier, so the other ranks wait there
 * for about 0.3 s.  The report must charge that wait to "barrier wait",
 * not to communication, and the last rank's 0.3 s to local compute (the
 * time in a computation that no runtime call claims).  With `whole` the
 * computation is not marked: the total is the whole run, compute is the
 * library leaves only and the last rank's loop is "other".
 *
 * DISTRT_PROFILE is set to 1 unless the environment sets it (=calls adds
 * the per-computation lines).  A small allreduce after the barrier gives
 * communication a little time too.
 *
 * With `words`: the word count (distrt_profile_words, the "dist: words"
 * lines).  Every collective, point-to-point and non-blocking operation and
 * two one-sided matrix products are checked exactly against the elements
 * this rank receives (docs/runtime.md#profile gives the conventions); with
 * DISTRT_PROFILE=0 every count is 0.  Then one timed computation (an
 * allgather of 3 and a bcast of 5 from rank 0: 3 (p - 1) words on rank 0,
 * 3 (p - 1) + 5 on the others) for the per-call and summary lines.
 */
#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words of one operation: the change of distrt_profile_words over it. */
static int64_t w0;
static void begin(void) { w0 = distrt_profile_words(); }
static void expect_words(const char *what, int64_t want) {
  int64_t got = distrt_profile_words() - w0;
  EXPECT(got == want, "%s: %lld words on rank %lld, expected %lld", what,
         (long long)got, (long long)tu_rank(), (long long)want);
}

/* A 2-D layout descriptor (abi.h): dimension d blocked over grid axis 0
 * when part[d], else whole. */
static void desc2(int64_t n0, int64_t n1, int p0, int p1, int64_t *d) {
  int64_t n[2] = {n0, n1}, pos = 0;
  int part[2] = {p0, p1};
  d[pos++] = 2;
  for (int i = 0; i < 2; ++i) {
    d[pos++] = n[i];
    d[pos++] = part[i] ? DISTRT_KIND_BLOCKED : DISTRT_KIND_NONE;
    d[pos++] = 0;       /* block */
    d[pos++] = part[i]; /* naxes */
    if (part[i])
      d[pos++] = 0; /* grid axis 0 */
  }
  d[pos++] = 0; /* nfixed */
}

/* C = A * B on the 1-D grid of p ranks (p divides M and N): A (M x K)
 * row-blocked, B (K x N) column-blocked, C row-blocked (stationary C) or
 * column-blocked (stationary A).  Each rank's cells are (i = its rows,
 * j = every column block); it gets the other p - 1 column blocks of B,
 * K x N/p each, and with A stationary pushes the products of its rows with
 * the other ranks' column blocks of C, M/p x N/p each.  The profile counts
 * those plus the window cache's agreement (one allreduce of 2 int64 per
 * window: A and B, or B and C's target). */
static void onesided_words(int on) {
  enum { M = 4, K = 6, N = 8 };
  distrt_grid *g = tu_world();
  int64_t p = tu_size();
  double a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i)
    a[i] = 1.0;
  for (int i = 0; i < K * N; ++i)
    b[i] = 1.0;
  int64_t da[16], db[16], dc[16];
  desc2(M, K, 1, 0, da);
  desc2(K, N, 0, 1, db);
  for (int st = 0; st < 2; ++st) {
    int64_t stationary = st ? DISTRT_STATIONARY_A : DISTRT_STATIONARY_C;
    desc2(M, N, !st, st, dc);
    int64_t gets = (p - 1) * K * (N / p);
    int64_t pushes = st ? (p - 1) * (M / p) * (N / p) : 0;
    int64_t o0 = distrt_onesided_words();
    begin();
    distrt_onesided_matmul(g, DISTRT_F64, da, a, db, b, dc, c, stationary, 0,
                           1, 0);
    int64_t os = distrt_onesided_words() - o0;
    EXPECT(os == gets + pushes,
           "stationary %s: distrt_onesided_words %lld, expected %lld",
           st ? "A" : "C", (long long)os, (long long)(gets + pushes));
    expect_words(st ? "onesided_matmul stationary A"
                    : "onesided_matmul stationary C",
                 on ? os + 2 * 2 : 0);
    int64_t csize = st ? M * (N / p) : (M / p) * N;
    for (int64_t i = 0; i < csize; ++i)
      EXPECT(c[i] == (double)K, "C[%lld] = %g", (long long)i, c[i]);
  }
}

static void words(void) {
  distrt_grid *g = tu_world();
  int64_t r = tu_rank(), p = tu_size(), q = p - 1;
  const char *v = getenv("DISTRT_PROFILE");
  int on = v && *v && strcmp(v, "0") != 0;
  double x[64], y[64];
  for (int i = 0; i < 64; ++i)
    x[i] = (double)(i + r);
  int64_t is_root0 = r == 0, is_last = r == p - 1;
  /* Outside any computation: create the communicators first. */
  distrt_barrier(g, 1);

  begin(), distrt_allgather(g, 1, x, y, 3, DISTRT_F64);
  expect_words("allgather 3", on * 3 * q);
  begin(), distrt_bcast(g, 1, x, 5, DISTRT_F64, 0);
  expect_words("bcast 5 from 0", on * (is_root0 ? 0 : 5));
  begin(), distrt_bcast(g, 1, x, 5, DISTRT_F64, p - 1);
  expect_words("bcast 5 from p-1", on * (is_last ? 0 : 5));
  begin(), distrt_allreduce(g, 1, x, 4, DISTRT_F64, DISTRT_SUM);
  expect_words("allreduce 4", on * (q > 0 ? 4 : 0));
  begin(), distrt_reduce(g, 1, x, 6, DISTRT_F64, DISTRT_SUM, 0);
  expect_words("reduce 6 to 0", on * (q > 0 && is_root0 ? 6 : 0));
  begin(), distrt_gather(g, 1, x, y, 2, DISTRT_F64, p - 1);
  expect_words("gather 2 to p-1", on * (is_last ? 2 * q : 0));
  begin(), distrt_scatter(g, 1, x, y, 3, DISTRT_F64, 0);
  expect_words("scatter 3 from 0", on * (is_root0 ? 0 : 3));
  begin(), distrt_alltoall(g, 1, x, y, 2, DISTRT_F64);
  expect_words("alltoall 2", on * 2 * q);
  begin(), distrt_reduce_scatter(g, 1, x, y, 3, DISTRT_F64, DISTRT_SUM);
  expect_words("reduce_scatter 3", on * 3 * q);
  /* 3p - 1 elements in blocks of 3: the last rank gets 2. */
  begin(), distrt_reduce_scatter_blocks(g, 1, x, 3 * p - 1, y, 3, 3,
                                        DISTRT_F64, DISTRT_SUM);
  expect_words("reduce_scatter_blocks", on * (is_last ? 2 : 3) * q);
  begin(), distrt_shift(g, 0, 1, x, 7, DISTRT_F64);
  expect_words("shift 7", on * (q > 0 ? 7 : 0));
  begin(), distrt_sendrecv(g, x, 4, (r + 1) % p, y, 4, (r + p - 1) % p,
                           DISTRT_F64, 9);
  expect_words("sendrecv 4", on * (q > 0 ? 4 : 0));
  if (p > 1) {
    begin();
    if (r == 0)
      distrt_send(g, x, 3, DISTRT_F64, 1, 5);
    else if (r == 1)
      distrt_recv(g, y, 3, DISTRT_F64, 0, 5);
    expect_words("send/recv 3 from 0 to 1", on * (r == 1 ? 3 : 0));
  }
  begin(), distrt_wait(distrt_ibcast(g, 1, x, 5, DISTRT_F64, 0));
  expect_words("ibcast 5 from 0", on * (is_root0 ? 0 : 5));
  begin(), distrt_wait(distrt_iallreduce(g, 1, x, 2, DISTRT_F64, DISTRT_SUM));
  expect_words("iallreduce 2", on * (q > 0 ? 2 : 0));
  begin(), distrt_wait(distrt_iallgather(g, 1, x, y, 1, DISTRT_F64));
  expect_words("iallgather 1", on * q);
  begin(), distrt_wait(distrt_ishift(g, 0, 1, x, y, 4, DISTRT_F64));
  expect_words("ishift 4", on * (q > 0 ? 4 : 0));
  /* A chain: r sends 3 to r + 1 and receives 3 from r - 1. */
  begin(), distrt_wait(distrt_ipermute(g, x, 3, r + 1 < p ? r + 1 : -1, y, 3,
                                       r > 0 ? r - 1 : -1, DISTRT_F64));
  expect_words("ipermute 3", on * (r > 0 ? 3 : 0));
  tu_section("words per operation on %lld ranks%s", (long long)p,
             on ? "" : " (profile off: 0)");

  if (p == 2 || p == 4) {
    onesided_words(on);
    tu_section("one-sided words on %lld ranks%s", (long long)p,
               on ? "" : " (profile off: 0)");
  }

  /* One timed computation: the per-call and summary lines. */
  distrt_barrier(g, 1);
  distrt_profile_kernel_begin();
  begin();
  distrt_allgather(g, 1, x, y, 3, DISTRT_F64);
  distrt_bcast(g, 1, x, 5, DISTRT_F64, 0);
  distrt_report_time(g, "words", 0.0);
  expect_words("timed computation (and its report)",
               on * (3 * q + (is_root0 ? 0 : 5) + (q > 0 ? 1 : 0)));
  tu_section("a timed computation on %lld ranks", (long long)p);
}

int main(int argc, char **argv) {
  int whole = argc > 1 && strcmp(argv[1], "whole") == 0;
  setenv("DISTRT_PROFILE", "1", 0);
  tu_init("distrt-test-profile");
  if (argc > 1 && strcmp(argv[1], "words") == 0) {
    words();
    return tu_finish();
  }
  distrt_grid *g = tu_world();
  int64_t me = tu_rank(), n = tu_size();
  /* Outside the computation: create the communicator the barrier uses and
   * line the ranks up. */
  distrt_barrier(g, 1);
  distrt_barrier(g, 1);

  if (!whole)
    distrt_profile_kernel_begin();
  double t0 = distrt_wtime();
  volatile double sink = 0;
  if (me == n - 1)
    while (distrt_wtime() - t0 < 0.3) /* local compute: no runtime call */
      sink = sink + 1.0;
  distrt_barrier(g, 1); /* the others wait here for the last rank */
  double x = (double)me;
  distrt_allreduce(g, 1, &x, 1, DISTRT_F64, DISTRT_SUM);
  double t = distrt_wtime() - t0;
  if (!whole)
    distrt_report_time(g, "imbalanced", t);
  EXPECT(x == (double)(n * (n - 1) / 2), "allreduce gave %g", x);
  EXPECT(me != n - 1 || t >= 0.3, "the last rank computed for %g s", t);
  tu_section("an imbalanced computation on %lld ranks%s", (long long)n,
             whole ? " (not marked)" : "");
  return tu_finish();
}
