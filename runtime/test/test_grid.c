/* distrt-test-grid: grid coordinates / ranks and sub-communicators, checked
 * against an independent row-major reference, on any number of ranks.
 * Membership and ordering of every sub-communicator are verified with real
 * communication (allgather / allreduce of world ranks over the mask). */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

static void fmt_dims(char *out, size_t n, int64_t ndims, const int64_t *dims) {
  size_t len = 0;
  for (int64_t i = 0; i < ndims; ++i)
    len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? "x" : "",
                            (long long)dims[i]);
}

static void check_grid(distrt_grid *g, int64_t ndims, const int64_t *dims,
                       int comm_masks) {
  int64_t me = tu_rank(), n = tu_size();
  int64_t ref[16], got[16];
  EXPECT(distrt_grid_ndims(g) == ndims, "ndims %lld", (long long)ndims);
  EXPECT(distrt_grid_size(g) == n, "size %lld != %lld",
         (long long)distrt_grid_size(g), (long long)n);
  EXPECT(distrt_grid_rank(g) == me, "grid rank %lld != world rank %lld",
         (long long)distrt_grid_rank(g), (long long)me);
  for (int64_t i = 0; i < ndims; ++i)
    EXPECT(distrt_grid_dim(g, i) == dims[i], "dim %lld", (long long)i);
  tu_coords(ndims, dims, me, ref);
  for (int64_t i = 0; i < ndims; ++i)
    EXPECT(distrt_grid_coord(g, i) == ref[i], "coord %lld: %lld != %lld",
           (long long)i, (long long)distrt_grid_coord(g, i),
           (long long)ref[i]);
  for (int64_t r = 0; r < n; ++r) {
    tu_coords(ndims, dims, r, ref);
    distrt_grid_coords_of(g, r, got);
    for (int64_t i = 0; i < ndims; ++i)
      EXPECT(got[i] == ref[i], "coords_of(%lld)[%lld] = %lld, expected %lld",
             (long long)r, (long long)i, (long long)got[i], (long long)ref[i]);
    EXPECT(distrt_grid_rank_of(g, ref) == r, "rank_of(coords of %lld) = %lld",
           (long long)r, (long long)distrt_grid_rank_of(g, ref));
  }
  for (int64_t mask = 0; mask < ((int64_t)1 << ndims); ++mask) {
    int64_t members[4096];
    int64_t m = tu_members(ndims, dims, me, mask, members);
    int64_t pos = -1;
    for (int64_t i = 0; i < m; ++i)
      if (members[i] == me)
        pos = i;
    EXPECT(distrt_axes_size(g, mask) == m, "axes_size(0x%llx) = %lld, "
           "expected %lld", (unsigned long long)mask,
           (long long)distrt_axes_size(g, mask), (long long)m);
    EXPECT(distrt_axes_rank(g, mask) == pos, "axes_rank(0x%llx) = %lld, "
           "expected %lld", (unsigned long long)mask,
           (long long)distrt_axes_rank(g, mask), (long long)pos);
    if (!comm_masks)
      continue;
    /* Real membership and order. */
    int64_t all[4096];
    memset(all, 0xff, sizeof all);
    distrt_allgather(g, mask, &me, all, 1, DISTRT_I64);
    for (int64_t i = 0; i < m; ++i)
      EXPECT(all[i] == members[i],
             "allgather over 0x%llx: slot %lld holds rank %lld, expected %lld",
             (unsigned long long)mask, (long long)i, (long long)all[i],
             (long long)members[i]);
    int64_t sum = me, expect = 0;
    for (int64_t i = 0; i < m; ++i)
      expect += members[i];
    distrt_allreduce(g, mask, &sum, 1, DISTRT_I64, DISTRT_SUM);
    EXPECT(sum == expect, "allreduce over 0x%llx: %lld, expected %lld",
           (unsigned long long)mask, (long long)sum, (long long)expect);
    distrt_barrier(g, mask);
  }
}

/* All ordered factorisations of n into `ndims` factors. */
static void for_each_factorisation(int64_t n, int64_t ndims, int64_t depth,
                                   int64_t *dims, int generic) {
  if (depth == ndims - 1) {
    dims[depth] = n;
    char name[128];
    fmt_dims(name, sizeof name, ndims, dims);
    distrt_grid *g;
    if (generic || ndims > 3)
      g = distrt_grid_create(ndims, dims);
    else if (ndims == 1)
      g = distrt_grid_create1(dims[0]);
    else if (ndims == 2)
      g = distrt_grid_create2(dims[0], dims[1]);
    else
      g = distrt_grid_create3(dims[0], dims[1], dims[2]);
    check_grid(g, ndims, dims, 1);
    distrt_grid_free(g);
    tu_section("grid %s%s", name, generic ? " (distrt_grid_create)" : "");
    return;
  }
  for (int64_t f = 1; f <= n; ++f)
    if (n % f == 0) {
      dims[depth] = f;
      for_each_factorisation(n / f, ndims, depth + 1, dims, generic);
    }
}

int main(void) {
  tu_init("distrt-test-grid");
  int64_t n = tu_size();
  int64_t dims[8];

  for (int64_t nd = 1; nd <= 3; ++nd)
    for_each_factorisation(n, nd, 0, dims, 0);
  for_each_factorisation(n, 2, 0, dims, 1);

  /* Eight axes (the maximum): the whole world on one axis, others 1. */
  for (int64_t i = 0; i < 8; ++i)
    dims[i] = i == 5 ? n : 1;
  distrt_grid *g8 = distrt_grid_create(8, dims);
  check_grid(g8, 8, dims, 0);
  int64_t masks[] = {0, 1 << 5, 0xff, 0x21, 0xde};
  for (int i = 0; i < 5; ++i) {
    int64_t v = 1;
    distrt_allreduce(g8, masks[i], &v, 1, DISTRT_I64, DISTRT_SUM);
    int64_t expect = (masks[i] & (1 << 5)) ? n : 1;
    EXPECT(v == expect, "8-d grid, mask 0x%llx: %lld processes, expected %lld",
           (unsigned long long)masks[i], (long long)v, (long long)expect);
  }
  tu_section("grid 8 axes");

  /* Several live grids; sub-communicators cached and independent. */
  distrt_grid *a = distrt_grid_create2(n, 1);
  distrt_grid *b = distrt_grid_create2(1, n);
  distrt_grid *c = distrt_grid_create1(n);
  for (int rep = 0; rep < 3; ++rep) {
    int64_t va = 1, vb = 1, vc = 1;
    distrt_allreduce(a, 1, &va, 1, DISTRT_I64, DISTRT_SUM);
    distrt_allreduce(b, 1, &vb, 1, DISTRT_I64, DISTRT_SUM);
    distrt_allreduce(c, 1, &vc, 1, DISTRT_I64, DISTRT_SUM);
    EXPECT(va == n && vb == 1 && vc == n, "cached: %lld %lld %lld",
           (long long)va, (long long)vb, (long long)vc);
  }
  distrt_grid_free(b);
  {
    int64_t va = 1;
    distrt_allreduce(a, 3, &va, 1, DISTRT_I64, DISTRT_SUM);
    EXPECT(va == n, "after freeing another grid: %lld", (long long)va);
  }
  tu_section("grid lifetime (several live grids, free, cached communicators)");
  /* a and c are left alive on purpose: distrt_finalize frees them. */

  /* distrt_grid_lookup: create once per slot, then return the cached grid;
   * re-create after the grid was freed. */
  {
    static distrt_grid *slot;
    int64_t d[2] = {n, 1};
    distrt_grid *l1 = distrt_grid_lookup(&slot, 2, d);
    distrt_grid *l2 = distrt_grid_lookup(&slot, 2, d);
    EXPECT(l1 != NULL && l1 == slot && l2 == l1,
           "lookup returned %p then %p, slot %p", (void *)l1, (void *)l2,
           (void *)slot);
    check_grid(l1, 2, d, 1);
    distrt_grid_free(l1);
    distrt_grid *l3 = distrt_grid_lookup(&slot, 2, d);
    EXPECT(l3 == slot && distrt_grid_size(l3) == n,
           "lookup after free returned %p, slot %p", (void *)l3,
           (void *)slot);
    static distrt_grid *other;
    distrt_grid *l4 = distrt_grid_lookup(&other, 1, &n);
    EXPECT(other == l4 && l4 != l3 && distrt_grid_ndims(l4) == 1,
           "second slot");
  }
  tu_section("grid lookup (cached per slot)");

  return tu_finish();
}
