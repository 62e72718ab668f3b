/*===- layout_extents.c - layout descriptors with call-time extents -*- C
 *-*-===*
 *
 * Part of the dist project: distributed tensor algebra in MLIR.
 *
 * A library function compiled from !dist.tensor arguments with dynamic (`?`)
 * extents carries its layouts as descriptor templates with
 * DISTRT_DESC_DYNAMIC where an extent is given at call time
 * (docs/interop.md, "Dynamic shapes").  distrt_layout_with_extents fills the
 * extents in and validates them; distrt_layout_check_tile checks, at the
 * start of the call, that the processes agree on them and that the caller's
 * tile holds this process's part.  Nothing here depends on the number of
 * processes but one allreduce of two values per dimension.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <string.h>

int64_t *distrt_layout_with_extents(const int64_t *tmpl, const int64_t *extents,
                                    int64_t *out, const char *fn,
                                    const char *what) {
  const char *op = fn ? fn : "distrt_layout_with_extents";
  if (!what)
    what = "tensor";
  if (!tmpl || !out)
    distrt_fatal(op, "%s: NULL layout descriptor", what);
  int64_t ndims = tmpl[DISTRT_DESC_NDIMS];
  if (ndims < 0 || ndims > DISTRT_MAX_DIMS)
    distrt_fatal(op, "%s: malformed layout descriptor (%lld dimensions)", what,
                 (long long)ndims);
  /* Walk the dimension records to find the end of the descriptor. */
  int64_t pos = 1, next = 0;
  int64_t at[DISTRT_MAX_DIMS];
  for (int64_t d = 0; d < ndims; ++d) {
    at[d] = pos;
    int64_t naxes = tmpl[pos + DISTRT_DESC_DIM_NAXES];
    if (naxes < 0 || naxes > DISTRT_MAX_DIMS)
      distrt_fatal(op, "%s: malformed layout descriptor (dimension %lld)", what,
                   (long long)d);
    pos += DISTRT_DESC_DIM_AXES + naxes;
  }
  int64_t nfixed = tmpl[pos];
  if (nfixed < 0 || nfixed > DISTRT_MAX_DIMS)
    distrt_fatal(op, "%s: malformed layout descriptor (%lld fixed axes)", what,
                 (long long)nfixed);
  int64_t len = pos + 1 + DISTRT_DESC_FIXED_FIELDS * nfixed;
  memcpy(out, tmpl, sizeof(int64_t) * (size_t)len);
  for (int64_t d = 0; d < ndims; ++d) {
    if (tmpl[at[d] + DISTRT_DESC_DIM_N] != DISTRT_DESC_DYNAMIC)
      continue;
    if (!extents)
      distrt_fatal(op, "%s: extents are NULL but dimension %lld is dynamic",
                   what, (long long)d);
    int64_t n = extents[next++];
    if (n < 1)
      distrt_fatal(op,
                   "%s: extent %lld given for dimension %lld; extents must be "
                   "at least 1",
                   what, (long long)n, (long long)d);
    out[at[d] + DISTRT_DESC_DIM_N] = n;
  }
  return out;
}

void distrt_layout_check_tile(distrt_grid *g, const int64_t *desc,
                              int64_t elems, const char *fn, const char *what) {
  const char *op = fn ? fn : "distrt_layout_check_tile";
  if (!what)
    what = "tensor";
  distrt_grid_check(op, g);
  int64_t ndims = desc ? desc[DISTRT_DESC_NDIMS] : 0;
  if (!desc || ndims < 0 || ndims > DISTRT_MAX_DIMS)
    distrt_fatal(op, "%s: malformed layout descriptor", what);
  /* Every process must have been given the same extents: the largest and
   * the negated smallest of each, in one allreduce. */
  int64_t v[2 * DISTRT_MAX_DIMS], mine[DISTRT_MAX_DIMS];
  int64_t pos = 1;
  for (int64_t d = 0; d < ndims; ++d) {
    mine[d] = desc[pos + DISTRT_DESC_DIM_N];
    v[2 * d] = mine[d];
    v[2 * d + 1] = -mine[d];
    pos += DISTRT_DESC_DIM_AXES + desc[pos + DISTRT_DESC_DIM_NAXES];
  }
  if (ndims > 0)
    distrt_g.be->allreduce(op, g->icomm, v, 2 * ndims, DISTRT_I64, DISTRT_MAX);
  for (int64_t d = 0; d < ndims; ++d)
    if (v[2 * d] != -v[2 * d + 1])
      distrt_fatal_group(g->rank, op,
                         "%s: the processes were given different extents "
                         "for dimension %lld (from %lld to %lld); every "
                         "process must pass the same",
                         what, (long long)d, (long long)-v[2 * d + 1],
                         (long long)v[2 * d]);
  int64_t need = distrt_layout_tile_size(g, desc);
  if (elems < need) {
    char shape[24 * DISTRT_MAX_DIMS] = "";
    size_t used = 0;
    for (int64_t d = 0; d < ndims && used < sizeof shape; ++d)
      used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld",
                               d ? "x" : "", (long long)mine[d]);
    distrt_fatal(op,
                 "%s: the tile has %lld elements, but this process holds "
                 "%lld of the %s tensor (allocate the function's "
                 "tile_capacity for these extents)",
                 what, (long long)elems, (long long)need, shape);
  }
}
