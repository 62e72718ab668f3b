/*===- core.c - distrt lifetime: init, finalize, world rank/size -*- C -*-===*
 *
 * The top layer: init and finalize drive every other part.  Fatal errors
 * and the validation helpers are in error.c (the bottom layer), which also
 * defines the process-wide state (distrt_g) that init / finalize set.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- lifetime ---------------------------------------------------------===*/

/* A process that exits (exit(), or a return from main) between distrt_init
 * and distrt_finalize would leave the other ranks waiting for it in their
 * next collective: say so and end the whole job instead. */
static void exit_without_finalize(void) {
  if (!distrt_g.initialized || distrt_fatal_in_progress())
    return;
  const char *keep = getenv("DISTRT_ALLOW_EXIT");
  if (keep && strcmp(keep, "1") == 0)
    return;
  distrt_fatal("exit",
               "the process is exiting without distrt_finalize() (exit() or "
               "a return from main while the runtime is active); ending the "
               "job so that the other ranks do not wait for it");
}

/* A program's standard output gets a buffer of 4 MiB instead of a write
 * per line (under mpirun it is a pseudo-terminal, which stdio
 * line-buffers).  With `--time` rank 0 prints a line per computation, and
 * each write wakes mpirun's output forwarding, which then shares a core
 * with the ranks during the calls being timed.  Measured (4elt SpMV, 2
 * ranks on 2 cores, 20,000 calls of about 25 us, alternating runs):
 * medians of 22-32 us against 23-69 us with a write per line.
 * distrt_report_time flushes at most every 2 s, distrt_finalize and fatal
 * errors always.  Set once, before the program's own output (setvbuf's
 * requirement); a library (distrt_init_library) leaves the program's
 * stdout alone. */
static void buffer_stdout(void) {
  static int done;
  static char buf[4 << 20];
  if (done || distrt_g.library)
    return;
  done = 1;
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

void distrt_init(void) {
  const char *op = "distrt_init";
  if (distrt_g.initialized)
    return;
  const struct distrt_backend *be = distrt_select_backend(op);
  distrt_set_abort_handler(be->active, be->abort);
  distrt_profile_setup();
  be = distrt_profile_backend(be);
  distrt_g.be = be;
  distrt_g.world = be->init(op);
  buffer_stdout();
  distrt_g.world_rank = be->comm_rank(distrt_g.world);
  distrt_g.world_size = be->comm_size(distrt_g.world);
  distrt_g.tag_ub = be->tag_ub();
  distrt_g.initialized = 1;
  distrt_g.finalized = 0;
  static int exit_hook;
  if (!distrt_g.library && !exit_hook && atexit(exit_without_finalize) == 0)
    exit_hook = 1;
  /* A library leaves the program's BLAS threading alone (and the setup's
   * node count is a collective over the world). */
  if (!distrt_g.library)
    distrt_blas_setup();
  const char *verbose = getenv("DISTRT_VERBOSE");
  if (verbose && *verbose && strcmp(verbose, "0") != 0 &&
      distrt_g.world_rank == 0) {
    fprintf(stderr, "distrt: initialised, backend %s, %lld rank%s\n",
            be->name, (long long)distrt_g.world_size,
            distrt_g.world_size == 1 ? "" : "s");
    fflush(stderr);
  }
}

/* Library mode: MPI_Finalize has started (the MPI_COMM_SELF callback). */
static void library_finalize(void) { distrt_finalize(); }

void distrt_init_library(void) {
  const char *op = "distrt_init_library";
  if (distrt_g.initialized)
    return;
  const struct distrt_backend *be = distrt_select_backend(op);
  if (!be->host_active || !be->at_host_finalize)
    distrt_fatal(op, "the %s backend has no library mode", be->name);
  if (!be->host_active())
    distrt_fatal(op, "MPI is not initialised: a program that uses distrt as "
                     "a library starts MPI itself (MPI_Init or "
                     "MPI_Init_thread) before its first distrt call");
  distrt_g.library = 1;
  distrt_init();
  distrt_g.be->at_host_finalize(op, library_finalize);
}

void distrt_finalize(void) {
  const char *op = "distrt_finalize";
  if (!distrt_g.initialized)
    return;
  distrt_requests_finish_all(op);
  /* The time lines (distrt_report_time flushes them at most every 0.25 s). */
  fflush(stdout);
  /* The report is collective over the whole job; a library's processes
   * need not all have used distrt. */
  if (!distrt_g.library)
    distrt_profile_report(op);
  distrt_grid_free_all(op);
  distrt_comm_reset();
  distrt_alloc_cache_flush();
  distrt_g.be->finalize(op);
  distrt_g.initialized = 0;
  distrt_g.finalized = 1;
  distrt_g.world = NULL;
  int library = distrt_g.library;
  distrt_g.library = 0;
  /* A program whose result checks failed ends with a failing status (a
   * library's host program decides its own status). */
  if (distrt_g.checks_failed > 0 && !library)
    exit(1);
}

int64_t distrt_world_rank(void) {
  distrt_require_init("distrt_world_rank");
  return distrt_g.world_rank;
}

int64_t distrt_world_size(void) {
  distrt_require_init("distrt_world_size");
  return distrt_g.world_size;
}
