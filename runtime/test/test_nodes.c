/* distrt-test-nodes NODES PROCS: a grid of a hierarchical machine
 * (distrt_grid_create_nodes) with node extents NODES and processor extents
 * PROCS ("2", "2x2"), e.g. `distrt-test-nodes 2 2x2` on 8 ranks.
 *
 * The expected node of every process is computed here, independently of
 * the runtime: from DISTRT_RANKS_PER_NODE (and DISTRT_NODE_PLACEMENT=cyclic)
 * when set, else from the host names MPI_Get_processor_name reports.  The
 * expected grid rank is node index * processes per node + the process's
 * position among its node's processes (nodes numbered by their lowest world
 * rank).  Checked: ranks, coordinates, that the grid's communicators are
 * ordered by grid rank (allgather of world ranks, point to point), the
 * lookup slot, and every collective over every axis mask against values
 * summed here over the group's members (reduce and bcast from every root,
 * two non-blocking operations completed in reverse order). */
#include "test_util.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64
#define COUNT 5

static int64_t parse_dims(const char *s, int64_t *dims) {
  int64_t n = 0;
  for (;;) {
    char *end = NULL;
    dims[n++] = strtoll(s, &end, 10);
    if (end == s || n == 8 || *end != 'x')
      return *end || end == s ? -1 : n;
    s = end + 1;
  }
}

/* Expected node of every world rank: expected_node[w]. Returns the number
 * of nodes; *how names the source. */
static int64_t expected_nodes(int64_t size, int64_t *node, const char **how) {
  const char *k_env = getenv("DISTRT_RANKS_PER_NODE");
  const char *place = getenv("DISTRT_NODE_PLACEMENT");
  if (k_env && *k_env) {
    int64_t k = atoll(k_env);
    if (k < 1 || size % k)
      k = 1; /* invalid: the runtime must refuse it (nodes.test) */
    int cyclic = place && !strcmp(place, "cyclic");
    for (int64_t w = 0; w < size; ++w)
      node[w] = cyclic ? w % (size / k) : w / k;
    *how = cyclic ? "DISTRT_RANKS_PER_NODE, cyclic" : "DISTRT_RANKS_PER_NODE";
    return size / k;
  }
  /* Host names: a node is a host, numbered by its lowest world rank. */
  static char names[MAXP][MPI_MAX_PROCESSOR_NAME];
  char mine[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  memset(mine, 0, sizeof mine);
  MPI_Get_processor_name(mine, &len);
  MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names,
                MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  int64_t n = 0;
  for (int64_t w = 0; w < size; ++w) {
    node[w] = -1;
    for (int64_t v = 0; v < w && node[w] < 0; ++v)
      if (!strcmp(names[v], names[w]))
        node[w] = node[v];
    if (node[w] < 0)
      node[w] = n++;
  }
  if (tu_rank() == 0)
    for (int64_t w = 0; w < size; ++w)
      printf("rank %lld on host %s (node %lld)\n", (long long)w, names[w],
             (long long)node[w]);
  *how = "host names";
  return n;
}

/* Element j of the process of grid rank r. */
static int64_t value(int64_t r, int64_t j) {
  return (r + 1) * (j + 3) % 11 + 1;
}

static int64_t combine(int64_t a, int64_t b, int64_t op) {
  switch (op) {
  case DISTRT_SUM:
    return a + b;
  case DISTRT_PROD:
    return a * b;
  case DISTRT_MIN:
    return a < b ? a : b;
  default:
    return a > b ? a : b;
  }
}

static int64_t group_reduce(const int64_t *mem, int64_t n, int64_t j,
                            int64_t op) {
  int64_t acc = value(mem[0], j);
  for (int64_t i = 1; i < n; ++i)
    acc = combine(acc, value(mem[i], j), op);
  return acc;
}

static void fill(int64_t *b, double *f, int64_t r) {
  for (int64_t j = 0; j < COUNT; ++j) {
    b[j] = value(r, j);
    f[j] = 0.5 * (double)value(r, j);
  }
}

/* Every collective over `axes`, against the group's members mem[0..n). */
static void check_mask(distrt_grid *g, int64_t axes, const int64_t *mem,
                       int64_t n) {
  int64_t me = distrt_grid_rank(g), grank = distrt_axes_rank(g, axes);
  int64_t b[COUNT], c[COUNT];
  double f[COUNT], h[COUNT];
  static const int64_t ops[4] = {DISTRT_SUM, DISTRT_PROD, DISTRT_MIN,
                                 DISTRT_MAX};
  EXPECT(distrt_axes_size(g, axes) == n && mem[grank] == me,
         "axes 0x%llx: group size %lld rank %lld", (unsigned long long)axes,
         (long long)distrt_axes_size(g, axes), (long long)grank);
  for (int o = 0; o < 4; ++o) {
    fill(b, f, me);
    distrt_allreduce(g, axes, b, COUNT, DISTRT_I64, ops[o]);
    for (int64_t j = 0; j < COUNT; ++j)
      EXPECT(b[j] == group_reduce(mem, n, j, ops[o]),
             "allreduce op %d axes 0x%llx [%lld] = %lld", o,
             (unsigned long long)axes, (long long)j, (long long)b[j]);
  }
  fill(b, f, me);
  distrt_allreduce(g, axes, f, COUNT, DISTRT_F64, DISTRT_SUM);
  for (int64_t j = 0; j < COUNT; ++j)
    EXPECT(f[j] == 0.5 * (double)group_reduce(mem, n, j, DISTRT_SUM),
           "f64 allreduce axes 0x%llx [%lld] = %g", (unsigned long long)axes,
           (long long)j, f[j]);
  for (int64_t root = 0; root < n; ++root) {
    for (int o = 0; o < 4; o += 3) {
      fill(b, f, me);
      distrt_reduce(g, axes, b, COUNT, DISTRT_I64, ops[o], root);
      for (int64_t j = 0; j < COUNT; ++j)
        EXPECT(b[j] == (grank == root ? group_reduce(mem, n, j, ops[o])
                                      : value(me, j)),
               "reduce op %d root %lld axes 0x%llx [%lld] = %lld", o,
               (long long)root, (unsigned long long)axes, (long long)j,
               (long long)b[j]);
    }
    fill(b, f, me);
    distrt_bcast(g, axes, f, COUNT, DISTRT_F64, root);
    for (int64_t j = 0; j < COUNT; ++j)
      EXPECT(f[j] == 0.5 * (double)value(mem[root], j),
             "bcast root %lld axes 0x%llx [%lld] = %g", (long long)root,
             (unsigned long long)axes, (long long)j, f[j]);
    /* Two requests in flight, completed in reverse order. */
    fill(b, f, me);
    fill(c, h, me);
    int64_t r1 = distrt_ibcast(g, axes, b, COUNT, DISTRT_I64, root);
    int64_t r2 = distrt_iallreduce(g, axes, h, COUNT, DISTRT_F64, DISTRT_MAX);
    int64_t r3 = distrt_iallreduce(g, axes, c, COUNT, DISTRT_I64, DISTRT_SUM);
    distrt_wait(r3);
    distrt_wait(r2);
    distrt_wait(r1);
    for (int64_t j = 0; j < COUNT; ++j) {
      EXPECT(b[j] == value(mem[root], j), "ibcast root %lld axes 0x%llx",
             (long long)root, (unsigned long long)axes);
      EXPECT(c[j] == group_reduce(mem, n, j, DISTRT_SUM),
             "iallreduce sum axes 0x%llx", (unsigned long long)axes);
      EXPECT(h[j] == 0.5 * (double)group_reduce(mem, n, j, DISTRT_MAX),
             "iallreduce max axes 0x%llx", (unsigned long long)axes);
    }
  }
  /* One-level collectives on the same grid: group order by grid rank. */
  int64_t all[MAXP];
  distrt_allgather(g, axes, &me, all, 1, DISTRT_I64);
  for (int64_t i = 0; i < n; ++i)
    EXPECT(all[i] == mem[i], "allgather axes 0x%llx [%lld] = %lld",
           (unsigned long long)axes, (long long)i, (long long)all[i]);
  distrt_barrier(g, axes);
}

/* A 1-D tensor of 3 elements per process, blocked over every axis of g,
 * then cyclic: redistributed from `from` to `to` (grids of ndims axes)
 * and compared with the same tensor filled on `to`. */
static void check_redistribute(distrt_grid *from, distrt_grid *to,
                               int64_t ndims, const char *what) {
  int64_t db[4 + DISTRT_MAX_DIMS + 1], dc[4 + DISTRT_MAX_DIMS + 1];
  int64_t n = 3 * distrt_grid_size(to);
  db[0] = dc[0] = 1;
  db[1] = dc[1] = n;
  db[2] = DISTRT_KIND_BLOCKED;
  dc[2] = DISTRT_KIND_CYCLIC;
  db[3] = dc[3] = 0;
  db[4] = dc[4] = ndims;
  for (int64_t i = 0; i < ndims; ++i)
    db[5 + i] = dc[5 + i] = ndims - 1 - i;
  db[5 + ndims] = dc[5 + ndims] = 0;
  double src[3], dst[3], ref[3];
  distrt_layout_fill(from, db, src, DISTRT_F64, 5);
  distrt_redistribute(from, db, src, to, dc, dst, DISTRT_F64);
  distrt_layout_fill(to, dc, ref, DISTRT_F64, 5);
  for (int64_t i = 0; i < distrt_layout_tile_size(to, dc); ++i)
    EXPECT(dst[i] == ref[i], "%s [%lld] = %g, expected %g", what, (long long)i,
           dst[i], ref[i]);
  tu_section("redistribute %s", what);
}

int main(int argc, char **argv) {
  tu_init("distrt-test-nodes");
  if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "flat"))) {
    fprintf(stderr, "usage: distrt-test-nodes NODES PROCS [flat] (e.g. 2 "
                    "2x2)\n");
    return 2;
  }
  int64_t dims[16], nd = parse_dims(argv[1], dims);
  int64_t np = nd < 0 ? -1 : parse_dims(argv[2], dims + nd);
  if (np < 0) {
    fprintf(stderr, "distrt-test-nodes: bad extents '%s' '%s'\n", argv[1],
            argv[2]);
    return 2;
  }
  int64_t ndims = nd + np;
  int64_t size = tu_size(), nodes = 1, per = 1;
  for (int64_t i = 0; i < ndims; ++i)
    *(i < nd ? &nodes : &per) *= dims[i];
  if (size > MAXP || nodes * per != size) {
    fprintf(stderr, "distrt-test-nodes: %s x %s needs %lld ranks (<= %d)\n",
            argv[1], argv[2], (long long)(nodes * per), MAXP);
    return 2;
  }

  /* Expected grid rank of every world rank, and its inverse. */
  int64_t node[MAXP], grid_of[MAXP], world_of[MAXP];
  const char *how = "";
  int64_t found = expected_nodes(size, node, &how);
  for (int64_t w = 0; w < size; ++w) {
    int64_t before = 0;
    for (int64_t v = 0; v < w; ++v)
      before += node[v] == node[w];
    grid_of[w] = node[w] * per + before;
    world_of[grid_of[w]] = w;
  }

  distrt_barrier(tu_world(), 1); /* tu_section's communicator exists */
  int64_t comms = distrt_debug_count(DISTRT_COUNT_COMMS);
  distrt_grid *g = distrt_grid_create_nodes(ndims, dims, nd);
  int64_t me = distrt_grid_rank(g), coords[16];
  EXPECT(found == nodes, "expected %lld nodes, found %lld", (long long)nodes,
         (long long)found);
  EXPECT(me == grid_of[tu_rank()],
         "world rank %lld: grid rank %lld, "
         "expected %lld",
         (long long)tu_rank(), (long long)me, (long long)grid_of[tu_rank()]);
  EXPECT(distrt_grid_node_axes(g) == nd && distrt_grid_size(g) == size,
         "node axes %lld size %lld", (long long)distrt_grid_node_axes(g),
         (long long)distrt_grid_size(g));
  tu_coords(ndims, dims, grid_of[tu_rank()], coords);
  for (int64_t i = 0; i < ndims; ++i)
    EXPECT(distrt_grid_coord(g, i) == coords[i],
           "coordinate %lld: %lld, "
           "expected %lld",
           (long long)i, (long long)distrt_grid_coord(g, i),
           (long long)coords[i]);
  /* The grid's communicators are ordered by grid rank. */
  int64_t w = tu_rank(), all[MAXP];
  distrt_allgather(g, ((int64_t)1 << ndims) - 1, &w, all, 1, DISTRT_I64);
  for (int64_t r = 0; r < size; ++r)
    EXPECT(all[r] == world_of[r],
           "grid rank %lld is world rank %lld, "
           "expected %lld",
           (long long)r, (long long)all[r], (long long)world_of[r]);
  int64_t got = -1, next = (me + 1) % size, prev = (me + size - 1) % size;
  distrt_sendrecv(g, &w, 1, next, &got, 1, prev, DISTRT_I64, 7);
  EXPECT(got == world_of[prev], "from grid rank %lld: %lld, expected %lld",
         (long long)prev, (long long)got, (long long)world_of[prev]);
  tu_section("node mapping grid %s x %s: %lld nodes of %lld (%s)", argv[1],
             argv[2], (long long)nodes, (long long)per, how);

  /* The lookup slot keeps the node axes. */
  static distrt_grid *slot;
  EXPECT(distrt_grid_lookup_nodes(&slot, ndims, dims, nd) == slot &&
             distrt_grid_node_axes(slot) == nd &&
             distrt_grid_rank(slot) == me &&
             distrt_grid_lookup_nodes(&slot, ndims, dims, nd) == slot,
         "distrt_grid_lookup_nodes");
  tu_section("lookup slot with %lld node ax%s", (long long)nd,
             nd == 1 ? "is" : "es");

  check_redistribute(g, g, ndims, "within the grid");
  if (argc == 4) {
    /* A flat grid of the same shape pairs processes by world rank. */
    distrt_grid *flat = distrt_grid_create(ndims, dims);
    check_redistribute(g, flat, ndims, "to a flat grid");
    distrt_grid_free(flat);
  }

  for (int64_t axes = 1; axes < ((int64_t)1 << ndims); ++axes) {
    int64_t mem[MAXP];
    int64_t n = tu_members(ndims, dims, me, axes, mem);
    check_mask(g, axes, mem, n);
    tu_section("collectives axes 0x%llx", (unsigned long long)axes);
  }
  /* Freeing the grids releases every communicator they made. */
  distrt_grid_free(slot);
  distrt_grid_free(g);
  EXPECT(distrt_debug_count(DISTRT_COUNT_COMMS) == comms,
         "%lld communicators live after freeing the grids, expected %lld",
         (long long)distrt_debug_count(DISTRT_COUNT_COMMS), (long long)comms);
  tu_section("grids freed");
  return tu_finish();
}
