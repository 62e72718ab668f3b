/*===- sparse_share.c - distrt: the dense operand in shared memory -*- C -*-===*
 *
 * distrt_spmat_share_x: when every process of a matrix's grid shares one
 * node, the sparse product reads the rows of X it needs from the other
 * processes' blocks in place, in an MPI-3 shared window, instead of
 * packing and sending them (the exchange plan, sparse_plan.c).  Each call
 * copies this process's block into its slot of the node-wide array, then
 * one barrier makes every block visible; the ALL part of the matrix (global
 * column numbers) then multiplies the array directly.
 *
 * Two arrays alternate between calls.  A process writes array a at call t
 * only after the barrier of call t - 1, which every process reaches after
 * its product of call t - 2, the last to read array a: so one barrier a
 * call suffices.
 *===----------------------------------------------------------------------===*/

#include "sparse_spmat_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spm_share_free(const char *op, distrt_spmat *m) {
  for (int i = 0; i < 2; ++i) {
    if (m->shm[i])
      distrt_g.be->win_free(op, m->shm[i]);
    m->shm[i] = NULL;
    m->shm_base[i] = NULL;
  }
  m->shm_k = 0;
}

/* DISTRT_SPARSE_SHARED: unset or empty lets distrt choose (-1), 1 uses the
 * shared operand wherever the processes share a node, 0 never. */
static int shared_mode(const char *op) {
  const char *env = getenv("DISTRT_SPARSE_SHARED");
  if (!env || !*env)
    return -1;
  if (strcmp(env, "1") == 0)
    return 1;
  if (strcmp(env, "0") == 0)
    return 0;
  distrt_fatal_collective(op,
                          "DISTRT_SPARSE_SHARED='%s'; expected 0, 1 or unset",
                          env);
}

/* For one column (SpMV), a row the exchange moves costs about as much as
 * two rows copied into the shared array: the sender gathers it into a
 * buffer, MPI copies it across, and the product passes over the matrix's
 * rows twice (diag, then offdiag once the rows are in), where the shared
 * operand copies each row of the block once and multiplies each row once.
 * With k columns the exchange's compact array of ghost rows keeps the
 * product's reads of X local (R-MAT 2^20, k = 32: 256 MiB of X, against
 * the 93 MiB of rows a process needs), so a row then weighs one.
 * Measured on 2 ranks, R-MAT 2^20 (the busiest process packs and receives
 * 0.69 of a block by rows, 0.73 by non-zeros): SpMV by non-zeros 17-19 ms
 * exchanged, 14-15 ms shared, by rows 15.9 ms both; SpMM k = 32 by rows
 * 178-206 ms exchanged, 210-253 ms shared. */
static int64_t share_row_weight(int64_t k) { return k == 1 ? 2 : 1; }

/* Whether m's products use the shared operand (collective; the same answer
 * on every process): several processes, all on one node, a backend with
 * shared memory, and (unless DISTRT_SPARSE_SHARED=1) a block of x no
 * larger than share_row_weight(k) times the most rows a process would
 * pack and receive in the exchange.  A banded matrix, whose exchange moves
 * a few rows, keeps the exchange. */
static int decide(const char *op, distrt_spmat *m, int64_t k) {
  const struct distrt_backend *be = distrt_g.be;
  if (m->P < 2 || m->C < 1 || !be->shm_alloc || !be->node_color)
    return 0;
  int mode = shared_mode(op);
  spm_plan_build(op, m);
  /* The maxima over the processes of: the lowest rank of this node (all
   * on one node iff it is 0 everywhere); whether this process turns
   * sharing off; whether it does not force it; the rows it would pack
   * plus the rows it would receive. */
  int64_t v[4] = {be->node_color(op, m->comm), mode == 0, mode != 1,
                  m->nsend_rows + m->nghost};
  be->allreduce(op, m->comm, v, 4, DISTRT_I64, DISTRT_MAX);
  const char *why = v[0] != 0  ? "the processes span several nodes"
                    : v[1]     ? "DISTRT_SPARSE_SHARED=0"
                    : !v[2]    ? NULL
                    : m->C > share_row_weight(k) * v[3]
                        ? (k == 1 ? "the exchange moves fewer than half the "
                                    "rows a block holds"
                                  : "the exchange moves fewer rows than a "
                                    "block holds")
                        : NULL;
  const char *verbose = getenv("DISTRT_VERBOSE");
  if (m->rank == 0 && verbose && *verbose && strcmp(verbose, "0") != 0)
    fprintf(stderr,
            "distrt: %s: %lld x %lld matrix on %lld processes: %s%s (a "
            "block of x holds %lld rows; the exchange would pack and "
            "receive up to %lld)\n",
            op, (long long)m->rows, (long long)m->cols, (long long)m->P,
            why ? "the exchange plan: " : "the dense operand in node-shared "
                                          "memory",
            why ? why : "", (long long)m->C, (long long)v[3]);
  return why == NULL;
}

/* The two arrays for rows of k elements (collective). 0 when the MPI
 * cannot give contiguous segments. */
static int reserve(const char *op, distrt_spmat *m, int64_t k) {
  if (m->shm_k == k)
    return 1;
  spm_share_free(op, m);
  int64_t bytes =
      distrt_mul(op, "the bytes of a shared block",
                 distrt_mul(op, "the elements of a shared block", m->C, k),
                 m->esize);
  for (int i = 0; i < 2; ++i) {
    m->shm[i] = distrt_g.be->shm_alloc(op, m->comm, bytes, &m->shm_base[i]);
    if (!m->shm[i]) {
      spm_share_free(op, m);
      return 0;
    }
  }
  m->shm_k = k;
  return 1;
}

void *distrt_spmat_share_x(distrt_spmat *m, const void *x, int64_t k) {
  const char *op = "distrt_spmat_share_x";
  spm_check_matrix(op, m);
  if (k < 1)
    distrt_fatal(op, "k is %lld; expected >= 1", (long long)k);
  if (m->in_flight)
    distrt_fatal(op, "an exchange is in flight (call "
                     "distrt_spmat_exchange_end first)");
  if (m->shared < 0)
    m->shared = decide(op, m, k);
  if (!m->shared)
    return NULL;
  distrt_reject_device(op, x, "x", "the sparse product");
  int64_t row = distrt_mul(op, "the bytes of a row of x", k, m->esize);
  int64_t n = m->xhi - m->xlo;
  distrt_check_buf(op, "x", x, n * k);
  if (!reserve(op, m, k)) {
    m->shared = 0; /* every process saw the same failure */
    return NULL;
  }
  int i = m->shm_next;
  m->shm_next ^= 1;
  char *whole = (char *)m->shm_base[i];
  distrt_profile_enter(DISTRT_PROF_PACK);
  if (n > 0)
    memcpy(whole + m->rank * m->C * row, x, (size_t)(n * row));
  distrt_profile_leave();
  distrt_profile_enter(DISTRT_PROF_BARRIER);
  distrt_g.be->shm_sync(op, m->comm, m->shm[i]);
  distrt_profile_leave();
  return whole;
}
