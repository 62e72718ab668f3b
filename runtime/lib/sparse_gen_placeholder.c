/*===- sparse_gen_placeholder.c - TEMPORARY: generators elsewhere -*- C -*-===*
 *
 * TEMPORARY, branch sparse-rt only: the generators of distrt/sparse.h
 * (distrt_coo_gen_banded, _rmat, _uniform) are written in sparse_gen.c on
 * another branch.  These definitions let this branch link; each ends the
 * job.  DELETE this file (and its line in runtime/CMakeLists.txt) when
 * merging with the branch that adds sparse_gen.c.
 *===----------------------------------------------------------------------===*/

#include "sparse_internal.h"

void distrt_coo_gen_banded(distrt_grid *g, int64_t n, int64_t width,
                           int64_t seed, distrt_coo *coo) {
  (void)g, (void)n, (void)width, (void)seed, (void)coo;
  distrt_fatal("distrt_coo_gen_banded", "not in this branch");
}

void distrt_coo_gen_rmat(distrt_grid *g, int64_t n, int64_t edges_per_row,
                         int64_t seed, distrt_coo *coo) {
  (void)g, (void)n, (void)edges_per_row, (void)seed, (void)coo;
  distrt_fatal("distrt_coo_gen_rmat", "not in this branch");
}

void distrt_coo_gen_uniform(distrt_grid *g, int64_t order,
                            const int64_t *dims, int64_t draws, int64_t seed,
                            distrt_coo *coo) {
  (void)g, (void)order, (void)dims, (void)draws, (void)seed, (void)coo;
  distrt_fatal("distrt_coo_gen_uniform", "not in this branch");
}
