/* Leak soak test driver (soak.test): calls the compiled distributed kernel
 * `kernel` (soak-kernel.mlir) thousands of times in one process, then runs
 * a runtime-level loop that creates and frees grids, sub-communicators,
 * non-blocking requests and buffers.  Halfway through each phase it records,
 * per rank, the resident set size, the number of open file descriptors and
 * the runtime's live-object counters (distrt_debug_count), and checks that
 * none of them grew over the second half.  SOAK_LEAK=1 leaks 16 KiB per
 * kernel call on purpose, to show that the check fails then.
 *
 *   soak-driver [KERNEL_CALLS [RUNTIME_ITERATIONS]]  (defaults 2000, 500) */
#define _POSIX_C_SOURCE 200809L

#include "distrt/distrt.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void kernel(void);

/* The RSS limit is below what leaking one 16x16 f64 tile (2 KiB) per call
 * would add over the 1200 measured calls of the test (2.3 MiB). */
#define RSS_SLACK_KIB 1024

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (!f || fscanf(f, "%ld %ld", &size, &res) != 2)
    res = -1;
  if (f)
    fclose(f);
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d)
    return -1;
  while (readdir(d))
    ++n;
  closedir(d);
  return n - 1; /* the directory's own descriptor */
}

typedef struct {
  long rss;
  int fds;
  int64_t live[DISTRT_NUM_COUNTS];
} snapshot;

static snapshot take(void) {
  snapshot s;
  s.rss = rss_kib();
  s.fds = open_fds();
  for (int i = 0; i < DISTRT_NUM_COUNTS; ++i)
    s.live[i] = distrt_debug_count(i);
  return s;
}

static const char *names[DISTRT_NUM_COUNTS] = {
    "grids", "comms", "requests", "buffers", "device-comms", "device-buffers"};

/* Prints one line per rank; returns 1 if anything grew. */
static int report(const char *phase, int64_t me, long calls,
                  const snapshot *a, const snapshot *b) {
  int bad = b->rss - a->rss > RSS_SLACK_KIB || b->fds != a->fds;
  char counts[256];
  size_t k = 0;
  for (int i = 0; i < DISTRT_NUM_COUNTS; ++i) {
    bad |= b->live[i] != a->live[i];
    k += (size_t)snprintf(counts + k, sizeof counts - k, " %s %lld->%lld",
                          names[i], (long long)a->live[i],
                          (long long)b->live[i]);
  }
  printf("soak %s rank %lld: %ld calls: rss %+ld KiB (limit %d), fds "
         "%d->%d,%s: %s\n",
         phase, (long long)me, calls, b->rss - a->rss, RSS_SLACK_KIB, a->fds,
         b->fds, counts, bad ? "FAIL" : "PASS");
  fflush(stdout);
  return bad;
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 2000;
  long iters = argc > 2 ? atol(argv[2]) : 500;
  const char *leak = getenv("SOAK_LEAK");
  int leaking = leak && strcmp(leak, "1") == 0;
  distrt_init();
  int64_t me = distrt_world_rank(), n = distrt_world_size();
  int failed = 0;
  snapshot k0;

  /* 1. The compiled kernel: the first half of the calls warms up (ASan's
   * allocator, for one, maps its size-class regions once, about 2 MiB);
   * the second half must not grow anything. */
  long half = calls / 2;
  for (long i = 0; i < calls; ++i) {
    if (i == half)
      k0 = take();
    kernel();
    if (leaking) {
      char *p = malloc(16384);
      memset(p, 1, 16384);
      /* keep it reachable from nowhere, but not optimised away */
      __asm__ volatile("" : : "r"(p) : "memory");
    }
  }
  snapshot k1 = take();
  failed |= report("kernel", me, calls - half, &k0, &k1);

  /* 2. Runtime objects: grids, sub-communicators, requests, buffers; the
   * second half is measured. */
  snapshot r0 = take();
  for (long i = 0; i < iters; ++i) {
    if (i == iters / 2)
      r0 = take();
    distrt_grid *g = distrt_grid_create2(1, n);
    double buf[64], out[64];
    for (int j = 0; j < 64; ++j)
      buf[j] = (double)(me + j);
    for (int64_t mask = 0; mask < 4; ++mask)
      distrt_allreduce(g, mask, buf, 8, DISTRT_F64, DISTRT_SUM);
    int64_t r1 = distrt_ibcast(g, 2, buf, 16, DISTRT_F64, 0);
    int64_t r2 = distrt_iallreduce(g, 3, buf + 16, 16, DISTRT_F64, DISTRT_MAX);
    int64_t r3 = distrt_ishift(g, 1, 1, buf + 32, out, 16, DISTRT_F64);
    distrt_wait(r2);
    distrt_wait(r1);
    distrt_wait(r3);
    (void)distrt_iallreduce(g, 2, out, 4, DISTRT_F64, DISTRT_SUM);
    distrt_waitall();
    void *p = distrt_alloc(1 << 16);
    distrt_free(p);
    distrt_grid_free(g);
  }
  snapshot r1 = take();
  failed |= report("runtime", me, iters - iters / 2, &r0, &r1);

  distrt_finalize();
  return failed;
}
