/*===- grid.c - process grids and cached sub-communicators ------*- C -*-===*
 *
 * A grid is a row-major (last axis fastest) Cartesian view of the
 * communicator it is laid on: the world, or the caller's communicator
 * (distrt_comm_push, distrt_grid_create_on).  It owns two duplicates of that
 * communicator (one for user point to point, one internal) and, lazily, one
 * communicator per axis mask.  Only the backend interface is used here,
 * never MPI directly.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static distrt_grid *live_grids;

static void format_dims(char *out, size_t n, int64_t ndims,
                        const int64_t *dims) {
  size_t len = 0;
  out[0] = '\0';
  for (int64_t i = 0; i < ndims && len < n; ++i)
    len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? "x" : "",
                            (long long)dims[i]);
}

distrt_grid *distrt_grid_check(const char *op, const distrt_grid *g) {
  distrt_require_init(op);
  if (!g)
    distrt_fatal(op, "grid is NULL");
  for (distrt_grid *p = live_grids; p; p = p->next)
    if (p == g)
      return p;
  distrt_fatal(op,
               "%p is not a live grid (already freed, or not created by "
               "distrt_grid_create)",
               (const void *)g);
}

void distrt_grid_check_axis(const char *op, const distrt_grid *g,
                            int64_t axis) {
  if (axis < 0 || axis >= g->ndims)
    distrt_fatal(op, "axis %lld is out of range for a grid with %lld axes",
                 (long long)axis, (long long)g->ndims);
}

void distrt_grid_check_mask(const char *op, const distrt_grid *g,
                            int64_t axes) {
  if (axes < 0 || axes >= ((int64_t)1 << g->ndims))
    distrt_fatal(op,
                 "axes mask 0x%llx selects axes outside the grid's %lld axes "
                 "(valid masks are 0x0 .. 0x%llx)",
                 (unsigned long long)axes, (long long)g->ndims,
                 (unsigned long long)(((int64_t)1 << g->ndims) - 1));
}

/*===-- the communicator grids are laid on ------------------------------===*/

/* Pushed communicators (distrt_comm_push); empty: the world. */
#define DISTRT_COMM_STACK 16
static distrt_bcomm *comm_stack[DISTRT_COMM_STACK];
static int comm_depth;

distrt_bcomm *distrt_current_comm(void) {
  return comm_depth ? comm_stack[comm_depth - 1] : distrt_g.world;
}

void distrt_comm_reset(void) { comm_depth = 0; }

void distrt_comm_push(const void *mpi_comm) {
  const char *op = "distrt_comm_push";
  distrt_require_init(op);
  if (comm_depth == DISTRT_COMM_STACK)
    distrt_fatal(op,
                 "more than %d communicators pushed (a distrt_comm_pop "
                 "missing?)",
                 DISTRT_COMM_STACK);
  distrt_bcomm *c = distrt_g.be->comm_adopt(op, mpi_comm);
  comm_stack[comm_depth++] = c;
}

void distrt_comm_pop(void) {
  const char *op = "distrt_comm_pop";
  distrt_require_init(op);
  if (comm_depth == 0)
    distrt_fatal(op, "no communicator is pushed (distrt_comm_pop without a "
                     "matching distrt_comm_push)");
  --comm_depth;
}

int64_t distrt_comm_size(void) {
  distrt_require_init("distrt_comm_size");
  return distrt_g.be->comm_size(distrt_current_comm());
}

int64_t distrt_comm_rank(void) {
  distrt_require_init("distrt_comm_rank");
  return distrt_g.be->comm_rank(distrt_current_comm());
}

/*===-- creation ---------------------------------------------------------===*/

static void check_dims(const char *op, int64_t ndims, const int64_t *dims,
                       char *name, size_t n, int64_t *size) {
  if (ndims < 1 || ndims > DISTRT_MAX_DIMS)
    distrt_fatal(op, "a grid needs 1 to %d axes, got %lld", DISTRT_MAX_DIMS,
                 (long long)ndims);
  if (!dims)
    distrt_fatal(op, "dims is NULL");
  format_dims(name, n, ndims, dims);
  *size = 1;
  for (int64_t i = 0; i < ndims; ++i) {
    if (dims[i] < 1)
      distrt_fatal(op, "grid %s: the extent of axis %lld is %lld, must be >= 1",
                   name, (long long)i, (long long)dims[i]);
    if (__builtin_mul_overflow(*size, dims[i], size))
      distrt_fatal(op, "grid %s: the number of processes overflows", name);
  }
}

/* A grid laid on `parent` (collective over it) whose leading `node_axes`
 * axes index nodes. */
static distrt_grid *grid_create_on(const char *op, distrt_bcomm *parent,
                                   int64_t ndims, const int64_t *dims,
                                   int64_t node_axes) {
  const struct distrt_backend *be = distrt_g.be;
  char name[DISTRT_MAX_DIMS * 24];
  int64_t size;
  check_dims(op, ndims, dims, name, sizeof name, &size);
  int64_t have = be->comm_size(parent), rank = be->comm_rank(parent);
  if (node_axes < 0 || node_axes > ndims)
    distrt_fatal_group(rank, op,
                       "grid %s: node_axes %lld is out of range (0 .. %lld)",
                       name, (long long)node_axes, (long long)ndims);
  if (size != have && parent == distrt_g.world)
    distrt_fatal_group(
        rank, op,
        "grid %s needs %lld rank%s, but the program was started with %lld "
        "rank%s (mpirun -np %lld)",
        name, (long long)size, size == 1 ? "" : "s", (long long)have,
        have == 1 ? "" : "s", (long long)size);
  if (size != have)
    distrt_fatal_group(rank, op,
                       "grid %s needs %lld rank%s, but the communicator it "
                       "is laid on (distrt_comm_push) has %lld rank%s",
                       name, (long long)size, size == 1 ? "" : "s",
                       (long long)have, have == 1 ? "" : "s");

  /* Node axes: the processes ordered node by node (grid rank = node index
   * * per_node + rank within the node); the grid owns that communicator as
   * its internal one. */
  distrt_bcomm *ordered = NULL;
  int reordered = 0;
  if (node_axes > 0) {
    int64_t nodes = 1;
    for (int64_t i = 0; i < node_axes; ++i)
      nodes *= dims[i];
    char what[DISTRT_MAX_DIMS * 24 + 32];
    snprintf(what, sizeof what, "%s (%lld node ax%s)", name,
             (long long)node_axes, node_axes == 1 ? "is" : "es");
    ordered = distrt_grid_node_comm(op, parent, what, nodes, size / nodes,
                                    &reordered);
    rank = be->comm_rank(ordered);
  }

  distrt_grid *g = (distrt_grid *)calloc(1, sizeof *g);
  if (!g)
    distrt_fatal(op, "out of memory allocating grid %s", name);
  g->magic = DISTRT_GRID_MAGIC;
  g->ndims = ndims;
  g->node_axes = node_axes;
  g->reordered = reordered;
  g->size = size;
  g->rank = rank;
  for (int64_t i = ndims - 1; i >= 0; --i) {
    g->dims[i] = dims[i];
    g->coords[i] = rank % dims[i];
    rank /= dims[i];
  }
  g->parent = parent;
  g->comm = be->comm_dup(op, ordered ? ordered : parent);
  g->icomm = ordered ? ordered : be->comm_dup(op, parent);
  g->next = live_grids;
  if (live_grids)
    live_grids->prev = g;
  live_grids = g;
  ++distrt_g.live[DISTRT_COUNT_GRIDS];
  return g;
}

distrt_grid *distrt_grid_create(int64_t ndims, const int64_t *dims) {
  const char *op = "distrt_grid_create";
  distrt_require_init(op);
  return grid_create_on(op, distrt_current_comm(), ndims, dims, 0);
}

distrt_grid *distrt_grid_create_nodes(int64_t ndims, const int64_t *dims,
                                      int64_t node_axes) {
  const char *op = "distrt_grid_create_nodes";
  distrt_require_init(op);
  return grid_create_on(op, distrt_current_comm(), ndims, dims, node_axes);
}

distrt_grid *distrt_grid_create_on(const void *mpi_comm, int64_t ndims,
                                   const int64_t *dims) {
  const char *op = "distrt_grid_create_on";
  distrt_require_init(op);
  return grid_create_on(op, distrt_g.be->comm_adopt(op, mpi_comm), ndims, dims,
                        0);
}

distrt_grid *distrt_grid_create1(int64_t d0) {
  int64_t d[1] = {d0};
  return distrt_grid_create(1, d);
}

distrt_grid *distrt_grid_create2(int64_t d0, int64_t d1) {
  int64_t d[2] = {d0, d1};
  return distrt_grid_create(2, d);
}

distrt_grid *distrt_grid_create3(int64_t d0, int64_t d1, int64_t d2) {
  int64_t d[3] = {d0, d1, d2};
  return distrt_grid_create(3, d);
}

/* The slot's grid must have the requested shape. */
static void check_slot_shape(const char *op, distrt_grid **slot,
                             const distrt_grid *g, int64_t ndims,
                             const int64_t *dims, int64_t node_axes) {
  int same = ndims == g->ndims && dims;
  for (int64_t i = 0; same && i < ndims; ++i)
    same = dims[i] == g->dims[i];
  if (same && node_axes == g->node_axes)
    return;
  char have[DISTRT_MAX_DIMS * 24], want[DISTRT_MAX_DIMS * 24];
  format_dims(have, sizeof have, g->ndims, g->dims);
  if (dims && ndims >= 1 && ndims <= DISTRT_MAX_DIMS)
    format_dims(want, sizeof want, ndims, dims);
  else
    snprintf(want, sizeof want, "(%lld axes)", (long long)ndims);
  if (same)
    distrt_fatal(op,
                 "slot %p holds grid %s with %lld node ax%s, but %lld node "
                 "ax%s were requested",
                 (void *)slot, have, (long long)g->node_axes,
                 g->node_axes == 1 ? "is" : "es", (long long)node_axes,
                 node_axes == 1 ? "is" : "es");
  distrt_fatal(op, "slot %p holds grid %s, but grid %s was requested",
               (void *)slot, have, want);
}

/* The slot caches one grid per communicator: *slot is the one made last;
 * grids made through the slot on other communicators stay alive (until
 * distrt_grid_free / finalize) and are found again in the live list. */
static distrt_grid *grid_lookup(const char *op, const char *create_op,
                                distrt_grid **slot, int64_t ndims,
                                const int64_t *dims, int64_t node_axes) {
  distrt_require_init(op);
  if (!slot)
    distrt_fatal(op, "slot is NULL");
  distrt_bcomm *cur = distrt_current_comm();
  distrt_grid *g = *slot;
  for (distrt_grid *p = live_grids; g && p; p = p->next)
    if (p == g && g->parent == cur) {
      check_slot_shape(op, slot, g, ndims, dims, node_axes);
      return g;
    }
  for (distrt_grid *p = live_grids; p; p = p->next)
    if (p->slot == slot && p->parent == cur) {
      check_slot_shape(op, slot, p, ndims, dims, node_axes);
      *slot = p;
      return p;
    }
  g = grid_create_on(create_op, cur, ndims, dims, node_axes);
  g->slot = slot;
  *slot = g;
  return g;
}

distrt_grid *distrt_grid_lookup(distrt_grid **slot, int64_t ndims,
                                const int64_t *dims) {
  return grid_lookup("distrt_grid_lookup", "distrt_grid_create", slot, ndims,
                     dims, 0);
}

distrt_grid *distrt_grid_lookup_nodes(distrt_grid **slot, int64_t ndims,
                                      const int64_t *dims, int64_t node_axes) {
  return grid_lookup("distrt_grid_lookup_nodes", "distrt_grid_create_nodes",
                     slot, ndims, dims, node_axes);
}

distrt_grid *distrt_grid_lookup_gpus(distrt_grid **slot, int64_t ndims,
                                     const int64_t *dims, int64_t node_axes) {
  const char *op = "distrt_grid_lookup_gpus";
  distrt_require_init(op);
  /* Every process runs the same backend (DISTRT_BACKEND is read by all),
   * so this stops all of them or none. */
  if (strcmp(distrt_g.be->name, "nccl") != 0)
    distrt_fatal_collective(
        op, "the program's machine is made of GPUs (gpu[..]), but distrt "
            "runs the '%s' backend: run it with DISTRT_BACKEND=nccl "
            "(dist-run picks it for machines of GPUs), or write the "
            "machine as cpu[..] and compile without device memory",
        distrt_g.be->name);
  return grid_lookup(op, node_axes > 0 ? "distrt_grid_create_nodes"
                                       : "distrt_grid_create",
                     slot, ndims, dims, node_axes);
}

static void (*release_hook)(const char *op, distrt_grid *g);

void distrt_grid_set_release_hook(void (*hook)(const char *op,
                                               distrt_grid *g)) {
  release_hook = hook;
}

static void grid_release(const char *op, distrt_grid *g) {
  const struct distrt_backend *be = distrt_g.be;
  if (release_hook)
    release_hook(op, g);
  for (int i = 0; i < DISTRT_NUM_MASKS; ++i)
    if (g->sub[i]) {
      be->comm_free(op, g->sub[i]);
      g->sub[i] = NULL;
    }
  be->comm_free(op, g->icomm);
  be->comm_free(op, g->comm);
  if (g->prev)
    g->prev->next = g->next;
  else
    live_grids = g->next;
  if (g->next)
    g->next->prev = g->prev;
  g->magic = 0;
  --distrt_g.live[DISTRT_COUNT_GRIDS];
  free(g);
}

void distrt_grid_free(distrt_grid *g) {
  const char *op = "distrt_grid_free";
  grid_release(op, distrt_grid_check(op, g));
}

void distrt_grid_free_all(const char *op) {
  while (live_grids)
    grid_release(op, live_grids);
}

/*===-- queries ----------------------------------------------------------===*/

int64_t distrt_grid_ndims(const distrt_grid *g) {
  return distrt_grid_check("distrt_grid_ndims", g)->ndims;
}

int64_t distrt_grid_dim(const distrt_grid *g, int64_t axis) {
  const char *op = "distrt_grid_dim";
  distrt_grid *G = distrt_grid_check(op, g);
  distrt_grid_check_axis(op, G, axis);
  return G->dims[axis];
}

int64_t distrt_grid_node_axes(const distrt_grid *g) {
  return distrt_grid_check("distrt_grid_node_axes", g)->node_axes;
}

int64_t distrt_grid_node_mask(const distrt_grid *g) {
  return ((int64_t)1 << g->node_axes) - 1;
}

int64_t distrt_grid_size(const distrt_grid *g) {
  return distrt_grid_check("distrt_grid_size", g)->size;
}

int64_t distrt_grid_rank(const distrt_grid *g) {
  return distrt_grid_check("distrt_grid_rank", g)->rank;
}

int64_t distrt_grid_coord(const distrt_grid *g, int64_t axis) {
  const char *op = "distrt_grid_coord";
  distrt_grid *G = distrt_grid_check(op, g);
  distrt_grid_check_axis(op, G, axis);
  return G->coords[axis];
}

void distrt_grid_coords_of(const distrt_grid *g, int64_t rank,
                           int64_t *coords) {
  const char *op = "distrt_grid_coords_of";
  distrt_grid *G = distrt_grid_check(op, g);
  if (rank < 0 || rank >= G->size)
    distrt_fatal(op, "rank %lld is out of range for a grid of %lld processes",
                 (long long)rank, (long long)G->size);
  if (!coords)
    distrt_fatal(op, "coords is NULL");
  for (int64_t i = G->ndims - 1; i >= 0; --i) {
    coords[i] = rank % G->dims[i];
    rank /= G->dims[i];
  }
}

int64_t distrt_grid_rank_of(const distrt_grid *g, const int64_t *coords) {
  const char *op = "distrt_grid_rank_of";
  distrt_grid *G = distrt_grid_check(op, g);
  if (!coords)
    distrt_fatal(op, "coords is NULL");
  int64_t r = 0;
  for (int64_t i = 0; i < G->ndims; ++i) {
    if (coords[i] < 0 || coords[i] >= G->dims[i])
      distrt_fatal(op,
                   "coordinate %lld on axis %lld is out of range (extent %lld)",
                   (long long)coords[i], (long long)i, (long long)G->dims[i]);
    r = r * G->dims[i] + coords[i];
  }
  return r;
}

void distrt_grid_check_order(const char *op, const distrt_grid *a,
                             const char *an, const distrt_grid *b,
                             const char *bn) {
  if (a->reordered == b->reordered)
    return;
  const distrt_grid *n = a->reordered ? a : b;
  distrt_fatal_collective(
      op,
      "the %s grid ranks its processes node by node (a grid with node axes "
      "on a job whose launcher did not place ranks node by node) and the %s "
      "grid does not: operations on two grids need grids with the same rank "
      "order (%lld node ax%s)",
      n == a ? an : bn, n == a ? bn : an, (long long)n->node_axes,
      n->node_axes == 1 ? "is" : "es");
}

/*===-- sub-communicators ------------------------------------------------===*/

int64_t distrt_grid_mask_size(const distrt_grid *g, int64_t axes) {
  int64_t n = 1;
  for (int64_t i = 0; i < g->ndims; ++i)
    if (axes & ((int64_t)1 << i))
      n *= g->dims[i];
  return n;
}

int64_t distrt_grid_mask_rank(const distrt_grid *g, int64_t axes) {
  int64_t r = 0;
  for (int64_t i = 0; i < g->ndims; ++i)
    if (axes & ((int64_t)1 << i))
      r = r * g->dims[i] + g->coords[i];
  return r;
}

int64_t distrt_axes_size(distrt_grid *g, int64_t axes) {
  const char *op = "distrt_axes_size";
  distrt_grid *G = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, G, axes);
  return distrt_grid_mask_size(G, axes);
}

int64_t distrt_axes_rank(distrt_grid *g, int64_t axes) {
  const char *op = "distrt_axes_rank";
  distrt_grid *G = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, G, axes);
  return distrt_grid_mask_rank(G, axes);
}

distrt_bcomm *distrt_grid_sub(const char *op, distrt_grid *g, int64_t axes) {
  if (g->sub[axes])
    return g->sub[axes];
  const struct distrt_backend *be = distrt_g.be;
  int64_t n = distrt_grid_mask_size(g, axes);
  int64_t *ranks = (int64_t *)malloc((size_t)n * sizeof *ranks);
  if (!ranks)
    distrt_fatal(op, "out of memory building a group of %lld processes",
                 (long long)n);
  /* Member i: this process's coordinates with the selected axes replaced by
   * the row-major decomposition of i over the selected axes. */
  for (int64_t i = 0; i < n; ++i) {
    int64_t c[DISTRT_MAX_DIMS];
    int64_t rem = i;
    for (int64_t d = g->ndims - 1; d >= 0; --d) {
      if (axes & ((int64_t)1 << d)) {
        c[d] = rem % g->dims[d];
        rem /= g->dims[d];
      } else {
        c[d] = g->coords[d];
      }
    }
    int64_t r = 0;
    for (int64_t d = 0; d < g->ndims; ++d)
      r = r * g->dims[d] + c[d];
    ranks[i] = r;
  }
  distrt_bcomm *c = be->comm_subset(op, g->icomm, n, ranks,
                                    DISTRT_TAG_SUBCOMM_BASE + axes);
  free(ranks);
  int64_t want = distrt_grid_mask_rank(g, axes);
  if (be->comm_size(c) != n || be->comm_rank(c) != want)
    distrt_fatal(op,
                 "internal error: sub-communicator for axes 0x%llx has rank "
                 "%lld of %lld, expected %lld of %lld",
                 (unsigned long long)axes, (long long)be->comm_rank(c),
                 (long long)be->comm_size(c), (long long)want, (long long)n);
  g->sub[axes] = c;
  return c;
}
