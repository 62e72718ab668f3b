/* distrt-test-sparse-entries: an order-3 tensor's entries companion
 * (DISTRT_SPMAT_ENTRIES: distrt_spmat_in_partition; distrt/sparse.h).
 *
 *   distrt-test-sparse-entries TNS            every case; TNS is the
 *                                             5 x 4 x 6 tensor3.tns
 *   distrt-test-sparse-entries owner TNS      the companion asked for its
 *                                             owner's partition
 *   distrt-test-sparse-entries error NAME TNS one error case, which must
 *                                             end the job (prints
 *                                             "UNEXPECTED success"
 *                                             otherwise)
 *
 * For tensors stored either way (rows blocked, (i, j) fibers split), the
 * four (pos, crd) width pairs, f32 and f64, on generated tensors (13 x 7 x
 * 11, 2 x 9 x 6 with fewer rows than ranks, 5 x 4 x 3 with no entries), a
 * hand-made 6 x 5 x 40 one whose entries are mostly in one fiber of 30
 * (split over 3 or 4 ranks at np = 3, 4) and the .tns file, the test builds
 * its own model from the generator's (reader's, its own) COO: the dense
 * tensor on every rank (each adds its rows into zeros, then an
 * all-reduce), the G entries in row-major order with the number of the
 * fiber of each, the F fibers.  The companion of rank r must hold entries
 * [min(r E, G), min((r + 1) E, G)), E = ceil(G / P).  Then:
 *   - its partition and order; in_partition returns the same companion
 *     again, the companion asked for DISTRT_SPMAT_ENTRIES itself;
 *   - its piece (local_rows, fibers): rows from the row of its first entry
 *     to that of its last; walking pos, crd, pos2, crd2 and the values
 *     gives exactly its entries in order, crd increasing within a row, crd2
 *     within a fiber, local fiber q the model's fiber of its first entry
 *     plus q; local and global counts, their sums over the ranks;
 *   - distrt_spmat_moved_entries(t) = the entries whose rank under the
 *     companion is not their rank in t;
 *   - the fibers' partial sums (distrt_spmat_fiber_partial: zeroed, one a
 *     local fiber): the entries of each local fiber, then sum(k + 1) over
 *     them (a second call on the same plan), reduced by
 *     distrt_spmat_reduce_fibers into this rank's block of the F fibers
 *     (ceil(F / P) each; tensors stored by fibers) equal the model's;
 *   - stored by fibers, the product's protocol that writes the own fibers
 *     straight into y (before reduce_fibers, which reuses its plan, and
 *     after): distrt_spmat_fiber_runs zeroes y (7s before) and gives the
 *     own run [ob, oe), exactly the local fibers whose number lies in this
 *     rank's block, y_offset their first one's place in it;
 *     fiber_partial_foreign zeroes the partial sums outside the run only
 *     (5s before); the sums of [0, ob), [oe, nf) written there, those of
 *     the run into y, reduce_fibers_foreign leaves y equal to the model's
 *     per-fiber sums (entries, then sum(k + 1) on the same plan);
 *   - the rows' partial sums (entries, sum(k + 1)) reduced by rows equal
 *     the model's per row;
 *   - after the tensor gets new entries (generated, another seed) the next
 *     in_partition gives a companion of the new entries (all of the above).
 * For the file, rank 0 prints the moved count and each rank's companion
 * piece when stored by fibers (32/32, f64), which the lit test checks
 * against hand-computed values.  One error case a RUN line. */
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
static int64_t cdiv(int64_t a, int64_t b) {
  return b > 0 ? (a + b - 1) / b : 0;
}

/* A source of entries: the generator (draws per row e), the file (e = -1)
 * or the long fiber built by hand (e = -2). */
typedef struct {
  const char *name;
  int64_t d[3];
  int64_t e;
} source;

static const char *tns_path;

/* This rank's rows of the long-fiber tensor (6 x 5 x 40): (0, 1) with 2
 * entries, (2, 3) with k = 5..34 (30 entries), (5, 4) with 2. */
static void long_fiber_coo(distrt_coo *coo) {
  int64_t P = tu_size(), r = tu_rank(), B = cdiv(6, P);
  memset(coo, 0, sizeof *coo);
  coo->order = 3;
  coo->dims[0] = 6;
  coo->dims[1] = 5;
  coo->dims[2] = 40;
  coo->lo = min64(r * B, 6);
  coo->hi = min64((r + 1) * B, 6);
  coo->coords = malloc(34 * 3 * sizeof(int64_t));
  coo->values = malloc(34 * sizeof(double));
  static const int64_t fixed[4][3] = {
      {0, 1, 3}, {0, 1, 17}, {5, 4, 0}, {5, 4, 39}};
  for (int64_t e = 0; e < 34; ++e) {
    int64_t c[3] = {2, 3, e + 3}; /* entries 2..31: k = 5..34 */
    if (e < 2 || e >= 32)
      memcpy(c, fixed[e < 2 ? e : e - 30], sizeof c);
    if (c[0] < coo->lo || c[0] >= coo->hi)
      continue;
    memcpy(coo->coords + 3 * coo->nnz, c, sizeof c);
    coo->values[coo->nnz++] = (e % 2 ? -0.5 : 0.25) * (double)(e + 1);
  }
}

/* The entries of s (second: the new entries, generated with seed 12) into
 * t, and their COO as this rank's share of them. */
static void fill(distrt_spmat *t, const source *s, int second,
                 distrt_coo *coo) {
  distrt_grid *g = tu_world();
  int64_t e = second ? 3 : s->e, seed = second ? 12 : 11;
  if (e >= 0) {
    distrt_spmat_generate(t, DISTRT_GEN_UNIFORM, e, seed);
    distrt_coo_gen_uniform(g, 3, s->d, e * s->d[0], seed, coo);
  } else if (e == -1) {
    distrt_spmat_read(t, tns_path);
    distrt_coo_read_tns(tns_path, g, 3, s->d, coo);
  } else {
    long_fiber_coo(coo);
    distrt_spmat_assign(t, coo, "the long fiber");
  }
}

/* The test's own model: the entries (row-major over the whole tensor) with
 * their fibers' numbers, and the fibers (first entry, count). */
typedef struct {
  int64_t d[3], G, F;
  int64_t *ei, *ej, *ek, *ef; /* per entry */
  double *ev;
  int64_t *fstart, *fcnt; /* per fiber */
} model;

static void model_build(model *md, const int64_t d[3], const distrt_coo *coo) {
  memset(md, 0, sizeof *md);
  memcpy(md->d, d, sizeof md->d);
  int64_t n = d[0] * d[1] * d[2];
  double *dense = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  for (int64_t e = 0; e < coo->nnz; ++e) {
    const int64_t *c = coo->coords + 3 * e;
    dense[(c[0] * d[1] + c[1]) * d[2] + c[2]] = coo->values[e];
  }
  if (n > 0)
    distrt_allreduce(tu_world(), 1, dense, n, DISTRT_F64, DISTRT_SUM);
  for (int64_t x = 0; x < n; ++x)
    md->G += dense[x] != 0.0;
  size_t g = (size_t)(md->G + 1);
  md->ei = malloc(6 * g * sizeof(int64_t));
  md->ej = md->ei + g;
  md->ek = md->ej + g;
  md->ef = md->ek + g;
  md->fstart = md->ef + g;
  md->fcnt = md->fstart + g;
  md->ev = malloc(g * sizeof(double));
  int64_t e = 0;
  for (int64_t x = 0; x < n; ++x) {
    if (dense[x] == 0.0)
      continue;
    md->ei[e] = x / (d[1] * d[2]);
    md->ej[e] = x / d[2] % d[1];
    md->ek[e] = x % d[2];
    md->ev[e] = dense[x];
    if (e == 0 || md->ei[e] != md->ei[e - 1] || md->ej[e] != md->ej[e - 1]) {
      md->fstart[md->F] = e;
      md->fcnt[md->F++] = 0;
    }
    md->ef[e] = md->F - 1;
    ++md->fcnt[md->F - 1];
    ++e;
  }
  free(dense);
}

static void model_free(model *md) {
  free(md->ei);
  free(md->ev);
}

/* Rank q's entries under the companion: [*ea, *eb). */
static void entry_block(const model *md, int64_t q, int64_t *ea, int64_t *eb) {
  int64_t E = cdiv(md->G, tu_size());
  *ea = min64(q * E, md->G);
  *eb = min64((q + 1) * E, md->G);
}

/* The fibers the entries [ea, eb) lie in. */
static int64_t fibers_in(const model *md, int64_t ea, int64_t eb) {
  return ea < eb ? md->ef[eb - 1] - md->ef[ea] + 1 : 0;
}

static double rounded(double v, int64_t dtype) {
  return dtype == DISTRT_F32 ? (double)(float)v : v;
}

/* The companion c's piece against entries [ea, eb) of the model. */
static void check_piece(distrt_spmat *c, const model *md, int64_t pb,
                        int64_t cb, int64_t dtype, const char *when) {
  int64_t ea, eb;
  entry_block(md, tu_rank(), &ea, &eb);
  void *ids, *pos, *crd, *pos2, *crd2, *val;
  int64_t first, nr, nf, nnz;
  distrt_spmat_local_rows(c, &ids, &first, &nr);
  distrt_spmat_fibers(c, &pos, &crd, &pos2, &crd2, &val, &nf, &nnz);
  int64_t efirst = ea < eb ? md->ei[ea] : first;
  int64_t enr = ea < eb ? md->ei[eb - 1] - md->ei[ea] + 1 : 0;
  if (!EXPECT(first == efirst && nr == enr,
              "%s: rows [%lld, +%lld), expected [%lld, +%lld)", when,
              (long long)first, (long long)nr, (long long)efirst,
              (long long)enr) ||
      !EXPECT(nf == fibers_in(md, ea, eb) && nnz == eb - ea,
              "%s: %lld fibers, %lld entries; expected %lld, %lld", when,
              (long long)nf, (long long)nnz, (long long)fibers_in(md, ea, eb),
              (long long)(eb - ea)))
    return;
  if (!EXPECT(idx(pos, pb, 0) == 0 && idx(pos, pb, nr) == nf &&
                  idx(pos2, pb, 0) == 0 && idx(pos2, pb, nf) == nnz,
              "%s: pos runs %lld..%lld, pos2 %lld..%lld", when,
              (long long)idx(pos, pb, 0), (long long)idx(pos, pb, nr),
              (long long)idx(pos2, pb, 0), (long long)idx(pos2, pb, nf)))
    return;
  int64_t e = ea, q = 0;
  for (int64_t r = 0; r < nr; ++r) {
    int64_t q1 = idx(pos, pb, r + 1);
    if (!EXPECT(q <= q1 && q1 <= nf, "%s: pos[%lld] = %lld", when,
                (long long)r + 1, (long long)q1))
      return;
    for (; q < q1; ++q) {
      int64_t i = first + r, j = idx(crd, cb, q);
      int64_t p0 = idx(pos2, pb, q), p1 = idx(pos2, pb, q + 1);
      if (!EXPECT(q == idx(pos, pb, r) || j > idx(crd, cb, q - 1),
                  "%s: row %lld: crd not increasing at fiber %lld", when,
                  (long long)i, (long long)q) ||
          !EXPECT(p0 == e - ea && p0 < p1 && p1 <= nnz,
                  "%s: fiber %lld holds [%lld, %lld), entry %lld next", when,
                  (long long)q, (long long)p0, (long long)p1,
                  (long long)(e - ea)) ||
          !EXPECT(md->ef[e] == md->ef[ea] + q,
                  "%s: local fiber %lld is fiber %lld, expected %lld", when,
                  (long long)q, (long long)md->ef[e],
                  (long long)(md->ef[ea] + q)))
        return;
      for (int64_t p = p0; p < p1; ++p, ++e) {
        int64_t k = idx(crd2, cb, p);
        double v = tu_get(val, dtype, p);
        if (!EXPECT(p == p0 || k > idx(crd2, cb, p - 1),
                    "%s: fiber (%lld, %lld): crd2 not increasing at %lld", when,
                    (long long)i, (long long)j, (long long)p) ||
            !EXPECT(e < eb && md->ei[e] == i && md->ej[e] == j &&
                        md->ek[e] == k && v == rounded(md->ev[e], dtype),
                    "%s: entry %lld is (%lld, %lld, %lld) = %g, expected "
                    "entry %lld",
                    when, (long long)p, (long long)i, (long long)j,
                    (long long)k, v, (long long)e))
          return;
      }
    }
  }
  EXPECT(e == eb && q == nf, "%s: walked to entry %lld of [%lld, %lld)", when,
         (long long)e, (long long)ea, (long long)eb);
  EXPECT(
      distrt_spmat_local_nnz(c) == nnz && distrt_spmat_global_nnz(c) == md->G,
      "%s: local_nnz %lld, global_nnz %lld; expected %lld, %lld", when,
      (long long)distrt_spmat_local_nnz(c),
      (long long)distrt_spmat_global_nnz(c), (long long)nnz, (long long)md->G);
  int64_t sums[2] = {nf, nnz}, want = 0;
  distrt_allreduce(tu_world(), 1, sums, 2, DISTRT_I64, DISTRT_SUM);
  for (int64_t q2 = 0; q2 < tu_size(); ++q2) {
    entry_block(md, q2, &ea, &eb);
    want += fibers_in(md, ea, eb);
  }
  EXPECT(sums[0] == want && sums[1] == md->G,
         "%s: %lld fibers and %lld entries over the ranks, expected %lld "
         "and %lld",
         when, (long long)sums[0], (long long)sums[1], (long long)want,
         (long long)md->G);
}

/* The entries whose companion rank differs from their rank in t. */
static int64_t model_moved(const model *md, int kind) {
  int64_t P = tu_size(), E = cdiv(md->G, P), moved = 0;
  int64_t Br = cdiv(md->d[0], P), Ef = cdiv(md->F, P);
  for (int64_t e = 0; e < md->G; ++e) {
    int64_t stored =
        kind == DISTRT_SPMAT_ROWS ? md->ei[e] / Br : md->ef[e] / Ef;
    moved += stored != e / E;
  }
  return moved;
}

/* Entry e's term in the fibers' sums: pass 0 counts it, pass 1 adds
 * k + 1; fiber f's sum of them over the whole tensor. */
static double term(const model *md, int64_t e, int pass) {
  return pass ? (double)(md->ek[e] + 1) : 1.0;
}
static double fiber_sum(const model *md, int64_t f, int pass) {
  double s = 0;
  for (int64_t e = md->fstart[f]; e < md->fstart[f] + md->fcnt[f]; ++e)
    s += term(md, e, pass);
  return s;
}

/* The fibers' partial sums (pass 0: the entries of each local fiber; pass
 * 1: sum(k + 1)), reduced by fibers when t is stored by them. */
static void check_fiber_reduce(distrt_spmat *c, const model *md, int kind,
                               int64_t pb, int64_t cb, int64_t dtype,
                               const char *when) {
  void *pos2, *crd2;
  int64_t nf, P = tu_size(), r = tu_rank();
  distrt_spmat_fibers(c, NULL, NULL, &pos2, &crd2, NULL, &nf, NULL);
  int64_t B = cdiv(md->F, P), lo = min64(r * B, md->F);
  int64_t ny = min64((r + 1) * B, md->F) - lo;
  void *y = malloc((size_t)((ny > 0 ? ny : 1) * tu_esize(dtype)));
  for (int pass = 0; pass < 2; ++pass) {
    void *part = distrt_spmat_fiber_partial(c);
    for (int64_t q = 0; q < nf; ++q)
      if (!EXPECT(tu_get(part, dtype, q) == 0.0,
                  "%s: fiber_partial[%lld] is %g, not 0", when, (long long)q,
                  tu_get(part, dtype, q)))
        break;
    for (int64_t q = 0; q < nf; ++q) {
      double s = 0;
      for (int64_t p = idx(pos2, pb, q); p < idx(pos2, pb, q + 1); ++p)
        s += pass ? (double)(idx(crd2, cb, p) + 1) : 1.0;
      tu_set(part, dtype, q, s);
    }
    if (kind != DISTRT_SPMAT_NONZEROS)
      continue;
    for (int64_t f = 0; f < ny; ++f)
      tu_set(y, dtype, f, 7.0); /* overwritten, not added to */
    distrt_spmat_reduce_fibers(c, part, y, ny);
    for (int64_t f = 0; f < ny; ++f) {
      double want = fiber_sum(md, lo + f, pass);
      if (!EXPECT(tu_get(y, dtype, f) == want,
                  "%s: reduce_fibers (pass %d): fiber %lld is %g, expected %g",
                  when, pass, (long long)(lo + f), tu_get(y, dtype, f), want))
        break;
    }
  }
  free(y);
}

/* The product's protocol (t stored by fibers): distrt_spmat_fiber_runs
 * zeroes y and gives the own run [ob, oe), the local fibers in this rank's
 * block, local fiber q to y[q - ob + off]; fiber_partial_foreign zeroes
 * only the others; the sums of [0, ob) and [oe, nf) go into the partial
 * sums, those of the run straight into y, and reduce_fibers_foreign adds
 * the other ranks' to y.  Pass 0: entries; pass 1: sum(k + 1). */
static void check_fiber_runs(distrt_spmat *c, const model *md, int64_t dtype,
                             const char *when) {
  int64_t nf, ea, eb, P = tu_size(), r = tu_rank();
  distrt_spmat_fibers(c, NULL, NULL, NULL, NULL, NULL, &nf, NULL);
  entry_block(md, r, &ea, &eb);
  int64_t B = cdiv(md->F, P), lo = min64(r * B, md->F);
  int64_t hi = min64((r + 1) * B, md->F), ny = hi - lo;
  int64_t f0 = ea < eb ? md->ef[ea] : 0; /* local fiber 0's number */
  void *y = malloc((size_t)((ny > 0 ? ny : 1) * tu_esize(dtype)));
  double *loc = malloc((size_t)(nf > 0 ? nf : 1) * sizeof(double));
  for (int pass = 0; pass < 2; ++pass) {
    int64_t ob = -1, oe = -1, off = -1;
    if (pass) /* every out pointer may be NULL */
      distrt_spmat_fiber_runs(c, y, ny, NULL, NULL, NULL);
    for (int64_t f = 0; f < ny; ++f)
      tu_set(y, dtype, f, 7.0);
    distrt_spmat_fiber_runs(c, y, ny, &ob, &oe, &off);
    int ok = EXPECT(0 <= ob && ob <= oe && oe <= nf,
                    "%s: fiber_runs: own run [%lld, %lld) of %lld fibers", when,
                    (long long)ob, (long long)oe, (long long)nf);
    for (int64_t q = 0; ok && q < nf; ++q)
      ok = EXPECT((ob <= q && q < oe) == (lo <= f0 + q && f0 + q < hi),
                  "%s: fiber_runs: local fiber %lld (fiber %lld) %s the own "
                  "run [%lld, %lld); the block is [%lld, %lld)",
                  when, (long long)q, (long long)(f0 + q),
                  ob <= q && q < oe ? "in" : "not in", (long long)ob,
                  (long long)oe, (long long)lo, (long long)hi);
    if (ok && ob < oe)
      ok = EXPECT(off == f0 + ob - lo,
                  "%s: fiber_runs: y_offset %lld, expected %lld", when,
                  (long long)off, (long long)(f0 + ob - lo));
    for (int64_t f = 0; f < ny; ++f)
      if (!EXPECT(tu_get(y, dtype, f) == 0.0,
                  "%s: fiber_runs: y[%lld] is %g, not 0", when, (long long)f,
                  tu_get(y, dtype, f)))
        break;
    /* Only the elements outside the run are zeroed. */
    void *part = distrt_spmat_fiber_partial_foreign(c);
    for (int64_t q = 0; q < nf; ++q)
      tu_set(part, dtype, q, 5.0);
    EXPECT(distrt_spmat_fiber_partial_foreign(c) == part,
           "%s: fiber_partial_foreign: another buffer the second time", when);
    for (int64_t q = 0; q < nf; ++q) {
      double want = ob <= q && q < oe ? 5.0 : 0.0;
      if (!EXPECT(tu_get(part, dtype, q) == want,
                  "%s: fiber_partial_foreign[%lld] is %g, expected %g (own "
                  "run [%lld, %lld))",
                  when, (long long)q, tu_get(part, dtype, q), want,
                  (long long)ob, (long long)oe))
        break;
    }
    /* The local fibers' sums, from the model's entries [ea, eb). */
    for (int64_t q = 0; q < nf; ++q)
      loc[q] = 0;
    for (int64_t e = ea; e < eb; ++e)
      if (md->ef[e] - f0 < nf)
        loc[md->ef[e] - f0] += term(md, e, pass);
    for (int64_t q = 0; q < nf; ++q) {
      if (q < ob || q >= oe)
        tu_set(part, dtype, q, loc[q]);
      else if (q - ob + off >= 0 && q - ob + off < ny) /* the run's 5s stay */
        tu_set(y, dtype, q - ob + off, loc[q]);
    }
    distrt_spmat_reduce_fibers_foreign(c, part, y, ny);
    for (int64_t f = 0; f < ny; ++f)
      if (!EXPECT(tu_get(y, dtype, f) == fiber_sum(md, lo + f, pass),
                  "%s: reduce_fibers_foreign (pass %d): fiber %lld is %g, "
                  "expected %g",
                  when, pass, (long long)(lo + f), tu_get(y, dtype, f),
                  fiber_sum(md, lo + f, pass)))
        break;
  }
  free(loc);
  free(y);
}

/* The rows' partial sums (entries, sum(k + 1)) reduced by rows. */
static void check_row_reduce(distrt_spmat *c, const model *md, int64_t pb,
                             int64_t cb, int64_t dtype, const char *when) {
  void *ids, *pos, *pos2, *crd2;
  int64_t first, nr, P = tu_size(), r = tu_rank();
  distrt_spmat_local_rows(c, &ids, &first, &nr);
  distrt_spmat_fibers(c, &pos, NULL, &pos2, &crd2, NULL, NULL, NULL);
  void *part = distrt_spmat_partial(c, 2);
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t q = idx(pos, pb, i); q < idx(pos, pb, i + 1); ++q)
      for (int64_t p = idx(pos2, pb, q); p < idx(pos2, pb, q + 1); ++p) {
        tu_set(part, dtype, 2 * i, tu_get(part, dtype, 2 * i) + 1.0);
        tu_set(part, dtype, 2 * i + 1,
               tu_get(part, dtype, 2 * i + 1) + (double)(idx(crd2, cb, p) + 1));
      }
  int64_t B = cdiv(md->d[0], P), lo = min64(r * B, md->d[0]);
  int64_t hi = min64((r + 1) * B, md->d[0]);
  void *y = calloc((size_t)(2 * (B > 0 ? B : 1)), (size_t)tu_esize(dtype));
  distrt_spmat_reduce_rows(c, part, y, 2);
  for (int64_t i = 0; i < B; ++i) {
    double ent = 0, ks = 0;
    for (int64_t e = 0; lo + i < hi && e < md->G; ++e)
      if (md->ei[e] == lo + i) {
        ent += 1;
        ks += (double)(md->ek[e] + 1);
      }
    if (!EXPECT(tu_get(y, dtype, 2 * i) == ent &&
                    tu_get(y, dtype, 2 * i + 1) == ks,
                "%s: reduce_rows: row %lld: (%g, %g), expected (%g, %g)", when,
                (long long)(lo + i), tu_get(y, dtype, 2 * i),
                tu_get(y, dtype, 2 * i + 1), ent, ks))
      break;
  }
  free(y);
}

/* Rank 0 prints the moved count and every rank's companion piece. */
static void print_pieces(distrt_spmat *t, distrt_spmat *c, int64_t cb,
                         const char *name) {
  void *ids, *crd;
  int64_t first, nr, nf, nnz, mine[6], P = tu_size();
  distrt_spmat_local_rows(c, &ids, &first, &nr);
  distrt_spmat_fibers(c, NULL, &crd, NULL, NULL, NULL, &nf, &nnz);
  mine[0] = first;
  mine[1] = nr;
  mine[2] = nf;
  mine[3] = nnz;
  mine[4] = nf > 0 ? first : -1; /* the first local fiber's (i, j) */
  mine[5] = nf > 0 ? idx(crd, cb, 0) : -1;
  int64_t *all = malloc((size_t)(6 * P) * sizeof(int64_t));
  distrt_allgather(tu_world(), 1, mine, all, 6, DISTRT_I64);
  if (tu_rank() == 0) {
    printf("%s: %lld entries, moved %lld\n", name,
           (long long)distrt_spmat_global_nnz(c),
           (long long)distrt_spmat_moved_entries(t));
    for (int64_t q = 0; q < P; ++q) {
      const int64_t *a = all + 6 * q;
      printf("%s: rank %lld: rows [%lld, +%lld), %lld fibers, %lld entries, "
             "first fiber (%lld, %lld)\n",
             name, (long long)q, (long long)a[0], (long long)a[1],
             (long long)a[2], (long long)a[3], (long long)a[4],
             (long long)a[5]);
    }
    fflush(stdout);
  }
  free(all);
}

/* The companion of t (stored as `kind`) against the model. */
static void check_companion(distrt_spmat *t, const model *md, int kind,
                            int64_t pb, int64_t cb, int64_t dtype,
                            const char *when) {
  EXPECT(distrt_spmat_moved_entries(t) == 0,
         "%s: moved %lld entries before the companion", when,
         (long long)distrt_spmat_moved_entries(t));
  distrt_spmat *c = distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES);
  EXPECT(c && c != t, "%s: companion %p of %p", when, (void *)c, (void *)t);
  EXPECT(distrt_spmat_partition(c) == DISTRT_SPMAT_ENTRIES &&
             distrt_spmat_order(c) == 3,
         "%s: companion partition %lld, order %lld", when,
         (long long)distrt_spmat_partition(c),
         (long long)distrt_spmat_order(c));
  EXPECT(distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES) == c,
         "%s: a second call gives another companion", when);
  EXPECT(distrt_spmat_in_partition(c, DISTRT_SPMAT_ENTRIES) == c,
         "%s: the companion asked for ENTRIES is not itself", when);
  EXPECT(distrt_spmat_in_partition(t, kind) == t,
         "%s: t asked for its own partition is not itself", when);
  EXPECT(distrt_spmat_partition(t) == kind, "%s: t's partition %lld", when,
         (long long)distrt_spmat_partition(t));
  check_piece(c, md, pb, cb, dtype, when);
  EXPECT(distrt_spmat_moved_entries(t) == model_moved(md, kind),
         "%s: moved %lld entries, expected %lld", when,
         (long long)distrt_spmat_moved_entries(t),
         (long long)model_moved(md, kind));
  /* fiber_runs plans the fibers' reduction first, reduce_fibers reuses
   * the plan; at the end fiber_runs reuses it again. */
  if (kind == DISTRT_SPMAT_NONZEROS)
    check_fiber_runs(c, md, dtype, when);
  check_fiber_reduce(c, md, kind, pb, cb, dtype, when);
  check_row_reduce(c, md, pb, cb, dtype, when);
  /* The plans are kept: the fibers' reduction once more. */
  check_fiber_reduce(c, md, kind, pb, cb, dtype, when);
  if (kind == DISTRT_SPMAT_NONZEROS)
    check_fiber_runs(c, md, dtype, when);
}

static void run_one(int kind, int64_t pb, int64_t cb, int64_t dtype,
                    const source *s) {
  const int64_t *d = s->d;
  distrt_spmat *t =
      distrt_spmat_create3(tu_world(), d[0], d[1], d[2], pb, cb, dtype, kind);
  for (int second = 0; second < 2; ++second) {
    distrt_coo coo;
    model md;
    fill(t, s, second, &coo);
    model_build(&md, d, &coo);
    free(coo.coords);
    free(coo.values);
    check_companion(t, &md, kind, pb, cb, dtype,
                    second ? "new entries" : "first entries");
    if (!second && s->e == -1 && kind == DISTRT_SPMAT_NONZEROS && pb == 32 &&
        cb == 32 && dtype == DISTRT_F64)
      print_pieces(t, distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES), cb,
                   "tensor3.tns entries");
    model_free(&md);
  }
  distrt_spmat_free(t);
}

/* The companion asked for its owner's partition gives the owner. */
static int owner_case(void) {
  tu_init("distrt-test-sparse-entries");
  for (int kind = DISTRT_SPMAT_ROWS; kind <= DISTRT_SPMAT_NONZEROS; ++kind) {
    distrt_spmat *t =
        distrt_spmat_create3(tu_world(), 5, 4, 6, 32, 32, DISTRT_F64, kind);
    distrt_spmat_read(t, tns_path);
    distrt_spmat *c = distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES);
    EXPECT(distrt_spmat_in_partition(c, kind) == t,
           "the companion asked for partition %d is not its owner", kind);
    distrt_spmat_free(t);
  }
  tu_section("entries owner");
  return tu_finish();
}

static int error_case(const char *name) {
  tu_init("distrt-test-sparse-entries");
  distrt_grid *g = tu_world();
  distrt_spmat *t = distrt_spmat_create3(g, 5, 4, 6, 32, 32, DISTRT_F64,
                                         DISTRT_SPMAT_NONZEROS);
  distrt_spmat *u =
      distrt_spmat_create3(g, 5, 4, 6, 32, 32, DISTRT_F64, DISTRT_SPMAT_ROWS);
  distrt_spmat_read(t, tns_path);
  distrt_spmat_read(u, tns_path);
  double y[16] = {0};
  int64_t ny = min64((tu_rank() + 1) * cdiv(8, tu_size()), 8) -
               min64(tu_rank() * cdiv(8, tu_size()), 8);
  if (!strcmp(name, "reduce-rows-stored")) {
    distrt_spmat *c = distrt_spmat_in_partition(u, DISTRT_SPMAT_ENTRIES);
    distrt_spmat_reduce_fibers(c, distrt_spmat_fiber_partial(c), y, ny);
  } else if (!strcmp(name, "reduce-ny")) {
    distrt_spmat *c = distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES);
    /* Rank 1 alone is wrong: its line, and no other. */
    distrt_spmat_reduce_fibers(c, distrt_spmat_fiber_partial(c), y,
                               ny + (tu_rank() == 1));
  } else if (!strcmp(name, "reduce-not-companion")) {
    distrt_spmat_reduce_fibers(t, distrt_spmat_fiber_partial(t), y, ny);
  } else if (!strcmp(name, "fiber-partial-foreign-early")) {
    distrt_spmat_fiber_partial_foreign(
        distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES));
  } else if (!strcmp(name, "reduce-foreign-early")) {
    distrt_spmat *c = distrt_spmat_in_partition(t, DISTRT_SPMAT_ENTRIES);
    distrt_spmat_reduce_fibers_foreign(c, distrt_spmat_fiber_partial(c), y, ny);
  } else if (!strcmp(name, "entries-matrix")) {
    distrt_spmat *a = distrt_spmat_create_nonzeros(g, 5, 4, 32, 32, DISTRT_F64);
    distrt_spmat_generate(a, DISTRT_GEN_UNIFORM, 2, 3);
    distrt_spmat_in_partition(a, DISTRT_SPMAT_ENTRIES);
  } else if (!strcmp(name, "rows-to-nonzeros")) {
    distrt_spmat_in_partition(u, DISTRT_SPMAT_NONZEROS);
  } else if (!strcmp(name, "fiber-partial-matrix")) {
    distrt_spmat_fiber_partial(
        distrt_spmat_create(g, 3, 3, 32, 32, DISTRT_F64));
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
  if (argc == 3 && strcmp(argv[1], "owner") == 0) {
    tns_path = argv[2];
    return owner_case();
  }
  if (argc != 2) {
    fprintf(stderr,
            "usage: distrt-test-sparse-entries [owner | error NAME] TNS\n");
    return 2;
  }
  tns_path = argv[1];
  tu_init("distrt-test-sparse-entries");
  static const int64_t widths[4][2] = {{32, 32}, {64, 64}, {32, 64}, {64, 32}};
  static const source sources[] = {{"uniform", {13, 7, 11}, 12},
                                   {"few-rows", {2, 9, 6}, 4},
                                   {"empty", {5, 4, 3}, 0},
                                   {"long-fiber", {6, 5, 40}, -2},
                                   {"tensor3.tns", {5, 4, 6}, -1}};
  for (int kind = DISTRT_SPMAT_ROWS; kind <= DISTRT_SPMAT_NONZEROS; ++kind)
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; ++s) {
      for (int w = 0; w < 4; ++w)
        for (int64_t dtype = DISTRT_F32; dtype <= DISTRT_F64; ++dtype)
          run_one(kind, widths[w][0], widths[w][1], dtype, &sources[s]);
      tu_section("entries %s %s %lldx%lldx%lld",
                 kind == DISTRT_SPMAT_ROWS ? "rows" : "nonzeros",
                 sources[s].name, (long long)sources[s].d[0],
                 (long long)sources[s].d[1], (long long)sources[s].d[2]);
    }
  return tu_finish();
}
