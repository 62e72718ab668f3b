/*===- onesided_internal.h - distrt internals of the one-sided GEMM -*- C
 *-*-===*
 *
 * Not installed.  distrt_onesided_matmul and its _grids / _batched forms
 * ("Slicing Is All You Need": one universal one-sided algorithm) are split
 * over
 *   onesided.c        the entry point: validation, the slices, this
 *                     process's chunks and their panels' pieces, the final
 *                     combination, the counter
 *   onesided_exec.c   running the chunks: one-sided gets / accumulates with
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
  distrt_grid *g;   /* its grid (the same processes as the others') */
  char *base;       /* the whole local tile: every batch element's */
  char *tile;       /* the current batch element's (row-major, ld = ext[1]) */
  int64_t ext[2];   /* local extents */
  int64_t size;     /* elements of the tile (0: holds nothing) */
  int holder;       /* this process holds a tile (fixed axes match) */
  int64_t q[2];     /* this process's owner digits */
  int64_t idx[2];   /* the loop indices of its dimensions */
  int64_t repl;     /* mask of the grid axes replicating it (not batch) */
  distrt_bwin *win; /* window over the tile, when one is used */
} os_opnd;

/* An interval [lo, lo + len) of one loop index. */
typedef struct {
  int64_t lo, len;
} os_ival;

/* A chunk of the free index: [lo, lo + len), made of the segments
 * [s0, s1) (intervals of the free index, split to at most the chunk width;
 * each lies in one block of every operand). */
typedef struct {
  int64_t lo, len, s0, s1;
} os_chunk;

/* A panel: the part of operand x a chunk needs (gathered: A or B) or
 * produces (scattered: C with A or B stationary).  Its dimension `fdim`
 * runs over the chunk, the other over the stationary operand's local
 * index along loop index e (its dimension ds), in local order: the panel
 * is dense and row-major, so one GEMM covers it. */
typedef struct {
  int x, fdim, e, ds;
} os_panel;

/* A rectangle of a panel (rows x cols at (prow, pcol)) and where it lives:
 * the holder's rank, the element offset there and that tile's row length
 * (adjacent pieces from one holder are merged). */
typedef struct {
  int64_t rank, disp, ld, rows, cols, prow, pcol, stage;
} os_piece;

/* Where a block of an operand lives. */
typedef struct {
  int64_t rank; /* the nearest holder (grid rank) */
  int64_t disp; /* element offset of the block's first element there */
  int64_t ld;   /* row length of that holder's tile */
} os_loc;

typedef struct {
  const char *op;
  distrt_grid *g; /* C's grid: windows, barriers, the fallback's exchanges */
  int64_t batch;  /* the current batch element (local index) */
  int64_t nbatch; /* this process's batch elements */
  int64_t dtype, es;
  int64_t stationary, prefetch;
  os_opnd X[3];
  os_ival *iv[3];
  int64_t niv[3];
  int f;            /* the free index (the one the stationary lacks) */
  os_ival *seg;     /* its segments */
  int64_t nseg;
  os_chunk *chunks; /* this process's chunks, in execution order */
  int64_t nchunks;
  int64_t width;    /* the widest chunk */
  int64_t nslot;    /* prefetch ring size the width was sized for */
  int64_t *mine[2]; /* the stationary operand's intervals along its dim d */
  int64_t nmine[2];
  os_panel pan[2];  /* the gathered panels (A and/or B) */
  int npan;
  os_panel out;     /* with A or B stationary: the product panel (C) */
  /* Where products go: stationary C: `acc` is the C tile or a temporary of
   * its shape; stationary A / B: `acc` is the accumulation target of the
   * other processes (a window), `self` gets this process's own
   * contributions (both of the C tile's shape, row length C ext[1]). */
  char *acc;
  char *self;
  int64_t acccap, selfcap; /* bytes of pooled acc (not a window) and self */
  distrt_bwin *acc_win;
  int twosided;
  int64_t words; /* elements moved by this call */
} os_plan;

/* Nearest holder of the block of operand x whose first element is (r, c);
 * for A and B, the offset is into the holder's whole tile, at the current
 * batch element (C's pieces go to a buffer of one batch element). */
DISTRT_HIDDEN void os_locate(const os_plan *p, int x, int64_t r, int64_t c,
                             os_loc *out);
/* The rows / columns of panel d for a chunk of length len. */
DISTRT_HIDDEN void os_panel_shape(const os_plan *p, const os_panel *d,
                                  int64_t len, int64_t *rows, int64_t *cols);
/* The pieces of panel d for chunk ch, into out (room for nmine[d->ds] *
 * (ch->s1 - ch->s0)); returns their number. */
DISTRT_HIDDEN int64_t os_pieces(const os_plan *p, const os_panel *d,
                                const os_chunk *ch, os_piece *out);
/* Runs this process's chunks (gets with p->prefetch in flight,
 * accumulates into acc_win) or, with p->twosided, with batched all-to-all
 * exchanges.  Collective (the fallback's exchanges). */
DISTRT_HIDDEN void os_run_onesided(os_plan *p);
DISTRT_HIDDEN void os_run_twosided(os_plan *p);
/* dst[r * ld + c] += src[r * sld + c] for a rows x cols block. */
DISTRT_HIDDEN void os_add_block(const os_plan *p, char *dst, int64_t ld,
                                const char *src, int64_t sld, int64_t rows,
                                int64_t cols);

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
/* Trims the cache after a call (the same decision on every process), and
 * frees the pooled scratch buffers the call did not use. */
DISTRT_HIDDEN void os_windows_trim(const char *op, distrt_grid *g);
/* Scratch buffers (panels, staging, the own contributions), pooled per
 * grid so that repeated calls do not map and fault in fresh pages: a
 * buffer of at least `bytes` (its size in *cap), taken from the pool when
 * one fits, and its return.  Local (no communication). */
DISTRT_HIDDEN void *os_scratch_get(const char *op, distrt_grid *g,
                                   int64_t bytes, int64_t *cap);
DISTRT_HIDDEN void os_scratch_put(distrt_grid *g, void *buf, int64_t cap);
/* The grid release hook: frees the grid's windows (collective). */
DISTRT_HIDDEN void os_windows_release(const char *op, distrt_grid *g);

#endif /* DISTRT_ONESIDED_INTERNAL_H */
