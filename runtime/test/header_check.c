/* Compiles distrt.h on its own as C11 (-pedantic), with only the runtime's
 * include directory on the path: it must not need mpi.h or any other
 * dependency's headers. */
#include "distrt/distrt.h"

#if defined(MPI_VERSION) || defined(OMPI_MPI_H) || defined(MPICH_VERSION)
#error "distrt.h must not include mpi.h"
#endif

/* The user API does not bring the compiler ABI with it (compiler.h
 * includes distrt.h, not the other way round). */
#ifdef DISTRT_COMPILER_H
#error "distrt.h must not include distrt/compiler.h"
#endif

/* Spot-check a few signatures the compiler relies on. */
void (*const distrt_header_check_c_allreduce)(distrt_grid *, int64_t, void *,
                                              int64_t, int64_t, int64_t) =
    distrt_allreduce;
int64_t (*const distrt_header_check_c_ishift)(distrt_grid *, int64_t, int64_t,
                                              const void *, void *, int64_t,
                                              int64_t) = distrt_ishift;
