/*===- sparse_tensor3.c - distrt sparse: order-3 tensors ----------*- C -*-===*
 *
 * An order-3 tensor d0 x d1 x d2 in a distrt_spmat (distrt_spmat_create3;
 * sparse_spmat_internal.h), stored per process as CSF with a dense root:
 *   - level 0: the piece's rows [first, first + nr), as a matrix's;
 *   - level 1: its (i, j) fibers, the distinct (i, j) pairs holding an
 *     entry, row-major: `all` is the CSR matrix of their pattern (nr + 1
 *     positions, the j coordinates, all.nnz fibers; no values);
 *   - level 2: pos2 (all.nnz + 1 positions), crd2 (the k coordinates) and
 *     val2 (the values) of its nnz2 entries.
 *
 * Under the row partition every process has its B = ceil(d0 / P) rows.
 * Under the non-zero partition (SpDISTAL's fuse(i, j, f), pos(f, fp, B))
 * the fibers, numbered row-major over the whole tensor, F of them, are cut
 * in blocks of E = ceil(F / P), and a fiber goes with all of its entries:
 * rank r holds fibers [min(r E, F), min((r + 1) E, F)).  So the fiber
 * pattern is partitioned exactly as a matrix of F entries is, and an
 * output with that pattern (distrt_spmat_pattern_of: SpTTV's A(i,j)) has
 * the same pieces.  Moving the entries is spm_nz_assign's scheme, by
 * fiber: an all-gather of the P local (fiber, entry) counts gives this
 * process's first fiber number; fiber f goes to rank f / E, so its
 * destinations are a contiguous range of ranks; one all-to-all of P
 * counts and two all-to-all-v (coordinates, values) move the entries,
 * received in sender order, so row-major.  A row of the readers' COO
 * lies on one process, hence so does each fiber.
 *
 * The entries partition (SpDISTAL's fuse(i, j, f), fuse(f, k, g), pos(g,
 * gp, B): all three levels fused) is a companion a tensor stored either
 * way makes for a product scheduled so (distrt_spmat_in_partition with
 * DISTRT_SPMAT_ENTRIES, kept until the entries change): the G entries,
 * numbered row-major, cut in blocks of ceil(G / P), so that a fiber (and
 * a row) may be split between neighbours.  Its piece is CSF over its
 * entries, fiber0 the global number of its first fiber.  A product writes
 * the partial sums of its fibers (distrt_spmat_fiber_partial), which
 * distrt_spmat_reduce_fibers adds into the fiber blocks of an output
 * stored by fibers (SpTTV's A), as the rows of a non-zero partition are
 * reduced (sparse_nonzeros.c).
 *
 * Nothing is sized by P beyond the counts of those collectives.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/*===-- lifetime and views -----------------------------------------------===*/

void spm_t3_free(distrt_spmat *m) {
  free(m->pos2);
  free(m->crd2);
  free(m->val2);
  m->pos2 = m->crd2 = m->val2 = NULL;
  m->nnz2 = 0;
}

/* Level 2 for nf fibers (nf + 1 zero positions) and room for n entries. */
static void level2_alloc(const char *op, distrt_spmat *m, int64_t nf,
                         int64_t n) {
  int64_t pb = m->pos_bits / 8;
  m->pos2 = spm_alloc(op, distrt_mul(op, "the fiber positions' bytes",
                                     nf + 1, pb));
  memset(m->pos2, 0, (size_t)((nf + 1) * pb));
  m->crd2 = spm_alloc(op, distrt_mul(op, "the coordinates' bytes", n,
                                     m->crd_bits / 8));
  m->val2 = spm_alloc(op, distrt_mul(op, "the values' bytes", n, m->esize));
  m->nnz2 = n;
}

distrt_spmat *distrt_spmat_create3(distrt_grid *g, int64_t d0, int64_t d1,
                                   int64_t d2, int64_t pos_bits,
                                   int64_t crd_bits, int64_t dtype,
                                   int64_t partition) {
  const char *op = "distrt_spmat_create3";
  distrt_grid_check(op, g);
  if (partition != DISTRT_SPMAT_ROWS && partition != DISTRT_SPMAT_NONZEROS)
    distrt_fatal_collective(op, "partition is %lld; expected "
                                "DISTRT_SPMAT_ROWS=0 or "
                                "DISTRT_SPMAT_NONZEROS=1",
                            (long long)partition);
  if (d2 < 0)
    distrt_fatal_collective(op, "negative extent: %lld x %lld x %lld",
                            (long long)d0, (long long)d1, (long long)d2);
  distrt_spmat *m =
      spm_create(op, g, d0, d1, d2, pos_bits, crd_bits, dtype, partition);
  m->order = 3;
  m->depth = d2;
  /* Level 1 holds no values (spm_csr_free frees NULL). */
  free(m->all.val);
  m->all.val = NULL;
  level2_alloc(op, m, 0, 0);
  return m;
}

int64_t distrt_spmat_order(const distrt_spmat *m) {
  spm_check("distrt_spmat_order", m);
  return m->order;
}

void distrt_spmat_fibers(distrt_spmat *m, void **pos, void **crd, void **pos2,
                         void **crd2, void **val, int64_t *nfibers,
                         int64_t *nnz) {
  const char *op = "distrt_spmat_fibers";
  spm_check(op, m);
  if (m->order != 3)
    distrt_fatal_collective(op, "the tensor is a matrix (order 2); this "
                                "call takes an order-3 tensor "
                                "(distrt_spmat_create3)");
  if (pos)
    *pos = m->all.pos;
  if (crd)
    *crd = m->all.crd;
  if (pos2)
    *pos2 = m->pos2;
  if (crd2)
    *crd2 = m->crd2;
  if (val)
    *val = m->val2;
  if (nfibers)
    *nfibers = m->all.nnz;
  if (nnz)
    *nnz = m->nnz2;
}

/*===-- entries ----------------------------------------------------------===*/

/* Whether entry e (3 words) starts a fiber: the first, or another (i, j)
 * than the entry before it. */
static int new_fiber(const int64_t *c, int64_t e) {
  return e == 0 || c[3 * e] != c[3 * e - 3] || c[3 * e + 1] != c[3 * e - 2];
}

static int64_t count_fibers(const int64_t *c, int64_t n) {
  int64_t nf = 0;
  for (int64_t e = 0; e < n; ++e)
    nf += new_fiber(c, e);
  return nf;
}

/* Fills m's CSF piece (m->first, m->nr set; old arrays freed) from n
 * entries of 3 words in row-major order, all in rows [first, first + nr). */
static void fill_csf(const char *op, distrt_spmat *m, int64_t n,
                     const int64_t *c, const double *values) {
  int64_t pb = m->pos_bits, cb = m->crd_bits;
  int64_t nf = count_fibers(c, n);
  spm_csr_alloc(op, m, &m->all, nf);
  free(m->all.val);
  m->all.val = NULL;
  level2_alloc(op, m, nf, n);
  /* Fibers per row into pos[r + 1], then the prefix sum. */
  int64_t f = -1;
  for (int64_t e = 0; e < n; ++e) {
    if (new_fiber(c, e)) {
      int64_t r = c[3 * e] - m->first + 1;
      spm_put(m->all.pos, pb, r, spm_get(m->all.pos, pb, r) + 1);
      spm_put(m->all.crd, cb, ++f, c[3 * e + 1]);
      spm_put(m->pos2, pb, f, e);
    }
    spm_put(m->crd2, cb, e, c[3 * e + 2]);
    if (m->dtype == DISTRT_F32)
      ((float *)m->val2)[e] = (float)values[e];
    else
      ((double *)m->val2)[e] = values[e];
  }
  spm_put(m->pos2, pb, nf, n);
  for (int64_t r = 0; r < m->nr; ++r)
    spm_put(m->all.pos, pb, r + 1,
            spm_get(m->all.pos, pb, r) + spm_get(m->all.pos, pb, r + 1));
}

/* The non-zero partition: moves the row-blocked entries of coo to their
 * fibers' owners and fills the piece; sets gnnz and gnnz2. */
static void assign_nonzeros(const char *op, distrt_spmat *m,
                            const distrt_coo *coo, const char *what) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, n = coo->nnz;
  const int64_t *c = coo->coords;
  /* cnt: everyone's (fibers, entries); then the entries to each rank
   * (sc), from each rank (rc), and sc, rc tripled for the coordinates. */
  int64_t *cnt = (int64_t *)spm_alloc(op, 6 * P * 8);
  int64_t *sc = cnt + 2 * P, *rc = sc + P, *sc3 = sc + 2 * P,
          *rc3 = sc + 3 * P;
  int64_t mine2[2] = {count_fibers(c, n), n};
  be->allgather(op, m->comm, mine2, cnt, 2, DISTRT_I64);
  int64_t foff = 0, F = 0, gnnz2 = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (q < m->rank)
      foff += cnt[2 * q];
    F += cnt[2 * q];
    gnnz2 += cnt[2 * q + 1];
  }
  int64_t E = (F + P - 1) / P;
  if (m->pos_bits == 32 && E > INT32_MAX)
    distrt_fatal_collective(op, "%s: %lld fibers on one process do not fit "
                                "32-bit positions (pos_bits = 32)",
                            what, (long long)E);

  /* Fiber f (numbered from foff here) goes to rank f / E. */
  memset(sc, 0, (size_t)(P * 8));
  for (int64_t e = 0, f = foff - 1; e < n; ++e) {
    f += new_fiber(c, e);
    ++sc[f / E];
  }
  be->alltoall(op, m->comm, sc, rc, 1, DISTRT_I64);
  int64_t total = 0;
  for (int64_t q = 0; q < P; ++q) {
    total += rc[q];
    distrt_check_count(op, "the coordinates to one process", 3 * sc[q]);
    sc3[q] = 3 * sc[q];
    rc3[q] = 3 * rc[q];
  }
  distrt_check_count(op, "the coordinates received", 3 * total);
  int64_t *coords = (int64_t *)spm_alloc(op, 3 * total * 8);
  double *values = (double *)spm_alloc(op, total * 8);
  be->alltoallv(op, m->comm, c, sc3, coords, rc3, DISTRT_I64);
  be->alltoallv(op, m->comm, coo->values, sc, values, rc, DISTRT_F64);
  free(cnt);

  int64_t first = total > 0 ? coords[0] : 0;
  int64_t nr = total > 0 ? coords[3 * (total - 1)] - first + 1 : 0;
  /* The largest local entry count (pos2) and row span (the ids, of the
   * crd width): do the 32-bit arrays hold them? */
  int64_t mx[2] = {total, nr};
  be->allreduce(op, m->comm, mx, 2, DISTRT_I64, DISTRT_MAX);
  if (m->pos_bits == 32 && mx[0] > INT32_MAX)
    distrt_fatal_collective(op, "%s: %lld entries on one process do not fit "
                                "32-bit positions (pos_bits = 32)",
                            what, (long long)mx[0]);
  if (m->crd_bits == 32 && mx[1] - 1 > INT32_MAX)
    distrt_fatal_collective(op, "%s: the fibers of one process span %lld "
                                "rows, whose local numbers do not fit "
                                "32-bit coordinates (crd_bits = 32)",
                            what, (long long)mx[1]);
  m->first = first;
  m->nr = nr;
  fill_csf(op, m, total, coords, values);
  free(coords);
  free(values);
  int64_t want = min64((m->rank + 1) * E, F) - min64(m->rank * E, F);
  if (m->all.nnz != want)
    distrt_fatal(op, "internal error: received %lld fibers, expected %lld "
                     "(E = %lld)",
                 (long long)m->all.nnz, (long long)want, (long long)E);
  m->gnnz = F;
  m->gnnz2 = gnnz2;
}

void spm_t3_assign(const char *op, distrt_spmat *m, const distrt_coo *coo,
                   const char *what) {
  spm_plan_drop(m);
  spm_csr_free(&m->all);
  spm_t3_free(m);
  if (m->kind == DISTRT_SPMAT_NONZEROS) {
    assign_nonzeros(op, m, coo, what);
    return;
  }
  m->first = m->lo;
  m->nr = m->B;
  fill_csf(op, m, coo->nnz, coo->coords, coo->values);
  int64_t g[2] = {m->all.nnz, m->nnz2};
  distrt_g.be->allreduce(op, m->comm, g, 2, DISTRT_I64, DISTRT_SUM);
  m->gnnz = g[0];
  m->gnnz2 = g[1];
}

/* The piece's entries as (i, j, k) words, in storage (row-major) order
 * (3 * nnz2 words, allocated here). */
static int64_t *piece_coords(const char *op, const distrt_spmat *m) {
  int64_t n = m->nnz2, pb = m->pos_bits, cb = m->crd_bits;
  distrt_check_count(op, "the coordinates of one process", 3 * n);
  int64_t *c = (int64_t *)spm_alloc(op, 3 * n * 8);
  for (int64_t r = 0, f = 0; r < m->nr; ++r)
    for (int64_t fe = spm_get(m->all.pos, pb, r + 1); f < fe; ++f)
      for (int64_t p = spm_get(m->pos2, pb, f),
                   pe = spm_get(m->pos2, pb, f + 1);
           p < pe; ++p) {
        c[3 * p] = m->first + r;
        c[3 * p + 1] = spm_get(m->all.crd, cb, f);
        c[3 * p + 2] = spm_get(m->crd2, cb, p);
      }
  return c;
}

/*===-- the dense gather -------------------------------------------------===*/

void spm_t3_gather(const char *op, distrt_spmat *m, void *dense,
                   int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, n = m->nnz2, es = m->esize;
  int64_t plane = distrt_mul(op, "the elements of the tensor", m->rows,
                             m->cols);
  int64_t elems = distrt_mul(op, "the elements of the tensor", plane,
                             m->depth);
  if (m->rank == root)
    distrt_check_buf(op, "dense", dense, elems);
  /* This process's entries: (i, j, k) and the values. */
  int64_t *mine = piece_coords(op, m);
  int64_t *sc = (int64_t *)spm_alloc(op, 4 * P * 8);
  int64_t *rc = sc + P, *sc3 = sc + 2 * P, *rc3 = sc + 3 * P;
  memset(sc, 0, (size_t)(4 * P * 8));
  sc[root] = n;
  sc3[root] = 3 * n;
  /* Only root receives: its counts from everyone, zeros elsewhere. */
  be->gather(op, m->comm, &n, rc, 1, DISTRT_I64, root);
  int64_t total = 0;
  if (m->rank == root) {
    for (int64_t q = 0; q < P; ++q) {
      total += rc[q];
      rc3[q] = 3 * rc[q];
    }
  } else {
    memset(rc, 0, (size_t)(P * 8));
  }
  distrt_check_count(op, "the coordinates gathered", 3 * total);
  int64_t *coords = (int64_t *)spm_alloc(op, 3 * total * 8);
  char *vals = (char *)spm_alloc(
      op, distrt_mul(op, "the bytes of the values gathered", total, es));
  be->alltoallv(op, m->comm, mine, sc3, coords, rc3, DISTRT_I64);
  be->alltoallv(op, m->comm, m->val2, sc, vals, rc, m->dtype);
  if (m->rank == root) {
    char *d = (char *)dense;
    if (elems > 0)
      memset(d, 0, (size_t)(elems * es));
    for (int64_t e = 0; e < total; ++e) {
      const int64_t *x = coords + 3 * e;
      memcpy(d + ((x[0] * m->cols + x[1]) * m->depth + x[2]) * es,
             vals + e * es, (size_t)es);
    }
  }
  free(coords);
  free(vals);
  free(sc);
  free(mine);
}

/*===-- the fibers' pattern ----------------------------------------------===*/

void spm_t3_check_pattern(const char *op, const distrt_spmat *a,
                          const distrt_spmat *b) {
  if (a->order != 2)
    distrt_fatal_collective(op, "the output has order %lld; the pattern of "
                                "a tensor's fibers goes into a matrix "
                                "(order 2)",
                            (long long)a->order);
  if (a->owner)
    distrt_fatal_collective(op, "the output is the companion of another "
                                "matrix (distrt_spmat_in_partition)");
  if (a->g != b->g)
    distrt_fatal_collective(op, "the output and the tensor are on different "
                                "grids");
  if (a->rows != b->rows || a->cols != b->cols)
    distrt_fatal_collective(op, "the output is %lld x %lld; the fibers of "
                                "the %lld x %lld x %lld tensor are "
                                "%lld x %lld",
                            (long long)a->rows, (long long)a->cols,
                            (long long)b->rows, (long long)b->cols,
                            (long long)b->depth, (long long)b->rows,
                            (long long)b->cols);
  if (a->kind != b->kind || a->pos_bits != b->pos_bits ||
      a->crd_bits != b->crd_bits)
    distrt_fatal_collective(
        op,
        "the output and the tensor differ in partition or index widths "
        "(%s %lld/%lld against %s %lld/%lld)",
        a->kind == DISTRT_SPMAT_NONZEROS ? "non-zeros" : "rows",
        (long long)a->pos_bits, (long long)a->crd_bits,
        b->kind == DISTRT_SPMAT_NONZEROS ? "non-zeros" : "rows",
        (long long)b->pos_bits, (long long)b->crd_bits);
  if (a->in_flight)
    distrt_fatal(op, "the output has an exchange in flight (call "
                     "distrt_spmat_exchange_end first)");
}

/*===-- the entries partition: a companion -------------------------------===*/

/* The local fiber of the piece's entry p (0 <= p < nnz2). */
static int64_t fiber_of(const distrt_spmat *m, int64_t p) {
  int64_t lo = 0, hi = m->all.nnz; /* pos2[lo] <= p < pos2[hi] */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (spm_get(m->pos2, m->pos_bits, mid) <= p)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The piece's entries as (i, j, k) words and values (as doubles, which
 * hold f32 exactly), in storage (row-major) order. */
static void piece_entries(const char *op, const distrt_spmat *m,
                          int64_t **coords, double **values) {
  int64_t n = m->nnz2;
  double *v = (double *)spm_alloc(op, n * 8);
  for (int64_t p = 0; p < n; ++p)
    v[p] = m->dtype == DISTRT_F32 ? (double)((const float *)m->val2)[p]
                                  : ((const double *)m->val2)[p];
  *coords = piece_coords(op, m);
  *values = v;
}

/* m's companion under DISTRT_SPMAT_ENTRIES (collective): entry e of the G
 * (numbered row-major over the tensor) goes to rank e / E, E = ceil(G /
 * P).  m's pieces hold whole fibers in rank order, so the P (fibers,
 * entries) counts give this process's first entry and fiber numbers; the
 * entries to each rank are a contiguous run, sent with the global number
 * of the fiber of the receiver's first entry when this process holds it
 * (one all-to-all of P pairs), then coordinates and values (two
 * all-to-all-v). */
static distrt_spmat *make_entries(const char *op, distrt_spmat *m) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, rank = m->rank, n = m->nnz2, nf = m->all.nnz;
  int64_t *cnt = (int64_t *)spm_alloc(op, 8 * P * 8);
  int64_t *sc = cnt + 2 * P, *rc = sc + 2 * P, *sn = rc + 2 * P, *rn = sn + P;
  int64_t mine[2] = {nf, n};
  be->allgather(op, m->comm, mine, cnt, 2, DISTRT_I64);
  int64_t foff = 0, off = 0, G = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (q < rank) {
      foff += cnt[2 * q];
      off += cnt[2 * q + 1];
    }
    G += cnt[2 * q + 1];
  }
  int64_t E = (G + P - 1) / P;
  if (m->pos_bits == 32 && E > INT32_MAX)
    distrt_fatal_collective(op,
                            "%lld entries on one process do not fit "
                            "32-bit positions (pos_bits = 32)",
                            (long long)E);
  /* (count, fiber of the receiver's first entry or -1) per rank. */
  for (int64_t q = 0; q < P; ++q) {
    sc[2 * q] = 0;
    sc[2 * q + 1] = -1;
  }
  if (n > 0)
    for (int64_t d = off / E; d * E < off + n; ++d) {
      int64_t lo = off > d * E ? off : d * E;
      int64_t hi = min64(off + n, (d + 1) * E);
      sc[2 * d] = hi - lo;
      if (lo == d * E)
        sc[2 * d + 1] = foff + fiber_of(m, lo - off);
    }
  be->alltoall(op, m->comm, sc, rc, 2, DISTRT_I64);
  int64_t total = 0, fiber0 = 0, moved = n - sc[2 * rank];
  for (int64_t q = 0; q < P; ++q) {
    total += rc[2 * q];
    if (rc[2 * q + 1] >= 0)
      fiber0 = rc[2 * q + 1];
    distrt_check_count(op, "the coordinates to one process", 3 * sc[2 * q]);
    sn[q] = 3 * sc[2 * q];
    rn[q] = 3 * rc[2 * q];
  }
  int64_t want = min64((rank + 1) * E, G) - min64(rank * E, G);
  if (total != want)
    distrt_fatal(op,
                 "internal error: received %lld entries, expected %lld "
                 "(E = %lld)",
                 (long long)total, (long long)want, (long long)E);
  distrt_check_count(op, "the coordinates received", 3 * total);
  int64_t *mc;
  double *mv;
  piece_entries(op, m, &mc, &mv);
  int64_t *coords = (int64_t *)spm_alloc(op, 3 * total * 8);
  double *values = (double *)spm_alloc(op, total * 8);
  be->alltoallv(op, m->comm, mc, sn, coords, rn, DISTRT_I64);
  for (int64_t q = 0; q < P; ++q) {
    sn[q] = sc[2 * q];
    rn[q] = rc[2 * q];
  }
  be->alltoallv(op, m->comm, mv, sn, values, rn, DISTRT_F64);
  free(mc);
  free(mv);
  free(cnt);

  distrt_spmat *t = spm_new(op, m->g, m->rows, m->cols, m->pos_bits,
                            m->crd_bits, m->dtype, DISTRT_SPMAT_ENTRIES);
  t->order = 3;
  t->depth = m->depth;
  spm_csr_free(&t->all);
  t->first = total > 0 ? coords[0] : 0;
  t->nr = total > 0 ? coords[3 * (total - 1)] - t->first + 1 : 0;
  int64_t mx[2] = {total, t->nr};
  be->allreduce(op, m->comm, mx, 2, DISTRT_I64, DISTRT_MAX);
  if (m->crd_bits == 32 && mx[1] - 1 > INT32_MAX)
    distrt_fatal_collective(op,
                            "the entries of one process span %lld "
                            "rows, whose local numbers do not fit "
                            "32-bit coordinates (crd_bits = 32)",
                            (long long)mx[1]);
  fill_csf(op, t, total, coords, values);
  free(coords);
  free(values);
  t->fiber0 = fiber0;
  t->gnnz = m->gnnz;
  t->gnnz2 = G;
  t->owner = m;
  be->allreduce(op, m->comm, &moved, 1, DISTRT_I64, DISTRT_SUM);
  m->moved = moved;
  const char *verbose = getenv("DISTRT_VERBOSE");
  if (rank == 0 && verbose && *verbose && strcmp(verbose, "0") != 0) {
    fprintf(stderr,
            "distrt: %s: %lld x %lld x %lld tensor, %s -> entries: moved "
            "%lld of %lld entries\n",
            op, (long long)m->rows, (long long)m->cols, (long long)m->depth,
            m->kind == DISTRT_SPMAT_ROWS ? "rows" : "fibers", (long long)moved,
            (long long)G);
    fflush(stderr);
  }
  return t;
}

distrt_spmat *spm_t3_in_partition(const char *op, distrt_spmat *m,
                                  int64_t partition) {
  if (partition == m->kind)
    return m;
  if (m->owner && partition == m->owner->kind)
    return m->owner;
  if (partition != DISTRT_SPMAT_ENTRIES)
    distrt_fatal_collective(op,
                            "an order-3 tensor stored %s is computed "
                            "in its own partition or in "
                            "DISTRT_SPMAT_ENTRIES=2, not in partition "
                            "%lld",
                            m->kind == DISTRT_SPMAT_ROWS ? "with its rows "
                                                           "blocked"
                            : m->kind == DISTRT_SPMAT_NONZEROS ? "by fibers"
                                                               : "by entries",
                            (long long)partition);
  if (!m->companion)
    m->companion = make_entries(op, m);
  return m->companion;
}

/* The fibers' partial buffer (nfibers elements, kept by m): all of it
 * zeroed, or with `foreign` (the reduction planned by fiber_runs) only
 * the fibers outside the own run. */
static void *fiber_partial(const char *op, distrt_spmat *m, int foreign) {
  spm_check(op, m);
  if (m->order != 3)
    distrt_fatal_collective(op, "the tensor is a matrix (order 2); the "
                                "partial sums of fibers are an order-3 "
                                "tensor's");
  int64_t nf = m->all.nnz, es = m->esize;
  int64_t bytes = distrt_mul(op, "the bytes of the fibers' partial sums",
                             nf > 0 ? nf : 1, es);
  if (!m->fpartial || m->fpartial_cap < bytes) {
    free(m->fpartial);
    m->fpartial = spm_alloc(op, bytes);
    m->fpartial_cap = bytes;
  }
  if (!foreign) {
    memset(m->fpartial, 0, (size_t)bytes);
    return m->fpartial;
  }
  if (!m->fred.built)
    distrt_fatal_collective(op, "call distrt_spmat_fiber_runs first (it "
                                "finds the own run)");
  int64_t a = m->fred.own_lo, b = a + m->fred.own_n;
  memset(m->fpartial, 0, (size_t)(a * es));
  memset((char *)m->fpartial + b * es, 0, (size_t)((nf - b) * es));
  return m->fpartial;
}

void *distrt_spmat_fiber_partial(distrt_spmat *m) {
  return fiber_partial("distrt_spmat_fiber_partial", m, 0);
}

void *distrt_spmat_fiber_partial_foreign(distrt_spmat *m) {
  return fiber_partial("distrt_spmat_fiber_partial_foreign", m, 1);
}

/* The checks of the fibers' reduction into y (ny elements) and the block
 * of fibers [*lo, *hi) of B each that y is. */
static void check_reduce_fibers(const char *op, distrt_spmat *m, void *y,
                                int64_t ny, int64_t *B, int64_t *lo,
                                int64_t *hi) {
  spm_check(op, m);
  if (m->order != 3 || m->kind != DISTRT_SPMAT_ENTRIES || !m->owner ||
      m->owner->kind != DISTRT_SPMAT_NONZEROS)
    distrt_fatal_collective(op, "the partial sums of fibers are reduced "
                                "from the entries partition of an order-3 "
                                "tensor stored by fibers "
                                "(distrt_spmat_in_partition(m, "
                                "DISTRT_SPMAT_ENTRIES) of a tensor "
                                "created with DISTRT_SPMAT_NONZEROS)");
  if (m->in_flight)
    distrt_fatal(op, "an exchange is in flight");
  int64_t F = m->gnnz, P = m->P;
  *B = (F + P - 1) / P;
  if (*B < 1)
    *B = 1;
  *lo = min64(m->rank * *B, F);
  *hi = min64((m->rank + 1) * *B, F);
  if (ny != *hi - *lo)
    distrt_fatal(op,
                 "y has %lld elements; this process's block of the "
                 "%lld fibers (ceil(%lld / %lld) each) has %lld",
                 (long long)ny, (long long)F, (long long)F, (long long)P,
                 (long long)(*hi - *lo));
  distrt_check_buf(op, "y", y, ny);
  distrt_reject_device(op, y, "y", "the fibers' reduction");
}

void distrt_spmat_reduce_fibers(distrt_spmat *m, const void *partial, void *y,
                                int64_t ny) {
  const char *op = "distrt_spmat_reduce_fibers";
  int64_t B, lo, hi;
  check_reduce_fibers(op, m, y, ny, &B, &lo, &hi);
  distrt_check_buf(op, "partial", partial, m->all.nnz);
  distrt_reject_device(op, partial, "partial", "the fibers' reduction");
  spm_reduce_range(op, m, &m->fred, m->fiber0, m->all.nnz, B, lo, hi, partial,
                   y);
}

void distrt_spmat_fiber_runs(distrt_spmat *m, void *y, int64_t ny,
                             int64_t *own_begin, int64_t *own_end,
                             int64_t *y_offset) {
  const char *op = "distrt_spmat_fiber_runs";
  int64_t B, lo, hi, olo, on, oy;
  check_reduce_fibers(op, m, y, ny, &B, &lo, &hi);
  spm_reduce_range_plan(op, m, &m->fred, m->fiber0, m->all.nnz, B, lo, hi, &olo,
                        &on, &oy);
  if (ny > 0)
    memset(y, 0, (size_t)(ny * m->esize));
  if (own_begin)
    *own_begin = olo;
  if (own_end)
    *own_end = olo + on;
  if (y_offset)
    *y_offset = oy;
}

void distrt_spmat_reduce_fibers_foreign(distrt_spmat *m, const void *partial,
                                        void *y, int64_t ny) {
  const char *op = "distrt_spmat_reduce_fibers_foreign";
  int64_t B, lo, hi;
  check_reduce_fibers(op, m, y, ny, &B, &lo, &hi);
  distrt_check_buf(op, "partial", partial, m->all.nnz);
  distrt_reject_device(op, partial, "partial", "the fibers' reduction");
  if (!m->fred.built)
    distrt_fatal_collective(op, "call distrt_spmat_fiber_runs first (it "
                                "plans the reduction and zeroes y)");
  spm_reduce_range_foreign(op, m, &m->fred, partial, y);
}
