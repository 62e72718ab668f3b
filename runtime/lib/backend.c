/*===- backend.c - choosing the distrt communication backend ---*- C -*-===*
 *
 * DISTRT_BACKEND selects the backend at distrt_init time:
 *   unset, "" or "mpi"  -> the MPI backend (backend_mpi.c)
 *   "nccl"              -> fatal: not built yet
 * An NCCL backend is added by writing backend_nccl.c with its own
 * `struct distrt_backend` table and returning it here.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

static int equals_nocase(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

const struct distrt_backend *distrt_select_backend(const char *op) {
  const char *env = getenv("DISTRT_BACKEND");
  if (!env || !*env || equals_nocase(env, "mpi"))
    return &distrt_backend_mpi;
  if (equals_nocase(env, "nccl"))
    distrt_fatal_collective(
        op, "DISTRT_BACKEND=nccl: NCCL backend not built (this distrt only "
            "has the mpi backend; unset DISTRT_BACKEND or set it to mpi)");
  distrt_fatal_collective(op,
                          "unknown DISTRT_BACKEND '%s' (expected mpi or nccl)",
                          env);
}
