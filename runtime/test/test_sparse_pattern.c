/* distrt-test-sparse-pattern: a sparse output with another matrix's
 * pattern (distrt_spmat_pattern_of) and the check of a sparse result
 * (distrt_spmat_check_result; distrt/sparse.h), what SDDMM's lowering
 * calls.
 *
 *   distrt-test-sparse-pattern               every case
 *   distrt-test-sparse-pattern error NAME    one error case, which must end
 *                                            the job (prints "UNEXPECTED
 *                                            success" otherwise)
 *
 * For both partitions (rows blocked, non-zeros), widths (pos, crd) 32/32,
 * 64/64 and 64/32, f32 and f64, and three generators (banded, R-MAT,
 * uniform rectangular), B is generated and A generated otherwise (another
 * generator, another seed: other entries).  Then:
 *   - after distrt_spmat_pattern_of(A, B), A's local rows (first, count)
 *     and its ALL part's positions and coordinates equal B's byte for
 *     byte, its values are all 0, and its local and global entry counts
 *     are B's;
 *   - values written into A stay through a second call (the pattern is
 *     not copied again while B's entries are unchanged);
 *   - after B is generated again (another seed), the next call gives A
 *     the new pattern, values 0;
 *   - distrt_spmat_check_result(A, ref) with ref the dense matrix the test
 *     builds itself from B's gathered pattern and the values it wrote into
 *     A (rank 0) passes and returns 1 on every rank.
 * distrt_spmat_reserve and distrt_spmat_commit (a sum's output): room
 * reserved like another matrix, filled with that matrix's piece by hand,
 * committed: counts and dense gather equal the other's.
 * The error cases: a reference off in one element (FAIL, the first
 * mismatch, a failing exit), pattern_of on matrices of another shape,
 * partition or dtype, or on one matrix twice, and commits of more entries
 * than the room, without a reserve, or disagreeing with the positions. */
#include "test_util.h"

#include "distrt/sparse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t idx(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}

static void generate(distrt_spmat *m, int gen, int64_t seed) {
  distrt_spmat_generate(m, gen, gen == DISTRT_GEN_BANDED ? 5 : 3, seed);
}

/* A's rows and ALL part against B's; values all equal to `v` (or, with
 * v < 0, A's values untouched: only the structure). */
static void expect_pattern(distrt_spmat *a, distrt_spmat *b, int64_t pb,
                           int64_t cb, int64_t dtype, double v,
                           const char *when) {
  void *ids;
  int64_t fa, na, fb, nb;
  distrt_spmat_local_rows(a, &ids, &fa, &na);
  distrt_spmat_local_rows(b, &ids, &fb, &nb);
  EXPECT(fa == fb && na == nb, "%s: A's rows [%lld, +%lld), B's [%lld, +%lld)",
         when, (long long)fa, (long long)na, (long long)fb, (long long)nb);
  void *ap, *ac, *av, *bp, *bc, *bv;
  int64_t annz, bnnz;
  distrt_spmat_part(a, DISTRT_SPMAT_ALL, &ap, &ac, &av, &annz, NULL);
  distrt_spmat_part(b, DISTRT_SPMAT_ALL, &bp, &bc, &bv, &bnnz, NULL);
  EXPECT(annz == bnnz && annz == distrt_spmat_local_nnz(a),
         "%s: A holds %lld entries, B %lld", when, (long long)annz,
         (long long)bnnz);
  EXPECT(distrt_spmat_global_nnz(a) == distrt_spmat_global_nnz(b),
         "%s: global entries %lld and %lld", when,
         (long long)distrt_spmat_global_nnz(a),
         (long long)distrt_spmat_global_nnz(b));
  if (fa != fb || na != nb || annz != bnnz)
    return;
  EXPECT(memcmp(ap, bp, (size_t)((na + 1) * pb / 8)) == 0,
         "%s: positions differ", when);
  EXPECT(annz == 0 || memcmp(ac, bc, (size_t)(annz * cb / 8)) == 0,
         "%s: coordinates differ", when);
  if (v < 0)
    return;
  for (int64_t p = 0; p < annz; ++p)
    if (!EXPECT(tu_get(av, dtype, p) == v, "%s: value %lld is %g, not %g",
                when, (long long)p, tu_get(av, dtype, p), v))
      break;
}

/* The value the test writes into A's entry at global (row, col). */
static double value_at(int64_t row, int64_t col) {
  return 0.25 * (double)((row * 3 + col * 5) % 7) + 1.0;
}

/* Writes value_at into A's entries; returns the dense matrix (rank 0) the
 * check must find: B's gathered pattern with those values. */
static void *fill_and_reference(distrt_spmat *a, distrt_spmat *b,
                                int64_t rows, int64_t cols, int64_t pb,
                                int64_t cb, int64_t dtype) {
  void *ids, *ap, *ac, *av;
  int64_t first, nr, nnz;
  distrt_spmat_local_rows(a, &ids, &first, &nr);
  distrt_spmat_part(a, DISTRT_SPMAT_ALL, &ap, &ac, &av, &nnz, NULL);
  for (int64_t r = 0; r < nr; ++r)
    for (int64_t p = idx(ap, pb, r); p < idx(ap, pb, r + 1); ++p)
      tu_set(av, dtype, p, value_at(first + r, idx(ac, cb, p)));
  int64_t es = tu_esize(dtype), n = rows * cols;
  void *dense = tu_rank() == 0 ? calloc((size_t)(n > 0 ? n : 1), (size_t)es)
                               : NULL;
  distrt_spmat_gather_dense(b, dense, 0);
  if (dense)
    for (int64_t i = 0; i < n; ++i)
      if (tu_get(dense, dtype, i) != 0.0)
        tu_set(dense, dtype, i, value_at(i / cols, i % cols));
  return dense;
}

static void run_one(int kind, int64_t pb, int64_t cb, int64_t dtype, int gen,
                    int64_t rows, int64_t cols) {
  distrt_grid *g = tu_world();
  distrt_spmat *(*create)(distrt_grid *, int64_t, int64_t, int64_t, int64_t,
                          int64_t) =
      kind == DISTRT_SPMAT_ROWS ? distrt_spmat_create
                                : distrt_spmat_create_nonzeros;
  distrt_spmat *b = create(g, rows, cols, pb, cb, dtype);
  distrt_spmat *a = create(g, rows, cols, pb, cb, dtype);
  generate(b, gen, 11);
  distrt_spmat_generate(a, DISTRT_GEN_UNIFORM, 2, 99);
  distrt_spmat_pattern_of(a, b);
  expect_pattern(a, b, pb, cb, dtype, 0.0, "first call");
  void *ap, *ac, *av;
  int64_t nnz;
  distrt_spmat_part(a, DISTRT_SPMAT_ALL, &ap, &ac, &av, &nnz, NULL);
  for (int64_t p = 0; p < nnz; ++p)
    tu_set(av, dtype, p, 2.5);
  distrt_spmat_pattern_of(a, b);
  expect_pattern(a, b, pb, cb, dtype, 2.5, "second call (no copy)");
  generate(b, gen, 12);
  distrt_spmat_pattern_of(a, b);
  expect_pattern(a, b, pb, cb, dtype, 0.0, "after B changed");
  void *ref = fill_and_reference(a, b, rows, cols, pb, cb, dtype);
  int64_t ok = distrt_spmat_check_result(a, "pattern", ref,
                                         dtype == DISTRT_F32 ? 1e-6 : 1e-12);
  EXPECT(ok == 1, "distrt_spmat_check_result returned %lld", (long long)ok);
  free(ref);
  distrt_spmat_free(a);
  distrt_spmat_free(b);
}

/* distrt_spmat_reserve then distrt_spmat_commit with b's own piece
 * written into the room: a must equal b (counts, gather). */
static void run_reserve(int64_t pb, int64_t cb, int64_t dtype) {
  distrt_grid *g = tu_world();
  int64_t rows = 29, cols = 17;
  distrt_spmat *b = distrt_spmat_create(g, rows, cols, pb, cb, dtype);
  distrt_spmat *a = distrt_spmat_create(g, rows, cols, pb, cb, dtype);
  distrt_spmat_generate(b, DISTRT_GEN_UNIFORM, 3, 21);
  distrt_spmat_generate(a, DISTRT_GEN_UNIFORM, 1, 22);
  void *bp, *bc, *bv, *ap, *ac, *av;
  int64_t nnz;
  distrt_spmat_part(b, DISTRT_SPMAT_ALL, &bp, &bc, &bv, &nnz, NULL);
  distrt_spmat_reserve(a, b, nnz + 5, &ap, &ac, &av);
  void *ids;
  int64_t first, nr;
  distrt_spmat_local_rows(a, &ids, &first, &nr);
  memcpy(ap, bp, (size_t)((nr + 1) * pb / 8));
  memcpy(ac, bc, (size_t)(nnz * cb / 8));
  memcpy(av, bv, (size_t)(nnz * tu_esize(dtype)));
  distrt_spmat_commit(a, nnz);
  EXPECT(distrt_spmat_local_nnz(a) == nnz, "local entries %lld, expected %lld",
         (long long)distrt_spmat_local_nnz(a), (long long)nnz);
  EXPECT(distrt_spmat_global_nnz(a) == distrt_spmat_global_nnz(b),
         "global entries %lld, expected %lld",
         (long long)distrt_spmat_global_nnz(a),
         (long long)distrt_spmat_global_nnz(b));
  int64_t n = rows * cols, es = tu_esize(dtype);
  void *ga = tu_rank() == 0 ? calloc((size_t)n, (size_t)es) : NULL;
  void *gb = tu_rank() == 0 ? calloc((size_t)n, (size_t)es) : NULL;
  distrt_spmat_gather_dense(a, ga, 0);
  distrt_spmat_gather_dense(b, gb, 0);
  if (ga)
    EXPECT(memcmp(ga, gb, (size_t)(n * es)) == 0, "gathers differ");
  free(ga);
  free(gb);
  distrt_spmat_free(a);
  distrt_spmat_free(b);
}

static int error_case(const char *name) {
  tu_init("distrt-test-sparse-pattern");
  distrt_grid *g = tu_world();
  distrt_spmat *b = distrt_spmat_create(g, 9, 7, 32, 32, DISTRT_F64);
  distrt_spmat_generate(b, DISTRT_GEN_UNIFORM, 2, 3);
  if (!strcmp(name, "shape")) {
    distrt_spmat_pattern_of(distrt_spmat_create(g, 9, 8, 32, 32, DISTRT_F64),
                            b);
  } else if (!strcmp(name, "partition")) {
    distrt_spmat_pattern_of(
        distrt_spmat_create_nonzeros(g, 9, 7, 32, 32, DISTRT_F64), b);
  } else if (!strcmp(name, "dtype")) {
    distrt_spmat_pattern_of(distrt_spmat_create(g, 9, 7, 32, 32, DISTRT_F32),
                            b);
  } else if (!strcmp(name, "same")) {
    distrt_spmat_pattern_of(b, b);
  } else if (!strcmp(name, "commit-room")) {
    distrt_spmat *a = distrt_spmat_create(g, 9, 7, 32, 32, DISTRT_F64);
    distrt_spmat_reserve(a, b, 4, NULL, NULL, NULL);
    distrt_spmat_commit(a, 5);
  } else if (!strcmp(name, "commit-unreserved")) {
    distrt_spmat_commit(b, 0);
  } else if (!strcmp(name, "commit-pos")) {
    distrt_spmat *a = distrt_spmat_create(g, 9, 7, 32, 32, DISTRT_F64);
    distrt_spmat_reserve(a, b, 4, NULL, NULL, NULL);
    distrt_spmat_commit(a, 3); /* the positions (zero) end at 0 */
  } else if (!strcmp(name, "checkfail")) {
    distrt_spmat *a = distrt_spmat_create(g, 9, 7, 32, 32, DISTRT_F64);
    distrt_spmat_pattern_of(a, b);
    void *ref = fill_and_reference(a, b, 9, 7, 32, 32, DISTRT_F64);
    if (ref) /* element (8, 6): stored or not, now off by 0.5 */
      tu_set(ref, DISTRT_F64, 9 * 7 - 1, tu_get(ref, DISTRT_F64, 62) + 0.5);
    int64_t ok = distrt_spmat_check_result(a, "off by one", ref, 1e-12);
    if (tu_rank() == 0)
      printf("check returned %lld\n", (long long)ok);
    free(ref);
    return tu_finish();
  } else {
    fprintf(stderr, "unknown error case '%s'\n", name);
    return 2;
  }
  printf("UNEXPECTED success\n");
  return tu_finish();
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "error") == 0)
    return error_case(argv[2]);
  if (argc != 1) {
    fprintf(stderr, "usage: distrt-test-sparse-pattern [error NAME]\n");
    return 2;
  }
  tu_init("distrt-test-sparse-pattern");
  static const int64_t widths[3][2] = {{32, 32}, {64, 64}, {64, 32}};
  static const struct {
    const char *name;
    int gen;
    int64_t rows, cols;
  } mats[] = {{"banded", DISTRT_GEN_BANDED, 23, 23},
              {"rmat", DISTRT_GEN_RMAT, 32, 32},
              {"uniform", DISTRT_GEN_UNIFORM, 19, 13}};
  for (int kind = DISTRT_SPMAT_ROWS; kind <= DISTRT_SPMAT_NONZEROS; ++kind)
    for (size_t m = 0; m < sizeof mats / sizeof mats[0]; ++m) {
      for (int w = 0; w < 3; ++w)
        for (int64_t dtype = DISTRT_F32; dtype <= DISTRT_F64; ++dtype)
          run_one(kind, widths[w][0], widths[w][1], dtype, mats[m].gen,
                  mats[m].rows, mats[m].cols);
      tu_section("pattern %s %s %lldx%lld",
                 kind == DISTRT_SPMAT_ROWS ? "rows" : "nonzeros",
                 mats[m].name, (long long)mats[m].rows,
                 (long long)mats[m].cols);
    }
  for (int w = 0; w < 3; ++w)
    for (int64_t dtype = DISTRT_F32; dtype <= DISTRT_F64; ++dtype)
      run_reserve(widths[w][0], widths[w][1], dtype);
  tu_section("reserve and commit");
  return tu_finish();
}
