/* distrt-test-onesided: distrt_onesided_matmul (the one-sided "Slicing"
 * matrix multiply) on every grid the rank count allows.
 *
 *   distrt-test-onesided [MODE] [grid P0]  one grid or every grid
 *   distrt-test-onesided [MODE] grids [G]  A, B and C on different grids of
 *                                          the same processes
 *                                          (..._matmul_grids); G: only
 *                                          A on the G-th ([P] first)
 *   distrt-test-onesided error NAME  one error case, which must end the job
 *                                    (prints "UNEXPECTED success" otherwise)
 *
 * Grids: 1 rank [1]; 2: [2], [1x2], [2x1]; 3: [3]; 4: [4], [2x2]; 6: [6],
 * [2x3], [3x2] (others: the 1-D grid).  Layouts of A, B and C, each chosen
 * independently from the grid's list below (row / column blocked, 2-D
 * blocked, block-cyclic, cyclic, replicated, blocked over one axis and
 * replicated over the other, fixed on one axis), times stationary A / B /
 * C; accumulate, offset, prefetch (1, 2 or 4), the sizes (M x K x N with
 * extents that do not divide, and 1s) and f32 / f64 vary from case to case
 * so that every combination of them occurs.  Every 4th case calls twice on
 * the same buffers (the window cache's reuse) and expects the second call
 * to have added once more.  The panel budget
 * (DISTRT_ONESIDED_PANEL_BYTES) is unset, 1 byte (chunks of width 1) or
 * 300 bytes from case to case; a last section checks the word counter
 * exactly (no remote element fetched twice).
 *
 * The test builds each tile itself (its own owner computation, by brute
 * force over the global indices) from integer formulas, computes the
 * product with its own triple loop and compares every element of every
 * process's C tile, every replica included; sums are exact in f32.
 *
 * MODE: none, every case (every triple of layouts times stationary A / B /
 * C); "quick", every 7th; "pairs", a Latin square: every pair of layouts
 * of A and B times every stationary, C's layout (la + lb + st) mod n, so
 * that every pair and every triple among A's, B's and C's layouts and the
 * stationary operand with at most one of A, B, C left out occurs (3 n^2
 * cases instead of 3 n^3).  Each case creates its windows (MPI_Win_create
 * duplicates the grid's communicator), which many oversubscribed ranks
 * make slow when other jobs share the cores: the suite runs the full
 * product on 1 and 2 ranks and pairs on more.  On grid triples "pairs"
 * runs each pair of A's and B's grids and layouts once, on one grid of C
 * and with one stationary.  In "pairs" the other parameters follow the
 * number of the case among those run, so that it still sees all their
 * combinations. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- layouts ----------------------------------------------------------===*/

typedef struct {
  const char *name;
  int64_t kind[2], block[2], naxes[2], axes[2][2];
  int64_t nfixed, faxis, fcoord;
} spec;

static int nspecs;
static spec specs[16];
static spec *into = specs; /* where add() appends (make_specs_into) */
static int *into_n = &nspecs;

static void add(const char *name, int64_t k0, int64_t b0, int64_t n0,
                int64_t a00, int64_t a01, int64_t k1, int64_t b1, int64_t n1,
                int64_t a10, int64_t a11) {
  spec s;
  memset(&s, 0, sizeof s);
  s.name = name;
  s.kind[0] = k0, s.block[0] = b0, s.naxes[0] = n0;
  s.axes[0][0] = a00, s.axes[0][1] = a01;
  s.kind[1] = k1, s.block[1] = b1, s.naxes[1] = n1;
  s.axes[1][0] = a10, s.axes[1][1] = a11;
  into[(*into_n)++] = s;
}

enum {
  NO = DISTRT_KIND_NONE,
  BL = DISTRT_KIND_BLOCKED,
  CY = DISTRT_KIND_CYCLIC,
  BC = DISTRT_KIND_BLOCK_CYCLIC
};

static void make_specs(int64_t ndims, const int64_t *dims);

/* The layouts of a grid into out[0..*n) (for the grid pairs). */
static void make_specs_into(spec *out, int *n, int64_t ndims,
                            const int64_t *dims) {
  into = out;
  into_n = n;
  make_specs(ndims, dims);
  into = specs;
  into_n = &nspecs;
}

static void make_specs(int64_t ndims, const int64_t *dims) {
  *into_n = 0;
  if (ndims == 1) {
    add("row", BL, 0, 1, 0, 0, NO, 0, 0, 0, 0);
    add("col", NO, 0, 0, 0, 0, BL, 0, 1, 0, 0);
    add("bc2row", BC, 2, 1, 0, 0, NO, 0, 0, 0, 0);
    add("bc3col", NO, 0, 0, 0, 0, BC, 3, 1, 0, 0);
    add("cyccol", NO, 0, 0, 0, 0, CY, 0, 1, 0, 0);
    add("repl", NO, 0, 0, 0, 0, NO, 0, 0, 0, 0);
    return;
  }
  add("row", BL, 0, 2, 0, 1, NO, 0, 0, 0, 0);
  add("col", NO, 0, 0, 0, 0, BL, 0, 2, 1, 0);
  add("2d", BL, 0, 1, 0, 0, BL, 0, 1, 1, 0);
  add("bc", BC, 2, 1, 0, 0, BC, 3, 1, 1, 0);
  add("repl", NO, 0, 0, 0, 0, NO, 0, 0, 0, 0);
  add("row0", BL, 0, 1, 0, 0, NO, 0, 0, 0, 0);  /* replicated over axis 1 */
  add("cyc1", NO, 0, 0, 0, 0, CY, 0, 1, 1, 0);  /* replicated over axis 0 */
  add("fixed", BC, 2, 1, 0, 0, NO, 0, 0, 0, 0); /* on axis 1 = last */
  into[*into_n - 1].nfixed = 1;
  into[*into_n - 1].faxis = 1;
  into[*into_n - 1].fcoord = dims[1] - 1;
}

static void make_desc(const spec *s, int64_t n0, int64_t n1, int64_t *d) {
  int64_t pos = 0, n[2] = {n0, n1};
  d[pos++] = 2;
  for (int i = 0; i < 2; ++i) {
    d[pos++] = n[i];
    d[pos++] = s->kind[i];
    d[pos++] = s->block[i];
    d[pos++] = s->naxes[i];
    for (int a = 0; a < s->naxes[i]; ++a)
      d[pos++] = s->axes[i][a];
  }
  d[pos++] = s->nfixed;
  if (s->nfixed) {
    d[pos++] = s->faxis;
    d[pos++] = s->fcoord;
  }
}

/* The test's own tile: per dimension, the global indices this process
 * holds, in local order (brute force over 0..n-1). */
typedef struct {
  int64_t cnt[2];
  int64_t *glob[2];
  int holder;
} tile_t;

static void my_tile(const spec *s, int64_t n0, int64_t n1, int64_t ndims,
                    const int64_t *dims, const int64_t *co, tile_t *t) {
  int64_t n[2] = {n0, n1};
  t->holder = !s->nfixed || co[s->faxis] == s->fcoord;
  for (int d = 0; d < 2; ++d) {
    int64_t Q = 1, q = 0, mul = 1;
    for (int a = 0; a < s->naxes[d]; ++a) {
      int64_t ax = s->axes[d][a];
      q += co[ax] * mul;
      mul *= dims[ax];
    }
    Q = mul;
    int64_t b = s->kind[d] == BL   ? (n[d] + Q - 1) / Q
                : s->kind[d] == CY ? 1
                : s->kind[d] == BC ? s->block[d]
                                   : n[d];
    t->glob[d] = malloc(sizeof(int64_t) * (size_t)n[d]);
    t->cnt[d] = 0;
    for (int64_t e = 0; e < n[d]; ++e)
      if (s->kind[d] == NO || (e / b) % Q == q)
        t->glob[d][t->cnt[d]++] = e;
    (void)ndims;
  }
  if (!t->holder)
    t->cnt[0] = t->cnt[1] = 0;
}

static void free_tile(tile_t *t) {
  free(t->glob[0]);
  free(t->glob[1]);
}

/* The formulas: small integers. */
static double va(int64_t i, int64_t k) {
  return (double)((i * 3 + k * 5) % 7 - 3);
}
static double vb(int64_t k, int64_t j) {
  return (double)((k * 2 + j * 7) % 5 - 2);
}
static double vc(int64_t i, int64_t j) { return (double)((i + 2 * j) % 4 - 1); }

static void *fill(const tile_t *t, int64_t dtype,
                  double (*f)(int64_t, int64_t)) {
  int64_t n = t->cnt[0] * t->cnt[1];
  void *buf = malloc((size_t)(n > 0 ? n : 1) * (size_t)tu_esize(dtype));
  for (int64_t r = 0; r < t->cnt[0]; ++r)
    for (int64_t c = 0; c < t->cnt[1]; ++c)
      tu_set(buf, dtype, r * t->cnt[1] + c, f(t->glob[0][r], t->glob[1][c]));
  return buf;
}

/*===-- the cases --------------------------------------------------------===*/

static const int64_t sizes[][3] = {{7, 5, 9}, {1, 5, 9}, {7, 1, 9}, {7, 5, 1},
                                   {4, 6, 2}, {7, 5, 9}, {2, 1, 3}};
#define NSIZES ((int64_t)(sizeof sizes / sizeof sizes[0]))

static int64_t reported;

/* One grid of the test: its handle and extents. */
typedef struct {
  distrt_grid *g;
  int64_t ndims, dims[2];
} tgrid;

/* One case, A, B and C on the grids gr[0..2] (one grid: the plain entry;
 * several: distrt_onesided_matmul_grids); returns 1 if this process saw no
 * mismatch. */
static int run_case3(const tgrid *const *gr, const spec *sa, const spec *sb,
                     const spec *sc, int64_t st, int64_t t) {
  int64_t flags = t % 8, acc = flags & 1, offset = (flags >> 1) & 1;
  int64_t prefetch = t % 7 == 3 ? 4 : 1 + ((flags >> 2) & 1);
  const int64_t *sz = sizes[(t / 8 + t) % NSIZES];
  int64_t M = sz[0], K = sz[1], N = sz[2];
  int64_t dtype = t % 5 == 4 ? DISTRT_F32 : DISTRT_F64;
  int twice = t % 4 == 1;
  int64_t co[3][8], da[64], db[64], dc[64];
  for (int x = 0; x < 3; ++x)
    tu_coords(gr[x]->ndims, gr[x]->dims, distrt_grid_rank(gr[x]->g), co[x]);
  make_desc(sa, M, K, da);
  make_desc(sb, K, N, db);
  make_desc(sc, M, N, dc);
  tile_t ta, tb, tc;
  my_tile(sa, M, K, gr[0]->ndims, gr[0]->dims, co[0], &ta);
  my_tile(sb, K, N, gr[1]->ndims, gr[1]->dims, co[1], &tb);
  my_tile(sc, M, N, gr[2]->ndims, gr[2]->dims, co[2], &tc);
  distrt_grid *g = gr[2]->g;
  int one = gr[0]->g == g && gr[1]->g == g;
  void *a = fill(&ta, dtype, va), *b = fill(&tb, dtype, vb);
  void *c = fill(&tc, dtype, vc);
  static const char *const budgets[3] = {NULL, "1", "300"};
  const char *budget = budgets[((uint64_t)t * 2654435761u >> 9) % 3];
  if (budget)
    setenv("DISTRT_ONESIDED_PANEL_BYTES", budget, 1);
  else
    unsetenv("DISTRT_ONESIDED_PANEL_BYTES");
  for (int call = 0; call < 1 + twice; ++call) {
    int64_t off = call ? !offset : offset, ac = call ? 1 : acc;
    if (one)
      distrt_onesided_matmul(g, dtype, da, a, db, b, dc, c, st, off, prefetch,
                             ac);
    else
      distrt_onesided_matmul_grids(gr[0]->g, gr[1]->g, g, dtype, da, a, db, b,
                                   dc, c, st, off, prefetch, ac);
  }
  int ok = 1;
  for (int64_t r = 0; r < tc.cnt[0] && ok; ++r)
    for (int64_t q = 0; q < tc.cnt[1] && ok; ++q) {
      int64_t i = tc.glob[0][r], j = tc.glob[1][q];
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += va(i, k) * vb(k, j);
      want *= twice ? 2 : 1;
      if (acc)
        want += vc(i, j);
      double got = tu_get(c, dtype, r * tc.cnt[1] + q);
      if (got != want) {
        ok = 0;
        if (reported++ < 20)
          EXPECT(0,
                 "case %lld: A %s, B %s, C %s%s, stationary %c, "
                 "%lldx%lldx%lld %s acc %lld offset %lld prefetch %lld%s: "
                 "C(%lld,%lld) = %g, expected %g",
                 (long long)t, sa->name, sb->name, sc->name,
                 one ? "" : " (grids of their own)", "ABC"[st], (long long)M,
                 (long long)K, (long long)N, tu_dtype_name(dtype),
                 (long long)acc, (long long)offset, (long long)prefetch,
                 twice ? " twice" : "", (long long)i, (long long)j, got, want);
        else
          EXPECT(0, "case %lld failed", (long long)t);
      }
    }
  free(a);
  free(b);
  free(c);
  free_tile(&ta);
  free_tile(&tb);
  free_tile(&tc);
  unsetenv("DISTRT_ONESIDED_PANEL_BYTES");
  return ok;
}

static int run_case(distrt_grid *g, int64_t ndims, const int64_t *dims,
                    const spec *sa, const spec *sb, const spec *sc, int64_t st,
                    int64_t t) {
  tgrid one = {g, ndims, {dims[0], ndims > 1 ? dims[1] : 1}};
  const tgrid *gr[3] = {&one, &one, &one};
  return run_case3(gr, sa, sb, sc, st, t);
}

/* The word counter, exactly: grid [P], A rows blocked, B columns blocked,
 * C rows block-cyclic (2), stationary C.  Each process gets the A rows of
 * its C rows it does not hold (all K columns) and the B columns it does
 * not hold (all K rows), each once, whatever the panel budget (the cells
 * of the old slicing fetched the A rows once per B column block). */
static void check_words(void) {
  distrt_grid *g = tu_world();
  int64_t P = tu_size(), dims[1] = {P}, co[1] = {tu_rank()};
  make_specs(1, dims);
  const spec *sa = &specs[0], *sb = &specs[1], *sc = &specs[2];
  int64_t M = 13, K = 6, N = 9, da[64], db[64], dc[64];
  make_desc(sa, M, K, da);
  make_desc(sb, K, N, db);
  make_desc(sc, M, N, dc);
  tile_t ta, tb, tc;
  my_tile(sa, M, K, 1, dims, co, &ta);
  my_tile(sb, K, N, 1, dims, co, &tb);
  my_tile(sc, M, N, 1, dims, co, &tc);
  int64_t want = K * (N - tb.cnt[1]);
  for (int64_t r = 0; r < tc.cnt[0]; ++r) {
    int held = 0;
    for (int64_t u = 0; u < ta.cnt[0]; ++u)
      held |= ta.glob[0][u] == tc.glob[0][r];
    want += held ? 0 : K;
  }
  void *a = fill(&ta, DISTRT_F64, va), *b = fill(&tb, DISTRT_F64, vb);
  void *c = fill(&tc, DISTRT_F64, vc);
  const char *budgets[2] = {NULL, "1"};
  for (int i = 0; i < 2; ++i) {
    if (budgets[i])
      setenv("DISTRT_ONESIDED_PANEL_BYTES", budgets[i], 1);
    int64_t before = distrt_onesided_words();
    distrt_onesided_matmul(g, DISTRT_F64, da, a, db, b, dc, c,
                           DISTRT_STATIONARY_C, 1, 2, 0);
    int64_t got = distrt_onesided_words() - before;
    EXPECT(got == want, "words: rank %lld moved %lld words, expected %lld",
           (long long)tu_rank(), (long long)got, (long long)want);
    unsetenv("DISTRT_ONESIDED_PANEL_BYTES");
  }
  free(a);
  free(b);
  free(c);
  free_tile(&ta);
  free_tile(&tb);
  free_tile(&tc);
}

enum { MODE_FULL, MODE_QUICK, MODE_PAIRS };

static int64_t run_grid(int64_t ndims, const int64_t *dims, int mode) {
  distrt_grid *g = distrt_grid_create(ndims, dims);
  make_specs(ndims, dims);
  int64_t t = 0, cases = 0;
  for (int la = 0; la < nspecs; ++la)
    for (int lb = 0; lb < nspecs; ++lb)
      for (int lc = 0; lc < nspecs; ++lc)
        for (int64_t st = 0; st < 3; ++st) {
          if (mode == MODE_PAIRS && lc != (la + lb + st) % nspecs)
            continue;
          if (mode != MODE_QUICK || t % 7 == 0) {
            run_case(g, ndims, dims, &specs[la], &specs[lb], &specs[lc], st, t);
            ++cases;
          }
          ++t;
        }
  char name[64];
  if (ndims == 1)
    snprintf(name, sizeof name, "[%lld]", (long long)dims[0]);
  else
    snprintf(name, sizeof name, "[%lldx%lld]", (long long)dims[0],
             (long long)dims[1]);
  tu_section("onesided grid %s: %lld cases", name, (long long)cases);
  distrt_grid_free(g);
  return cases;
}

/* MODE_PAIRS on grid triples: the grid of C for A on grid a with layout
 * la and B on grid b with layout lb (s = la + lb), so that each such pair
 * runs once, with one stationary. */
static int pairs_grid(int a, int b, int s, int ng) {
  int c = s % ng;
  return a == b && c == a ? (c + 1) % ng : c;
}

/* A, B and C on different grids of the same processes: every ordered
 * triple of the grids the rank count allows ([P] and its 2-D
 * factorizations) with at least two different grids; for each, every
 * pair of layouts of A's and B's grids, with C's layout varying with them,
 * times stationary A / B / C (MODE_PAIRS: each pair of A's and B's grids
 * and layouts once, on one grid of C and with one stationary, both varying
 * with the layouts). */
static int64_t run_grid_triples(int mode, int only_a) {
  int64_t P = tu_size();
  tgrid gs[4];
  spec sp[4][16];
  int nsp[4], ng = 0;
  gs[ng++] = (tgrid){NULL, 1, {P, 1}};
  for (int64_t p0 = 2; p0 < P; ++p0)
    if (P % p0 == 0 && ng < 4)
      gs[ng++] = (tgrid){NULL, 2, {p0, P / p0}};
  for (int i = 0; i < ng; ++i) {
    gs[i].g = distrt_grid_create(gs[i].ndims, gs[i].dims);
    make_specs_into(sp[i], &nsp[i], gs[i].ndims, gs[i].dims);
  }
  int64_t cases = 0, t = 0;
  for (int a = 0; a < ng; ++a)
    for (int b = 0; b < ng; ++b)
      for (int c = 0; c < ng; ++c) {
        if ((a == b && b == c) || (only_a >= 0 && a != only_a))
          continue;
        const tgrid *gr[3] = {&gs[a], &gs[b], &gs[c]};
        for (int la = 0; la < nsp[a]; ++la)
          for (int lb = 0; lb < nsp[b]; ++lb)
            for (int64_t st = 0; st < 3; ++st) {
              if (mode == MODE_PAIRS && (c != pairs_grid(a, b, la + lb, ng) ||
                                         st != (la + 2 * lb + a + b) % 3))
                continue;
              const spec *sc = &sp[c][(la * 5 + lb * 3 + st) % nsp[c]];
              run_case3(gr, &sp[a][la], &sp[b][lb], sc, st, t++);
              ++cases;
            }
      }
  tu_section("onesided grid triples on %lld ranks: %lld cases", (long long)P,
             (long long)cases);
  for (int i = 0; i < ng; ++i)
    distrt_grid_free(gs[i].g);
  return cases;
}

/*===-- errors -----------------------------------------------------------===*/

static int error_case(const char *name) {
  tu_init("distrt-test-onesided");
  distrt_grid *g = tu_world();
  int64_t P = tu_size();
  int64_t da[64], db[64], dc[64];
  spec s;
  memset(&s, 0, sizeof s);
  s.kind[0] = BL, s.naxes[0] = 1; /* rows blocked over axis 0 */
  make_desc(&s, 6, 4, da);
  make_desc(&s, 4, 5, db);
  make_desc(&s, 6, 5, dc);
  static double a[64], b[64], c[64];
  int64_t dtype = DISTRT_F64, st = DISTRT_STATIONARY_C, prefetch = 1;
  (void)P;
  if (strcmp(name, "dtype") == 0)
    dtype = DISTRT_I32;
  else if (strcmp(name, "stationary") == 0)
    st = 3;
  else if (strcmp(name, "prefetch") == 0)
    prefetch = 0;
  else if (strcmp(name, "prefetch-huge") == 0)
    prefetch = ((int64_t)1 << 61) - 1; /* (prefetch + 1) * 8 wraps to 0 */
  else if (strcmp(name, "extents") == 0)
    make_desc(&s, 5, 5, db); /* K = 5, A has K = 4 */
  else if (strcmp(name, "ndims") == 0) {
    int64_t d1[] = {1, 6, BL, 0, 1, 0, 0};
    memcpy(da, d1, sizeof d1);
  } else if (strcmp(name, "null-desc") == 0) {
    distrt_onesided_matmul(g, dtype, da, a, NULL, b, dc, c, st, 0, 1, 0);
  } else if (strcmp(name, "null-grid") == 0) {
    distrt_onesided_matmul(NULL, dtype, da, a, db, b, dc, c, st, 0, 1, 0);
  } else if (strcmp(name, "null-grid-b") == 0) {
    distrt_onesided_matmul_grids(g, NULL, g, dtype, da, a, db, b, dc, c, st, 0,
                                 1, 0);
  } else if (strcmp(name, "null-batch") == 0) {
    distrt_onesided_matmul_batched(g, g, g, dtype, NULL, da, a, db, b, dc, c,
                                   st, 0, 1, 0);
  } else if (strcmp(name, "batch-2d") == 0) {
    distrt_onesided_matmul_batched(g, g, g, dtype, da, da, a, db, b, dc, c, st,
                                   0, 1, 0);
  } else if (strcmp(name, "null-tile") == 0) {
    distrt_onesided_matmul(g, dtype, da, NULL, db, b, dc, c, st, 0, 1, 0);
  } else if (strcmp(name, "skew") == 0) {
    int64_t ds[] = {2, 6, DISTRT_DESC_KIND(BL, 0), 0, 1,
                    0, 4, DISTRT_DESC_KIND(NO, 1), 0, 0,
                    0};
    memcpy(da, ds, sizeof ds);
  } else {
    fprintf(stderr, "unknown error case '%s'\n", name);
    distrt_finalize();
    return 2;
  }
  distrt_onesided_matmul(g, dtype, da, a, db, b, dc, c, st, 0, prefetch, 0);
  printf("UNEXPECTED success\n");
  distrt_finalize();
  return 1;
}

static int usage(void) {
  fprintf(stderr, "usage: distrt-test-onesided [quick | pairs] [grid P0 | "
                  "grids [G]] | error NAME\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "error") == 0)
    return error_case(argv[2]);
  int arg = 1, mode = MODE_FULL;
  if (arg < argc && strcmp(argv[arg], "quick") == 0)
    mode = MODE_QUICK, ++arg;
  else if (arg < argc && strcmp(argv[arg], "pairs") == 0)
    mode = MODE_PAIRS, ++arg;
  /* "grids": every triple; "grids G": those with A on the G-th grid. */
  if (arg < argc && arg + 2 >= argc && strcmp(argv[arg], "grids") == 0) {
    char *gend = NULL;
    long ga = arg + 2 == argc ? strtol(argv[arg + 1], &gend, 10) : -1;
    if (gend && (gend == argv[arg + 1] || *gend != '\0' || ga < 0))
      return usage();
    tu_init("distrt-test-onesided");
    int64_t cases = run_grid_triples(mode, (int)ga);
    if (cases == 0 && tu_rank() == 0)
      printf("FAIL distrt-test-onesided: no pair of grids on %lld ranks\n",
             (long long)tu_size());
    if (tu_rank() == 0)
      printf("onesided grids: %lld ranks: %lld cases\n", (long long)tu_size(),
             (long long)cases);
    int rc = tu_finish();
    return cases == 0 ? 1 : rc;
  }
  /* "grid 0": the 1-D grid only; "grid P0": the P0 x (P/P0) grid only (a
   * run per grid keeps each mpirun short on many oversubscribed ranks). */
  int only = arg + 2 == argc && strcmp(argv[arg], "grid") == 0;
  char *end = NULL;
  long pick = only ? strtol(argv[arg + 1], &end, 10) : -1;
  if ((arg != argc && !only) ||
      (only && (end == argv[arg + 1] || *end != '\0' || pick < 0)))
    return usage();
  tu_init("distrt-test-onesided");
  int64_t P = tu_size(), cases = 0;
  int64_t one[1] = {P};
  if (!only || pick == 0)
    cases += run_grid(1, one, mode);
  for (int64_t p0 = 1; p0 <= P; ++p0)
    if (P % p0 == 0 && P > 1 && (P == 2 || (p0 > 1 && p0 < P)) &&
        (!only || pick == p0)) {
      int64_t two[2] = {p0, P / p0};
      cases += run_grid(2, two, mode);
    }
  if (cases == 0) {
    if (tu_rank() == 0)
      printf("FAIL distrt-test-onesided: no grid %s on %lld ranks\n",
             argv[arg + 1], (long long)P);
    tu_finish();
    return 1;
  }
  check_words();
  int64_t words = distrt_onesided_words();
  distrt_allreduce(tu_world(), 1, &words, 1, DISTRT_I64, DISTRT_SUM);
  if (tu_rank() == 0)
    printf("onesided: %lld rank%s: %lld cases, %s words moved\n", (long long)P,
           P == 1 ? "" : "s", (long long)cases,
           words > 0 ? "some" : (P == 1 ? "no" : "NO"));
  return tu_finish();
}
