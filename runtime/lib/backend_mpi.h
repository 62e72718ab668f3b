/*===- backend_mpi.h - the MPI backend's shared internals ------*- C -*-===*
 *
 * Not installed.  What the files of the MPI backend (backend_mpi.c,
 * backend_mpi_nodes.c) share: the communicator handle, the checked-call
 * macro and the hidden helpers behind them.  Nothing else includes it.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_BACKEND_MPI_H
#define DISTRT_BACKEND_MPI_H

#include "error.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdint.h>

struct distrt_bcomm {
  MPI_Comm comm;
  int rank;
  int size;
};

/* Fatal with `op`, naming the MPI call and MPI's error string. */
DISTRT_HIDDEN void distrt_mpi_fail(const char *op, const char *call,
                                   int rc) DISTRT_NORETURN;

/* Every MPI call of the backend: watched (DISTRT_WATCHDOG) and checked. */
#define MPICHK(op, name, call)                                                 \
  do {                                                                         \
    distrt_wd_arm(op, name);                                                   \
    int rc_ = (call);                                                          \
    distrt_wd_disarm();                                                        \
    if (rc_ != MPI_SUCCESS)                                                    \
      distrt_mpi_fail(op, name, rc_);                                          \
  } while (0)

/* The MPI communicator of `c` (the world's duplicate is made on first use,
 * collective over the world). */
DISTRT_HIDDEN MPI_Comm distrt_mpi_comm(const char *op, distrt_bcomm *c);
/* A handle owning `c`, with MPI_ERRORS_RETURN set. */
DISTRT_HIDDEN distrt_bcomm *distrt_mpi_wrap(const char *op, MPI_Comm c);

/* backend_mpi_nodes.c: the backend's node slots (internal.h). */
DISTRT_HIDDEN int64_t distrt_mpi_node_size(const char *op);
/* A window (one-sided RMA, or node-shared memory), with a lock_all epoch
 * open from creation to free (backend_mpi.c's win_free). */
struct distrt_bwin {
  MPI_Win win;
};

DISTRT_HIDDEN int64_t distrt_mpi_node_color(const char *op, distrt_bcomm *c);
DISTRT_HIDDEN distrt_bwin *distrt_mpi_shm_alloc(const char *op,
                                                distrt_bcomm *c, int64_t bytes,
                                                void **base);
DISTRT_HIDDEN void distrt_mpi_shm_sync(const char *op, distrt_bcomm *c,
                                       distrt_bwin *w);
DISTRT_HIDDEN distrt_bcomm *distrt_mpi_comm_split(const char *op,
                                                  distrt_bcomm *c,
                                                  int64_t color, int64_t key);

#endif /* DISTRT_BACKEND_MPI_H */
