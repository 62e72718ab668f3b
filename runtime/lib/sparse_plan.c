/*===- sparse_plan.c - distrt sparse: exchange plan and product --*- C -*-===*
 *
 * The exchange plan of a distributed CSR matrix (sparse_spmat_internal.h),
 * the exchange of the dense operand's ghost rows, and the product
 * y = m * x by the runtime's own loops (under the non-zero partition into
 * the partial sums, which sparse_nonzeros.c reduces into y).
 *
 * The plan (PETSc's MPIAIJ split and VecScatter): this process holds rows
 * [xlo, xhi) of x.  Its entries split into DIAG (columns in [xlo, xhi),
 * renumbered from xlo) and OFFDIAG (the others, renumbered to their place
 * in the sorted list of distinct such columns, the ghosts).  The ghosts
 * owned by one process are contiguous in that list, so each owner's rows
 * arrive straight into their place in the ghost buffer.  To tell the
 * owners which rows to send, one all-to-all of P counts and one
 * all-to-all-v of the ghost columns: O(P) words per process beyond the
 * columns themselves.  Only the processes with a non-zero count are kept
 * (the neighbours).
 *
 * The exchange posts one non-blocking receive per receive neighbour (into
 * the ghost buffer) and one non-blocking send per send neighbour (from a
 * packed buffer) through the backend's ipermute, on the grid's internal
 * communicator with DISTRT_TAG_SPMAT; a process without neighbours does
 * nothing.  The product overlaps the DIAG rows with the exchange.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <stdlib.h>
#include <string.h>

/*===-- the plan ---------------------------------------------------------===*/

static void peers_free(spm_peers *p) {
  free(p->peer);
  memset(p, 0, sizeof *p);
}

/* The neighbours among P counts: those with counts[q] > 0, their counts
 * and their offsets in a list packed in rank order. */
static void peers_from_counts(const char *op, spm_peers *p, int64_t P,
                              const int64_t *counts) {
  int64_t n = 0;
  for (int64_t q = 0; q < P; ++q)
    n += counts[q] > 0;
  p->n = n;
  p->peer = (int64_t *)spm_alloc(op, 3 * n * 8);
  p->off = p->peer + n;
  p->cnt = p->peer + 2 * n;
  int64_t i = 0, off = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (counts[q] > 0) {
      p->peer[i] = q;
      p->off[i] = off;
      p->cnt[i++] = counts[q];
    }
    off += counts[q];
  }
}

void spm_plan_drop(distrt_spmat *m) {
  spm_dev_drop(m);
  spm_nz_drop(m);
  spm_csr_free(&m->diag);
  spm_csr_free(&m->off);
  free(m->ghost);
  free(m->off_rows);
  free(m->off_rpos);
  m->off_rows = m->off_rpos = NULL;
  m->off_nrows = 0;
  free(m->send_rows);
  free(m->reqs);
  free(m->ghost_buf);
  free(m->send_buf);
  m->ghost = m->send_rows = NULL;
  m->reqs = NULL;
  m->ghost_buf = m->send_buf = NULL;
  m->ghost_cap = m->send_cap = 0;
  m->nghost = m->nsend_rows = m->nreqs = 0;
  peers_free(&m->recv);
  peers_free(&m->send);
  m->planned = 0;
  m->shared = -1; /* new entries: distrt_spmat_share_x decides again */
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The sorted distinct OFFDIAG columns into m->ghost; returns the number of
 * OFFDIAG entries. */
static int64_t find_ghosts(const char *op, distrt_spmat *m) {
  int64_t n = m->all.nnz, noff = 0;
  for (int64_t p = 0; p < n; ++p) {
    int64_t c = spm_get(m->all.crd, m->crd_bits, p);
    noff += c < m->xlo || c >= m->xhi;
  }
  int64_t *g = (int64_t *)spm_alloc(op, noff * 8), k = 0;
  for (int64_t p = 0; p < n; ++p) {
    int64_t c = spm_get(m->all.crd, m->crd_bits, p);
    if (c < m->xlo || c >= m->xhi)
      g[k++] = c;
  }
  qsort(g, (size_t)noff, 8, cmp_i64);
  int64_t d = 0;
  for (int64_t i = 0; i < noff; ++i)
    if (d == 0 || g[i] != g[d - 1])
      g[d++] = g[i];
  m->ghost = g;
  m->nghost = d;
  return noff;
}

/* Index of column c in the sorted ghost list (c is there). */
static int64_t ghost_index(const distrt_spmat *m, int64_t c) {
  int64_t lo = 0, hi = m->nghost;
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (m->ghost[mid] <= c)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Splits m->all into m->diag and m->off (ghost numbering). */
static void split(const char *op, distrt_spmat *m, int64_t noff) {
  int64_t pb = m->pos_bits, cb = m->crd_bits, es = m->esize;
  spm_csr_alloc(op, m, &m->diag, m->all.nnz - noff);
  spm_csr_alloc(op, m, &m->off, noff);
  const char *val = (const char *)m->all.val;
  int64_t nd = 0, no = 0;
  for (int64_t r = 0; r < m->nr; ++r) {
    spm_put(m->diag.pos, pb, r, nd);
    spm_put(m->off.pos, pb, r, no);
    for (int64_t p = spm_get(m->all.pos, pb, r),
                 e = spm_get(m->all.pos, pb, r + 1);
         p < e; ++p) {
      int64_t c = spm_get(m->all.crd, cb, p);
      if (c >= m->xlo && c < m->xhi) {
        spm_put(m->diag.crd, cb, nd, c - m->xlo);
        memcpy((char *)m->diag.val + nd++ * es, val + p * es, (size_t)es);
      } else {
        spm_put(m->off.crd, cb, no, ghost_index(m, c));
        memcpy((char *)m->off.val + no++ * es, val + p * es, (size_t)es);
      }
    }
  }
  spm_put(m->diag.pos, pb, m->nr, nd);
  spm_put(m->off.pos, pb, m->nr, no);
}

/* Tells every owner which of its rows of x this process needs (one
 * all-to-all of counts, one all-to-all-v of the columns) and keeps both
 * sides' neighbours and the local rows to send. */
static void build_lists(const char *op, distrt_spmat *m) {
  int64_t P = m->P;
  int64_t *counts = (int64_t *)spm_alloc(op, 2 * P * 8);
  int64_t *rcounts = counts + P;
  memset(counts, 0, (size_t)(P * 8));
  for (int64_t i = 0; i < m->nghost; ++i)
    ++counts[m->ghost[i] / m->C]; /* ghosts exist only when C > 0 */
  distrt_g.be->alltoall(op, m->comm, counts, rcounts, 1, DISTRT_I64);
  int64_t total = 0;
  for (int64_t q = 0; q < P; ++q)
    total += rcounts[q];
  distrt_check_count(op, "the rows of x requested", total);
  m->nsend_rows = total;
  m->send_rows = (int64_t *)spm_alloc(op, total * 8);
  distrt_g.be->alltoallv(op, m->comm, m->ghost, counts, m->send_rows,
                         rcounts, DISTRT_I64);
  for (int64_t i = 0; i < total; ++i) {
    if (m->send_rows[i] < m->xlo || m->send_rows[i] >= m->xhi)
      distrt_fatal(op, "internal error: asked for row %lld of x, which "
                       "this process (rows %lld..%lld) does not hold",
                   (long long)m->send_rows[i], (long long)m->xlo,
                   (long long)m->xhi - 1);
    m->send_rows[i] -= m->xlo;
  }
  peers_from_counts(op, &m->recv, P, counts);
  peers_from_counts(op, &m->send, P, rcounts);
  free(counts);
  m->reqs = (distrt_breq **)spm_alloc(
      op, (m->recv.n + m->send.n) * (int64_t)sizeof *m->reqs);
}

/* OFFDIAG's non-empty rows and their positions (compressed rows). */
static void compress_rows(const char *op, distrt_spmat *m) {
  int64_t pb = m->pos_bits, cb = m->crd_bits, n = 0;
  for (int64_t i = 0; i < m->nr; ++i)
    n += spm_get(m->off.pos, pb, i + 1) > spm_get(m->off.pos, pb, i);
  m->off_nrows = n;
  m->off_rows = spm_alloc(op, (n > 0 ? n : 1) * (cb / 8));
  m->off_rpos = spm_alloc(op, (n + 1) * (pb / 8));
  int64_t r = 0;
  for (int64_t i = 0; i < m->nr; ++i) {
    int64_t p = spm_get(m->off.pos, pb, i), q = spm_get(m->off.pos, pb, i + 1);
    if (q > p) {
      spm_put(m->off_rows, cb, r, i);
      spm_put(m->off_rpos, pb, r, p);
      ++r;
    }
  }
  spm_put(m->off_rpos, pb, n, m->off.nnz);
}

void spm_plan_build(const char *op, distrt_spmat *m) {
  if (m->planned)
    return;
  int64_t noff = find_ghosts(op, m);
  split(op, m, noff);
  compress_rows(op, m);
  build_lists(op, m);
  m->planned = 1;
}

void distrt_spmat_offdiag_rows(distrt_spmat *m, void **rows, void **pos,
                               int64_t *nrows) {
  const char *op = "distrt_spmat_offdiag_rows";
  spm_check_matrix(op, m);
  if (!m->planned)
    distrt_fatal_collective(op, "the OFFDIAG rows need the plan (call "
                                "distrt_spmat_plan first)");
  if (rows)
    *rows = m->off_rows;
  if (pos)
    *pos = m->off_rpos;
  if (nrows)
    *nrows = m->off_nrows;
}

void distrt_spmat_plan(distrt_spmat *m) {
  const char *op = "distrt_spmat_plan";
  spm_check_matrix(op, m);
  spm_plan_build(op, m);
}

/*===-- the exchange -----------------------------------------------------===*/

/* Grows *buf to at least n bytes (contents not kept). */
static void *reserve(const char *op, void **buf, int64_t *cap, int64_t n) {
  if (!*buf || *cap < n) {
    free(*buf);
    *buf = spm_alloc(op, n);
    *cap = n > 0 ? n : 1;
  }
  return *buf;
}

/* send[i] = x[rows[i]] for rows of `row` bytes.  The common widths (one
 * f64 or f32, as SpMV sends) copy with a constant size, which compiles to a
 * load and a store: a memcpy call of a variable 8 bytes per ghost cost more
 * than the rest of the packing. */
static void pack_rows(char *send, const char *x, const int64_t *rows,
                      int64_t n, int64_t row) {
  if (row == 8)
    for (int64_t i = 0; i < n; ++i)
      memcpy(send + i * 8, x + rows[i] * 8, 8);
  else if (row == 4)
    for (int64_t i = 0; i < n; ++i)
      memcpy(send + i * 4, x + rows[i] * 4, 4);
  else
    for (int64_t i = 0; i < n; ++i)
      memcpy(send + i * row, x + rows[i] * row, (size_t)row);
}

void *spm_begin(const char *op, distrt_spmat *m, const void *x, int64_t k) {
  if (!m->planned)
    distrt_fatal(op, "the exchange needs the plan (call distrt_spmat_plan "
                     "first)");
  if (m->in_flight)
    distrt_fatal(op, "an exchange is already in flight (call "
                     "distrt_spmat_exchange_end first)");
  if (k < 1)
    distrt_fatal(op, "k is %lld; expected >= 1", (long long)k);
  int64_t es = m->esize;
  int64_t row = distrt_mul(op, "the bytes of a row of x", k, es);
  distrt_check_buf(op, "x", x, (m->xhi - m->xlo) * k);
  char *ghost = (char *)reserve(
      op, &m->ghost_buf, &m->ghost_cap,
      distrt_mul(op, "the bytes of the ghost rows", m->nghost, row));
  char *send = (char *)reserve(
      op, &m->send_buf, &m->send_cap,
      distrt_mul(op, "the bytes of the rows to send", m->nsend_rows, row));
  const struct distrt_backend *be = distrt_g.be;
  int64_t nr = 0;
  for (int64_t i = 0; i < m->recv.n; ++i) {
    int64_t n = m->recv.cnt[i] * k;
    distrt_check_count(op, "the elements from one process", n);
    m->reqs[nr++] =
        be->ipermute(op, m->comm, NULL, 0, -1, ghost + m->recv.off[i] * row,
                     n, m->recv.peer[i], m->dtype, DISTRT_TAG_SPMAT);
  }
  distrt_profile_enter(DISTRT_PROF_PACK);
  pack_rows(send, (const char *)x, m->send_rows, m->nsend_rows, row);
  distrt_profile_leave();
  for (int64_t i = 0; i < m->send.n; ++i) {
    int64_t n = m->send.cnt[i] * k;
    distrt_check_count(op, "the elements to one process", n);
    m->reqs[nr++] =
        be->ipermute(op, m->comm, send + m->send.off[i] * row, n,
                     m->send.peer[i], NULL, 0, -1, m->dtype, DISTRT_TAG_SPMAT);
  }
  m->nreqs = nr;
  m->in_flight = 1;
  return ghost;
}

void spm_end(const char *op, distrt_spmat *m) {
  if (!m->in_flight)
    distrt_fatal(op, "no exchange is in flight (call "
                     "distrt_spmat_exchange_begin first)");
  for (int64_t i = 0; i < m->nreqs; ++i)
    distrt_g.be->wait(op, m->reqs[i]);
  m->nreqs = 0;
  m->in_flight = 0;
}

void *distrt_spmat_exchange_begin(distrt_spmat *m, const void *x, int64_t k) {
  const char *op = "distrt_spmat_exchange_begin";
  spm_check_matrix(op, m);
  return spm_begin(op, m, x, k);
}

void distrt_spmat_exchange_end(distrt_spmat *m) {
  const char *op = "distrt_spmat_exchange_end";
  spm_check_matrix(op, m);
  spm_end(op, m);
}

/*===-- the product ------------------------------------------------------===*/

/* y (n rows of k) = or += a * x, for one combination of the position,
 * coordinate and value types. */
typedef void (*spmm_fn)(int64_t n, const void *pos, const void *crd,
                        const void *val, const void *x, void *y, int64_t k,
                        int accumulate);

#define SPMM_KERNEL(NAME, PT, CT, VT)                                          \
  static void NAME(int64_t n, const void *pos_, const void *crd_,             \
                   const void *val_, const void *x_, void *y_, int64_t k,     \
                   int accumulate) {                                          \
    const PT *pos = (const PT *)pos_;                                          \
    const CT *crd = (const CT *)crd_;                                          \
    const VT *val = (const VT *)val_, *x = (const VT *)x_;                     \
    VT *y = (VT *)y_;                                                          \
    if (k == 1) {                                                              \
      for (int64_t i = 0; i < n; ++i) {                                        \
        VT s = accumulate ? y[i] : (VT)0;                                      \
        for (int64_t p = (int64_t)pos[i]; p < (int64_t)pos[i + 1]; ++p)        \
          s += val[p] * x[crd[p]];                                             \
        y[i] = s;                                                              \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; ++i) {                                          \
      VT *yi = y + i * k;                                                      \
      if (!accumulate)                                                         \
        for (int64_t j = 0; j < k; ++j)                                        \
          yi[j] = (VT)0;                                                       \
      for (int64_t p = (int64_t)pos[i]; p < (int64_t)pos[i + 1]; ++p) {        \
        const VT a = val[p], *xr = x + (int64_t)crd[p] * k;                    \
        for (int64_t j = 0; j < k; ++j)                                        \
          yi[j] += a * xr[j];                                                  \
      }                                                                        \
    }                                                                          \
  }

SPMM_KERNEL(spmm_p32_c32_f32, int32_t, int32_t, float)
SPMM_KERNEL(spmm_p32_c64_f32, int32_t, int64_t, float)
SPMM_KERNEL(spmm_p64_c32_f32, int64_t, int32_t, float)
SPMM_KERNEL(spmm_p64_c64_f32, int64_t, int64_t, float)
SPMM_KERNEL(spmm_p32_c32_f64, int32_t, int32_t, double)
SPMM_KERNEL(spmm_p32_c64_f64, int32_t, int64_t, double)
SPMM_KERNEL(spmm_p64_c32_f64, int64_t, int32_t, double)
SPMM_KERNEL(spmm_p64_c64_f64, int64_t, int64_t, double)

static spmm_fn kernel_for(const distrt_spmat *m) {
  /* [f64][pos 64][crd 64] */
  static const spmm_fn table[2][2][2] = {
      {{spmm_p32_c32_f32, spmm_p32_c64_f32},
       {spmm_p64_c32_f32, spmm_p64_c64_f32}},
      {{spmm_p32_c32_f64, spmm_p32_c64_f64},
       {spmm_p64_c32_f64, spmm_p64_c64_f64}}};
  return table[m->dtype == DISTRT_F64][m->pos_bits == 64][m->crd_bits == 64];
}

void spm_spmm(const distrt_spmat *m, const spm_csr *a, const void *x, void *y,
              int64_t k, int accumulate) {
  kernel_for(m)(m->nr, a->pos, a->crd, a->val, x, y, k, accumulate);
}

void distrt_spmat_mul(distrt_spmat *m, const void *x, void *y, int64_t k) {
  const char *op = "distrt_spmat_mul";
  spm_check_matrix(op, m);
  distrt_reject_device(op, x, "x", "the sparse product");
  distrt_reject_device(op, y, "y", "the sparse product");
  if (k < 1)
    distrt_fatal(op, "k is %lld; expected >= 1", (long long)k);
  int64_t ny = distrt_mul(op, "the elements of y", m->B, k);
  distrt_check_buf(op, "y", y, ny);
  spm_plan_build(op, m);
  /* The non-zero partition multiplies into the partial sums of its rows,
   * then adds them into y. */
  int nz = m->kind == DISTRT_SPMAT_NONZEROS;
  void *out = nz ? spm_partial(op, m, k, 0) : y;
  const void *ghost = spm_begin(op, m, x, k);
  spmm_fn f = kernel_for(m);
  f(m->nr, m->diag.pos, m->diag.crd, m->diag.val, x, out, k, 0);
  spm_end(op, m);
  if (m->off.nnz > 0)
    f(m->nr, m->off.pos, m->off.crd, m->off.val, ghost, out, k, 1);
  if (nz) {
    if (ny > 0)
      memset(y, 0, (size_t)(ny * m->esize));
    spm_reduce_rows(op, m, out, y, k, 0);
  }
}
