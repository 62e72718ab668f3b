/*===- onesided_internal.h - distrt internals of the one-sided GEMM -*- C
 *-*-===*
 *
 * Not installed.  distrt_onesided_matmul ("Slicing Is All You Need": one
 * universal one-sided algorithm) is split over
 *   onesided.c        the entry point: validation, the slices and this
 *                     process's cells, the final combination, the counter
 *   onesided_exec.c   running the cells: one-sided gets / accumulates with
 *                     prefetch, or the two-sided fallback
 *   onesided_win.c    the per-grid window cache
 * All functions here are hidden.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_ONESIDED_INTERNAL_H
#define DISTRT_ONESIDED_INTERNAL_H

#include "layout_internal.h"

/* Operand indices and the loop indices (i, k, j) of their dimensions. */
enum { OS_A = 0, OS_B = 1, OS_C = 2 };
enum { OS_I = 0, OS_K = 1, OS_J = 2 };

/* One operand: its layout and this process's tile. */
typedef struct {
  layout_t L;
  char *tile;       /* the local tile (row-major, ld = ext[1]) */
  int64_t ext[2];   /* local extents */
  int64_t size;     /* elements of the tile (0: holds nothing) */
  int holder;       /* this process holds a tile (fixed axes match) */
  int64_t q[2];     /* this process's owner digits */
  int64_t idx[2];   /* the loop indices of its dimensions */
  int64_t repl;     /* mask of the grid axes replicating it */
  distrt_bwin *win; /* window over the tile, when one is used */
} os_opnd;

/* An interval [lo, lo + len) of one loop index. */
typedef struct {
  int64_t lo, len;
} os_ival;

/* A cell: interval indices of i, k and j. */
typedef struct {
  int64_t iv[3];
} os_cell;

/* Where a block of an operand lives. */
typedef struct {
  int64_t rank; /* the nearest holder (grid rank) */
  int64_t disp; /* element offset of the block's first element there */
  int64_t ld;   /* row length of that holder's tile */
} os_loc;

typedef struct {
  const char *op;
  distrt_grid *g;
  int64_t dtype, es;
  int64_t stationary, prefetch;
  os_opnd X[3];
  os_ival *iv[3];
  int64_t niv[3];
  os_cell *cells; /* this process's cells, in execution order */
  int64_t ncells;
  /* Where products go: stationary C: `acc` is the C tile or a temporary of
   * its shape; stationary A / B: `acc` is the accumulation target of the
   * other processes (a window), `self` gets this process's own
   * contributions (both of the C tile's shape, row length C ext[1]). */
  char *acc;
  char *self;
  distrt_bwin *acc_win;
  int twosided;
  int64_t words; /* elements moved by this call */
} os_plan;

/* Nearest holder of the block of operand x whose first element is (r, c). */
DISTRT_HIDDEN void os_locate(const os_plan *p, int x, int64_t r, int64_t c,
                             os_loc *out);
/* Runs this process's cells one-sided (gets with p->prefetch in flight,
 * accumulates into acc_win) or, with p->twosided, with batched all-to-all
 * exchanges.  Collective (the fallback's exchanges). */
DISTRT_HIDDEN void os_run_onesided(os_plan *p);
DISTRT_HIDDEN void os_run_twosided(os_plan *p);
/* dst[r * ld + c] += src[r * cols + c] for a rows x cols block. */
DISTRT_HIDDEN void os_add_block(const os_plan *p, char *dst, int64_t ld,
                                const char *src, int64_t rows, int64_t cols);

/* Window cache (onesided_win.c).  Up to OS_MAX_SLOTS windows per call:
 * slot s exposes bytes[s] bytes at base[s] (base NULL with `scratch`: a
 * runtime-owned buffer of that size, returned in base[s]); role[s] (the
 * operand) is part of the key, so that processes holding nothing (size 0)
 * find the right window.  Collective over the grid: either every process
 * reuses its cached window for a slot, or every process creates one. */
enum { OS_MAX_SLOTS = 3 };
DISTRT_HIDDEN void os_windows(const char *op, distrt_grid *g, int nslots,
                              void **base, const int64_t *bytes,
                              const int *role, const int *scratch,
                              int64_t esize, distrt_bwin **wins);
/* Trims the cache after a call (the same decision on every process). */
DISTRT_HIDDEN void os_windows_trim(const char *op, distrt_grid *g);
/* The grid release hook: frees the grid's windows (collective). */
DISTRT_HIDDEN void os_windows_release(const char *op, distrt_grid *g);

#endif /* DISTRT_ONESIDED_INTERNAL_H */
