/* Compiles distrt/compiler.h on its own as C11 (-pedantic), with only the
 * runtime's include directory on the path: like distrt.h, the compiler ABI
 * must not need mpi.h.  It brings the user API with it. */
#include "distrt/compiler.h"

#if defined(MPI_VERSION) || defined(OMPI_MPI_H) || defined(MPICH_VERSION)
#error "distrt/compiler.h must not include mpi.h"
#endif

#ifndef DISTRT_DISTRT_H
#error "distrt/compiler.h must include distrt.h (the compiler ABI extends it)"
#endif

/* Spot-check signatures generated code relies on (it calls them by name,
 * with these argument types). */
distrt_grid *(*const distrt_compiler_check_lookup)(distrt_grid **, int64_t,
                                                   const int64_t *) =
    distrt_grid_lookup;
distrt_grid *(*const distrt_compiler_check_lookup_nodes)(
    distrt_grid **, int64_t, const int64_t *,
    int64_t) = distrt_grid_lookup_nodes;
distrt_grid *(*const distrt_compiler_check_lookup_gpus)(
    distrt_grid **, int64_t, const int64_t *,
    int64_t) = distrt_grid_lookup_gpus;
void (*const distrt_compiler_check_fetch)(distrt_grid *, const int64_t *,
                                          const void *, int64_t,
                                          const int64_t *, const int64_t *,
                                          void *) = distrt_fetch_box;
void (*const distrt_compiler_check_redist)(distrt_grid *, int64_t,
                                           const int64_t *, const void *,
                                           const int64_t *, void *,
                                           int64_t) = distrt_redist_allgather;
int64_t (*const distrt_compiler_check_result)(distrt_grid *, const char *,
                                              const int64_t *, const void *,
                                              int64_t, const void *, double) =
    distrt_check_result;
void (*const distrt_compiler_check_profile)(void) =
    distrt_profile_kernel_begin;
