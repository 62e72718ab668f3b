/* Baseline: memory bandwidth of P MPI ranks, a STREAM-like triad
 * a[i] = b[i] + s * c[i] over N doubles in all, blocked over the ranks
 * (rank r holds [r B, (r + 1) B), B = ceil(N / P), as dist blocks rows).
 * What the sparse suite compares SpMV bandwidth with: same processes, same
 * placement, one thread each.  24 bytes per element (two reads, one
 * write), as STREAM counts.
 *
 *   mpicc -O3 -march=native triad_mpi.c -o triad_mpi
 *   mpirun -np P ./triad_mpi N REPS
 *
 * One untimed warm-up pass (after a first touch), then REPS timed passes;
 * each starts after a barrier and its time is the maximum over the ranks.
 * Rank 0 prints per timed pass
 *   baseline: time triad-mpi n=N ranks=P: SECONDS s (GB/s)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc != 3) {
    if (rank == 0)
      fprintf(stderr, "usage: %s N REPS\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  long long n = atoll(argv[1]);
  int reps = atoi(argv[2]);
  if (n <= 0 || reps <= 0) {
    if (rank == 0)
      fprintf(stderr, "triad_mpi: bad arguments\n");
    MPI_Finalize();
    return 2;
  }
  long long b = (n + P - 1) / P;
  long long lo = rank * b < n ? rank * b : n;
  long long hi = (rank + 1) * b < n ? (rank + 1) * b : n;
  long long m = hi - lo;
  double *a = malloc(sizeof(double) * (size_t)(m + 1));
  double *bb = malloc(sizeof(double) * (size_t)(m + 1));
  double *c = malloc(sizeof(double) * (size_t)(m + 1));
  if (!a || !bb || !c) {
    fprintf(stderr, "triad_mpi: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (long long i = 0; i < m; ++i) {
    a[i] = 0.0;
    bb[i] = 1.0;
    c[i] = 2.0;
  }
  const double s = 3.0;
  for (int r = 0; r <= reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long long i = 0; i < m; ++i)
      a[i] = bb[i] + s * c[i];
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r > 0 && rank == 0) /* r == 0 is the warm-up */
      printf("baseline: time triad-mpi n=%lld ranks=%d: %.6f s (%.2f GB/s)\n",
             n, P, tmax, 24.0 * (double)n / tmax * 1e-9);
  }
  fflush(stdout);
  int bad = m > 0 && a[m / 2] != 7.0, anybad = 0;
  MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (anybad && rank == 0)
    printf("triad_mpi: wrong result\n");
  free(a);
  free(bb);
  free(c);
  MPI_Finalize();
  return anybad;
}
