/* A C program that owns MPI and calls two functions dist compiled into a
 * library (dist-run --emit-lib, header kernels.h): @gemm on a 2x2 grid
 * over the world, then @gemm_pair on a 1x2 grid on each pair of
 * processes (distrt_comm_push), twice.  The tiles are the program's own
 * arrays, filled and checked here: blocked layouts, so a process's tile is
 * its block of rows x its block of columns, row-major.  Entries are
 * multiples of 1/8, so every product must equal this file's loops exactly.
 * Last, @gemm_bc on ScaLAPACK-style arrays (column-major local arrays of a
 * 2-D block-cyclic distribution, described by 9-int descriptors) in place,
 * after gemm_bc_adopts_scalapack says their layouts are the function's. */
#include "kernels.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double value(int which, long i, long j) {
  return (double)((i * 7 + j * 13 + which * 5 + (i * j) % 11) % 17 - 8) / 8.0;
}

/* Block q of n over p parts (ceil blocks): [*lo, *hi). */
static void block(long n, long p, long q, long *lo, long *hi) {
  long b = (n + p - 1) / p;
  *lo = q * b < n ? q * b : n;
  *hi = (q + 1) * b < n ? (q + 1) * b : n;
}

/* Fill a row-major tile with rows [r0, r1) and columns [c0, c1). */
static void fill(double *t, int which, long r0, long r1, long c0, long c1) {
  for (long i = r0; i < r1; ++i)
    for (long j = c0; j < c1; ++j)
      t[(i - r0) * (c1 - c0) + (j - c0)] = value(which, i, j);
}

/* Mismatches of C's tile against the loops. */
static long check(const double *c, long k, long r0, long r1, long c0, long c1) {
  long bad = 0;
  for (long i = r0; i < r1; ++i)
    for (long j = c0; j < c1; ++j) {
      double s = 0.0;
      for (long p = 0; p < k; ++p)
        s += value(1, i, p) * value(2, p, j);
      if (c[(i - r0) * (c1 - c0) + (j - c0)] != s)
        ++bad;
    }
  return bad;
}

/* C = A * B with M x K, K x N operands on a PR x PC grid, blocked over
 * both axes, this process at (pr, pc).  cap: the tile capacities. */
static long run(void (*fn)(double *, double *, double *), const int64_t *cap,
                long m, long n, long k, long PR, long PC, long pr, long pc) {
  double *c = malloc(sizeof(double) * cap[0]);
  double *a = malloc(sizeof(double) * cap[1]);
  double *b = malloc(sizeof(double) * cap[2]);
  long i0, i1, j0, j1, k0, k1, l0, l1;
  block(m, PR, pr, &i0, &i1); /* C and A rows */
  block(n, PC, pc, &j0, &j1); /* C and B columns */
  block(k, PC, pc, &k0, &k1); /* A columns */
  block(k, PR, pr, &l0, &l1); /* B rows */
  fill(a, 1, i0, i1, k0, k1);
  fill(b, 2, l0, l1, j0, j1);
  fn(c, a, b);
  long bad = check(c, k, i0, i1, j0, j1);
  free(a);
  free(b);
  free(c);
  return bad;
}

/* ScaLAPACK's local row / column count (numroc, source process 0). */
static long nroc(long n, long nb, long iproc, long nprocs) {
  long nblocks = n / nb, num = (nblocks / nprocs) * nb,
       extra = nblocks % nprocs;
  if (iproc < extra)
    num += nb;
  else if (iproc == extra)
    num += n % nb;
  return num;
}

/* Global index of local index l (blocks nb, p processes, this one at me). */
static long glob(long l, long nb, long me, long p) {
  return (l / nb) * nb * p + me * nb + l % nb;
}

/* A column-major local array of an m x n array in mb x nb blocks, filled
 * from the formula (which < 0: not filled); its descriptor in desc. */
static double *sl_array(int which, long m, long n, long mb, long nb, long pr,
                        long pc, int *desc) {
  long lr = nroc(m, mb, pr, 2), lc = nroc(n, nb, pc, 2);
  long lld = lr > 1 ? lr : 1;
  double *x = malloc(sizeof(double) * (size_t)(lld * (lc ? lc : 1)));
  for (long j = 0; j < lc; ++j)
    for (long i = 0; i < lr; ++i)
      x[i + j * lld] =
          which < 0 ? 0.0
                    : value(which, glob(i, mb, pr, 2), glob(j, nb, pc, 2));
  int d[9] = {1, 0, (int)m, (int)n, (int)mb, (int)nb, 0, 0, (int)lld};
  for (int i = 0; i < 9; ++i)
    desc[i] = d[i];
  return x;
}

/* @gemm_bc: C (37x29, 5x2 blocks) = A (37x23, 4x5) * B (23x29, 3x7). */
static long run_bc(int pr, int pc, int *adopted) {
  int da[9], db[9], dc[9], other[9];
  double *a = sl_array(1, 37, 23, 4, 5, pr, pc, da);
  double *b = sl_array(2, 23, 29, 3, 7, pr, pc, db);
  double *c = sl_array(-1, 37, 29, 5, 2, pr, pc, dc);
  double *x = sl_array(-1, 37, 29, 4, 2, pr, pc, other);
  *adopted = gemm_bc_adopts_scalapack(0, dc, 2, 2) &&
             gemm_bc_adopts_scalapack(1, db, 2, 2) &&
             gemm_bc_adopts_scalapack(2, da, 2, 2) &&
             !gemm_bc_adopts_scalapack(0, other, 2, 2) &&
             !gemm_bc_adopts_scalapack(0, dc, 1, 4);
  dist_gemm_bc(c, b, a);
  long bad = 0, lr = nroc(37, 5, pr, 2), lc = nroc(29, 2, pc, 2);
  for (long j = 0; j < lc; ++j)
    for (long i = 0; i < lr; ++i) {
      long gi = glob(i, 5, pr, 2), gj = glob(j, 2, pc, 2);
      double s = 0.0;
      for (long p = 0; p < 23; ++p)
        s += value(1, gi, p) * value(2, p, gj);
      if (c[i + j * (lr > 1 ? lr : 1)] != s)
        ++bad;
    }
  free(a);
  free(b);
  free(c);
  free(x);
  return bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0)
      fprintf(stderr, "driver: run on 4 ranks\n");
    MPI_Finalize();
    return 2;
  }
  int64_t cap[3];
  for (int i = 0; i < 3; ++i)
    cap[i] = gemm_tile_capacity(i);
  long bad = run(dist_gemm, cap, 100, 60, 70, 2, 2, rank / 2, rank % 2), all;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("driver: gemm 100x60x70 on the world (2x2): %s\n",
           all ? "FAIL" : "PASS");

  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
  distrt_comm_push(&pair);
  for (int rep = 0; rep < 2; ++rep) {
    for (int i = 0; i < 3; ++i)
      cap[i] = gemm_pair_tile_capacity(i);
    bad = run(dist_gemm_pair, cap, 30, 41, 16, 1, 2, 0, rank % 2);
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      printf("driver: gemm_pair 30x41x16 on both pairs (1x2), call %d: %s\n",
             rep + 1, all ? "FAIL" : "PASS");
  }
  distrt_comm_pop();
  int adopted = 0;
  bad = run_bc(rank / 2, rank % 2, &adopted);
  long notadopted = !adopted, none;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&notadopted, &none, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("driver: gemm_bc on ScaLAPACK arrays in place: layouts %s, "
           "result %s\n",
           none ? "FAIL" : "PASS", all ? "FAIL" : "PASS");
  fflush(stdout);
  MPI_Comm_free(&pair);
  MPI_Finalize();
  return 0;
}
