/* distrt-test-profile [whole]: the profile's categories (DISTRT_PROFILE;
 * test/Runtime/profile.test reads the report distrt_finalize prints).
 *
 * One timed computation (distrt_profile_kernel_begin ..
 * distrt_report_time, as generated code marks it): the last rank computes
 * for 0.3 s of wall time in plain C (what generated loops do: no runtime
 * call), then every rank enters a barrier, so the other ranks wait there
 * for about 0.3 s.  The report must charge that wait to "barrier wait",
 * not to communication, and the last rank's 0.3 s to local compute (the
 * time in a computation that no runtime call claims).  With `whole` the
 * computation is not marked: the total is the whole run, compute is the
 * library leaves only and the last rank's loop is "other".
 *
 * DISTRT_PROFILE is set to 1 unless the environment sets it (=calls adds
 * the per-computation lines).  A small allreduce after the barrier gives
 * communication a little time too.
 */
#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int whole = argc > 1 && strcmp(argv[1], "whole") == 0;
  setenv("DISTRT_PROFILE", "1", 0);
  tu_init("distrt-test-profile");
  distrt_grid *g = tu_world();
  int64_t me = tu_rank(), n = tu_size();
  /* Outside the computation: create the communicator the barrier uses and
   * line the ranks up. */
  distrt_barrier(g, 1);
  distrt_barrier(g, 1);

  if (!whole)
    distrt_profile_kernel_begin();
  double t0 = distrt_wtime();
  volatile double sink = 0;
  if (me == n - 1)
    while (distrt_wtime() - t0 < 0.3) /* local compute: no runtime call */
      sink = sink + 1.0;
  distrt_barrier(g, 1); /* the others wait here for the last rank */
  double x = (double)me;
  distrt_allreduce(g, 1, &x, 1, DISTRT_F64, DISTRT_SUM);
  double t = distrt_wtime() - t0;
  if (!whole)
    distrt_report_time(g, "imbalanced", t);
  EXPECT(x == (double)(n * (n - 1) / 2), "allreduce gave %g", x);
  EXPECT(me != n - 1 || t >= 0.3, "the last rank computed for %g s", t);
  tu_section("an imbalanced computation on %lld ranks%s", (long long)n,
             whole ? " (not marked)" : "");
  return tu_finish();
}
