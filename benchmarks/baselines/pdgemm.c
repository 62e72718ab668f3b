/* Baseline: ScaLAPACK pdgemm, C = A * B on n x n f64 matrices distributed
 * block-cyclically (block NB x NB) over a P x Q BLACS process grid.
 *
 *   mpicc -O2 pdgemm.c -o pdgemm -lscalapack-openmpi
 *   OPENBLAS_NUM_THREADS=1 mpirun -np P*Q ./pdgemm N P Q NB REPS
 *
 * One untimed warm-up call, then REPS timed calls; each call starts after a
 * barrier and its time is the maximum over the ranks. Rank 0 prints
 *   baseline: time pdgemm n=N grid=PxQ nb=NB: SECONDS s
 * per timed call. Uses the BLACS C interface (Cblacs_*) and the Fortran
 * calling convention for descinit_, numroc_ and pdgemm_.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int context, int request, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int notDone);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc,
            const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb,
               const int *nb, const int *irsrc, const int *icsrc,
               const int *ictxt, const int *lld, int *info);
void pdgemm_(const char *transa, const char *transb, const int *m,
             const int *n, const int *k, const double *alpha, const double *a,
             const int *ia, const int *ja, const int *desca, const double *b,
             const int *ib, const int *jb, const int *descb,
             const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 6) {
    if (rank == 0)
      fprintf(stderr, "usage: %s N P Q NB REPS\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  int n = atoi(argv[1]), p = atoi(argv[2]), q = atoi(argv[3]);
  int nb = atoi(argv[4]), reps = atoi(argv[5]);
  if (n <= 0 || p <= 0 || q <= 0 || nb <= 0 || reps <= 0 || p * q != size) {
    if (rank == 0)
      fprintf(stderr, "pdgemm: bad arguments (P*Q must be the rank count %d)\n",
              size);
    MPI_Finalize();
    return 2;
  }

  int me, np, ctxt, nprow, npcol, myrow, mycol;
  Cblacs_pinfo(&me, &np);
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", p, q);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

  int izero = 0, ione = 1, info;
  int mloc = numroc_(&n, &nb, &myrow, &izero, &nprow);
  int nloc = numroc_(&n, &nb, &mycol, &izero, &npcol);
  int lld = mloc > 1 ? mloc : 1;
  int desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &izero, &izero, &ctxt, &lld, &info);
  if (info != 0) {
    fprintf(stderr, "pdgemm: descinit failed (info %d)\n", info);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t len = (size_t)lld * (nloc > 0 ? nloc : 1);
  double *a = malloc(sizeof(double) * len);
  double *b = malloc(sizeof(double) * len);
  double *c = malloc(sizeof(double) * len);
  if (!a || !b || !c) {
    fprintf(stderr, "pdgemm: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  srand(1 + rank);
  for (size_t i = 0; i < len; ++i) {
    a[i] = (double)rand() / RAND_MAX - 0.5;
    b[i] = (double)rand() / RAND_MAX - 0.5;
    c[i] = 0.0;
  }
  const double one = 1.0, zero = 0.0;
  for (int r = 0; r <= reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &n, &one, a, &ione, &ione, desc, b, &ione,
            &ione, desc, &zero, c, &ione, &ione, desc);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0 && r > 0) /* r == 0 is the warm-up */
      printf("baseline: time pdgemm n=%d grid=%dx%d nb=%d: %.6f s\n", n, p,
             q, nb, tmax);
  }
  fflush(stdout);
  free(a);
  free(b);
  free(c);
  Cblacs_gridexit(ctxt);
  Cblacs_exit(1); /* 1: MPI is finalized below, not by BLACS */
  MPI_Finalize();
  return 0;
}
