/*===- distrt/sparse.h - dist runtime: sparse matrix / tensor files -*- C -*-===*
 *
 * AUDIENCE: C programs that load a sparse matrix or tensor from a text file
 * into a row-distributed coordinate (COO) form.  Nothing the compiler emits
 * calls these functions yet.
 *
 * Readers (each collective over the processes of `g`, or of the whole job
 * when `g` is NULL):
 *   distrt_coo_read_mm   MatrixMarket   coordinate | array,
 *                                       real | integer | pattern,
 *                                       general | symmetric
 *   distrt_coo_read_tns  FROSTT .tns    "i j k ... value" lines, 1-based
 *   distrt_coo_read_hb   Harwell-Boeing RUA, RSA, RRA, PUA, PSA, PRA
 *                                       (assembled, real or pattern)
 *
 * Partition: dimension 0 ("rows") is cut into contiguous blocks over the P
 * processes by rank: block = ceil(rows / P), rank r holds rows
 * [min(r * block, rows), min((r + 1) * block, rows)).  Each rank receives
 * every entry of its rows, sorted by coordinates (row-major, lexicographic
 * over the dimensions).  Symmetric files are expanded: every stored
 * off-diagonal entry (i, j) also appears as (j, i), so `coo` holds both
 * triangles.
 *
 * Errors (a missing or unreadable file, a bad or missing header, an
 * unsupported field / symmetry / format, a number that does not parse, a
 * coordinate out of range, an entry above the diagonal of a symmetric file,
 * a duplicate coordinate, fewer or more entries than the header announces)
 * end the whole job with one line
 *     distrt: fatal: rank R of N: <function>: <path>:<line>: <cause>
 * (":<line>" left out where no single line is at fault).  The processes
 * agree on the error first in file order, and the rank that found it
 * reports it.  See docs/runtime.md, "Sparse files".
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_SPARSE_H
#define DISTRT_SPARSE_H

#include "distrt.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** This process's share of a sparse matrix (order 2) or tensor. */
typedef struct distrt_coo {
  int64_t order;                 /* number of dimensions (2 for matrices) */
  int64_t dims[DISTRT_MAX_DIMS]; /* global extents */
  int64_t nnz;                   /* entries this process holds */
  int64_t *coords; /* nnz * order, 0-based, entry-major: entry k is
                      coords[k * order .. k * order + order) */
  double *values;  /* nnz values (1.0 for pattern files) */
  int64_t lo, hi;  /* this process holds dimension-0 indices [lo, hi) */
} distrt_coo;

/** Read a MatrixMarket file.  Every process reads its own byte range of the
 *  data lines; entries then go to their row owners in one all-to-all.
 *  `array` files give every element (zeros included), `pattern` files the
 *  value 1.0, `integer` files their values as doubles. */
void distrt_coo_read_mm(const char *path, distrt_grid *g, distrt_coo *coo);

/** Read a FROSTT .tns file: one entry a line, the 1-based indices then
 *  the value; `#` lines are comments.  With ndims = 0 and dims NULL, the
 *  order is the number of fields of the first entry line less one
 *  (1 .. DISTRT_MAX_DIMS) and the extents are the largest index of each
 *  mode.  Otherwise dims[0..ndims) are the extents: the file must have
 *  ndims indices a line, and an index beyond its extent is an error (a
 *  file with no entries then gives an empty tensor of that shape). */
void distrt_coo_read_tns(const char *path, distrt_grid *g, int64_t ndims,
                         const int64_t *dims, distrt_coo *coo);

/** Read a Harwell-Boeing file (assembled; real or pattern; unsymmetric,
 *  symmetric or rectangular).  Grid rank 0 parses the whole file (the
 *  column-compressed layout does not split by bytes) and sends each row to
 *  its owner. */
void distrt_coo_read_hb(const char *path, distrt_grid *g, distrt_coo *coo);

/** Free the arrays of `coo` and zero it.  NULL is a no-op. */
void distrt_coo_free(distrt_coo *coo);

#ifdef __cplusplus
}
#endif

#endif /* DISTRT_SPARSE_H */
