/*===- sparse_nonzeros.c - distrt sparse: the non-zero partition --*- C -*-===*
 *
 * SpDISTAL's non-zero partition ("coordinate fusion") of a distributed CSR
 * matrix (sparse_spmat_internal.h; distrt_spmat_create_nonzeros): the
 * entries, numbered in row-major order over the whole matrix, are cut in
 * blocks of E = ceil(gnnz / P), and each process stores CSR over the rows
 * its block lies in, [first, first + nr).  Neighbouring processes may
 * share a row.
 *
 *   - Entries: the readers and generators give the row-blocked COO; an
 *     all-gather of the P local counts gives this process's global offset
 *     (the exclusive prefix sum) and gnnz; entry e goes to rank e / E, so a
 *     process's destinations are a contiguous range of ranks; one
 *     all-to-all of P counts and two all-to-all-v (coordinates, values)
 *     move them.  Received in sender order, they stay row-major.
 *   - The partial sums: a product over the piece gives nr rows of partial
 *     sums (distrt_spmat_partial), which distrt_spmat_reduce_rows adds into
 *     the output blocked by rows (B = ceil(rows / P)).  The rows of another
 *     block go to its owner (the owners of a piece's rows are a contiguous
 *     range too, derived arithmetically); one all-to-all of (first row,
 *     count) pairs, once per matrix entries, tells every owner what it
 *     receives.  The rows then travel point to point (the backend's
 *     ipermute, tag DISTRT_TAG_SPMAT_SUM) straight from the partial buffer
 *     (a destination's rows are contiguous in it); the owner adds its own
 *     rows first, then each sender's in increasing rank, so the sums do not
 *     depend on the arrival order.
 *   - Own rows straight into the output: the rows of the piece in this
 *     process's output block are a contiguous range of its local rows, so
 *     a product may write them into y directly (distrt_spmat_row_targets
 *     maps each row, or each OFFDIAG compressed row, to its row of y or of
 *     the partial sums); only the others go through the partial sums
 *     (distrt_spmat_partial_foreign zeroes just those) and
 *     distrt_spmat_reduce_foreign sends them without adding the own ones.
 *   - The dense gather sends root the entries, not dense panels, so a
 *     process's memory stays proportional to its piece.
 *
 * Nothing is sized by P beyond the counts of those collectives.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <stdlib.h>
#include <string.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/*===-- entries ----------------------------------------------------------===*/

void spm_nz_assign(const char *op, distrt_spmat *m, const distrt_coo *coo,
                   const char *what) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, n = coo->nnz;
  /* counts: everyone's local count, then (reused) the entries to each rank
   * (sc), from each rank (rc), and sc, rc doubled for the coordinates. */
  int64_t *sc = (int64_t *)spm_alloc(op, 4 * P * 8);
  int64_t *rc = sc + P, *sc2 = sc + 2 * P, *rc2 = sc + 3 * P;
  be->allgather(op, m->comm, &n, sc, 1, DISTRT_I64);
  int64_t off = 0, gnnz = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (q < m->rank)
      off += sc[q];
    gnnz += sc[q];
  }
  int64_t E = (gnnz + P - 1) / P;
  if (m->pos_bits == 32 && E > INT32_MAX)
    distrt_fatal_collective(op, "%s: %lld entries on one process do not fit "
                                "32-bit positions (pos_bits = 32)",
                            what, (long long)E);

  /* Entries [off, off + n) go to ranks off / E .. (off + n - 1) / E. */
  memset(sc, 0, (size_t)(P * 8));
  if (n > 0)
    for (int64_t d = off / E; d * E < off + n; ++d)
      sc[d] = min64(off + n, (d + 1) * E) - max64(off, d * E);
  be->alltoall(op, m->comm, sc, rc, 1, DISTRT_I64);
  int64_t total = 0;
  for (int64_t q = 0; q < P; ++q) {
    total += rc[q];
    distrt_check_count(op, "the coordinates to one process", 2 * sc[q]);
    sc2[q] = 2 * sc[q];
    rc2[q] = 2 * rc[q];
  }
  int64_t mine = min64((m->rank + 1) * E, gnnz) - min64(m->rank * E, gnnz);
  if (total != mine)
    distrt_fatal(op, "internal error: received %lld entries, expected %lld "
                     "(E = %lld)",
                 (long long)total, (long long)mine, (long long)E);
  distrt_check_count(op, "the coordinates received", 2 * total);
  int64_t *coords = (int64_t *)spm_alloc(op, 2 * total * 8);
  double *values = (double *)spm_alloc(op, total * 8);
  be->alltoallv(op, m->comm, coo->coords, sc2, coords, rc2, DISTRT_I64);
  be->alltoallv(op, m->comm, coo->values, sc, values, rc, DISTRT_F64);
  free(sc);

  int64_t first = total > 0 ? coords[0] : 0;
  int64_t nr = total > 0 ? coords[2 * (total - 1)] - first + 1 : 0;
  /* Local row numbers (the ids) are of the crd width. */
  if (m->crd_bits == 32 && m->rows - 1 > INT32_MAX) {
    int64_t mx = nr;
    be->allreduce(op, m->comm, &mx, 1, DISTRT_I64, DISTRT_MAX);
    if (mx - 1 > INT32_MAX)
      distrt_fatal_collective(op, "%s: the entries of one process span %lld "
                                  "rows, whose local numbers do not fit "
                                  "32-bit coordinates (crd_bits = 32)",
                              what, (long long)mx);
  }
  spm_plan_drop(m);
  spm_csr_free(&m->all);
  m->first = first;
  m->nr = nr;
  spm_fill_csr(op, m, total, coords, values);
  m->gnnz = gnnz;
  free(coords);
  free(values);
}

/*===-- views and the partial sums ---------------------------------------===*/

static void rlist_free(spm_rlist *l) {
  free(l->peer);
  memset(l, 0, sizeof *l);
}

void spm_nz_drop(distrt_spmat *m) {
  free(m->ids);
  m->ids = NULL;
  free(m->tgt);
  free(m->tgt_off);
  m->tgt = m->tgt_off = NULL;
  free(m->partial);
  m->partial = NULL;
  m->partial_cap = 0;
  spm_reduce_free(&m->red);
  free(m->fpartial);
  m->fpartial = NULL;
  m->fpartial_cap = 0;
  spm_reduce_free(&m->fred);
}

void distrt_spmat_local_rows(distrt_spmat *m, void **ids, int64_t *first,
                             int64_t *nrows) {
  const char *op = "distrt_spmat_local_rows";
  spm_check(op, m);
  if (ids) {
    if (!m->ids) {
      m->ids = spm_alloc(op, (m->nr > 0 ? m->nr : 1) * (m->crd_bits / 8));
      for (int64_t i = 0; i < m->nr; ++i)
        spm_put(m->ids, m->crd_bits, i, i);
    }
    *ids = m->ids;
  }
  if (first)
    *first = m->first;
  if (nrows)
    *nrows = m->nr;
}

/* The piece's local rows in this process's output block: [*a, *b), the
 * rows whose global number lies in [lo, hi) (0 <= *a <= *b <= nr). */
static void own_rows(const distrt_spmat *m, int64_t *a, int64_t *b) {
  *a = min64(max64(m->lo - m->first, 0), m->nr);
  *b = max64(*a, min64(max64(m->hi - m->first, 0), m->nr));
}

void *spm_partial(const char *op, distrt_spmat *m, int64_t k, int foreign) {
  if (k < 1)
    distrt_fatal_collective(op, "k is %lld; expected >= 1", (long long)k);
  int64_t bytes = distrt_mul(
      op, "the bytes of the partial sums",
      distrt_mul(op, "the elements of the partial sums", m->nr, k), m->esize);
  if (!m->partial || m->partial_cap < bytes) {
    free(m->partial);
    m->partial = spm_alloc(op, bytes);
    m->partial_cap = bytes;
  }
  if (!foreign) {
    memset(m->partial, 0, (size_t)bytes);
    return m->partial;
  }
  /* Only the rows before and after the own ones. */
  int64_t a, b, row = k * m->esize;
  own_rows(m, &a, &b);
  memset(m->partial, 0, (size_t)(a * row));
  memset((char *)m->partial + b * row, 0, (size_t)((m->nr - b) * row));
  return m->partial;
}

void *distrt_spmat_partial(distrt_spmat *m, int64_t k) {
  const char *op = "distrt_spmat_partial";
  spm_check(op, m);
  return spm_partial(op, m, k, 0);
}

void *distrt_spmat_partial_foreign(distrt_spmat *m, int64_t k) {
  const char *op = "distrt_spmat_partial_foreign";
  spm_check_matrix(op, m);
  return spm_partial(op, m, k, 1);
}

/* The targets of n rows with local numbers rows[i] (crd width; NULL: the
 * local rows 0 .. n - 1) into a new array of the crd width; own[0..2) gets
 * the range of those in [a, b), the own rows. */
static void *make_targets(const char *op, const distrt_spmat *m,
                          const void *rows, int64_t n, int64_t *own) {
  int64_t cb = m->crd_bits, a, b;
  own_rows(m, &a, &b);
  void *t = spm_alloc(op, (n > 0 ? n : 1) * (cb / 8));
  own[0] = own[1] = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = rows ? spm_get(rows, cb, i) : i;
    int64_t v = r >= a && r < b ? m->first + r - m->lo : r;
    if (cb == 32 && v > INT32_MAX)
      distrt_fatal(op, "the target row %lld does not fit 32-bit "
                       "coordinates (crd_bits = 32)",
                   (long long)v);
    spm_put(t, cb, i, v);
    own[0] += r < a;
    own[1] += r < b;
  }
  return t;
}

void distrt_spmat_row_targets(distrt_spmat *m, int64_t part, void **targets,
                              int64_t *own_begin, int64_t *own_end,
                              int64_t *count) {
  const char *op = "distrt_spmat_row_targets";
  spm_check_matrix(op, m);
  void *t;
  const int64_t *own;
  int64_t n;
  if (part == DISTRT_SPMAT_ALL || part == DISTRT_SPMAT_DIAG) {
    if (!m->tgt)
      m->tgt = make_targets(op, m, NULL, m->nr, m->tgt_own);
    t = m->tgt;
    own = m->tgt_own;
    n = m->nr;
  } else if (part == DISTRT_SPMAT_OFFDIAG) {
    if (!m->planned)
      distrt_fatal_collective(op, "the OFFDIAG part needs the plan (call "
                                  "distrt_spmat_plan first)");
    if (!m->tgt_off)
      m->tgt_off =
          make_targets(op, m, m->off_rows, m->off_nrows, m->tgt_off_own);
    t = m->tgt_off;
    own = m->tgt_off_own;
    n = m->off_nrows;
  } else {
    distrt_fatal_collective(op, "unknown part %lld (expected "
                                "DISTRT_SPMAT_ALL=0, DISTRT_SPMAT_DIAG=1 or "
                                "DISTRT_SPMAT_OFFDIAG=2)",
                            (long long)part);
  }
  if (targets)
    *targets = t;
  if (own_begin)
    *own_begin = own[0];
  if (own_end)
    *own_end = own[1];
  if (count)
    *count = n;
}

/*===-- the reduction ----------------------------------------------------===*/

/* The entries with a non-zero count of n (start, count) pairs: their
 * ranks, starts less `base`, counts, and offsets in a list packed in rank
 * order. */
static void rlist_from_pairs(const char *op, spm_rlist *l, int64_t P,
                             const int64_t *pairs, int64_t base) {
  int64_t n = 0;
  for (int64_t q = 0; q < P; ++q)
    n += pairs[2 * q + 1] > 0;
  l->n = n;
  l->peer = (int64_t *)spm_alloc(op, 4 * n * 8);
  l->row = l->peer + n;
  l->cnt = l->peer + 2 * n;
  l->off = l->peer + 3 * n;
  int64_t i = 0, off = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (pairs[2 * q + 1] <= 0)
      continue;
    l->peer[i] = q;
    l->row[i] = pairs[2 * q] - base;
    l->cnt[i] = pairs[2 * q + 1];
    l->off[i++] = off;
    off += pairs[2 * q + 1];
  }
}

/* Works out who sends which rows of the partial sums to whom (collective;
 * once per matrix entries): this process holds the partial sums of rows
 * [first, first + n); the output is blocked in B rows, this process's
 * block is [lo, hi). */
static void reduce_plan(const char *op, const distrt_spmat *m, spm_reduce *r,
                        int64_t first, int64_t n, int64_t B, int64_t lo,
                        int64_t hi) {
  if (r->built)
    return;
  int64_t P = m->P, end = first + n;
  /* This process's rows in its own block. */
  int64_t a = max64(first, lo), b = min64(end, hi);
  r->own_n = n > 0 && a < b ? b - a : 0;
  r->own_lo = r->own_n ? a - first : 0;
  r->own_y = r->own_n ? a - lo : 0;
  /* The owners of rows [first, end) are first / B .. (end - 1) / B. */
  int64_t *s = (int64_t *)spm_alloc(op, 4 * P * 8), *rv = s + 2 * P;
  memset(s, 0, (size_t)(2 * P * 8));
  for (int64_t d = n > 0 ? first / B : P; d < P && d * B < end; ++d) {
    int64_t dlo = max64(first, d * B), dhi = min64(end, (d + 1) * B);
    if (d != m->rank && dlo < dhi) {
      s[2 * d] = dlo;
      s[2 * d + 1] = dhi - dlo;
    }
  }
  distrt_g.be->alltoall(op, m->comm, s, rv, 2, DISTRT_I64);
  for (int64_t q = 0; q < P; ++q)
    if (rv[2 * q + 1] > 0 && (rv[2 * q] < lo || rv[2 * q] + rv[2 * q + 1] > hi))
      distrt_fatal(op,
                   "internal error: rank %lld sends rows %lld..%lld, "
                   "outside this process's block %lld..%lld",
                   (long long)q, (long long)rv[2 * q],
                   (long long)(rv[2 * q] + rv[2 * q + 1] - 1), (long long)lo,
                   (long long)hi - 1);
  rlist_from_pairs(op, &r->send, P, s, first);
  rlist_from_pairs(op, &r->recv, P, rv, lo);
  free(s);
  r->nrecv_rows = 0;
  for (int64_t i = 0; i < r->recv.n; ++i)
    r->nrecv_rows += r->recv.cnt[i];
  r->reqs = (distrt_breq **)spm_alloc(
      op, (r->send.n + r->recv.n) * (int64_t)sizeof *r->reqs);
  r->built = 1;
}

/* y[0 .. n) += x[0 .. n) at dtype. */
static void add_to(int64_t dtype, void *y_, const void *x_, int64_t n) {
  if (dtype == DISTRT_F32) {
    float *y = (float *)y_;
    const float *x = (const float *)x_;
    for (int64_t i = 0; i < n; ++i)
      y[i] += x[i];
  } else {
    double *y = (double *)y_;
    const double *x = (const double *)x_;
    for (int64_t i = 0; i < n; ++i)
      y[i] += x[i];
  }
}

/* What reduce_run does with partial's rows of this process's block. */
enum { OWN_ADD, OWN_SKIP, OWN_COPY };

/* Runs the reduction planned in r (reduce_plan): y += (OWN_ADD) or y =
 * (OWN_COPY) partial's rows of this process's block (OWN_SKIP: neither),
 * then y += each sender's rows in increasing rank. */
static void reduce_run(const char *op, const distrt_spmat *m, spm_reduce *r,
                       const void *partial, void *y, int64_t k, int own) {
  int64_t row = distrt_mul(op, "the bytes of a row of y", k, m->esize);
  int64_t bytes = distrt_mul(op, "the bytes of the rows received",
                             r->nrecv_rows, row);
  if (!r->buf || r->cap < bytes) {
    free(r->buf);
    r->buf = spm_alloc(op, bytes);
    r->cap = bytes;
  }
  const struct distrt_backend *be = distrt_g.be;
  char *buf = (char *)r->buf;
  const char *part = (const char *)partial;
  for (int64_t i = 0; i < r->recv.n; ++i) {
    int64_t n = r->recv.cnt[i] * k;
    distrt_check_count(op, "the elements from one process", n);
    r->reqs[i] =
        be->ipermute(op, m->comm, NULL, 0, -1, buf + r->recv.off[i] * row, n,
                     r->recv.peer[i], m->dtype, DISTRT_TAG_SPMAT_SUM);
  }
  for (int64_t i = 0; i < r->send.n; ++i) {
    int64_t n = r->send.cnt[i] * k;
    distrt_check_count(op, "the elements to one process", n);
    r->reqs[r->recv.n + i] = be->ipermute(
        op, m->comm, part + r->send.row[i] * row, n, r->send.peer[i], NULL, 0,
        -1, m->dtype, DISTRT_TAG_SPMAT_SUM);
  }
  /* Own rows first, then each sender's in increasing rank. */
  char *out = (char *)y;
  if (r->own_n > 0 && own == OWN_ADD)
    add_to(m->dtype, out + r->own_y * row, part + r->own_lo * row,
           r->own_n * k);
  else if (r->own_n > 0 && own == OWN_COPY)
    memcpy(out + r->own_y * row, part + r->own_lo * row,
           (size_t)(r->own_n * row));
  for (int64_t i = 0; i < r->recv.n; ++i) {
    be->wait(op, r->reqs[i]);
    add_to(m->dtype, out + r->recv.row[i] * row, buf + r->recv.off[i] * row,
           r->recv.cnt[i] * k);
  }
  for (int64_t i = 0; i < r->send.n; ++i)
    be->wait(op, r->reqs[r->recv.n + i]);
}

void spm_reduce_rows(const char *op, distrt_spmat *m, const void *partial,
                     void *y, int64_t k, int foreign) {
  if (k < 1)
    distrt_fatal_collective(op, "k is %lld; expected >= 1", (long long)k);
  if (m->in_flight)
    distrt_fatal(op, "an exchange is in flight (call "
                     "distrt_spmat_exchange_end first)");
  distrt_check_buf(op, "partial", partial,
                   distrt_mul(op, "the elements of partial", m->nr, k));
  distrt_check_buf(op, "y", y, distrt_mul(op, "the elements of y", m->B, k));
  distrt_reject_device(op, partial, "partial", "the row reduction");
  distrt_reject_device(op, y, "y", "the row reduction");
  if (m->kind == DISTRT_SPMAT_ROWS) {
    if (!foreign) /* the piece is the block: no row is foreign */
      add_to(m->dtype, y, partial, m->nr * k);
    return;
  }
  reduce_plan(op, m, &m->red, m->first, m->nr, m->B, m->lo, m->hi);
  reduce_run(op, m, &m->red, partial, y, k, foreign ? OWN_SKIP : OWN_ADD);
}

void spm_reduce_range_plan(const char *op, const distrt_spmat *m, spm_reduce *r,
                           int64_t first, int64_t n, int64_t B, int64_t lo,
                           int64_t hi, int64_t *own_lo, int64_t *own_n,
                           int64_t *own_y) {
  reduce_plan(op, m, r, first, n, B, lo, hi);
  *own_lo = r->own_lo;
  *own_n = r->own_n;
  *own_y = r->own_y;
}

void spm_reduce_range_foreign(const char *op, const distrt_spmat *m,
                              spm_reduce *r, const void *partial, void *y) {
  if (!r->built)
    distrt_fatal(op, "internal error: the reduction is not planned");
  reduce_run(op, m, r, partial, y, 1, OWN_SKIP);
}

void spm_reduce_range(const char *op, const distrt_spmat *m, spm_reduce *r,
                      int64_t first, int64_t n, int64_t B, int64_t lo,
                      int64_t hi, const void *partial, void *y) {
  reduce_plan(op, m, r, first, n, B, lo, hi);
  /* y = the own rows, zeros around them, then the others' added. */
  char *out = (char *)y;
  int64_t es = m->esize, ny = hi - lo;
  if (r->own_n == 0) {
    if (ny > 0)
      memset(out, 0, (size_t)(ny * es));
  } else {
    memset(out, 0, (size_t)(r->own_y * es));
    memset(out + (r->own_y + r->own_n) * es, 0,
           (size_t)((ny - r->own_y - r->own_n) * es));
  }
  reduce_run(op, m, r, partial, y, 1, OWN_COPY);
}

void spm_reduce_free(spm_reduce *r) {
  rlist_free(&r->send);
  rlist_free(&r->recv);
  free(r->buf);
  free(r->reqs);
  memset(r, 0, sizeof *r);
}

void distrt_spmat_reduce_rows(distrt_spmat *m, const void *partial, void *y,
                              int64_t k) {
  const char *op = "distrt_spmat_reduce_rows";
  spm_check(op, m);
  spm_reduce_rows(op, m, partial, y, k, 0);
}

void distrt_spmat_reduce_foreign(distrt_spmat *m, const void *partial,
                                 void *y, int64_t k) {
  const char *op = "distrt_spmat_reduce_foreign";
  spm_check_matrix(op, m);
  spm_reduce_rows(op, m, partial, y, k, 1);
}

/*===-- the dense gather -------------------------------------------------===*/

void spm_nz_gather(const char *op, distrt_spmat *m, void *dense,
                   int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, n = m->all.nnz, es = m->esize;
  /* This process's entries: (global row, column) pairs and the values. */
  distrt_check_count(op, "the coordinates of one process", 2 * n);
  int64_t *mine = (int64_t *)spm_alloc(op, 2 * n * 8);
  for (int64_t r = 0, p = 0; r < m->nr; ++r)
    for (int64_t e = spm_get(m->all.pos, m->pos_bits, r + 1); p < e; ++p) {
      mine[2 * p] = m->first + r;
      mine[2 * p + 1] = spm_get(m->all.crd, m->crd_bits, p);
    }
  int64_t *sc = (int64_t *)spm_alloc(op, 4 * P * 8);
  int64_t *rc = sc + P, *sc2 = sc + 2 * P, *rc2 = sc + 3 * P;
  memset(sc, 0, (size_t)(4 * P * 8));
  sc[root] = n;
  sc2[root] = 2 * n;
  /* Only root receives: its counts from everyone, zeros elsewhere. */
  be->gather(op, m->comm, &n, rc, 1, DISTRT_I64, root);
  int64_t total = 0;
  if (m->rank == root) {
    for (int64_t q = 0; q < P; ++q) {
      total += rc[q];
      rc2[q] = 2 * rc[q];
    }
  } else {
    memset(rc, 0, (size_t)(P * 8));
  }
  distrt_check_count(op, "the coordinates gathered", 2 * total);
  int64_t *coords = (int64_t *)spm_alloc(op, 2 * total * 8);
  char *vals = (char *)spm_alloc(
      op, distrt_mul(op, "the bytes of the values gathered", total, es));
  be->alltoallv(op, m->comm, mine, sc2, coords, rc2, DISTRT_I64);
  be->alltoallv(op, m->comm, m->all.val, sc, vals, rc, m->dtype);
  if (m->rank == root) {
    char *d = (char *)dense;
    if (m->rows * m->cols > 0)
      memset(d, 0, (size_t)(m->rows * m->cols * es));
    for (int64_t e = 0; e < total; ++e)
      memcpy(d + (coords[2 * e] * m->cols + coords[2 * e + 1]) * es,
             vals + e * es, (size_t)es);
  }
  free(coords);
  free(vals);
  free(sc);
  free(mine);
}
