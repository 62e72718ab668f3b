/* distrt-test-tiles: tile descriptors.  Local extents and index maps are
 * checked exhaustively; distrt_fill is checked to be independent of the
 * distribution by filling a 10x7 tensor under several layouts (blocked,
 * cyclic, block-cyclic, replicated, one rank), gathering it with
 * distrt_gather_tensor and comparing bitwise with distrt_fill_global;
 * distrt_max_rel_error and distrt_check_tensor are checked too.
 * Runs on 1 or 4 ranks (other counts run the layouts that fit). */
#include "test_util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_index_maps(void) {
  for (int64_t n = 0; n <= 23; ++n)
    for (int64_t p = 1; p <= 5; ++p)
      for (int64_t b = (n == 0 ? 0 : 1); b <= 8; ++b) {
        int64_t owned[32] = {0}, total = 0;
        for (int64_t c = 0; c < p; ++c) {
          int64_t e = distrt_local_extent(n, p, c, b);
          /* reference: count by the ownership rule */
          int64_t ref = 0;
          for (int64_t g = 0; g < n; ++g)
            if ((g / b) % p == c)
              ++ref;
          EXPECT(e == ref, "local_extent(%lld, %lld, %lld, %lld) = %lld, "
                 "expected %lld", (long long)n, (long long)p, (long long)c,
                 (long long)b, (long long)e, (long long)ref);
          total += e;
          int64_t prev = -1;
          for (int64_t l = 0; l < e && b > 0; ++l) {
            int64_t g = distrt_local_to_global(l, p, c, b);
            EXPECT(g >= 0 && g < n && (g / b) % p == c && g > prev,
                   "local_to_global(%lld, %lld, %lld, %lld) = %lld (n=%lld)",
                   (long long)l, (long long)p, (long long)c, (long long)b,
                   (long long)g, (long long)n);
            if (g >= 0 && g < n)
              ++owned[g];
            prev = g;
          }
        }
        EXPECT(total == n, "extents over %lld processes sum to %lld, not %lld",
               (long long)p, (long long)total, (long long)n);
        for (int64_t g = 0; g < n; ++g)
          EXPECT(owned[g] == 1, "global %lld owned %lld times", (long long)g,
                 (long long)owned[g]);
      }
  /* blocked with the usual b = ceil(n/p) and huge blocks */
  EXPECT(distrt_local_extent(10, 4, 3, 3) == 1, "blocked 10/4, last");
  EXPECT(distrt_local_extent(10, 4, 0, 3) == 3, "blocked 10/4, first");
  EXPECT(distrt_local_extent(5, 2, 1, INT64_MAX / 2) == 0, "huge block");
  EXPECT(distrt_local_extent(5, 2, 0, INT64_MAX / 2) == 5, "huge block");
  EXPECT(distrt_local_to_global(4, 3, 2, 2) == 16, "block-cyclic 4 -> 16");
}

static void test_values(void) {
  int64_t counts[16] = {0};
  for (int64_t i = 0; i < 20000; ++i) {
    double v = distrt_value(42, i);
    EXPECT(v >= -1.0 && v < 1.0, "value %lld = %g out of [-1, 1)",
           (long long)i, v);
    EXPECT((double)(float)v == v, "value %lld = %.17g is not a float",
           (long long)i, v);
    EXPECT(distrt_value(42, i) == v, "value not deterministic");
    int64_t k = (int64_t)floor(8 * v) + 8;
    if (k >= 0 && k < 16)
      ++counts[k];
  }
  for (int k = 0; k < 16; ++k)
    EXPECT(counts[k] > 1000, "integer value %d occurs %lld times in 20000",
           k - 8, (long long)counts[k]);
  int same = 0;
  for (int64_t i = 0; i < 100; ++i)
    same += distrt_value(1, i) == distrt_value(2, i);
  EXPECT(same < 5, "seeds 1 and 2 agree on %d of 100 values", same);

  /* fill_global values for each dtype */
  int64_t shape[2] = {3, 4};
  float f[12];
  double d[12];
  int32_t i32[12];
  int64_t i64[12];
  distrt_fill_global(f, DISTRT_F32, 2, shape, 7);
  distrt_fill_global(d, DISTRT_F64, 2, shape, 7);
  distrt_fill_global(i32, DISTRT_I32, 2, shape, 7);
  distrt_fill_global(i64, DISTRT_I64, 2, shape, 7);
  for (int64_t i = 0; i < 12; ++i) {
    double v = distrt_value(7, i);
    EXPECT(f[i] == (float)v && d[i] == v, "fill_global float %lld",
           (long long)i);
    EXPECT(i32[i] == (int32_t)floor(8 * v) && i64[i] == (int64_t)floor(8 * v),
           "fill_global int %lld: %d, expected floor(8*%g)", (long long)i,
           (int)i32[i], v);
    EXPECT(i32[i] >= -8 && i32[i] < 8, "int value %d", (int)i32[i]);
  }
}

struct layout {
  const char *name;
  int64_t grid_axes; /* 1: 1-D grid of all ranks; 2: 2x2 grid */
  int64_t need;      /* required world size, 0 = any */
  /* per tensor dim: which grid axis splits it (-1 none) and block size
   * (0 = blocked, ceil(n/p)) */
  int64_t axis[3];
  int64_t block[3];
};

static void make_desc(const struct layout *L, distrt_grid *g, int64_t ndims,
                      const int64_t *shape, int64_t *procs, int64_t *coords,
                      int64_t *blocks) {
  for (int64_t d = 0; d < ndims; ++d) {
    if (L->axis[d] < 0) {
      procs[d] = 1;
      coords[d] = 0;
      blocks[d] = shape[d];
    } else {
      procs[d] = distrt_grid_dim(g, L->axis[d]);
      coords[d] = distrt_grid_coord(g, L->axis[d]);
      blocks[d] = L->block[d] ? L->block[d]
                              : (shape[d] + procs[d] - 1) / procs[d];
    }
  }
}

static void test_layout(const struct layout *L, distrt_grid *g,
                        int64_t ndims, const int64_t *shape, int64_t dtype,
                        int64_t root) {
  int64_t procs[3], coords[3], blocks[3];
  make_desc(L, g, ndims, shape, procs, coords, blocks);
  int64_t local = 1, global = 1;
  for (int64_t d = 0; d < ndims; ++d) {
    local *= distrt_local_extent(shape[d], procs[d], coords[d], blocks[d]);
    global *= shape[d];
  }
  int64_t es = tu_esize(dtype);
  void *tile = distrt_alloc(local * es);
  void *all = distrt_alloc(global * es);
  void *ref = distrt_alloc(global * es);
  memset(all, 0xab, (size_t)(global * es));
  distrt_fill(tile, dtype, ndims, shape, procs, coords, blocks, 1234);
  distrt_fill_global(ref, dtype, ndims, shape, 1234);
  /* the tile itself, element by element, through local_to_global */
  if (ndims == 2) {
    int64_t e1 = distrt_local_extent(shape[1], procs[1], coords[1], blocks[1]);
    for (int64_t l = 0; l < local; ++l) {
      int64_t g0 = distrt_local_to_global(l / e1, procs[0], coords[0],
                                          blocks[0]);
      int64_t g1 = distrt_local_to_global(l % e1, procs[1], coords[1],
                                          blocks[1]);
      EXPECT(memcmp((char *)tile + l * es, (char *)ref + (g0 * shape[1] + g1) *
                    es, (size_t)es) == 0,
             "%s %s: tile element %lld (global %lld,%lld) differs", L->name,
             tu_dtype_name(dtype), (long long)l, (long long)g0,
             (long long)g1);
    }
  }
  distrt_gather_tensor(g, tile, dtype, ndims, shape, procs, coords, blocks,
                       tu_rank() == root ? all : NULL, root);
  if (tu_rank() == root)
    for (int64_t i = 0; i < global; ++i)
      EXPECT(memcmp((char *)all + i * es, (char *)ref + i * es, (size_t)es) ==
                 0,
             "%s %s: gathered element %lld differs from fill_global",
             L->name, tu_dtype_name(dtype), (long long)i);
  distrt_free(tile);
  distrt_free(all);
  distrt_free(ref);
}

static void test_max_rel_error(void) {
  double ref[3] = {1, 2, -4}, a[3] = {1, 2.5, -4}, z[3] = {0, 0, 0};
  EXPECT(distrt_max_rel_error(ref, ref, 3, DISTRT_F64) == 0.0, "equal");
  EXPECT(distrt_max_rel_error(a, ref, 3, DISTRT_F64) == 0.125, "0.5 / 4");
  EXPECT(distrt_max_rel_error(z, z, 3, DISTRT_F64) == 0.0, "zeros");
  EXPECT(distrt_max_rel_error(a, z, 3, DISTRT_F64) > 1e300, "zero reference");
  EXPECT(distrt_max_rel_error(NULL, NULL, 0, DISTRT_F64) == 0.0, "empty");
  double n[3] = {1, NAN, -4};
  EXPECT(isnan(distrt_max_rel_error(n, ref, 3, DISTRT_F64)), "NaN in a");
  EXPECT(isnan(distrt_max_rel_error(ref, n, 3, DISTRT_F64)), "NaN in ref");
  int32_t ia[2] = {3, -8}, ir[2] = {4, -8};
  EXPECT(distrt_max_rel_error(ia, ir, 2, DISTRT_I32) == 1.0 / 8.0, "i32");
  int64_t la[2] = {3, -8}, lr[2] = {3, -6};
  EXPECT(distrt_max_rel_error(la, lr, 2, DISTRT_I64) == 2.0 / 6.0, "i64");
  float fa[2] = {1.0f, 2.0f}, fr[2] = {1.0f, 2.0f};
  EXPECT(distrt_max_rel_error(fa, fr, 2, DISTRT_F32) == 0.0, "f32");
}

int main(void) {
  tu_init("distrt-test-tiles");
  int64_t n = tu_size();

  test_index_maps();
  tu_section("local_extent / local_to_global");
  test_values();
  tu_section("distrt_value / fill_global");
  test_max_rel_error();
  tu_section("max_rel_error");

  distrt_grid *g1 = distrt_grid_create1(n);
  distrt_grid *g2 = n == 4 ? distrt_grid_create2(2, 2) : NULL;
  static const struct layout layouts[] = {
      {"blocked Nx1", 1, 0, {0, -1, -1}, {0, 0, 0}},
      {"cyclic Nx1", 1, 0, {0, -1, -1}, {1, 0, 0}},
      {"block-cyclic(3) Nx1", 1, 0, {0, -1, -1}, {3, 0, 0}},
      {"blocked 1xN", 1, 0, {-1, 0, -1}, {0, 0, 0}},
      {"one rank (replicated everywhere)", 1, 0, {-1, -1, -1}, {0, 0, 0}},
      {"blocked 2x2", 2, 4, {0, 1, -1}, {0, 0, 0}},
      {"cyclic 2x2", 2, 4, {0, 1, -1}, {1, 1, 0}},
      {"block-cyclic(3) 2x2", 2, 4, {0, 1, -1}, {3, 3, 0}},
      {"rows blocked, replicated over axis 1", 2, 4, {0, -1, -1}, {0, 0, 0}},
      {"columns cyclic, replicated over axis 0", 2, 4, {-1, 1, -1},
       {0, 1, 0}},
      {"transposed block-cyclic(2)", 2, 4, {1, 0, -1}, {2, 2, 0}},
  };
  int64_t shape[2] = {10, 7};
  for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; ++k) {
    const struct layout *L = &layouts[k];
    if (L->need && L->need != n)
      continue;
    distrt_grid *g = L->grid_axes == 1 ? g1 : g2;
    for (int64_t dt = 0; dt < 4; ++dt)
      for (int64_t root = 0; root < n; root += (n > 1 ? n - 1 : 1))
        test_layout(L, g, 2, shape, dt, root);
    tu_section("fill/gather 10x7 %s", L->name);
  }

  /* 3-D, scalar and empty tensors */
  {
    static const struct layout l3 = {"3-D", 1, 0, {-1, 0, -1}, {0, 2, 0}};
    int64_t s3[3] = {3, 9, 4};
    for (int64_t dt = 0; dt < 4; ++dt)
      test_layout(&l3, g1, 3, s3, dt, 0);
    static const struct layout l0 = {"scalar", 1, 0, {-1, -1, -1}, {0, 0, 0}};
    test_layout(&l0, g1, 0, NULL, DISTRT_F64, 0);
    static const struct layout le = {"empty", 1, 0, {0, -1, -1}, {0, 0, 0}};
    int64_t se[2] = {0, 5};
    test_layout(&le, g1, 2, se, DISTRT_I32, 0);
  }
  tu_section("fill/gather 3-D, scalar and empty tensors");

  /* check_tensor: pass, fail, and the result on every rank */
  {
    int64_t procs[2] = {n, 1}, coords[2] = {tu_rank(), 0};
    int64_t blocks[2] = {(10 + n - 1) / n, 7};
    int64_t local = distrt_local_extent(10, n, tu_rank(), blocks[0]) * 7;
    double *tile = distrt_alloc(local * 8);
    double *ref = distrt_alloc(70 * 8);
    distrt_fill(tile, DISTRT_F64, 2, shape, procs, coords, blocks, 5);
    distrt_fill_global(ref, DISTRT_F64, 2, shape, 5);
    int64_t ok = distrt_check_tensor(g1, "C", tile, DISTRT_F64, 2, shape,
                                     procs, coords, blocks,
                                     tu_rank() == 0 ? ref : NULL, 0.0);
    EXPECT(ok == 1, "check_tensor on equal data returned %lld", (long long)ok);
    double maxref = 0;
    for (int i = 0; i < 70; ++i)
      maxref = fabs(ref[i]) > maxref ? fabs(ref[i]) : maxref;
    ref[23] += 0.5 * maxref; /* relative error 0.5 */
    ok = distrt_check_tensor(g1, "C perturbed", tile, DISTRT_F64, 2, shape,
                             procs, coords, blocks, tu_rank() == 0 ? ref : NULL,
                             0.25);
    EXPECT(ok == 0, "check_tensor on perturbed data returned %lld",
           (long long)ok);
    ok = distrt_check_tensor(g1, "C loose", tile, DISTRT_F64, 2, shape, procs,
                             coords, blocks, tu_rank() == 0 ? ref : NULL, 0.75);
    EXPECT(ok == 1, "check_tensor with tolerance 0.75 returned %lld",
           (long long)ok);
    distrt_free(tile);
    distrt_free(ref);
  }
  tu_section("check_tensor");
  return tu_finish();
}
