/* Baseline for the GPU benchmark: one process, one GPU, cuBLAS GEMM,
 * C = A * B on n x n row-major matrices already in device memory (f64 or
 * f32), timed from a stream synchronisation before the call to one after it.
 *
 *   cc -O2 cublas_gemm.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 \
 *      -lcublas -lcudart -o cublas_gemm
 *   ./cublas_gemm N f64|f32 REPS
 *
 * Prints one line per timed call after one untimed warm-up call, in the CPU
 * suite's baseline format (benchmarks/bench.py):
 *   baseline: time cublas dgemm n=N: SECONDS s
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#define CK(call, what)                                                        \
  do {                                                                        \
    if ((call) != 0) {                                                        \
      fprintf(stderr, "cublas_gemm: %s failed\n", what);                      \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[2], "f64") && strcmp(argv[2], "f32"))) {
    fprintf(stderr, "usage: %s N f64|f32 REPS\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]);
  int f64 = !strcmp(argv[2], "f64"), reps = atoi(argv[3]);
  if (n <= 0 || reps <= 0) {
    fprintf(stderr, "cublas_gemm: bad arguments\n");
    return 2;
  }
  size_t esz = f64 ? sizeof(double) : sizeof(float);
  size_t bytes = esz * (size_t)n * (size_t)n;
  void *h = malloc(bytes), *a, *b, *c;
  if (!h) {
    fprintf(stderr, "cublas_gemm: out of host memory\n");
    return 1;
  }
  srand(1);
  for (long i = 0; i < n * n; ++i) {
    double v = (double)rand() / RAND_MAX - 0.5;
    if (f64)
      ((double *)h)[i] = v;
    else
      ((float *)h)[i] = (float)v;
  }
  CK(cudaMalloc(&a, bytes), "cudaMalloc");
  CK(cudaMalloc(&b, bytes), "cudaMalloc");
  CK(cudaMalloc(&c, bytes), "cudaMalloc");
  CK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  CK(cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cudaStream_t s;
  cublasHandle_t hd;
  CK(cudaStreamCreate(&s), "cudaStreamCreate");
  CK(cublasCreate(&hd), "cublasCreate");
  CK(cublasSetStream(hd, s), "cublasSetStream");
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  for (int r = 0; r <= reps; ++r) {
    CK(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    double t0 = now();
    /* Row-major C = A B is column-major C^T = B^T A^T. */
    if (f64)
      CK(cublasDgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n,
                     &one, b, (int)n, a, (int)n, &zero, c, (int)n),
         "cublasDgemm");
    else
      CK(cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n,
                     &onef, b, (int)n, a, (int)n, &zerof, c, (int)n),
         "cublasSgemm");
    CK(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    double t = now() - t0;
    if (r > 0)
      printf("baseline: time cublas %sgemm n=%ld: %.6f s\n", f64 ? "d" : "s",
             n, t);
  }
  fflush(stdout);
  cublasDestroy(hd);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  free(h);
  return 0;
}
