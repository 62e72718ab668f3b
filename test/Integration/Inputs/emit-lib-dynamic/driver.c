/* A C program calling library functions whose extents are given at call
 * time (kernels.mlir, built by dist-run --emit-lib; header kernels.h).  On
 * 1, 2 or 4 ranks it calls the functions of the matching grid (1x1, 1x2,
 * 2x2) at several sizes, non-divisible ones and extents of 1 included, on
 * tiles it allocates, fills and checks itself: every layout's local to
 * global index map is written out here (not taken from the runtime), and
 * the product is this file's triple loop.  Entries are multiples of 1/8, so
 * results must match exactly.
 *
 * driver [MODE]: MODE "run" (default) runs the sizes; the others make one
 * bad call that must stop the job with the runtime's fatal error:
 *   neg      dist_gemm_P with M = -3
 *   zero     dist_gemm_P with K = 0
 *   mismatch C's M (8) and A's M (9) differ
 *   small    the compiled gemm_P called with a C tile of 0 elements
 *   rawneg   the compiled gemm_P called with N = -1
 *   differ   rank 0 passes N = 8, the others N = 9 */
#include "kernels.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double value(int which, long i, long j) {
  return (double)((i * 7 + j * 13 + which * 5 + (i * j) % 11) % 17 - 8) / 8.0;
}

/* How a layout deals one dimension to this process: kind 0 whole, 1 blocked
 * (ceil blocks), 2 cyclic, 3 block-cyclic(b); over Q parts, this process
 * part q. */
typedef struct {
  int kind;
  long b, Q, q;
} dimd;

static long lmin(long a, long b) { return a < b ? a : b; }

/* Elements of an extent-n dimension this process holds. */
static long count(dimd d, long n) {
  switch (d.kind) {
  case 1: {
    long b = (n + d.Q - 1) / d.Q;
    return lmin(n, (d.q + 1) * b) - lmin(n, d.q * b);
  }
  case 2:
    return n > d.q ? (n - d.q + d.Q - 1) / d.Q : 0;
  case 3: {
    long full = n / (d.b * d.Q), rest = n - full * d.b * d.Q;
    long extra = rest - d.q * d.b;
    return full * d.b + (extra <= 0 ? 0 : extra < d.b ? extra : d.b);
  }
  default:
    return n;
  }
}

/* Global index of local index l. */
static long glob(dimd d, long n, long l) {
  switch (d.kind) {
  case 1:
    return lmin(n, d.q * ((n + d.Q - 1) / d.Q)) + l;
  case 2:
    return l * d.Q + d.q;
  case 3:
    return (l / d.b) * d.b * d.Q + d.q * d.b + l % d.b;
  default:
    return l;
  }
}

typedef struct {
  dimd r, c;
} layout;

/* Fill a row-major tile of an m x n matrix from the formula. */
static void fill(double *t, layout L, long m, long n, int which) {
  long rows = count(L.r, m), cols = count(L.c, n);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      t[i * cols + j] = value(which, glob(L.r, m, i), glob(L.c, n, j));
}

/* Mismatches of C's tile (m x n) against init (which 3, or none when < 0)
 * plus the triple loop over k. */
static long check(const double *t, layout L, long m, long n, long k, int init) {
  long rows = count(L.r, m), cols = count(L.c, n), bad = 0;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) {
      long gi = glob(L.r, m, i), gj = glob(L.c, n, j);
      double s = init ? value(3, gi, gj) : 0.0;
      for (long p = 0; p < k; ++p)
        s += value(1, gi, p) * value(2, p, gj);
      if (t[i * cols + j] != s)
        ++bad;
    }
  return bad;
}

static int P0, P1, c0, c1;

static dimd whole(void) { return (dimd){0, 0, 1, 0}; }
static dimd on(int kind, long b, long Q, long q) {
  return (dimd){kind, b, Q, q};
}

/* Dispatch to the functions of the grid of `size` processes. */
#define PICK(fn) (size == 1 ? fn##_1 : size == 2 ? fn##_2 : fn##_4)
#define PICK2(fn, suffix)                                                      \
  (size == 1 ? fn##_1_##suffix : size == 2 ? fn##_2_##suffix : fn##_4_##suffix)

static double *alloc(int64_t n) { return malloc(sizeof(double) * (n ? n : 1)); }

static long run_gemm(int size, long m, long n, long k) {
  /* C blocked x blocked; A rows block-cyclic(3) over axis 0; B columns
   * cyclic over (axis 0, axis 1), axis 0 fastest. */
  layout C = {on(1, 0, P0, c0), on(1, 0, P1, c1)};
  layout A = {on(3, 3, P0, c0), whole()};
  layout B = {whole(), on(2, 1, P0 * P1, c0 + P0 * c1)};
  int64_t (*cap)(int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t) =
      PICK2(gemm, tile_capacity);
  double *c = alloc(cap(0, m, n, m, k, k, n));
  double *a = alloc(cap(1, m, n, m, k, k, n));
  double *b = alloc(cap(2, m, n, m, k, k, n));
  fill(a, A, m, k, 1);
  fill(b, B, k, n, 2);
  fill(c, C, m, n, 4); /* overwritten: C = A * B */
  PICK(dist_gemm)(c, a, b, m, n, m, k, k, n);
  long bad = check(c, C, m, n, k, 0);
  free(a);
  free(b);
  free(c);
  return bad;
}

static long run_acc(int size, long m, long n) {
  /* C block-cyclic(2) x block-cyclic(5); A rows blocked over (0, 1); B
   * columns blocked over (1, 0); K = 24. */
  layout C = {on(3, 2, P0, c0), on(3, 5, P1, c1)};
  layout A = {on(1, 0, P0 * P1, c0 + P0 * c1), whole()};
  layout B = {whole(), on(1, 0, P0 * P1, c1 + P1 * c0)};
  int64_t (*cap)(int, int64_t, int64_t, int64_t, int64_t) =
      PICK2(gemm_acc, tile_capacity);
  double *c = alloc(cap(0, m, n, m, n));
  double *a = alloc(cap(1, m, n, m, n));
  double *b = alloc(cap(2, m, n, m, n));
  fill(a, A, m, 24, 1);
  fill(b, B, 24, n, 2);
  fill(c, C, m, n, 3);
  PICK(dist_gemm_acc)(c, a, b, m, n, m, n);
  long bad = check(c, C, m, n, 24, 1);
  free(a);
  free(b);
  free(c);
  return bad;
}

/* One bad call (the job must stop in it). */
static void bad_call(int size, int rank, const char *mode) {
  double *x = alloc(4096), *y = alloc(4096), *z = alloc(4096);
  memset(x, 0, 4096 * sizeof(double));
  memset(y, 0, 4096 * sizeof(double));
  memset(z, 0, 4096 * sizeof(double));
  void (*raw)(double *, double *, int64_t, int64_t, int64_t, double *, double *,
              int64_t, int64_t, int64_t, double *, double *, int64_t, int64_t,
              int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t) =
      PICK(gemm);
  if (!strcmp(mode, "neg"))
    PICK(dist_gemm)(x, y, z, -3, 8, -3, 8, 8, 8);
  else if (!strcmp(mode, "zero"))
    PICK(dist_gemm)(x, y, z, 8, 8, 8, 0, 0, 8);
  else if (!strcmp(mode, "mismatch"))
    PICK(dist_gemm)(x, y, z, 8, 8, 9, 8, 8, 8);
  else if (!strcmp(mode, "small"))
    raw(x, x, 0, 0, 1, y, y, 0, 4096, 1, z, z, 0, 4096, 1, 8, 8, 8, 8, 8, 8);
  else if (!strcmp(mode, "rawneg"))
    raw(x, x, 0, 4096, 1, y, y, 0, 4096, 1, z, z, 0, 4096, 1, 8, -1, 8, 8, 8,
        -1);
  else if (!strcmp(mode, "differ")) {
    long n = rank == 0 ? 8 : 9;
    raw(x, x, 0, 4096, 1, y, y, 0, 4096, 1, z, z, 0, 4096, 1, 8, n, 8, 8, 8, n);
  }
  printf("driver: rank %d: the bad call '%s' returned\n", rank, mode);
  free(x);
  free(y);
  free(z);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1 && size != 2 && size != 4) {
    if (rank == 0)
      fprintf(stderr, "driver: run on 1, 2 or 4 ranks\n");
    MPI_Finalize();
    return 2;
  }
  P0 = size == 4 ? 2 : 1;
  P1 = size / P0;
  c0 = rank / P1;
  c1 = rank % P1;
  const char *mode = argc > 1 ? argv[1] : "run";
  if (strcmp(mode, "run")) {
    bad_call(size, rank, mode);
    MPI_Finalize();
    return 0;
  }
  static const long sizes[][3] = {{1, 1, 1},    {5, 7, 3},  {17, 13, 11},
                                  {64, 33, 29}, {2, 50, 1}, {30, 1, 40},
                                  {9, 9, 100}};
  for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) {
    long m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    long bad = run_gemm(size, m, n, k), all;
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      printf("driver: gemm %ldx%ldx%ld on %d rank(s): %s\n", m, n, k, size,
             all ? "FAIL" : "PASS");
    bad = run_acc(size, m, n);
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      printf("driver: gemm_acc %ldx%ldx24 on %d rank(s): %s\n", m, n, size,
             all ? "FAIL" : "PASS");
  }
  if (size == 4) {
    /* sl_4's C adopts any M x N ScaLAPACK array in 5 x 2 blocks on the 2x2
     * BLACS grid (its extents are `?`), and no other blocks or grid. */
    int ok = 1;
    for (int m = 1; m <= 40; m += 13)
      for (int n = 1; n <= 30; n += 7) {
        int desc[9] = {1, 0, m, n, 5, 2, 0, 0, m};
        int other[9] = {1, 0, m, n, 4, 2, 0, 0, m};
        ok &= sl_4_adopts_scalapack(0, desc, 2, 2) == 1;
        ok &= sl_4_adopts_scalapack(0, other, 2, 2) == 0;
        ok &= sl_4_adopts_scalapack(0, desc, 1, 4) == 0;
      }
    if (rank == 0)
      printf("driver: sl_4 adopts ScaLAPACK arrays of any size: %s\n",
             ok ? "PASS" : "FAIL");
  }
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
