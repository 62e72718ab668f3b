/*===- backend_mpi_nodes.c - the MPI backend: nodes and splits --*- C -*-===*
 *
 * What the MPI backend knows about the machine's nodes: the processes that
 * share a node are those MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) puts
 * together (Open MPI and MPICH: the same host), and the generic
 * communicator split the grid layer orders hierarchical grids with, and
 * node-shared memory (MPI-3 shared windows) for the sparse products.
 *===----------------------------------------------------------------------===*/

#include "backend_mpi.h"
#include "internal.h"

#include <limits.h>
#include <stdlib.h>

int64_t distrt_mpi_node_size(const char *op) {
  MPI_Comm node;
  int n = 1;
  MPICHK(op, "MPI_Comm_split_type",
         MPI_Comm_split_type(distrt_mpi_comm(op, distrt_g.world),
                             MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  MPICHK(op, "MPI_Comm_size", MPI_Comm_size(node, &n));
  MPICHK(op, "MPI_Comm_free", MPI_Comm_free(&node));
  return n;
}

/* The colour of a node: the lowest rank in `c` of the processes of `c` on
 * it (MPI_Comm_split_type keeps c's order, so that is node rank 0's). */
int64_t distrt_mpi_node_color(const char *op, distrt_bcomm *c) {
  MPI_Comm node;
  int me = c->rank, lowest = c->rank;
  MPICHK(op, "MPI_Comm_split_type",
         MPI_Comm_split_type(distrt_mpi_comm(op, c), MPI_COMM_TYPE_SHARED, me,
                             MPI_INFO_NULL, &node));
  MPICHK(op, "MPI_Allreduce",
         MPI_Allreduce(&me, &lowest, 1, MPI_INT, MPI_MIN, node));
  MPICHK(op, "MPI_Comm_free", MPI_Comm_free(&node));
  return lowest;
}

distrt_bcomm *distrt_mpi_comm_split(const char *op, distrt_bcomm *c,
                                    int64_t color, int64_t key) {
  if (color > INT_MAX || key < INT_MIN || key > INT_MAX)
    distrt_fatal(op,
                 "internal error: split colour %lld or key %lld out of "
                 "the MPI backend's int range",
                 (long long)color, (long long)key);
  MPI_Comm s;
  MPICHK(op, "MPI_Comm_split",
         MPI_Comm_split(distrt_mpi_comm(op, c),
                        color < 0 ? MPI_UNDEFINED : (int)color, (int)key, &s));
  if (s == MPI_COMM_NULL)
    return NULL;
  return distrt_mpi_wrap(op, s);
}

distrt_bwin *distrt_mpi_shm_alloc(const char *op, distrt_bcomm *c,
                                  int64_t bytes, void **base) {
  if (bytes < 1 || bytes > (int64_t)(INT_MAX / 2) * 1024)
    distrt_fatal(op, "internal error: a shared segment of %lld bytes",
                 (long long)bytes);
  distrt_bwin *w = (distrt_bwin *)malloc(sizeof *w);
  if (!w)
    distrt_fatal(op, "out of memory allocating a window handle");
  MPI_Comm comm = distrt_mpi_comm(op, c);
  char *mine = NULL;
  MPICHK(op, "MPI_Win_allocate_shared",
         MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, comm,
                                 &mine, &w->win));
  MPI_Aint size = 0;
  int unit = 0;
  char *first = NULL;
  MPICHK(op, "MPI_Win_shared_query",
         MPI_Win_shared_query(w->win, 0, &size, &unit, &first));
  /* Contiguous in rank order is MPI's default; check it, on every
   * process, rather than read a neighbour's segment at a wrong address. */
  int ok = mine == first + (int64_t)c->rank * bytes, all = 0;
  MPICHK(op, "MPI_Allreduce",
         MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm));
  if (!all) {
    MPICHK(op, "MPI_Win_free", MPI_Win_free(&w->win));
    free(w);
    return NULL;
  }
  MPICHK(op, "MPI_Win_lock_all", MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
  *base = first;
  return w;
}

void distrt_mpi_shm_sync(const char *op, distrt_bcomm *c, distrt_bwin *w) {
  MPICHK(op, "MPI_Win_sync", MPI_Win_sync(w->win));
  MPICHK(op, "MPI_Barrier", MPI_Barrier(distrt_mpi_comm(op, c)));
  MPICHK(op, "MPI_Win_sync", MPI_Win_sync(w->win));
}
