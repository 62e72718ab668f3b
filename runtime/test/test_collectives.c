/* distrt-test-collectives: every collective (blocking and non-blocking),
 * shifts and point to point, for every dtype and reduction op, over every
 * axis mask of a 1-D and a 2-D grid, with exact expected values computed
 * independently (values are small integers, exact in every dtype). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COUNT = 5, MAXP = 64 };

static const char *op_name(int64_t op) {
  static const char *n[] = {"sum", "prod", "min", "max"};
  return n[op];
}

/* Contribution of world rank r at element i for reduction op. */
static double val(int64_t op, int64_t r, int64_t i) {
  switch (op) {
  case DISTRT_SUM:
    return (double)((r + 1) * 10 + i - 20);
  case DISTRT_PROD:
    return (double)((((r + i) % 2) ? -1 : 1) * (((r + 2 * i) % 3) + 1));
  default:
    return (double)(((r * 7 + i * 3) % 11) - 5);
  }
}

static double fold(int64_t op, double a, double b) {
  switch (op) {
  case DISTRT_SUM:
    return a + b;
  case DISTRT_PROD:
    return a * b;
  case DISTRT_MIN:
    return a < b ? a : b;
  default:
    return a > b ? a : b;
  }
}

static double reduce_ref(int64_t op, const int64_t *members, int64_t m,
                         int64_t i) {
  double acc = val(op, members[0], i);
  for (int64_t j = 1; j < m; ++j)
    acc = fold(op, acc, val(op, members[j], i));
  return acc;
}

/* Element check with a description. */
#define EXPECT_ELEM(buf, dt, idx, want, what)                                  \
  EXPECT(tu_get(buf, dt, idx) == (want),                                       \
         "%s %s axes 0x%llx: element %lld is %g, expected %g", what,           \
         tu_dtype_name(dt), (unsigned long long)mask, (long long)(idx),        \
         tu_get(buf, dt, idx), (double)(want))

static void test_mask(distrt_grid *g, int64_t ndims, const int64_t *dims,
                      int64_t mask) {
  int64_t me = tu_rank();
  int64_t members[MAXP];
  int64_t m = tu_members(ndims, dims, me, mask, members);
  int64_t pos = 0;
  while (members[pos] != me)
    ++pos;
  char *a = calloc(MAXP * COUNT, 8), *b = calloc(MAXP * COUNT, 8);

  for (int64_t dt = 0; dt < 4; ++dt) {
    for (int64_t op = 0; op < 4; ++op) {
      char w_ar[32], w_iar[32], w_red[32], w_rs[32];
      snprintf(w_ar, sizeof w_ar, "allreduce %s", op_name(op));
      snprintf(w_iar, sizeof w_iar, "iallreduce %s", op_name(op));
      snprintf(w_red, sizeof w_red, "reduce %s", op_name(op));
      snprintf(w_rs, sizeof w_rs, "reduce_scatter %s", op_name(op));
      /* allreduce */
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(a, dt, i, val(op, me, i));
      distrt_allreduce(g, mask, a, COUNT, dt, op);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(a, dt, i, reduce_ref(op, members, m, i), w_ar);
      /* iallreduce */
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(b, dt, i, val(op, me, i));
      int64_t req = distrt_iallreduce(g, mask, b, COUNT, dt, op);
      EXPECT(req > 0, "iallreduce request id %lld", (long long)req);
      distrt_wait(req);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, i, reduce_ref(op, members, m, i), w_iar);
      /* reduce to the first and the last rank of the group */
      for (int64_t root = 0; root < m; root += (m > 1 ? m - 1 : 1)) {
        for (int64_t i = 0; i < COUNT; ++i)
          tu_set(a, dt, i, val(op, me, i));
        distrt_reduce(g, mask, a, COUNT, dt, op, root);
        for (int64_t i = 0; i < COUNT; ++i)
          EXPECT_ELEM(a, dt, i,
                      pos == root ? reduce_ref(op, members, m, i)
                                  : val(op, me, i),
                      w_red);
      }
      /* reduce_scatter */
      for (int64_t i = 0; i < m * COUNT; ++i)
        tu_set(a, dt, i, val(op, me, i));
      memset(b, 0, MAXP * COUNT * 8);
      distrt_reduce_scatter(g, mask, a, b, COUNT, dt, op);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, i, reduce_ref(op, members, m, pos * COUNT + i),
                    w_rs);
      /* reduce_scatter_blocks: n elements in blocks of `blk` (the last
       * pieces shorter, or empty when the blocks outnumber what is left) */
      for (int64_t blk = COUNT; blk >= 1 && blk * m >= 1; blk = blk / 2) {
        int64_t n = blk * m - (m > 1 ? blk / 2 + 1 : 0);
        if (n < 1)
          n = 1;
        for (int64_t i = 0; i < n; ++i)
          tu_set(a, dt, i, val(op, me, i));
        memset(b, 0, MAXP * COUNT * 8);
        int64_t lo = pos * blk, len = n - lo < blk ? n - lo : blk;
        if (len < 0)
          len = 0;
        distrt_reduce_scatter_blocks(g, mask, a, n, b, blk, blk, dt, op);
        for (int64_t i = 0; i < len; ++i)
          EXPECT_ELEM(b, dt, i, reduce_ref(op, members, m, lo + i),
                      "reduce_scatter_blocks");
        if (blk == 1)
          break;
      }
    }

    for (int64_t root = 0; root < m; root += (m > 1 ? m - 1 : 1)) {
      /* bcast */
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(a, dt, i, val(DISTRT_SUM, me, i));
      distrt_bcast(g, mask, a, COUNT, dt, root);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(a, dt, i, val(DISTRT_SUM, members[root], i), "bcast");
      /* ibcast */
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(b, dt, i, val(DISTRT_SUM, me, i));
      int64_t req = distrt_ibcast(g, mask, b, COUNT, dt, root);
      distrt_wait(req);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, i, val(DISTRT_SUM, members[root], i), "ibcast");
      /* gather (recv may be NULL off root) */
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(a, dt, i, val(DISTRT_SUM, me, i));
      memset(b, 0, MAXP * COUNT * 8);
      distrt_gather(g, mask, a, pos == root ? b : NULL, COUNT, dt, root);
      if (pos == root)
        for (int64_t j = 0; j < m; ++j)
          for (int64_t i = 0; i < COUNT; ++i)
            EXPECT_ELEM(b, dt, j * COUNT + i, val(DISTRT_SUM, members[j], i),
                        "gather");
      /* scatter (send may be NULL off root) */
      for (int64_t i = 0; i < m * COUNT; ++i)
        tu_set(a, dt, i, (double)(100 * (i / COUNT) + i % COUNT + 7));
      memset(b, 0, MAXP * COUNT * 8);
      distrt_scatter(g, mask, pos == root ? a : NULL, b, COUNT, dt, root);
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, i, (double)(100 * pos + i + 7), "scatter");
    }

    /* allgather */
    for (int64_t i = 0; i < COUNT; ++i)
      tu_set(a, dt, i, val(DISTRT_SUM, me, i));
    memset(b, 0, MAXP * COUNT * 8);
    distrt_allgather(g, mask, a, b, COUNT, dt);
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, j * COUNT + i, val(DISTRT_SUM, members[j], i),
                    "allgather");
    /* alltoall */
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < COUNT; ++i)
        tu_set(a, dt, j * COUNT + i, (double)(1000 * me + 100 * j + i));
    memset(b, 0, MAXP * COUNT * 8);
    distrt_alltoall(g, mask, a, b, COUNT, dt);
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < COUNT; ++i)
        EXPECT_ELEM(b, dt, j * COUNT + i,
                    (double)(1000 * members[j] + 100 * pos + i), "alltoall");
  }

  /* zero-sized operations and the barrier */
  distrt_allreduce(g, mask, NULL, 0, DISTRT_F64, DISTRT_SUM);
  distrt_bcast(g, mask, NULL, 0, DISTRT_I32, 0);
  distrt_allgather(g, mask, NULL, NULL, 0, DISTRT_F32);
  distrt_barrier(g, mask);

  free(a);
  free(b);
}

static int64_t rank_at(int64_t ndims, const int64_t *dims, const int64_t *c) {
  int64_t r = 0;
  for (int64_t i = 0; i < ndims; ++i)
    r = r * dims[i] + c[i];
  return r;
}

static void test_shifts(distrt_grid *g, int64_t ndims, const int64_t *dims) {
  int64_t me = tu_rank();
  int64_t coords[8], c[8];
  tu_coords(ndims, dims, me, coords);
  for (int64_t axis = 0; axis < ndims; ++axis) {
    int64_t disps[] = {1, -1, 0, 2, -3, dims[axis] + 1, 7};
    for (int k = 0; k < 7; ++k) {
      int64_t disp = disps[k];
      memcpy(c, coords, sizeof c);
      int64_t dim = dims[axis];
      c[axis] = ((coords[axis] + disp) % dim + dim) % dim;
      int64_t src = rank_at(ndims, dims, c);
      for (int64_t dt = 0; dt < 4; ++dt) {
        double buf[COUNT], send[COUNT], recv[COUNT];
        for (int64_t i = 0; i < COUNT; ++i) {
          tu_set(buf, dt, i, (double)(me * 100 + i));
          tu_set(send, dt, i, (double)(me * 100 + i + 50));
          tu_set(recv, dt, i, -1.0);
        }
        distrt_shift(g, axis, disp, buf, COUNT, dt);
        int64_t req = distrt_ishift(g, axis, disp, send, recv, COUNT, dt);
        distrt_wait(req);
        for (int64_t i = 0; i < COUNT; ++i) {
          EXPECT(tu_get(buf, dt, i) == (double)(src * 100 + i),
                 "shift axis %lld disp %lld %s: element %lld is %g, expected "
                 "%g",
                 (long long)axis, (long long)disp, tu_dtype_name(dt),
                 (long long)i, tu_get(buf, dt, i), (double)(src * 100 + i));
          EXPECT(tu_get(recv, dt, i) == (double)(src * 100 + i + 50),
                 "ishift axis %lld disp %lld %s: element %lld is %g",
                 (long long)axis, (long long)disp, tu_dtype_name(dt),
                 (long long)i, tu_get(recv, dt, i));
          EXPECT(tu_get(send, dt, i) == (double)(me * 100 + i + 50),
                 "ishift modified its send buffer");
        }
      }
    }
  }
}

/* Several non-blocking operations in flight at once, completed out of
 * order and with waitall. */
static void test_overlap(distrt_grid *g, int64_t ndims, const int64_t *dims) {
  int64_t me = tu_rank(), n = tu_size();
  int64_t coords[8], c[8];
  tu_coords(ndims, dims, me, coords);
  int64_t all = ((int64_t)1 << ndims) - 1;
  int64_t sum = me, bc = me * 3, sh_send[3] = {me, me + 1, me + 2}, sh[3];
  double prod = 2.0;
  /* iallgather of (me, -me) over all axes, ipermute to the next grid rank
   * (a rank of a 1-process grid permutes with itself). */
  int64_t ag_send[2] = {me, -me}, ag[2 * MAXP], pm_send[2] = {7 * me, 1},
          pm[2] = {-1, -1};
  int64_t pnext = (me + 1) % n, pprev = (me + n - 1) % n;
  int64_t r5 = distrt_iallgather(g, all, ag_send, ag, 2, DISTRT_I64);
  int64_t r6 = distrt_ipermute(g, pm_send, 2, pnext, pm, 2, pprev, DISTRT_I64);
  int64_t r1 = distrt_iallreduce(g, all, &sum, 1, DISTRT_I64, DISTRT_SUM);
  int64_t r2 = distrt_ibcast(g, all, &bc, 1, DISTRT_I64, n - 1);
  int64_t r3 = distrt_ishift(g, 0, 1, sh_send, sh, 3, DISTRT_I64);
  int64_t r4 = distrt_iallreduce(g, all, &prod, 1, DISTRT_F64, DISTRT_PROD);
  EXPECT(r1 > 0 && r2 > 0 && r3 > 0 && r4 > 0 && r1 != r2 && r2 != r3 &&
             r3 != r4,
         "request ids %lld %lld %lld %lld", (long long)r1, (long long)r2,
         (long long)r3, (long long)r4);
  distrt_wait(r3);
  distrt_wait(r1);
  distrt_wait(r6);
  distrt_wait(r5);
  distrt_waitall(); /* r2, r4 */
  for (int64_t p = 0; p < n; ++p)
    EXPECT(ag[2 * p] == p && ag[2 * p + 1] == -p,
           "overlapped iallgather: piece %lld is %lld %lld", (long long)p,
           (long long)ag[2 * p], (long long)ag[2 * p + 1]);
  EXPECT(pm[0] == 7 * pprev && pm[1] == 1,
         "overlapped ipermute: %lld %lld, expected from %lld", (long long)pm[0],
         (long long)pm[1], (long long)pprev);
  memcpy(c, coords, sizeof c);
  c[0] = (coords[0] + 1) % dims[0];
  int64_t src = rank_at(ndims, dims, c);
  EXPECT(sum == n * (n - 1) / 2, "overlapped iallreduce: %lld", (long long)sum);
  EXPECT(bc == (n - 1) * 3, "overlapped ibcast: %lld", (long long)bc);
  EXPECT(sh[0] == src && sh[1] == src + 1 && sh[2] == src + 2,
         "overlapped ishift: %lld %lld %lld, expected from %lld",
         (long long)sh[0], (long long)sh[1], (long long)sh[2], (long long)src);
  EXPECT(prod == (double)(1LL << n), "overlapped iallreduce prod: %g", prod);
  distrt_waitall(); /* nothing outstanding: no-op */
}

static void test_p2p(distrt_grid *g) {
  int64_t me = tu_rank(), n = tu_size();
  if (n == 1) {
    /* send to self with sendrecv */
    double s[3] = {1, 2, 3}, r[3] = {0};
    distrt_sendrecv(g, s, 3, 0, r, 3, 0, DISTRT_F64, 4);
    EXPECT(r[0] == 1 && r[1] == 2 && r[2] == 3, "sendrecv to self");
    return;
  }
  int64_t next = (me + 1) % n, prev = (me + n - 1) % n;
  /* ring with send / recv; two tags received in the opposite order */
  int32_t out[4] = {(int32_t)me, 10, 20, 30}, in[4] = {-1, -1, -1, -1};
  int64_t out2 = 1000 + me, in2 = -1;
  if (me % 2 == 0) {
    distrt_send(g, out, 4, DISTRT_I32, next, 3);
    distrt_send(g, &out2, 1, DISTRT_I64, next, 9);
    distrt_recv(g, &in2, 1, DISTRT_I64, prev, 9);
    distrt_recv(g, in, 4, DISTRT_I32, prev, 3);
  } else {
    distrt_recv(g, &in2, 1, DISTRT_I64, prev, 9);
    distrt_recv(g, in, 4, DISTRT_I32, prev, 3);
    distrt_send(g, out, 4, DISTRT_I32, next, 3);
    distrt_send(g, &out2, 1, DISTRT_I64, next, 9);
  }
  EXPECT(in[0] == prev && in[1] == 10 && in[3] == 30, "recv from %lld: %d",
         (long long)prev, (int)in[0]);
  EXPECT(in2 == 1000 + prev, "recv tag 9 from %lld: %lld", (long long)prev,
         (long long)in2);
  /* sendrecv ring in the other direction */
  float fs[2] = {(float)me, (float)(2 * me)}, fr[2] = {-1, -1};
  distrt_sendrecv(g, fs, 2, prev, fr, 2, next, DISTRT_F32, 0);
  EXPECT(fr[0] == (float)next && fr[1] == (float)(2 * next),
         "sendrecv from %lld: %g %g", (long long)next, (double)fr[0],
         (double)fr[1]);
}

int main(void) {
  tu_init("distrt-test-collectives");
  int64_t n = tu_size();
  if (n > MAXP) {
    printf("FAIL too many ranks\n");
    return 1;
  }

  int64_t d1[1] = {n};
  distrt_grid *g1 = distrt_grid_create1(n);
  for (int64_t mask = 0; mask < 2; ++mask) {
    test_mask(g1, 1, d1, mask);
    tu_section("collectives grid %lld axes 0x%llx", (long long)n,
               (unsigned long long)mask);
  }
  test_shifts(g1, 1, d1);
  tu_section("shift/ishift grid %lld", (long long)n);

  int64_t d2[2] = {n % 2 == 0 ? n / 2 : n, n % 2 == 0 ? 2 : 1};
  distrt_grid *g2 = distrt_grid_create2(d2[0], d2[1]);
  for (int64_t mask = 0; mask < 4; ++mask) {
    test_mask(g2, 2, d2, mask);
    tu_section("collectives grid %lldx%lld axes 0x%llx", (long long)d2[0],
               (long long)d2[1], (unsigned long long)mask);
  }
  test_shifts(g2, 2, d2);
  tu_section("shift/ishift grid %lldx%lld", (long long)d2[0],
             (long long)d2[1]);

  test_overlap(g2, 2, d2);
  tu_section("overlapping non-blocking operations");
  test_p2p(g1);
  tu_section("point to point");

  /* Leave a request outstanding: distrt_finalize must complete it. */
  static int64_t pending = 1;
  distrt_iallreduce(g1, 1, &pending, 1, DISTRT_I64, DISTRT_SUM);
  return tu_finish();
}
