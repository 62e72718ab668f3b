/* What the sparse baselines (petsc_spmv.c, tpetra_spmv.cpp) share: options,
 * the matrix (built with the distrt readers and generators, so every library
 * multiplies the same matrix with dist's row partition), the dense operand,
 * timing, the bytes / flops model and the --verify reference.  Header-only,
 * C and C++.
 *
 * Options:
 *   --matrix banded:N:W | rmat:N:EPR | uniform:N:PER_ROW | file:PATH
 *            (PATH: .mtx MatrixMarket; .rsa .rua .rra .psa .pua .pra
 *            Harwell-Boeing)
 *   --kernel spmv | spmm | spmv,spmm   (both in one run: one matrix build)
 *   --k K        columns of the dense operand for SpMM (default 32)
 *   --reps R     timed calls after one untimed warm-up (default 10)
 *   --seed S     generator seed (default 1)
 *   --verify     gather the matrix, x and y on rank 0 and compare y with a
 *                dense loop (N <= 2000) or a loop over the entries (larger)
 *
 * Partition (dist's, distrt/sparse.h): rank r holds rows [r B, (r + 1) B)
 * of A and of y, B = ceil(rows / P), and rows [r C, (r + 1) C) of x,
 * C = ceil(cols / P), both clipped to the extent.
 *
 * Output (rank 0), one line per timed call, the time the maximum over the
 * ranks of a call that starts after a barrier:
 *   baseline: time LIB-KERNEL matrix=NAME ranks=P[ k=K]: SECONDS s (G GFLOP/s, B GB/s)
 * then
 *   baseline: summary LIB-KERNEL ...: median SECONDS s, G GFLOP/s, B GB/s
 *   baseline: checksum LIB-KERNEL ...: sum(y) = S
 * and with --verify
 *   baseline: verify LIB-KERNEL ...: max relative error E (reference sum S): PASS|FAIL
 *
 * Bytes model (the least a CSR product with 32-bit column indices moves):
 * nnz * (8 + 4) + (rows + 1) * 4 + (cols + rows) * 8 * k; flops 2 nnz k.
 */
#ifndef SPARSE_COMMON_H
#define SPARSE_COMMON_H

#include <distrt/sparse.h>
#include <mpi.h>

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sb_opts {
  const char *matrix;
  int spmv, spmm;
  int64_t k;
  int reps;
  int64_t seed;
  int verify;
} sb_opts;

static void sb_usage(const char *prog) {
  fprintf(stderr,
          "usage: %s --matrix banded:N:W|rmat:N:EPR|uniform:N:PER_ROW|"
          "file:PATH [--kernel spmv|spmm|spmv,spmm] [--k K] [--reps R] "
          "[--seed S] [--verify]\n",
          prog);
}

/* Returns 0, or 2 after a usage message.  Unknown options starting with a
 * single '-' are left to the library (PETSc's own options). */
static int sb_parse(int argc, char **argv, sb_opts *o) {
  o->matrix = NULL;
  o->spmv = 1;
  o->spmm = 0;
  o->k = 32;
  o->reps = 10;
  o->seed = 1;
  o->verify = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--verify")) {
      o->verify = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0)
      continue;
    if (!v) {
      sb_usage(argv[0]);
      return 2;
    }
    if (!strcmp(a, "--matrix"))
      o->matrix = v;
    else if (!strcmp(a, "--kernel")) {
      o->spmv = strstr(v, "spmv") != NULL;
      o->spmm = strstr(v, "spmm") != NULL;
    } else if (!strcmp(a, "--k"))
      o->k = atoll(v);
    else if (!strcmp(a, "--reps"))
      o->reps = atoi(v);
    else if (!strcmp(a, "--seed"))
      o->seed = atoll(v);
    else {
      sb_usage(argv[0]);
      return 2;
    }
    ++i;
  }
  if (!o->matrix || (!o->spmv && !o->spmm) || o->k < 1 || o->reps < 1) {
    sb_usage(argv[0]);
    return 2;
  }
  return 0;
}

static int sb_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  if (m > n)
    return 0;
  for (size_t i = 0; i < m; ++i)
    if (tolower((unsigned char)s[n - m + i]) != suffix[i])
      return 0;
  return 1;
}

/* Builds this rank's rows of the matrix (collective).  `name` gets a short
 * name for the output lines.  Returns 0, or 2 on a bad spec. */
static int sb_load(const char *spec, int64_t seed, distrt_coo *coo,
                   char *name, size_t name_n) {
  long long a = 0, b = 0;
  if (sscanf(spec, "banded:%lld:%lld", &a, &b) == 2) {
    distrt_coo_gen_banded(NULL, a, b, seed, coo);
    snprintf(name, name_n, "banded-%lld-w%lld", a, b);
  } else if (sscanf(spec, "rmat:%lld:%lld", &a, &b) == 2) {
    distrt_coo_gen_rmat(NULL, a, b, seed, coo);
    snprintf(name, name_n, "rmat-%lld-e%lld", a, b);
  } else if (sscanf(spec, "uniform:%lld:%lld", &a, &b) == 2) {
    int64_t dims[2] = {a, a};
    distrt_coo_gen_uniform(NULL, 2, dims, a * b, seed, coo);
    snprintf(name, name_n, "uniform-%lld-r%lld", a, b);
  } else if (!strncmp(spec, "file:", 5)) {
    const char *path = spec + 5;
    if (sb_ends_with(path, ".mtx"))
      distrt_coo_read_mm(path, NULL, coo);
    else if (sb_ends_with(path, ".rsa") || sb_ends_with(path, ".rua") ||
             sb_ends_with(path, ".rra") || sb_ends_with(path, ".psa") ||
             sb_ends_with(path, ".pua") || sb_ends_with(path, ".pra"))
      distrt_coo_read_hb(path, NULL, coo);
    else {
      fprintf(stderr, "unknown matrix file type: %s\n", path);
      return 2;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(name, name_n, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot)
      *dot = '\0';
  } else {
    fprintf(stderr, "bad --matrix '%s'\n", spec);
    return 2;
  }
  if (coo->order != 2) {
    fprintf(stderr, "--matrix '%s' is not a matrix\n", spec);
    return 2;
  }
  return 0;
}

/* Rows [lo, hi) of rank r of P for an extent n: blocks of ceil(n / P). */
static void sb_block(int64_t n, int64_t P, int64_t r, int64_t *lo,
                     int64_t *hi) {
  int64_t b = n > 0 ? (n + P - 1) / P : 1;
  *lo = r * b < n ? r * b : n;
  *hi = (r + 1) * b < n ? (r + 1) * b : n;
}

/* The dense operand: x(j, c), deterministic, independent of P. */
static double sb_x(int64_t j, int64_t c) {
  return 1.0 + (double)((j * 7 + c * 13) % 17) / 32.0 - 0.25 * (double)(c % 3);
}

static double sb_bytes(int64_t rows, int64_t cols, int64_t nnz, int64_t k) {
  return (double)nnz * 12.0 + (double)(rows + 1) * 4.0 +
         (double)(cols + rows) * 8.0 * (double)k;
}

static int sb_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Rank 0 prints each time (already the max over ranks) and the summary. */
static void sb_report(int rank, const char *what, const double *times,
                      int reps, double flops, double bytes) {
  if (rank != 0)
    return;
  double *s = (double *)malloc(sizeof(double) * (size_t)reps);
  for (int r = 0; r < reps; ++r) {
    printf("baseline: time %s: %.6f s (%.3f GFLOP/s, %.3f GB/s)\n", what,
           times[r], flops / times[r] * 1e-9, bytes / times[r] * 1e-9);
    s[r] = times[r];
  }
  qsort(s, (size_t)reps, sizeof(double), sb_cmp_double);
  double med = reps % 2 ? s[reps / 2] : 0.5 * (s[reps / 2 - 1] + s[reps / 2]);
  printf("baseline: summary %s: median %.6f s, %.3f GFLOP/s, %.3f GB/s\n",
         what, med, flops / med * 1e-9, bytes / med * 1e-9);
  fflush(stdout);
  free(s);
}

/* Global nnz, and the largest and smallest local nnz. */
static void sb_nnz(const distrt_coo *coo, int64_t *total, int64_t *maxl,
                   int64_t *minl) {
  long long n = coo->nnz, t = 0, mx = 0, mn = 0;
  MPI_Allreduce(&n, &t, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &mx, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &mn, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  *total = t;
  *maxl = mx;
  *minl = mn;
}

/* sum(y) over all ranks; y is this rank's rows x k. */
static double sb_sum(const double *y, int64_t n) {
  double s = 0, t = 0;
  for (int64_t i = 0; i < n; ++i)
    s += y[i];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

/* Gathers `count` items of `size` bytes from every rank to rank 0 (rank
 * order).  Returns the buffer on rank 0 (NULL elsewhere); *total items. */
static void *sb_gather(const void *mine, int64_t count, int size,
                       int64_t *total) {
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int bytes = (int)(count * size);
  int *counts = (int *)malloc(sizeof(int) * (size_t)P);
  int *displs = (int *)malloc(sizeof(int) * (size_t)P);
  MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char *all = NULL;
  int64_t sum = 0;
  if (rank == 0) {
    for (int q = 0; q < P; ++q) {
      displs[q] = (int)sum;
      sum += counts[q];
    }
    all = (char *)malloc((size_t)(sum > 0 ? sum : 1));
  }
  MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
              MPI_COMM_WORLD);
  free(counts);
  free(displs);
  *total = sum / size;
  return all;
}

/* --verify: y is this rank's rows of A * X (row-major, k columns).  Rank 0
 * gathers A and y and recomputes A * X on its own: a dense rows x cols
 * matrix and a dense loop for rows, cols <= 2000, else a loop over the
 * entries.  Prints the verify line; returns 1 when it passed (on every
 * rank). */
static int sb_verify(const char *what, const distrt_coo *coo,
                     const double *y, int64_t k) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int64_t rows = coo->dims[0], cols = coo->dims[1], ncoords = 0, nvals = 0,
          ny = 0;
  int64_t *ij =
      (int64_t *)sb_gather(coo->coords, coo->nnz * 2, 8, &ncoords);
  double *v = (double *)sb_gather(coo->values, coo->nnz, 8, &nvals);
  double *yall =
      (double *)sb_gather(y, (coo->hi - coo->lo) * k, 8, &ny);
  int ok = 1;
  if (rank == 0) {
    double *ref = (double *)calloc((size_t)(rows * k > 0 ? rows * k : 1), 8);
    if (rows <= 2000 && cols <= 2000) {
      double *dense = (double *)calloc((size_t)(rows * cols > 0 ? rows * cols : 1), 8);
      for (int64_t e = 0; e < nvals; ++e)
        dense[ij[2 * e] * cols + ij[2 * e + 1]] += v[e];
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          for (int64_t c = 0; c < k; ++c)
            ref[i * k + c] += dense[i * cols + j] * sb_x(j, c);
      free(dense);
    } else {
      for (int64_t e = 0; e < nvals; ++e)
        for (int64_t c = 0; c < k; ++c)
          ref[ij[2 * e] * k + c] += v[e] * sb_x(ij[2 * e + 1], c);
    }
    double err = 0, scale = 0, rsum = 0;
    for (int64_t i = 0; i < rows * k; ++i)
      scale = fmax(scale, fabs(ref[i]));
    for (int64_t i = 0; i < rows * k; ++i) {
      double d = i < ny ? fabs(yall[i] - ref[i]) : INFINITY;
      err = fmax(err, d / (scale > 0 ? scale : 1.0));
      rsum += ref[i];
    }
    ok = ny == rows * k && err <= 1e-12;
    printf("baseline: verify %s: max relative error %.3e (reference sum "
           "%.17g, %s loop): %s\n",
           what, err, rsum, rows <= 2000 && cols <= 2000 ? "dense" : "COO",
           ok ? "PASS" : "FAIL");
    fflush(stdout);
    free(ref);
  }
  free(ij);
  free(v);
  free(yall);
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

#endif /* SPARSE_COMMON_H */
