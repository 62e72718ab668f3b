/*===- sparse_text.c - distrt sparse files: byte ranges of lines --*- C -*-===*
 *
 * Text readers split the data part of a file by bytes, not by lines, so
 * that no process has to scan the whole file to find where its share
 * starts.  The bytes after the header, [data_off, size), are cut into P
 * nearly equal ranges; a process owns the lines whose FIRST byte lies in
 * its range.  It finds its first line by looking for the '\n' at or after
 * the byte before its range, and reads past the end of its range to finish
 * its last line.  Every line thus belongs to exactly one process whatever
 * the line lengths (a range inside one long line owns no line at all).
 *
 * Line numbers need the lines before a range: one all-gather of the line
 * counts (sp_prefix), after the parse, turns the local line indices into
 * file line numbers.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Full pread; the number of bytes read (short only at the end of the
 * file), or -1 with the error recorded. */
static int64_t read_at(sp_ctx *c, int fd, char *buf, int64_t n, int64_t off) {
  int64_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, buf + got, (size_t)(n - got), (off_t)(off + got));
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      sp_fail(c, 0, "read error at byte %lld: %s", (long long)(off + got),
              strerror(errno));
      return -1;
    }
    if (r == 0)
      break;
    got += r;
  }
  return got;
}

void sp_text_read(sp_ctx *c, FILE *f, int64_t data_off, sp_text *t) {
  memset(t, 0, sizeof *t);
  int fd = fileno(f);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    sp_fail(c, 0, "cannot stat the file: %s", strerror(errno));
    return;
  }
  int64_t size = (int64_t)st.st_size;
  int64_t len = size > data_off ? size - data_off : 0;
  int64_t q = len / c->size, rem = len % c->size, r = c->rank;
  int64_t s = data_off + q * r + (r < rem ? r : rem);
  int64_t e = s + q + (r < rem ? 1 : 0);
  if (s >= e)
    return;

  /* [s - 1, e), plus room for the tail of the last line. */
  int64_t cap = e - s + 2, n;
  char *buf = (char *)sp_alloc(c, cap);
  int64_t from = s > data_off ? s - 1 : s;
  n = read_at(c, fd, buf, e - from, from);
  if (n < 0) {
    free(buf);
    return;
  }
  int64_t start = 0; /* index in buf of the first line we own */
  if (from < s) {
    while (start < n && buf[start] != '\n')
      ++start;
    ++start; /* past the '\n' (or past the end: no line starts here) */
  }
  if (start >= e - from) { /* no line starts in [s, e) */
    free(buf);
    return;
  }
  /* Finish the last line: read on until a '\n' or the end of the file. */
  while (n > 0 && buf[n - 1] != '\n' && from + n < size) {
    if (n + 65536 + 1 > cap) {
      cap = 2 * cap + 65536 + 1;
      char *nb = (char *)realloc(buf, (size_t)cap);
      if (!nb)
        distrt_fatal(c->op, "%s: out of memory (%lld bytes)", c->path,
                     (long long)cap);
      buf = nb;
    }
    int64_t more = read_at(c, fd, buf + n, 65536, from + n);
    if (more <= 0)
      break;
    int64_t scan = n;
    n += more;
    while (scan < n && buf[scan] != '\n')
      ++scan;
    if (scan < n) {
      n = scan + 1; /* drop what follows: the next process's lines */
      break;
    }
  }
  memmove(buf, buf + start, (size_t)(n - start));
  n -= start;
  /* NUL-terminate every line; a stray NUL byte becomes \x01 so that it
   * fails to parse instead of cutting its line short. */
  int64_t lines = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (buf[i] == '\0')
      buf[i] = '\x01';
    else if (buf[i] == '\n') {
      buf[i] = '\0'; /* a '\r' before it stays: the tokens skip it */
      ++lines;
    }
  }
  if (n > 0 && buf[n - 1] != '\0') { /* last line without a '\n' */
    buf[n++] = '\0';
    ++lines;
  }
  t->buf = buf;
  t->len = n;
  t->nlines = lines;
}

char *sp_text_next(sp_text *t) {
  if (!t->buf || t->pos >= t->len)
    return NULL;
  char *line = t->buf + t->pos;
  t->pos += (int64_t)strlen(line) + 1; /* the NUL that replaced '\n' */
  return line;
}

void sp_prefix(sp_ctx *c, int64_t head_lines, int64_t nlines, int64_t mine,
               int64_t *lines_before, int64_t *entries_before,
               int64_t *total_entries) {
  int64_t P = c->size, send[2] = {nlines, mine};
  int64_t *all = (int64_t *)sp_alloc(c, 2 * P * 8);
  distrt_g.be->allgather(c->op, c->comm, send, all, 2, DISTRT_I64);
  int64_t lb = head_lines, eb = 0, et = 0;
  for (int64_t q = 0; q < P; ++q) {
    if (q < c->rank) {
      lb += all[2 * q];
      eb += all[2 * q + 1];
    }
    et += all[2 * q + 1];
  }
  free(all);
  if (lines_before)
    *lines_before = lb;
  if (entries_before)
    *entries_before = eb;
  if (total_entries)
    *total_entries = et;
}

/*===-- tokens -----------------------------------------------------------===*/

static int is_blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

int sp_next_token(char **p, char *tok, size_t n) {
  char *s = *p;
  while (is_blank(*s))
    ++s;
  if (*s == '\0') {
    *p = s;
    return 1;
  }
  size_t k = 0;
  int too_long = 0;
  while (*s != '\0' && !is_blank(*s)) {
    if (k + 1 < n)
      tok[k++] = *s;
    else
      too_long = 1;
    ++s;
  }
  tok[k] = '\0';
  if (too_long && n > 4) /* show that the token was cut */
    memcpy(tok + n - 4, "...", 4);
  *p = s;
  return too_long ? -1 : 0;
}

int sp_parse_int(const char *tok, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(tok, &end, 10);
  if (end == tok || *end != '\0' || errno == ERANGE)
    return -1;
  *v = (int64_t)x;
  return 0;
}

int sp_parse_real(const char *tok, double *v) {
  char *end;
  errno = 0;
  double x = strtod(tok, &end);
  /* ERANGE on underflow still gives a usable (tiny or zero) value. */
  if (end == tok || *end != '\0' || (errno == ERANGE && isinf(x)))
    return -1;
  *v = x;
  return 0;
}
