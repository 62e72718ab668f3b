/*===- device_stage.c - device tiles in the runtime's host code --*- C -*-===*
 *
 * A tile (or box buffer) may live in device memory (distrt_device_alloc on
 * the NCCL backend).  The runtime's cold paths (fill, zero, the checks, the
 * gathers, file I/O and the general exchanges) work on host memory; they
 * stage a device buffer through a host copy: stage_in copies it to host
 * scratch (or only allocates the scratch when the function overwrites it),
 * stage_out copies the scratch back (when the function wrote it) and frees
 * it.  Host buffers are used in place, so the MPI backend (no dev_is_device
 * slot) never copies.  Staging is correct and slow: each call moves the
 * whole tile through the host.  Functions not ported at all refuse device
 * buffers by name (distrt_reject_device).
 *===----------------------------------------------------------------------===*/

#include "layout_internal.h"

#include <stdint.h>
#include <stdlib.h>

int distrt_is_device_ptr(const void *p) {
  const struct distrt_backend *be = distrt_g.be;
  return p && be && be->dev_is_device && be->dev_is_device(p);
}

void *distrt_stage_in(const char *op, const void *p, int64_t bytes, int load) {
  if (!distrt_is_device_ptr(p))
    return (void *)(uintptr_t)p;
  void *host = xmalloc(op, bytes);
  if (load && bytes > 0)
    distrt_g.be->dev_copy(op, host, p, bytes);
  return host;
}

void distrt_stage_out(const char *op, void *p, void *host, int64_t bytes,
                      int store) {
  if (host == p)
    return;
  if (store && bytes > 0)
    distrt_g.be->dev_copy(op, p, host, bytes);
  free(host);
}

int64_t distrt_own_tile_bytes(const char *op, distrt_grid *g,
                              const int64_t *desc, int64_t dtype) {
  distrt_grid_check(op, g);
  int64_t es = distrt_dtype_size(op, dtype);
  layout_t L;
  parse_layout(op, g, desc, &L);
  return tile_size_at(g, &L, g->coords) * es;
}

void *distrt_stage_tile_in(const char *op, distrt_grid *g, const int64_t *desc,
                           const void *tile, int64_t dtype, int load) {
  if (!distrt_is_device_ptr(tile))
    return (void *)(uintptr_t)tile;
  return distrt_stage_in(op, tile, distrt_own_tile_bytes(op, g, desc, dtype),
                         load);
}

void distrt_stage_tile_out(const char *op, distrt_grid *g, const int64_t *desc,
                           void *tile, void *host, int64_t dtype, int store) {
  if (host == tile)
    return;
  distrt_stage_out(op, tile, host, distrt_own_tile_bytes(op, g, desc, dtype),
                   store);
}

void distrt_reject_device(const char *op, const void *p, const char *what,
                          const char *feature) {
  if (distrt_is_device_ptr(p))
    distrt_fatal(op,
                 "%s is device memory; %s takes host tiles; device tiles are "
                 "not supported by %s yet (issue #16)",
                 what, op, feature);
}
