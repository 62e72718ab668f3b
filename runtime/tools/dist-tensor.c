/*===- dist-tensor.c - make, inspect and compare dist tensor files -*- C -*-===*
 *
 *   dist-tensor fill FILE TYPE SHAPE SEED   write a tensor file whose element
 *                                           i is distrt_value(SEED, i), the
 *                                           values dist.fill gives
 *   dist-tensor info FILE                   print type and shape
 *   dist-tensor check-fill FILE SEED        exit 0 iff every element is the
 *                                           one dist.fill with SEED gives
 *   dist-tensor compare A B [TOL]           max relative error of A vs B;
 *                                           exit 1 if above TOL (default 0)
 *   dist-tensor print FILE                  type and shape, then the elements
 *                                           one row (last dimension) a line
 *   dist-tensor from-raw FILE TYPE SHAPE RAW   from raw little-endian binary
 *   dist-tensor from-csv FILE TYPE SHAPE CSV   from numbers separated by
 *                                              commas and/or line breaks
 *   dist-tensor from-npy FILE NPY           from a NumPy .npy file (C order,
 *                                           <f8 <f4 <i8 <i4)
 *
 * TYPE is f32, f64, i32 or i64; SHAPE is like 8x8 (or "scalar").  The file
 * format is described in runtime/lib/io.c and docs/reliability.md.  Local:
 * no MPI.  Exit status 1 on a failed check or a bad file, 2 on usage.  A
 * command that writes FILE writes a temporary file next to it and renames
 * it: on an error FILE is left as it was.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "distrt/distrt.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "DISTTNSR"
#define FIXED 24

typedef struct {
  uint32_t dtype, ndims;
  int64_t shape[DISTRT_MAX_DIMS];
  int64_t count;
  void *data;
} tensor;

static const char *prog = "dist-tensor";

static const char *usage_text =
    "usage: dist-tensor COMMAND ARGS...\n"
    "\n"
    "Make, inspect and compare the tensor files of dist.load / dist.store\n"
    "(format: docs/reliability.md#tensor-files). Local, no MPI.\n"
    "\n"
    "commands:\n"
    "  fill FILE TYPE SHAPE SEED    write the values dist.fill with SEED gives\n"
    "  from-raw FILE TYPE SHAPE RAW write the raw little-endian binary file RAW\n"
    "                               (exactly prod(SHAPE) elements of TYPE)\n"
    "  from-csv FILE TYPE SHAPE CSV write the numbers of the text file CSV,\n"
    "                               separated by commas and/or line breaks, in\n"
    "                               row-major order (exactly prod(SHAPE) of them)\n"
    "  from-npy FILE NPY            write the NumPy .npy file NPY (format 1.0\n"
    "                               or 2.0, C order, dtype <f8, <f4, <i8 or <i4\n"
    "                               giving f64, f32, i64 or i32)\n"
    "  info FILE                    print type and shape\n"
    "  print FILE                   print type and shape (e.g. 'f64 4x3'), then\n"
    "                               one row (the last dimension) a line; for 3\n"
    "                               or more dimensions, blocks headed [i,:,:]\n"
    "                               and separated by a blank line\n"
    "  check-fill FILE SEED         exit 0 iff every element is the one\n"
    "                               dist.fill with SEED gives\n"
    "  compare A B [TOL]            max relative error of A vs B; exit 1 if\n"
    "                               above TOL (default 0)\n"
    "  -h, --help                   show this help\n"
    "\n"
    "TYPE is f32, f64, i32 or i64; SHAPE is like 8x8, or scalar. A command\n"
    "that writes FILE leaves it as it was on an error.\n"
    "\n"
    "exit status: 0 on success, 1 on a failed check or a bad file, 2 on a\n"
    "usage error.\n";

static int usage(void) {
  fprintf(stderr, "%s", usage_text);
  return 2;
}

/* A usage error with its reason. */
static int bad_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", prog);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see %s --help)\n", prog);
  return 2;
}

static int64_t esize(uint32_t t) { return t == 0 || t == 2 ? 4 : 8; }
static const char *tname(uint32_t t) {
  static const char *n[] = {"f32", "f64", "i32", "i64"};
  return t < 4 ? n[t] : "?";
}

static double get(const tensor *t, int64_t i) {
  switch (t->dtype) {
  case 0: return ((const float *)t->data)[i];
  case 1: return ((const double *)t->data)[i];
  case 2: return ((const int32_t *)t->data)[i];
  default: return (double)((const int64_t *)t->data)[i];
  }
}

static void set(tensor *t, int64_t i, double v) {
  switch (t->dtype) {
  case 0: ((float *)t->data)[i] = (float)v; break;
  case 1: ((double *)t->data)[i] = v; break;
  case 2: ((int32_t *)t->data)[i] = (int32_t)floor(8 * v); break;
  default: ((int64_t *)t->data)[i] = (int64_t)floor(8 * v); break;
  }
}

/* Reads and validates a whole file; prints the problem and returns -1. */
static int read_tensor(const char *path, tensor *t) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return -1;
  }
  unsigned char h[FIXED];
  uint32_t fld[4];
  if (fread(h, 1, FIXED, f) != FIXED || memcmp(h, MAGIC, 8) != 0) {
    fprintf(stderr, "%s: %s: not a dist tensor file\n", prog, path);
    fclose(f);
    return -1;
  }
  memcpy(fld, h + 8, sizeof fld);
  if (fld[0] != 1 || fld[1] != 0x01020304u || fld[2] > 3 ||
      fld[3] > DISTRT_MAX_DIMS) {
    fprintf(stderr, "%s: %s: unsupported header (version %u, mark 0x%08x, "
                    "type %u, rank %u)\n",
            prog, path, fld[0], fld[1], fld[2], fld[3]);
    fclose(f);
    return -1;
  }
  t->dtype = fld[2];
  t->ndims = fld[3];
  t->count = 1;
  if (t->ndims &&
      fread(t->shape, 8, t->ndims, f) != t->ndims) {
    fprintf(stderr, "%s: %s: truncated header\n", prog, path);
    fclose(f);
    return -1;
  }
  for (uint32_t d = 0; d < t->ndims; ++d) {
    if (t->shape[d] < 1 || t->count > ((int64_t)1 << 40) / t->shape[d]) {
      fprintf(stderr, "%s: %s: bad extent %lld\n", prog, path,
              (long long)t->shape[d]);
      fclose(f);
      return -1;
    }
    t->count *= t->shape[d];
  }
  int64_t bytes = t->count * esize(t->dtype);
  t->data = malloc((size_t)bytes + 1);
  if (!t->data) {
    fprintf(stderr, "%s: %s: out of memory\n", prog, path);
    fclose(f);
    return -1;
  }
  size_t got = fread(t->data, 1, (size_t)bytes + 1, f);
  fclose(f);
  if ((int64_t)got != bytes) {
    fprintf(stderr, "%s: %s: %lld data bytes, expected %lld\n", prog, path,
            (long long)got, (long long)bytes);
    free(t->data);
    return -1;
  }
  return 0;
}

static int parse_type(const char *s, uint32_t *t) {
  for (uint32_t i = 0; i < 4; ++i)
    if (strcmp(s, tname(i)) == 0) {
      *t = i;
      return 0;
    }
  return -1;
}

static int parse_shape(const char *s, tensor *t) {
  t->ndims = 0;
  t->count = 1;
  if (strcmp(s, "scalar") == 0)
    return 0;
  while (*s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || v < 1 || t->ndims == DISTRT_MAX_DIMS ||
        t->count > ((int64_t)1 << 40) / v)
      return -1;
    t->shape[t->ndims++] = v;
    t->count *= v;
    s = end;
    if (*s == 'x')
      ++s;
    else if (*s)
      return -1;
  }
  return t->ndims ? 0 : -1;
}

static const char *shape_str(const tensor *t) {
  static char buf[DISTRT_MAX_DIMS * 24 + 8];
  int n = 0;
  if (t->ndims == 0)
    snprintf(buf, sizeof buf, "scalar");
  for (uint32_t d = 0; d < t->ndims; ++d)
    n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%lld", d ? "x" : "",
                  (long long)t->shape[d]);
  return buf;
}

static int host_big_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 0;
}

/* Reverses the bytes of each of n elements of size es (little-endian input
 * on a big-endian host: files are written in the host's order). */
static void swap_bytes(void *data, int64_t n, int64_t es) {
  unsigned char *p = data;
  for (int64_t i = 0; i < n; ++i, p += es)
    for (int64_t a = 0, b = es - 1; a < b; ++a, --b) {
      unsigned char c = p[a];
      p[a] = p[b];
      p[b] = c;
    }
}

/* Writes t to path through a temporary file in the same directory and a
 * rename, so that an error leaves path as it was. */
static int write_tensor(const char *path, const tensor *t) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (!tmp) {
    fprintf(stderr, "%s: out of memory\n", prog);
    return -1;
  }
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp.XXXXXX", 12);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
    free(tmp);
    return -1;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  unsigned char h[FIXED];
  uint32_t fld[4] = {1, 0x01020304u, t->dtype, t->ndims};
  memcpy(h, MAGIC, 8);
  memcpy(h + 8, fld, sizeof fld);
  int ok = f && fwrite(h, 1, FIXED, f) == FIXED &&
           fwrite(t->shape, 8, t->ndims, f) == t->ndims &&
           (int64_t)fwrite(t->data, (size_t)esize(t->dtype), (size_t)t->count,
                           f) == t->count;
  int err = errno;
  if (f) {
    if (fclose(f) != 0 && ok) {
      ok = 0;
      err = errno;
    }
  } else {
    close(fd);
  }
  if (ok && rename(tmp, path) != 0) {
    ok = 0;
    err = errno;
  }
  if (!ok) {
    unlink(tmp);
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(err));
  }
  free(tmp);
  return ok ? 0 : -1;
}

/* Reads a whole input file into a NUL-terminated buffer. */
static char *read_all(const char *path, int64_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return NULL;
  }
  int64_t cap = 1 << 16, len = 0;
  char *buf = malloc((size_t)cap + 1);
  while (buf) {
    size_t got = fread(buf + len, 1, (size_t)(cap - len), f);
    len += (int64_t)got;
    if (len < cap)
      break;
    cap *= 2;
    char *nb = realloc(buf, (size_t)cap + 1);
    if (!nb)
      free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    fprintf(stderr, "%s: %s: %s\n", prog, path,
            buf ? "read error" : "out of memory");
    free(buf);
    return NULL;
  }
  buf[len] = 0;
  *size = len;
  return buf;
}

static int alloc_data(tensor *t) {
  t->data = malloc((size_t)(t->count * esize(t->dtype)) + 1);
  if (!t->data)
    fprintf(stderr, "%s: out of memory\n", prog);
  return t->data ? 0 : -1;
}

static int from_raw(const char *out, tensor *t, const char *path) {
  int64_t size;
  char *buf = read_all(path, &size);
  if (!buf)
    return 1;
  int64_t want = t->count * esize(t->dtype);
  if (size != want) {
    fprintf(stderr,
            "%s: %s: %lld bytes, expected %lld (%lld %s elements of %lld "
            "bytes)\n",
            prog, path, (long long)size, (long long)want, (long long)t->count,
            tname(t->dtype), (long long)esize(t->dtype));
    free(buf);
    return 1;
  }
  t->data = buf;
  if (host_big_endian())
    swap_bytes(t->data, t->count, esize(t->dtype));
  int rc = write_tensor(out, t) ? 1 : 0;
  free(buf);
  return rc;
}

/* Parses one number of a CSV file into element i of t; the token is
 * [s, e). Prints the problem (with line and column) and returns -1. */
static int csv_number(tensor *t, int64_t i, const char *s, const char *e,
                      const char *path, int64_t line, int64_t col) {
  char tok[128];
  size_t n = (size_t)(e - s);
  if (n >= sizeof tok) {
    fprintf(stderr, "%s: %s:%lld:%lld: bad number '%.20s...'\n", prog, path,
            (long long)line, (long long)col, s);
    return -1;
  }
  memcpy(tok, s, n);
  tok[n] = 0;
  char *end;
  errno = 0;
  if (t->dtype == 0 || t->dtype == 1) {
    double v = strtod(tok, &end);
    if (end == tok || *end) {
      fprintf(stderr, "%s: %s:%lld:%lld: bad number '%s'\n", prog, path,
              (long long)line, (long long)col, tok);
      return -1;
    }
    if (t->dtype == 0)
      ((float *)t->data)[i] = (float)v;
    else
      ((double *)t->data)[i] = v;
    return 0;
  }
  long long v = strtoll(tok, &end, 10);
  if (end == tok || *end) {
    fprintf(stderr, "%s: %s:%lld:%lld: bad number '%s' (%s needs an "
                    "integer)\n",
            prog, path, (long long)line, (long long)col, tok,
            tname(t->dtype));
    return -1;
  }
  if (errno == ERANGE ||
      (t->dtype == 2 && (v < INT32_MIN || v > INT32_MAX))) {
    fprintf(stderr, "%s: %s:%lld:%lld: %s is out of the range of %s\n", prog,
            path, (long long)line, (long long)col, tok, tname(t->dtype));
    return -1;
  }
  if (t->dtype == 2)
    ((int32_t *)t->data)[i] = (int32_t)v;
  else
    ((int64_t *)t->data)[i] = (int64_t)v;
  return 0;
}

static int from_csv(const char *out, tensor *t, const char *path) {
  int64_t size;
  char *buf = read_all(path, &size);
  if (!buf)
    return 1;
  if (alloc_data(t)) {
    free(buf);
    return 1;
  }
  int rc = 1;
  int64_t n = 0, line = 1;
  const char *p = buf, *bol = buf, *end = buf + size;
  /* 1 after a comma: a second comma before a number is an empty field. */
  int after_comma = 0;
  while (p < end) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
      continue;
    }
    if (c == '\n') {
      ++line;
      bol = ++p;
      after_comma = 0;
      continue;
    }
    if (c == ',') {
      if (after_comma || p == bol ||
          strspn(bol, " \t\r") >= (size_t)(p - bol)) {
        fprintf(stderr, "%s: %s:%lld:%lld: empty field (two commas, or a "
                        "comma at the start of a line)\n",
                prog, path, (long long)line, (long long)(p - bol + 1));
        goto done;
      }
      after_comma = 1;
      ++p;
      continue;
    }
    const char *s = p;
    while (p < end && *p != ',' && *p != '\n' && *p != ' ' && *p != '\t' &&
           *p != '\r')
      ++p;
    int64_t col = s - bol + 1;
    if (n == t->count) {
      fprintf(stderr, "%s: %s:%lld:%lld: more than the %lld numbers that "
                      "shape %s needs\n",
              prog, path, (long long)line, (long long)col,
              (long long)t->count, shape_str(t));
      goto done;
    }
    if (csv_number(t, n, s, p, path, line, col))
      goto done;
    ++n;
    /* After a number: blanks, then a comma, a line break or the end. */
    const char *te = p;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
      ++p;
    if (p < end && *p != ',' && *p != '\n') {
      fprintf(stderr, "%s: %s:%lld:%lld: expected ',' or a line break "
                      "after '%.*s'\n",
              prog, path, (long long)line, (long long)(p - bol + 1),
              (int)(te - s), s);
      goto done;
    }
    after_comma = 0;
  }
  if (n != t->count) {
    fprintf(stderr, "%s: %s: %lld numbers, expected %lld for shape %s\n",
            prog, path, (long long)n, (long long)t->count, shape_str(t));
    goto done;
  }
  rc = write_tensor(out, t) ? 1 : 0;
done:
  free(buf);
  free(t->data);
  return rc;
}

/* The value of 'key' in a .npy header dictionary: a pointer just past the
 * colon (blanks skipped), or NULL. */
static const char *npy_value(const char *hdr, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "'%s'", key);
  const char *k = strstr(hdr, pat);
  if (!k)
    return NULL;
  k += strlen(pat);
  while (*k == ' ')
    ++k;
  if (*k != ':')
    return NULL;
  ++k;
  while (*k == ' ')
    ++k;
  return k;
}

static int from_npy(const char *out, const char *path) {
  int64_t size;
  char *buf = read_all(path, &size);
  if (!buf)
    return 1;
  int rc = 1;
  tensor t;
  const unsigned char *u = (const unsigned char *)buf;
  if (size < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
    fprintf(stderr, "%s: %s: not a NumPy .npy file (no \\x93NUMPY magic)\n",
            prog, path);
    goto done;
  }
  if (u[6] != 1 && u[6] != 2) {
    fprintf(stderr, "%s: %s: .npy format version %u.%u is not supported "
                    "(1.0 and 2.0 are)\n",
            prog, path, u[6], u[7]);
    goto done;
  }
  int64_t hlen, start;
  if (u[6] == 1) {
    hlen = u[8] | (int64_t)u[9] << 8;
    start = 10;
  } else {
    if (size < 12) {
      fprintf(stderr, "%s: %s: truncated .npy header\n", prog, path);
      goto done;
    }
    hlen = u[8] | (int64_t)u[9] << 8 | (int64_t)u[10] << 16 |
           (int64_t)u[11] << 24;
    start = 12;
  }
  if (start + hlen > size) {
    fprintf(stderr, "%s: %s: truncated .npy header (%lld bytes, the file has "
                    "%lld after the preamble)\n",
            prog, path, (long long)hlen, (long long)(size - start));
    goto done;
  }
  char *hdr = buf + start;
  char saved = hdr[hlen];
  hdr[hlen] = 0;
  const char *descr = npy_value(hdr, "descr");
  const char *fortran = npy_value(hdr, "fortran_order");
  const char *shape = npy_value(hdr, "shape");
  if (!descr || !fortran || !shape || *descr != '\'' || *shape != '(') {
    fprintf(stderr, "%s: %s: malformed .npy header: %s\n", prog, path, hdr);
    goto done;
  }
  const char *dq = strchr(descr + 1, '\'');
  char dt[16] = "";
  if (!dq || dq - descr - 1 >= (long)sizeof dt) {
    fprintf(stderr, "%s: %s: malformed .npy header: %s\n", prog, path, hdr);
    goto done;
  }
  memcpy(dt, descr + 1, (size_t)(dq - descr - 1));
  static const char *descrs[] = {"<f4", "<f8", "<i4", "<i8"};
  t.dtype = 4;
  for (uint32_t i = 0; i < 4; ++i)
    if (strcmp(dt, descrs[i]) == 0)
      t.dtype = i;
  if (t.dtype == 4) {
    if (dt[0] == '>' && (strcmp(dt + 1, "f8") == 0 ||
                         strcmp(dt + 1, "f4") == 0 ||
                         strcmp(dt + 1, "i8") == 0 ||
                         strcmp(dt + 1, "i4") == 0))
      fprintf(stderr, "%s: %s: big-endian data ('%s') is not supported; "
                      "convert it with a.astype('<%s')\n",
              prog, path, dt, dt + 1);
    else
      fprintf(stderr, "%s: %s: dtype '%s' is not supported (use <f8, <f4, "
                      "<i8 or <i4: f64, f32, i64 or i32)\n",
              prog, path, dt);
    goto done;
  }
  if (strncmp(fortran, "False", 5) != 0) {
    fprintf(stderr, "%s: %s: the array is in Fortran (column-major) order; "
                    "save it in C order (numpy.ascontiguousarray)\n",
            prog, path);
    goto done;
  }
  t.ndims = 0;
  t.count = 1;
  const char *s = shape + 1;
  for (;;) {
    while (*s == ' ' || *s == ',')
      ++s;
    if (*s == ')')
      break;
    char *e;
    errno = 0;
    long long v = strtoll(s, &e, 10);
    if (e == s || errno || v < 0) {
      fprintf(stderr, "%s: %s: malformed .npy shape: %s\n", prog, path, hdr);
      goto done;
    }
    if (v == 0) {
      fprintf(stderr, "%s: %s: the array is empty (an extent is 0); tensor "
                      "files need extents of at least 1\n",
              prog, path);
      goto done;
    }
    if (t.ndims == DISTRT_MAX_DIMS) {
      fprintf(stderr, "%s: %s: more than %d dimensions\n", prog, path,
              DISTRT_MAX_DIMS);
      goto done;
    }
    if (t.count > ((int64_t)1 << 40) / v) {
      fprintf(stderr, "%s: %s: too many elements\n", prog, path);
      goto done;
    }
    t.shape[t.ndims++] = v;
    t.count *= v;
    s = e;
  }
  hdr[hlen] = saved;
  int64_t want = t.count * esize(t.dtype);
  int64_t have = size - start - hlen;
  if (have != want) {
    fprintf(stderr, "%s: %s: %lld data bytes, expected %lld (shape %s of "
                    "%s)\n",
            prog, path, (long long)have, (long long)want, shape_str(&t), dt);
    goto done;
  }
  t.data = buf + start + hlen;
  if (host_big_endian())
    swap_bytes(t.data, t.count, esize(t.dtype));
  rc = write_tensor(out, &t) ? 1 : 0;
done:
  free(buf);
  return rc;
}

/* Type and shape, then one row (the last dimension) a line; from 3
 * dimensions on, one block per index of the leading dimensions, headed
 * [i,j,:,:] and separated by blank lines. */
static void print_tensor(const tensor *t) {
  printf("%s %s\n", tname(t->dtype), shape_str(t));
  int64_t row = t->ndims ? t->shape[t->ndims - 1] : 1;
  int64_t block = t->ndims >= 2 ? row * t->shape[t->ndims - 2] : t->count;
  for (int64_t b = 0; b < t->count / block; ++b) {
    if (t->ndims >= 3) {
      int64_t idx[DISTRT_MAX_DIMS], r = b;
      for (int d = (int)t->ndims - 3; d >= 0; --d) {
        idx[d] = r % t->shape[d];
        r /= t->shape[d];
      }
      printf("%s[", b ? "\n" : "");
      for (uint32_t d = 0; d + 2 < t->ndims; ++d)
        printf("%lld,", (long long)idx[d]);
      printf(":,:]\n");
    }
    for (int64_t i = b * block; i < (b + 1) * block; ++i)
      printf((i + 1) % row ? "%.17g " : "%.17g\n", get(t, i));
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                    strcmp(argv[1], "--help") == 0 ||
                    strcmp(argv[1], "help") == 0)) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (argc < 3)
    return usage();
  const char *cmd = argv[1];
  if (strcmp(cmd, "fill") == 0 || strcmp(cmd, "from-raw") == 0 ||
      strcmp(cmd, "from-csv") == 0) {
    if (argc != 6)
      return bad_usage("%s needs FILE TYPE SHAPE and one more argument", cmd);
    tensor t;
    if (parse_type(argv[3], &t.dtype))
      return bad_usage("bad TYPE '%s' (f32, f64, i32 or i64)", argv[3]);
    if (parse_shape(argv[4], &t))
      return bad_usage("bad SHAPE '%s' (like 4x3, or scalar)", argv[4]);
    if (cmd[0] == 'f' && cmd[1] == 'r')
      return cmd[5] == 'r' ? from_raw(argv[2], &t, argv[5])
                           : from_csv(argv[2], &t, argv[5]);
    char *end;
    long long seed = strtoll(argv[5], &end, 10);
    if (*end || end == argv[5])
      return bad_usage("bad SEED '%s' (an integer)", argv[5]);
    if (alloc_data(&t))
      return 1;
    for (int64_t i = 0; i < t.count; ++i)
      set(&t, i, distrt_value(seed, i));
    int rc = write_tensor(argv[2], &t) ? 1 : 0;
    free(t.data);
    return rc;
  }
  if (strcmp(cmd, "from-npy") == 0) {
    if (argc != 4)
      return bad_usage("%s needs FILE NPYFILE", cmd);
    return from_npy(argv[2], argv[3]);
  }
  if (strcmp(cmd, "info") == 0 || strcmp(cmd, "print") == 0) {
    tensor t;
    if (argc != 3)
      return usage();
    if (read_tensor(argv[2], &t))
      return 1;
    if (cmd[0] == 'i')
      printf("%s: %s %s (%lld elements)\n", argv[2], tname(t.dtype),
             shape_str(&t), (long long)t.count);
    else
      print_tensor(&t);
    free(t.data);
    return 0;
  }
  if (strcmp(cmd, "check-fill") == 0) {
    tensor t;
    if (argc != 4)
      return usage();
    char *end;
    long long seed = strtoll(argv[3], &end, 10);
    if (*end)
      return usage();
    if (read_tensor(argv[2], &t))
      return 1;
    tensor ref = t;
    ref.data = malloc((size_t)(t.count * esize(t.dtype)) + 1);
    if (!ref.data)
      return 1;
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < t.count; ++i) {
      set(&ref, i, distrt_value(seed, i));
      if (memcmp((char *)ref.data + i * esize(t.dtype),
                 (char *)t.data + i * esize(t.dtype),
                 (size_t)esize(t.dtype)) != 0 && bad++ == 0)
        first = i;
    }
    if (bad)
      printf("%s: %s: %lld of %lld elements differ from fill seed %lld "
             "(first at linear index %lld: %.17g, expected %.17g): FAIL\n",
             prog, argv[2], (long long)bad, (long long)t.count, seed,
             (long long)first, get(&t, first), get(&ref, first));
    else
      printf("%s: %s: all %lld elements match fill seed %lld: PASS\n", prog,
             argv[2], (long long)t.count, seed);
    free(ref.data);
    free(t.data);
    return bad ? 1 : 0;
  }
  if (strcmp(cmd, "compare") == 0) {
    if (argc != 4 && argc != 5)
      return usage();
    double tol = argc == 5 ? strtod(argv[4], NULL) : 0.0;
    tensor a, b;
    if (read_tensor(argv[2], &a))
      return 1;
    if (read_tensor(argv[3], &b)) {
      free(a.data);
      return 1;
    }
    int same = a.dtype == b.dtype && a.ndims == b.ndims;
    for (uint32_t d = 0; same && d < a.ndims; ++d)
      same = a.shape[d] == b.shape[d];
    if (!same) {
      printf("%s: %s and %s differ in type or shape: FAIL\n", prog, argv[2],
             argv[3]);
      free(a.data);
      free(b.data);
      return 1;
    }
    double err = distrt_max_rel_error(a.data, b.data, a.count, a.dtype);
    int pass = err <= tol;
    printf("%s: max relative error %.3e (tolerance %.1e): %s\n", prog, err,
           tol, pass ? "PASS" : "FAIL");
    free(a.data);
    free(b.data);
    return pass ? 0 : 1;
  }
  return bad_usage("unknown command '%s'", cmd);
}
