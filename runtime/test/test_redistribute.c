/* Property test of the general exchanges: random pairs of layouts (fixed
 * seeds) on random grids made of all this job's ranks (1-, 2- and 3-D),
 * every element checked exactly where the destination layout puts it.
 *
 *   distrt-test-redistribute [cases]      (default 60)
 *
 * For every case: fill the source layout with distrt_value(seed, global
 * index), distrt_redistribute into the destination layout, and check on
 * every rank that its tile has exactly the expected size and that every
 * local element holds the value of the global element the destination
 * layout maps it to. A second check runs distrt_fetch_box of a random box
 * from the destination layout and distrt_layout_gather of the whole tensor.
 *
 * A second section runs the balanced steps on random layouts without fixed
 * axes (block-cyclic blocks up to past the extent): distrt_redist_slice
 * from the replicated tensor into the layout, checked against the model
 * and against distrt_layout_tile_size, then distrt_redist_allgather back
 * to the replicated tensor.  The steps and the tile functions read a
 * descriptor with the same parser (parse_layout_as), so they must agree on
 * every tile.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXD = 3, MAXG = 3 };

typedef struct {
  int64_t ndims, n[MAXD], kind[MAXD], block[MAXD], naxes[MAXD],
      axes[MAXD][MAXG], nfixed, faxis[MAXG], fcoord[MAXG];
} layout_t;

static uint64_t rng_state;
static int64_t rnd(int64_t n) { /* 0 .. n-1 */
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

static void random_layout(layout_t *L, int64_t ndims, const int64_t *shape,
                          int64_t gdims, const int64_t *grid) {
  memset(L, 0, sizeof *L);
  L->ndims = ndims;
  for (int64_t d = 0; d < ndims; ++d)
    L->n[d] = shape[d];
  for (int64_t a = 0; a < gdims; ++a) {
    int64_t r = rnd(ndims + 2);
    if (r < ndims) { /* partitions dimension r */
      L->axes[r][L->naxes[r]++] = a;
    } else if (r == ndims + 1 && grid[a] > 1 && rnd(3) == 0) {
      L->faxis[L->nfixed] = a; /* fixed to a face */
      L->fcoord[L->nfixed++] = rnd(grid[a]);
    } /* else replicated */
  }
  for (int64_t d = 0; d < ndims; ++d) {
    if (!L->naxes[d])
      continue;
    L->kind[d] = 1 + rnd(3);
    if (L->kind[d] == 3)
      L->block[d] = 1 + rnd(4);
  }
}

static int64_t encode(const layout_t *L, int64_t *desc) {
  int64_t p = 0;
  desc[p++] = L->ndims;
  for (int64_t d = 0; d < L->ndims; ++d) {
    desc[p++] = L->n[d];
    desc[p++] = L->kind[d];
    desc[p++] = L->block[d];
    desc[p++] = L->naxes[d];
    for (int64_t i = 0; i < L->naxes[d]; ++i)
      desc[p++] = L->axes[d][i];
  }
  desc[p++] = L->nfixed;
  for (int64_t i = 0; i < L->nfixed; ++i) {
    desc[p++] = L->faxis[i];
    desc[p++] = L->fcoord[i];
  }
  return p;
}

/* Independent model of the layout (not layout.c's code). */
static void dim_model(const layout_t *L, int64_t d, const int64_t *grid,
                      const int64_t *c, int64_t *Q, int64_t *q, int64_t *b) {
  *Q = 1;
  *q = 0;
  for (int64_t i = L->naxes[d] - 1; i >= 0; --i) {
    int64_t a = L->axes[d][i];
    *q = *q * grid[a] + c[a];
  }
  for (int64_t i = 0; i < L->naxes[d]; ++i)
    *Q *= grid[L->axes[d][i]];
  if (L->kind[d] == 1)
    *b = (L->n[d] + *Q - 1) / *Q;
  else if (L->kind[d] == 2)
    *b = 1;
  else if (L->kind[d] == 3)
    *b = L->block[d];
  else
    *b = L->n[d];
}

static int holder(const layout_t *L, const int64_t *c) {
  for (int64_t i = 0; i < L->nfixed; ++i)
    if (c[L->faxis[i]] != L->fcoord[i])
      return 0;
  return 1;
}

/* Checks a tile against the model; returns the number of wrong elements. */
static int64_t check_tile(const layout_t *L, const int64_t *grid,
                          const int64_t *c, const double *tile, int64_t seed,
                          int64_t got_size) {
  int64_t ext[MAXD], Q[MAXD], q[MAXD], b[MAXD], total = 1;
  for (int64_t d = 0; d < L->ndims; ++d) {
    dim_model(L, d, grid, c, &Q[d], &q[d], &b[d]);
    ext[d] = L->naxes[d] ? distrt_local_extent(L->n[d], Q[d], q[d], b[d])
                         : L->n[d];
    total *= ext[d];
  }
  if (!holder(L, c))
    total = 0;
  if (total != got_size)
    return 1 + total;
  int64_t bad = 0;
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, linear = 0, g[MAXD];
    for (int64_t d = L->ndims - 1; d >= 0; --d) {
      int64_t l = rest % ext[d];
      rest /= ext[d];
      g[d] = L->naxes[d] ? distrt_local_to_global(l, Q[d], q[d], b[d]) : l;
    }
    for (int64_t d = 0; d < L->ndims; ++d)
      linear = linear * L->n[d] + g[d];
    if (tile[i] != distrt_value(seed, linear))
      ++bad;
  }
  return bad;
}

/* A random grid of P ranks with 1-3 axes; returns its number of axes. */
static int64_t random_grid(int64_t P, int64_t *grid) {
  int64_t gdims = 1 + rnd(3), rest = P;
  for (int64_t a = 0; a < gdims - 1; ++a) {
    int64_t f = 1;
    for (int64_t t = 2; t <= rest; ++t)
      if (rest % t == 0 && rnd(2)) {
        f = t;
        break;
      }
    grid[a] = f;
    rest /= f;
  }
  grid[gdims - 1] = rest;
  return gdims;
}

/* Balanced steps: the replicated tensor sliced into a random layout
 * without fixed axes and gathered back.  Returns 1 when the case passed. */
static int balanced_case(int64_t k, int64_t P) {
  rng_state = 0x7f4a7c159e3779b9ULL * (uint64_t)(k + 1) + (uint64_t)P;
  int64_t grid[MAXG], gdims = random_grid(P, grid);
  distrt_grid *g = distrt_grid_create(gdims, grid);
  int64_t c[MAXG];
  for (int64_t a = 0; a < gdims; ++a)
    c[a] = distrt_grid_coord(g, a);
  int64_t ndims = 1 + rnd(3), shape[MAXD], whole = 1;
  for (int64_t d = 0; d < ndims; ++d) {
    shape[d] = 1 + rnd(13);
    whole *= shape[d];
  }
  layout_t R, U;
  memset(&R, 0, sizeof R);
  R.ndims = ndims;
  for (int64_t d = 0; d < ndims; ++d)
    R.n[d] = shape[d];
  random_layout(&U, ndims, shape, gdims, grid);
  U.nfixed = 0;
  int64_t axes = 0;
  for (int64_t d = 0; d < ndims; ++d) {
    for (int64_t i = 0; i < U.naxes[d]; ++i)
      axes |= (int64_t)1 << U.axes[d][i];
    if (U.kind[d] == 3)
      U.block[d] = 1 + rnd(shape[d] + 3); /* past the extent too */
  }
  int64_t rdesc[64], udesc[64];
  encode(&R, rdesc);
  encode(&U, udesc);
  int64_t seed = 500 + k;
  double *full = calloc((size_t)whole, sizeof(double));
  double *back = calloc((size_t)whole, sizeof(double));
  int64_t ucap = distrt_layout_tile_capacity(g, udesc);
  double *utile = calloc((size_t)ucap, sizeof(double));
  distrt_layout_fill(g, rdesc, full, DISTRT_F64, seed);
  distrt_redist_slice(g, rdesc, full, udesc, utile, DISTRT_F64);
  int64_t bad = check_tile(&U, grid, c, utile, seed,
                           distrt_layout_tile_size(g, udesc));
  int ok = EXPECT(bad == 0, "balanced case %lld: %lld wrong elements after "
                            "distrt_redist_slice",
                  (long long)k, (long long)bad);
  if (axes != 0) {
    distrt_redist_allgather(g, axes, udesc, utile, rdesc, back, DISTRT_F64);
    int64_t wrong = 0;
    for (int64_t i = 0; i < whole; ++i)
      if (back[i] != full[i])
        ++wrong;
    ok &= EXPECT(wrong == 0, "balanced case %lld: %lld wrong elements after "
                             "distrt_redist_allgather over 0x%llx",
                 (long long)k, (long long)wrong, (unsigned long long)axes);
  }
  free(utile);
  free(back);
  free(full);
  distrt_grid_free(g);
  return ok;
}

int main(int argc, char **argv) {
  tu_init("distrt-test-redistribute");
  int64_t cases = argc > 1 ? atoll(argv[1]) : 60;
  int64_t P = tu_size();
  int64_t failures = 0;
  for (int64_t k = 0; k < cases; ++k) {
    rng_state = 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1) + (uint64_t)P;
    /* A grid of P ranks with 1-3 axes. */
    int64_t grid[MAXG], gdims = random_grid(P, grid);
    distrt_grid *g = distrt_grid_create(gdims, grid);
    int64_t c[MAXG];
    for (int64_t a = 0; a < gdims; ++a)
      c[a] = distrt_grid_coord(g, a);
    int64_t ndims = 1 + rnd(3), shape[MAXD];
    for (int64_t d = 0; d < ndims; ++d)
      shape[d] = 1 + rnd(13);
    layout_t S, D;
    random_layout(&S, ndims, shape, gdims, grid);
    random_layout(&D, ndims, shape, gdims, grid);
    int64_t sdesc[64], ddesc[64];
    encode(&S, sdesc);
    encode(&D, ddesc);
    int64_t seed = 100 + k;
    int64_t scap = distrt_layout_tile_capacity(g, sdesc);
    int64_t dcap = distrt_layout_tile_capacity(g, ddesc);
    double *stile = calloc((size_t)scap, sizeof(double));
    double *dtile = calloc((size_t)dcap, sizeof(double));
    distrt_layout_fill(g, sdesc, stile, DISTRT_F64, seed);
    int64_t sbad = check_tile(&S, grid, c, stile, seed,
                              distrt_layout_tile_size(g, sdesc));
    EXPECT(sbad == 0, "case %lld: fill of the source is wrong (%lld)",
           (long long)k, (long long)sbad);
    distrt_redistribute(g, sdesc, stile, g, ddesc, dtile, DISTRT_F64);
    int64_t dbad = check_tile(&D, grid, c, dtile, seed,
                              distrt_layout_tile_size(g, ddesc));
    if (!EXPECT(dbad == 0, "case %lld: %lld wrong elements after "
                           "redistribution",
                (long long)k, (long long)dbad))
      ++failures;
    /* A random box of the destination, fetched by every rank. */
    int64_t lo[MAXD], size[MAXD], vol = 1;
    for (int64_t d = 0; d < ndims; ++d) {
      lo[d] = rnd(shape[d]);
      size[d] = rnd(shape[d] - lo[d] + 1);
      vol *= size[d];
    }
    double *box = calloc((size_t)(vol > 0 ? vol : 1), sizeof(double));
    distrt_fetch_box(g, ddesc, dtile, DISTRT_F64, lo, size, box);
    int64_t bbad = 0;
    for (int64_t i = 0; i < vol; ++i) {
      int64_t r = i, linear = 0, e[MAXD];
      for (int64_t d = ndims - 1; d >= 0; --d) {
        e[d] = lo[d] + r % size[d];
        r /= size[d];
      }
      for (int64_t d = 0; d < ndims; ++d)
        linear = linear * shape[d] + e[d];
      if (box[i] != distrt_value(seed, linear))
        ++bbad;
    }
    EXPECT(bbad == 0, "case %lld: %lld wrong elements in a fetched box",
           (long long)k, (long long)bbad);
    free(box);
    free(stile);
    free(dtile);
    distrt_grid_free(g);
  }
  tu_section("%lld random redistributions on %lld ranks", (long long)cases,
             (long long)P);
  for (int64_t k = 0; k < cases; ++k)
    if (!balanced_case(k, P))
      ++failures;
  tu_section("%lld balanced slice / allgather round trips on %lld ranks",
             (long long)cases, (long long)P);
  (void)failures;
  return tu_finish();
}
