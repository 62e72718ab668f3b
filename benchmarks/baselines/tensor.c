/* Baselines for TTM and MTTKRP: one process, OpenBLAS with THREADS threads,
 * row-major tensors as dist lays out its tiles.
 *
 *   TTM     A(i,j,l) = B(i,j,k) * C(k,l): one dgemm, (I*J x K) * (K x L).
 *   MTTKRP  A(i,l) = B(i,j,k) * C(j,l) * D(k,l): the Khatri-Rao product
 *           KR(j*K+k, l) = C(j,l) * D(k,l) (OpenMP, THREADS threads), then
 *           one dgemm, (I x J*K) * (J*K x L). The time includes both.
 *
 *   cc -O2 -fopenmp tensor.c -o tensor -lopenblas
 *   ./tensor ttm|mttkrp I J K L THREADS REPS
 *
 * One untimed warm-up call, then REPS timed calls, each printed as
 *   baseline: time KERNEL IxJxKxL threads=T: SECONDS s
 */
#include <cblas.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void openblas_set_num_threads(int);

static double *filled(long n, unsigned seed) {
  double *p = malloc(sizeof(double) * (n > 0 ? n : 1));
  if (!p) {
    fprintf(stderr, "tensor: out of memory\n");
    exit(1);
  }
  srand(seed);
  for (long i = 0; i < n; ++i)
    p[i] = (double)rand() / RAND_MAX - 0.5;
  return p;
}

int main(int argc, char **argv) {
  if (argc != 8 || (strcmp(argv[1], "ttm") && strcmp(argv[1], "mttkrp"))) {
    fprintf(stderr, "usage: %s ttm|mttkrp I J K L THREADS REPS\n", argv[0]);
    return 2;
  }
  int ttm = !strcmp(argv[1], "ttm");
  long ni = atol(argv[2]), nj = atol(argv[3]), nk = atol(argv[4]),
       nl = atol(argv[5]);
  int threads = atoi(argv[6]), reps = atoi(argv[7]);
  if (ni <= 0 || nj <= 0 || nk <= 0 || nl <= 0 || threads <= 0 || reps <= 0) {
    fprintf(stderr, "tensor: bad arguments\n");
    return 2;
  }
  openblas_set_num_threads(threads);
  omp_set_num_threads(threads);
  double *B = filled(ni * nj * nk, 1);
  double *C = filled(ttm ? nk * nl : nj * nl, 2);
  double *D = ttm ? NULL : filled(nk * nl, 3);
  double *A = calloc(ttm ? ni * nj * nl : ni * nl, sizeof(double));
  double *KR = ttm ? NULL : malloc(sizeof(double) * nj * nk * nl);
  if (!A || (!ttm && !KR)) {
    fprintf(stderr, "tensor: out of memory\n");
    return 1;
  }
  for (int r = 0; r <= reps; ++r) {
    double t0 = omp_get_wtime();
    if (ttm) {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(ni * nj),
                  (int)nl, (int)nk, 1.0, B, (int)nk, C, (int)nl, 0.0, A, (int)nl);
    } else {
#pragma omp parallel for schedule(static)
      for (long j = 0; j < nj; ++j)
        for (long k = 0; k < nk; ++k)
          for (long l = 0; l < nl; ++l)
            KR[(j * nk + k) * nl + l] = C[j * nl + l] * D[k * nl + l];
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)ni, (int)nl,
                  (int)(nj * nk), 1.0, B, (int)(nj * nk), KR, (int)nl, 0.0, A,
                  (int)nl);
    }
    double t = omp_get_wtime() - t0;
    if (r > 0) /* r == 0 is the warm-up */
      printf("baseline: time %s %ldx%ldx%ldx%ld threads=%d: %.6f s\n",
             argv[1], ni, nj, nk, nl, threads, t);
  }
  fflush(stdout);
  if (A[0] != A[0])
    printf("nan\n");
  free(A);
  free(B);
  free(C);
  free(D);
  free(KR);
  return 0;
}
