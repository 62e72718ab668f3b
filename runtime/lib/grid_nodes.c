/*===- grid_nodes.c - hierarchical grids: processes to nodes ----*- C -*-===*
 *
 * A grid whose leading axes index nodes (distrt_grid_create_nodes) is laid
 * on its communicator node by node: grid rank = node index * processes per
 * node + rank within the node, so that row-major coordinates put each
 * node's processes on the trailing (processor) axes.  A process's node is
 *   - with DISTRT_RANKS_PER_NODE=k: its rank in the communicator / k
 *     (DISTRT_NODE_PLACEMENT=cyclic: rank mod (size / k), which emulates a
 *     launcher that deals ranks round robin over the nodes);
 *   - otherwise the backend's node_color (MPI: the processes
 *     MPI_COMM_TYPE_SHARED puts together, i.e. one host).
 * Nodes are numbered by their lowest rank in the communicator and keep
 * their processes' order.  Everything here is O(1) per process: two splits
 * and an all-reduce, no table over the processes.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DISTRT_RANKS_PER_NODE as a positive integer dividing `size`; 0 if unset
 * or empty.  Every process reads the same environment, so a bad value is
 * reported once for the group. */
static int64_t ranks_per_node(const char *op, int64_t rank, int64_t size,
                              const char *name) {
  const char *env = getenv("DISTRT_RANKS_PER_NODE");
  if (!env || !*env)
    return 0;
  char *end = NULL;
  errno = 0;
  long long k = strtoll(env, &end, 10);
  if (errno || *end || end == env || k < 1)
    distrt_fatal_group(rank, op,
                       "DISTRT_RANKS_PER_NODE='%s' is not a positive integer "
                       "(the number of processes per emulated node)",
                       env);
  if (size % k)
    distrt_fatal_group(rank, op,
                       "DISTRT_RANKS_PER_NODE=%lld does not divide the %lld "
                       "processes of grid %s",
                       k, (long long)size, name);
  return (int64_t)k;
}

/* 1 for DISTRT_NODE_PLACEMENT=cyclic, 0 for unset, empty or block. */
static int cyclic_placement(const char *op, int64_t rank) {
  const char *env = getenv("DISTRT_NODE_PLACEMENT");
  if (!env || !*env || !strcmp(env, "block"))
    return 0;
  if (!strcmp(env, "cyclic"))
    return 1;
  distrt_fatal_group(rank, op,
                     "DISTRT_NODE_PLACEMENT='%s' is not block or cyclic", env);
}

distrt_bcomm *distrt_grid_node_comm(const char *op, distrt_bcomm *parent,
                                    const char *name, int64_t nodes,
                                    int64_t per_node, int *reordered) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t rank = be->comm_rank(parent), size = be->comm_size(parent);
  if (!be->node_color || !be->comm_split)
    distrt_fatal_group(rank, op,
                       "grid %s: the %s backend cannot lay out grids with "
                       "node axes (it has no node_color / comm_split)",
                       name, be->name);
  int64_t k = ranks_per_node(op, rank, size, name);
  int cyclic = cyclic_placement(op, rank);
  if (cyclic && !k)
    distrt_fatal_group(rank, op,
                       "DISTRT_NODE_PLACEMENT=cyclic needs "
                       "DISTRT_RANKS_PER_NODE (it emulates nodes)");
  int64_t color;
  if (k)
    color = cyclic ? rank % (size / k) : rank / k;
  else
    color = be->node_color(op, parent);

  /* This process's node, ranked as in parent; node rank 0 is the lowest
   * rank on the node, and the leaders' communicator numbers the nodes. */
  distrt_bcomm *node = be->comm_split(op, parent, color, rank);
  int64_t node_rank = be->comm_rank(node);
  distrt_bcomm *leaders =
      be->comm_split(op, parent, node_rank == 0 ? 0 : -1, rank);
  int64_t info[2] = {0, 0}; /* node index, number of nodes */
  if (leaders) {
    info[0] = be->comm_rank(leaders);
    info[1] = be->comm_size(leaders);
    be->comm_free(op, leaders);
  }
  be->bcast(op, node, info, 2, DISTRT_I64, 0);

  /* Every process learns the smallest and largest node, and whether any
   * process's grid rank differs from its rank in parent. */
  int64_t grid_rank = info[0] * per_node + node_rank;
  int64_t sizes[3] = {be->comm_size(node), -be->comm_size(node),
                      grid_rank == rank ? 0 : -1};
  be->allreduce(op, parent, sizes, 3, DISTRT_I64, DISTRT_MIN);
  int64_t smallest = sizes[0], largest = -sizes[1];
  *reordered = sizes[2] != 0;
  be->comm_free(op, node);
  if (info[1] != nodes || smallest != per_node || largest != per_node) {
    char found[96];
    if (smallest == largest)
      snprintf(found, sizeof found, "of %lld process%s", (long long)smallest,
               smallest == 1 ? "" : "es");
    else
      snprintf(found, sizeof found, "of %lld to %lld processes",
               (long long)smallest, (long long)largest);
    distrt_fatal_group(
        rank, op,
        "grid %s needs %lld node%s of %lld process%s, but the job's %lld "
        "process%s are on %lld node%s %s (nodes from %s; set "
        "DISTRT_RANKS_PER_NODE=k to emulate nodes of k consecutive ranks)",
        name, (long long)nodes, nodes == 1 ? "" : "s", (long long)per_node,
        per_node == 1 ? "" : "es", (long long)size, size == 1 ? "" : "es",
        (long long)info[1], info[1] == 1 ? "" : "s", found,
        k ? "DISTRT_RANKS_PER_NODE" : "the MPI topology");
  }
  return be->comm_split(op, parent, 0, grid_rank);
}
