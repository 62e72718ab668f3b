/* The single-process references of the sparse III benchmarks
 * (bench_sparse3.py), on an order-3 sparse tensor B(i,j,k) in CSF with a
 * dense root (32-bit positions and coordinates, f64): rows i (dense),
 * fibers (i,j) (pos1 over the rows, crd1 = j), entries (pos2 over the
 * fibers, crd2 = k), values.
 *
 *   TTV     A(i,j) = B(i,j,k) * c(k): A sparse with B's (i,j) pattern (its
 *           values, one a fiber; the pattern is B's level-1 arrays, shared,
 *           not copied inside the timing).
 *   MTTKRP  A(i,l) = B(i,j,k) * C(j,l) * D(k,l): A dense I x L, row-major,
 *           zeroed inside the timing; per fiber t(l) = sum_k B(i,j,k) D(k,l)
 *           (omp simd over l), then A(i,l) += t(l) C(j,l).  L is a
 *           compile-time constant for 8, 16, 32 and 64 (as k in
 *           sddmm_ref.c), generic otherwise.  C, D and A (and c) start on
 *           a cache line.
 *
 * A hand loop over the rows with OpenMP threads (OMP_NUM_THREADS; dynamic
 * chunks of rows).  PETSc has no such kernels; issue 15 compares dist on P
 * ranks with this at P threads.
 *
 *   mpirun -np 1 sptensor_ref --kernel ttv|mttkrp|ttv,mttkrp
 *          [--gen uniform|rmat] --dims I,J,K --per-row E [--seed S]
 *          [--rank L] [--reps R] [--verify]
 *
 * The tensor is distrt_coo_gen_uniform(NULL, 3, {I, J, K}, E * I, S), or
 * with --gen rmat distrt_coo_gen_kronecker with the same arguments: what
 * dist.generate %B uniform(E) (rmat(E)) seed S makes of an I x J x K tensor (sorted
 * by (i,j,k), duplicates kept once).  The CSF is built outside the timing.
 * c(k), C(j,l) and D(k,l) are fixed functions of their indices.  Defaults:
 * seed 1, L 16, 10 timed calls after one untimed warm-up.
 *
 * Output (as the other sparse baselines, sparse_common.h), per kernel:
 *   baseline: time ref-KERNEL tensor=NAME ranks=1 threads=T[ l=L]: S s (G GFLOP/s, B GB/s)
 *   baseline: summary ref-KERNEL ...: median S s, G GFLOP/s, B GB/s
 *   baseline: checksum ref-KERNEL ...: sum(A) = X
 * and with --verify (A recomputed with a plain loop over the COO entries,
 * the dense operands evaluated in place):
 *   baseline: verify ref-KERNEL ...: max relative error E: PASS|FAIL
 */
#include "sparse_common.h"

#include <omp.h>

static double c_at(int64_t k) {
  return 0.5 + (double)((k * 5) % 11) / 16.0;
}
static double cm_at(int64_t j, int64_t l) { /* C(j,l) */
  return 0.5 + (double)((j * 5 + l * 3) % 11) / 16.0;
}
static double dm_at(int64_t k, int64_t l) { /* D(k,l) */
  return 1.0 - (double)((k * 7 + l * 2) % 13) / 32.0;
}

typedef struct csf3 {
  int64_t I, J, K, nf, nnz;
  int32_t *pos1, *crd1, *pos2, *crd2;
  double *vals;
} csf3;

/* The CSF of a coo sorted by (i,j,k) without duplicates. */
static void csf_build(const distrt_coo *coo, csf3 *t) {
  t->I = coo->dims[0];
  t->J = coo->dims[1];
  t->K = coo->dims[2];
  t->nnz = coo->nnz;
  const int64_t *x = coo->coords;
  int64_t nf = 0;
  for (int64_t e = 0; e < coo->nnz; ++e)
    if (e == 0 || x[3 * e] != x[3 * e - 3] || x[3 * e + 1] != x[3 * e - 2])
      ++nf;
  t->nf = nf;
  t->pos1 = (int32_t *)calloc((size_t)t->I + 1, sizeof(int32_t));
  t->crd1 = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nf + 1));
  t->pos2 = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nf + 1));
  t->crd2 = (int32_t *)malloc(sizeof(int32_t) * (size_t)(t->nnz + 1));
  t->vals = (double *)malloc(sizeof(double) * (size_t)(t->nnz + 1));
  int64_t f = -1;
  for (int64_t e = 0; e < coo->nnz; ++e) {
    if (e == 0 || x[3 * e] != x[3 * e - 3] || x[3 * e + 1] != x[3 * e - 2]) {
      ++f;
      ++t->pos1[x[3 * e] + 1];
      t->crd1[f] = (int32_t)x[3 * e + 1];
      t->pos2[f] = (int32_t)e;
    }
    t->crd2[e] = (int32_t)x[3 * e + 2];
    t->vals[e] = coo->values[e];
  }
  t->pos2[nf] = (int32_t)t->nnz;
  for (int64_t i = 0; i < t->I; ++i)
    t->pos1[i + 1] += t->pos1[i];
}

static void csf_free(csf3 *t) {
  free(t->pos1);
  free(t->crd1);
  free(t->pos2);
  free(t->crd2);
  free(t->vals);
}

/* n doubles on a cache-line boundary (the dense operands: a row of D of
 * L = 16 is then two cache lines, not three). */
static double *dalloc(int64_t n) {
  size_t bytes = ((size_t)(n > 0 ? n : 1) * sizeof(double) + 63) / 64 * 64;
  return (double *)aligned_alloc(64, bytes);
}

/* Rows per dynamic chunk: about 64 chunks a thread, at least one row. */
static int64_t row_chunk(int64_t rows, int threads) {
  int64_t c = rows / ((int64_t)threads * 64);
  return c > 0 ? c : 1;
}

/* ---- TTV ------------------------------------------------------------- */

static void ttv_call(const csf3 *t, const double *c, double *av,
                     int64_t chunk) {
  const int32_t *pos1 = t->pos1, *pos2 = t->pos2, *crd2 = t->crd2;
  const double *bv = t->vals;
#pragma omp parallel for schedule(dynamic, chunk)
  for (int64_t i = 0; i < t->I; ++i)
    for (int32_t f = pos1[i]; f < pos1[i + 1]; ++f) {
      double s = 0.0;
      for (int32_t p = pos2[f]; p < pos2[f + 1]; ++p)
        s += bv[p] * c[crd2[p]];
      av[f] = s;
    }
}

/* A's values per fiber from the coo, fiber by fiber in entry order; the
 * fibers' (i,j) must match B's level-1 arrays. */
static double ttv_verify(const distrt_coo *coo, const csf3 *t,
                         const double *av) {
  const int64_t *x = coo->coords;
  double err = 0.0, scale = 0.0;
  int64_t f = -1, row = 0;
  double s = 0.0;
  for (int64_t e = 0; e <= coo->nnz; ++e) {
    int newf = e == coo->nnz || e == 0 || x[3 * e] != x[3 * e - 3] ||
               x[3 * e + 1] != x[3 * e - 2];
    if (newf && f >= 0) {
      scale = fmax(scale, fabs(s));
      err = fmax(err, fabs(av[f] - s));
    }
    if (e == coo->nnz)
      break;
    if (newf) {
      ++f;
      s = 0.0;
      while (row < t->I && t->pos1[row + 1] <= f)
        ++row;
      if (f >= t->nf || row != x[3 * e] || t->crd1[f] != x[3 * e + 1])
        return INFINITY;
    }
    s += coo->values[e] * c_at(x[3 * e + 2]);
  }
  if (f + 1 != t->nf)
    return INFINITY;
  return scale > 0 ? err / scale : err;
}

/* ---- MTTKRP ---------------------------------------------------------- */

/* Row i of A (inlined with L a constant at the call sites that have one;
 * tbuf: L doubles of scratch for L > 64). */
static inline __attribute__((always_inline)) void
mttkrp_row(const csf3 *t, const double *C, const double *D, double *A,
           int64_t i, int64_t L, double *tbuf) {
  double tl[64];
  double *tv = L <= 64 ? tl : tbuf;
  double *ai = A + i * L;
#pragma omp simd
  for (int64_t l = 0; l < L; ++l)
    ai[l] = 0.0;
  const int32_t *pos2 = t->pos2, *crd2 = t->crd2;
  const double *bv = t->vals;
  for (int32_t f = t->pos1[i]; f < t->pos1[i + 1]; ++f) {
#pragma omp simd
    for (int64_t l = 0; l < L; ++l)
      tv[l] = 0.0;
    for (int32_t p = pos2[f]; p < pos2[f + 1]; ++p) {
      const double v = bv[p];
      const double *dk = D + (int64_t)crd2[p] * L;
#pragma omp simd
      for (int64_t l = 0; l < L; ++l)
        tv[l] += v * dk[l];
    }
    const double *cj = C + (int64_t)t->crd1[f] * L;
#pragma omp simd
    for (int64_t l = 0; l < L; ++l)
      ai[l] += tv[l] * cj[l];
  }
}

static void mttkrp_call(const csf3 *t, const double *C, const double *D,
                        double *A, int64_t L, int64_t chunk) {
#pragma omp parallel
  {
    double *tbuf = L > 64 ? (double *)malloc(sizeof(double) * (size_t)L)
                          : NULL;
#pragma omp for schedule(dynamic, chunk)
    for (int64_t i = 0; i < t->I; ++i) {
      switch (L) { /* L known to the compiler for the usual widths */
      case 8:
        mttkrp_row(t, C, D, A, i, 8, tbuf);
        break;
      case 16:
        mttkrp_row(t, C, D, A, i, 16, tbuf);
        break;
      case 32:
        mttkrp_row(t, C, D, A, i, 32, tbuf);
        break;
      case 64:
        mttkrp_row(t, C, D, A, i, 64, tbuf);
        break;
      default:
        mttkrp_row(t, C, D, A, i, L, tbuf);
      }
    }
    free(tbuf);
  }
}

/* A entry by entry of the coo, C and D evaluated in place. */
static double mttkrp_verify(const distrt_coo *coo, const double *A,
                            int64_t L) {
  int64_t I = coo->dims[0];
  double *ref = (double *)calloc((size_t)(I * L > 0 ? I * L : 1), 8);
  const int64_t *x = coo->coords;
  for (int64_t e = 0; e < coo->nnz; ++e)
    for (int64_t l = 0; l < L; ++l)
      ref[x[3 * e] * L + l] +=
          coo->values[e] * cm_at(x[3 * e + 1], l) * dm_at(x[3 * e + 2], l);
  double err = 0.0, scale = 0.0;
  for (int64_t n = 0; n < I * L; ++n) {
    scale = fmax(scale, fabs(ref[n]));
    err = fmax(err, fabs(A[n] - ref[n]));
  }
  free(ref);
  return scale > 0 ? err / scale : err;
}

/* ---- driver ---------------------------------------------------------- */

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s --kernel ttv|mttkrp|ttv,mttkrp [--gen uniform|rmat] "
          "--dims I,J,K --per-row E [--seed S] [--rank L] [--reps R] "
          "[--verify]\n",
          prog);
}

int main(int argc, char **argv) {
  int ttv = 0, mttkrp = 0, reps = 10, verify = 0, rmat = 0;
  long long I = 0, J = 0, K = 0, E = 0, seed = 1, L = 16;
  for (int a = 1; a < argc; ++a) {
    const char *o = argv[a];
    const char *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(o, "--verify")) {
      verify = 1;
      continue;
    }
    if (strncmp(o, "--", 2) != 0)
      continue;
    if (!v) {
      usage(argv[0]);
      return 2;
    }
    if (!strcmp(o, "--kernel")) {
      ttv = strstr(v, "ttv") != NULL;
      mttkrp = strstr(v, "mttkrp") != NULL;
    } else if (!strcmp(o, "--dims")) {
      if (sscanf(v, "%lld,%lld,%lld", &I, &J, &K) != 3) {
        usage(argv[0]);
        return 2;
      }
    } else if (!strcmp(o, "--gen")) {
      if (strcmp(v, "uniform") && strcmp(v, "rmat")) {
        usage(argv[0]);
        return 2;
      }
      rmat = !strcmp(v, "rmat");
    } else if (!strcmp(o, "--per-row"))
      E = atoll(v);
    else if (!strcmp(o, "--seed"))
      seed = atoll(v);
    else if (!strcmp(o, "--rank"))
      L = atoll(v);
    else if (!strcmp(o, "--reps"))
      reps = atoi(v);
    else {
      usage(argv[0]);
      return 2;
    }
    ++a;
  }
  if ((!ttv && !mttkrp) || I < 1 || J < 1 || K < 1 || E < 1 || L < 1 ||
      reps < 1 || J > INT32_MAX || K > INT32_MAX) {
    usage(argv[0]);
    return 2;
  }
  MPI_Init(&argc, &argv);
  distrt_init();
  int P;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (P != 1) {
    fprintf(stderr, "sptensor_ref: runs as one process (threads: "
                    "OMP_NUM_THREADS), not %d\n", P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  distrt_coo coo;
  int64_t dims[3] = {I, J, K};
  if (rmat)
    distrt_coo_gen_kronecker(NULL, 3, dims, (int64_t)E * I, seed, &coo);
  else
    distrt_coo_gen_uniform(NULL, 3, dims, (int64_t)E * I, seed, &coo);
  if (coo.nnz > INT32_MAX) {
    fprintf(stderr, "sptensor_ref: %lld entries do not fit 32-bit "
                    "positions\n", (long long)coo.nnz);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  csf3 t;
  csf_build(&coo, &t);
  char name[200];
  snprintf(name, sizeof name, "uniform-%lldx%lldx%lld-e%lld", I, J, K, E);
  int threads = omp_get_max_threads();
  int64_t chunk = row_chunk(I, threads);
  double *times = (double *)malloc(sizeof(double) * (size_t)reps);
  int ok = 1;

  if (ttv) {
    double *c = dalloc(K);
    for (int64_t k = 0; k < K; ++k)
      c[k] = c_at(k);
    double *av = (double *)malloc(sizeof(double) * (size_t)(t.nf + 1));
    for (int r = -1; r < reps; ++r) {
      double t0 = omp_get_wtime();
      ttv_call(&t, c, av, chunk);
      double dt = omp_get_wtime() - t0;
      if (r >= 0)
        times[r] = dt;
    }
    char what[400];
    snprintf(what, sizeof what, "ref-ttv tensor=%s ranks=1 threads=%d", name,
             threads);
    double flops = 2.0 * (double)t.nnz;
    double bytes = (double)t.nnz * 12.0 + (double)t.nf * 16.0 +
                   (double)(I + 1) * 4.0 + (double)K * 8.0;
    sb_report(0, what, times, reps, flops, bytes);
    double sum = 0.0;
    for (int64_t f = 0; f < t.nf; ++f)
      sum += av[f];
    printf("baseline: checksum %s: sum(A) = %.17g (%lld entries, %lld "
           "fibers)\n", what, sum, (long long)t.nnz, (long long)t.nf);
    if (verify) {
      double err = ttv_verify(&coo, &t, av);
      int pass = err <= 1e-12;
      ok = ok && pass;
      printf("baseline: verify %s: max relative error %.3e: %s\n", what, err,
             pass ? "PASS" : "FAIL");
    }
    fflush(stdout);
    free(c);
    free(av);
  }

  if (mttkrp) {
    double *C = dalloc(J * L);
    double *D = dalloc(K * L);
    double *A = dalloc(I * L);
    for (int64_t j = 0; j < J; ++j)
      for (int64_t l = 0; l < L; ++l)
        C[j * L + l] = cm_at(j, l);
    for (int64_t k = 0; k < K; ++k)
      for (int64_t l = 0; l < L; ++l)
        D[k * L + l] = dm_at(k, l);
    for (int r = -1; r < reps; ++r) {
      double t0 = omp_get_wtime();
      mttkrp_call(&t, C, D, A, L, chunk);
      double dt = omp_get_wtime() - t0;
      if (r >= 0)
        times[r] = dt;
    }
    char what[400];
    snprintf(what, sizeof what, "ref-mttkrp tensor=%s ranks=1 threads=%d l=%lld",
             name, threads, L);
    double flops = 2.0 * (double)L * (double)(t.nnz + t.nf);
    double bytes = (double)t.nnz * 12.0 + (double)t.nf * 8.0 +
                   (double)(I + 1) * 4.0 + (double)(J + K + I) * 8.0 * L;
    sb_report(0, what, times, reps, flops, bytes);
    double sum = 0.0;
    for (int64_t n = 0; n < I * L; ++n)
      sum += A[n];
    printf("baseline: checksum %s: sum(A) = %.17g (%lld entries, %lld "
           "fibers)\n", what, sum, (long long)t.nnz, (long long)t.nf);
    if (verify) {
      double err = mttkrp_verify(&coo, A, L);
      int pass = err <= 1e-12;
      ok = ok && pass;
      printf("baseline: verify %s: max relative error %.3e: %s\n", what, err,
             pass ? "PASS" : "FAIL");
    }
    fflush(stdout);
    free(C);
    free(D);
    free(A);
  }

  free(times);
  csf_free(&t);
  distrt_coo_free(&coo);
  distrt_finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
