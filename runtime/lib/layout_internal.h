/*===- layout_internal.h - distrt internals of the layout files -*- C -*-===*
 *
 * Not installed.  The parsed form of a layout descriptor and the helpers
 * that layout_desc.c (descriptors, tiles, fill), exchange.c (the general
 * exchanges), boxes.c (boxes inside a process's own tile), check.c (the
 * result check) and the balanced redistribution steps share.  The
 * descriptor format is defined in distrt/abi.h (the contract with the
 * compiler) and parsed in one place, parse_layout_as (layout_desc.c).  The
 * functions declared here are hidden: not exported from libdistrt.  The
 * small ones used in per-element loops are static inline.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_LAYOUT_INTERNAL_H
#define DISTRT_LAYOUT_INTERNAL_H

#include "internal.h"

#define LMAX DISTRT_MAX_DIMS

typedef struct {
  int64_t ndims;
  int64_t n[LMAX], kind[LMAX], block[LMAX], naxes[LMAX], axes[LMAX][LMAX];
  int64_t Q[LMAX];     /* processes over which the dimension is dealt */
  int64_t bsz[LMAX];   /* effective block size */
  int64_t nfixed, faxis[LMAX], fcoord[LMAX];
  int64_t role[LMAX];  /* per grid axis: -1 replicated, -2 fixed, d: dim d */
  int64_t skew[LMAX];  /* per dimension: mask of grid axes rotating owners */
} layout_t;

/* Partition kinds: the codes of distrt/abi.h (the compiler's encoding). */
enum {
  K_NONE = DISTRT_KIND_NONE,
  K_BLOCKED = DISTRT_KIND_BLOCKED,
  K_CYCLIC = DISTRT_KIND_CYCLIC,
  K_BLOCK_CYCLIC = DISTRT_KIND_BLOCK_CYCLIC
};

/* Forms a caller may refuse (flags of parse_layout_as): the balanced
 * redistribution steps need unskewed dimensions and, except gather /
 * broadcast / scatter, no fixed axes. */
enum { LAYOUT_NO_SKEW = 1, LAYOUT_NO_FIXED = 2 };

/* The one descriptor parser: parses `desc` for grid g into L; fatal with
 * `op` if it is malformed or has a form `flags` refuses.  `which` ("source",
 * "destination" or NULL) names the layout in the messages. */
DISTRT_HIDDEN void parse_layout_as(const char *op, const distrt_grid *g,
                                   const int64_t *desc, const char *which,
                                   int flags, layout_t *L);
/* parse_layout_as(op, g, desc, NULL, 0, L). */
DISTRT_HIDDEN void parse_layout(const char *op, const distrt_grid *g,
                                const int64_t *desc, layout_t *L);

/* Linear index q of coordinates c among the mesh modes of dimension d. */
static inline int64_t dim_q(const distrt_grid *g, const layout_t *L,
                            int64_t d, const int64_t *c) {
  int64_t q = 0;
  for (int64_t i = L->naxes[d] - 1; i >= 0; --i) {
    int64_t a = L->axes[d][i];
    q = q * g->dims[a] + c[a];
  }
  if (L->skew[d]) {
    for (int64_t a = 0; a < g->ndims; ++a)
      if ((L->skew[d] >> a) & 1)
        q += c[a];
    q %= L->Q[d];
  }
  return q;
}

/* Owner index q of global index e in dimension d (partitioned dims). */
static inline int64_t owner_q(const layout_t *L, int64_t d, int64_t e) {
  return (e / L->bsz[d]) % L->Q[d];
}

static inline int64_t local_of(const layout_t *L, int64_t d, int64_t e) {
  if (L->kind[d] == K_NONE)
    return e;
  int64_t b = L->bsz[d];
  return (e / (b * L->Q[d])) * b + e % b;
}

static inline int64_t local_extent(const layout_t *L, int64_t d, int64_t q) {
  if (L->kind[d] == K_NONE)
    return L->n[d];
  int64_t b = L->bsz[d], Q = L->Q[d], n = L->n[d];
  int64_t full = (n / (b * Q)) * b;
  int64_t rem = n % (b * Q) - q * b;
  if (rem < 0)
    rem = 0;
  if (rem > b)
    rem = b;
  return full + rem;
}

/* Whether process coordinates c hold data (fixed axes match). */
static inline int is_holder(const layout_t *L, const int64_t *c) {
  for (int64_t i = 0; i < L->nfixed; ++i)
    if (c[L->faxis[i]] != L->fcoord[i])
      return 0;
  return 1;
}

/* Elements of the tile of the process at coordinates c (0: holds nothing). */
DISTRT_HIDDEN int64_t tile_size_at(const distrt_grid *g, const layout_t *L,
                                   const int64_t *c);
/* Local extents and strides of this process's tile. */
DISTRT_HIDDEN void tile_shape(const distrt_grid *g, const layout_t *L,
                              const int64_t *c, int64_t *ext, int64_t *stride);
/* The owner digits of process coordinates c, per dimension. */
DISTRT_HIDDEN void digits_of(const distrt_grid *g, const layout_t *L,
                             const int64_t *c, int64_t *q);

/* Offset in the tile (strides `stride`) of global element e. */
static inline int64_t tile_offset(const layout_t *L, const int64_t *stride,
                                  const int64_t *e) {
  int64_t off = 0;
  for (int64_t d = 0; d < L->ndims; ++d)
    off += local_of(L, d, e[d]) * stride[d];
  return off;
}

/* Elements of a box of extents size[]. */
static inline int64_t box_volume(const layout_t *L, const int64_t *size) {
  int64_t v = 1;
  for (int64_t d = 0; d < L->ndims; ++d)
    v *= size[d];
  return v;
}

/* malloc, fatal with `op` when out of memory (never NULL, even for 0). */
DISTRT_HIDDEN void *xmalloc(const char *op, int64_t bytes);
/* Fatal unless the box (lo, size) lies inside the tensor's extents. */
DISTRT_HIDDEN void check_box(const char *op, const layout_t *L,
                             const int64_t *lo, const int64_t *size);
/* dst[i] += src[i] for a run of n elements (boxes.c). */
DISTRT_HIDDEN void add_row(void *dst, const void *src, int64_t n,
                           int64_t dtype);

#endif /* DISTRT_LAYOUT_INTERNAL_H */
