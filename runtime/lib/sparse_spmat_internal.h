/*===- sparse_spmat_internal.h - distrt internals: CSR matrices --*- C -*-===*
 *
 * Not installed.  The distributed CSR matrix of distrt/sparse.h
 * (struct distrt_spmat) and what its files share: sparse_spmat.c
 * (lifetime, entries, views, gather), sparse_plan.c (the exchange plan,
 * the exchange and the product), sparse_nonzeros.c (the non-zero
 * partition: moving entries to their owners, the partial sums and their
 * reduction), sparse_mixed.c (a companion of the other partition),
 * sparse_share.c, sparse_device.c and sparse_write.c.
 *
 * The output rows are blocked in B = ceil(rows / P): this process's block
 * is [lo, hi).  The piece this process stores is CSR over nr rows from
 * global row `first`: under the row partition (DISTRT_SPMAT_ROWS) its
 * block, first = lo and nr = B ([lo, hi) real, the rest empty); under the
 * non-zero partition (DISTRT_SPMAT_NONZEROS) the rows its entries
 * [min(r E, gnnz), min((r + 1) E, gnnz)), E = ceil(gnnz / P), lie in
 * (first = nr = 0 without entries).  Its CSR arrays (the whole piece, and
 * the DIAG and OFFDIAG parts once planned) have nr + 1 positions of
 * pos_bits and coordinates of crd_bits bits (int32_t or int64_t), values
 * of dtype (float or double).  The dense operand x is blocked in
 * C = ceil(cols / P) rows: this process holds [xlo, xhi).
 *
 * An order-3 tensor (distrt_spmat_create3, sparse_tensor3.c; order = 3,
 * rows x cols x depth) is CSF with a dense root: the piece's rows as a
 * matrix's, then `all` is the CSR of its (i, j) fibers (all.nnz of them,
 * gnnz in the whole tensor; all.val is NULL), then pos2 (all.nnz + 1
 * positions of pos_bits), crd2 (k, crd_bits) and val2 (dtype) hold its
 * nnz2 entries (gnnz2 in the whole tensor).  Under the non-zero partition
 * the fibers are split as a matrix's entries are (E = ceil(gnnz / P)).
 * The matrix-only calls refuse it (spm_check_matrix).
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_SPARSE_SPMAT_INTERNAL_H
#define DISTRT_SPARSE_SPMAT_INTERNAL_H

#include "sparse_internal.h"

#include <stdint.h>

#define DISTRT_SPMAT_MAGIC 0x64697374737061ULL /* "distspa" */

/* One CSR piece: nr + 1 positions, nnz coordinates and values. */
typedef struct spm_csr {
  void *pos, *crd, *val;
  int64_t nnz;
} spm_csr;

/* Messages of one side of the exchange: with process peer[i], the rows
 * [off[i], off[i] + cnt[i]) of the ghost list (receives) or of the send
 * list (sends). */
typedef struct spm_peers {
  int64_t n;
  int64_t *peer, *off, *cnt;
} spm_peers;

/* The reduction of the partial sums (sparse_nonzeros.c), worked out once
 * per matrix entries: this process's rows of the partial sums
 * [own_lo, own_lo + own_n) (piece row numbers) are in its output block
 * from row own_y; send[i] goes to rank peer[i] from piece row row[i],
 * cnt[i] rows; recv[i] comes from rank peer[i] into the receive buffer at
 * row off[i], cnt[i] rows, to be added to output rows from row[i]. */
typedef struct spm_rlist {
  int64_t n;
  int64_t *peer, *row, *cnt, *off;
} spm_rlist;

typedef struct spm_reduce {
  int built;
  int64_t own_lo, own_n, own_y;
  spm_rlist send, recv;
  int64_t nrecv_rows;
  void *buf; /* received rows */
  int64_t cap; /* bytes */
  distrt_breq **reqs;
} spm_reduce;

struct distrt_spmat {
  uint64_t magic;
  distrt_grid *g;
  distrt_bcomm *comm; /* the grid's internal communicator */
  int64_t P, rank;
  int64_t rows, cols;
  int64_t B, lo, hi;  /* row block; this process's real rows */
  int64_t kind;       /* DISTRT_SPMAT_ROWS, _NONZEROS or _ENTRIES */
  int64_t first, nr;   /* the piece: CSR rows [first, first + nr) */
  int64_t C, xlo, xhi; /* block of x; this process's rows of x */
  int64_t pos_bits, crd_bits, dtype, esize;
  int64_t order, depth; /* 2, or 3 with depth = the extent of dimension 2 */

  spm_csr all;  /* global column numbers (order 3: the fibers, no values) */
  int64_t gnnz; /* entries of the whole matrix (order 3: fibers) */
  /* Order 3: level 2 of the CSF piece (all.nnz + 1 positions, nnz2
   * coordinates k and values); gnnz2 entries in the whole tensor. */
  void *pos2, *crd2, *val2;
  int64_t nnz2, gnnz2;
  /* Which entries m holds: a stamp, new (spm_new_stamp) whenever they
   * change; and, when they are another matrix's pattern
   * (distrt_spmat_pattern_of), that matrix and its stamp then. */
  int64_t stamp;
  const struct distrt_spmat *pattern_src;
  int64_t pattern_stamp;
  /* Room reserved by distrt_spmat_reserve (entries), -1 when none is
   * pending a commit. */
  int64_t reserved;

  /* The plan (valid while planned is 1; assign drops it). */
  int planned;
  spm_csr diag, off;
  /* OFFDIAG's rows that hold entries (PETSc's compressed rows): off_rows
   * (crd width) and off_rpos (pos width, off_nrows + 1 entries). */
  void *off_rows, *off_rpos;
  int64_t off_nrows;
  int64_t nghost;
  int64_t *ghost; /* sorted distinct global columns of OFFDIAG */
  spm_peers recv; /* rows of x arriving into the ghost buffer */
  spm_peers send; /* rows of x going out, from send_rows */
  int64_t nsend_rows;
  int64_t *send_rows; /* local rows of x to pack, in send order */

  /* Node-shared X (sparse_share.c): shared is -1 until decided, then 1
   * when used; shm[i] holds P blocks of C rows of shm_k elements at
   * shm_base[i]; calls alternate between the two (shm_next). */
  int shared;
  distrt_bwin *shm[2];
  void *shm_base[2];
  int64_t shm_k;
  int shm_next;

  /* Device copies of the parts (sparse_device.c): index arrays of
   * dev_bits (the wider of pos_bits and crd_bits), made by the first
   * device product after a change of the entries or the plan and freed
   * with the plan (spm_dev_drop); dev_ghost and host_x are the device
   * ghosts and the host copy of x that the exchange packs from. */
  spm_csr dev_all, dev_diag, dev_off;
  int64_t dev_bits;
  int dev_ready; /* 1: dev_all, 2: dev_diag and dev_off */
  void *dev_ghost, *host_x;
  int64_t dev_ghost_cap, host_x_cap; /* bytes */

  /* The non-zero partition's views and sums (sparse_nonzeros.c): the
   * local row numbers 0 .. nr - 1 (crd width, made on demand), the partial
   * sums (nr rows) and their reduction; freed with the plan. */
  void *ids;
  void *partial;
  int64_t partial_cap; /* bytes */
  spm_reduce red;
  /* Order 3 under DISTRT_SPMAT_ENTRIES (sparse_tensor3.c): the global
   * number of the piece's first fiber (its fibers are fiber0 .. fiber0 +
   * all.nnz - 1; the first and last may be shared with neighbours), the
   * partial sums of those fibers and their reduction into blocks of
   * ceil(gnnz / P) fibers; freed with the plan. */
  int64_t fiber0;
  void *fpartial;
  int64_t fpartial_cap; /* bytes */
  spm_reduce fred;
  /* The row targets (distrt_spmat_row_targets; crd width, made on
   * demand): tgt over the piece's nr rows (ALL and DIAG), tgt_off over
   * OFFDIAG's off_nrows compressed rows (made once per plan); both freed
   * with the partial sums (spm_nz_drop, which the plan's drop calls).
   * tgt_own and tgt_off_own: their own ranges [begin, end), the entries
   * whose rows lie in [lo, hi). */
  void *tgt, *tgt_off;
  int64_t tgt_own[2], tgt_off_own[2];

  /* The companion of the other partition (sparse_mixed.c): made by
   * distrt_spmat_in_partition, freed when the entries change or with m;
   * `owner` is the matrix a companion belongs to (NULL otherwise);
   * `moved`: the entries (global) sent to another process when the
   * companion was made. */
  struct distrt_spmat *companion, *owner;
  int64_t moved;

  /* The exchange. */
  void *ghost_buf, *send_buf;
  int64_t ghost_cap, send_cap; /* bytes */
  distrt_breq **reqs;
  int64_t nreqs;
  int in_flight;
};

/* Frees m's node-shared arrays (collective). */
DISTRT_HIDDEN void spm_share_free(const char *op, distrt_spmat *m);

/* A matrix like distrt_spmat_create's, of partition `kind`, without the
 * checks and the agreement (not collective): for a matrix whose shape the
 * processes already agree on. */
DISTRT_HIDDEN distrt_spmat *spm_new(const char *op, distrt_grid *g,
                                    int64_t rows, int64_t cols,
                                    int64_t pos_bits, int64_t crd_bits,
                                    int64_t dtype, int64_t kind);

/* A stamp no matrix's entries had before (m->stamp). */
DISTRT_HIDDEN int64_t spm_new_stamp(void);

/* Validates m (non-NULL, live, its grid live). */
DISTRT_HIDDEN void spm_check(const char *op, const distrt_spmat *m);
/* spm_check, and m must be a matrix (order 2): one collective fatal line
 * naming `op` for an order-3 tensor. */
DISTRT_HIDDEN void spm_check_matrix(const char *op, const distrt_spmat *m);
/* distrt_spmat_create's checks and agreement (collective), then spm_new;
 * depth < 0 for a matrix, the extent of dimension 2 for an order-3 tensor
 * (whose order and level-2 arrays the caller sets up). */
DISTRT_HIDDEN distrt_spmat *spm_create(const char *op, distrt_grid *g,
                                       int64_t rows, int64_t cols,
                                       int64_t depth, int64_t pos_bits,
                                       int64_t crd_bits, int64_t dtype,
                                       int64_t kind);
/* malloc(n bytes), fatal on failure. */
DISTRT_HIDDEN void *spm_alloc(const char *op, int64_t n);
/* A CSR piece of m's widths: nr + 1 zero positions, room for nnz
 * entries. */
DISTRT_HIDDEN void spm_csr_alloc(const char *op, const distrt_spmat *m,
                                 spm_csr *a, int64_t nnz);
DISTRT_HIDDEN void spm_csr_free(spm_csr *a);

/* Element i of an index array of `bits` (32 or 64) bits. */
static inline int64_t spm_get(const void *a, int64_t bits, int64_t i) {
  return bits == 32 ? (int64_t)((const int32_t *)a)[i]
                    : ((const int64_t *)a)[i];
}
static inline void spm_put(void *a, int64_t bits, int64_t i, int64_t v) {
  if (bits == 32)
    ((int32_t *)a)[i] = (int32_t)v;
  else
    ((int64_t *)a)[i] = v;
}

/* The plan (sparse_plan.c): builds it unless m has one; drops it. */
DISTRT_HIDDEN void spm_plan_build(const char *op, distrt_spmat *m);
DISTRT_HIDDEN void spm_plan_drop(distrt_spmat *m);
/* The exchange of the plan (sparse_plan.c): starts sending the rows of x
 * (this process's block of C rows of k) others need and returns the ghost
 * buffer; spm_end waits for it. */
DISTRT_HIDDEN void *spm_begin(const char *op, distrt_spmat *m, const void *x,
                              int64_t k);
DISTRT_HIDDEN void spm_end(const char *op, distrt_spmat *m);
/* y (nr rows of k) = or += a * x on the host, a one of m's parts. */
DISTRT_HIDDEN void spm_spmm(const distrt_spmat *m, const spm_csr *a,
                            const void *x, void *y, int64_t k, int accumulate);
/* Frees the device copies (sparse_device.c). */
DISTRT_HIDDEN void spm_dev_drop(distrt_spmat *m);

/* The non-zero partition (sparse_nonzeros.c). */
/* Fills m's piece from a checked row-blocked coo: moves the entries to
 * their non-zero owners (collective) and fills the CSR arrays, the 32-bit
 * checks included; sets gnnz.  Drops the plan. */
DISTRT_HIDDEN void spm_nz_assign(const char *op, distrt_spmat *m,
                                 const distrt_coo *coo, const char *what);
/* Fills m's CSR arrays (m->first, m->nr set) from entries in row-major
 * order, all in [first, first + nr). */
DISTRT_HIDDEN void spm_fill_csr(const char *op, distrt_spmat *m, int64_t n,
                                const int64_t *coords, const double *values);
/* Frees the ids, the row targets, the partial buffer and the reduction's
 * plan. */
DISTRT_HIDDEN void spm_nz_drop(distrt_spmat *m);
/* The partial buffer of nr x k elements (host): zeroed, or with `foreign`
 * only its rows outside the output block [lo, hi). */
DISTRT_HIDDEN void *spm_partial(const char *op, distrt_spmat *m, int64_t k,
                                int foreign);
/* y (the output block, B rows of k) += partial (nr rows of k), or with
 * `foreign` only partial's rows outside the block (their owners add them);
 * collective under the non-zero partition. */
DISTRT_HIDDEN void spm_reduce_rows(const char *op, distrt_spmat *m,
                                   const void *partial, void *y, int64_t k,
                                   int foreign);
/* The reduction of partial sums of rows [first, first + n) (one element
 * each; m gives the grid and dtype) into y, this process's block [lo, hi)
 * of an output blocked in B rows: y = the rows of partial in [lo, hi)
 * (zeros elsewhere), then the others sent to their owners, which add them
 * (collective; r is planned by the first call and kept). */
DISTRT_HIDDEN void spm_reduce_range(const char *op, const distrt_spmat *m,
                                    spm_reduce *r, int64_t first, int64_t n,
                                    int64_t B, int64_t lo, int64_t hi,
                                    const void *partial, void *y);
/* Plans r as spm_reduce_range does (collective the first time) and gives
 * the own run: partial's rows [own_lo, own_lo + own_n) are y's rows
 * [own_y, own_y + own_n). */
DISTRT_HIDDEN void spm_reduce_range_plan(const char *op, const distrt_spmat *m,
                                         spm_reduce *r, int64_t first,
                                         int64_t n, int64_t B, int64_t lo,
                                         int64_t hi, int64_t *own_lo,
                                         int64_t *own_n, int64_t *own_y);
/* With r planned: y += the rows other processes send (the own run and the
 * rest of y untouched; collective). */
DISTRT_HIDDEN void spm_reduce_range_foreign(const char *op,
                                            const distrt_spmat *m,
                                            spm_reduce *r, const void *partial,
                                            void *y);
/* Frees r's plan and buffers (and zeroes it). */
DISTRT_HIDDEN void spm_reduce_free(spm_reduce *r);
/* The dense gather of a non-zero partition: every process sends its
 * entries (coordinates and values) to root, which scatters them into
 * dense (rows x cols, zeroed here). */
DISTRT_HIDDEN void spm_nz_gather(const char *op, distrt_spmat *m, void *dense,
                                 int64_t root);

/* Order-3 tensors (sparse_tensor3.c). */
/* Fills m's CSF piece from a checked row-blocked coo of order 3 (moving
 * the entries to their fibers' owners under the non-zero partition;
 * collective), the 32-bit checks included; sets gnnz and gnnz2. */
DISTRT_HIDDEN void spm_t3_assign(const char *op, distrt_spmat *m,
                                 const distrt_coo *coo, const char *what);
/* The dense gather of an order-3 tensor (rows x cols x depth on root). */
DISTRT_HIDDEN void spm_t3_gather(const char *op, distrt_spmat *m, void *dense,
                                 int64_t root);
/* distrt_spmat_in_partition for an order-3 m: m, its owner, or its
 * entries companion (made here, collective). */
DISTRT_HIDDEN distrt_spmat *spm_t3_in_partition(const char *op, distrt_spmat *m,
                                                int64_t partition);
/* Frees the level-2 arrays. */
DISTRT_HIDDEN void spm_t3_free(distrt_spmat *m);
/* distrt_spmat_pattern_of(a, b) when a or b has order 3: fatal unless b
 * is a tensor and a a matrix of its fibers' shape, partition, widths and
 * grid (then a gets b's fibers, the CSR matrix in b's `all`). */
DISTRT_HIDDEN void spm_t3_check_pattern(const char *op, const distrt_spmat *a,
                                        const distrt_spmat *b);

/* The companion (sparse_mixed.c): frees m's companion, if any, and zeroes
 * the moved count (collective: every process of m's grid at the same
 * point, as in assign and free). */
DISTRT_HIDDEN void spm_mixed_drop(distrt_spmat *m);

#endif /* DISTRT_SPARSE_SPMAT_INTERNAL_H */
