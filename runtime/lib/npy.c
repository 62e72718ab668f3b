/*===- npy.c - distrt tensor files: NumPy .npy ------------------*- C -*-===*
 *
 * dist.load / dist.store of a dense tensor whose path ends in ".npy" (any
 * case) use NumPy's format (numpy.lib.format) instead of the dist tensor
 * file format; io.c opens, agrees on errors, and reads and writes the
 * elements, this file knows the header:
 *
 *   offset  size  field
 *        0     6  magic "\x93NUMPY"
 *        6     2  format version: major, minor (1.0, 2.0 or 3.0)
 *        8   2|4  header length L (little-endian; 2 bytes in 1.0, else 4)
 *   10|12     L   a Python dict literal, e.g.
 *                   {'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }
 *                 padded with blanks and ending in a newline
 *  10|12+L        the elements, row-major (C order) or column-major
 *
 * Reading accepts exactly the keys 'descr', 'fortran_order' (True or
 * False) and 'shape' (a tuple of integers); descr '<f4', '<f8', '<i4' or
 * '<i8' (also with '|', '=' or no byte-order character, which mean native,
 * little-endian here), which must be the tensor's element type, and the
 * tensor's shape; the file must have exactly header + elements bytes.  A
 * Fortran-order file is read with distrt_npy_load_fortran: every process
 * still reads only its own elements, in runs along the first dimension.
 *
 * Writing is always version 1.0, C order, with numpy.save's header: the
 * dict above (keys sorted, numpy's spare blanks after it for the first
 * extent to grow) padded so that the elements start at a multiple of 64
 * bytes.  With at most DISTRT_MAX_DIMS dimensions the header is under 512
 * bytes, so version 1.0 (up to 65535) always fits.
 *
 * Only little-endian hosts read or write .npy files (the elements are
 * copied as they lie in memory).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "io_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_ALIGN 64
/* Longest header read (numpy itself refuses more than 10000 by default). */
#define NPY_HEADER_LIMIT 10000
/* numpy.lib.format.GROWTH_AXIS_MAX_DIGITS: blanks left after the dict so
 * that the first extent can grow to 21 digits in place. */
#define NPY_GROWTH_DIGITS 21
/* Dimensions a header may name (more cannot match any tensor anyway). */
#define NPY_MAX_SHAPE 32

int distrt_npy_path(const char *path) {
  size_t n = strlen(path);
  return n >= 4 && strcasecmp(path + n - 4, ".npy") == 0;
}

int distrt_npy_host_ok(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/*===----------------------------------------------------------------------===*
 * The header dict
 *===----------------------------------------------------------------------===*/

typedef struct {
  const char *s;   /* header text (not NUL-terminated) */
  int64_t n, i;    /* its length and the read position */
  const char *why; /* the first parse error, NULL while none */
  int64_t at;      /* where it was found */
} npy_cur;

typedef struct {
  char descr[32];
  int structured; /* descr is a list of fields */
  int fortran;
  int64_t ndims;
  int64_t shape[NPY_MAX_SHAPE];
  unsigned seen; /* 1 descr, 2 fortran_order, 4 shape */
} npy_hdr;

static int cur_fail(npy_cur *c, const char *why) {
  if (!c->why) {
    c->why = why;
    c->at = c->i;
  }
  return -1;
}

static void skip_ws(npy_cur *c) {
  while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' ||
                         c->s[c->i] == '\n' || c->s[c->i] == '\r'))
    ++c->i;
}

/* Skips blanks, then 1 if the next character is ch (consumed). */
static int accept(npy_cur *c, char ch) {
  skip_ws(c);
  if (c->i < c->n && c->s[c->i] == ch) {
    ++c->i;
    return 1;
  }
  return 0;
}

/* A quoted string without escapes into out (cap bytes with the NUL). */
static int parse_str(npy_cur *c, char *out, size_t cap) {
  skip_ws(c);
  if (c->i >= c->n || (c->s[c->i] != '\'' && c->s[c->i] != '"'))
    return cur_fail(c, "expected a quoted string");
  char q = c->s[c->i];
  const char *end = memchr(c->s + c->i + 1, q, (size_t)(c->n - c->i - 1));
  if (!end)
    return cur_fail(c, "unterminated string");
  ++c->i;
  size_t len = 0;
  for (; c->s + c->i < end; ++c->i) {
    unsigned char ch = (unsigned char)c->s[c->i];
    if (ch == '\\' || ch < 32 || ch >= 127)
      return cur_fail(c, "unsupported character in a string");
    if (len + 1 >= cap)
      return cur_fail(c, "string too long");
    out[len++] = c->s[c->i];
  }
  ++c->i;
  out[len] = '\0';
  return 0;
}

/* The word at the position (letters, digits, '_'), consumed; 1 if it is w. */
static int word_is(npy_cur *c, const char *w) {
  int64_t start = c->i;
  while (c->i < c->n &&
         (c->s[c->i] == '_' || (c->s[c->i] >= 'a' && c->s[c->i] <= 'z') ||
          (c->s[c->i] >= 'A' && c->s[c->i] <= 'Z') ||
          (c->s[c->i] >= '0' && c->s[c->i] <= '9')))
    ++c->i;
  size_t len = (size_t)(c->i - start);
  return len == strlen(w) && memcmp(c->s + start, w, len) == 0;
}

static int parse_bool(npy_cur *c, int *out) {
  skip_ws(c);
  int64_t start = c->i;
  if (word_is(c, "True")) {
    *out = 1;
    return 0;
  }
  c->i = start;
  if (word_is(c, "False")) {
    *out = 0;
    return 0;
  }
  c->i = start;
  return cur_fail(c, "fortran_order must be True or False");
}

/* A non-negative integer (Python 2's 'L' suffix allowed). */
static int parse_extent(npy_cur *c, int64_t *out) {
  skip_ws(c);
  if (c->i >= c->n || c->s[c->i] < '0' || c->s[c->i] > '9')
    return cur_fail(c, "expected a non-negative integer extent");
  int64_t v = 0;
  for (; c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9'; ++c->i) {
    if (v > (INT64_MAX - 9) / 10)
      return cur_fail(c, "extent too large");
    v = v * 10 + (c->s[c->i] - '0');
  }
  if (c->i < c->n && (c->s[c->i] == 'L' || c->s[c->i] == 'l'))
    ++c->i;
  *out = v;
  return 0;
}

/* A tuple of extents: "()", "(3,)", "(3, 4)" or "(3, 4,)". */
static int parse_shape(npy_cur *c, npy_hdr *h) {
  if (!accept(c, '('))
    return cur_fail(c, "shape must be a tuple like (4, 3)");
  h->ndims = 0;
  if (accept(c, ')'))
    return 0;
  for (;;) {
    if (h->ndims == NPY_MAX_SHAPE)
      return cur_fail(c, "more than 32 dimensions");
    if (parse_extent(c, &h->shape[h->ndims++]) != 0)
      return -1;
    if (accept(c, ')'))
      return h->ndims == 1 ? cur_fail(c, "shape must be a tuple like (4,)") : 0;
    if (!accept(c, ','))
      return cur_fail(c, "expected ',' or ')' in the shape");
    if (accept(c, ')'))
      return 0;
  }
}

/* One "'key': value"; the structured descr (a list) ends the parse. */
static int parse_entry(npy_cur *c, npy_hdr *h) {
  char key[32];
  skip_ws(c);
  int64_t start = c->i;
  if (parse_str(c, key, sizeof key) != 0)
    return -1;
  unsigned bit = strcmp(key, "descr") == 0           ? 1u
                 : strcmp(key, "fortran_order") == 0 ? 2u
                 : strcmp(key, "shape") == 0         ? 4u
                                                     : 0u;
  if (!bit || (h->seen & bit)) {
    c->i = start;
    return cur_fail(c, !bit ? "unexpected key (only 'descr', 'fortran_order' "
                              "and 'shape' are allowed)"
                            : "a key appears twice");
  }
  h->seen |= bit;
  if (!accept(c, ':'))
    return cur_fail(c, "expected ':' after a key");
  if (bit == 2u)
    return parse_bool(c, &h->fortran);
  if (bit == 4u)
    return parse_shape(c, h);
  skip_ws(c);
  if (c->i < c->n && c->s[c->i] == '[') {
    h->structured = 1;
    return 0;
  }
  return parse_str(c, h->descr, sizeof h->descr);
}

static int parse_dict(npy_cur *c, npy_hdr *h) {
  if (!accept(c, '{'))
    return cur_fail(c, "the header is not a dict: expected '{'");
  while (!accept(c, '}')) {
    if (parse_entry(c, h) != 0)
      return -1;
    if (h->structured)
      return 0;
    if (accept(c, '}'))
      break;
    if (!accept(c, ','))
      return cur_fail(c, "expected ',' or '}' after a value");
  }
  skip_ws(c);
  if (c->i != c->n)
    return cur_fail(c, "text after the dict");
  if (h->seen != 7u)
    return cur_fail(c, !(h->seen & 1u)   ? "no 'descr' key"
                       : !(h->seen & 2u) ? "no 'fortran_order' key"
                                         : "no 'shape' key");
  return 0;
}

/* The n bytes at s as one printable line: quotes, backslashes and
 * non-printable bytes escaped, cut with "..." to fit. */
static const char *escaped(char *buf, size_t cap, const char *s, int64_t n) {
  size_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    unsigned char ch = (unsigned char)s[i];
    if (k + 8 >= cap) {
      memcpy(buf + k, "...", 4);
      return buf;
    }
    if (ch >= 32 && ch < 127 && ch != '"' && ch != '\\')
      buf[k++] = (char)ch;
    else if (ch == '\n')
      k += (size_t)snprintf(buf + k, cap - k, "\\n");
    else
      k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", ch);
  }
  buf[k] = '\0';
  return buf;
}

/*===----------------------------------------------------------------------===*
 * Reading
 *===----------------------------------------------------------------------===*/

/* The preamble: magic, version, header length.  Sets *hoff (where the
 * dict starts) and *hlen. */
static int check_preamble(int fd, int64_t size, int64_t *hoff, int64_t *hlen,
                          io_err *e) {
  unsigned char p[12];
  int64_t got = size < 12 ? size : 12;
  if (got > 0 && io_read_at(fd, p, got, 0, e, size) != 0)
    return -1;
  char shown[64];
  if (got < 6 || memcmp(p, NPY_MAGIC, 6) != 0) {
    if (got < 6)
      io_fail(e,
              "not a NumPy .npy file: it has %lld bytes, too few for the "
              "6-byte magic \"\\x93NUMPY\"",
              (long long)size);
    else
      io_fail(e,
              "not a NumPy .npy file: bad magic \"%s\" (expected "
              "\"\\x93NUMPY\")",
              escaped(shown, sizeof shown, (const char *)p, 6));
    return -1;
  }
  int64_t pre = p[6] == 1 ? 10 : 12;
  if (got < 8 || !((p[6] >= 1 && p[6] <= 3) && p[7] == 0)) {
    if (got < 8)
      io_fail(e, "truncated .npy preamble: the file has %lld bytes",
              (long long)size);
    else
      io_fail(e,
              "unsupported .npy format version %u.%u (this runtime reads "
              "1.0, 2.0 and 3.0)",
              p[6], p[7]);
    return -1;
  }
  if (got < pre) {
    io_fail(e,
            "truncated .npy preamble: the file has %lld bytes, fewer than "
            "the %lld of a version %u.0 preamble",
            (long long)size, (long long)pre, p[6]);
    return -1;
  }
  *hlen = p[8] | (int64_t)p[9] << 8;
  if (pre == 12)
    *hlen |= (int64_t)p[10] << 16 | (int64_t)p[11] << 24;
  *hoff = pre;
  if (*hlen > NPY_HEADER_LIMIT) {
    io_fail(e,
            "the .npy header is %lld bytes long (this runtime reads at "
            "most %d)",
            (long long)*hlen, NPY_HEADER_LIMIT);
    return -1;
  }
  if (size < pre + *hlen) {
    io_fail(e,
            "truncated .npy header: the file has %lld bytes, fewer than the "
            "%lld its preamble announces for the header",
            (long long)size, (long long)(pre + *hlen));
    return -1;
  }
  return 0;
}

/* The element type descr names: a DISTRT_* code, or -1 with e set. */
static int64_t descr_dtype(const npy_hdr *h, io_err *e) {
  static const char *const body[] = {"f4", "f8", "i4", "i8"};
  if (h->structured) {
    io_fail(e, "structured arrays (descr is a list of fields) are not "
               "supported");
    return -1;
  }
  const char *d = h->descr;
  char order = (*d == '<' || *d == '>' || *d == '|' || *d == '=') ? *d : 0;
  const char *t = order ? d + 1 : d;
  for (int64_t k = 0; k < 4; ++k) {
    if (strcmp(t, body[k]) != 0)
      continue;
    if (order == '>') {
      io_fail(e,
              "big-endian data (descr '%s') is not supported; save it with "
              "a.astype('<%s')",
              d, t);
      return -1;
    }
    return k;
  }
  if (*t == 'O')
    io_fail(e, "object arrays (descr '%s') are not supported", d);
  else
    io_fail(e,
            "unsupported descr '%s' (supported: '<f4', '<f8', '<i4', '<i8': "
            "f32, f64, i32, i64)",
            d);
  return -1;
}

void distrt_npy_check(int fd, int64_t size, int64_t dtype, int64_t es,
                      const struct distrt_tile_view *v, io_err *e,
                      int64_t *data_off, int *fortran) {
  int64_t hoff, hlen;
  if (check_preamble(fd, size, &hoff, &hlen, e) != 0)
    return;
  char text[NPY_HEADER_LIMIT + 1];
  if (io_read_at(fd, text, hlen, hoff, e, size) != 0)
    return;
  npy_cur c = {text, hlen, 0, NULL, 0};
  npy_hdr h;
  memset(&h, 0, sizeof h);
  if (parse_dict(&c, &h) != 0) {
    int64_t shown = hlen;
    while (shown > 0 && (text[shown - 1] == ' ' || text[shown - 1] == '\n'))
      --shown;
    char buf[256];
    io_fail(e, "malformed .npy header: %s (at character %lld of \"%s\")", c.why,
            (long long)c.at, escaped(buf, sizeof buf, text, shown));
    return;
  }
  if (!distrt_npy_host_ok()) {
    io_fail(e, "only little-endian hosts read .npy files");
    return;
  }
  int64_t got = descr_dtype(&h, e);
  if (got < 0)
    return;
  if (got != dtype) {
    io_fail(e,
            "wrong element type: the file holds %s elements (descr '%s'), "
            "the tensor is %s",
            distrt_dtype_name(got), h.descr, distrt_dtype_name(dtype));
    return;
  }
  char want[256], have[512];
  io_shape_str(want, sizeof want, v->ndims, v->n);
  int same = h.ndims == v->ndims;
  for (int64_t d = 0; d < h.ndims && same; ++d)
    same = h.shape[d] == v->n[d];
  if (!same) {
    io_fail(e, "wrong shape: the file holds a %s %s array, the tensor is %s %s",
            io_shape_str(have, sizeof have, h.ndims, h.shape),
            distrt_dtype_name(dtype), want, distrt_dtype_name(dtype));
    return;
  }
  *data_off = hoff + hlen;
  *fortran = h.fortran;
  int64_t expected = *data_off + v->elements * es;
  if (size < expected)
    io_fail(e,
            "truncated: the file has %lld bytes, but a %s %s .npy "
            "file with this header has %lld (%lld of %lld elements "
            "present)",
            (long long)size, want, distrt_dtype_name(dtype),
            (long long)expected, (long long)((size - *data_off) / es),
            (long long)v->elements);
  else if (size > expected)
    io_fail(e,
            "the file has %lld bytes, %lld more than the %lld of a "
            "%s %s .npy file with this header (trailing data)",
            (long long)size, (long long)(size - expected), (long long)expected,
            want, distrt_dtype_name(dtype));
}

/* Column-major file: the first dimension is contiguous.  Walks the lines
 * of the tile along dimension 0 (every combination of the local indices
 * of dimensions 1..), reading each run of consecutive global indices (or
 * the span of a line, for small blocks) into `buf` and scattering it to
 * the row-major tile, where dimension 0 has stride size / ext[0]. */
int distrt_npy_load_fortran(int fd, const struct distrt_tile_view *v,
                            char *tile, int64_t es, int64_t data_off,
                            int64_t file_size, io_err *e) {
  if (v->size == 0)
    return 0;
  int64_t nd = v->ndims;
  int64_t fstride[DISTRT_MAX_DIMS], tstride[DISTRT_MAX_DIMS];
  fstride[0] = 1;
  for (int64_t d = 1; d < nd; ++d)
    fstride[d] = fstride[d - 1] * v->n[d - 1];
  tstride[nd - 1] = 1;
  for (int64_t d = nd - 2; d >= 0; --d)
    tstride[d] = tstride[d + 1] * v->ext[d + 1];
  int64_t P = v->p[0], C = v->c[0], B = v->b[0], ext = v->ext[0];
  int64_t g0 = distrt_local_to_global(0, P, C, B);
  int64_t g1 = distrt_local_to_global(ext - 1, P, C, B);
  int span = B < DISTRT_IO_SPAN_BLOCK && P > 1;
  int64_t cap = span ? g1 - g0 + 1 : (B < ext ? B : ext);
  char *buf = (char *)malloc((size_t)(cap * es));
  if (!buf) {
    io_fail(e, "cannot allocate %lld bytes for a column buffer",
            (long long)(cap * es));
    return -1;
  }
  int64_t l[DISTRT_MAX_DIMS] = {0};
  int rc = 0;
  for (int64_t line = 0; line < v->size / ext && rc == 0; ++line) {
    int64_t fbase = 0;
    char *dst = tile;
    for (int64_t d = 1; d < nd; ++d) {
      fbase +=
          distrt_local_to_global(l[d], v->p[d], v->c[d], v->b[d]) * fstride[d];
      dst += l[d] * tstride[d] * es;
    }
    for (int64_t i = 0; i < ext && rc == 0;) {
      int64_t gi = distrt_local_to_global(i, P, C, B);
      int64_t run = span ? ext : B - i % B;
      if (run > ext - i)
        run = ext - i;
      int64_t first = span ? g0 : gi;
      int64_t count = span ? g1 - g0 + 1 : run;
      rc = io_read_at(fd, buf, count * es, data_off + (fbase + first) * es, e,
                      file_size);
      for (int64_t k = 0; k < run && rc == 0; ++k) {
        int64_t at = span ? distrt_local_to_global(i + k, P, C, B) - g0 : k;
        memcpy(dst + (i + k) * tstride[0] * es, buf + at * es, (size_t)es);
      }
      i += run;
    }
    for (int64_t d = nd - 1; d >= 1; --d) {
      if (++l[d] < v->ext[d])
        break;
      l[d] = 0;
    }
  }
  free(buf);
  return rc;
}

/*===----------------------------------------------------------------------===*
 * Writing
 *===----------------------------------------------------------------------===*/

int64_t distrt_npy_header(unsigned char *h, int64_t dtype,
                          const struct distrt_tile_view *v) {
  static const char *const descr[] = {"<f4", "<f8", "<i4", "<i8"};
  char dict[DISTRT_NPY_HEADER_MAX];
  int64_t len = snprintf(dict, sizeof dict,
                         "{'descr': '%s', 'fortran_order': False, 'shape': (",
                         descr[dtype]);
  for (int64_t d = 0; d < v->ndims; ++d)
    len += snprintf(dict + len, sizeof dict - (size_t)len, "%s%lld",
                    d ? ", " : "", (long long)v->n[d]);
  len += snprintf(dict + len, sizeof dict - (size_t)len, "%s), }",
                  v->ndims == 1 ? "," : "");
  if (v->ndims > 0) {
    char first[24];
    int64_t digits = snprintf(first, sizeof first, "%lld", (long long)v->n[0]);
    for (int64_t k = digits; k < NPY_GROWTH_DIGITS; ++k)
      dict[len++] = ' ';
  }
  /* numpy: the dict, its newline and the padding blanks end at a multiple
   * of 64 (a full 64 blanks when already aligned). */
  int64_t pad = NPY_ALIGN - (10 + len + 1) % NPY_ALIGN;
  int64_t hlen = len + pad + 1;
  memcpy(h, NPY_MAGIC, 6);
  h[6] = 1;
  h[7] = 0;
  h[8] = (unsigned char)(hlen & 0xff);
  h[9] = (unsigned char)(hlen >> 8);
  memcpy(h + 10, dict, (size_t)len);
  memset(h + 10 + len, ' ', (size_t)pad);
  h[10 + hlen - 1] = '\n';
  return 10 + hlen;
}
