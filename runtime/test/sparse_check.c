/* Compiles distrt/sparse.h on its own as C11 (-pedantic), with only the
 * runtime's include directory on the path: no mpi.h. */
#include "distrt/sparse.h"

#if defined(MPI_VERSION) || defined(OMPI_MPI_H) || defined(MPICH_VERSION)
#error "distrt/sparse.h must not include mpi.h"
#endif

void (*const distrt_sparse_check_read_mm)(const char *, distrt_grid *,
                                          distrt_coo *) = distrt_coo_read_mm;
void (*const distrt_sparse_check_free)(distrt_coo *) = distrt_coo_free;
void (*const distrt_sparse_check_mul)(distrt_spmat *, const void *, void *,
                                      int64_t) = distrt_spmat_mul;
void (*const distrt_sparse_check_part)(distrt_spmat *, int64_t, void **,
                                       void **, void **, int64_t *,
                                       int64_t *) = distrt_spmat_part;
distrt_spmat *(*const distrt_sparse_check_create_nonzeros)(
    distrt_grid *, int64_t, int64_t, int64_t, int64_t,
    int64_t) = distrt_spmat_create_nonzeros;
void (*const distrt_sparse_check_local_rows)(distrt_spmat *, void **,
                                             int64_t *, int64_t *) =
    distrt_spmat_local_rows;
void (*const distrt_sparse_check_reduce_rows)(distrt_spmat *, const void *,
                                              void *, int64_t) =
    distrt_spmat_reduce_rows;
void (*const distrt_sparse_check_row_targets)(distrt_spmat *, int64_t,
                                              void **, int64_t *, int64_t *,
                                              int64_t *) =
    distrt_spmat_row_targets;
void *(*const distrt_sparse_check_partial_foreign)(distrt_spmat *, int64_t) =
    distrt_spmat_partial_foreign;
void (*const distrt_sparse_check_reduce_foreign)(distrt_spmat *,
                                                 const void *, void *,
                                                 int64_t) =
    distrt_spmat_reduce_foreign;
distrt_spmat *(*const distrt_sparse_check_in_partition)(
    distrt_spmat *, int64_t) = distrt_spmat_in_partition;
int64_t (*const distrt_sparse_check_moved_entries)(const distrt_spmat *) =
    distrt_spmat_moved_entries;
distrt_spmat *(*const distrt_sparse_check_create3)(
    distrt_grid *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
    int64_t) = distrt_spmat_create3;
int64_t (*const distrt_sparse_check_order)(const distrt_spmat *) =
    distrt_spmat_order;
void (*const distrt_sparse_check_fibers)(distrt_spmat *, void **, void **,
                                         void **, void **, void **,
                                         int64_t *, int64_t *) =
    distrt_spmat_fibers;
void (*const distrt_sparse_check_write_tns)(distrt_spmat *, const char *) =
    distrt_spmat_write_tns;
typedef char distrt_sparse_check_partitions[DISTRT_SPMAT_ROWS == 0 &&
                                                    DISTRT_SPMAT_NONZEROS == 1
                                                ? 1
                                                : -1];
