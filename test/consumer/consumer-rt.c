/* consumer-rt: a C program using the installed distrt runtime. */
#include <distrt/distrt.h>
#include <stdio.h>

int main(void) {
  distrt_init();
  distrt_grid *g = distrt_grid_create1(distrt_world_size());
  printf("consumer-rt: grid of %lld, value(7, 3) = %.6f\n",
         (long long)distrt_grid_size(g), distrt_value(7, 3));
  distrt_finalize();
  return 0;
}
