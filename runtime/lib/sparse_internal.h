/*===- sparse_internal.h - distrt internals: sparse file readers --*- C -*-===*
 *
 * Not installed.  What the sparse readers (sparse_mm.c, sparse_tns.c,
 * sparse_hb.c) and generators (sparse_gen.c) share: the error state and its
 * collective agreement, the reading of one process's byte range of a text
 * file as whole lines, and the exchange of entries to their row owners
 * (sparse_coo.c, sparse_text.c).
 *
 * Entries travel as records of W = order + 2 int64 words:
 *   [0, order)   0-based coordinates
 *   order        the value's bits (a double, memcpy'd)
 *   order + 1    the file line the entry came from (for error messages;
 *                the draw number for the generators)
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_SPARSE_INTERNAL_H
#define DISTRT_SPARSE_INTERNAL_H

#include "distrt/sparse.h"
#include "internal.h"

#include <stdint.h>
#include <stdio.h>

/* One reader call: where to report and whom to talk to. */
typedef struct sp_ctx {
  const char *op;   /* public function name, for distrt_fatal */
  const char *path; /* the file, as the caller named it */
  distrt_bcomm *comm;
  int64_t size, rank;
  /* The first error this process found (lowest line). */
  int failed;
  int64_t line; /* file line, 1-based; 0: not about one line */
  char msg[768];
} sp_ctx;

/* Resolves the communicator (g, or the whole job when g is NULL). */
DISTRT_HIDDEN void sp_begin(sp_ctx *c, const char *op, const char *path,
                            distrt_grid *g, distrt_coo *coo);
/* Records an error at `line` unless one at a lower line is recorded. */
DISTRT_HIDDEN void sp_fail(sp_ctx *c, int64_t line, const char *fmt, ...)
    DISTRT_PRINTF(3, 4);
/* Collective: if any process failed, the one whose error comes first in
 * the file (lowest line, then lowest rank) reports it and the job ends. */
DISTRT_HIDDEN void sp_agree(sp_ctx *c);

/* malloc(n), or a fatal error (which ends every process: no hang). */
DISTRT_HIDDEN void *sp_alloc(sp_ctx *c, int64_t n);

/* "(3, 4)" (1-based, as in the file) into buf. */
DISTRT_HIDDEN const char *sp_coord_str(char *buf, size_t n, int64_t order,
                                       const int64_t *zero_based);

/* Growable record array of stride w int64 words. */
typedef struct sp_recs {
  int64_t w, n, cap;
  int64_t *a;
} sp_recs;
/* Appends one record (coords 0-based). */
DISTRT_HIDDEN void sp_push(sp_ctx *c, sp_recs *r, const int64_t *coords,
                          double value, int64_t line);

/* Collective: sends every record to the owner of its dimension-0 index
 * (blocks of ceil(dims[0] / P)), sorts, rejects duplicates (agreeing on
 * the first), and fills `coo`.  Frees r->a. */
DISTRT_HIDDEN void sp_distribute(sp_ctx *c, int64_t order,
                                 const int64_t *dims, sp_recs *r,
                                 distrt_coo *coo);
/* The same, but duplicate coordinates are kept once (the record with the
 * lowest line word wins) instead of rejected: for the generators
 * (sparse_gen.c), whose random draws may repeat a coordinate. */
DISTRT_HIDDEN void sp_distribute_merge(sp_ctx *c, int64_t order,
                                       const int64_t *dims, sp_recs *r,
                                       distrt_coo *coo);

/* This process's lines of a text file: those whose first byte lies in its
 * share [data_off + len * r / P, data_off + len * (r + 1) / P) of the bytes
 * after data_off.  Each line is NUL-terminated in place (its '\n' is
 * replaced; a '\r' before it stays, as a blank). */
typedef struct sp_text {
  char *buf;
  int64_t len;    /* bytes of buf used */
  int64_t nlines; /* lines in buf */
  int64_t pos;    /* iteration cursor */
} sp_text;
/* Reads the range (errors recorded in c; buf may stay NULL). */
DISTRT_HIDDEN void sp_text_read(sp_ctx *c, FILE *f, int64_t data_off,
                                sp_text *t);
/* Next line, or NULL at the end. */
DISTRT_HIDDEN char *sp_text_next(sp_text *t);

/* Collective: the number of lines before this process's first line
 * (counting the `head_lines` before the data), and the number of entries
 * before its first (from `mine`).  Either pointer may be NULL. */
DISTRT_HIDDEN void sp_prefix(sp_ctx *c, int64_t head_lines, int64_t nlines,
                             int64_t mine, int64_t *lines_before,
                             int64_t *entries_before, int64_t *total_entries);

/* Token parsing on a NUL-terminated line.  Each skips blanks, parses one
 * token at *p and advances; returns 0 on success, 1 at the end of the line,
 * -1 when the token does not parse (its text in tok). */
DISTRT_HIDDEN int sp_next_token(char **p, char *tok, size_t n);
DISTRT_HIDDEN int sp_parse_int(const char *tok, int64_t *v);
DISTRT_HIDDEN int sp_parse_real(const char *tok, double *v);

#endif /* DISTRT_SPARSE_INTERNAL_H */
