/* distrt-test-nccl: the device-memory path of the runtime.  The same program
 * runs on the MPI backend (device memory is host memory) and on the NCCL
 * backend (the real plugin on a GPU, or libdistrt_nccl_emu.so on the host
 * emulation).  Every buffer handed to a transfer or a leaf is device memory
 * (distrt_device_alloc); data goes in and out through
 * distrt_copy_to_device / distrt_copy_from_device only.  Expected values are
 * computed here, independently: element i of world rank r is v(r, i) =
 * 10 (r + 1) + i, so reductions are closed-form sums / maxima over the
 * group's members (tu_members), exact in every dtype.
 *
 *   distrt-test-nccl          every section below
 *   distrt-test-nccl guard    writes to device memory from the host: the
 *                             emulation faults (SIGSEGV); host memory
 *                             (the MPI backend) does not
 *   distrt-test-nccl mixed    a transfer of a host buffer into a device
 *                             buffer: fatal on the NCCL backend */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COUNT = 6, MAXP = 64 };

static double v(int64_t r, int64_t i) { return (double)(10 * (r + 1) + i); }

static void *dalloc(int64_t bytes) { return distrt_device_alloc(bytes); }

/* Host <-> device helpers on a typed host staging buffer. */
static void put(void *dev, int64_t dt, int64_t n, double (*f)(int64_t, int64_t),
                int64_t r) {
  char host[MAXP * COUNT * 8];
  for (int64_t i = 0; i < n; ++i)
    tu_set(host, dt, i, f(r, i));
  distrt_copy_to_device(dev, host, n * tu_esize(dt));
}

static double zero(int64_t r, int64_t i) {
  (void)r;
  (void)i;
  return 0;
}

static void get(void *host, const void *dev, int64_t dt, int64_t n) {
  distrt_copy_from_device(host, dev, n * tu_esize(dt));
}

#define CHECK(buf, dt, i, want, what)                                          \
  EXPECT(tu_get(buf, dt, i) == (want),                                         \
         "%s %s axes 0x%llx: element %lld is %g, expected %g", what,           \
         tu_dtype_name(dt), (unsigned long long)mask, (long long)(i),          \
         tu_get(buf, dt, i), (double)(want))

/* Every collective over `mask`, for every dtype. */
static void collectives(distrt_grid *g, int64_t nd, const int64_t *dims,
                        int64_t mask) {
  int64_t me = tu_rank(), mem[MAXP];
  int64_t m = tu_members(nd, dims, me, mask, mem), pos = 0;
  while (mem[pos] != me)
    ++pos;
  double sumr = 0, maxr = 0; /* sum / max of 10 (r + 1) over the members */
  for (int64_t j = 0; j < m; ++j) {
    sumr += 10.0 * (double)(mem[j] + 1);
    maxr =
        10.0 * (double)(mem[j] + 1) > maxr ? 10.0 * (double)(mem[j] + 1) : maxr;
  }
  void *a = dalloc(MAXP * COUNT * 8), *b = dalloc(MAXP * COUNT * 8);
  char h[MAXP * COUNT * 8];
  int64_t root = m - 1;
  for (int64_t dt = 0; dt < 4; ++dt) {
    put(a, dt, COUNT, v, me);
    distrt_allreduce(g, mask, a, COUNT, dt, DISTRT_SUM);
    get(h, a, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, sumr + (double)(m * i), "allreduce sum");
    put(a, dt, COUNT, v, me);
    distrt_allreduce(g, mask, a, COUNT, dt, DISTRT_MAX);
    get(h, a, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, maxr + (double)i, "allreduce max");
    put(a, dt, COUNT, v, me);
    distrt_reduce(g, mask, a, COUNT, dt, DISTRT_SUM, root);
    get(h, a, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, pos == root ? sumr + (double)(m * i) : v(me, i),
            "reduce");
    put(a, dt, COUNT, v, me);
    distrt_bcast(g, mask, a, COUNT, dt, root);
    get(h, a, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, v(mem[root], i), "bcast");
    put(a, dt, COUNT, v, me);
    distrt_allgather(g, mask, a, b, COUNT, dt);
    get(h, b, dt, m * COUNT);
    for (int64_t i = 0; i < m * COUNT; ++i)
      CHECK(h, dt, i, v(mem[i / COUNT], i % COUNT), "allgather");
    put(a, dt, m * COUNT, v, me);
    distrt_reduce_scatter(g, mask, a, b, COUNT, dt, DISTRT_SUM);
    get(h, b, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, sumr + (double)(m * (pos * COUNT + i)), "reduce_scatter");
    /* reduce_scatter_blocks: uneven pieces (the backend's -v form) */
    int64_t n = m * COUNT - (m > 1 ? 2 : 0), lo = pos * COUNT;
    int64_t len = n - lo < COUNT ? (n - lo > 0 ? n - lo : 0) : COUNT;
    put(a, dt, n, v, me);
    put(b, dt, COUNT, zero, 0);
    distrt_reduce_scatter_blocks(g, mask, a, n, b, COUNT, COUNT, dt,
                                 DISTRT_SUM);
    get(h, b, dt, COUNT);
    for (int64_t i = 0; i < len; ++i)
      CHECK(h, dt, i, sumr + (double)(m * (lo + i)), "reduce_scatter_blocks");
    /* alltoall: block j of rank r holds v(r, j COUNT + k) */
    put(a, dt, m * COUNT, v, me);
    distrt_alltoall(g, mask, a, b, COUNT, dt);
    get(h, b, dt, m * COUNT);
    for (int64_t i = 0; i < m * COUNT; ++i)
      CHECK(h, dt, i, v(mem[i / COUNT], pos * COUNT + i % COUNT), "alltoall");
    put(a, dt, COUNT, v, me);
    put(b, dt, m * COUNT, zero, 0);
    distrt_gather(g, mask, a, b, COUNT, dt, root);
    get(h, b, dt, m * COUNT);
    for (int64_t i = 0; pos == root && i < m * COUNT; ++i)
      CHECK(h, dt, i, v(mem[i / COUNT], i % COUNT), "gather");
    put(a, dt, m * COUNT, v, me);
    distrt_scatter(g, mask, a, b, COUNT, dt, root);
    get(h, b, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, v(mem[root], pos * COUNT + i), "scatter");
    /* non-blocking */
    put(a, dt, COUNT, v, me);
    put(b, dt, COUNT, v, me);
    int64_t r1 = distrt_ibcast(g, mask, a, COUNT, dt, 0);
    int64_t r2 = distrt_iallreduce(g, mask, b, COUNT, dt, DISTRT_SUM);
    distrt_wait(r1);
    distrt_wait(r2);
    get(h, a, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, v(mem[0], i), "ibcast");
    get(h, b, dt, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, dt, i, sumr + (double)(m * i), "iallreduce");
    put(a, dt, COUNT, v, me);
    distrt_wait(distrt_iallgather(g, mask, a, b, COUNT, dt));
    get(h, b, dt, m * COUNT);
    for (int64_t i = 0; i < m * COUNT; ++i)
      CHECK(h, dt, i, v(mem[i / COUNT], i % COUNT), "iallgather");
  }
  distrt_device_free(a);
  distrt_device_free(b);
}

/* Every collective twice on each mask: the mask's NCCL communicator is
 * made by the first transfer (groups of more than one process) and reused
 * afterwards. */
static void grid_section(int64_t nd, const int64_t *dims) {
  distrt_grid *g = nd == 1 ? distrt_grid_create1(dims[0])
                           : distrt_grid_create2(dims[0], dims[1]);
  int gpu = distrt_device_is_gpu();
  for (int64_t mask = 0; mask < (1 << nd); ++mask) {
    int64_t mem[MAXP];
    int64_t m = tu_members(nd, dims, tu_rank(), mask, mem);
    int64_t c0 = distrt_debug_count(DISTRT_COUNT_DEVICE_COMMS);
    collectives(g, nd, dims, mask);
    int64_t c1 = distrt_debug_count(DISTRT_COUNT_DEVICE_COMMS);
    collectives(g, nd, dims, mask);
    int64_t c2 = distrt_debug_count(DISTRT_COUNT_DEVICE_COMMS);
    EXPECT(c1 - c0 == (gpu && m > 1 ? 1 : 0) && c2 == c1,
           "axes 0x%llx: device communicators %lld -> %lld -> %lld (one "
           "made on first use, then reused)",
           (unsigned long long)mask, (long long)c0, (long long)c1,
           (long long)c2);
    if (nd == 1)
      tu_section("device collectives grid %lld axes 0x%llx", (long long)dims[0],
                 (unsigned long long)mask);
    else
      tu_section("device collectives grid %lldx%lld axes 0x%llx",
                 (long long)dims[0], (long long)dims[1],
                 (unsigned long long)mask);
  }
  /* shifts (sendrecv_replace, ipermute) and point to point on the grid */
  int64_t me = tu_rank(), p = tu_size(), c[2];
  tu_coords(nd, dims, me, c);
  void *a = dalloc(COUNT * 8), *b = dalloc(COUNT * 8);
  char h[COUNT * 8];
  for (int64_t axis = 0; axis < nd; ++axis) {
    int64_t cc[2] = {c[0], nd > 1 ? c[1] : 0};
    cc[axis] = (cc[axis] + 1) % dims[axis];
    int64_t from = nd == 1 ? cc[0] : cc[0] * dims[1] + cc[1];
    int64_t mask = (int64_t)1 << axis;
    put(a, DISTRT_F64, COUNT, v, me);
    distrt_shift(g, axis, 1, a, COUNT, DISTRT_F64);
    get(h, a, DISTRT_F64, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, DISTRT_F64, i, v(from, i), "shift");
    put(a, DISTRT_F64, COUNT, v, me);
    distrt_wait(distrt_ishift(g, axis, 1, a, b, COUNT, DISTRT_F64));
    get(h, b, DISTRT_F64, COUNT);
    for (int64_t i = 0; i < COUNT; ++i)
      CHECK(h, DISTRT_F64, i, v(from, i), "ishift");
  }
  int64_t mask = 0, next = (me + 1) % p, prev = (me + p - 1) % p;
  put(a, DISTRT_I64, COUNT, v, me);
  distrt_sendrecv(g, a, COUNT, next, b, COUNT, prev, DISTRT_I64, 7);
  get(h, b, DISTRT_I64, COUNT);
  for (int64_t i = 0; i < COUNT; ++i)
    CHECK(h, DISTRT_I64, i, v(prev, i), "sendrecv");
  if (p > 1 && me < 2) { /* ranks 0 and 1 */
    if (me == 0)
      distrt_send(g, a, COUNT, DISTRT_I64, 1, 3);
    else
      distrt_recv(g, b, COUNT, DISTRT_I64, 0, 3);
    if (me == 1) {
      get(h, b, DISTRT_I64, COUNT);
      for (int64_t i = 0; i < COUNT; ++i)
        CHECK(h, DISTRT_I64, i, v(0, i), "send/recv");
    }
  }
  distrt_device_free(a);
  distrt_device_free(b);
  distrt_grid_free(g);
  tu_section("device shifts and point to point grid %lldx%lld",
             (long long)dims[0], (long long)(nd > 1 ? dims[1] : 1));
}

/* Point to point on device buffers between ranks 0 and 1 of a fresh grid
 * of all ranks, before any collective on it (the others take no part): the
 * NCCL backend cannot make the grid's NCCL communicator there (all members
 * make it together), so the transfer goes through host memory and makes
 * none; after a collective has made it, the same transfers go over NCCL. */
static void p2p_first(void) {
  int64_t me = tu_rank(), p = tu_size(), dims[1] = {p};
  distrt_grid *g = distrt_grid_create(1, dims);
  void *a = dalloc(COUNT * 8), *b = dalloc(COUNT * 8);
  char h[COUNT * 8];
  int64_t comms = distrt_debug_count(DISTRT_COUNT_DEVICE_COMMS), mask = 1;
  for (int round = 0; round < 2; ++round) {
    put(a, DISTRT_F64, COUNT, v, me + 10 * round);
    put(b, DISTRT_F64, COUNT, zero, 0);
    if (me == 0)
      distrt_send(g, a, COUNT, DISTRT_F64, 1, 5);
    else if (me == 1)
      distrt_recv(g, b, COUNT, DISTRT_F64, 0, 5);
    if (me < 2) { /* both ways at once */
      int64_t peer = 1 - me;
      if (me == 1) {
        get(h, b, DISTRT_F64, COUNT);
        for (int64_t i = 0; i < COUNT; ++i)
          CHECK(h, DISTRT_F64, i, v(10 * round, i), "send/recv first");
      }
      distrt_sendrecv(g, a, COUNT, peer, b, COUNT, peer, DISTRT_F64, 6);
      get(h, b, DISTRT_F64, COUNT);
      for (int64_t i = 0; i < COUNT; ++i)
        CHECK(h, DISTRT_F64, i, v(peer + 10 * round, i), "p2p first");
    }
    if (round == 0) {
      int64_t now = distrt_debug_count(DISTRT_COUNT_DEVICE_COMMS);
      EXPECT(now == comms,
             "point to point before any collective made %lld NCCL "
             "communicators",
             (long long)(now - comms));
      distrt_allreduce(g, 1, b, COUNT, DISTRT_F64, DISTRT_SUM);
    }
  }
  distrt_device_free(a);
  distrt_device_free(b);
  distrt_grid_free(g);
  tu_section("device point to point before any collective, %lld ranks",
             (long long)p);
}

/* Row-major reference: C = alpha op(A) op(B) + beta C. */
static void ref_gemm(int64_t ta, int64_t tb, int64_t m, int64_t n, int64_t k,
                     double alpha, const double *a, int64_t lda,
                     const double *b, int64_t ldb, double beta, double *c,
                     int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += (ta ? a[l * lda + i] : a[i * lda + l]) *
             (tb ? b[j * ldb + l] : b[l * ldb + j]);
      c[i * ldc + j] = alpha * s + beta * c[i * ldc + j];
    }
}

static double small(int64_t r, int64_t i) {
  return (double)((r * 7 + i * 5) % 9) - 4;
}

/* cuBLAS leaves on device tiles against textbook loops. */
static void leaves(void) {
  enum { M = 5, N = 4, K = 3, LD = 7 };
  double A[M * LD], B[M * LD], C[M * LD], R[M * LD];
  float Af[M * LD], Bf[M * LD], Cf[M * LD];
  void *da = dalloc(sizeof A), *db = dalloc(sizeof B), *dc = dalloc(sizeof C);
  int64_t mask = 0;
  for (int64_t ta = 0; ta < 2; ++ta)
    for (int64_t tb = 0; tb < 2; ++tb) {
      for (int64_t i = 0; i < M * LD; ++i) {
        A[i] = small(1, i);
        B[i] = small(2, i);
        C[i] = R[i] = small(3, i);
      }
      distrt_copy_to_device(da, A, sizeof A);
      distrt_copy_to_device(db, B, sizeof B);
      distrt_copy_to_device(dc, C, sizeof C);
      distrt_device_gemm_t_f64(ta, tb, M, N, K, 2.0, da, LD, db, LD, -1.0, dc,
                               LD);
      distrt_copy_from_device(C, dc, sizeof C);
      ref_gemm(ta, tb, M, N, K, 2.0, A, LD, B, LD, -1.0, R, LD);
      for (int64_t i = 0; i < M * LD; ++i)
        CHECK(C, DISTRT_F64, i, R[i],
              ta ? (tb ? "gemm TT" : "gemm TN") : (tb ? "gemm NT" : "gemm NN"));
      for (int64_t i = 0; i < M * LD; ++i) {
        Af[i] = (float)A[i];
        Bf[i] = (float)B[i];
        Cf[i] = (float)small(3, i);
        R[i] = small(3, i);
      }
      distrt_copy_to_device(da, Af, sizeof Af);
      distrt_copy_to_device(db, Bf, sizeof Bf);
      distrt_copy_to_device(dc, Cf, sizeof Cf);
      distrt_device_gemm_t_f32(ta, tb, M, N, K, 1.0, da, LD, db, LD, 1.0, dc,
                               LD);
      distrt_copy_from_device(Cf, dc, sizeof Cf);
      ref_gemm(ta, tb, M, N, K, 1.0, A, LD, B, LD, 1.0, R, LD);
      for (int64_t i = 0; i < M * LD; ++i)
        CHECK(Cf, DISTRT_F32, i, R[i], "sgemm");
    }
  /* gemv, both orientations: y = 3 op(A) x + 0.5 y, A is M x N (LD) */
  for (int64_t ta = 0; ta < 2; ++ta) {
    double x[M * 2], y[M * 2], want[M * 2];
    int64_t xn = ta ? M : N, yn = ta ? N : M;
    for (int64_t i = 0; i < M * LD; ++i)
      A[i] = small(4, i);
    for (int64_t i = 0; i < M * 2; ++i) {
      x[i] = small(5, i);
      y[i] = want[i] = small(6, i);
    }
    for (int64_t i = 0; i < yn; ++i) {
      double s = 0;
      for (int64_t j = 0; j < xn; ++j)
        s += (ta ? A[j * LD + i] : A[i * LD + j]) * x[2 * j];
      want[i] = 3 * s + 0.5 * y[i];
    }
    distrt_copy_to_device(da, A, sizeof A);
    distrt_copy_to_device(db, x, sizeof x);
    distrt_copy_to_device(dc, y, sizeof y);
    distrt_device_gemv_t_f64(ta, M, N, 3.0, da, LD, db, 2, 0.5, dc, 1);
    distrt_copy_from_device(y, dc, sizeof y);
    for (int64_t i = 0; i < yn; ++i)
      CHECK(y, DISTRT_F64, i, want[i], ta ? "gemv T" : "gemv N");
  }
  /* dot with strides, the result in device memory */
  double x[12], y[12], want = 0, got = -1;
  for (int64_t i = 0; i < 12; ++i) {
    x[i] = small(7, i);
    y[i] = small(8, i);
  }
  for (int64_t i = 0; i < 4; ++i)
    want += x[3 * i] * y[2 * i];
  distrt_copy_to_device(da, x, sizeof x);
  distrt_copy_to_device(db, y, sizeof y);
  distrt_device_dot_f64(4, da, 3, db, 2, dc);
  distrt_copy_from_device(&got, dc, sizeof got);
  CHECK(&got, DISTRT_F64, 0, want, "dot");
  distrt_device_free(da);
  distrt_device_free(db);
  distrt_device_free(dc);
  tu_section("device leaves (gemm, gemv, dot) against loops");
}

/* A non-blocking broadcast / all-reduce and a device GEMM that consumes its
 * result, queued before the wait: right only if the GEMM runs after the
 * transfer (one stream).  On host memory (MPI) the wait comes first. */
static void ordering(void) {
  enum { M = 4, N = 3, K = 5 };
  distrt_grid *g = distrt_grid_create1(tu_size());
  int gpu = distrt_device_is_gpu();
  int64_t me = tu_rank(), p = tu_size(), mask = 1;
  double A[M * K], B[K * N], C[M * N], R[M * N];
  void *da = dalloc(sizeof A), *db = dalloc(sizeof B), *dc = dalloc(sizeof C);
  for (int64_t round = 0; round < 2; ++round) {
    for (int64_t i = 0; i < M * K; ++i)
      A[i] = small(9, i);
    for (int64_t i = 0; i < K * N; ++i)
      B[i] = small(me + round, i);
    distrt_copy_to_device(da, A, sizeof A);
    distrt_copy_to_device(db, B, sizeof B);
    int64_t req =
        round == 0 ? distrt_ibcast(g, 1, db, K * N, DISTRT_F64, p - 1)
                   : distrt_iallreduce(g, 1, db, K * N, DISTRT_F64, DISTRT_SUM);
    if (!gpu)
      distrt_wait(req);
    distrt_device_gemm_t_f64(0, 0, M, N, K, 1.0, da, K, db, N, 0.0, dc, N);
    /* Run the GEMM before the wait (the emulation runs queued work only at
     * synchronisations): a GEMM on another stream than the transfer would
     * read B before it arrived, as on a GPU. */
    distrt_device_synchronize();
    if (gpu)
      distrt_wait(req);
    distrt_copy_from_device(C, dc, sizeof C);
    for (int64_t i = 0; i < K * N; ++i) {
      double s = 0;
      for (int64_t r = 0; r < p; ++r)
        s += small(r + round, i);
      B[i] = round == 0 ? small(p - 1, i) : s;
    }
    for (int64_t i = 0; i < M * N; ++i)
      R[i] = 0;
    ref_gemm(0, 0, M, N, K, 1.0, A, K, B, N, 0.0, R, N);
    for (int64_t i = 0; i < M * N; ++i)
      CHECK(C, DISTRT_F64, i, R[i],
            round == 0 ? "ibcast then gemm" : "iallreduce then gemm");
  }
  distrt_device_free(da);
  distrt_device_free(db);
  distrt_device_free(dc);
  distrt_grid_free(g);
  tu_section("stream order: non-blocking transfer, then a gemm on its result");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "guard") == 0) {
    distrt_init();
    double *p = (double *)distrt_device_alloc(64);
    printf("guard: writing to device memory from the host\n");
    fflush(stdout);
    ((volatile double *)p)[0] = 1.0;
    printf("guard: the host write did not fault (%s memory)\n",
           distrt_device_is_gpu() ? "device" : "host");
    fflush(stdout);
    distrt_device_free(p);
    distrt_finalize();
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "mixed") == 0) {
    distrt_init(); /* a host send buffer with a device receive buffer */
    distrt_grid *g = distrt_grid_create1(distrt_world_size());
    double host[COUNT] = {0};
    void *dev = distrt_device_alloc(MAXP * COUNT * 8);
    distrt_allgather(g, 1, host, dev, COUNT, DISTRT_F64);
    printf("mixed: no error\n");
    distrt_finalize();
    return 0;
  }
  tu_init("distrt-test-nccl");
  int64_t p = tu_size();
  int64_t one[1] = {p};
  grid_section(1, one);
  if (p % 2 == 0) {
    int64_t two[2] = {2, p / 2};
    grid_section(2, two);
    if (p > 2) {
      int64_t flip[2] = {p / 2, 2};
      grid_section(2, flip);
    }
  }
  if (p > 2)
    p2p_first();
  leaves();
  ordering();
  int64_t live = distrt_debug_count(DISTRT_COUNT_DEVICE_BUFFERS);
  EXPECT(live == 0, "%lld device buffers still allocated", (long long)live);
  tu_section("device buffers all freed");
  if (tu_rank() == 0)
    printf("backend: %s\n", distrt_device_is_gpu() ? "device" : "host");
  return tu_finish();
}
