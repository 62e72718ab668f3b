/*===- io_internal.h - distrt internals: tensor file formats -----*- C -*-===*
 *
 * Not installed.  What io.c (dist.load / dist.store, the dist tensor file
 * format) and npy.c (NumPy .npy files) share: the error state a process
 * collects before the processes agree, full positioned reads and writes,
 * and the .npy header reader and writer that io.c dispatches to when the
 * path ends in ".npy".
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_IO_INTERNAL_H
#define DISTRT_IO_INTERNAL_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

/* Reads smaller than this many elements per block go through a row span. */
#define DISTRT_IO_SPAN_BLOCK 64

/* The first problem this process found with the file (one line, no path). */
typedef struct {
  char msg[1024];
  int failed;
} io_err;

/* Records the first error only. */
DISTRT_HIDDEN void io_fail(io_err *e, const char *fmt, ...) DISTRT_PRINTF(2, 3);
/* Full pread of `bytes` at `off` (0), or an error in e (-1); `file_size`
 * is for the message when the file ends early. */
DISTRT_HIDDEN int io_read_at(int fd, void *buf, int64_t bytes, int64_t off,
                             io_err *e, int64_t file_size);
/* "8x8" (or "scalar") into buf. */
DISTRT_HIDDEN const char *io_shape_str(char *buf, size_t n, int64_t ndims,
                                       const int64_t *shape);

/* npy.c.  1 if `path` ends in ".npy" (any case). */
DISTRT_HIDDEN int distrt_npy_path(const char *path);
/* Checks the open .npy file of `size` bytes (magic, version, header,
 * element type, shape and size) against the tensor of element type `dtype`
 * (es bytes) and extents v->n; on success sets *data_off to the offset of
 * the first element and *fortran to 1 for a column-major file. */
DISTRT_HIDDEN void distrt_npy_check(int fd, int64_t size, int64_t dtype,
                                    int64_t es,
                                    const struct distrt_tile_view *v, io_err *e,
                                    int64_t *data_off, int *fortran);
/* Reads this process's tile from a column-major (Fortran-order) file whose
 * elements start at `data_off`: only the process's own elements (or, for
 * blocks of fewer than DISTRT_IO_SPAN_BLOCK elements, the span of its
 * elements along the first dimension).  0, or -1 with e set. */
DISTRT_HIDDEN int distrt_npy_load_fortran(int fd,
                                          const struct distrt_tile_view *v,
                                          char *tile, int64_t es,
                                          int64_t data_off, int64_t file_size,
                                          io_err *e);

/* The longest header distrt_npy_header writes (a rank-8 one is < 256). */
#define DISTRT_NPY_HEADER_MAX 512
/* The header of a C-order .npy file of the tensor (version 1.0, padded
 * with blanks and a newline so that the elements start at a multiple of
 * 64 bytes, as numpy.save writes it) into h; returns its length. */
DISTRT_HIDDEN int64_t distrt_npy_header(unsigned char *h, int64_t dtype,
                                        const struct distrt_tile_view *v);
/* 1 on a little-endian host (the only kind that reads or writes .npy). */
DISTRT_HIDDEN int distrt_npy_host_ok(void);

#endif /* DISTRT_IO_INTERNAL_H */
