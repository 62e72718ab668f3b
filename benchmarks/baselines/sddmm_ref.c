/* The single-process SDDMM reference of the sparse II benchmarks
 * (bench_sparse2.py): A(i,j) = B(i,j) * sum_k C(i,k) D(k,j) with B in CSR
 * (32-bit positions and coordinates, f64), a hand loop over the rows with
 * OpenMP threads (OMP_NUM_THREADS; dynamic chunks of rows, which balances
 * power-law rows), D transposed at every call (inside the timing, in
 * blocks of 256 columns) so that the sum over k reads rows of C and of D^T,
 * as dist's leaf does, and the sum over k vectorized (omp simd reduction:
 * reassociated, as dist's leaf is), with k a compile-time constant for k =
 * 8, 16, 32 and 64 (dist's leaf knows its k too).  PETSc
 * has no SDDMM; issue 15 compares dist on P ranks with this at P threads.
 *
 *   mpirun -np 1 sddmm_ref --matrix SPEC --k K --reps R [--seed S] [--verify]
 *
 * The matrix comes from sparse_common.h (the distrt readers and
 * generators: the same matrix dist.generate makes from the same seed).
 * C(i,k) and D(k,j) are fixed functions of their indices.  Output as the
 * other sparse baselines ("baseline: time ref-sddmm ...", a summary, a
 * checksum); --verify recomputes A entry by entry with a plain loop over k
 * and D in place and compares. */
#include "sparse_common.h"

#include <omp.h>

static double c_at(int64_t i, int64_t k) {
  return 0.5 + (double)((i * 5 + k * 3) % 11) / 16.0;
}
static double d_at(int64_t k, int64_t j) {
  return 1.0 - (double)((k * 7 + j * 2) % 13) / 32.0;
}

/* Row i: A's entries = B's times the dot product of C's row i and D^T's
 * row crd[p] (inlined with K a constant at the call sites that have one). */
static inline __attribute__((always_inline)) void
sddmm_row(const int32_t *pos, const int32_t *crd, const double *bv,
          double *av, const double *C, const double *Dt, int64_t i,
          int64_t K) {
  const double *ci = C + i * K;
  for (int32_t p = pos[i]; p < pos[i + 1]; ++p) {
    const double *dj = Dt + (int64_t)crd[p] * K;
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (int64_t k = 0; k < K; ++k)
      s += ci[k] * dj[k];
    av[p] = bv[p] * s;
  }
}

int main(int argc, char **argv) {
  sb_opts o;
  if (sb_parse(argc, argv, &o))
    return 2;
  MPI_Init(&argc, &argv);
  distrt_init();
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (P != 1) {
    fprintf(stderr, "sddmm_ref: runs as one process (threads: "
                    "OMP_NUM_THREADS), not %d\n", P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  distrt_coo coo;
  char name[256];
  if (sb_load(o.matrix, o.seed, &coo, name, sizeof name))
    MPI_Abort(MPI_COMM_WORLD, 2);
  int64_t rows = coo.dims[0], cols = coo.dims[1], nnz = coo.nnz, K = o.k;
  int32_t *pos = (int32_t *)calloc((size_t)rows + 1, sizeof(int32_t));
  int32_t *crd = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nnz + 1));
  double *bv = (double *)malloc(sizeof(double) * (size_t)(nnz + 1));
  double *av = (double *)malloc(sizeof(double) * (size_t)(nnz + 1));
  for (int64_t e = 0; e < nnz; ++e) { /* row-major, as the readers give */
    ++pos[coo.coords[2 * e] + 1];
    crd[e] = (int32_t)coo.coords[2 * e + 1];
    bv[e] = coo.values[e];
  }
  for (int64_t i = 0; i < rows; ++i)
    pos[i + 1] += pos[i];
  double *C = (double *)malloc(sizeof(double) * (size_t)(rows * K));
  double *D = (double *)malloc(sizeof(double) * (size_t)(K * cols));
  double *Dt = (double *)malloc(sizeof(double) * (size_t)(K * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k < K; ++k)
      C[i * K + k] = c_at(i, k);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < cols; ++j)
      D[k * cols + j] = d_at(k, j);

  int threads = omp_get_max_threads();
  double *times = (double *)malloc(sizeof(double) * (size_t)o.reps);
  for (int r = -1; r < o.reps; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel
    {
      /* D^T in blocks of 256 columns: rows of D read in runs, D^T
       * written contiguously. */
#pragma omp for schedule(static)
      for (int64_t jb = 0; jb < cols; jb += 256) {
        int64_t je = jb + 256 < cols ? jb + 256 : cols;
        for (int64_t k = 0; k < K; ++k)
          for (int64_t j = jb; j < je; ++j)
            Dt[j * K + k] = D[k * cols + j];
      }
#pragma omp for schedule(dynamic, 64)
      for (int64_t i = 0; i < rows; ++i) {
        switch (K) { /* k known to the compiler for the usual widths */
        case 8:
          sddmm_row(pos, crd, bv, av, C, Dt, i, 8);
          break;
        case 16:
          sddmm_row(pos, crd, bv, av, C, Dt, i, 16);
          break;
        case 32:
          sddmm_row(pos, crd, bv, av, C, Dt, i, 32);
          break;
        case 64:
          sddmm_row(pos, crd, bv, av, C, Dt, i, 64);
          break;
        default:
          sddmm_row(pos, crd, bv, av, C, Dt, i, K);
        }
      }
    }
    double t = omp_get_wtime() - t0;
    if (r >= 0)
      times[r] = t;
  }
  char what[400];
  snprintf(what, sizeof what, "ref-sddmm matrix=%s ranks=1 threads=%d k=%lld",
           name, threads, (long long)K);
  double flops = (double)nnz * (2.0 * (double)K + 1.0);
  double bytes = (double)nnz * 24.0 + (double)(rows + 1) * 4.0 +
                 (double)(rows + 2 * cols) * 8.0 * (double)K;
  sb_report(0, what, times, o.reps, flops, bytes);
  double sum = 0.0;
  for (int64_t p = 0; p < nnz; ++p)
    sum += av[p];
  printf("baseline: checksum %s: sum(A) = %.17g\n", what, sum);
  int ok = 1;
  if (o.verify) {
    double err = 0.0, scale = 0.0;
    for (int64_t i = 0; i < rows; ++i)
      for (int32_t p = pos[i]; p < pos[i + 1]; ++p) {
        double s = 0.0;
        for (int64_t k = 0; k < K; ++k)
          s += c_at(i, k) * d_at(k, crd[p]);
        double ref = bv[p] * s;
        scale = fmax(scale, fabs(ref));
        err = fmax(err, fabs(av[p] - ref));
      }
    err = scale > 0 ? err / scale : err;
    ok = err <= 1e-12;
    printf("baseline: verify %s: max relative error %.3e: %s\n", what, err,
           ok ? "PASS" : "FAIL");
  }
  fflush(stdout);
  free(times);
  free(pos);
  free(crd);
  free(bv);
  free(av);
  free(C);
  free(D);
  free(Dt);
  distrt_coo_free(&coo);
  distrt_finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
