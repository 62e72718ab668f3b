/*===- sparse_coo.c - distrt sparse files: errors, exchange, sort -*- C -*-===*
 *
 * The part of the sparse readers that does not depend on the file format
 * (sparse_internal.h): the error state every reader fills in and the
 * collective agreement on it, and the exchange that sends each entry to the
 * process owning its row, sorts, and rejects duplicate coordinates (or, for
 * the generators, keeps each once: sp_distribute_merge).
 *
 * Errors are agreed on, never reported alone: a process that found one (in
 * its byte range, say) keeps going to the next agreement point, where an
 * all-reduce (MIN of line * P + rank) picks the error first in the file.
 * That process prints the one fatal line and aborts the job; the others
 * wait for the abort.  So an error in one rank's range neither hangs the
 * others in a later collective nor prints P lines.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===-- errors -----------------------------------------------------------===*/

void sp_begin(sp_ctx *c, const char *op, const char *path, distrt_grid *g,
              distrt_coo *coo) {
  memset(c, 0, sizeof *c);
  c->op = op;
  c->path = path;
  if (g) {
    distrt_grid_check(op, g);
    /* The grid's internal communicator: user messages never use it. */
    c->comm = g->icomm;
    c->size = g->size;
    c->rank = g->rank;
  } else {
    distrt_require_init(op);
    /* No grid: every process of the current communicator takes part. */
    c->comm = distrt_current_comm();
    c->size = distrt_g.be->comm_size(c->comm);
    c->rank = distrt_g.be->comm_rank(c->comm);
  }
  if (!path || !*path)
    distrt_fatal(op, "the file path is NULL or empty");
  if (!coo)
    distrt_fatal(op, "the result (coo) is NULL");
  memset(coo, 0, sizeof *coo);
}

void sp_fail(sp_ctx *c, int64_t line, const char *fmt, ...) {
  /* Keep the error first in the file: a later phase may find an error on
   * an earlier line (a duplicate of an entry further on, say). */
  if (c->failed && c->line <= line)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  va_end(ap);
  c->failed = 1;
  c->line = line;
}

void sp_agree(sp_ctx *c) {
  int64_t key[1] = {INT64_MAX};
  if (c->failed)
    key[0] = c->line * c->size + c->rank;
  distrt_g.be->allreduce(c->op, c->comm, key, 1, DISTRT_I64, DISTRT_MIN);
  if (key[0] == INT64_MAX)
    return;
  int64_t who = key[0] % c->size;
  if (who == c->rank) {
    if (c->line > 0)
      distrt_fatal(c->op, "%s:%lld: %s", c->path, (long long)c->line, c->msg);
    distrt_fatal(c->op, "%s: %s", c->path, c->msg);
  }
  /* Rank `who` is aborting the job; should that take unusually long, say
   * so here too rather than return into the caller. */
  struct timespec ts = {10, 0};
  nanosleep(&ts, NULL);
  distrt_fatal(c->op, "%s: rank %lld found an error in the file (see its "
               "message)",
               c->path, (long long)who);
}

/* Out of memory ends the job at once: MPI_Abort also ends the processes
 * waiting in a collective, so this cannot hang. */
void *sp_alloc(sp_ctx *c, int64_t n) {
  void *p = malloc(n > 0 ? (size_t)n : 1);
  if (!p)
    distrt_fatal(c->op, "%s: out of memory (%lld bytes)", c->path,
                 (long long)n);
  return p;
}

const char *sp_coord_str(char *buf, size_t n, int64_t order,
                         const int64_t *zero_based) {
  size_t len = (size_t)snprintf(buf, n, "(");
  for (int64_t d = 0; d < order && len < n; ++d)
    len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? ", " : "",
                            (long long)(zero_based[d] + 1));
  if (len < n)
    snprintf(buf + len, n - len, ")");
  return buf;
}

void sp_push(sp_ctx *c, sp_recs *r, const int64_t *coords, double value,
            int64_t line) {
  if (r->n == r->cap) {
    int64_t cap = r->cap ? 2 * r->cap : 1024;
    int64_t *a = (int64_t *)realloc(r->a, (size_t)(cap * r->w) * 8);
    if (!a)
      distrt_fatal(c->op, "%s: out of memory for %lld entries", c->path,
                   (long long)cap);
    r->a = a;
    r->cap = cap;
  }
  int64_t *e = r->a + r->n * r->w, order = r->w - 2;
  memcpy(e, coords, (size_t)order * 8);
  memcpy(e + order, &value, 8);
  e[order + 1] = line;
  ++r->n;
}

/*===-- sort -------------------------------------------------------------===*/

/* Coordinates, then the line: equal coordinates end up adjacent with the
 * earlier line first, which the duplicate message names. */
static int rec_less(const int64_t *a, const int64_t *b, int64_t order) {
  for (int64_t d = 0; d < order; ++d)
    if (a[d] != b[d])
      return a[d] < b[d];
  return a[order + 1] < b[order + 1];
}

/* Bottom-up merge sort of n records of w words (stable, O(n log n) even on
 * the sorted or reversed runs files usually hold).  Returns the buffer
 * holding the result: a or tmp. */
static int64_t *sort_recs(int64_t *a, int64_t *tmp, int64_t n, int64_t w) {
  int64_t order = w - 2;
  size_t rb = (size_t)w * 8;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n;
      int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (rec_less(a + j * w, a + i * w, order))
          memcpy(tmp + (k++) * w, a + (j++) * w, rb);
        else
          memcpy(tmp + (k++) * w, a + (i++) * w, rb);
      }
      if (i < mid)
        memcpy(tmp + k * w, a + i * w, (size_t)(mid - i) * rb);
      if (j < hi)
        memcpy(tmp + (k + mid - i) * w, a + j * w, (size_t)(hi - j) * rb);
    }
    int64_t *s = a;
    a = tmp;
    tmp = s;
  }
  return a;
}

/* The same order as sort_recs, for records whose rows all lie in [lo, hi):
 * a counting sort by row into tmp, then sort_recs within each row.  About
 * log2(entries per row) passes instead of log2(n): the generators' draws
 * (sp_distribute_merge), millions of short rows.  Returns a or tmp. */
static int64_t *sort_by_row(sp_ctx *c, int64_t *a, int64_t *tmp, int64_t n,
                            int64_t w, int64_t lo, int64_t hi) {
  int64_t nrows = hi - lo;
  int64_t *start = (int64_t *)sp_alloc(c, (nrows + 1) * 8);
  for (int64_t i = 0; i <= nrows; ++i)
    start[i] = 0;
  for (int64_t k = 0; k < n; ++k)
    ++start[a[k * w] - lo + 1];
  for (int64_t i = 0; i < nrows; ++i)
    start[i + 1] += start[i];
  for (int64_t k = 0; k < n; ++k) /* stable: keeps the order within a row */
    memcpy(tmp + (start[a[k * w] - lo]++) * w, a + k * w, (size_t)w * 8);
  /* start[i] is now the end of row i. */
  for (int64_t i = 0, s = 0; i < nrows; s = start[i++]) {
    int64_t cnt = start[i] - s;
    if (cnt < 2)
      continue;
    int64_t *res = sort_recs(tmp + s * w, a + s * w, cnt, w);
    if (res != tmp + s * w)
      memcpy(tmp + s * w, res, (size_t)(cnt * w) * 8);
  }
  free(start);
  return tmp;
}

/*===-- exchange ---------------------------------------------------------===*/

/* Sends r's records to their owners (blocks of `block` rows); returns the
 * received ones, *nrecv of them.  Frees r->a. */
static int64_t *exchange(sp_ctx *c, int64_t block, sp_recs *r,
                         int64_t *nrecv) {
  int64_t P = c->size, w = r->w;
  int64_t *scounts = (int64_t *)sp_alloc(c, 3 * P * 8);
  int64_t *rcounts = scounts + P, *next = scounts + 2 * P;
  for (int64_t q = 0; q < P; ++q)
    scounts[q] = 0;
  for (int64_t k = 0; k < r->n; ++k)
    ++scounts[r->a[k * w] / block];
  /* Send buffer ordered by destination (a counting sort). */
  int64_t off = 0;
  for (int64_t q = 0; q < P; ++q) {
    next[q] = off;
    off += scounts[q];
  }
  int64_t *send = (int64_t *)sp_alloc(c, r->n * w * 8);
  for (int64_t k = 0; k < r->n; ++k)
    memcpy(send + (next[r->a[k * w] / block]++) * w, r->a + k * w,
           (size_t)w * 8);
  free(r->a);
  r->a = NULL;
  for (int64_t q = 0; q < P; ++q)
    scounts[q] *= w;
  distrt_g.be->alltoall(c->op, c->comm, scounts, rcounts, 1, DISTRT_I64);
  int64_t total = 0;
  for (int64_t q = 0; q < P; ++q)
    total += rcounts[q];
  distrt_check_count(c->op, "the entries received", total);
  int64_t *recv = (int64_t *)sp_alloc(c, total * 8);
  distrt_g.be->alltoallv(c->op, c->comm, send, scounts, recv, rcounts,
                         DISTRT_I64);
  free(send);
  free(scounts);
  *nrecv = total / w;
  return recv;
}

/* merge = 0: duplicates are errors (the readers); merge = 1: each run of
 * equal coordinates is kept once, its first record (lowest line) wins (the
 * generators, sparse_gen.c). */
static void distribute(sp_ctx *c, int64_t order, const int64_t *dims,
                       sp_recs *r, distrt_coo *coo, int merge) {
  int64_t rows = dims[0], P = c->size, w = order + 2;
  int64_t block = rows > 0 ? distrt_ceil_div(rows, P) : 1;
  int64_t n = 0;
  int64_t *recv = exchange(c, block, r, &n);

  /* Sort, then find duplicates: adjacent after the sort, the earlier line
   * first.  The message names the later line (the one to delete). */
  int64_t *tmp = (int64_t *)sp_alloc(c, n * w * 8);
  int64_t *sorted =
      merge ? sort_by_row(c, recv, tmp, n, w,
                          distrt_block_start(c->rank, block, rows),
                          distrt_block_start(c->rank + 1, block, rows))
            : sort_recs(recv, tmp, n, w);
  if (merge && n > 0) {
    int64_t m = 1;
    for (int64_t k = 1; k < n; ++k)
      if (memcmp(sorted + (m - 1) * w, sorted + k * w, (size_t)order * 8)) {
        if (m != k)
          memcpy(sorted + m * w, sorted + k * w, (size_t)w * 8);
        ++m;
      }
    n = m;
  }
  for (int64_t k = 1; k < n && !merge; ++k) {
    const int64_t *a = sorted + (k - 1) * w, *b = sorted + k * w;
    if (memcmp(a, b, (size_t)order * 8) != 0 ||
        (c->failed && c->line <= b[order + 1]))
      continue;
    char cs[256];
    sp_fail(c, b[order + 1], "duplicate entry %s (also at line %lld)",
            sp_coord_str(cs, sizeof cs, order, b), (long long)a[order + 1]);
  }
  sp_agree(c);
  int64_t *coords = (int64_t *)sp_alloc(c, n * order * 8);
  double *values = (double *)sp_alloc(c, n * 8);

  for (int64_t k = 0; k < n; ++k) {
    memcpy(coords + k * order, sorted + k * w, (size_t)order * 8);
    memcpy(values + k, sorted + k * w + order, 8);
  }
  free(recv);
  free(tmp);
  coo->order = order;
  for (int64_t d = 0; d < order; ++d)
    coo->dims[d] = dims[d];
  coo->nnz = n;
  coo->coords = coords;
  coo->values = values;
  coo->lo = distrt_block_start(c->rank, block, rows);
  coo->hi = distrt_block_start(c->rank + 1, block, rows);
}

void sp_distribute(sp_ctx *c, int64_t order, const int64_t *dims, sp_recs *r,
                   distrt_coo *coo) {
  distribute(c, order, dims, r, coo, 0);
}

void sp_distribute_merge(sp_ctx *c, int64_t order, const int64_t *dims,
                         sp_recs *r, distrt_coo *coo) {
  distribute(c, order, dims, r, coo, 1);
}

void distrt_coo_free(distrt_coo *coo) {
  if (!coo)
    return;
  free(coo->coords);
  free(coo->values);
  memset(coo, 0, sizeof *coo);
}
