/*===- redist_internal.h - distrt internals of the redistribution steps -===*
 *
 * Not installed.  What the balanced redistribution steps share:
 * redist_plan.c works out which elements of a tile go to which member of a
 * group (layouts read through the runtime's one descriptor parser, the
 * segments two tiles have in common, group members) and copies them
 * between tiles and message buffers; redistribute.c (the steps that
 * replicate, permute or re-deal a tensor, and the gather / broadcast /
 * scatter of layouts fixed to a face) and redist_sum.c (the partial-sum
 * reductions and their --check reference) execute the steps.  All hidden:
 * not exported from libdistrt.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_REDIST_INTERNAL_H
#define DISTRT_REDIST_INTERNAL_H

#include "layout_internal.h"

#define RMAX DISTRT_MAX_DIMS

/* A layout as the steps read it: parsed by the runtime's one descriptor
 * parser (parse_layout_as, layout_desc.c), refusing skewed dimensions and,
 * unless `allow_fixed`, fixed axes.  Every partitioned dimension is dealt
 * block-cyclically, blocks of bsz[d] elements over Q[d] processes (blocked:
 * ceil(n/Q); cyclic: 1; unpartitioned: Q = 1, bsz = n); a block past the
 * extent is cut to the extent. */
DISTRT_HIDDEN void parse_balanced(const char *op, const distrt_grid *g,
                                  const int64_t *desc, const char *which,
                                  int allow_fixed, layout_t *L);
/* Both layouts of a step, which must describe tensors of one shape. */
DISTRT_HIDDEN void parse_pair(const char *op, const distrt_grid *g,
                              const int64_t *sdesc, const int64_t *ddesc,
                              int allow_fixed, layout_t *S, layout_t *D);

/* Whether some dimension of L is dealt over grid axis a. */
static inline int axis_used(const layout_t *L, int64_t a) {
  return L->role[a] >= 0;
}

/* Whether dimension tuples of A and B are the same. */
DISTRT_HIDDEN int same_tuples(const layout_t *A, const layout_t *B);

/* Extents and row-major strides of the tile at coordinates c; returns its
 * number of elements. */
DISTRT_HIDDEN int64_t tile_at(const distrt_grid *g, const layout_t *L,
                              const int64_t *c, int64_t *ext,
                              int64_t *stride);

/* The elements held under S at c and under D at e, per dimension: a list
 * of segments, each `cnt` runs of `len` consecutive elements, starting at
 * local index s0 (d0) of the source (destination) tile and `ss` (`ds`)
 * apart.  Under elemental-cyclic layouts a dimension is one segment of
 * runs of length 1 (an arithmetic progression, stride lcm(Qs, Qd)); under
 * equal blocks it is the full blocks plus possibly a short last one; under
 * different blocks (a kind change) the runs of one period repeat.  The
 * message is the product of the dimensions' segment lists; both sides
 * derive the same lists, so no indices travel. */
typedef struct {
  int64_t cnt, len, s0, ss, d0, ds;
} seg_t;

typedef struct {
  int64_t nseg[RMAX];
  seg_t *seg[RMAX];
} box_t;

DISTRT_HIDDEN void box_free(box_t *b, int64_t nd);
/* The box of the elements S holds at cs and D at cd; returns the number of
 * elements; `b` must be freed with box_free. */
DISTRT_HIDDEN int64_t intersect(const char *op, const distrt_grid *g,
                                const layout_t *S, const int64_t *cs,
                                const layout_t *D, const int64_t *cd,
                                box_t *b);
/* Copies the elements of box b from src to dst.  Each side is a tile with
 * row-major strides st[] addressed by the box's source (use_d = 0) or
 * destination (use_d = 1) local indices, or, when st is NULL, a dense
 * message buffer in the box's canonical order.  Returns the number of
 * elements. */
DISTRT_HIDDEN int64_t copy_segs(int64_t nd, const box_t *b, int64_t es,
                                const char *src, const int64_t *sst,
                                int s_use_d, char *dst, const int64_t *dstt,
                                int d_use_d);
/* Pack the box from a source tile into dense `buf`. */
DISTRT_HIDDEN void pack_box(int64_t nd, const box_t *b, int64_t es,
                            const void *tile, const int64_t *tstride,
                            void *buf);
/* Unpack dense `buf` into the box of a destination tile. */
DISTRT_HIDDEN void unpack_box(int64_t nd, const box_t *b, int64_t es,
                              const void *buf, void *tile,
                              const int64_t *tstride);

/* Coordinates of member j of this process's group over `axes` (row-major
 * over the selected axes, as the sub-communicators number them). */
DISTRT_HIDDEN void member_coords(const distrt_grid *g, int64_t axes,
                                 int64_t j, int64_t *c);
/* Number of elements member j of the group holds in layout L. */
DISTRT_HIDDEN int64_t member_tile(const distrt_grid *g, int64_t axes,
                                  const layout_t *L, int64_t j);
/* The largest member_tile over the np members of the group. */
DISTRT_HIDDEN int64_t largest_member_tile(const distrt_grid *g, int64_t axes,
                                          const layout_t *L, int64_t np);

/* malloc, fatal with `op` when out of memory (never NULL, even for 0). */
DISTRT_HIDDEN void *xalloc(const char *op, int64_t bytes);

#endif /* DISTRT_REDIST_INTERNAL_H */
