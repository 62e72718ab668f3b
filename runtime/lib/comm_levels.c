/*===- comm_levels.c - two-level collectives on hierarchical grids -*- C -*-===*
 *
 * On a grid whose leading axes index nodes (distrt_grid_create_nodes), a
 * group spanning axes M that mixes node axes (Mn) and processor axes (Mp)
 * is the product of two groups: the processes of one node at the same node
 * coordinates (the sub-communicator of Mp, inside a node) and the processes
 * at the same position on different nodes (that of Mn).  Its rank is
 * rn * size(Mp) + rp (node axes lead), so a root r sits at node-group rank
 * r / size(Mp) and processor-group rank r % size(Mp).  The reductions
 * and broadcasts then run in two stages, each on one cached
 * sub-communicator: at most one copy of the data crosses between two nodes
 * per stage and process position.
 *   allreduce: allreduce within the node, then between nodes (all ranks);
 *   bcast:     bcast between nodes among the processes at the root's
 *              processor position (node leaders), then within each node;
 *   reduce:    reduce within each node to the root's processor position,
 *              then between nodes among those processes (the ones that are
 *              not the root reduce a copy: their buf stays unmodified).
 * The non-blocking ones issue every stage at issue time, so that every
 * process issues the same operations on every communicator in program
 * order whatever order the requests are completed in: iallreduce runs the
 * node stage blocking and returns the request of the (slower) stage
 * between nodes; ibcast runs the leaders' stage between nodes blocking and
 * returns the request of the stage within the node.
 *
 * DISTRT_DEBUG_COLLECTIVES=1 prints, for every reduction or broadcast over
 * a grid with node axes, which path it took (tests check it).
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int debug_enabled(void) {
  static int enabled = -1;
  if (enabled < 0) {
    const char *env = getenv("DISTRT_DEBUG_COLLECTIVES");
    enabled = env && *env && strcmp(env, "0") != 0;
  }
  return enabled;
}

int distrt_two_level(const char *op, const distrt_grid *g, int64_t axes,
                     struct distrt_levels *lv) {
  if (g->node_axes == 0)
    return 0;
  int64_t nodes = distrt_grid_node_mask(g);
  lv->mn = axes & nodes;
  lv->mp = axes & ~nodes;
  lv->sn = distrt_grid_mask_size(g, lv->mn);
  lv->sp = distrt_grid_mask_size(g, lv->mp);
  lv->rn = distrt_grid_mask_rank(g, lv->mn);
  lv->rp = distrt_grid_mask_rank(g, lv->mp);
  int two = lv->sn > 1 && lv->sp > 1;
  if (debug_enabled()) {
    /* One write per line: the launcher interleaves the processes' output. */
    char line[192];
    if (two)
      snprintf(line, sizeof line,
               "distrt: debug: grid rank %lld: %s axes 0x%llx: two-level "
               "(nodes 0x%llx, processors 0x%llx)\n",
               (long long)g->rank, op, (unsigned long long)axes,
               (unsigned long long)lv->mn, (unsigned long long)lv->mp);
    else
      snprintf(line, sizeof line,
               "distrt: debug: grid rank %lld: %s axes 0x%llx: one level\n",
               (long long)g->rank, op, (unsigned long long)axes);
    fputs(line, stderr);
  }
  return two;
}

void distrt_allreduce_2(const char *op, distrt_grid *g,
                        const struct distrt_levels *lv, void *buf,
                        int64_t count, int64_t dtype, int64_t rop) {
  const struct distrt_backend *be = distrt_g.be;
  be->allreduce(op, distrt_grid_sub(op, g, lv->mp), buf, count, dtype, rop);
  be->allreduce(op, distrt_grid_sub(op, g, lv->mn), buf, count, dtype, rop);
}

void distrt_bcast_2(const char *op, distrt_grid *g,
                    const struct distrt_levels *lv, void *buf, int64_t count,
                    int64_t dtype, int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  if (lv->rp == root % lv->sp)
    be->bcast(op, distrt_grid_sub(op, g, lv->mn), buf, count, dtype,
              root / lv->sp);
  be->bcast(op, distrt_grid_sub(op, g, lv->mp), buf, count, dtype,
            root % lv->sp);
}

void distrt_reduce_2(const char *op, distrt_grid *g,
                     const struct distrt_levels *lv, void *buf, int64_t count,
                     int64_t dtype, int64_t rop, int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t root_p = root % lv->sp, root_n = root / lv->sp;
  if (lv->rp != root_p) {
    be->reduce(op, distrt_grid_sub(op, g, lv->mp), buf, count, dtype, rop,
               root_p);
    return;
  }
  /* This process collects its node's part; only the root keeps it. */
  void *part = buf;
  int64_t bytes = count * distrt_dtype_size(op, dtype);
  if (lv->rn != root_n) {
    part = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!part)
      distrt_fatal(op, "out of memory for a %lld-byte partial reduction",
                   (long long)bytes);
    if (bytes > 0)
      memcpy(part, buf, (size_t)bytes);
  }
  be->reduce(op, distrt_grid_sub(op, g, lv->mp), part, count, dtype, rop,
             root_p);
  be->reduce(op, distrt_grid_sub(op, g, lv->mn), part, count, dtype, rop,
             root_n);
  if (part != buf)
    free(part);
}

distrt_breq *distrt_ibcast_2(const char *op, distrt_grid *g,
                             const struct distrt_levels *lv, void *buf,
                             int64_t count, int64_t dtype, int64_t root) {
  const struct distrt_backend *be = distrt_g.be;
  if (lv->rp == root % lv->sp)
    be->bcast(op, distrt_grid_sub(op, g, lv->mn), buf, count, dtype,
              root / lv->sp);
  return be->ibcast(op, distrt_grid_sub(op, g, lv->mp), buf, count, dtype,
                    root % lv->sp);
}

distrt_breq *distrt_iallreduce_2(const char *op, distrt_grid *g,
                                 const struct distrt_levels *lv, void *buf,
                                 int64_t count, int64_t dtype, int64_t rop) {
  const struct distrt_backend *be = distrt_g.be;
  be->allreduce(op, distrt_grid_sub(op, g, lv->mp), buf, count, dtype, rop);
  return be->iallreduce(op, distrt_grid_sub(op, g, lv->mn), buf, count, dtype,
                        rop);
}
