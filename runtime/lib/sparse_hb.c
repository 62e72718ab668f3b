/*===- sparse_hb.c - distrt sparse files: Harwell-Boeing ---------*- C -*-===*
 *
 * distrt_coo_read_hb.  A Harwell-Boeing file holds a matrix column by
 * column in Fortran fixed-width cards (lines of at most 80 characters):
 *
 *   line 1   TITLE (A72), KEY (A8)
 *   line 2   TOTCRD, PTRCRD, INDCRD, VALCRD, RHSCRD            (5I14)
 *   line 3   MXTYPE (A3), 11 blanks, NROW, NCOL, NNZERO, NELTVL (A3,11X,4I14)
 *   line 4   PTRFMT, INDFMT (2A16), VALFMT, RHSFMT (2A20)
 *   line 5   only when RHSCRD > 0: RHSTYP (A3), 11X, NRHS, NRHSIX (2I14)
 *   then     NCOL + 1 column pointers (PTRFMT), NNZERO row indices
 *            (INDFMT), NNZERO values (VALFMT; none for pattern matrices),
 *            then the right-hand sides, which are not read.
 *
 * Supported MXTYPE: R (real) or P (pattern); U (unsymmetric), S
 * (symmetric: the lower triangle is stored, and mirrored on reading) or R
 * (rectangular); A (assembled).  Formats: an optional scale factor "kP" or
 * "kP,", a repeat count, a letter (I for the integer sections; E, D, F or G
 * for values) and a width, e.g. (10I8), (4E20.12), (1P,4D20.12).
 *
 * The pointers of all columns come before any row index, so the file does
 * not split into independent byte ranges; grid rank 0 reads all of it and
 * sends each row to its owner with the same all-to-all-v as the other
 * readers.  Rank 0 therefore holds every entry for a moment (32 bytes
 * each).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A Fortran edit descriptor "(kP,nXw.d)". */
typedef struct {
  int64_t per_line; /* n: fields a card */
  int64_t width;    /* w */
  int scale;        /* k of kP (0 if none) */
  int digits;       /* d of w.d: the implied decimal point */
  char letter;      /* I, E, D, F, G */
} hb_fmt;

typedef struct {
  FILE *f;
  char *line;
  size_t cap;
  int64_t ln; /* number of the line in `line` */
} hb_reader;

/* Next card; NULL at the end of the file (or a read error, recorded). */
static char *next_card(sp_ctx *c, hb_reader *r) {
  errno = 0;
  ssize_t len = getline(&r->line, &r->cap, r->f);
  if (len < 0) {
    if (errno != 0)
      sp_fail(c, 0, "read error: %s", strerror(errno));
    return NULL;
  }
  ++r->ln;
  while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
    r->line[--len] = '\0';
  return r->line;
}

/* Copies columns [from, from + width) of `line` (blank past its end) into
 * buf, without leading and trailing blanks. */
static void field(const char *line, int64_t from, int64_t width, char *buf,
                  size_t n) {
  int64_t len = (int64_t)strlen(line), k = 0;
  for (int64_t i = from; i < from + width && i < len && k + 1 < (int64_t)n;
       ++i)
    buf[k++] = line[i];
  buf[k] = '\0';
  while (k > 0 && isspace((unsigned char)buf[k - 1]))
    buf[--k] = '\0';
  int64_t s = 0;
  while (isspace((unsigned char)buf[s]))
    ++s;
  memmove(buf, buf + s, (size_t)(k - s + 1));
}

/* An integer header field (I14) at columns [from, from + 14). */
static int64_t header_int(sp_ctx *c, const char *line, int64_t ln,
                          int64_t from, const char *name) {
  char buf[32];
  int64_t v = 0;
  field(line, from, 14, buf, sizeof buf);
  if (sp_parse_int(buf, &v) != 0 || v < 0)
    sp_fail(c, ln, "cannot parse %s '%s' (columns %lld-%lld, I14)", name,
            buf, (long long)from + 1, (long long)from + 14);
  return v;
}

/* Parses "(kP,nXw.d)"; `what` names the format in errors. */
static void parse_fmt(sp_ctx *c, const char *text, int64_t ln,
                      const char *what, int integer, hb_fmt *f) {
  char buf[32];
  size_t k = 0;
  for (const char *p = text; *p && k + 1 < sizeof buf; ++p)
    if (!isspace((unsigned char)*p))
      buf[k++] = (char)toupper((unsigned char)*p);
  buf[k] = '\0';
  memset(f, 0, sizeof *f);
  const char *p = buf;
  long n1 = 0, n2 = 1;
  char *end;
  if (*p++ != '(')
    goto bad;
  n1 = strtol(p, &end, 10);
  if (end != p && *end == 'P') { /* scale factor */
    f->scale = (int)n1;
    p = end + 1;
    if (*p == ',')
      ++p;
  }
  n2 = strtol(p, &end, 10);
  if (end == p)
    n2 = 1;
  p = end;
  f->letter = *p++;
  f->width = strtol(p, &end, 10);
  if (end == p || f->width < 1 || n2 < 1)
    goto bad;
  p = end;
  if (*p == '.') {
    f->digits = (int)strtol(p + 1, &end, 10);
    p = end;
    if (*p == 'E') /* exponent width */
      for (++p; isdigit((unsigned char)*p); ++p)
        ;
  }
  if (strcmp(p, ")") != 0)
    goto bad;
  f->per_line = n2;
  if (integer ? f->letter != 'I'
              : strchr("EDFG", f->letter) == NULL || f->letter == '\0')
    goto bad;
  return;
bad:
  sp_fail(c, ln, "unsupported %s '%s' (expected %s)", what, text,
          integer ? "(nIw)" : "(nEw.d), (nDw.d), (nFw.d), (nGw.d), with an "
                              "optional kP scale factor");
}

/* Reads `count` fields of format f from the next cards: integers into iv or
 * reals into dv, with the line of each field in lines (may be NULL). */
static void read_section(sp_ctx *c, hb_reader *r, const hb_fmt *f,
                         int64_t count, const char *what, int64_t *iv,
                         double *dv, int64_t *lines) {
  char buf[128], *line = NULL;
  for (int64_t k = 0; k < count && !c->failed; ++k) {
    int64_t col = k % f->per_line;
    if (col == 0 && (line = next_card(c, r)) == NULL) {
      if (!c->failed)
        sp_fail(c, r->ln + 1, "truncated: end of file after %lld of the "
                              "%lld %s",
                (long long)k, (long long)count, what);
      return;
    }
    field(line, col * f->width, f->width, buf, sizeof buf);
    if (lines)
      lines[k] = r->ln;
    if (iv) {
      if (sp_parse_int(buf, &iv[k]) != 0)
        sp_fail(c, r->ln, "cannot parse field %lld of the %s '%s' (columns "
                "%lld-%lld)",
                (long long)k + 1, what, buf,
                (long long)(col * f->width) + 1,
                (long long)((col + 1) * f->width));
      continue;
    }
    /* Fortran reals: a D exponent; without a decimal point the last d
     * digits are the fraction; the scale factor applies only to fields
     * without an exponent. */
    int has_exp = 0, has_point = strchr(buf, '.') != NULL;
    for (char *q = buf; *q; ++q)
      if (*q == 'D' || *q == 'd' || *q == 'E' || *q == 'e') {
        *q = 'E';
        has_exp = 1;
      }
    if (sp_parse_real(buf, &dv[k]) != 0)
      sp_fail(c, r->ln, "cannot parse field %lld of the %s '%s' (columns "
              "%lld-%lld)",
              (long long)k + 1, what, buf, (long long)(col * f->width) + 1,
              (long long)((col + 1) * f->width));
    else {
      if (!has_point && f->digits > 0)
        dv[k] /= pow(10.0, f->digits);
      if (!has_exp && f->scale != 0)
        dv[k] /= pow(10.0, f->scale);
    }
  }
}

typedef struct {
  int pattern, symmetric;
  int64_t rows, cols, nnz, rhs_cards;
  hb_fmt ptr, ind, val;
} hb_header;

/* Lines 1-4 (and 5 when there are right-hand sides). */
static void read_header(sp_ctx *c, hb_reader *r, hb_header *h) {
  char *line = next_card(c, r); /* title and key: free text */
  if (!line) {
    if (!c->failed)
      sp_fail(c, 0, "the file is empty (no Harwell-Boeing header)");
    return;
  }
  if (!(line = next_card(c, r)))
    goto eof;
  h->rhs_cards = header_int(c, line, r->ln, 56, "RHSCRD");
  if (!(line = next_card(c, r)))
    goto eof;
  char type[4] = {0};
  for (int i = 0; i < 3 && line[i]; ++i)
    type[i] = (char)toupper((unsigned char)line[i]);
  if ((type[0] != 'R' && type[0] != 'P') ||
      (type[1] != 'U' && type[1] != 'S' && type[1] != 'R') ||
      type[2] != 'A') {
    sp_fail(c, r->ln, "unsupported matrix type '%s' (supported: R or P, "
                      "then U, S or R, then A)",
            type);
    return;
  }
  h->pattern = type[0] == 'P';
  h->symmetric = type[1] == 'S';
  h->rows = header_int(c, line, r->ln, 14, "NROW");
  h->cols = header_int(c, line, r->ln, 28, "NCOL");
  h->nnz = header_int(c, line, r->ln, 42, "NNZERO");
  if (c->failed)
    return;
  if (h->symmetric && h->rows != h->cols) {
    sp_fail(c, r->ln, "a symmetric matrix must be square, not %lld x %lld",
            (long long)h->rows, (long long)h->cols);
    return;
  }
  if (!(line = next_card(c, r)))
    goto eof;
  char fmt[24];
  field(line, 0, 16, fmt, sizeof fmt);
  parse_fmt(c, fmt, r->ln, "pointer format", 1, &h->ptr);
  field(line, 16, 16, fmt, sizeof fmt);
  parse_fmt(c, fmt, r->ln, "index format", 1, &h->ind);
  field(line, 32, 20, fmt, sizeof fmt);
  if (!h->pattern)
    parse_fmt(c, fmt, r->ln, "value format", 0, &h->val);
  if (h->rhs_cards > 0 && !next_card(c, r))
    goto eof;
  return;
eof:
  if (!c->failed)
    sp_fail(c, r->ln + 1, "truncated: end of file in the header");
}

/* Column pointers, row indices and values into records (rank 0). */
static void read_entries(sp_ctx *c, hb_reader *r, const hb_header *h,
                         sp_recs *out) {
  int64_t n = h->nnz, nc = h->cols;
  int64_t *ptr = (int64_t *)sp_alloc(c, (nc + 1) * 8);
  int64_t *ptr_lines = (int64_t *)sp_alloc(c, (nc + 1) * 8);
  int64_t *ind = (int64_t *)sp_alloc(c, n * 8);
  int64_t *lines = (int64_t *)sp_alloc(c, n * 8);
  double *val = (double *)sp_alloc(c, n * 8);
  read_section(c, r, &h->ptr, nc + 1, "column pointers", ptr, NULL,
               ptr_lines);
  for (int64_t j = 0; j <= nc && !c->failed; ++j) {
    int64_t want_lo = j == 0 ? 1 : ptr[j - 1];
    if (ptr[j] < want_lo || ptr[j] > n + 1 || (j == 0 && ptr[0] != 1) ||
        (j == nc && ptr[j] != n + 1))
      sp_fail(c, ptr_lines[j], "bad column pointer %lld = %lld (pointers "
                               "start at 1, do not decrease, and end at "
                               "NNZERO + 1 = %lld)",
              (long long)j + 1, (long long)ptr[j], (long long)n + 1);
  }
  read_section(c, r, &h->ind, n, "row indices", ind, NULL, lines);
  for (int64_t k = 0; k < n; ++k)
    val[k] = 1.0;
  if (!h->pattern)
    read_section(c, r, &h->val, n, "values", NULL, val, NULL);
  for (int64_t j = 0; j < nc && !c->failed; ++j)
    for (int64_t k = ptr[j] - 1; k < ptr[j + 1] - 1 && !c->failed; ++k) {
      int64_t i = ind[k];
      if (i < 1 || i > h->rows)
        sp_fail(c, lines[k], "row index %lld of column %lld out of range "
                             "1..%lld",
                (long long)i, (long long)j + 1, (long long)h->rows);
      else if (h->symmetric && i < j + 1)
        sp_fail(c, lines[k], "wrong symmetry: entry (%lld, %lld) is above "
                             "the diagonal (a symmetric file stores row >= "
                             "column)",
                (long long)i, (long long)j + 1);
      else {
        int64_t z[2] = {i - 1, j};
        sp_push(c, out, z, val[k], lines[k]);
        if (h->symmetric && i != j + 1) {
          int64_t m[2] = {j, i - 1};
          sp_push(c, out, m, val[k], lines[k]);
        }
      }
    }
  free(ptr);
  free(ptr_lines);
  free(ind);
  free(lines);
  free(val);
}

void distrt_coo_read_hb(const char *path, distrt_grid *g, distrt_coo *coo) {
  sp_ctx c;
  sp_begin(&c, "distrt_coo_read_hb", path, g, coo);
  hb_header h;
  memset(&h, 0, sizeof h);
  sp_recs r = {4, 0, 0, NULL};
  if (c.rank == 0) {
    hb_reader rd = {fopen(path, "rb"), NULL, 0, 0};
    if (!rd.f)
      sp_fail(&c, 0, "cannot open the file: %s", strerror(errno));
    else {
      read_header(&c, &rd, &h);
      if (!c.failed)
        read_entries(&c, &rd, &h, &r);
      fclose(rd.f);
    }
    free(rd.line);
  }
  sp_agree(&c);
  int64_t dims[2] = {h.rows, h.cols};
  distrt_g.be->bcast(c.op, c.comm, dims, 2, DISTRT_I64, 0);
  sp_distribute(&c, 2, dims, &r, coo);
}
