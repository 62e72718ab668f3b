/* Grids on the caller's communicators (comm.test).
 *
 * The program starts MPI itself, splits MPI_COMM_WORLD into two halves
 * (4 ranks: 2 + 2, 3 ranks: 2 + 1), makes each half current with
 * distrt_comm_push and runs, on both halves at the same time, what
 * generated code does: grids through distrt_grid_lookup slots, collectives
 * over grid axes (blocking and not), a redistribution between two layouts
 * and a gather of the tiles to one rank.  Every value carries the half's
 * colour, and every expected value is computed here from ranks and
 * coordinates, so a message crossing between the halves shows up as a
 * wrong value.  It also checks that a slot caches one grid per
 * communicator (a freed communicator whose handle is reused gets a new
 * grid), that two grids of different shapes coexist on one communicator,
 * and that distrt leaves the caller's MPI alone (error handler of
 * MPI_COMM_WORLD, MPI still usable after distrt_finalize).
 *
 *   distrt-test-comm                 the checks: "PASS <section>" lines
 *   distrt-test-comm wrong-size      a lookup grid larger than the half
 *   distrt-test-comm create-on-size  distrt_grid_create_on, same error
 *   distrt-test-comm null            distrt_comm_push(NULL)
 *   distrt-test-comm comm-null       a rank outside the split (MPI_COMM_NULL)
 *   distrt-test-comm pop             distrt_comm_pop with nothing pushed
 *   distrt-test-comm kernel LIB.so   split-comm.test: pairs of ranks each
 *                                    call LIB.so's compiled kernel()
 * The error modes end in a fatal error (comm.test checks the line). */

#include "distrt/compiler.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wr, ws; /* world rank / size */
static int color;  /* which half */
static int hr, hs; /* rank / size in the half */
static int failures;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL rank %d (half %d): line %d: ", wr, color, __LINE__);        \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
      fflush(stdout);                                                          \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Ends a section: collective over the world (plain MPI). */
static void section(const char *fmt, ...) {
  char name[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(name, sizeof name, fmt, ap);
  va_end(ap);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (wr == 0) {
    printf("%s %s\n", all ? "FAIL" : "PASS", name);
    fflush(stdout);
  }
  failures = 0;
}

/* Generated code keeps one slot per grid; these play that part. */
static distrt_grid *slot_line, *slot_plane;

/* The value of element (i, j) of the test matrix in half `c`. */
static double elem(int c, int64_t i, int64_t j) {
  return 1000.0 * c + 10.0 * (double)i + (double)j;
}

/* Collectives over the axes of the 1 x hs grid and the 1-D grid. */
static void check_collectives(distrt_grid *line, distrt_grid *plane) {
  int64_t v = 1000 * color + hr + 1, want = 0;
  for (int r = 0; r < hs; ++r)
    want += 1000 * color + r + 1;
  int64_t s = v;
  distrt_allreduce(plane, 0x2, &s, 1, DISTRT_I64, DISTRT_SUM);
  EXPECT(s == want, "allreduce over axis 1: %lld, want %lld", (long long)s,
         (long long)want);
  int64_t t = v;
  distrt_allreduce(plane, 0x1, &t, 1, DISTRT_I64, DISTRT_SUM);
  EXPECT(t == v, "allreduce over the extent-1 axis 0: %lld, want %lld",
         (long long)t, (long long)v);
  /* Non-blocking on one grid while a blocking one runs on the other. */
  double d = (double)v, m = (double)v;
  int64_t req = distrt_iallreduce(line, 0x1, &d, 1, DISTRT_F64, DISTRT_SUM);
  distrt_allreduce(plane, 0x3, &m, 1, DISTRT_F64, DISTRT_MAX);
  distrt_wait(req);
  EXPECT(d == (double)want, "iallreduce on the 1-D grid: %g, want %lld", d,
         (long long)want);
  EXPECT(m == (double)(1000 * color + hs), "max over the plane: %g, want %d", m,
         1000 * color + hs);
  int64_t b = hr == hs - 1 ? 7 * color + 100 * hs : -1;
  distrt_bcast(line, 0x1, &b, 1, DISTRT_I64, hs - 1);
  EXPECT(b == 7 * color + 100 * hs, "bcast from the last rank: %lld",
         (long long)b);
}

/* A 6 x 5 f64 matrix: rows blocked over the 1-D grid, redistributed to
 * columns cyclic, then gathered to grid rank 0. */
static void check_redistribution(distrt_grid *line) {
  enum { N0 = 6, N1 = 5 };
  int64_t rows[] = {
      2, N0, DISTRT_KIND_BLOCKED, 0, 1, 0, N1, DISTRT_KIND_NONE, 0, 0, 0};
  int64_t cols[] = {2, N0, DISTRT_KIND_NONE, 0, 0, N1, DISTRT_KIND_CYCLIC, 0, 1,
                    0, 0};
  int64_t rb = (N0 + hs - 1) / hs;
  int64_t r0 = hr * rb < N0 ? hr * rb : N0;
  int64_t r1 = (hr + 1) * rb < N0 ? (hr + 1) * rb : N0;
  int64_t ncols = 0;
  for (int64_t j = hr; j < N1; j += hs)
    ++ncols;
  EXPECT(distrt_layout_tile_size(line, rows) == (r1 - r0) * N1,
         "row tile has %lld elements, want %lld",
         (long long)distrt_layout_tile_size(line, rows),
         (long long)((r1 - r0) * N1));
  EXPECT(distrt_layout_tile_size(line, cols) == N0 * ncols,
         "column tile has %lld elements, want %lld",
         (long long)distrt_layout_tile_size(line, cols),
         (long long)(N0 * ncols));
  double a[N0 * N1], c[N0 * N1], all[N0 * N1];
  for (int64_t i = r0; i < r1; ++i)
    for (int64_t j = 0; j < N1; ++j)
      a[(i - r0) * N1 + j] = elem(color, i, j);
  for (int64_t k = 0; k < N0 * N1; ++k)
    c[k] = all[k] = -1.0;
  distrt_redistribute(line, rows, a, line, cols, c, DISTRT_F64);
  for (int64_t i = 0; i < N0; ++i)
    for (int64_t l = 0; l < ncols; ++l) {
      int64_t j = l * hs + hr;
      EXPECT(c[i * ncols + l] == elem(color, i, j),
             "redistributed (%lld, %lld) is %g, want %g", (long long)i,
             (long long)j, c[i * ncols + l], elem(color, i, j));
    }
  distrt_layout_gather(line, cols, c, DISTRT_F64, all, 0);
  if (hr == 0)
    for (int64_t i = 0; i < N0; ++i)
      for (int64_t j = 0; j < N1; ++j)
        EXPECT(all[i * N1 + j] == elem(color, i, j),
               "gathered (%lld, %lld) is %g, want %g", (long long)i,
               (long long)j, all[i * N1 + j], elem(color, i, j));
}

/* A slot caches one grid per communicator. */
static void check_cache(MPI_Comm half, distrt_grid *line) {
  int64_t dl[1] = {hs}, dw[1] = {ws};
  distrt_grid *w = distrt_grid_lookup(&slot_line, 1, dw);
  EXPECT(w != line, "the world lookup returned the half's grid");
  EXPECT(distrt_grid_size(w) == ws && distrt_grid_rank(w) == wr,
         "world grid: rank %lld of %lld, want %d of %d",
         (long long)distrt_grid_rank(w), (long long)distrt_grid_size(w), wr,
         ws);
  int64_t grids = distrt_debug_count(DISTRT_COUNT_GRIDS);
  distrt_comm_push(&half);
  EXPECT(distrt_grid_lookup(&slot_line, 1, dl) == line,
         "pushing the half again gave a new grid");
  distrt_comm_pop();
  MPI_Comm world = MPI_COMM_WORLD;
  distrt_comm_push(&world);
  EXPECT(distrt_grid_lookup(&slot_line, 1, dw) == w,
         "pushing MPI_COMM_WORLD gave another grid than the default");
  distrt_comm_pop();
  EXPECT(distrt_debug_count(DISTRT_COUNT_GRIDS) == grids,
         "cached lookups created grids (%lld -> %lld)", (long long)grids,
         (long long)distrt_debug_count(DISTRT_COUNT_GRIDS));
  /* A duplicate is another communicator; after it is freed, a new
   * communicator (its handle may be the same value) gets a new grid. */
  distrt_grid *seen[2];
  for (int k = 0; k < 2; ++k) {
    MPI_Comm dup;
    MPI_Comm_dup(half, &dup);
    distrt_comm_push(&dup);
    seen[k] = distrt_grid_lookup(&slot_line, 1, dl);
    int64_t x = 1, want = hs;
    distrt_allreduce(seen[k], 0x1, &x, 1, DISTRT_I64, DISTRT_SUM);
    EXPECT(x == want, "allreduce on duplicate %d: %lld", k, (long long)x);
    distrt_comm_pop();
    MPI_Comm_free(&dup);
  }
  EXPECT(seen[0] != line && seen[1] != line && seen[0] != seen[1],
         "a duplicated / freed communicator reused a cached grid");
  distrt_grid_free(seen[0]);
  distrt_grid_free(seen[1]);
}

/* Grids of different shapes on one communicator, used interleaved. */
static void check_coexisting(MPI_Comm half) {
  int64_t d2[2] = {hs, 1};
  distrt_grid *col = distrt_grid_create_on(&half, 2, d2);
  distrt_grid *flat = distrt_grid_create_on(&half, 1, d2);
  EXPECT(distrt_grid_coord(col, 0) == hr && distrt_grid_coord(col, 1) == 0,
         "coords of the %dx1 grid", hs);
  int64_t a = hr + 1, b = 10 * (hr + 1);
  int64_t ra = distrt_iallreduce(col, 0x1, &a, 1, DISTRT_I64, DISTRT_SUM);
  distrt_allreduce(flat, 0x1, &b, 1, DISTRT_I64, DISTRT_SUM);
  distrt_wait(ra);
  EXPECT(a == hs * (hs + 1) / 2, "sum on the %dx1 grid: %lld", hs,
         (long long)a);
  EXPECT(b == 10 * hs * (hs + 1) / 2, "sum on the 1-D grid: %lld",
         (long long)b);
  distrt_grid_free(flat);
  distrt_grid_free(col);
  /* And on the world: the default grid and one laid on MPI_COMM_WORLD. */
  MPI_Comm world = MPI_COMM_WORLD;
  int64_t dw[2] = {1, ws};
  distrt_grid *gw = distrt_grid_create_on(&world, 2, dw);
  int64_t x = wr;
  distrt_allreduce(gw, 0x2, &x, 1, DISTRT_I64, DISTRT_SUM);
  EXPECT(x == (int64_t)ws * (ws - 1) / 2, "world sum %lld", (long long)x);
  distrt_grid_free(gw);
}

/* The world in pairs; pair p calls the compiled kernel (its grids come
 * from distrt_grid_lookup, so they are laid on the pushed pair) p + 1
 * times, all pairs at once: pairs that shared a communicator would hang or
 * mix their messages.  A failed --check makes distrt_finalize exit 1. */
static int kernel_mode(const char *lib) {
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  void *sym = h ? dlsym(h, "kernel") : NULL;
  if (!sym) {
    fprintf(stderr, "cannot load kernel() from %s: %s\n", lib, dlerror());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  void (*kernel)(void);
  memcpy(&kernel, &sym, sizeof kernel);
  int pair = wr / 2;
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, pair, wr, &comm);
  distrt_comm_push(&comm);
  for (int i = 0; i <= pair; ++i)
    kernel();
  printf("pair %d rank %lld of %lld: %d calls done\n", pair,
         (long long)distrt_comm_rank(), (long long)distrt_comm_size(),
         pair + 1);
  fflush(stdout);
  distrt_comm_pop();
  distrt_finalize();
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}

static int error_mode(const char *mode, MPI_Comm half) {
  int64_t big[1] = {hs + 1};
  if (strcmp(mode, "wrong-size") == 0) {
    distrt_comm_push(&half);
    distrt_grid_lookup(&slot_line, 1, big);
  } else if (strcmp(mode, "create-on-size") == 0) {
    distrt_grid_create_on(&half, 1, big);
  } else if (strcmp(mode, "null") == 0) {
    distrt_comm_push(NULL);
  } else if (strcmp(mode, "comm-null") == 0) {
    MPI_Comm some;
    MPI_Comm_split(MPI_COMM_WORLD, wr == ws - 1 ? MPI_UNDEFINED : 0, wr, &some);
    if (some != MPI_COMM_NULL) /* the others wait to be aborted */
      MPI_Barrier(MPI_COMM_WORLD);
    distrt_comm_push(&some);
  } else if (strcmp(mode, "pop") == 0) {
    distrt_comm_pop();
  } else {
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
  }
  printf("FAIL: mode %s did not stop the job\n", mode);
  return 1;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &wr);
  MPI_Comm_size(MPI_COMM_WORLD, &ws);
  MPI_Errhandler before, after;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &before);
  distrt_init();
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &after);
  color = wr < (ws + 1) / 2 ? 0 : 1;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, color, wr, &half);
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  if (argc > 2 && strcmp(argv[1], "kernel") == 0)
    return kernel_mode(argv[2]);
  if (argc > 1)
    return error_mode(argv[1], half);

  EXPECT(before == after, "distrt_init changed MPI_COMM_WORLD's handler");
  section("distrt_init leaves MPI_COMM_WORLD's error handler alone");

  distrt_comm_push(&half);
  EXPECT(distrt_comm_size() == hs && distrt_comm_rank() == hr,
         "current communicator: rank %lld of %lld, want %d of %d",
         (long long)distrt_comm_rank(), (long long)distrt_comm_size(), hr, hs);
  int64_t dl[1] = {hs}, dp[2] = {1, hs};
  distrt_grid *line = distrt_grid_lookup(&slot_line, 1, dl);
  distrt_grid *plane = distrt_grid_lookup(&slot_plane, 2, dp);
  EXPECT(distrt_grid_size(line) == hs && distrt_grid_rank(line) == hr,
         "line grid: rank %lld of %lld, want %d of %d",
         (long long)distrt_grid_rank(line), (long long)distrt_grid_size(line),
         hr, hs);
  EXPECT(distrt_grid_coord(plane, 0) == 0 && distrt_grid_coord(plane, 1) == hr,
         "plane grid coords (%lld, %lld), want (0, %d)",
         (long long)distrt_grid_coord(plane, 0),
         (long long)distrt_grid_coord(plane, 1), hr);
  section("grids laid on each half (sizes %d and %d)", (ws + 1) / 2,
          ws - (ws + 1) / 2);
  check_collectives(line, plane);
  section("collectives on both halves at once");
  check_redistribution(line);
  section("redistribution and gather on both halves at once");
  distrt_comm_pop();
  EXPECT(distrt_comm_size() == ws, "after the pop: size %lld",
         (long long)distrt_comm_size());
  check_cache(half, line);
  section("lookup slots cache one grid per communicator");
  check_coexisting(half);
  section("grids of different shapes on one communicator");

  distrt_finalize();
  int fin = 1, sum = 0;
  MPI_Finalized(&fin);
  EXPECT(!fin, "distrt_finalize finalized the caller's MPI");
  int one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
  EXPECT(sum == hs, "MPI_Allreduce after distrt_finalize: %d", sum);
  MPI_Comm_free(&half);
  section("the caller's MPI after distrt_finalize");
  MPI_Errhandler_free(&before);
  MPI_Errhandler_free(&after);
  if (wr == 0)
    printf("distrt-test-comm: %d ranks: DONE\n", ws);
  MPI_Finalize();
  return 0;
}
