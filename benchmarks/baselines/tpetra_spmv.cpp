// Baseline: Trilinos Tpetra sparse matrix times vector and times a dense
// multivector of k columns (CrsMatrix::apply), on the matrix and the row
// partition dist uses (distrt generators and readers; see sparse_common.h
// for the options and the output lines, the same as petsc_spmv's with
// "tpetra-" names).
//
//   mpicxx -O2 -std=c++17 tpetra_spmv.cpp -o tpetra_spmv \
//     -I/usr/include/trilinos -I runtime/include -L BUILD/lib -ldistrt \
//     -Wl,-rpath,BUILD/lib -ltrilinos_tpetra -ltrilinos_kokkoskernels \
//     -ltrilinos_teuchoscomm -ltrilinos_teuchoscore \
//     -ltrilinos_kokkoscontainers -ltrilinos_kokkoscore   (bench.py's line)
//   mpirun -np P ./tpetra_spmv --matrix banded:1000000:11 --kernel spmv,spmm
//
// Debian's Tpetra 13.2: local ordinals int, global ordinals long long,
// Kokkos Serial node (one thread per rank, like dist and PETSc here).
// The row map and the range map hold rows [r B, (r + 1) B), the domain map
// (x, and the rows of the dense operand) [r C, (r + 1) C): contiguous maps
// with those local counts.  The matrix is allocated with the exact count of
// each row, filled with insertGlobalValues, then fillComplete(domain, range).
#include "sparse_common.h"

#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Teuchos_RCP.hpp>

#include <vector>

namespace {

using map_type = Tpetra::Map<>;
using LO = map_type::local_ordinal_type;
using GO = map_type::global_ordinal_type;
using crs_type = Tpetra::CrsMatrix<double, LO, GO>;
using mv_type = Tpetra::MultiVector<double, LO, GO>;

int run(int argc, char **argv) {
  sb_opts o;
  if (sb_parse(argc, argv, &o))
    return 2;
  auto comm = Tpetra::getDefaultComm();
  distrt_init(); // MPI is Tpetra's: distrt leaves it initialized
  int rank = comm->getRank(), P = comm->getSize();

  double t0 = MPI_Wtime();
  distrt_coo coo;
  char name[256];
  if (sb_load(o.matrix, o.seed, &coo, name, sizeof name))
    MPI_Abort(MPI_COMM_WORLD, 2);
  int64_t rows = coo.dims[0], cols = coo.dims[1];
  int64_t clo, chi;
  sb_block(cols, P, rank, &clo, &chi);
  size_t mloc = (size_t)(coo.hi - coo.lo), nloc = (size_t)(chi - clo);
  auto rowMap = Teuchos::rcp(new map_type((Tpetra::global_size_t)rows, mloc,
                                          0, comm));
  auto domMap = Teuchos::rcp(new map_type((Tpetra::global_size_t)cols, nloc,
                                          0, comm));
  std::vector<size_t> perRow(mloc + 1, 0);
  for (int64_t e = 0; e < coo.nnz; ++e)
    ++perRow[(size_t)(coo.coords[2 * e] - coo.lo)];
  Teuchos::RCP<crs_type> A = Teuchos::rcp(new crs_type(
      rowMap, Teuchos::ArrayView<const size_t>(perRow.data(), mloc)));
  std::vector<GO> cidx;
  for (int64_t e = 0; e < coo.nnz;) {
    int64_t i = coo.coords[2 * e], s = e;
    cidx.clear();
    while (e < coo.nnz && coo.coords[2 * e] == i) {
      cidx.push_back((GO)coo.coords[2 * e + 1]);
      ++e;
    }
    A->insertGlobalValues((GO)i, Teuchos::ArrayView<const GO>(cidx),
                          Teuchos::ArrayView<const double>(coo.values + s,
                                                           e - s));
  }
  A->fillComplete(domMap, rowMap);
  int64_t nnz, maxl, minl;
  sb_nnz(&coo, &nnz, &maxl, &minl);
  double setup = MPI_Wtime() - t0;
  if (rank == 0) {
    printf("baseline: matrix %s: %lld x %lld, %lld entries (per rank %lld "
           "to %lld), Tpetra CrsMatrix<double, int, long long, %s>, setup "
           "%.3f s\n",
           name, (long long)rows, (long long)cols, (long long)nnz,
           (long long)minl, (long long)maxl,
           crs_type::node_type::execution_space::name(), setup);
    fflush(stdout);
  }
  std::vector<double> times((size_t)o.reps);
  int ok = 1;

  for (int kernel = 0; kernel < 2; ++kernel) {
    if ((kernel == 0 && !o.spmv) || (kernel == 1 && !o.spmm))
      continue;
    size_t k = kernel == 0 ? 1 : (size_t)o.k;
    mv_type X(domMap, k), Y(rowMap, k);
    {
      auto xv = X.getLocalViewHost(Tpetra::Access::OverwriteAll);
      for (int64_t j = clo; j < chi; ++j)
        for (size_t c = 0; c < k; ++c)
          xv((size_t)(j - clo), c) = sb_x(j, (int64_t)c);
    }
    A->apply(X, Y); // warm-up (the import of x)
    for (int r = 0; r < o.reps; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t = MPI_Wtime();
      A->apply(X, Y);
      MPI_Barrier(MPI_COMM_WORLD); /* as dist-run --time: barrier to barrier */
      t = MPI_Wtime() - t;
      MPI_Allreduce(&t, &times[(size_t)r], 1, MPI_DOUBLE, MPI_MAX,
                    MPI_COMM_WORLD);
    }
    char what[400];
    if (kernel == 0)
      snprintf(what, sizeof what, "tpetra-spmv matrix=%s ranks=%d", name, P);
    else
      snprintf(what, sizeof what, "tpetra-spmm matrix=%s ranks=%d k=%lld",
               name, P, (long long)k);
    sb_report(rank, what, times.data(), o.reps,
              2.0 * (double)nnz * (double)k,
              sb_bytes(rows, cols, nnz, (int64_t)k));
    // Y's local rows, row-major.
    std::vector<double> y(mloc * k + 1);
    {
      auto yv = Y.getLocalViewHost(Tpetra::Access::ReadOnly);
      for (size_t i = 0; i < mloc; ++i)
        for (size_t c = 0; c < k; ++c)
          y[i * k + c] = yv(i, c);
    }
    double sum = sb_sum(y.data(), (int64_t)(mloc * k));
    if (rank == 0)
      printf("baseline: checksum %s: sum(y) = %.17g\n", what, sum);
    if (o.verify)
      ok &= sb_verify(what, &coo, y.data(), (int64_t)k);
  }
  fflush(stdout);
  A = Teuchos::null;
  distrt_coo_free(&coo);
  distrt_finalize();
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  return run(argc, argv);
}
