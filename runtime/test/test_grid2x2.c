/* distrt-test-grid2x2: creates a 2x2 grid.  Needs exactly 4 ranks; on any
 * other count distrt_grid_create must fail with a clear message. */
#include "test_util.h"

#include <stdio.h>

int main(void) {
  distrt_init();
  distrt_grid *g = distrt_grid_create2(2, 2);
  int64_t r = distrt_grid_rank(g);
  int64_t c0 = distrt_grid_coord(g, 0), c1 = distrt_grid_coord(g, 1);
  int ok = c0 == r / 2 && c1 == r % 2;
  printf("%s rank %lld coords (%lld, %lld)\n", ok ? "PASS" : "FAIL",
         (long long)r, (long long)c0, (long long)c1);
  fflush(stdout);
  distrt_finalize();
  return ok ? 0 : 1;
}
