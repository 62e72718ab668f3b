/* distrt-test-devtiles: the runtime's tile functions on device tiles
 * (distrt_device_alloc).  On the NCCL backend under the host emulation,
 * device memory is mapped PROT_NONE, so any host access the runtime makes
 * to a device tile faults; on the MPI backend device memory is host memory
 * and the same sections pass.  Tiles are read back only through
 * distrt_copy_from_device.  Expected values are computed here, from the
 * layouts' definitions (blocked: blocks of ceil(n / Q); cyclic: round robin)
 * and the fill's closed form distrt_value(seed, global linear index).
 *
 *   distrt-test-devtiles [DIR]   every section (DIR: where the file
 *                                    I/O section writes; skipped without)
 *   distrt-test-devtiles onesided   the one-sided product on device
 *                                    tiles: fatal naming the call
 *   distrt-test-devtiles mixed   a GEMM with a device C and host A, B:
 *                                    fatal naming them */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NB = 1, NC = 2, NN = 0 }; /* blocked, cyclic, none (DISTRT_KIND_*) */
enum { MAXE = 512 };

/* A layout of an order-`nd` tensor: dimension d has extent n[d], kind
 * kind[d], dealt over grid axis axis[d] (ignored for NN). */
struct lay {
  int64_t nd, n[3], kind[3], axis[3];
  int64_t desc[32];
};

static int64_t P[2]; /* the grid: P[0] x P[1] */
static int64_t me[2];

static void make_desc(struct lay *L) {
  int64_t k = 0;
  L->desc[k++] = L->nd;
  for (int64_t d = 0; d < L->nd; ++d) {
    L->desc[k++] = L->n[d];
    L->desc[k++] = L->kind[d];
    L->desc[k++] = 0;
    L->desc[k++] = L->kind[d] == NN ? 0 : 1;
    if (L->kind[d] != NN)
      L->desc[k++] = L->axis[d];
  }
  L->desc[k++] = 0; /* nfixed */
}

static struct lay lay2(int64_t n0, int64_t k0, int64_t n1, int64_t k1) {
  struct lay L = {2, {n0, n1, 0}, {k0, k1, 0}, {0, 1, 0}, {0}};
  make_desc(&L);
  return L;
}

static struct lay lay3(int64_t k2) {
  struct lay L = {3, {4, 3, 6}, {NB, NN, k2}, {0, 0, 1}, {0}};
  make_desc(&L);
  return L;
}

/* This process's part of dimension d: its local extent, and the global
 * index of local index l. */
static int64_t q_of(const struct lay *L, int64_t d) {
  return L->kind[d] == NN ? 0 : me[L->axis[d]];
}
static int64_t Q_of(const struct lay *L, int64_t d) {
  return L->kind[d] == NN ? 1 : P[L->axis[d]];
}
static int64_t ext_of(const struct lay *L, int64_t d) {
  int64_t n = L->n[d], Q = Q_of(L, d), q = q_of(L, d);
  if (L->kind[d] == NN)
    return n;
  if (L->kind[d] == NC)
    return (n - q + Q - 1) / Q;
  int64_t b = (n + Q - 1) / Q, e = n - q * b;
  return e < 0 ? 0 : e > b ? b : e;
}
static int64_t glob_of(const struct lay *L, int64_t d, int64_t l) {
  int64_t n = L->n[d], Q = Q_of(L, d), q = q_of(L, d);
  if (L->kind[d] == NC)
    return l * Q + q;
  return L->kind[d] == NN ? l : q * ((n + Q - 1) / Q) + l;
}
static int64_t tile_count(const struct lay *L) {
  int64_t c = 1;
  for (int64_t d = 0; d < L->nd; ++d)
    c *= ext_of(L, d);
  return c;
}
/* Global coordinates of tile element i (row-major over local extents). */
static void coords_of(const struct lay *L, int64_t i, int64_t *g) {
  for (int64_t d = L->nd - 1; d >= 0; --d) {
    int64_t e = ext_of(L, d);
    g[d] = glob_of(L, d, i % e);
    i /= e;
  }
}
static int64_t linear(const struct lay *L, const int64_t *g) {
  int64_t s = 0;
  for (int64_t d = 0; d < L->nd; ++d)
    s = s * L->n[d] + g[d];
  return s;
}
static double fillv(int64_t dt, int64_t seed, int64_t lin) {
  double v = distrt_value(seed, lin);
  if (dt == DISTRT_F32)
    return (float)v;
  return dt == DISTRT_F64 ? v : floor(8.0 * v); /* integers: floor(8 v) */
}

/* The whole tensor filled with seed, row-major (host). */
static void *global_fill(const struct lay *L, int64_t dt, int64_t seed) {
  int64_t n = 1;
  for (int64_t d = 0; d < L->nd; ++d)
    n *= L->n[d];
  void *b = calloc((size_t)n, 8);
  for (int64_t i = 0; i < n; ++i)
    tu_set(b, dt, i, fillv(dt, seed, i));
  return b;
}

/* A device tile of L (capacity: the largest tile), filled with seed. */
static void *dev_tile(distrt_grid *g, const struct lay *L, int64_t dt,
                      int64_t seed) {
  int64_t cap = distrt_layout_tile_capacity(g, L->desc);
  void *t = distrt_device_alloc(cap * tu_esize(dt));
  distrt_layout_fill(g, L->desc, t, dt, seed);
  return t;
}

/* Reads the device tile back and compares every element with want(i). */
static void
expect_tile(const struct lay *L, const void *dev, int64_t dt, const char *what,
            double (*want)(const struct lay *, int64_t, int64_t, const void *),
            const void *ctx) {
  char host[MAXE * 8];
  int64_t n = tile_count(L);
  distrt_copy_from_device(host, dev, n * tu_esize(dt));
  for (int64_t i = 0; i < n; ++i) {
    double w = want(L, dt, i, ctx);
    if (!EXPECT(tu_get(host, dt, i) == w,
                "%s %s: tile element %lld is %g, "
                "expected %g",
                what, tu_dtype_name(dt), (long long)i, tu_get(host, dt, i), w))
      return;
  }
}

static double want_fill(const struct lay *L, int64_t dt, int64_t i,
                        const void *ctx) {
  int64_t g[3];
  coords_of(L, i, g);
  return fillv(dt, *(const int64_t *)ctx, linear(L, g));
}
static double want_zero(const struct lay *L, int64_t dt, int64_t i,
                        const void *ctx) {
  (void)L, (void)dt, (void)i, (void)ctx;
  return 0;
}

static double want_const(const struct lay *L, int64_t dt, int64_t i,
                         const void *ctx) {
  (void)L, (void)dt, (void)i;
  return *(const double *)ctx;
}

static const int64_t DTS[] = {DISTRT_F64, DISTRT_F32, DISTRT_I64};

static void layouts(struct lay *out) {
  out[0] = lay2(6, NB, 8, NB);
  out[1] = lay2(6, NC, 8, NC);
  out[2] = lay2(6, NB, 8, NN);
  out[3] = lay3(NB);
  out[4] = lay3(NC);
}
enum { NLAY = 5 };

/* Fill, zero, distrt_zero_buffer. */
static void test_fill_zero(distrt_grid *g) {
  struct lay Ls[NLAY];
  layouts(Ls);
  for (int l = 0; l < NLAY; ++l)
    for (size_t t = 0; t < 3; ++t) {
      int64_t dt = DTS[t], seed = 7 + l;
      void *d = dev_tile(g, &Ls[l], dt, seed);
      expect_tile(&Ls[l], d, dt, "layout_fill", want_fill, &seed);
      distrt_layout_zero(g, Ls[l].desc, d, dt);
      expect_tile(&Ls[l], d, dt, "layout_zero", want_zero, NULL);
      distrt_layout_fill(g, Ls[l].desc, d, dt, seed);
      distrt_zero_buffer(d, tile_count(&Ls[l]), dt);
      expect_tile(&Ls[l], d, dt, "zero_buffer", want_zero, NULL);
      distrt_device_free(d);
    }
  double host[4] = {1, 2, 3, 4};
  distrt_zero_buffer(host, 3, DISTRT_F64);
  EXPECT(host[0] == 0 && host[2] == 0 && host[3] == 4,
         "zero_buffer on host memory: %g %g %g", host[0], host[2], host[3]);
  tu_section("device tiles: layout_fill, layout_zero, zero_buffer");
}

/* A box inside this process's tile: per dimension, blocked or whole
 * dimensions skip their first local index when they have more than one;
 * cyclic ones take one owned index. */
static int own_box(const struct lay *L, int64_t *lo, int64_t *size) {
  for (int64_t d = 0; d < L->nd; ++d) {
    int64_t e = ext_of(L, d);
    if (e == 0)
      return 0;
    int64_t s = e > 1 ? 1 : 0;
    lo[d] = glob_of(L, d, s);
    size[d] = L->kind[d] == NC ? 1 : e - s;
  }
  return 1;
}

/* Box element i's global linear index. */
static int64_t box_linear(const struct lay *L, const int64_t *lo,
                          const int64_t *size, int64_t i) {
  int64_t g[3];
  for (int64_t d = L->nd - 1; d >= 0; --d) {
    g[d] = lo[d] + i % size[d];
    i /= size[d];
  }
  return linear(L, g);
}

struct box_ctx {
  int64_t seed;
  const int64_t *lo, *size;
};
/* After adding in[i] = i + 1 to the box: fill + box position + 1. */
static double want_added(const struct lay *L, int64_t dt, int64_t i,
                         const void *ctx) {
  const struct box_ctx *c = (const struct box_ctx *)ctx;
  int64_t g[3], pos = 0;
  coords_of(L, i, g);
  double v = fillv(dt, c->seed, linear(L, g));
  for (int64_t d = 0; d < L->nd; ++d) {
    if (g[d] < c->lo[d] || g[d] >= c->lo[d] + c->size[d])
      return v;
    pos = pos * c->size[d] + (g[d] - c->lo[d]);
  }
  if (dt == DISTRT_F32)
    return (float)((float)v + (float)(pos + 1));
  return v + (double)(pos + 1);
}

static void test_boxes(distrt_grid *g) {
  struct lay Ls[NLAY];
  layouts(Ls);
  for (int l = 0; l < NLAY; ++l)
    for (size_t t = 0; t < 3; ++t) {
      int64_t dt = DTS[t], seed = 11 + l, lo[3], size[3];
      const struct lay *L = &Ls[l];
      void *d = dev_tile(g, L, dt, seed);
      if (!own_box(L, lo, size)) {
        distrt_device_free(d);
        continue;
      }
      int64_t vol = 1, es = tu_esize(dt);
      for (int64_t k = 0; k < L->nd; ++k)
        vol *= size[k];
      /* Copy out into device and into host memory. */
      char host[MAXE * 8], back[MAXE * 8];
      void *out = distrt_device_alloc(vol * es);
      distrt_copy_box_local(g, L->desc, d, dt, lo, size, out);
      distrt_copy_from_device(back, out, vol * es);
      distrt_copy_box_local(g, L->desc, d, dt, lo, size, host);
      for (int64_t i = 0; i < vol; ++i) {
        double w = fillv(dt, seed, box_linear(L, lo, size, i));
        if (!EXPECT(tu_get(back, dt, i) == w && tu_get(host, dt, i) == w,
                    "copy_box_local layout %d %s: box element %lld is %g "
                    "(device) / %g (host), expected %g",
                    l, tu_dtype_name(dt), (long long)i, tu_get(back, dt, i),
                    tu_get(host, dt, i), w))
          break;
      }
      /* Add in[i] = i + 1 from device memory. */
      for (int64_t i = 0; i < vol; ++i)
        tu_set(host, dt, i, (double)(i + 1));
      distrt_copy_to_device(out, host, vol * es);
      distrt_add_box_local(g, L->desc, d, dt, lo, size, out);
      struct box_ctx c = {seed, lo, size};
      expect_tile(L, d, dt, "add_box_local", want_added, &c);
      distrt_device_free(out);
      distrt_device_free(d);
    }
  tu_section("device tiles: copy_box_local, add_box_local (blocked, cyclic, "
             "replicated; 2-D and 3-D)");
}

/* GEMM, GEMV and DOT on device operands: small integer matrices, exact. */
static void test_leaves(void) {
  enum { M = 3, N = 4, K = 5 };
  double a[M * K], b[K * N], c[M * N], x[K], y[M], r[M * N];
  for (int i = 0; i < M * K; ++i)
    a[i] = i % 7 - 3;
  for (int i = 0; i < K * N; ++i)
    b[i] = i % 5 - 2;
  for (int i = 0; i < M * N; ++i)
    c[i] = i;
  for (int i = 0; i < K; ++i)
    x[i] = i + 1;
  for (int i = 0; i < M; ++i)
    y[i] = 10 * i;
  double *da = distrt_device_alloc(sizeof a),
         *db = distrt_device_alloc(sizeof b);
  double *dc = distrt_device_alloc(sizeof c),
         *dx = distrt_device_alloc(sizeof x);
  double *dy = distrt_device_alloc(sizeof y), *dd = distrt_device_alloc(8);
  distrt_copy_to_device(da, a, sizeof a);
  distrt_copy_to_device(db, b, sizeof b);
  distrt_copy_to_device(dc, c, sizeof c);
  distrt_copy_to_device(dx, x, sizeof x);
  distrt_copy_to_device(dy, y, sizeof y);
  /* C = 2 A B + C */
  distrt_gemm_t_f64(0, 0, M, N, K, 2.0, da, K, db, N, 1.0, dc, N);
  distrt_copy_from_device(r, dc, sizeof c);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int p = 0; p < K; ++p)
        s += a[i * K + p] * b[p * N + j];
      EXPECT(r[i * N + j] == 2 * s + c[i * N + j],
             "gemm_t_f64 C[%d][%d] = %g, expected %g", i, j, r[i * N + j],
             2 * s + c[i * N + j]);
    }
  /* y = A x - y */
  distrt_gemv_t_f64(0, M, K, 1.0, da, K, dx, 1, -1.0, dy, 1);
  distrt_copy_from_device(r, dy, sizeof y);
  for (int i = 0; i < M; ++i) {
    double s = 0;
    for (int p = 0; p < K; ++p)
      s += a[i * K + p] * x[p];
    EXPECT(r[i] == s - y[i], "gemv_t_f64 y[%d] = %g, expected %g", i, r[i],
           s - y[i]);
  }
  /* *d = 5, then += (column 1 of A) . x[0..M) twice (strided, accumulates) */
  double five = 5;
  distrt_copy_to_device(dd, &five, 8);
  distrt_dot_acc_f64(M, da + 1, K, dx, 1, dd);
  distrt_dot_acc_f64(M, da + 1, K, dx, 1, dd);
  distrt_copy_from_device(r, dd, 8);
  double s = 0;
  for (int i = 0; i < M; ++i)
    s += a[i * K + 1] * x[i];
  EXPECT(r[0] == 5 + 2 * s, "dot_acc_f64 = %g, expected %g", r[0], 5 + 2 * s);
  distrt_device_free(da);
  distrt_device_free(db);
  distrt_device_free(dc);
  distrt_device_free(dx);
  distrt_device_free(dy);
  distrt_device_free(dd);
  tu_section("device tiles: gemm_t, gemv_t, dot_acc on device operands");
}

/* Checks, gathers, the general exchanges, redistribution and file I/O. */
static void test_exchanges(distrt_grid *g, const char *dir) {
  struct lay Ls[NLAY];
  layouts(Ls);
  int64_t dt = DISTRT_F64, seed = 3, root = tu_size() - 1;
  for (int l = 0; l < NLAY; ++l) {
    const struct lay *L = &Ls[l];
    int64_t total = 1, zero[3] = {0, 0, 0};
    for (int64_t d = 0; d < L->nd; ++d)
      total *= L->n[d];
    void *t = dev_tile(g, L, dt, seed);
    double *ref = global_fill(L, dt, seed);
    EXPECT(distrt_check_result(g, "device tile", L->desc, t, dt, ref, 0) == 1,
           "check_result on a device tile failed (layout %d)", l);
    EXPECT(distrt_check_unchanged(g, "device tile", L->desc, t, dt, ref, 0),
           "check_unchanged on a device tile failed (layout %d)", l);
    /* Gather into device memory at the root. */
    double *dg = distrt_device_alloc(total * 8), host[MAXE];
    distrt_layout_gather(g, L->desc, t, dt, dg, root);
    if (tu_rank() == root) {
      distrt_copy_from_device(host, dg, total * 8);
      EXPECT(memcmp(host, ref, (size_t)total * 8) == 0,
             "layout_gather of a device tile (layout %d) differs", l);
    }
    /* Every process fetches the whole tensor into device memory. */
    distrt_fetch_box(g, L->desc, t, dt, zero, L->n, dg);
    distrt_copy_from_device(host, dg, total * 8);
    EXPECT(memcmp(host, ref, (size_t)total * 8) == 0,
           "fetch_box into device memory (layout %d) differs", l);
    /* Every process adds ones to the whole tensor: each element gets P. */
    for (int64_t i = 0; i < total; ++i)
      host[i] = 1;
    distrt_copy_to_device(dg, host, total * 8);
    distrt_layout_zero(g, L->desc, t, dt);
    distrt_accumulate_box(g, L->desc, t, dt, zero, L->n, dg);
    double p = (double)tu_size();
    expect_tile(L, t, dt, "accumulate_box", want_const, &p);
    distrt_device_free(dg);
    free(ref);
    /* Redistribute into the next layout of the same shape, and store /
     * load through a file into it. */
    static const int other[NLAY] = {1, 2, 0, 4, 3};
    const struct lay *D = &Ls[other[l]];
    void *u = dev_tile(g, D, dt, 99);
    distrt_layout_fill(g, L->desc, t, dt, seed);
    distrt_redistribute(g, L->desc, t, g, D->desc, u, dt);
    expect_tile(D, u, dt, "redistribute", want_fill, &seed);
    if (dir) {
      char path[4096];
      snprintf(path, sizeof path, "%s/device-tile-%d.npy", dir, l);
      distrt_layout_store(g, L->desc, t, dt, path);
      distrt_layout_zero(g, D->desc, u, dt);
      distrt_layout_load(g, D->desc, u, dt, path);
      expect_tile(D, u, dt, "layout_store then layout_load", want_fill, &seed);
    }
    distrt_device_free(u);
    distrt_device_free(t);
  }
  tu_section("device tiles: check_result, check_unchanged, layout_gather, "
             "fetch_box, accumulate_box, redistribute%s",
             dir ? ", layout_store / layout_load" : "");
}

/* Balanced redistribution steps on device tiles: allgather over axis 0,
 * then slice back. */
static void test_redist_steps(distrt_grid *g) {
  int64_t dt = DISTRT_F64, seed = 5;
  struct lay S = lay2(6, NB, 8, NB), R = lay2(6, NN, 8, NB);
  void *s = dev_tile(g, &S, dt, seed), *r = dev_tile(g, &R, dt, 77);
  distrt_redist_allgather(g, 1, S.desc, s, R.desc, r, dt);
  expect_tile(&R, r, dt, "redist_allgather", want_fill, &seed);
  distrt_layout_zero(g, S.desc, s, dt);
  distrt_redist_slice(g, R.desc, r, S.desc, s, dt);
  expect_tile(&S, s, dt, "redist_slice", want_fill, &seed);
  distrt_device_free(r);
  distrt_device_free(s);
  tu_section("device tiles: redist_allgather, redist_slice");
}

/* The tensor-descriptor API (distrt_fill, distrt_gather_tensor,
 * distrt_check_tensor) on a blocked device tile. */
static void test_tensor_api(distrt_grid *g) {
  int64_t dt = DISTRT_F64, seed = 21, root = 0;
  struct lay L = lay2(6, NB, 8, NB);
  int64_t shape[2] = {6, 8}, procs[2] = {P[0], P[1]},
          coords[2] = {me[0], me[1]};
  int64_t blocks[2] = {(6 + P[0] - 1) / P[0], (8 + P[1] - 1) / P[1]};
  void *t = distrt_device_alloc(48 * 8);
  distrt_fill(t, dt, 2, shape, procs, coords, blocks, seed);
  expect_tile(&L, t, dt, "distrt_fill", want_fill, &seed);
  double *ref = global_fill(&L, dt, seed), host[48];
  void *dg = distrt_device_alloc(48 * 8);
  distrt_gather_tensor(g, t, dt, 2, shape, procs, coords, blocks, dg, root);
  if (tu_rank() == root) {
    distrt_copy_from_device(host, dg, 48 * 8);
    EXPECT(memcmp(host, ref, sizeof host) == 0,
           "gather_tensor of a device tile into device memory differs");
  }
  EXPECT(distrt_check_tensor(g, "device tensor", t, dt, 2, shape, procs, coords,
                             blocks, ref, 0) == 1,
         "check_tensor on a device tile failed");
  free(ref);
  distrt_device_free(dg);
  distrt_device_free(t);
  tu_section("device tiles: distrt_fill, gather_tensor, check_tensor");
}

/* Refused calls: each prints one fatal line and ends the job. */
static void refused(distrt_grid *g, const char *mode) {
  struct lay L = lay2(4, NB, 4, NB);
  void *t = dev_tile(g, &L, DISTRT_F64, 1);
  if (strcmp(mode, "onesided") == 0) {
    distrt_onesided_matmul(g, DISTRT_F64, L.desc, t, L.desc, t, L.desc, t,
                           DISTRT_STATIONARY_C, 0, 0, 0);
  } else {
    double a[4] = {1, 2, 3, 4};
    distrt_gemm_t_f64(0, 0, 2, 2, 2, 1.0, a, 2, a, 2, 0.0, (double *)t, 2);
  }
  distrt_device_synchronize();
  printf("distrt-test-devtiles: %s was not refused\n", mode);
}

int main(int argc, char **argv) {
  tu_init("distrt-test-devtiles");
  int64_t n = tu_size();
  P[0] = n % 2 == 0 ? n / 2 : n;
  P[1] = n % 2 == 0 ? 2 : 1;
  distrt_grid *g = distrt_grid_create2(P[0], P[1]);
  me[0] = distrt_grid_coord(g, 0);
  me[1] = distrt_grid_coord(g, 1);
  if (argc > 1 &&
      (strcmp(argv[1], "onesided") == 0 || strcmp(argv[1], "mixed") == 0)) {
    refused(g, argv[1]);
    return 1;
  }
  test_fill_zero(g);
  test_boxes(g);
  test_leaves();
  test_exchanges(g, argc > 1 ? argv[1] : NULL);
  test_redist_steps(g);
  test_tensor_api(g);
  distrt_grid_free(g);
  if (tu_rank() == 0)
    printf("backend: %s\n", distrt_device_is_gpu() ? "device" : "host");
  return tu_finish();
}
