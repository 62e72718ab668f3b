/*===- pdgemm_check.c - dist's pdgemm_ against ScaLAPACK's ----------------===*
 *
 * Part of the dist project: distributed tensor algebra in MLIR.
 *
 *   mpirun -np N pdgemm_check P Q      (N >= P*Q)
 *
 * Runs a list of pdgemm calls (transposes, alpha / beta, block sizes that do
 * not divide the sizes and differ between the operands, padded local
 * arrays, blocks larger than the matrix, submatrix calls that go to
 * ScaLAPACK) on a P x Q BLACS grid and then on a Q x P grid in the same
 * program; processes beyond P*Q are outside both grids and never call
 * pdgemm_ (dist's runtime starts on the grid's processes only).  The
 * matrices hold small multiples of 1/8 chosen by a formula of
 * the global index, so every product and sum is exact in double: each
 * result must equal, bit for bit, the textbook triple loop this file
 * computes for its own local elements.
 *
 * Built twice (examples/scalapack/CMakeLists.txt):
 *   - pdgemm-compare (COMPARE defined): calls ScaLAPACK's pdgemm_ and dist's
 *     (dist_pdgemm_, libdist_pdgemm built with that name) on the same
 *     inputs and checks both against the loops;
 *   - pdgemm-dropin: calls only pdgemm_, linked with -ldist_pdgemm before
 *     ScaLAPACK: an unmodified ScaLAPACK program that gets dist's product.
 *
 * Prints, from rank 0, one line per case and grid, and "pdgemm_check: N
 * cases, F failed".  Shares no code with dist or ScaLAPACK's arithmetic.
 *===----------------------------------------------------------------------===*/

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int context, int request, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow,
                     int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int notDone);

#define PDGEMM_ARGS                                                            \
  const char *, const char *, const int *, const int *, const int *,           \
      const double *, const double *, const int *, const int *, const int *,   \
      const double *, const int *, const int *, const int *, const double *,   \
      double *, const int *, const int *, const int *
void pdgemm_(PDGEMM_ARGS);
#ifdef COMPARE
void dist_pdgemm_(PDGEMM_ARGS);
#endif

struct gcase {
  char ta, tb;
  int m, n, k;
  int amb, anb, bmb, bnb, cmb, cnb; /* block sizes of A, B, C */
  double alpha, beta;
  int pad; /* added to every LLD */
  int sub; /* 1: C(2:m+1, 1:n) of a larger C (ScaLAPACK takes the call) */
};

static const struct gcase cases[] = {
    {'N', 'N', 37, 29, 23, 4, 5, 3, 7, 5, 2, 1.0, 0.0, 0, 0},
    {'N', 'N', 37, 29, 23, 4, 5, 3, 7, 5, 2, 1.0, 1.0, 0, 0},
    {'N', 'N', 40, 40, 40, 8, 8, 8, 8, 8, 8, 1.0, 0.0, 0, 0},
    {'N', 'N', 33, 17, 41, 64, 64, 64, 64, 64, 64, 0.5, -2.0, 0, 0},
    {'T', 'N', 19, 26, 31, 3, 4, 5, 3, 4, 6, 1.0, 0.0, 0, 0},
    {'N', 'T', 19, 26, 31, 3, 4, 5, 3, 4, 6, -1.5, 0.25, 0, 0},
    {'T', 'T', 22, 13, 9, 2, 3, 4, 5, 6, 7, 2.0, 1.0, 3, 0},
    {'C', 'N', 11, 12, 13, 3, 3, 3, 3, 3, 3, 1.0, 0.0, 0, 0},
    {'N', 'N', 1, 30, 7, 1, 4, 2, 5, 1, 3, 1.0, 0.0, 2, 0},
    {'N', 'N', 25, 1, 25, 6, 6, 6, 6, 6, 6, 1.0, -1.0, 0, 0},
    {'N', 'N', 21, 18, 15, 4, 4, 4, 4, 4, 4, 0.0, 2.0, 0, 0},
    {'N', 'N', 21, 18, 15, 4, 4, 4, 4, 4, 4, 1.0, 0.0, 0, 1},
};
enum { NCASES = sizeof(cases) / sizeof(cases[0]) };

/* Entries: multiples of 1/8 in [-1, 1], a function of the global index. */
static double value(int which, long i, long j) {
  long h = (i * 7 + j * 13 + which * 5 + (i * j) % 11) % 17;
  return (double)(h - 8) / 8.0;
}

static int nroc(int n, int nb, int iproc, int nprocs) {
  int nblocks = n / nb, num = (nblocks / nprocs) * nb, extra = nblocks % nprocs;
  if (iproc < extra)
    num += nb;
  else if (iproc == extra)
    num += n % nb;
  return num;
}

/* Global index of local index l along a dimension: blocks nb, p processes,
 * this process at coordinate me. */
static long glob(int l, int nb, int me, int p) {
  return (long)(l / nb) * nb * p + (long)me * nb + l % nb;
}

/* A local array of a rows x cols global matrix (blocks mb x nb), filled
 * from the formula; *lld returned. */
static double *local_array(int which, int rows, int cols, int mb, int nb,
                           int pad, int pr, int pc, int myr, int myc, int *lld,
                           int *desc, int ctxt) {
  int lr = nroc(rows, mb, myr, pr), lc = nroc(cols, nb, myc, pc);
  *lld = (lr > 1 ? lr : 1) + pad;
  double *x = malloc(sizeof(double) * ((size_t)*lld * (lc ? lc : 1) + 1));
  for (long t = 0; t < (long)*lld * (lc ? lc : 1); ++t)
    x[t] = 1e300; /* padding must not be read into the result */
  for (int jl = 0; jl < lc; ++jl)
    for (int il = 0; il < lr; ++il)
      x[il + (long)jl * *lld] =
          value(which, glob(il, mb, myr, pr), glob(jl, nb, myc, pc));
  int d[9] = {1, ctxt, rows, cols, mb, nb, 0, 0, *lld};
  memcpy(desc, d, sizeof(d));
  return x;
}

/* Mismatches of this process's C against the loops. */
static long check_c(const struct gcase *t, const double *c, int lldc, int pr,
                    int pc, int myr, int myc, int crow0) {
  long bad = 0;
  int crows = t->m + crow0;
  int lr = nroc(crows, t->cmb, myr, pr), lc = nroc(t->n, t->cnb, myc, pc);
  for (int jl = 0; jl < lc; ++jl)
    for (int il = 0; il < lr; ++il) {
      long gi = glob(il, t->cmb, myr, pr), gj = glob(jl, t->cnb, myc, pc);
      double old = value(3, gi, gj), want;
      if (gi < crow0) {
        want = old; /* outside the submatrix: untouched */
      } else {
        long i = gi - crow0;
        double s = 0.0;
        for (long p = 0; p < t->k; ++p) {
          double a = t->ta == 'N' ? value(1, i, p) : value(1, p, i);
          double b = t->tb == 'N' ? value(2, p, gj) : value(2, gj, p);
          s += a * b;
        }
        want = t->alpha * s + (t->beta == 0.0 ? 0.0 : t->beta * old);
      }
      if (c[il + (long)jl * lldc] != want)
        ++bad;
    }
  return bad;
}

/* Mismatches of an input array against its formula (it must not change). */
static long check_in(int which, const double *x, int rows, int cols, int mb,
                     int nb, int lld, int pr, int pc, int myr, int myc) {
  long bad = 0;
  int lr = nroc(rows, mb, myr, pr), lc = nroc(cols, nb, myc, pc);
  for (int jl = 0; jl < lc; ++jl)
    for (int il = 0; il < lr; ++il)
      if (x[il + (long)jl * lld] !=
          value(which, glob(il, mb, myr, pr), glob(jl, nb, myc, pc)))
        ++bad;
  return bad;
}

typedef void pdgemm_fn(PDGEMM_ARGS);

/* One case with one implementation; returns this process's mismatches. */
static long run_case(const struct gcase *t, pdgemm_fn *fn, int ctxt, int pr,
                     int pc, int myr, int myc) {
  int ar = t->ta == 'N' ? t->m : t->k, ac = t->ta == 'N' ? t->k : t->m;
  int br = t->tb == 'N' ? t->k : t->n, bc = t->tb == 'N' ? t->n : t->k;
  int crow0 = t->sub ? 1 : 0;
  int desca[9], descb[9], descc[9], llda, lldb, lldc;
  double *a = local_array(1, ar, ac, t->amb, t->anb, t->pad, pr, pc, myr, myc,
                          &llda, desca, ctxt);
  double *b = local_array(2, br, bc, t->bmb, t->bnb, t->pad, pr, pc, myr, myc,
                          &lldb, descb, ctxt);
  double *c = local_array(3, t->m + crow0, t->n, t->cmb, t->cnb, t->pad, pr, pc,
                          myr, myc, &lldc, descc, ctxt);
  char ta[2] = {t->ta, 0}, tb[2] = {t->tb, 0};
  int one = 1, ic = 1 + crow0;
  fn(ta, tb, &t->m, &t->n, &t->k, &t->alpha, a, &one, &one, desca, b, &one,
     &one, descb, &t->beta, c, &ic, &one, descc);
  long bad = check_c(t, c, lldc, pr, pc, myr, myc, crow0);
  if (t->alpha != 0.0) {
    bad += check_in(1, a, ar, ac, t->amb, t->anb, llda, pr, pc, myr, myc);
    bad += check_in(2, b, br, bc, t->bmb, t->bnb, lldb, pr, pc, myr, myc);
  }
  free(a);
  free(b);
  free(c);
  return bad;
}

static int run_grid(int pr, int pc, int rank, int *failed) {
  int ctxt, nprow, npcol, myr, myc;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", pr, pc);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myr, &myc);
  int ncase = 0;
  for (int i = 0; i < NCASES; ++i) {
    const struct gcase *t = &cases[i];
#ifdef COMPARE
    pdgemm_fn *impl[2] = {pdgemm_, dist_pdgemm_};
    const char *name[2] = {"scalapack", "dist"};
    int nimpl = 2;
#else
    pdgemm_fn *impl[1] = {pdgemm_};
    const char *name[1] = {"pdgemm_"};
    int nimpl = 1;
#endif
    char line[256];
    int len =
        snprintf(line, sizeof line,
                 "grid %dx%d case %2d: %c%c m=%d n=%d k=%d alpha=%g "
                 "beta=%g%s%s:",
                 pr, pc, i, t->ta, t->tb, t->m, t->n, t->k, t->alpha, t->beta,
                 t->pad ? " padded" : "", t->sub ? " submatrix" : "");
    for (int j = 0; j < nimpl; ++j) {
      /* Processes outside the BLACS grid do not call (as in ScaLAPACK
       * programs); they take part in the world's sum only. */
      long bad = myr >= 0 ? run_case(t, impl[j], ctxt, pr, pc, myr, myc) : 0;
      long all = 0;
      MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      len += snprintf(line + len, sizeof line - (size_t)len, " %s %s", name[j],
                      all ? "FAIL" : "PASS");
      if (all)
        ++*failed;
      ++ncase;
    }
    if (rank == 0)
      printf("%s\n", line);
  }
  if (myr >= 0)
    Cblacs_gridexit(ctxt);
  return ncase;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int p = argc == 3 ? atoi(argv[1]) : 0, q = argc == 3 ? atoi(argv[2]) : 0;
  if (p < 1 || q < 1 || p * q > size) {
    if (rank == 0)
      fprintf(stderr, "usage: mpirun -np N %s P Q, N >= P*Q (got %d ranks)\n",
              argv[0], size);
    MPI_Finalize();
    return 2;
  }
  int failed = 0, n = run_grid(p, q, rank, &failed);
  if (p != q)
    n += run_grid(q, p, rank, &failed);
  if (rank == 0) {
    printf("pdgemm_check: %d cases, %d failed\n", n, failed);
    fflush(stdout);
  }
  Cblacs_exit(1);
  MPI_Finalize();
  return failed ? 1 : 0;
}
