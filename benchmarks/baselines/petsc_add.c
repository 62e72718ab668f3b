/* Baseline: a sum of three PETSc sparse matrices, A = B + C + D, the way a
 * PETSc user makes a new matrix of it: MatDuplicate(B, MAT_COPY_VALUES),
 * then MatAXPY(A, 1, C) and MatAXPY(A, 1, D) with
 * DIFFERENT_NONZERO_PATTERN (the union), and MatDestroy of the previous
 * call's A, all inside the timed call (dist's sum likewise frees the old
 * output and assembles a new one).  B, C and D are the matrix of --matrix
 * with seeds S, S + 1 and S + 2 (sparse_common.h: the distrt generators,
 * dist's row partition), MATAIJ preallocated exactly as in petsc_spmv.c.
 *
 *   mpirun -np P ./petsc_add --matrix rmat:1048576:10 --reps 10
 *
 * Output as the other sparse baselines ("baseline: time petsc-add ...", a
 * summary) and the sum's entry count ("baseline: entries petsc-add ...").
 */
#include "sparse_common.h"

#include <petscmat.h>

#define CHK(call)                                                              \
  do {                                                                         \
    PetscErrorCode ierr_ = (call);                                             \
    if (ierr_) {                                                               \
      fprintf(stderr, "petsc_add: %s failed (%d) at line %d\n", #call,         \
              (int)ierr_, __LINE__);                                           \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

/* This rank's rows of coo as a MATAIJ with dist's row and column blocks. */
static Mat build(const distrt_coo *coo, int rank, int P) {
  int64_t rows = coo->dims[0], cols = coo->dims[1], clo, chi;
  sb_block(cols, P, rank, &clo, &chi);
  PetscInt mloc = (PetscInt)(coo->hi - coo->lo), nloc = (PetscInt)(chi - clo);
  PetscInt *dnz = (PetscInt *)calloc((size_t)mloc + 1, sizeof(PetscInt));
  PetscInt *onz = (PetscInt *)calloc((size_t)mloc + 1, sizeof(PetscInt));
  for (int64_t e = 0; e < coo->nnz; ++e) {
    int64_t i = coo->coords[2 * e] - coo->lo, j = coo->coords[2 * e + 1];
    if (j >= clo && j < chi)
      ++dnz[i];
    else
      ++onz[i];
  }
  Mat A;
  CHK(MatCreateAIJ(PETSC_COMM_WORLD, mloc, nloc, (PetscInt)rows,
                   (PetscInt)cols, 0, dnz, 0, onz, &A));
  PetscInt *cidx = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)(cols + 1));
  for (int64_t e = 0; e < coo->nnz;) {
    int64_t i = coo->coords[2 * e], s = e;
    while (e < coo->nnz && coo->coords[2 * e] == i) {
      cidx[e - s] = (PetscInt)coo->coords[2 * e + 1];
      ++e;
    }
    PetscInt gi = (PetscInt)i;
    CHK(MatSetValues(A, 1, &gi, (PetscInt)(e - s), cidx, coo->values + s,
                     INSERT_VALUES));
  }
  free(cidx);
  free(dnz);
  free(onz);
  CHK(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  CHK(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  return A;
}

int main(int argc, char **argv) {
  sb_opts o;
  if (sb_parse(argc, argv, &o))
    return 2;
  CHK(PetscInitialize(&argc, &argv, NULL, NULL));
  distrt_init(); /* MPI is PETSc's: distrt leaves it initialized */
  int rank, P;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &P);
  Mat M[3];
  char name[256];
  for (int t = 0; t < 3; ++t) {
    distrt_coo coo;
    if (sb_load(o.matrix, o.seed + t, &coo, name, sizeof name))
      MPI_Abort(MPI_COMM_WORLD, 2);
    if (coo.dims[0] > INT32_MAX || coo.dims[1] > INT32_MAX) {
      fprintf(stderr, "petsc_add: PETSc has 32-bit indices here\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    M[t] = build(&coo, rank, P);
    distrt_coo_free(&coo);
  }
  double *times = (double *)malloc(sizeof(double) * (size_t)o.reps);
  Mat A = NULL;
  MatInfo info;
  for (int r = -1; r < o.reps; ++r) {
    MPI_Barrier(PETSC_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (A)
      CHK(MatDestroy(&A));
    CHK(MatDuplicate(M[0], MAT_COPY_VALUES, &A));
    CHK(MatAXPY(A, 1.0, M[1], DIFFERENT_NONZERO_PATTERN));
    CHK(MatAXPY(A, 1.0, M[2], DIFFERENT_NONZERO_PATTERN));
    MPI_Barrier(PETSC_COMM_WORLD);
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    if (r >= 0)
      times[r] = tmax;
  }
  CHK(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  char what[400];
  snprintf(what, sizeof what, "petsc-add matrix=%s ranks=%d", name, P);
  double nnz = info.nz_used;
  /* Bytes: the three terms read once, the sum written once (12 bytes an
   * entry); flops: one add an entry of the terms beyond the first. */
  sb_report(rank, what, times, o.reps, nnz, nnz * 4.0 * 12.0);
  if (rank == 0) {
    printf("baseline: entries %s: %.0f\n", what, nnz);
    fflush(stdout);
  }
  free(times);
  CHK(MatDestroy(&A));
  for (int t = 0; t < 3; ++t)
    CHK(MatDestroy(&M[t]));
  distrt_finalize();
  CHK(PetscFinalize());
  return 0;
}
