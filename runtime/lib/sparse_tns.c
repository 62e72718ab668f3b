/*===- sparse_tns.c - distrt sparse files: FROSTT .tns -----------*- C -*-===*
 *
 * distrt_coo_read_tns.  A .tns file has no header: every line is an entry
 * "i_1 ... i_N value" (1-based indices), or a comment starting with '#', or
 * blank.  Every process parses its own byte range (sparse_text.c), as for
 * MatrixMarket files.
 *
 * The order N is the number of fields of the first entry line, less one.
 * A process knows only its own lines, so each takes the order of its first
 * entry line; one all-gather then gives the order of the file's first entry
 * line, the one of the lowest rank that has entries, and a process whose
 * lines disagree reports its first entry line.  Unless the caller gives the
 * extents, they are the largest index of each mode (an all-reduce MAX): a
 * .tns file cannot say that a tensor has trailing empty slices.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TOK 128
#define MAX_FIELDS (DISTRT_MAX_DIMS + 1)

typedef struct {
  int64_t order;       /* this process's (0: not known yet) */
  int64_t want_order;  /* the caller's, 0 if not given */
  const int64_t *dims; /* the caller's extents, or NULL */
  int64_t max[DISTRT_MAX_DIMS]; /* largest 1-based index seen */
} tns_state;

/* One entry line. */
static void parse_line(sp_ctx *c, char *line, int64_t ln, tns_state *s,
                       sp_recs *r) {
  char tok[MAX_FIELDS + 1][TOK];
  char *p = line;
  int n = 0, rc;
  while (n <= MAX_FIELDS && (rc = sp_next_token(&p, tok[n], TOK)) != 1) {
    if (rc < 0) {
      sp_fail(c, ln, "cannot parse '%s' (too long)", tok[n]);
      return;
    }
    ++n;
  }
  if (n < 2 || n > MAX_FIELDS) {
    sp_fail(c, ln, "%s fields: an entry has 1 to %d indices and a value",
            n < 2 ? "too few" : "too many", DISTRT_MAX_DIMS);
    return;
  }
  if (s->order == 0) {
    s->order = n - 1;
    r->w = s->order + 2;
    if (s->want_order > 0 && s->order != s->want_order) {
      sp_fail(c, ln, "%lld indices, but the tensor has %lld dimensions",
              (long long)s->order, (long long)s->want_order);
      return;
    }
  } else if (n - 1 != s->order) {
    sp_fail(c, ln, "%d indices, but the entries before have %lld", n - 1,
            (long long)s->order);
    return;
  }
  int64_t z[DISTRT_MAX_DIMS];
  for (int64_t d = 0; d < s->order; ++d) {
    int64_t i;
    if (sp_parse_int(tok[d], &i) != 0) {
      sp_fail(c, ln, "cannot parse index %lld '%s'", (long long)d + 1,
              tok[d]);
      return;
    }
    if (i < 1 || (s->dims && i > s->dims[d])) {
      if (s->dims)
        sp_fail(c, ln, "index %lld of mode %lld out of range 1..%lld",
                (long long)i, (long long)d + 1, (long long)s->dims[d]);
      else
        sp_fail(c, ln, "index %lld of mode %lld out of range (indices "
                       "start at 1)",
                (long long)i, (long long)d + 1);
      return;
    }
    if (i > s->max[d])
      s->max[d] = i;
    z[d] = i - 1;
  }
  double v;
  if (sp_parse_real(tok[s->order], &v) != 0) {
    sp_fail(c, ln, "cannot parse the value '%s'", tok[s->order]);
    return;
  }
  sp_push(c, r, z, v, ln);
}

/* Agrees on the order: the first entry line of the file sets it.  Returns
 * it (0: the file has no entries). */
static int64_t agree_order(sp_ctx *c, tns_state *s, const sp_recs *r) {
  int64_t *all = (int64_t *)sp_alloc(c, c->size * 8);
  int64_t mine[1] = {s->order};
  distrt_g.be->allgather(c->op, c->comm, mine, all, 1, DISTRT_I64);
  int64_t order = 0;
  for (int64_t q = 0; q < c->size && order == 0; ++q)
    order = all[q];
  free(all);
  if (s->order != 0 && s->order != order && r->n > 0)
    sp_fail(c, r->a[s->order + 1],
            "%lld indices, but the first entry of the file has %lld",
            (long long)s->order, (long long)order);
  return order;
}

void distrt_coo_read_tns(const char *path, distrt_grid *g, int64_t ndims,
                         const int64_t *dims, distrt_coo *coo) {
  sp_ctx c;
  sp_begin(&c, "distrt_coo_read_tns", path, g, coo);
  if (ndims < 0 || ndims > DISTRT_MAX_DIMS || (ndims > 0 && !dims) ||
      (ndims == 0 && dims))
    distrt_fatal(c.op, "ndims %lld with dims %s: give ndims 1..%d and the "
                 "extents, or 0 and NULL",
                 (long long)ndims, dims ? "non-NULL" : "NULL",
                 DISTRT_MAX_DIMS);
  for (int64_t d = 0; d < ndims; ++d)
    if (dims[d] < 0)
      distrt_fatal(c.op, "dims[%lld] = %lld is negative", (long long)d,
                   (long long)dims[d]);
  tns_state s;
  memset(&s, 0, sizeof s);
  s.want_order = ndims;
  s.dims = ndims > 0 ? dims : NULL;

  FILE *f = fopen(path, "rb");
  if (!f)
    sp_fail(&c, 0, "cannot open the file: %s", strerror(errno));
  sp_agree(&c);
  sp_text t;
  sp_text_read(&c, f, 0, &t);
  fclose(f);
  sp_recs r = {2, 0, 0, NULL};
  int64_t li = 0;
  for (char *line; (line = sp_text_next(&t)) != NULL;) {
    ++li; /* local line number, made global below */
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r')
      ++p;
    if (*p == '#' || *p == '\0' || c.failed)
      continue; /* after an error the record layout may be wrong: stop */
    parse_line(&c, line, li, &s, &r);
  }
  free(t.buf);

  int64_t lines_before;
  sp_prefix(&c, 0, t.nlines, r.n, &lines_before, NULL, NULL);
  if (c.failed && c.line > 0)
    c.line += lines_before;
  for (int64_t k = 0; k < r.n; ++k)
    r.a[k * r.w + r.w - 1] += lines_before;
  sp_agree(&c);
  int64_t order = agree_order(&c, &s, &r);
  if (order == 0 && ndims == 0 && c.rank == 0)
    sp_fail(&c, 0, "no entries: the order of the tensor is unknown (give "
                   "ndims and dims)");
  sp_agree(&c);
  if (order == 0) /* an empty tensor of the caller's shape */
    order = ndims;
  if (r.n == 0) /* no line here set the record width */
    r.w = order + 2;

  int64_t ext[DISTRT_MAX_DIMS];
  for (int64_t d = 0; d < order; ++d)
    ext[d] = s.dims ? s.dims[d] : s.max[d];
  if (!s.dims)
    distrt_g.be->allreduce(c.op, c.comm, ext, order, DISTRT_I64, DISTRT_MAX);
  sp_distribute(&c, order, ext, &r, coo);
}
