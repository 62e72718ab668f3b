/* The driver of test/Integration/shard-upstream.test: runs a function that
 * upstream compiled (--shard-partition --convert-shard-to-mpi, lower.sh) on
 * its local shards, as upstream partitions them (n / P rows, or n/2 x n/2
 * tiles on a 2x2 grid), with the inputs of cmp.py's formula; rank 0 gathers
 * the result and writes an int64 count of rows, then the f64 elements. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double *alloc, *aligned;
  int64_t off, sz[2], st[2];
} M2;
typedef struct {
  double *alloc, *aligned;
  int64_t off, sz[1], st[1];
} M1;
__attribute__((weak)) void _mlir_ciface_mm(M2 *res, M2 *a, M2 *b, M2 *c);
__attribute__((weak)) void _mlir_ciface_ew(M1 *res, M1 *x, M1 *w);

static double formula(int64_t lin, int seed) {
  return (double)(((lin * 7 + seed * 13) % 17) - 8) / 4.0;
}
static double *fill(int64_t first, int64_t count, int seed) {
  double *p = malloc(sizeof(double) * (count ? count : 1));
  for (int64_t i = 0; i < count; ++i)
    p[i] = formula(first + i, seed);
  return p;
}
static M2 m2(double *p, int64_t r, int64_t c) {
  M2 m = {p, p, 0, {r, c}, {c, 1}};
  return m;
}
static M1 m1(double *p, int64_t n) {
  M1 m = {p, p, 0, {n}, {1}};
  return m;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *kind = argv[1];
  int64_t n = atoll(argv[2]), local = n / size, row = 1;
  double *res;
  if (!strcmp(kind, "mm")) {
    row = n;
    M2 a = m2(fill(rank * local * n, local * n, 3), local, n);
    M2 b = m2(fill(0, n * n, 4), n, n);
    M2 c = m2(fill(rank * local * n, local * n, 5), local, n);
    M2 r;
    _mlir_ciface_mm(&r, &a, &b, &c);
    res = r.aligned + r.off;
  } else if (!strcmp(kind, "mm2d")) {
    /* 2-D tiles on a 2x2 grid (split_axes [[0], [1]] for A, B, C, D). */
    int64_t t = n / 2, p0 = rank / 2, p1 = rank % 2;
    double *blk[3];
    int seeds[3] = {3, 4, 5};
    for (int k = 0; k < 3; ++k) {
      blk[k] = malloc(sizeof(double) * t * t);
      for (int64_t i = 0; i < t; ++i)
        for (int64_t j = 0; j < t; ++j)
          blk[k][i * t + j] = formula((p0 * t + i) * n + p1 * t + j, seeds[k]);
    }
    M2 a = m2(blk[0], t, t), b = m2(blk[1], t, t), c = m2(blk[2], t, t), r;
    _mlir_ciface_mm(&r, &a, &b, &c);
    double *tiles = rank == 0 ? malloc(sizeof(double) * n * n) : 0;
    double *mine = malloc(sizeof(double) * t * t);
    for (int64_t i = 0; i < t; ++i)
      for (int64_t j = 0; j < t; ++j)
        mine[i * t + j] = r.aligned[r.off + i * r.st[0] + j * r.st[1]];
    MPI_Gather(mine, (int)(t * t), MPI_DOUBLE, tiles, (int)(t * t), MPI_DOUBLE,
               0, MPI_COMM_WORLD);
    if (rank == 0) {
      double *all = malloc(sizeof(double) * n * n);
      for (int q = 0; q < 4; ++q)
        for (int64_t i = 0; i < t; ++i)
          for (int64_t j = 0; j < t; ++j)
            all[((q / 2) * t + i) * n + (q % 2) * t + j] =
                tiles[q * t * t + i * t + j];
      FILE *f = fopen(argv[3], "wb");
      fwrite(&n, sizeof n, 1, f);
      fwrite(all, sizeof(double), n * n, f);
      fclose(f);
    }
    MPI_Finalize();
    return 0;
  } else {
    M1 x = m1(fill(rank * local, local, 6), local);
    M1 w = m1(fill(rank * local, local, 7), local);
    M1 r;
    _mlir_ciface_ew(&r, &x, &w);
    res = r.aligned + r.off;
  }
  double *all = rank == 0 ? malloc(sizeof(double) * size * local * row + 1) : 0;
  MPI_Gather(res, (int)(local * row), MPI_DOUBLE, all, (int)(local * row),
             MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    FILE *f = fopen(argv[3], "wb");
    int64_t rows = size * local;
    fwrite(&rows, sizeof rows, 1, f);
    fwrite(all, sizeof(double), rows * row, f);
    fclose(f);
  }
  MPI_Finalize();
  return 0;
}
