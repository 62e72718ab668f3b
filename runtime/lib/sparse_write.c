/*===- sparse_write.c - distrt sparse: write .mtx and .tns files --*- C -*-===*
 *
 * distrt_spmat_write_mm (distrt/sparse.h): a distributed CSR matrix to a
 * MatrixMarket "coordinate real general" file, and distrt_spmat_write_tns:
 * an order-3 tensor to a FROSTT file (a "#" line with the extents, then
 * "i j k v" lines), in parallel, the way distrt_layout_store (io.c) writes
 * a dense tensor file:
 *
 *   1. every process formats its own entries into a memory buffer ("i j v\n",
 *      1-based, row-major; %.17g for f64, %.9g for f32, which read back
 *      exactly) and the processes all-gather the byte counts: the exclusive
 *      prefix sum is each process's offset after the header, the sum the
 *      data size.  The text depends only on the entries, so the file does
 *      not depend on the number of processes;
 *   2. grid rank 0 creates PATH.partial (truncating a stale one), writes
 *      the banner and the size line (rows, cols, global nnz) and sets the
 *      full size; the processes agree on errors;
 *   3. every process with bytes to write opens PATH.partial and pwrites
 *      its buffer at header + offset; the processes agree on errors;
 *   4. rank 0 renames PATH.partial to PATH; the processes agree.
 *
 * Memory is one process's text (and P byte counts), never the file.
 *
 * Errors (cannot create or open the file, a failed or short write, close,
 * rename) are agreed like the readers' (sp_agree: the lowest failing rank
 * prints one line "distrt_spmat_write_mm: PATH: CAUSE" and the job ends);
 * once rank 0 has created PATH.partial it removes it first, so a failure
 * leaves neither a partial nor a complete-looking file behind (PATH itself
 * is only ever created by the final rename).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest entry line: two 19-digit indices, a "%.17g" value (at most 24
 * characters: "-1.2345678901234567e-308"), two blanks and '\n'. */
#define SPW_LINE_MAX 96

/* Growable text buffer. */
typedef struct {
  char *buf;
  int64_t len, cap;
} spw_text;

static void spw_reserve(sp_ctx *c, spw_text *t, int64_t more) {
  if (t->len + more <= t->cap)
    return;
  int64_t cap = t->cap ? t->cap : 4096;
  while (cap < t->len + more)
    cap *= 2;
  char *b = (char *)realloc(t->buf, (size_t)cap);
  if (!b)
    distrt_fatal(c->op, "%s: out of memory (%lld bytes of text)", c->path,
                 (long long)cap);
  t->buf = b;
  t->cap = cap;
}

/* This process's entries as MatrixMarket entry lines (its piece's rows:
 * under the non-zero partition a row split between processes is written
 * by each for its own entries, in rank order, so row-major all the same). */
static void format_rows(sp_ctx *c, const distrt_spmat *m, spw_text *t) {
  int64_t n = m->all.nnz;
  /* A typical line is well under 48 bytes; grow when needed. */
  if (n > 0)
    spw_reserve(c, t, n < INT64_MAX / 48 ? n * 48 : INT64_MAX / 2);
  for (int64_t r = 0; r < m->nr; ++r) {
    long long row = (long long)(m->first + r + 1);
    for (int64_t p = spm_get(m->all.pos, m->pos_bits, r),
                 e = spm_get(m->all.pos, m->pos_bits, r + 1);
         p < e; ++p) {
      spw_reserve(c, t, SPW_LINE_MAX);
      long long col = (long long)(spm_get(m->all.crd, m->crd_bits, p) + 1);
      int w;
      if (m->dtype == DISTRT_F32)
        w = snprintf(t->buf + t->len, SPW_LINE_MAX, "%lld %lld %.9g\n", row,
                     col, (double)((const float *)m->all.val)[p]);
      else
        w = snprintf(t->buf + t->len, SPW_LINE_MAX, "%lld %lld %.17g\n", row,
                     col, ((const double *)m->all.val)[p]);
      if (w < 0 || w >= SPW_LINE_MAX)
        distrt_fatal(c->op, "%s: cannot format entry (%lld, %lld)", c->path,
                     row, col);
      t->len += w;
    }
  }
}

/* This process's entries of an order-3 tensor as FROSTT lines ("i j k
 * v\n", 1-based; its fibers in row-major order, each fiber's entries by
 * k). */
static void format_fibers(sp_ctx *c, const distrt_spmat *m, spw_text *t) {
  if (m->nnz2 > 0)
    spw_reserve(c, t, m->nnz2 < INT64_MAX / 56 ? m->nnz2 * 56 : INT64_MAX / 2);
  for (int64_t r = 0; r < m->nr; ++r) {
    long long row = (long long)(m->first + r + 1);
    for (int64_t f = spm_get(m->all.pos, m->pos_bits, r),
                 fe = spm_get(m->all.pos, m->pos_bits, r + 1);
         f < fe; ++f) {
      long long col = (long long)(spm_get(m->all.crd, m->crd_bits, f) + 1);
      for (int64_t p = spm_get(m->pos2, m->pos_bits, f),
                   e = spm_get(m->pos2, m->pos_bits, f + 1);
           p < e; ++p) {
        spw_reserve(c, t, SPW_LINE_MAX + 24);
        long long k = (long long)(spm_get(m->crd2, m->crd_bits, p) + 1);
        int w;
        if (m->dtype == DISTRT_F32)
          w = snprintf(t->buf + t->len, SPW_LINE_MAX + 24,
                       "%lld %lld %lld %.9g\n", row, col, k,
                       (double)((const float *)m->val2)[p]);
        else
          w = snprintf(t->buf + t->len, SPW_LINE_MAX + 24,
                       "%lld %lld %lld %.17g\n", row, col, k,
                       ((const double *)m->val2)[p]);
        if (w < 0 || w >= SPW_LINE_MAX + 24)
          distrt_fatal(c->op, "%s: cannot format entry (%lld, %lld, %lld)",
                       c->path, row, col, k);
        t->len += w;
      }
    }
  }
}

/* Full pwrite; 0 on success, else the error is recorded in c. */
static int write_at(sp_ctx *c, int fd, const char *file, const char *buf,
                    int64_t n, int64_t off) {
  while (n > 0) {
    ssize_t w = pwrite(fd, buf, (size_t)n, (off_t)off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      sp_fail(c, 0, "write error in %s at byte %lld: %s", file,
              (long long)off, w < 0 ? strerror(errno) : "no progress");
      return -1;
    }
    buf += w;
    off += w;
    n -= w;
  }
  return 0;
}

/* Collective: if any process failed, rank 0 first removes the partial
 * file it created (when `created`), then the first failing process
 * reports and the job ends (sp_agree's all-reduce orders the removal
 * before the report). */
static void agree(sp_ctx *c, const char *partial, int created) {
  int64_t any[1] = {c->failed};
  distrt_g.be->allreduce(c->op, c->comm, any, 1, DISTRT_I64, DISTRT_MAX);
  if (!any[0])
    return;
  if (c->rank == 0 && created)
    (void)unlink(partial);
  sp_agree(c);
}

/* Steps 1-4 above for m's entries as text (format_rows or
 * format_fibers) after header `head`. */
static void write_text(const char *op, distrt_spmat *m, const char *path,
                       const char *head, int hl,
                       void (*format)(sp_ctx *, const distrt_spmat *,
                                      spw_text *)) {
  if (!path || !*path)
    distrt_fatal_collective(op, "the file path is NULL or empty");
  sp_ctx c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.path = path;
  c.comm = m->comm;
  c.size = m->P;
  c.rank = m->rank;

  size_t plen = strlen(path);
  char *partial = (char *)sp_alloc(&c, (int64_t)(plen + sizeof ".partial"));
  memcpy(partial, path, plen);
  memcpy(partial + plen, ".partial", sizeof ".partial");

  /* 1. the text of this process's rows; offsets by prefix sum. */
  spw_text t = {NULL, 0, 0};
  format(&c, m, &t);
  int64_t *lens = (int64_t *)sp_alloc(&c, m->P * 8);
  distrt_g.be->allgather(op, m->comm, &t.len, lens, 1, DISTRT_I64);
  int64_t before = 0, total = 0;
  for (int64_t q = 0; q < m->P; ++q) {
    if (q < m->rank)
      before += lens[q];
    total += lens[q];
  }
  free(lens);

  /* 2. rank 0 creates the partial file: header, full size. */
  int fd = -1, created = 0;
  if (m->rank == 0) {
    fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      sp_fail(&c, 0, "cannot create %s: %s", partial, strerror(errno));
    } else {
      created = 1;
      if (write_at(&c, fd, partial, head, hl, 0) == 0 &&
          ftruncate(fd, (off_t)(hl + total)) != 0)
        sp_fail(&c, 0, "cannot extend %s to %lld bytes: %s", partial,
                (long long)(hl + total), strerror(errno));
    }
  }
  agree(&c, partial, created);

  /* 3. every process writes its text at its offset. */
  if (fd < 0 && t.len > 0) {
    fd = open(partial, O_WRONLY);
    if (fd < 0)
      sp_fail(&c, 0, "cannot open %s for writing: %s", partial,
              strerror(errno));
  }
  if (fd >= 0 && t.len > 0)
    (void)write_at(&c, fd, partial, t.buf, t.len, hl + before);
  if (fd >= 0 && close(fd) != 0)
    sp_fail(&c, 0, "error closing %s: %s", partial, strerror(errno));
  free(t.buf);
  agree(&c, partial, created);

  /* 4. rank 0 publishes the complete file. */
  if (m->rank == 0 && rename(partial, path) != 0)
    sp_fail(&c, 0, "cannot rename %s to %s: %s", partial, path,
            strerror(errno));
  agree(&c, partial, created);
  free(partial);
}

void distrt_spmat_write_mm(distrt_spmat *m, const char *path) {
  const char *op = "distrt_spmat_write_mm";
  spm_check_matrix(op, m);
  char head[160];
  int hl = snprintf(head, sizeof head,
                    "%%%%MatrixMarket matrix coordinate real general\n"
                    "%lld %lld %lld\n",
                    (long long)m->rows, (long long)m->cols,
                    (long long)m->gnnz);
  write_text(op, m, path, head, hl, format_rows);
}

void distrt_spmat_write_tns(distrt_spmat *m, const char *path) {
  const char *op = "distrt_spmat_write_tns";
  spm_check(op, m);
  if (m->order != 3)
    distrt_fatal_collective(op, "the tensor has order %lld; this call "
                                "writes tensors of order 3 (matrices: "
                                "distrt_spmat_write_mm)",
                            (long long)m->order);
  char head[160];
  int hl = snprintf(head, sizeof head,
                    "# FROSTT tensor %lld x %lld x %lld, %lld entries "
                    "(distrt_spmat_write_tns)\n",
                    (long long)m->rows, (long long)m->cols,
                    (long long)m->depth, (long long)m->gnnz2);
  write_text(op, m, path, head, hl, format_fibers);
}
