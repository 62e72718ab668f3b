/* distrt-test-sparse-tensor3: order-3 sparse tensors in a distributed CSR
 * matrix (distrt_spmat_create3: CSF with a dense root; distrt/sparse.h).
 *
 *   distrt-test-sparse-tensor3 TNS            every case; TNS is the
 *                                             5 x 4 x 6 tensor3.tns
 *   distrt-test-sparse-tensor3 error NAME TNS one error case, which must
 *                                             end the job (prints
 *                                             "UNEXPECTED success"
 *                                             otherwise)
 *
 * For both partitions (rows blocked, fibers split), the four (pos, crd)
 * width pairs, f32 and f64, on generated tensors (13 x 7 x 11, 2 x 9 x 6
 * with fewer rows than ranks, 5 x 4 x 3 with no entries) and the .tns
 * file, the test builds the dense tensor itself from the generator's (or
 * the reader's) COO, every rank all of it (each adds its rows into zeros,
 * then an all-reduce), and from it the fibers (the (i, j) with an entry),
 * their row-major numbers and the piece each rank must hold (its row
 * block, or fibers [min(r E, F), min((r + 1) E, F)), E = ceil(F / P)).
 * Then:
 *   - the local rows (first, count) and distrt_spmat_fibers: positions
 *     monotone from 0, crd increasing within a row, crd2 within a fiber,
 *     every fiber the expected (i, j) with all of its entries and values;
 *     local and global counts, their sums over the ranks;
 *   - distrt_spmat_gather_dense on rank 0 and on the last rank equals the
 *     dense tensor (dtype-rounded) element by element;
 *   - partial sums of (fibers, entries) per local row, reduced into the
 *     row-blocked output (distrt_spmat_partial, _reduce_rows), equal the
 *     counts per row of the dense tensor;
 *   - distrt_spmat_pattern_of(a, t) into a matrix of d0 x d1 with entries
 *     of its own: a's rows and ALL part equal t's level 1 byte for byte,
 *     values 0, counts the fibers'; a second call copies nothing (values
 *     written stay); a matrix assigned the fibers' COO by the test equals
 *     t's level 1 (so the fiber split is the matrix non-zero split); after
 *     t gets new entries the next call copies the new pattern.
 * For the file, rank 0 prints the global counts and each rank's piece
 * under the fiber split (32/32, f64), which the lit test checks against
 * hand-computed values.  One error case a RUN line. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t idx(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* A source of entries: a generator (draws per row e) or the file. */
typedef struct {
  const char *name;
  int64_t d[3];
  int64_t e; /* -1: the file */
} source;

static const char *tns_path;

/* Fills t from src (seed for the generator). */
static void fill(distrt_spmat *t, const source *s, int64_t seed) {
  if (s->e < 0)
    distrt_spmat_read(t, tns_path);
  else
    distrt_spmat_generate(t, DISTRT_GEN_UNIFORM, s->e, seed);
}

/* The test's own model of the tensor: dense (f64, all of it on every
 * rank) and its fibers in row-major order (fi, fj, the entries of each). */
typedef struct {
  int64_t d[3], n, F, nnz;
  double *dense;
  int64_t *fi, *fj, *fcnt;
} model;

static double at(const model *md, int64_t i, int64_t j, int64_t k) {
  return md->dense[(i * md->d[1] + j) * md->d[2] + k];
}

static void model_build(model *md, const source *s, int64_t seed) {
  memset(md, 0, sizeof *md);
  memcpy(md->d, s->d, sizeof md->d);
  distrt_coo coo;
  if (s->e < 0)
    distrt_coo_read_tns(tns_path, tu_world(), 3, s->d, &coo);
  else
    distrt_coo_gen_uniform(tu_world(), 3, s->d, s->e * s->d[0], seed, &coo);
  md->n = s->d[0] * s->d[1] * s->d[2];
  md->dense = calloc((size_t)(md->n > 0 ? md->n : 1), sizeof(double));
  for (int64_t e = 0; e < coo.nnz; ++e) {
    const int64_t *c = coo.coords + 3 * e;
    md->dense[(c[0] * s->d[1] + c[1]) * s->d[2] + c[2]] = coo.values[e];
  }
  distrt_coo_free(&coo);
  if (md->n > 0)
    distrt_allreduce(tu_world(), 1, md->dense, md->n, DISTRT_F64, DISTRT_SUM);
  int64_t pairs = s->d[0] * s->d[1];
  md->fi = malloc((size_t)(pairs > 0 ? pairs : 1) * 3 * sizeof(int64_t));
  md->fj = md->fi + (pairs > 0 ? pairs : 1);
  md->fcnt = md->fj + (pairs > 0 ? pairs : 1);
  for (int64_t i = 0; i < s->d[0]; ++i)
    for (int64_t j = 0; j < s->d[1]; ++j) {
      int64_t c = 0;
      for (int64_t k = 0; k < s->d[2]; ++k)
        c += at(md, i, j, k) != 0.0;
      if (!c)
        continue;
      md->fi[md->F] = i;
      md->fj[md->F] = j;
      md->fcnt[md->F++] = c;
      md->nnz += c;
    }
}

static void model_free(model *md) {
  free(md->dense);
  free(md->fi);
}

/* The fibers [*fa, *fb) and rows [*first, *first + *nr) this rank must
 * hold. */
static void expected_piece(const model *md, int kind, int64_t *fa,
                           int64_t *fb, int64_t *first, int64_t *nr) {
  int64_t P = tu_size(), r = tu_rank();
  if (kind == DISTRT_SPMAT_ROWS) {
    int64_t B = (md->d[0] + P - 1) / P;
    int64_t lo = min64(r * B, md->d[0]), hi = min64((r + 1) * B, md->d[0]);
    *first = lo;
    *nr = B;
    *fa = *fb = 0;
    for (int64_t f = 0; f < md->F; ++f) {
      *fa += md->fi[f] < lo;
      *fb += md->fi[f] < hi;
    }
    return;
  }
  int64_t E = (md->F + P - 1) / P;
  *fa = min64(r * E, md->F);
  *fb = min64((r + 1) * E, md->F);
  *first = *fa < *fb ? md->fi[*fa] : 0;
  *nr = *fa < *fb ? md->fi[*fb - 1] - *first + 1 : 0;
}

static double rounded(double v, int64_t dtype) {
  return dtype == DISTRT_F32 ? (double)(float)v : v;
}

/* t's piece against the model. */
static void check_piece(distrt_spmat *t, const model *md, int kind,
                        int64_t pb, int64_t cb, int64_t dtype,
                        const char *when) {
  int64_t fa, fb, efirst, enr;
  expected_piece(md, kind, &fa, &fb, &efirst, &enr);
  EXPECT(distrt_spmat_order(t) == 3, "%s: order %lld", when,
         (long long)distrt_spmat_order(t));
  EXPECT(distrt_spmat_partition(t) == kind, "%s: partition %lld", when,
         (long long)distrt_spmat_partition(t));
  void *ids, *pos, *crd, *pos2, *crd2, *val;
  int64_t first, nr, nf, nnz;
  distrt_spmat_local_rows(t, &ids, &first, &nr);
  distrt_spmat_fibers(t, &pos, &crd, &pos2, &crd2, &val, &nf, &nnz);
  if (!EXPECT(first == efirst && nr == enr,
              "%s: rows [%lld, +%lld), expected [%lld, +%lld)", when,
              (long long)first, (long long)nr, (long long)efirst,
              (long long)enr))
    return;
  EXPECT(nf == fb - fa, "%s: %lld fibers, expected %lld", when, (long long)nf,
         (long long)(fb - fa));
  EXPECT(idx(pos, pb, 0) == 0 && idx(pos, pb, nr) == nf,
         "%s: pos runs %lld..%lld for %lld fibers", when,
         (long long)idx(pos, pb, 0), (long long)idx(pos, pb, nr),
         (long long)nf);
  EXPECT(idx(pos2, pb, 0) == 0 && idx(pos2, pb, nf) == nnz,
         "%s: pos2 runs %lld..%lld for %lld entries", when,
         (long long)idx(pos2, pb, 0), (long long)idx(pos2, pb, nf),
         (long long)nnz);
  int64_t ef = fa, entries = 0;
  for (int64_t r = 0; r < nr; ++r) {
    int64_t q0 = idx(pos, pb, r), q1 = idx(pos, pb, r + 1);
    if (!EXPECT(q0 <= q1 && q1 <= nf, "%s: pos[%lld..%lld] = %lld, %lld",
                when, (long long)r, (long long)r + 1, (long long)q0,
                (long long)q1))
      return;
    for (int64_t q = q0; q < q1; ++q, ++ef) {
      int64_t i = first + r, j = idx(crd, cb, q);
      if (!EXPECT(q == q0 || j > idx(crd, cb, q - 1),
                  "%s: row %lld: crd not increasing at fiber %lld", when,
                  (long long)i, (long long)q) ||
          !EXPECT(ef < fb && md->fi[ef] == i && md->fj[ef] == j,
                  "%s: fiber %lld is (%lld, %lld), expected fiber %lld", when,
                  (long long)q, (long long)i, (long long)j, (long long)ef))
        return;
      int64_t p0 = idx(pos2, pb, q), p1 = idx(pos2, pb, q + 1);
      if (!EXPECT(p0 < p1 && p1 <= nnz && p1 - p0 == md->fcnt[ef],
                  "%s: fiber (%lld, %lld) holds [%lld, %lld), %lld entries "
                  "expected",
                  when, (long long)i, (long long)j, (long long)p0,
                  (long long)p1, (long long)md->fcnt[ef]))
        return;
      for (int64_t p = p0; p < p1; ++p) {
        int64_t k = idx(crd2, cb, p);
        if (!EXPECT(k >= 0 && k < md->d[2] &&
                        (p == p0 || k > idx(crd2, cb, p - 1)),
                    "%s: fiber (%lld, %lld): crd2 %lld out of range or not "
                    "increasing",
                    when, (long long)i, (long long)j, (long long)k))
          return;
        double v = tu_get(val, dtype, p), w = at(md, i, j, k);
        EXPECT(w != 0.0 && v == rounded(w, dtype),
               "%s: entry (%lld, %lld, %lld) is %g, expected %g", when,
               (long long)i, (long long)j, (long long)k, v, w);
      }
      entries += p1 - p0;
    }
  }
  EXPECT(ef == fb && entries == nnz,
         "%s: walked to fiber %lld of [%lld, %lld), %lld of %lld entries",
         when, (long long)ef, (long long)fa, (long long)fb, (long long)entries,
         (long long)nnz);
  EXPECT(distrt_spmat_local_nnz(t) == nnz, "%s: local_nnz %lld, fibers' %lld",
         when, (long long)distrt_spmat_local_nnz(t), (long long)nnz);
  EXPECT(distrt_spmat_global_nnz(t) == md->nnz,
         "%s: global_nnz %lld, expected %lld", when,
         (long long)distrt_spmat_global_nnz(t), (long long)md->nnz);
  int64_t sums[2] = {nf, nnz};
  distrt_allreduce(tu_world(), 1, sums, 2, DISTRT_I64, DISTRT_SUM);
  EXPECT(sums[0] == md->F && sums[1] == md->nnz,
         "%s: %lld fibers and %lld entries over the ranks, expected %lld and "
         "%lld",
         when, (long long)sums[0], (long long)sums[1], (long long)md->F,
         (long long)md->nnz);
}

/* The dense gather on `root` against the model. */
static void check_gather(distrt_spmat *t, const model *md, int64_t dtype,
                         int64_t root) {
  int64_t es = tu_esize(dtype);
  void *dense = NULL;
  if (tu_rank() == root) {
    dense = malloc((size_t)((md->n > 0 ? md->n : 1) * es));
    for (int64_t i = 0; i < md->n; ++i)
      tu_set(dense, dtype, i, 7.0); /* every element must be written */
  }
  distrt_spmat_gather_dense(t, dense, root);
  if (dense)
    for (int64_t i = 0; i < md->n; ++i)
      if (!EXPECT(tu_get(dense, dtype, i) == rounded(md->dense[i], dtype),
                  "gather on %lld: element %lld is %g, expected %g",
                  (long long)root, (long long)i, tu_get(dense, dtype, i),
                  md->dense[i]))
        break;
  free(dense);
}

/* Partial sums (fibers, entries) per local row, reduced by rows. */
static void check_reduce(distrt_spmat *t, const model *md, int64_t pb,
                         int64_t dtype) {
  void *ids, *pos, *pos2;
  int64_t first, nr, P = tu_size(), r = tu_rank();
  distrt_spmat_local_rows(t, &ids, &first, &nr);
  distrt_spmat_fibers(t, &pos, NULL, &pos2, NULL, NULL, NULL, NULL);
  void *part = distrt_spmat_partial(t, 2);
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t q = idx(pos, pb, i); q < idx(pos, pb, i + 1); ++q) {
      tu_set(part, dtype, 2 * i, tu_get(part, dtype, 2 * i) + 1.0);
      tu_set(part, dtype, 2 * i + 1,
             tu_get(part, dtype, 2 * i + 1) +
                 (double)(idx(pos2, pb, q + 1) - idx(pos2, pb, q)));
    }
  int64_t B = (md->d[0] + P - 1) / P, es = tu_esize(dtype);
  int64_t lo = min64(r * B, md->d[0]), hi = min64((r + 1) * B, md->d[0]);
  void *y = calloc((size_t)(2 * (B > 0 ? B : 1)), (size_t)es);
  distrt_spmat_reduce_rows(t, part, y, 2);
  for (int64_t i = 0; i < B; ++i) {
    double fib = 0, ent = 0;
    for (int64_t f = 0; lo + i < hi && f < md->F; ++f)
      if (md->fi[f] == lo + i) {
        fib += 1;
        ent += (double)md->fcnt[f];
      }
    if (!EXPECT(tu_get(y, dtype, 2 * i) == fib &&
                    tu_get(y, dtype, 2 * i + 1) == ent,
                "reduce_rows: row %lld: (%g, %g), expected (%g, %g)",
                (long long)(lo + i), tu_get(y, dtype, 2 * i),
                tu_get(y, dtype, 2 * i + 1), fib, ent))
      break;
  }
  free(y);
}

static distrt_spmat *create_matrix(int kind, int64_t rows, int64_t cols,
                                   int64_t pb, int64_t cb, int64_t dtype) {
  return kind == DISTRT_SPMAT_ROWS
             ? distrt_spmat_create(tu_world(), rows, cols, pb, cb, dtype)
             : distrt_spmat_create_nonzeros(tu_world(), rows, cols, pb, cb,
                                            dtype);
}

/* a's rows and ALL part against t's level 1; a's values all `v` (v < 0:
 * not checked). */
static void expect_level1(distrt_spmat *a, distrt_spmat *t, int64_t pb,
                          int64_t cb, int64_t dtype, double v,
                          const char *when) {
  void *ids, *ap, *ac, *av, *tp, *tc;
  int64_t fa, na, ft, nt, annz, nf;
  distrt_spmat_local_rows(a, &ids, &fa, &na);
  distrt_spmat_local_rows(t, &ids, &ft, &nt);
  distrt_spmat_part(a, DISTRT_SPMAT_ALL, &ap, &ac, &av, &annz, NULL);
  distrt_spmat_fibers(t, &tp, &tc, NULL, NULL, NULL, &nf, NULL);
  if (!EXPECT(fa == ft && na == nt && annz == nf,
              "%s: matrix rows [%lld, +%lld) with %lld entries, tensor "
              "[%lld, +%lld) with %lld fibers",
              when, (long long)fa, (long long)na, (long long)annz,
              (long long)ft, (long long)nt, (long long)nf))
    return;
  EXPECT(memcmp(ap, tp, (size_t)((na + 1) * pb / 8)) == 0,
         "%s: positions differ", when);
  EXPECT(nf == 0 || memcmp(ac, tc, (size_t)(nf * cb / 8)) == 0,
         "%s: coordinates differ", when);
  EXPECT(distrt_spmat_local_nnz(a) == nf, "%s: local_nnz %lld, %lld fibers",
         when, (long long)distrt_spmat_local_nnz(a), (long long)nf);
  for (int64_t p = 0; v >= 0 && p < annz; ++p)
    if (!EXPECT(tu_get(av, dtype, p) == v, "%s: value %lld is %g, not %g",
                when, (long long)p, tu_get(av, dtype, p), v))
      break;
}

/* A matrix of the model's fibers (value 1), assigned from the test's own
 * row-blocked COO: the matrix partition of those entries. */
static distrt_spmat *fiber_matrix(const model *md, int kind, int64_t pb,
                                  int64_t cb, int64_t dtype) {
  int64_t P = tu_size(), r = tu_rank(), B = (md->d[0] + P - 1) / P;
  int64_t lo = min64(r * B, md->d[0]), hi = min64((r + 1) * B, md->d[0]);
  distrt_coo coo;
  memset(&coo, 0, sizeof coo);
  coo.order = 2;
  coo.dims[0] = md->d[0];
  coo.dims[1] = md->d[1];
  coo.lo = lo;
  coo.hi = hi;
  coo.coords = malloc((size_t)(2 * md->F + 2) * sizeof(int64_t));
  coo.values = malloc((size_t)(md->F + 1) * sizeof(double));
  for (int64_t f = 0; f < md->F; ++f)
    if (md->fi[f] >= lo && md->fi[f] < hi) {
      coo.coords[2 * coo.nnz] = md->fi[f];
      coo.coords[2 * coo.nnz + 1] = md->fj[f];
      coo.values[coo.nnz++] = 1.0;
    }
  distrt_spmat *c = create_matrix(kind, md->d[0], md->d[1], pb, cb, dtype);
  distrt_spmat_assign(c, &coo, "the fibers");
  free(coo.coords);
  free(coo.values);
  return c;
}

/* Rank 0 prints the global counts and every rank's piece. */
static void print_pieces(distrt_spmat *t, const char *name) {
  void *ids;
  int64_t first, nr, nf, nnz, mine[4], P = tu_size();
  distrt_spmat_local_rows(t, &ids, &first, &nr);
  distrt_spmat_fibers(t, NULL, NULL, NULL, NULL, NULL, &nf, &nnz);
  mine[0] = first;
  mine[1] = nr;
  mine[2] = nf;
  mine[3] = nnz;
  int64_t *all = malloc((size_t)(4 * P) * sizeof(int64_t));
  distrt_allgather(tu_world(), 1, mine, all, 4, DISTRT_I64);
  int64_t F = 0;
  for (int64_t q = 0; q < P; ++q)
    F += all[4 * q + 2];
  if (tu_rank() == 0) {
    printf("%s: %lld entries, %lld fibers\n", name,
           (long long)distrt_spmat_global_nnz(t), (long long)F);
    for (int64_t q = 0; q < P; ++q)
      printf("%s: rank %lld: rows [%lld, +%lld), %lld fibers, %lld entries\n",
             name, (long long)q, (long long)all[4 * q],
             (long long)all[4 * q + 1], (long long)all[4 * q + 2],
             (long long)all[4 * q + 3]);
    fflush(stdout);
  }
  free(all);
}

static void run_one(int kind, int64_t pb, int64_t cb, int64_t dtype,
                    const source *s) {
  const int64_t *d = s->d;
  distrt_spmat *t =
      distrt_spmat_create3(tu_world(), d[0], d[1], d[2], pb, cb, dtype, kind);
  model md;
  fill(t, s, 11);
  model_build(&md, s, 11);
  check_piece(t, &md, kind, pb, cb, dtype, "first entries");
  if (s->e < 0 && kind == DISTRT_SPMAT_NONZEROS && pb == 32 && cb == 32 &&
      dtype == DISTRT_F64)
    print_pieces(t, "tensor3.tns nonzeros");
  check_gather(t, &md, dtype, 0);
  check_gather(t, &md, dtype, tu_size() - 1);
  check_reduce(t, &md, pb, dtype);

  distrt_spmat *a = create_matrix(kind, d[0], d[1], pb, cb, dtype);
  distrt_spmat_generate(a, DISTRT_GEN_UNIFORM, 2, 99);
  distrt_spmat_pattern_of(a, t);
  expect_level1(a, t, pb, cb, dtype, 0.0, "pattern_of");
  EXPECT(distrt_spmat_global_nnz(a) == md.F,
         "pattern_of: global %lld, %lld fibers",
         (long long)distrt_spmat_global_nnz(a), (long long)md.F);
  void *ap, *ac, *av;
  int64_t annz;
  distrt_spmat_part(a, DISTRT_SPMAT_ALL, &ap, &ac, &av, &annz, NULL);
  for (int64_t p = 0; p < annz; ++p)
    tu_set(av, dtype, p, 2.5);
  distrt_spmat_pattern_of(a, t);
  expect_level1(a, t, pb, cb, dtype, 2.5, "second pattern_of (no copy)");
  distrt_spmat *c = fiber_matrix(&md, kind, pb, cb, dtype);
  expect_level1(c, t, pb, cb, dtype, 1.0, "the fibers' matrix");
  distrt_spmat_free(c);

  /* New entries (the file: read again, the same pattern) and a new copy. */
  model_free(&md);
  fill(t, s, 12);
  model_build(&md, s, 12);
  check_piece(t, &md, kind, pb, cb, dtype, "second entries");
  check_gather(t, &md, dtype, 0);
  distrt_spmat_pattern_of(a, t);
  expect_level1(a, t, pb, cb, dtype, 0.0, "pattern_of after new entries");
  model_free(&md);
  distrt_spmat_free(a);
  distrt_spmat_free(t);
}

static int error_case(const char *name) {
  tu_init("distrt-test-sparse-tensor3");
  distrt_grid *g = tu_world();
  distrt_spmat *t =
      distrt_spmat_create3(g, 13, 7, 11, 32, 32, DISTRT_F64,
                                          DISTRT_SPMAT_NONZEROS);
  distrt_spmat_generate(t, DISTRT_GEN_UNIFORM, 2, 3);
  if (!strcmp(name, "plan")) {
    distrt_spmat_plan(t);
  } else if (!strcmp(name, "assign-order")) {
    distrt_coo coo;
    int64_t dims[2] = {13, 7};
    distrt_coo_gen_uniform(g, 2, dims, 20, 5, &coo);
    distrt_spmat_assign(t, &coo, "hand");
  } else if (!strcmp(name, "assign-shape")) {
    distrt_coo coo;
    int64_t dims[3] = {13, 7, 10};
    distrt_coo_gen_uniform(g, 3, dims, 20, 5, &coo);
    distrt_spmat_assign(t, &coo, "hand");
  } else if (!strcmp(name, "read-mtx")) {
    distrt_spmat_read(t, "general.mtx");
  } else if (!strcmp(name, "read-shape")) {
    distrt_spmat *u = distrt_spmat_create3(g, 5, 4, 5, 32, 32, DISTRT_F64, 0);
    distrt_spmat_read(u, tns_path); /* k = 6 in a 5 x 4 x 5 tensor */
  } else if (!strcmp(name, "banded")) {
    distrt_spmat_generate(t, DISTRT_GEN_BANDED, 3, 3);
  } else if (!strcmp(name, "pattern-cols")) {
    distrt_spmat_pattern_of(
        distrt_spmat_create_nonzeros(g, 13, 8, 32, 32, DISTRT_F64), t);
  } else if (!strcmp(name, "pattern-partition")) {
    distrt_spmat_pattern_of(distrt_spmat_create(g, 13, 7, 32, 64, DISTRT_F64),
                            t);
  } else if (!strcmp(name, "pattern-into-tensor")) {
    distrt_spmat_pattern_of(t, distrt_spmat_create(g, 13, 7, 32, 32,
                                                   DISTRT_F64));
  } else if (!strcmp(name, "fibers-matrix")) {
    distrt_spmat_fibers(distrt_spmat_create(g, 3, 3, 32, 32, DISTRT_F64),
                        NULL, NULL, NULL, NULL, NULL, NULL, NULL);
  } else if (!strcmp(name, "partition")) {
    distrt_spmat_create3(g, 3, 3, 3, 32, 32, DISTRT_F64, 2);
  } else if (!strcmp(name, "extent")) {
    distrt_spmat_create3(g, 3, 3, -1, 32, 32, DISTRT_F64, 0);
  } else if (!strcmp(name, "part")) {
    distrt_spmat_part(t, DISTRT_SPMAT_ALL, NULL, NULL, NULL, NULL, NULL);
  } else if (!strcmp(name, "mul-add")) {
    double x[16] = {0}, y[16] = {0};
    distrt_spmat_mul_add(t, x, y, 1, 1);
  } else if (!strcmp(name, "in-partition")) {
    distrt_spmat_in_partition(t, DISTRT_SPMAT_ROWS);
  } else if (!strcmp(name, "write-mm")) {
    distrt_spmat_write_mm(t, "t.mtx");
  } else if (!strcmp(name, "write-tns-matrix")) {
    distrt_spmat_write_tns(distrt_spmat_create(g, 3, 3, 32, 32, DISTRT_F64),
                           "m.tns");
  } else if (!strcmp(name, "check-result")) {
    double ref[1] = {0};
    distrt_spmat_check_result(t, "t", ref, 0.0);
  } else {
    fprintf(stderr, "unknown error case '%s'\n", name);
    return 2;
  }
  printf("UNEXPECTED success\n");
  return tu_finish();
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "error") == 0) {
    tns_path = argv[3];
    return error_case(argv[2]);
  }
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-sparse-tensor3 [error NAME] TNS\n");
    return 2;
  }
  tns_path = argv[1];
  tu_init("distrt-test-sparse-tensor3");
  static const int64_t widths[4][2] = {{32, 32}, {64, 64}, {64, 32},
                                       {32, 64}};
  static const source sources[] = {{"uniform", {13, 7, 11}, 12},
                                   {"few-rows", {2, 9, 6}, 4},
                                   {"empty", {5, 4, 3}, 0},
                                   {"tensor3.tns", {5, 4, 6}, -1}};
  for (int kind = DISTRT_SPMAT_ROWS; kind <= DISTRT_SPMAT_NONZEROS; ++kind)
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; ++s) {
      for (int w = 0; w < 4; ++w)
        for (int64_t dtype = DISTRT_F32; dtype <= DISTRT_F64; ++dtype)
          run_one(kind, widths[w][0], widths[w][1], dtype, &sources[s]);
      tu_section("tensor3 %s %s %lldx%lldx%lld",
                 kind == DISTRT_SPMAT_ROWS ? "rows" : "nonzeros",
                 sources[s].name, (long long)sources[s].d[0],
                 (long long)sources[s].d[1], (long long)sources[s].d[2]);
    }
  return tu_finish();
}
