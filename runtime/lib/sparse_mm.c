/*===- sparse_mm.c - distrt sparse files: MatrixMarket -----------*- C -*-===*
 *
 * distrt_coo_read_mm.  Every process reads the header itself (it is short,
 * and every process needs it), then parses only its own byte range of the
 * data lines (sparse_text.c); one all-gather of the line and entry counts
 * gives each process the file line numbers of its lines and, for `array`
 * files, the index of its first value.  The entries then go to their row
 * owners with one all-to-all-v (sparse_coo.c).
 *
 * Supported: `matrix coordinate|array`, field `real|integer|pattern`
 * (pattern only with coordinate, as the format defines), symmetry
 * `general|symmetric`.  A symmetric file stores the lower triangle (row >=
 * column); an entry above the diagonal is an error, and every off-diagonal
 * entry is mirrored.  Banner words are case-insensitive, as in the
 * MatrixMarket specification.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MM_REAL, MM_INTEGER, MM_PATTERN };

typedef struct {
  int array;     /* `array` (dense, column-major) rather than `coordinate` */
  int field;     /* MM_REAL .. */
  int symmetric; /* lower triangle stored, mirrored on reading */
  int64_t rows, cols, nnz; /* nnz: entries the file holds (array: derived) */
  int64_t size_line;       /* line number of the size line */
  int64_t head_lines;      /* lines up to and including the size line */
  int64_t data_off;        /* byte offset of the first data line */
} mm_header;

#define TOK 128

/* The banner: %%MatrixMarket matrix <format> <field> <symmetry>. */
static void parse_banner(sp_ctx *c, char *line, mm_header *h) {
  char w[5][TOK];
  char *p = line;
  int n = 0;
  while (n < 5 && sp_next_token(&p, w[n], TOK) == 0)
    ++n;
  if (n == 0 || strcasecmp(w[0], "%%MatrixMarket") != 0) {
    sp_fail(c, 1, "not a MatrixMarket file: the first line does not start "
                  "with %%%%MatrixMarket");
    return;
  }
  if (n < 5) {
    sp_fail(c, 1, "incomplete banner: expected '%%%%MatrixMarket matrix "
                  "<format> <field> <symmetry>'");
    return;
  }
  if (strcasecmp(w[1], "matrix") != 0) {
    sp_fail(c, 1, "unsupported object '%s' (supported: matrix)", w[1]);
    return;
  }
  if (strcasecmp(w[2], "coordinate") == 0)
    h->array = 0;
  else if (strcasecmp(w[2], "array") == 0)
    h->array = 1;
  else {
    sp_fail(c, 1, "unsupported format '%s' (supported: coordinate, array)",
            w[2]);
    return;
  }
  if (strcasecmp(w[3], "real") == 0)
    h->field = MM_REAL;
  else if (strcasecmp(w[3], "integer") == 0)
    h->field = MM_INTEGER;
  else if (strcasecmp(w[3], "pattern") == 0 && !h->array)
    h->field = MM_PATTERN;
  else {
    sp_fail(c, 1, "unsupported field '%s' (supported: real, integer%s)", w[3],
            h->array ? "" : ", pattern");
    return;
  }
  if (strcasecmp(w[4], "general") == 0)
    h->symmetric = 0;
  else if (strcasecmp(w[4], "symmetric") == 0)
    h->symmetric = 1;
  else {
    sp_fail(c, 1, "unsupported symmetry '%s' (supported: general, symmetric)",
            w[4]);
    return;
  }
  if (sp_next_token(&p, w[0], TOK) != 1)
    sp_fail(c, 1, "unexpected '%s' after the banner", w[0]);
}

/* The size line: "rows cols nnz" (coordinate) or "rows cols" (array). */
static void parse_size(sp_ctx *c, char *line, int64_t ln, mm_header *h) {
  int want = h->array ? 2 : 3;
  int64_t v[3] = {0, 0, 0};
  char tok[TOK];
  char *p = line;
  for (int i = 0; i < want; ++i) {
    int rc = sp_next_token(&p, tok, TOK);
    if (rc != 0 || sp_parse_int(tok, &v[i]) != 0 || v[i] < 0) {
      sp_fail(c, ln, "bad size line: expected '%s'",
              h->array ? "rows columns" : "rows columns entries");
      return;
    }
  }
  if (sp_next_token(&p, tok, TOK) != 1) {
    sp_fail(c, ln, "bad size line: unexpected '%s' after the %s", tok,
            h->array ? "two extents" : "extents and the entry count");
    return;
  }
  h->rows = v[0];
  h->cols = v[1];
  h->nnz = v[2];
  h->size_line = ln;
  if (h->symmetric && h->rows != h->cols) {
    sp_fail(c, ln, "a symmetric matrix must be square, not %lld x %lld",
            (long long)h->rows, (long long)h->cols);
    return;
  }
  if (h->array) { /* every element, or the lower triangle */
    if (h->symmetric)
      h->nnz = distrt_mul(c->op, "the number of entries", h->rows,
                          h->rows + 1) / 2;
    else
      h->nnz = distrt_mul(c->op, "the number of entries", h->rows, h->cols);
  }
}

/* Banner, comments, size line; sets the data offset. */
static void read_header(sp_ctx *c, FILE *f, mm_header *h) {
  char *line = NULL;
  size_t cap = 0;
  int64_t ln = 0;
  for (;;) {
    errno = 0;
    ssize_t len = getline(&line, &cap, f);
    if (len < 0) {
      if (errno != 0)
        sp_fail(c, 0, "read error: %s", strerror(errno));
      else if (ln == 0)
        sp_fail(c, 0, "the file is empty (no MatrixMarket banner)");
      else
        sp_fail(c, ln + 1, "unexpected end of file: no size line");
      break;
    }
    ++ln;
    if (len > 0 && line[len - 1] == '\n')
      line[len - 1] = '\0';
    if (ln == 1) {
      parse_banner(c, line, h);
      if (c->failed)
        break;
      continue;
    }
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r')
      ++p;
    if (*p == '%' || *p == '\0') /* a comment or a blank line */
      continue;
    parse_size(c, line, ln, h);
    h->head_lines = ln;
    h->data_off = (int64_t)ftello(f);
    break;
  }
  free(line);
}

/* One coordinate line: row, column, value (no value in pattern files). */
static void parse_entry(sp_ctx *c, char *line, int64_t ln,
                        const mm_header *h, sp_recs *r) {
  static const char *what[3] = {"row index", "column index", "value"};
  int fields = h->field == MM_PATTERN ? 2 : 3;
  int64_t ij[2] = {0, 0};
  double v = 1.0;
  char tok[TOK];
  char *p = line;
  for (int i = 0; i < fields; ++i) {
    int rc = sp_next_token(&p, tok, TOK);
    if (rc == 1) {
      sp_fail(c, ln, "expected %d fields (row column%s), found %d", fields,
              fields == 3 ? " value" : "", i);
      return;
    }
    int bad = rc != 0;
    if (!bad && i < 2)
      bad = sp_parse_int(tok, &ij[i]);
    else if (!bad && h->field == MM_INTEGER) {
      int64_t iv;
      bad = sp_parse_int(tok, &iv);
      v = (double)iv;
    } else if (!bad)
      bad = sp_parse_real(tok, &v);
    if (bad) {
      sp_fail(c, ln, "cannot parse the %s '%s'%s", what[i], tok,
              i == 2 && h->field == MM_INTEGER ? " as an integer" : "");
      return;
    }
  }
  if (sp_next_token(&p, tok, TOK) != 1) {
    sp_fail(c, ln, "unexpected '%s' after the %s", tok, what[fields - 1]);
    return;
  }
  if (ij[0] < 1 || ij[0] > h->rows || ij[1] < 1 || ij[1] > h->cols) {
    sp_fail(c, ln, "coordinate (%lld, %lld) out of range (1..%lld, 1..%lld)",
            (long long)ij[0], (long long)ij[1], (long long)h->rows,
            (long long)h->cols);
    return;
  }
  if (h->symmetric && ij[0] < ij[1]) {
    sp_fail(c, ln, "wrong symmetry: entry (%lld, %lld) is above the "
                   "diagonal (a symmetric file stores row >= column)",
            (long long)ij[0], (long long)ij[1]);
    return;
  }
  int64_t z[2] = {ij[0] - 1, ij[1] - 1};
  sp_push(c, r, z, v, ln);
}

/* One array line: a single value; coordinates are assigned later. */
static void parse_value(sp_ctx *c, char *line, int64_t ln,
                        const mm_header *h, sp_recs *r) {
  char tok[TOK];
  char *p = line;
  int rc = sp_next_token(&p, tok, TOK);
  double v = 0;
  int bad = rc != 0;
  if (!bad && h->field == MM_INTEGER) {
    int64_t iv;
    bad = sp_parse_int(tok, &iv);
    v = (double)iv;
  } else if (!bad)
    bad = sp_parse_real(tok, &v);
  if (bad) {
    sp_fail(c, ln, "cannot parse the value '%s'%s", tok,
            h->field == MM_INTEGER ? " as an integer" : "");
    return;
  }
  if (sp_next_token(&p, tok, TOK) != 1) {
    sp_fail(c, ln, "unexpected '%s' after the value (an array file holds "
                   "one value a line)",
            tok);
    return;
  }
  int64_t z[2] = {0, 0};
  sp_push(c, r, z, v, ln);
}

/* Array entry k (column-major; the lower triangle for symmetric files)
 * gets its coordinates.  Entries of one process are consecutive, so only
 * the first position is computed from k. */
static void array_coords(const mm_header *h, sp_recs *r, int64_t first) {
  int64_t M = h->rows, i = 0, j = 0;
  if (!h->symmetric) {
    i = M > 0 ? first % M : 0;
    j = M > 0 ? first / M : 0;
  } else {
    int64_t k = first;
    while (j < M && k >= M - j) { /* column j holds rows j .. M-1 */
      k -= M - j;
      ++j;
    }
    i = j + k;
  }
  for (int64_t e = 0; e < r->n && first + e < h->nnz; ++e) {
    r->a[e * r->w] = i;
    r->a[e * r->w + 1] = j;
    if (++i == M) {
      ++j;
      i = h->symmetric ? j : 0;
    }
  }
}

/* Fewer or more entries than the header announces. */
static void check_count(sp_ctx *c, const mm_header *h, const sp_recs *r,
                        int64_t before, int64_t total) {
  if (total > h->nnz && before <= h->nnz && h->nnz < before + r->n) {
    sp_fail(c, r->a[(h->nnz - before) * r->w + 3],
            "more entries than the %lld the header (line %lld) announces",
            (long long)h->nnz, (long long)h->size_line);
  } else if (total < h->nnz && c->rank == 0) {
    sp_fail(c, 0, "truncated: %lld entries, but the header (line %lld) "
                  "announces %lld",
            (long long)total, (long long)h->size_line, (long long)h->nnz);
  }
}

void distrt_coo_read_mm(const char *path, distrt_grid *g, distrt_coo *coo) {
  sp_ctx c;
  sp_begin(&c, "distrt_coo_read_mm", path, g, coo);
  mm_header h;
  memset(&h, 0, sizeof h);
  FILE *f = fopen(path, "rb");
  if (!f)
    sp_fail(&c, 0, "cannot open the file: %s", strerror(errno));
  else
    read_header(&c, f, &h);
  sp_agree(&c); /* every process read the same header */

  sp_text t;
  sp_text_read(&c, f, h.data_off, &t);
  fclose(f);
  sp_recs r = {4, 0, 0, NULL};
  int64_t li = 0;
  for (char *line; (line = sp_text_next(&t)) != NULL;) {
    ++li; /* local line number, made global below */
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r')
      ++p;
    if (*p == '%' || *p == '\0')
      continue;
    if (h.array)
      parse_value(&c, line, li, &h, &r);
    else
      parse_entry(&c, line, li, &h, &r);
  }
  free(t.buf);

  int64_t lines_before, before, total;
  sp_prefix(&c, h.head_lines, t.nlines, r.n, &lines_before, &before, &total);
  if (c.failed && c.line > 0)
    c.line += lines_before;
  for (int64_t k = 0; k < r.n; ++k)
    r.a[k * 4 + 3] += lines_before;
  sp_agree(&c);
  check_count(&c, &h, &r, before, total);
  sp_agree(&c);
  if (h.array)
    array_coords(&h, &r, before);

  /* Mirror the stored triangle of symmetric files. */
  int64_t stored = r.n;
  for (int64_t k = 0; h.symmetric && k < stored; ++k) {
    int64_t *e = r.a + k * 4;
    if (e[0] == e[1])
      continue;
    int64_t z[2] = {e[1], e[0]};
    double v;
    memcpy(&v, e + 2, 8);
    sp_push(&c, &r, z, v, e[3]);
  }
  int64_t dims[2] = {h.rows, h.cols};
  sp_distribute(&c, 2, dims, &r, coo);
}
