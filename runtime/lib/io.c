/*===- io.c - distrt tensor files: load and store by layout ------*- C -*-===*
 *
 * A dist tensor file holds one dense tensor, row-major, after a header
 * (all integers in the writer's byte order, which must be the reader's):
 *
 *   offset  size  field
 *        0     8  magic "DISTTNSR"
 *        8     4  version (uint32, 1)
 *       12     4  byte-order mark (uint32 0x01020304)
 *       16     4  element type (uint32: 0 f32, 1 f64, 2 i32, 3 i64)
 *       20     4  rank (uint32, 0 .. 8)
 *       24  8*r   shape (int64 per dimension, each >= 1)
 *   24+8*r        elements, row-major, 4 or 8 bytes each
 *
 * The file has exactly 24 + 8 * rank + elements * element_size bytes.
 *
 * A path ending in ".npy" (any case) selects NumPy's format instead: npy.c
 * checks and writes its header; the elements are read and written here
 * the same way, from the offset the header ends at (a column-major file
 * is read by distrt_npy_load_fortran).
 *
 * distrt_layout_load: every process opens the file, checks the header and
 * the size against the tensor it expects, then reads its own tile with
 * pread (one call per contiguous run of the last dimension, or one span per
 * row for small cyclic blocks).  distrt_layout_store: grid rank 0 creates
 * PATH.partial with the header and the full size, every element is written
 * once with pwrite by its "writer" holder (coordinate 0 on replicated axes),
 * and rank 0 renames the file to PATH once all have finished.
 *
 * Errors: a process that finds a problem does not abort on its own at once;
 * the processes first agree (one all-reduce over the grid) on the lowest
 * rank that failed, which prints the one fatal line
 *   distrt: fatal: rank R of N: dist.load: FILE: CAUSE
 * and aborts the job, so a missing file gives one message, not N.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DISTRT_FILE_MAGIC "DISTTNSR"
#define DISTRT_FILE_VERSION 1u
#define DISTRT_FILE_BOM 0x01020304u
#define DISTRT_FILE_FIXED 24

void io_fail(io_err *e, const char *fmt, ...) {
  if (e->failed)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  e->failed = 1;
}

const char *io_shape_str(char *buf, size_t n, int64_t ndims,
                         const int64_t *shape) {
  if (ndims == 0) {
    snprintf(buf, n, "scalar");
    return buf;
  }
  size_t len = 0;
  buf[0] = '\0';
  for (int64_t d = 0; d < ndims && len < n; ++d)
    len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? "x" : "",
                            (long long)shape[d]);
  return buf;
}

/* The processes agree on the lowest rank with an error; that rank reports
 * and aborts the job, the others wait for the abort. */
static void agree(const char *op, distrt_grid *g, const char *path,
                  const io_err *e) {
  int64_t first[1] = {e->failed ? g->rank : g->size};
  distrt_g.be->allreduce(op, g->icomm, first, 1, DISTRT_I64, DISTRT_MIN);
  if (first[0] >= g->size)
    return;
  if (first[0] == g->rank)
    distrt_fatal(op, "%s: %s", path, e->msg);
  /* Rank first[0] is aborting the job; should that take unusually long,
   * say so here too. */
  struct timespec ts = {10, 0};
  nanosleep(&ts, NULL);
  distrt_fatal(op, "%s: rank %lld could not access the file (see its message)",
               path, (long long)first[0]);
}

/* Full pread / pwrite; 0 on success, else sets e. */
int io_read_at(int fd, void *buf, int64_t bytes, int64_t off, io_err *e,
               int64_t file_size) {
  char *p = (char *)buf;
  while (bytes > 0) {
    ssize_t r = pread(fd, p, (size_t)bytes, (off_t)off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      io_fail(e, "read error at byte %lld: %s", (long long)off,
              strerror(errno));
      return -1;
    }
    if (r == 0) {
      io_fail(e,
              "unexpected end of file at byte %lld (the file has %lld bytes; "
              "was it changed while being read?)",
              (long long)off, (long long)file_size);
      return -1;
    }
    p += r;
    off += r;
    bytes -= r;
  }
  return 0;
}

static int write_at(int fd, const void *buf, int64_t bytes, int64_t off,
                    io_err *e) {
  const char *p = (const char *)buf;
  while (bytes > 0) {
    ssize_t w = pwrite(fd, p, (size_t)bytes, (off_t)off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      io_fail(e, "write error at byte %lld: %s", (long long)off,
              w < 0 ? strerror(errno) : "no progress");
      return -1;
    }
    p += w;
    off += w;
    bytes -= w;
  }
  return 0;
}

static int64_t header_bytes(int64_t ndims) {
  return DISTRT_FILE_FIXED + 8 * ndims;
}

static void make_header(unsigned char *h, int64_t dtype,
                        const struct distrt_tile_view *v) {
  uint32_t f[4] = {DISTRT_FILE_VERSION, DISTRT_FILE_BOM, (uint32_t)dtype,
                   (uint32_t)v->ndims};
  memcpy(h, DISTRT_FILE_MAGIC, 8);
  memcpy(h + 8, f, sizeof f);
  memcpy(h + DISTRT_FILE_FIXED, v->n, (size_t)(8 * v->ndims));
}

/* The size of the open file, or -1 with e set if it is not a regular
 * file. */
static int64_t file_size(int fd, io_err *e) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    io_fail(e, "cannot stat the file: %s", strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    io_fail(e, "not a regular file");
    return -1;
  }
  return (int64_t)st.st_size;
}

/* Checks the header and size (`size` bytes) of the open file against the
 * tensor. */
static void check_header(int fd, int64_t size, int64_t dtype, int64_t es,
                         const struct distrt_tile_view *v, io_err *e) {
  unsigned char h[DISTRT_FILE_FIXED + 8 * DISTRT_MAX_DIMS];
  if (size < 8) {
    io_fail(e,
            "not a dist tensor file: it has %lld bytes, too few for the "
            "8-byte magic \"" DISTRT_FILE_MAGIC "\"",
            (long long)size);
    return;
  }
  if (io_read_at(fd, h, 8, 0, e, size) != 0)
    return;
  if (memcmp(h, DISTRT_FILE_MAGIC, 8) != 0) {
    char shown[40];
    size_t k = 0;
    for (int i = 0; i < 8; ++i) {
      if (h[i] >= 32 && h[i] < 127 && h[i] != '"' && h[i] != '\\')
        shown[k++] = (char)h[i];
      else
        k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", h[i]);
    }
    shown[k] = '\0';
    io_fail(e,
            "not a dist tensor file: bad magic \"%s\" (expected \"" 
            DISTRT_FILE_MAGIC "\")",
            shown);
    return;
  }
  if (size < DISTRT_FILE_FIXED) {
    io_fail(e,
            "truncated: the file has %lld bytes, fewer than the %d of a "
            "header",
            (long long)size, DISTRT_FILE_FIXED);
    return;
  }
  if (io_read_at(fd, h + 8, DISTRT_FILE_FIXED - 8, 8, e, size) != 0)
    return;
  uint32_t f[4];
  memcpy(f, h + 8, sizeof f);
  if (f[1] != DISTRT_FILE_BOM) {
    io_fail(e,
            "written with another byte order (mark 0x%08x, expected "
            "0x%08x); convert it on a machine of the writer's byte order",
            f[1], DISTRT_FILE_BOM);
    return;
  }
  if (f[0] != DISTRT_FILE_VERSION) {
    io_fail(e, "unsupported file version %u (this runtime reads version %u)",
            f[0], DISTRT_FILE_VERSION);
    return;
  }
  if (f[2] > DISTRT_I64) {
    io_fail(e, "invalid element type code %u in the header", f[2]);
    return;
  }
  if ((int64_t)f[2] != dtype) {
    io_fail(e, "wrong element type: the file holds %s elements, the tensor "
               "is %s",
            distrt_dtype_name((int64_t)f[2]), distrt_dtype_name(dtype));
    return;
  }
  char want[256], got[256];
  io_shape_str(want, sizeof want, v->ndims, v->n);
  if (f[3] > DISTRT_MAX_DIMS) {
    io_fail(e, "invalid rank %u in the header (at most %d)", f[3],
            DISTRT_MAX_DIMS);
    return;
  }
  int64_t ndims = (int64_t)f[3];
  if (size < header_bytes(ndims)) {
    io_fail(e,
            "truncated: the file has %lld bytes, fewer than the %lld of the "
            "header of a rank-%lld tensor",
            (long long)size, (long long)header_bytes(ndims), (long long)ndims);
    return;
  }
  int64_t shape[DISTRT_MAX_DIMS];
  if (ndims > 0 &&
      io_read_at(fd, shape, 8 * ndims, DISTRT_FILE_FIXED, e, size) != 0)
    return;
  int bad_shape = ndims != v->ndims;
  for (int64_t d = 0; d < ndims && !bad_shape; ++d)
    bad_shape = shape[d] != v->n[d];
  if (bad_shape) {
    for (int64_t d = 0; d < ndims; ++d)
      if (shape[d] < 1) {
        io_fail(e, "invalid extent %lld of dimension %lld in the header",
                (long long)shape[d], (long long)d);
        return;
      }
    io_fail(e,
            "wrong shape: the file holds a %s %s tensor, the tensor is %s %s",
            io_shape_str(got, sizeof got, ndims, shape),
            distrt_dtype_name(dtype), want, distrt_dtype_name(dtype));
    return;
  }
  int64_t expected = header_bytes(ndims) + v->elements * es;
  if (size < expected) {
    int64_t have = (size - header_bytes(ndims)) / es;
    io_fail(e,
            "truncated: the file has %lld bytes, but a %s %s tensor file has "
            "%lld (%lld of %lld elements present)",
            (long long)size, want, distrt_dtype_name(dtype),
            (long long)expected, (long long)have, (long long)v->elements);
    return;
  }
  if (size > expected)
    io_fail(e,
            "the file has %lld bytes, %lld more than the %lld of a %s %s "
            "tensor file (trailing data)",
            (long long)size, (long long)(size - expected), (long long)expected,
            want, distrt_dtype_name(dtype));
}

/* Calls fn for every row of this process's tile: `local` is the tile
 * offset of the row's first element, `grow` the file element index of
 * global element (row's global indices, 0) and the last dimension's
 * parameters are in v. */
typedef int (*row_fn)(void *ctx, int64_t local, int64_t grow);

static int for_each_row(const struct distrt_tile_view *v, row_fn fn,
                        void *ctx) {
  if (v->size == 0)
    return 0;
  if (v->ndims == 0)
    return fn(ctx, 0, 0);
  int64_t last = v->ndims - 1;
  int64_t rows = v->size / v->ext[last];
  int64_t l[DISTRT_MAX_DIMS] = {0};
  for (int64_t r = 0; r < rows; ++r) {
    int64_t grow = 0;
    for (int64_t d = 0; d < last; ++d)
      grow = grow * v->n[d] +
             distrt_local_to_global(l[d], v->p[d], v->c[d], v->b[d]);
    grow *= v->n[last];
    if (fn(ctx, r * v->ext[last], grow) != 0)
      return -1;
    for (int64_t d = last - 1; d >= 0; --d) {
      if (++l[d] < v->ext[d])
        break;
      l[d] = 0;
    }
  }
  return 0;
}

typedef struct {
  const struct distrt_tile_view *v;
  int fd;
  char *tile;
  int64_t es, data_off, file_size;
  char *span; /* row scratch for small blocks (load) */
  io_err *e;
} io_ctx;

static int load_row(void *p, int64_t local, int64_t grow) {
  io_ctx *x = (io_ctx *)p;
  const struct distrt_tile_view *v = x->v;
  if (v->ndims == 0)
    return io_read_at(x->fd, x->tile, x->es, x->data_off, x->e, x->file_size);
  int64_t last = v->ndims - 1, ext = v->ext[last];
  int64_t P = v->p[last], C = v->c[last], B = v->b[last];
  char *dst = x->tile + local * x->es;
  if (x->span) {
    /* Small blocks: read the row's span once, pick the local elements. */
    int64_t g0 = distrt_local_to_global(0, P, C, B);
    int64_t g1 = distrt_local_to_global(ext - 1, P, C, B);
    if (io_read_at(x->fd, x->span, (g1 - g0 + 1) * x->es,
                   x->data_off + (grow + g0) * x->es, x->e, x->file_size) != 0)
      return -1;
    for (int64_t i = 0; i < ext; ++i)
      memcpy(dst + i * x->es,
             x->span + (distrt_local_to_global(i, P, C, B) - g0) * x->es,
             (size_t)x->es);
    return 0;
  }
  for (int64_t i = 0; i < ext;) {
    int64_t run = B - i % B;
    if (run > ext - i)
      run = ext - i;
    int64_t gi = distrt_local_to_global(i, P, C, B);
    if (io_read_at(x->fd, dst + i * x->es, run * x->es,
                   x->data_off + (grow + gi) * x->es, x->e, x->file_size) != 0)
      return -1;
    i += run;
  }
  return 0;
}

static int store_row(void *p, int64_t local, int64_t grow) {
  io_ctx *x = (io_ctx *)p;
  const struct distrt_tile_view *v = x->v;
  if (v->ndims == 0)
    return write_at(x->fd, x->tile, x->es, x->data_off, x->e);
  int64_t last = v->ndims - 1, ext = v->ext[last];
  int64_t P = v->p[last], C = v->c[last], B = v->b[last];
  const char *src = x->tile + local * x->es;
  for (int64_t i = 0; i < ext;) {
    int64_t run = B - i % B;
    if (run > ext - i)
      run = ext - i;
    int64_t gi = distrt_local_to_global(i, P, C, B);
    if (write_at(x->fd, src + i * x->es, run * x->es,
                 x->data_off + (grow + gi) * x->es, x->e) != 0)
      return -1;
    i += run;
  }
  return 0;
}

/* The checks both directions start with: grid, type, path and tile; fills
 * `v` with the rank's tile view and returns the element size. */
static int64_t io_begin(const char *op, distrt_grid *g, const int64_t *desc,
                        const void *tile, int64_t dtype, const char *path,
                        struct distrt_tile_view *v) {
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  if (!path || !*path)
    distrt_fatal(op, "the file path is NULL or empty");
  distrt_layout_view(op, g, desc, v);
  if (v->size > 0)
    distrt_check_buf(op, "tile", tile, v->size);
  return es;
}

static void layout_load_host(distrt_grid *g, const int64_t *desc, void *tile,
                             int64_t dtype, const char *path) {
  const char *op = "dist.load";
  struct distrt_tile_view v;
  int64_t es = io_begin(op, g, desc, tile, dtype, path, &v);

  /* A .npy file (NumPy's format, npy.c) or a dist tensor file. */
  int npy = distrt_npy_path(path), fortran = 0;
  io_err e = {{0}, 0};
  io_ctx x = {&v, -1, (char *)tile, es, header_bytes(v.ndims), 0, NULL, &e};
  x.fd = open(path, O_RDONLY);
  if (x.fd < 0)
    io_fail(&e, "cannot open the file: %s", strerror(errno));
  else
    x.file_size = file_size(x.fd, &e);
  if (!e.failed && npy)
    distrt_npy_check(x.fd, x.file_size, dtype, es, &v, &e, &x.data_off,
                     &fortran);
  else if (!e.failed)
    check_header(x.fd, x.file_size, dtype, es, &v, &e);
  agree(op, g, path, &e);

  int rc;
  if (fortran && v.ndims >= 2) {
    rc = distrt_npy_load_fortran(x.fd, &v, x.tile, es, x.data_off, x.file_size,
                                 &e);
  } else {
    if (v.ndims > 0 && v.size > 0 && v.b[v.ndims - 1] < DISTRT_IO_SPAN_BLOCK &&
        v.p[v.ndims - 1] > 1) {
      x.span = (char *)malloc((size_t)(v.n[v.ndims - 1] * es));
      if (!x.span)
        distrt_fatal(op, "%s: cannot allocate %lld bytes for a row buffer",
                     path, (long long)(v.n[v.ndims - 1] * es));
    }
    rc = for_each_row(&v, load_row, &x);
    free(x.span);
  }
  close(x.fd);
  if (rc != 0)
    distrt_fatal(op, "%s: %s", path, e.msg);
}

static void layout_store_host(distrt_grid *g, const int64_t *desc,
                              const void *tile, int64_t dtype,
                              const char *path) {
  const char *op = "dist.store";
  struct distrt_tile_view v;
  int64_t es = io_begin(op, g, desc, tile, dtype, path, &v);
  /* The header: NumPy's for a .npy path (npy.c), else the dist format
   * (at most 24 + 8 * 8 bytes). */
  unsigned char h[DISTRT_NPY_HEADER_MAX];
  int64_t hb;
  if (distrt_npy_path(path)) {
    if (!distrt_npy_host_ok())
      distrt_fatal(op, "%s: only little-endian hosts write .npy files", path);
    hb = distrt_npy_header(h, dtype, &v);
  } else {
    hb = header_bytes(v.ndims);
    make_header(h, dtype, &v);
  }
  int64_t total = distrt_mul(op, "the file size", v.elements, es);
  if (total > INT64_MAX - hb)
    distrt_fatal(op, "%s: the file would exceed 2^63 bytes", path);
  total += hb;

  size_t plen = strlen(path);
  char *partial = (char *)malloc(plen + sizeof ".partial");
  if (!partial)
    distrt_fatal(op, "%s: out of memory", path);
  memcpy(partial, path, plen);
  memcpy(partial + plen, ".partial", sizeof ".partial");

  /* 1. rank 0 creates the file: header, full size. */
  io_err e = {{0}, 0};
  int fd = -1;
  if (g->rank == 0) {
    fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      io_fail(&e, "cannot create %s: %s", partial, strerror(errno));
    } else {
      if (write_at(fd, h, hb, 0, &e) == 0 &&
          ftruncate(fd, (off_t)total) != 0)
        io_fail(&e, "cannot extend %s to %lld bytes: %s", partial,
                (long long)total, strerror(errno));
    }
  }
  agree(op, g, path, &e);

  /* 2. every writer writes its elements. */
  if (fd < 0 && v.writer) {
    fd = open(partial, O_WRONLY);
    if (fd < 0)
      io_fail(&e, "cannot open %s for writing: %s", partial,
              strerror(errno));
  }
  if (fd >= 0 && v.writer) {
    io_ctx x = {&v, fd, (char *)(uintptr_t)tile, es, hb, total, NULL, &e};
    (void)for_each_row(&v, store_row, &x);
  }
  if (fd >= 0 && close(fd) != 0)
    io_fail(&e, "error closing %s: %s", partial, strerror(errno));
  agree(op, g, path, &e);

  /* 3. rank 0 publishes the complete file. */
  if (g->rank == 0 && rename(partial, path) != 0)
    io_fail(&e, "cannot rename %s to the final name: %s", partial,
            strerror(errno));
  free(partial);
  agree(op, g, path, &e);
}

/* Device tiles are staged through a host copy (device_stage.c). */
void distrt_layout_load(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype, const char *path) {
  void *h = distrt_stage_tile_in("dist.load", g, desc, tile, dtype, 0);
  layout_load_host(g, desc, h, dtype, path);
  distrt_stage_tile_out("dist.load", g, desc, tile, h, dtype, 1);
}

void distrt_layout_store(distrt_grid *g, const int64_t *desc, const void *tile,
                         int64_t dtype, const char *path) {
  void *h = distrt_stage_tile_in("dist.store", g, desc, tile, dtype, 1);
  layout_store_host(g, desc, h, dtype, path);
  distrt_stage_tile_out("dist.store", g, desc, (void *)(uintptr_t)tile, h,
                        dtype, 0);
}
