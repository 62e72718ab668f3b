/* Baseline: PETSc sparse matrix times vector (MatMult) and times a dense
 * matrix of k columns (MatMatMult with MATMPIDENSE), on the matrix and the
 * row partition dist uses (distrt generators and readers; see
 * sparse_common.h for the options and the output lines).
 *
 *   mpicc -O2 petsc_spmv.c -o petsc_spmv $(pkg-config --cflags --libs PETSc) \
 *     -I runtime/include -L BUILD/lib -ldistrt -Wl,-rpath,BUILD/lib
 *   mpirun -np P ./petsc_spmv --matrix banded:1000000:11 --kernel spmv,spmm \
 *     --k 32 --reps 10 [--verify]
 *
 * A is MATAIJ (MATMPIAIJ on several ranks, MATSEQAIJ on one) with the local
 * sizes of dist's partition: rows [r B, (r + 1) B), B = ceil(rows / P), and
 * columns (the layout of x and of the rows of the dense operand)
 * [r C, (r + 1) C), C = ceil(cols / P); preallocated exactly (diagonal and
 * off-diagonal counts per row), filled row by row with MatSetValues.
 * PETSc's own options (e.g. -log_view) may be given too.
 */
#include "sparse_common.h"

#include <petscmat.h>

#define CHK(call)                                                              \
  do {                                                                         \
    PetscErrorCode ierr_ = (call);                                             \
    if (ierr_) {                                                               \
      fprintf(stderr, "petsc_spmv: %s failed (%d) at line %d\n", #call,        \
              (int)ierr_, __LINE__);                                           \
      MPI_Abort(MPI_COMM_WORLD, 1);                                            \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  sb_opts o;
  if (sb_parse(argc, argv, &o))
    return 2;
  CHK(PetscInitialize(&argc, &argv, NULL, NULL));
  distrt_init(); /* MPI is PETSc's: distrt leaves it initialized */
  int rank, P;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &P);

  double t0 = MPI_Wtime();
  distrt_coo coo;
  char name[256];
  if (sb_load(o.matrix, o.seed, &coo, name, sizeof name))
    MPI_Abort(MPI_COMM_WORLD, 2);
  int64_t rows = coo.dims[0], cols = coo.dims[1];
  if (rows > INT32_MAX || cols > INT32_MAX) {
    fprintf(stderr, "petsc_spmv: PETSc has 32-bit indices here\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int64_t clo, chi;
  sb_block(cols, P, rank, &clo, &chi);
  PetscInt mloc = (PetscInt)(coo.hi - coo.lo), nloc = (PetscInt)(chi - clo);

  /* Exact preallocation. */
  PetscInt *dnz = (PetscInt *)calloc((size_t)mloc + 1, sizeof(PetscInt));
  PetscInt *onz = (PetscInt *)calloc((size_t)mloc + 1, sizeof(PetscInt));
  for (int64_t e = 0; e < coo.nnz; ++e) {
    int64_t i = coo.coords[2 * e] - coo.lo, j = coo.coords[2 * e + 1];
    if (j >= clo && j < chi)
      ++dnz[i];
    else
      ++onz[i];
  }
  Mat A;
  CHK(MatCreateAIJ(PETSC_COMM_WORLD, mloc, nloc, (PetscInt)rows,
                   (PetscInt)cols, 0, dnz, 0, onz, &A));
  CHK(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscInt *cidx = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)(cols + 1));
  for (int64_t e = 0; e < coo.nnz;) {
    int64_t i = coo.coords[2 * e], s = e;
    while (e < coo.nnz && coo.coords[2 * e] == i) {
      cidx[e - s] = (PetscInt)coo.coords[2 * e + 1];
      ++e;
    }
    PetscInt gi = (PetscInt)i;
    CHK(MatSetValues(A, 1, &gi, (PetscInt)(e - s), cidx, coo.values + s,
                     INSERT_VALUES));
  }
  free(cidx);
  free(dnz);
  free(onz);
  CHK(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  CHK(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  MatType type;
  CHK(MatGetType(A, &type));
  int64_t nnz, maxl, minl;
  sb_nnz(&coo, &nnz, &maxl, &minl);
  double setup = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("baseline: matrix %s: %lld x %lld, %lld entries (per rank %lld "
           "to %lld), PETSc %s, setup %.3f s\n",
           name, (long long)rows, (long long)cols, (long long)nnz,
           (long long)minl, (long long)maxl, type, setup);
    fflush(stdout);
  }
  double *times = (double *)malloc(sizeof(double) * (size_t)o.reps);
  int ok = 1;

  if (o.spmv) {
    Vec x, y;
    CHK(VecCreateMPI(PETSC_COMM_WORLD, nloc, (PetscInt)cols, &x));
    CHK(VecCreateMPI(PETSC_COMM_WORLD, mloc, (PetscInt)rows, &y));
    PetscScalar *xa;
    CHK(VecGetArray(x, &xa));
    for (int64_t j = clo; j < chi; ++j)
      xa[j - clo] = sb_x(j, 0);
    CHK(VecRestoreArray(x, &xa));
    CHK(MatMult(A, x, y)); /* warm-up: builds the scatter */
    for (int r = 0; r < o.reps; ++r) {
      MPI_Barrier(PETSC_COMM_WORLD);
      double t = MPI_Wtime();
      CHK(MatMult(A, x, y));
      MPI_Barrier(PETSC_COMM_WORLD); /* as dist-run --time: barrier to barrier */
      t = MPI_Wtime() - t;
      MPI_Allreduce(&t, &times[r], 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    }
    char what[400];
    snprintf(what, sizeof what, "petsc-spmv matrix=%s ranks=%d", name, P);
    sb_report(rank, what, times, o.reps, 2.0 * (double)nnz,
              sb_bytes(rows, cols, nnz, 1));
    const PetscScalar *ya;
    CHK(VecGetArrayRead(y, &ya));
    double sum = sb_sum(ya, mloc);
    if (rank == 0)
      printf("baseline: checksum %s: sum(y) = %.17g\n", what, sum);
    if (o.verify)
      ok &= sb_verify(what, &coo, ya, 1);
    CHK(VecRestoreArrayRead(y, &ya));
    CHK(VecDestroy(&x));
    CHK(VecDestroy(&y));
  }

  if (o.spmm) {
    PetscInt k = (PetscInt)o.k;
    Mat B, C;
    CHK(MatCreateDense(PETSC_COMM_WORLD, nloc, PETSC_DECIDE, (PetscInt)cols,
                       k, NULL, &B));
    PetscScalar *ba;
    PetscInt ldb;
    CHK(MatDenseGetArray(B, &ba));
    CHK(MatDenseGetLDA(B, &ldb));
    for (PetscInt c = 0; c < k; ++c) /* column-major */
      for (int64_t j = clo; j < chi; ++j)
        ba[c * ldb + (j - clo)] = sb_x(j, c);
    CHK(MatDenseRestoreArray(B, &ba));
    CHK(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    CHK(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    /* Warm-up: the symbolic product and C. */
    CHK(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &C));
    for (int r = 0; r < o.reps; ++r) {
      MPI_Barrier(PETSC_COMM_WORLD);
      double t = MPI_Wtime();
      CHK(MatMatMult(A, B, MAT_REUSE_MATRIX, PETSC_DEFAULT, &C));
      MPI_Barrier(PETSC_COMM_WORLD); /* as dist-run --time: barrier to barrier */
      t = MPI_Wtime() - t;
      MPI_Allreduce(&t, &times[r], 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    }
    char what[400];
    snprintf(what, sizeof what, "petsc-spmm matrix=%s ranks=%d k=%lld", name,
             P, (long long)o.k);
    sb_report(rank, what, times, o.reps, 2.0 * (double)nnz * (double)k,
              sb_bytes(rows, cols, nnz, k));
    /* C's local rows, row-major. */
    const PetscScalar *ca;
    PetscInt ldc;
    CHK(MatDenseGetArrayRead(C, &ca));
    CHK(MatDenseGetLDA(C, &ldc));
    double *yc = (double *)malloc(sizeof(double) * (size_t)(mloc * k + 1));
    for (PetscInt i = 0; i < mloc; ++i)
      for (PetscInt c = 0; c < k; ++c)
        yc[i * k + c] = ca[c * ldc + i];
    CHK(MatDenseRestoreArrayRead(C, &ca));
    double sum = sb_sum(yc, (int64_t)mloc * k);
    if (rank == 0)
      printf("baseline: checksum %s: sum(y) = %.17g\n", what, sum);
    if (o.verify)
      ok &= sb_verify(what, &coo, yc, k);
    free(yc);
    CHK(MatDestroy(&B));
    CHK(MatDestroy(&C));
  }
  fflush(stdout);
  free(times);
  CHK(MatDestroy(&A));
  distrt_coo_free(&coo);
  distrt_finalize();
  CHK(PetscFinalize());
  return ok ? 0 : 1;
}
