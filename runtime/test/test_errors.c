/* distrt-test-errors CASE: triggers one misuse of the runtime; every case
 * must end the job through distrt_fatal with a clear message (checked by
 * test/Runtime/errors.test).  Prints "UNEXPECTED" and exits 0 if the runtime
 * did not stop it, so the `not` in the test fails. */
#define _POSIX_C_SOURCE 200809L

#include "distrt/compiler.h" /* distrt.h and the compiler ABI */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: distrt-test-errors CASE\n");
    return 2;
  }
  const char *c = argv[1];
#define CASE(name) else if (strcmp(c, name) == 0)

  if (strcmp(c, "before-init") == 0) {
    (void)distrt_world_rank();
  }
  CASE("grid-before-init") { (void)distrt_grid_create1(1); }
  CASE("library-without-mpi") { distrt_init_library(); }
  CASE("alloc-negative") { (void)distrt_alloc(-5); }
  CASE("timer-not-started") { (void)distrt_timer_stop(4); }
  CASE("timer-bad-id") { distrt_timer_start(64); }
  CASE("bad-extent") { (void)distrt_local_extent(10, 4, 4, 3); }
  CASE("gemm-bad-ld") {
    double a[4] = {0}, b[4] = {0}, cc[4] = {0};
    distrt_gemm_f64(2, 2, 2, 1.0, a, 1, b, 2, 0.0, cc, 2);
  }
  else {
    distrt_init();
    distrt_init(); /* idempotent */
    int64_t n = distrt_world_size(), me = distrt_world_rank();
    if (strcmp(c, "after-finalize") == 0) {
      distrt_finalize();
      distrt_finalize(); /* idempotent */
      (void)distrt_grid_create1(n);
    }
    CASE("grid-zero-dim") { (void)distrt_grid_create2(n, 0); }
    CASE("grid-too-many-dims") {
      int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
      dims[0] = n;
      (void)distrt_grid_create(9, dims);
    }
    CASE("null-grid") { distrt_barrier(NULL, 0); }
    else {
      distrt_grid *g = distrt_grid_create1(n);
      double buf[16] = {0};
      if (strcmp(c, "bad-axis") == 0)
        distrt_shift(g, 1, 1, buf, 4, DISTRT_F64);
      CASE("bad-coord-axis") { (void)distrt_grid_coord(g, -1); }
      CASE("bad-mask") {
        distrt_allreduce(g, 2, buf, 4, DISTRT_F64, DISTRT_SUM);
      }
      CASE("bad-dtype") { distrt_allreduce(g, 1, buf, 4, 7, DISTRT_SUM); }
      CASE("bad-op") {
        distrt_allreduce(g, 1, buf, 4, DISTRT_F64, 9);
      }
      CASE("negative-count") { distrt_bcast(g, 1, buf, -1, DISTRT_F64, 0); }
      CASE("null-buffer") { distrt_bcast(g, 1, NULL, 3, DISTRT_F64, 0); }
      CASE("bad-root") { distrt_bcast(g, 1, buf, 4, DISTRT_F64, n); }
      CASE("overlap") {
        distrt_allgather(g, 1, buf + 1, buf, 1, DISTRT_F64);
      }
      CASE("freed-grid") {
        distrt_grid_free(g);
        distrt_barrier(g, 1);
      }
      CASE("bad-request") { distrt_wait(12345); }
      CASE("double-wait") {
        int64_t r = distrt_iallreduce(g, 1, buf, 1, DISTRT_F64, DISTRT_SUM);
        distrt_wait(r);
        distrt_wait(r);
      }
      CASE("bad-peer") { distrt_send(g, buf, 1, DISTRT_F64, -1, 0); }
      CASE("bad-tag") { distrt_send(g, buf, 1, DISTRT_F64, 0, -3); }
      CASE("deadlock") {
        /* rank 0 waits for a message nobody sends: with DISTRT_WATCHDOG
         * the watchdog names the stuck call */
        if (me == 0)
          distrt_recv(g, buf, 1, DISTRT_F64, 1, 42);
        distrt_barrier(g, 1);
      }
      CASE("recv-short") {
        /* rank 0 sends 3 elements, rank 1 expects 5 */
        if (me == 0)
          distrt_send(g, buf, 3, DISTRT_F64, 1, 0);
        else if (me == 1)
          distrt_recv(g, buf, 5, DISTRT_F64, 0, 0);
        distrt_barrier(g, 1);
      }
      CASE("recv-truncated") {
        /* rank 0 sends 5 elements, rank 1 has room for 2: MPI error */
        if (me == 0)
          distrt_send(g, buf, 5, DISTRT_F64, 1, 0);
        else if (me == 1)
          distrt_recv(g, buf, 2, DISTRT_F64, 0, 0);
        distrt_barrier(g, 1);
      }
      CASE("replicated-disagree") {
        /* a 4x3 tensor replicated on every rank; the last rank changes one
         * element */
        int64_t shape[2] = {4, 3}, procs[2] = {1, 1}, coords[2] = {0, 0};
        int64_t blocks[2] = {4, 3};
        double tile[12], global[12];
        distrt_fill(tile, DISTRT_F64, 2, shape, procs, coords, blocks, 3);
        if (me == n - 1)
          tile[2 * 3 + 1] += 1.0;
        distrt_gather_tensor(g, tile, DISTRT_F64, 2, shape, procs, coords,
                             blocks, global, 0);
      }
      CASE("unowned") {
        /* rows split over 2 processes, but every rank claims coordinate 0 */
        int64_t shape[2] = {4, 3}, procs[2] = {2, 1}, coords[2] = {0, 0};
        int64_t blocks[2] = {2, 3};
        double tile[6], global[12];
        distrt_fill(tile, DISTRT_F64, 2, shape, procs, coords, blocks, 3);
        distrt_gather_tensor(g, tile, DISTRT_F64, 2, shape, procs, coords,
                             blocks, global, 0);
      }
      CASE("shape-mismatch") {
        int64_t shape[1] = {4 + me}, procs[1] = {1}, coords[1] = {0};
        int64_t blocks[1] = {4 + me};
        double tile[16], global[16];
        distrt_fill(tile, DISTRT_F64, 1, shape, procs, coords, blocks, 3);
        distrt_gather_tensor(g, tile, DISTRT_F64, 1, shape, procs, coords,
                             blocks, global, 0);
      }
      CASE("bad-descriptor") {
        int64_t shape[2] = {4, 3}, procs[2] = {2, 1}, coords[2] = {2, 0};
        int64_t blocks[2] = {2, 3};
        double tile[12];
        distrt_fill(tile, DISTRT_F64, 2, shape, procs, coords, blocks, 3);
      }
      CASE("check-null-ref") {
        int64_t shape[1] = {4}, procs[1] = {1}, coords[1] = {0};
        int64_t blocks[1] = {4};
        double tile[4] = {0};
        (void)distrt_check_tensor(g, "x", tile, DISTRT_F64, 1, shape, procs,
                                  coords, blocks, NULL, 1e-12);
      }
      CASE("lookup-mismatch") {
        static distrt_grid *slot;
        int64_t d1[1] = {n}, d2[2] = {n, 1};
        (void)distrt_grid_lookup(&slot, 1, d1);
        (void)distrt_grid_lookup(&slot, 2, d2);
      }
      CASE("redist-skewed") {
        /* A skewed source (kind 2 with skew mask 1 in bits 8 and up): the
         * balanced steps need unskewed mode tuples. */
        int64_t sdesc[] = {1, 8, 2 | (1 << 8), 1, 1, 0, 0};
        int64_t ddesc[] = {1, 8, 0, 8, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_allgather(g, 1, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("redist-kind-same-blocks") {
        /* A kind change whose blocks do not change: blocked on both
         * sides. */
        int64_t desc[] = {1, 8, 1, 0, 1, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_kind(g, 1, desc, tile, desc, out, DISTRT_F64);
      }
      CASE("redist-kind-tuples") {
        /* A kind change that also changes the tuples. */
        int64_t sdesc[] = {1, 8, 1, 0, 1, 0, 0};
        int64_t ddesc[] = {1, 8, 0, 8, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_kind(g, 1, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("redist-not-allgather") {
        /* The destination still partitions over the step's axis. */
        int64_t desc[] = {1, 8, 2, 1, 1, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_allgather(g, 1, desc, tile, desc, out, DISTRT_F64);
      }
      CASE("redist-sum-undistributed") {
        /* Summing a dimension no grid axis partitions. */
        int64_t sdesc[] = {2, 4, 0, 4, 0, 8, 2, 1, 1, 0, 0};
        int64_t ddesc[] = {1, 8, 2, 1, 1, 0, 0};
        double tile[32] = {0}, out[16];
        distrt_redist_allreduce(g, 1, 1, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("redist-fixed") {
        /* A source fixed to a face: the allgather step takes none. */
        int64_t sdesc[] = {1, 8, 0, 8, 0, 1, 0, 0};
        int64_t ddesc[] = {1, 8, 0, 8, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_allgather(g, 1, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("redist-bad-axis") {
        /* The destination names grid axis 5 of a 1-D grid. */
        int64_t sdesc[] = {1, 8, 0, 8, 0, 0};
        int64_t ddesc[] = {1, 8, 2, 1, 1, 5, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_slice(g, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("layout-bad-axis") {
        /* The same descriptor read by a tile function (the same parser,
         * no layout named in the message). */
        int64_t desc[] = {1, 8, 2, 1, 1, 5, 0};
        (void)distrt_layout_tile_size(g, desc);
      }
      CASE("layout-cycle-overflow") {
        /* Blocks of 2^62 over 2 processes: a cycle of 2^63 elements does
         * not fit in 64-bit indices (a block above the extent counts as
         * the extent, so the extent is 2^62 too). */
        int64_t big = (int64_t)1 << 62;
        int64_t desc[] = {1, big, DISTRT_KIND_BLOCK_CYCLIC, big, 1, 0, 0};
        (void)distrt_layout_tile_size(g, desc);
      }
      CASE("layout-elements-overflow") {
        /* 2^32 x 2^32 elements: the count wraps to 0, and a tile check
         * would accept any buffer. */
        int64_t big = (int64_t)1 << 32;
        int64_t desc[] = {2, big, DISTRT_KIND_BLOCKED, 0, 1, 0,
                          big, DISTRT_KIND_NONE, 0, 0, 0};
        (void)distrt_layout_tile_size(g, desc);
      }
      CASE("redist-fixed-used") {
        /* A destination fixed on the grid axis that partitions it. */
        int64_t sdesc[] = {1, 8, 2, 1, 1, 0, 0};
        int64_t ddesc[] = {1, 8, 2, 1, 1, 0, 1, 0, 0};
        double tile[16] = {0}, out[16];
        distrt_redist_gather(g, 1, sdesc, tile, ddesc, out, DISTRT_F64);
      }
      CASE("fatal") { distrt_fatal("user_code", "custom message %d", 42); }
      CASE("exit-early") {
        /* the last rank leaves (exit status 3) while the others wait in a
         * barrier: the exit hook ends the job */
        if (me == n - 1)
          exit(3);
        distrt_barrier(g, 1);
        distrt_barrier(g, 1);
      }
      CASE("killed") {
        /* the last rank dies by SIGKILL (no handler can run) while the
         * others wait in a barrier: the launcher must end the job */
        if (me == n - 1)
          raise(SIGKILL);
        distrt_barrier(g, 1);
        distrt_barrier(g, 1);
      }
      CASE("allreduce-loop") {
        /* allreduces for 60 s (a link cut in the middle must not leave it
         * hanging: test/Integration/netns-tcp.test) */
        double t0 = distrt_wtime();
        while (distrt_wtime() - t0 < 60.0)
          distrt_allreduce(g, 1, buf, 16, DISTRT_F64, DISTRT_SUM);
      }
      CASE("huge-alloc") { (void)distrt_alloc((int64_t)1 << 60); }
      else {
        fprintf(stderr, "distrt-test-errors: unknown case '%s'\n", c);
        distrt_finalize();
        return 2;
      }
      distrt_finalize();
    }
  }
  printf("UNEXPECTED: case '%s' returned\n", c);
  return 0;
}
