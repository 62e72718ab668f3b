/*===- sparse_mixed.c - distrt sparse: the other partition --------*- C -*-===*
 *
 * SpDISTAL's mixed partitions: a program stores a distributed CSR matrix
 * (sparse_spmat_internal.h) in one partition and runs a product whose
 * schedule wants the other.  distrt_spmat_in_partition gives the matrix
 * itself or its companion: a matrix of the other partition holding the
 * same entries, made by the first call after the entries change and kept,
 * owned by the matrix, until they change again (assign, read, generate:
 * spm_mixed_drop) or the matrix is freed.
 *
 * Both partitions hold a contiguous range of the entries numbered
 * row-major, so each process's destinations are a contiguous range of
 * ranks in increasing order, and its new piece is what it receives from
 * the lower ranks, then what it keeps, then what it receives from the
 * higher ranks:
 *   - rows -> nonzeros: an all-gather of the P local counts gives this
 *     process's global offset; entry e goes to rank e / E, E = ceil(nnz /
 *     P) (as the non-zero assign);
 *   - nonzeros -> rows: this process holds entries [min(r E, nnz), ...)
 *     already; an entry of row i goes to rank i / B, B = ceil(rows / P).
 * The entries whose owner is the same process under both partitions stay
 * (copied locally); the others move in one all-to-all of P counts and one
 * all-to-all-v of (row, column, value bits) triples, 64-bit words.  pos is
 * rebuilt for the new rows by counting, then a prefix sum.  The number of
 * entries moved (global) is kept for distrt_spmat_moved_entries and
 * printed by rank 0 with DISTRT_VERBOSE.
 *
 * Nothing is sized by P beyond the counts of those collectives.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The length of the intersection of [a0, a1) and [b0, b1). */
static int64_t overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  return max64(0, min64(a1, b1) - max64(a0, b0));
}

static const char *kind_name(int64_t kind) {
  return kind == DISTRT_SPMAT_ROWS ? "rows" : "nonzeros";
}

void spm_mixed_drop(distrt_spmat *m) {
  distrt_spmat *c = m->companion;
  m->companion = NULL;
  m->moved = 0;
  if (!c)
    return;
  c->owner = NULL; /* so that distrt_spmat_free takes it */
  distrt_spmat_free(c);
}

/* The piece's local row of its entry p (0 <= p < all.nnz). */
static int64_t row_of(const distrt_spmat *m, int64_t p) {
  int64_t lo = 0, hi = m->nr; /* pos[lo] <= p < pos[hi] */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (spm_get(m->all.pos, m->pos_bits, mid) <= p)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* One entry as a triple of 64-bit words: row, column, the value's bytes. */
static void pack_one(int64_t *w, int64_t row, int64_t col, const void *val,
                     int64_t es) {
  w[0] = row;
  w[1] = col;
  w[2] = 0;
  memcpy(&w[2], val, (size_t)es);
}

/* m's entries outside [s0, s1) as triples, in order. */
static void pack(const distrt_spmat *m, int64_t s0, int64_t s1, int64_t *w) {
  const char *val = (const char *)m->all.val;
  int64_t k = 0;
  for (int64_t r = 0; r < m->nr; ++r)
    for (int64_t p = spm_get(m->all.pos, m->pos_bits, r),
                 e = spm_get(m->all.pos, m->pos_bits, r + 1);
         p < e; ++p)
      if (p < s0 || p >= s1)
        pack_one(w + 3 * k++, m->first + r,
                 spm_get(m->all.crd, m->crd_bits, p), val + p * m->esize,
                 m->esize);
}

/* Entry k of t's piece: global row `row` (in t's rows; entries come in
 * row-major order), counted in pos[row - first + 1] (the prefix sum comes
 * last). */
static void put(const char *op, distrt_spmat *t, int64_t k, int64_t row,
                int64_t col, const void *val) {
  int64_t i = row - t->first;
  if (i < 0 || i >= t->nr)
    distrt_fatal(op, "internal error: row %lld is outside the piece's rows "
                     "%lld..%lld",
                 (long long)row, (long long)t->first,
                 (long long)(t->first + t->nr - 1));
  spm_put(t->all.crd, t->crd_bits, k, col);
  memcpy((char *)t->all.val + k * t->esize, val, (size_t)t->esize);
  spm_put(t->all.pos, t->pos_bits, i + 1,
          spm_get(t->all.pos, t->pos_bits, i + 1) + 1);
}

/* t's piece from the triples received (`before` of them from lower ranks,
 * the rest from higher ones) and m's entries [s0, s1) kept. */
static void fill(const char *op, distrt_spmat *t, const distrt_spmat *m,
                 const int64_t *w, int64_t total, int64_t before, int64_t s0,
                 int64_t s1) {
  int64_t k = 0;
  for (int64_t i = 0; i < before; ++i, ++k)
    put(op, t, k, w[3 * i], w[3 * i + 1], &w[3 * i + 2]);
  const char *val = (const char *)m->all.val;
  for (int64_t r = s1 > s0 ? row_of(m, s0) : m->nr, p = s0; p < s1; ++r)
    for (int64_t e = min64(spm_get(m->all.pos, m->pos_bits, r + 1), s1);
         p < e; ++p, ++k)
      put(op, t, k, m->first + r, spm_get(m->all.crd, m->crd_bits, p),
          val + p * m->esize);
  for (int64_t i = before; i < total; ++i, ++k)
    put(op, t, k, w[3 * i], w[3 * i + 1], &w[3 * i + 2]);
  for (int64_t i = 1; i <= t->nr; ++i)
    spm_put(t->all.pos, t->pos_bits, i,
            spm_get(t->all.pos, t->pos_bits, i) +
                spm_get(t->all.pos, t->pos_bits, i - 1));
}

/* Makes m's companion (collective). */
static distrt_spmat *make_companion(const char *op, distrt_spmat *m) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = m->P, rank = m->rank, n = m->all.nnz, gnnz = m->gnnz;
  int to_nz = m->kind == DISTRT_SPMAT_ROWS;
  int64_t kind = to_nz ? DISTRT_SPMAT_NONZEROS : DISTRT_SPMAT_ROWS;
  int64_t E = (gnnz + P - 1) / P;
  /* sc: entries to each rank, rc: from each rank; sc3, rc3: words. */
  int64_t *sc = (int64_t *)spm_alloc(op, 4 * P * 8);
  int64_t *rc = sc + P, *sc3 = sc + 2 * P, *rc3 = sc + 3 * P;
  int64_t moved = 0;
  if (to_nz) {
    /* Everyone's count: this process's offset, and what each keeps. */
    be->allgather(op, m->comm, &n, sc, 1, DISTRT_I64);
    int64_t off = 0, start = 0, kept = 0;
    for (int64_t q = 0; q < P; ++q) {
      if (q < rank)
        off += sc[q];
      kept += overlap(start, start + sc[q], q * E, (q + 1) * E);
      start += sc[q];
    }
    if (start != gnnz)
      distrt_fatal(op, "internal error: %lld entries over the processes, "
                       "the matrix has %lld",
                   (long long)start, (long long)gnnz);
    moved = gnnz - kept;
    if (m->pos_bits == 32 && E > INT32_MAX)
      distrt_fatal_collective(op, "%lld entries on one process do not fit "
                                  "32-bit positions (pos_bits = 32)",
                              (long long)E);
    memset(sc, 0, (size_t)(P * 8));
    if (n > 0)
      for (int64_t d = off / E; d * E < off + n; ++d)
        sc[d] = overlap(off, off + n, d * E, (d + 1) * E);
  } else {
    memset(sc, 0, (size_t)(P * 8));
    for (int64_t r = 0; r < m->nr; ++r) {
      int64_t c = spm_get(m->all.pos, m->pos_bits, r + 1) -
                  spm_get(m->all.pos, m->pos_bits, r);
      if (c > 0)
        sc[(m->first + r) / m->B] += c;
    }
  }
  /* What stays: entries [s0, s1) of the piece; nothing is sent to self. */
  int64_t s0 = 0;
  for (int64_t q = 0; q < rank; ++q)
    s0 += sc[q];
  int64_t keep = sc[rank], s1 = s0 + keep;
  sc[rank] = 0;
  if (!to_nz) {
    moved = n - keep;
    be->allreduce(op, m->comm, &moved, 1, DISTRT_I64, DISTRT_SUM);
  }
  be->alltoall(op, m->comm, sc, rc, 1, DISTRT_I64);
  int64_t total = 0, before = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (q < rank)
      before += rc[q];
    total += rc[q];
    sc3[q] = distrt_mul(op, "the words to one process", 3, sc[q]);
    rc3[q] = distrt_mul(op, "the words from one process", 3, rc[q]);
    distrt_check_count(op, "the words to one process", sc3[q]);
    distrt_check_count(op, "the words from one process", rc3[q]);
  }
  int64_t *sw = (int64_t *)spm_alloc(
      op, distrt_mul(op, "the bytes sent", 24, n - keep));
  int64_t *rw = (int64_t *)spm_alloc(
      op, distrt_mul(op, "the bytes received", 24, total));
  pack(m, s0, s1, sw);
  be->alltoallv(op, m->comm, sw, sc3, rw, rc3, DISTRT_I64);
  free(sw);
  free(sc);

  int64_t nnew = total + keep;
  distrt_spmat *t = spm_new(op, m->g, m->rows, m->cols, m->pos_bits,
                            m->crd_bits, m->dtype, kind);
  if (to_nz) {
    int64_t want = min64((rank + 1) * E, gnnz) - min64(rank * E, gnnz);
    if (nnew != want)
      distrt_fatal(op, "internal error: %lld entries here, expected %lld "
                       "(E = %lld)",
                   (long long)nnew, (long long)want, (long long)E);
    /* The rows the new entries span: from the first entry (received from
     * a lower rank, else kept, else from a higher rank) to the last. */
    int64_t first = 0, last = -1;
    if (nnew > 0) {
      first = before > 0 ? rw[0]
              : keep > 0 ? m->first + row_of(m, s0)
                         : rw[3 * before];
      last = total > before ? rw[3 * (total - 1)]
             : keep > 0     ? m->first + row_of(m, s1 - 1)
                            : rw[3 * (before - 1)];
    }
    t->first = first;
    t->nr = last - first + 1;
    /* Local row numbers (the ids) are of the crd width. */
    if (m->crd_bits == 32 && m->rows - 1 > INT32_MAX) {
      int64_t mx = t->nr;
      be->allreduce(op, m->comm, &mx, 1, DISTRT_I64, DISTRT_MAX);
      if (mx - 1 > INT32_MAX)
        distrt_fatal_collective(op, "the entries of one process span %lld "
                                    "rows, whose local numbers do not fit "
                                    "32-bit coordinates (crd_bits = 32)",
                                (long long)mx);
    }
  } else if (m->pos_bits == 32 && gnnz > INT32_MAX) {
    int64_t mx = nnew;
    be->allreduce(op, m->comm, &mx, 1, DISTRT_I64, DISTRT_MAX);
    if (mx > INT32_MAX)
      distrt_fatal_collective(op, "%lld entries on one process do not fit "
                                  "32-bit positions (pos_bits = 32)",
                              (long long)mx);
  }
  spm_csr_free(&t->all);
  spm_csr_alloc(op, t, &t->all, nnew);
  fill(op, t, m, rw, total, before, s0, s1);
  free(rw);
  t->gnnz = gnnz;
  t->owner = m;
  m->moved = moved;

  const char *verbose = getenv("DISTRT_VERBOSE");
  if (m->rank == 0 && verbose && *verbose && strcmp(verbose, "0") != 0) {
    fprintf(stderr,
            "distrt: %s: %lld x %lld matrix, %s -> %s: moved %lld of %lld "
            "entries\n",
            op, (long long)m->rows, (long long)m->cols, kind_name(m->kind),
            kind_name(kind), (long long)moved, (long long)gnnz);
    fflush(stderr);
  }
  return t;
}

distrt_spmat *distrt_spmat_in_partition(distrt_spmat *m, int64_t partition) {
  const char *op = "distrt_spmat_in_partition";
  spm_check(op, m);
  if (m->order == 3)
    return spm_t3_in_partition(op, m, partition);
  if (partition == DISTRT_SPMAT_ENTRIES)
    distrt_fatal_collective(op, "DISTRT_SPMAT_ENTRIES=2 partitions the "
                                "entries of an order-3 tensor; a matrix's "
                                "entries are DISTRT_SPMAT_NONZEROS=1");
  if (partition != DISTRT_SPMAT_ROWS && partition != DISTRT_SPMAT_NONZEROS)
    distrt_fatal_collective(op, "unknown partition %lld (expected "
                                "DISTRT_SPMAT_ROWS=0 or "
                                "DISTRT_SPMAT_NONZEROS=1)",
                            (long long)partition);
  if (partition == m->kind)
    return m;
  if (m->owner) /* a companion: its owner is in the other partition */
    return m->owner;
  if (!m->companion)
    m->companion = make_companion(op, m);
  return m->companion;
}

int64_t distrt_spmat_moved_entries(const distrt_spmat *m) {
  spm_check("distrt_spmat_moved_entries", m);
  return m->moved;
}
