/*===- scalapack.c - ScaLAPACK array descriptors as dist layouts ----------===*
 *
 * Part of the dist project: distributed tensor algebra in MLIR.
 *
 * distrt_layout_from_scalapack: the layout descriptor (abi.h) under which
 * dist's tile of a process is the local array ScaLAPACK gives it.  A
 * column-major M x N matrix is dist's row-major N x M tensor; ScaLAPACK's
 * local storage of a 2-D block-cyclic array (local row il, local column jl
 * at il + jl * LLD, local indices counted as numroc does) is dist's tile of
 * that tensor with block_cyclic(NB) rows over the BLACS process columns and
 * block_cyclic(MB) columns over the process rows, when LLD is the local row
 * count.
 *===----------------------------------------------------------------------===*/

#include "distrt/distrt.h"

#include <stddef.h>

int distrt_layout_from_scalapack(const int *desc, int64_t nprow, int64_t npcol,
                                 int64_t *out, const char **why) {
  const char *reason = NULL;
  if (!desc || !out)
    reason = "the descriptor or the output array is NULL";
  else if (desc[DISTRT_SL_DTYPE] != 1)
    reason = "DTYPE is not 1 (only dense block-cyclic arrays have a dist "
             "layout)";
  else if (desc[DISTRT_SL_M] < 1 || desc[DISTRT_SL_N] < 1)
    reason = "the array is empty (M or N below 1)";
  else if (desc[DISTRT_SL_MB] < 1 || desc[DISTRT_SL_NB] < 1)
    reason = "a block size (MB or NB) is below 1";
  else if (desc[DISTRT_SL_RSRC] != 0 || desc[DISTRT_SL_CSRC] != 0)
    reason = "the first block is not on process (0, 0) (RSRC or CSRC is not "
             "0)";
  else if (nprow < 1 || npcol < 1 || nprow > INT32_MAX || npcol > INT32_MAX)
    reason = "the process grid is empty";
  if (reason) {
    if (why)
      *why = reason;
    return -1;
  }
  int64_t k = 0;
  out[k++] = 2;
  /* Dimension 0: the matrix's columns, NB blocks over process columns. */
  out[k++] = desc[DISTRT_SL_N];
  out[k++] = DISTRT_DESC_KIND(DISTRT_KIND_BLOCK_CYCLIC, 0);
  out[k++] = desc[DISTRT_SL_NB];
  out[k++] = 1;
  out[k++] = 1;
  /* Dimension 1: the matrix's rows, MB blocks over process rows. */
  out[k++] = desc[DISTRT_SL_M];
  out[k++] = DISTRT_DESC_KIND(DISTRT_KIND_BLOCK_CYCLIC, 0);
  out[k++] = desc[DISTRT_SL_MB];
  out[k++] = 1;
  out[k++] = 0;
  out[k++] = 0; /* no fixed axes */
  if (why)
    *why = NULL;
  return 0;
}
