/*===- dist_pdgemm.c - ScaLAPACK's pdgemm_ on dist's runtime --------------===*
 *
 * Part of the dist project: distributed tensor algebra in MLIR.
 *
 * A drop-in replacement for ScaLAPACK's pdgemm_:
 *
 *   C := alpha * op(A) * op(B) + beta * C
 *
 * with the same arguments (Fortran convention: everything by address, the
 * BLACS array descriptors desca / descb / descc).  The caller's local arrays
 * are used in place: dist describes a 2-D block-cyclic ScaLAPACK array by a
 * layout (distrt_layout_from_scalapack), so the product runs on them with
 * distrt_onesided_matmul (docs/onesided.md), on a dist grid laid on the
 * BLACS grid's processes.  Shapes, block sizes and the process grid are
 * whatever the call passes.
 *
 * Built as libdist_pdgemm.so (exports pdgemm_): link it before ScaLAPACK,
 *
 *   mpicc app.o -L$BUILD/lib -ldist_pdgemm -ldistrt -lscalapack-openmpi
 *
 * and an unchanged ScaLAPACK program calls dist.  Built with
 * -DDIST_PDGEMM_NAME=dist_pdgemm_ it exports dist_pdgemm_ instead, next to
 * ScaLAPACK's own (the test compares the two so).
 *
 * Calls dist does not take are passed to ScaLAPACK's pdgemm_ (found with
 * dlsym), which also reports invalid arguments as ScaLAPACK does:
 * submatrices (IA, JA, IB, JB, IC, JC other than 1, or an operation smaller
 * than its arrays), arrays whose first block is not on process (0, 0)
 * (RSRC / CSRC), operands on different BLACS contexts, K = 0, and
 * anything ScaLAPACK would reject.  Rank (0, 0) of the grid says so once:
 *
 *   dist_pdgemm: passing this call to ScaLAPACK's pdgemm_: <reason>
 *
 * (DIST_PDGEMM_QUIET=1 silences it).  DIST_PDGEMM_STATIONARY=A|B|C chooses
 * the operand that stays in place (default: the largest, C on ties);
 * DIST_PDGEMM_VERBOSE=1 prints one line per call from rank (0, 0).
 *
 * The runtime is initialised on the first call (distrt_init_library: local,
 * the program keeps MPI and finalises it; distrt finalises itself inside
 * MPI_Finalize).
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <distrt/distrt.h>

#include <ctype.h>
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DIST_PDGEMM_NAME
#define DIST_PDGEMM_NAME pdgemm_
#define DIST_PDGEMM_INTERPOSES 1
#else
#define DIST_PDGEMM_INTERPOSES 0
#endif
#define STR_(x) #x
#define STR(x) STR_(x)

/* BLACS, C interface. */
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
int Cblacs_pnum(int ctxt, int prow, int pcol);
MPI_Comm Cblacs2sys_handle(int ctxt);

typedef void pdgemm_fn(const char *, const char *, const int *, const int *,
                       const int *, const double *, const double *, const int *,
                       const int *, const int *, const double *, const int *,
                       const int *, const int *, const double *, double *,
                       const int *, const int *, const int *);

static const char *op_name = STR(DIST_PDGEMM_NAME);

static int env_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* numroc with the source process 0. */
static int64_t numroc0(int64_t n, int64_t nb, int64_t iproc, int64_t nprocs) {
  int64_t nblocks = n / nb;
  int64_t num = (nblocks / nprocs) * nb;
  int64_t extra = nblocks % nprocs;
  if (iproc < extra)
    num += nb;
  else if (iproc == extra)
    num += n % nb;
  return num;
}

/*===-- the dist grid of a BLACS grid -------------------------------------===*/

/* A dist grid on the processes of a BLACS grid, in BLACS row-major order.
 * Kept for the life of the program (one per distinct process set and
 * shape); distrt frees the grids inside MPI_Finalize. */
struct blacs_grid {
  int ctxt, nprow, npcol;
  int *pnums; /* system ranks of the grid's processes, row-major */
  MPI_Comm comm;
  distrt_grid *grid;
};
enum { MAX_GRIDS = 32 };
static struct blacs_grid grids[MAX_GRIDS];
static int ngrids;

/* The dist grid for this context, or NULL (and *why) when none can be
 * made. */
static distrt_grid *grid_of(int ctxt, int nprow, int npcol, int myrow,
                            int mycol, const char **why) {
  int64_t np = (int64_t)nprow * npcol;
  int *pnums = malloc(sizeof(int) * (size_t)np);
  if (!pnums)
    distrt_fatal(op_name,
                 "out of memory for the process list of a %dx%d "
                 "BLACS grid",
                 nprow, npcol);
  for (int r = 0; r < nprow; ++r)
    for (int q = 0; q < npcol; ++q)
      pnums[(int64_t)r * npcol + q] = Cblacs_pnum(ctxt, r, q);
  for (int i = 0; i < ngrids; ++i)
    if (grids[i].ctxt == ctxt && grids[i].nprow == nprow &&
        grids[i].npcol == npcol &&
        memcmp(grids[i].pnums, pnums, sizeof(int) * (size_t)np) == 0) {
      free(pnums);
      return grids[i].grid;
    }
  if (ngrids == MAX_GRIDS) {
    free(pnums);
    *why = "more than 32 distinct BLACS grids in one program";
    return NULL;
  }
  MPI_Comm sys = Cblacs2sys_handle(ctxt);
  int sysrank = -1;
  if (sys == MPI_COMM_NULL || MPI_Comm_rank(sys, &sysrank) != MPI_SUCCESS ||
      sysrank != pnums[(int64_t)myrow * npcol + mycol])
    distrt_fatal(op_name,
                 "the system communicator of BLACS context %d does "
                 "not match its process numbers (Cblacs_pnum)",
                 ctxt);
  MPI_Group sysgroup, group;
  MPI_Comm comm = MPI_COMM_NULL;
  if (MPI_Comm_group(sys, &sysgroup) != MPI_SUCCESS ||
      MPI_Group_incl(sysgroup, (int)np, pnums, &group) != MPI_SUCCESS ||
      MPI_Comm_create_group(sys, group, 7157, &comm) != MPI_SUCCESS ||
      comm == MPI_COMM_NULL)
    distrt_fatal(op_name,
                 "could not make a communicator of the %dx%d BLACS "
                 "grid's processes",
                 nprow, npcol);
  MPI_Group_free(&group);
  MPI_Group_free(&sysgroup);
  int64_t dims[2] = {nprow, npcol};
  struct blacs_grid *bg = &grids[ngrids++];
  bg->ctxt = ctxt;
  bg->nprow = nprow;
  bg->npcol = npcol;
  bg->pnums = pnums;
  bg->comm = comm;
  bg->grid = distrt_grid_create_on(&bg->comm, 2, dims);
  return bg->grid;
}

/*===-- ScaLAPACK's own pdgemm_ for the calls dist does not take ----------===*/

static void pass_on(const char *why, int myrow, int mycol, const char *transa,
                    const char *transb, const int *m, const int *n,
                    const int *k, const double *alpha, const double *a,
                    const int *ia, const int *ja, const int *desca,
                    const double *b, const int *ib, const int *jb,
                    const int *descb, const double *beta, double *c,
                    const int *ic, const int *jc, const int *descc) {
  static pdgemm_fn *scalapack;
  static int said;
  if (!scalapack)
    scalapack = (pdgemm_fn *)dlsym(
        DIST_PDGEMM_INTERPOSES ? RTLD_NEXT : RTLD_DEFAULT, "pdgemm_");
  if (!scalapack)
    distrt_fatal(op_name,
                 "this call needs ScaLAPACK's pdgemm_ (%s), which is not "
                 "loaded: link the program with -lscalapack-openmpi after "
                 "-ldist_pdgemm",
                 why);
  if (!said && myrow == 0 && mycol == 0 && !env_on("DIST_PDGEMM_QUIET")) {
    fprintf(stderr,
            "dist_pdgemm: passing this call to ScaLAPACK's pdgemm_: %s "
            "(said once; DIST_PDGEMM_QUIET=1 silences this)\n",
            why);
    fflush(stderr);
  }
  said = 1;
  scalapack(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
            beta, c, ic, jc, descc);
}

/* Why dist does not take this call, or NULL.  Local checks that every
 * process of the grid makes identically (scalars and descriptors are the
 * same everywhere in a valid call). */
static const char *unsupported(char ta, char tb, int m, int n, int k,
                               const int *ia, const int *ja, const int *desca,
                               const int *ib, const int *jb, const int *descb,
                               const int *ic, const int *jc, const int *descc) {
  if (!strchr("NTC", ta) || !strchr("NTC", tb))
    return "TRANSA or TRANSB is not N, T or C";
  if (m < 0 || n < 0 || k < 0)
    return "a negative dimension";
  if (k == 0)
    return "K = 0";
  if (*ia != 1 || *ja != 1 || *ib != 1 || *jb != 1 || *ic != 1 || *jc != 1)
    return "submatrix operands (IA, JA, IB, JB, IC or JC is not 1)";
  if (desca[DISTRT_SL_CTXT] != descc[DISTRT_SL_CTXT] ||
      descb[DISTRT_SL_CTXT] != descc[DISTRT_SL_CTXT])
    return "operands on different BLACS contexts";
  int am = ta == 'N' ? m : k, an = ta == 'N' ? k : m;
  int bm = tb == 'N' ? k : n, bn = tb == 'N' ? n : k;
  if (desca[DISTRT_SL_M] != am || desca[DISTRT_SL_N] != an ||
      descb[DISTRT_SL_M] != bm || descb[DISTRT_SL_N] != bn ||
      descc[DISTRT_SL_M] != m || descc[DISTRT_SL_N] != n)
    return "an operation on part of its arrays (M, N or K smaller than the "
           "descriptors' sizes) or sizes that do not match";
  const int *d[3] = {desca, descb, descc};
  for (int i = 0; i < 3; ++i)
    if (d[i][DISTRT_SL_DTYPE] != 1 || d[i][DISTRT_SL_RSRC] != 0 ||
        d[i][DISTRT_SL_CSRC] != 0 || d[i][DISTRT_SL_MB] < 1 ||
        d[i][DISTRT_SL_NB] < 1)
      return "an array whose first block is not on process (0, 0) (RSRC or "
             "CSRC is not 0), or an invalid descriptor";
  return NULL;
}

/*===-- operands ----------------------------------------------------------===*/

/* An operand as dist sees it: the layout of the row-major tensor (the
 * transpose of the column-major matrix the descriptor describes, or the
 * matrix itself when `flip`) and its tile: the caller's array in place, or
 * a copy when the local array is padded (LLD above the local row count) or
 * flipped. */
struct operand {
  int64_t desc[DISTRT_DESC_MAX_LEN];
  const double *tile;
  double *copy;            /* owned, or NULL when tile is the caller's array */
  int64_t rows, cols, lld; /* local rows / columns, leading dimension */
};

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    distrt_fatal(op_name, "out of memory (%zu bytes)", n);
  return p;
}

/* flip 0: tensor = matrix^T (dist's view of the array); 1: tensor = matrix
 * (a local transpose).  `fill`: copy the caller's values into a copy. */
static void operand_init(struct operand *o, const int *desc,
                         const double *local, int nprow, int npcol, int myrow,
                         int mycol, int flip, int fill) {
  const char *why = NULL;
  if (distrt_layout_from_scalapack(desc, nprow, npcol, o->desc, &why) != 0)
    distrt_fatal(op_name, "descriptor: %s", why);
  o->rows = numroc0(desc[DISTRT_SL_M], desc[DISTRT_SL_MB], myrow, nprow);
  o->cols = numroc0(desc[DISTRT_SL_N], desc[DISTRT_SL_NB], mycol, npcol);
  o->lld = desc[DISTRT_SL_LLD];
  if (o->lld < (o->rows > 1 ? o->rows : 1))
    distrt_fatal(op_name,
                 "descriptor LLD = %lld is below this process's %lld local "
                 "rows (numroc of M = %d, MB = %d over %d process rows)",
                 (long long)o->lld, (long long)o->rows, desc[DISTRT_SL_M],
                 desc[DISTRT_SL_MB], nprow);
  o->copy = NULL;
  o->tile = local;
  int64_t r = o->rows, cl = o->cols;
  static double empty;
  if (r == 0 || cl == 0) {
    /* No local elements: any non-NULL pointer is a valid empty tile. */
    o->tile = local ? local : &empty;
  } else if (flip) {
    o->copy = xmalloc(sizeof(double) * (size_t)(r * cl));
    if (fill)
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < cl; ++j)
          o->copy[i * cl + j] = local[i + j * o->lld];
    o->tile = o->copy;
  } else if (o->lld != r) {
    o->copy = xmalloc(sizeof(double) * (size_t)(r * cl));
    if (fill)
      for (int64_t j = 0; j < cl; ++j)
        memcpy(o->copy + j * r, local + j * o->lld, sizeof(double) * r);
    o->tile = o->copy;
  }
  if (flip) {
    /* The matrix itself: dimensions swapped (rows first). */
    int64_t t[DISTRT_DESC_MAX_LEN];
    memcpy(t, o->desc, sizeof(t));
    memcpy(o->desc + 1, t + 6, sizeof(int64_t) * 5);
    memcpy(o->desc + 6, t + 1, sizeof(int64_t) * 5);
  }
}

/*===-- pdgemm_ -----------------------------------------------------------===*/

static int64_t pick_stationary(int64_t m, int64_t n, int64_t k) {
  const char *s = getenv("DIST_PDGEMM_STATIONARY");
  /* In dist's terms C^T = op(B)^T * op(A)^T: the caller's A is dist's B. */
  if (s && *s) {
    switch (toupper((unsigned char)*s)) {
    case 'A':
      return DISTRT_STATIONARY_B;
    case 'B':
      return DISTRT_STATIONARY_A;
    case 'C':
      return DISTRT_STATIONARY_C;
    default:
      distrt_fatal(op_name,
                   "DIST_PDGEMM_STATIONARY is '%s'; expected A, B or C", s);
    }
  }
  int64_t sa = m * k, sb = k * n, sc = m * n;
  if (sc >= sa && sc >= sb)
    return DISTRT_STATIONARY_C;
  return sa >= sb ? DISTRT_STATIONARY_B : DISTRT_STATIONARY_A;
}

void DIST_PDGEMM_NAME(const char *transa, const char *transb, const int *m,
                      const int *n, const int *k, const double *alpha,
                      const double *a, const int *ia, const int *ja,
                      const int *desca, const double *b, const int *ib,
                      const int *jb, const int *descb, const double *beta,
                      double *c, const int *ic, const int *jc,
                      const int *descc) {
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_gridinfo(descc[DISTRT_SL_CTXT], &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0 || myrow >= nprow ||
      mycol >= npcol)
    return; /* not in the grid: ScaLAPACK returns at once too */
  char ta = (char)toupper((unsigned char)*transa);
  char tb = (char)toupper((unsigned char)*transb);
  if (*m == 0 || *n == 0)
    return; /* quick return, as ScaLAPACK */
  const char *why = unsupported(ta, tb, *m, *n, *k, ia, ja, desca, ib, jb,
                                descb, ic, jc, descc);
  distrt_grid *g = NULL;
  if (!why) {
    distrt_init_library();
    g = grid_of(descc[DISTRT_SL_CTXT], nprow, npcol, myrow, mycol, &why);
  }
  if (why) {
    pass_on(why, myrow, mycol, transa, transb, m, n, k, alpha, a, ia, ja, desca,
            b, ib, jb, descb, beta, c, ic, jc, descc);
    return;
  }
  double al = *alpha, be = *beta;
  double t0 = MPI_Wtime();
  /* dist computes C^T = op(B)^T * op(A)^T on the tensors of its view. */
  struct operand oc, ob, oa;
  operand_init(&oc, descc, c, nprow, npcol, myrow, mycol, 0, be != 0.0);
  int64_t ntile = oc.rows * oc.cols;
  static double empty;
  double *ctile = oc.copy ? oc.copy : ntile ? c : &empty;
  if (al == 0.0) {
    /* A and B are not referenced. */
    for (int64_t i = 0; i < ntile; ++i)
      ctile[i] = be == 0.0 ? 0.0 : be * ctile[i];
  } else {
    operand_init(&ob, descb, b, nprow, npcol, myrow, mycol, tb != 'N', 1);
    operand_init(&oa, desca, a, nprow, npcol, myrow, mycol, ta != 'N', 1);
    int64_t stationary = pick_stationary(*m, *n, *k);
    if (al == 1.0 && (be == 0.0 || be == 1.0)) {
      distrt_onesided_matmul(g, DISTRT_F64, ob.desc, ob.tile, oa.desc, oa.tile,
                             oc.desc, ctile, stationary, 1, 2,
                             be == 0.0 ? 0 : 1);
    } else {
      double *t = xmalloc(sizeof(double) * (size_t)(ntile ? ntile : 1));
      distrt_onesided_matmul(g, DISTRT_F64, ob.desc, ob.tile, oa.desc, oa.tile,
                             oc.desc, t, stationary, 1, 2, 0);
      for (int64_t i = 0; i < ntile; ++i)
        ctile[i] = (be == 0.0 ? 0.0 : be * ctile[i]) + al * t[i];
      free(t);
    }
    free(oa.copy);
    free(ob.copy);
  }
  if (oc.copy) {
    for (int64_t j = 0; j < oc.cols; ++j)
      memcpy(c + j * oc.lld, oc.copy + j * oc.rows, sizeof(double) * oc.rows);
    free(oc.copy);
  }
  if (env_on("DIST_PDGEMM_VERBOSE") && myrow == 0 && mycol == 0) {
    fprintf(stderr,
            "dist_pdgemm: %c%c m=%d n=%d k=%d on a %dx%d grid, blocks "
            "A %dx%d B %dx%d C %dx%d: %.6f s (rank 0,0)\n",
            ta, tb, *m, *n, *k, nprow, npcol, desca[DISTRT_SL_MB],
            desca[DISTRT_SL_NB], descb[DISTRT_SL_MB], descb[DISTRT_SL_NB],
            descc[DISTRT_SL_MB], descc[DISTRT_SL_NB], MPI_Wtime() - t0);
    fflush(stderr);
  }
}
