/*===- distrt/sparse.h - dist runtime: sparse matrix / tensor files -*- C
 *-*-===*
 *
 * AUDIENCE: C programs that load or generate a sparse matrix or tensor in a
 * row-distributed coordinate (COO) form, and the dist compiler, whose
 * generated code keeps each sparse !dist.tensor as a distrt_spmat (the
 * distributed CSR matrix below) and multiplies through its views and its
 * exchange plan.
 *
 * Readers (each collective over the processes of `g`, or, when `g` is NULL,
 * of the current communicator: the whole job, or the one distrt_comm_push
 * made current):
 *   distrt_coo_read_mm   MatrixMarket   coordinate | array,
 *                                       real | integer | pattern,
 *                                       general | symmetric
 *   distrt_coo_read_tns  FROSTT .tns    "i j k ... value" lines, 1-based
 *   distrt_coo_read_hb   Harwell-Boeing RUA, RSA, RRA, PUA, PSA, PRA
 *                                       (assembled, real or pattern)
 *
 * Partition: dimension 0 ("rows") is cut into contiguous blocks over the P
 * processes by rank: block = ceil(rows / P), rank r holds rows
 * [min(r * block, rows), min((r + 1) * block, rows)).  Each rank receives
 * every entry of its rows, sorted by coordinates (row-major, lexicographic
 * over the dimensions).  Symmetric files are expanded: every stored
 * off-diagonal entry (i, j) also appears as (j, i), so `coo` holds both
 * triangles.
 *
 * Errors (a missing or unreadable file, a bad or missing header, an
 * unsupported field / symmetry / format, a number that does not parse, a
 * coordinate out of range, an entry above the diagonal of a symmetric file,
 * a duplicate coordinate, fewer or more entries than the header announces)
 * end the whole job with one line
 *     distrt: fatal: rank R of N: <function>: <path>:<line>: <cause>
 * (":<line>" left out where no single line is at fault).  The processes
 * agree on the error first in file order, and the rank that found it
 * reports it.  See docs/runtime.md, "Sparse files".
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_SPARSE_H
#define DISTRT_SPARSE_H

#include "distrt.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** This process's share of a sparse matrix (order 2) or tensor. */
typedef struct distrt_coo {
  int64_t order;                 /* number of dimensions (2 for matrices) */
  int64_t dims[DISTRT_MAX_DIMS]; /* global extents */
  int64_t nnz;                   /* entries this process holds */
  int64_t *coords; /* nnz * order, 0-based, entry-major: entry k is
                      coords[k * order .. k * order + order) */
  double *values;  /* nnz values (1.0 for pattern files) */
  int64_t lo, hi;  /* this process holds dimension-0 indices [lo, hi) */
} distrt_coo;

/** Read a MatrixMarket file.  Every process reads its own byte range of the
 *  data lines; entries then go to their row owners in one all-to-all.
 *  `array` files give every element (zeros included), `pattern` files the
 *  value 1.0, `integer` files their values as doubles. */
void distrt_coo_read_mm(const char *path, distrt_grid *g, distrt_coo *coo);

/** Read a FROSTT .tns file: one entry a line, the 1-based indices then
 *  the value; `#` lines are comments.  With ndims = 0 and dims NULL, the
 *  order is the number of fields of the first entry line less one
 *  (1 .. DISTRT_MAX_DIMS) and the extents are the largest index of each
 *  mode.  Otherwise dims[0..ndims) are the extents: the file must have
 *  ndims indices a line, and an index beyond its extent is an error (a
 *  file with no entries then gives an empty tensor of that shape). */
void distrt_coo_read_tns(const char *path, distrt_grid *g, int64_t ndims,
                         const int64_t *dims, distrt_coo *coo);

/** Read a Harwell-Boeing file (assembled; real or pattern; unsymmetric,
 *  symmetric or rectangular).  Grid rank 0 parses the whole file (the
 *  column-compressed layout does not split by bytes) and sends each row to
 *  its owner. */
void distrt_coo_read_hb(const char *path, distrt_grid *g, distrt_coo *coo);

/** Free the arrays of `coo` and zero it.  NULL is a no-op. */
void distrt_coo_free(distrt_coo *coo);

/*===----------------------------------------------------------------------===*
 * Generators (collective over the processes of `g`, or, when `g` is NULL,
 * of the current communicator, as for the readers).  Same partition and
 * order as the readers.  The tensor does
 * not depend on the number of processes: every draw and every value comes
 * from a counter-based generator keyed by (seed, draw number) or (seed,
 * coordinates).  Values lie in [-1, 1) and are never 0.
 *===----------------------------------------------------------------------===*/

/** n x n banded matrix: row i holds the columns j with |i - j| <= width / 2
 *  (clipped at the edges), so `width` (odd, >= 1) non-zeros per inner row. */
void distrt_coo_gen_banded(distrt_grid *g, int64_t n, int64_t width,
                           int64_t seed, distrt_coo *coo);

/** n x n R-MAT (Kronecker) graph matrix: edges_per_row * n draws, each
 *  choosing its quadrant recursively with probabilities (a, b, c, d) =
 *  (0.57, 0.19, 0.19, 0.05) (Graph500) over the 2^ceil(log2 n) square; a
 *  draw outside n x n is dropped and duplicate draws are kept once, so the
 *  matrix has at most edges_per_row * n non-zeros.  The vertices are not
 *  permuted: the first rows are the densest. */
void distrt_coo_gen_rmat(distrt_grid *g, int64_t n, int64_t edges_per_row,
                         int64_t seed, distrt_coo *coo);

/** Uniform random tensor of `order` dimensions dims[0..order): `draws`
 *  coordinates drawn uniformly, duplicates kept once. */
void distrt_coo_gen_uniform(distrt_grid *g, int64_t order,
                            const int64_t *dims, int64_t draws, int64_t seed,
                            distrt_coo *coo);

/** Power-law tensor of `order` dimensions dims[0..order): `draws`
 *  coordinates, each index drawn bit by bit over the power-of-two box as
 *  an R-MAT matrix's rows are (a bit is 1 with probability 0.24, the
 *  Graph500 c + d), so every mode is skewed toward low indices, as the
 *  modes of FROSTT tensors are; a draw outside dims is dropped and
 *  duplicates are kept once.  What dist.generate rmat(e) makes of a tensor
 *  of order 3 (e * dims[0] draws). */
void distrt_coo_gen_kronecker(distrt_grid *g, int64_t order,
                              const int64_t *dims, int64_t draws,
                              int64_t seed, distrt_coo *coo);

/*===----------------------------------------------------------------------===*
 * Distributed CSR matrices (what a sparse !dist.tensor of order 2 with a
 * `"xy -> x"` layout on a 1-D grid is at run time)
 *
 * Rows are cut over the P processes of the grid in blocks of
 * B = ceil(rows / P), as the readers cut them: rank r holds rows
 * [min(r B, rows), min((r + 1) B, rows)).  The local piece is stored CSR:
 * pos (B + 1 entries: rows past this process's last are empty, so every
 * process has B rows) and crd of `pos_bits` / `crd_bits` (32 or 64) bits,
 * values of `dtype` (DISTRT_F32 or DISTRT_F64).  Within a row, crd is
 * increasing.
 *
 * A dense operand x with `cols` rows (a vector, or a matrix of k columns
 * stored row-major) blocked over the same grid in blocks of
 * C = ceil(cols / P) is multiplied through the exchange plan, built once per
 * matrix by distrt_spmat_plan (PETSc's VecScatter; MPIAIJ's split):
 *   - the DIAG part holds the entries whose column lies in this process's
 *     block of x, renumbered from the block's start;
 *   - the OFFDIAG part holds the others, their columns renumbered to their
 *     place in the sorted list of distinct such columns (the ghosts);
 *   - an exchange sends each process exactly the rows of x it needs as
 *     ghosts, and nothing else.
 * So y = DIAG * x_local + OFFDIAG * ghosts, and the DIAG product can run
 * while the exchange is in flight.
 *
 * The non-zero partition (distrt_spmat_create_nonzeros; SpDISTAL's
 * coordinate fusion) splits the entries instead of the rows: each process
 * stores CSR over the rows its entries lie in, a row may be split between
 * neighbouring processes, and a product gives partial sums of those rows
 * (distrt_spmat_partial), which distrt_spmat_reduce_rows adds into the
 * output blocked by rows as above.  The plan, its parts and the exchange
 * are the same, by column; pos has one entry more than the piece's rows
 * (distrt_spmat_local_rows), B + 1 under the row partition.
 *
 * Mixed partitions: a matrix stored in one partition gives a product whose
 * schedule wants the other its entries in that one
 * (distrt_spmat_in_partition), a companion matrix it owns.
 *
 * Order-3 tensors (distrt_spmat_create3): d0 x d1 x d2, stored per process
 * as CSF with a dense root.  Level 0 is the piece's rows, as a matrix's
 * (distrt_spmat_local_rows); level 1 its (i, j) fibers (the distinct
 * (i, j) pairs holding an entry, row-major): pos (nrows + 1) and crd (j),
 * i.e. the CSR matrix of the fibers' pattern; level 2 pos2 (nfibers + 1),
 * crd2 (k, increasing within a fiber) and the values, one per entry
 * (distrt_spmat_fibers).  Level 1 has no values.  Under the non-zero
 * partition the fibers are split (SpDISTAL's fuse(i, j, f), pos(f, fp,
 * B)): numbered row-major over the whole tensor, F of them, with
 * E = ceil(F / P), rank r holds fibers [min(r E, F), min((r + 1) E, F))
 * with all of their entries, and its piece spans the rows they lie in.
 * So the fiber pattern is partitioned exactly as a matrix whose entries
 * are those fibers, and distrt_spmat_pattern_of(a, tensor) gives such a
 * matrix (SpTTV's output) the same pieces.  Calls that take order-3
 * tensors: create3, order, fibers, partition, free, assign, read (.tns),
 * generate (DISTRT_GEN_UNIFORM), local_nnz and global_nnz (the entries),
 * local_rows, partial, reduce_rows, gather_dense, pattern_of (as b),
 * in_partition (only to DISTRT_SPMAT_ENTRIES, the entries split equally:
 * below), moved_entries, fiber_partial and reduce_fibers.  Every other
 *distrt_spmat_* call ends the job with one line saying the tensor has order 3.
 *===----------------------------------------------------------------------===*/

typedef struct distrt_spmat distrt_spmat;

/* The parts of distrt_spmat_part (DISTRT_SPMAT_*) and the generators of
 * distrt_spmat_generate (DISTRT_GEN_*) are in distrt/abi.h. */

/** A rows x cols matrix with no entries, rows blocked over the processes
 *  of `g` (in grid-rank order).  Collective over g.  Fatal on a bad width,
 *  dtype or extent. */
distrt_spmat *distrt_spmat_create(distrt_grid *g, int64_t rows, int64_t cols,
                                  int64_t pos_bits, int64_t crd_bits,
                                  int64_t dtype);

/** Like distrt_spmat_create, but the entries are split by non-zeros
 *  (SpDISTAL's coordinate fusion B_xy -(xy->f)-> |->_f~ M): numbered in
 *  row-major order over the whole matrix, nnz of them, with
 *  E = ceil(nnz / P), grid rank r holds entries
 *  [min(r E, nnz), min((r + 1) E, nnz)).  Its piece is CSR over the rows
 *  those entries lie in, [first, first + nrows) (distrt_spmat_local_rows),
 *  local row numbers from `first`; a row may be split between neighbouring
 *  ranks.  distrt_spmat_assign, _read and _generate take the row-blocked
 *  entries the readers give (and check them as for distrt_spmat_create),
 *  then move them to their owners (an all-gather of P counts, an
 *  all-to-all of P counts, two all-to-all-v); E must fit 32-bit positions
 *  when pos_bits = 32. */
distrt_spmat *distrt_spmat_create_nonzeros(distrt_grid *g, int64_t rows,
                                           int64_t cols, int64_t pos_bits,
                                           int64_t crd_bits, int64_t dtype);

/** A d0 x d1 x d2 tensor with no entries, stored as CSF with a dense root
 *  (rows of dimension 0 as a matrix's; partition DISTRT_SPMAT_ROWS or
 *  DISTRT_SPMAT_NONZEROS: the (i, j) fibers split equally).  Collective.
 *  Fatal on a bad width, dtype, partition or extent.  distrt_spmat_assign,
 *  _read and _generate fill it: the COO of order 3 and m's extents (rows
 *  of the readers' partition, sorted, no duplicates, checked as for
 *  matrices); under the non-zero partition the entries then move to their
 *  fibers' owners (an all-gather of P (fiber, entry) count pairs, an
 *  all-to-all of P counts, two all-to-all-v).  pos_bits = 32 needs the
 *  local fibers (E) and entries to fit, crd_bits = 32 every j and k (and
 *  a piece's row span). */
distrt_spmat *distrt_spmat_create3(distrt_grid *g, int64_t d0, int64_t d1,
                                   int64_t d2, int64_t pos_bits,
                                   int64_t crd_bits, int64_t dtype,
                                   int64_t partition);

/** 2 for matrices, 3 for tensors made by distrt_spmat_create3. */
int64_t distrt_spmat_order(const distrt_spmat *m);

/** Views of this process's piece of an order-3 tensor (into the runtime's
 *  storage, valid until its entries change): level 1 pos (nrows + 1,
 *  where nrows is distrt_spmat_local_rows's count) and crd (j), level 2
 *  pos2 (nfibers + 1) and crd2 (k), the values; *nfibers and *nnz the
 *  local counts.  Any pointer may be NULL.  Fatal for a matrix. */
void distrt_spmat_fibers(distrt_spmat *m, void **pos, void **crd, void **pos2,
                         void **crd2, void **val, int64_t *nfibers,
                         int64_t *nnz);

/** DISTRT_SPMAT_ROWS (distrt_spmat_create) or DISTRT_SPMAT_NONZEROS
 *  (distrt_spmat_create_nonzeros); in distrt/abi.h. */
int64_t distrt_spmat_partition(const distrt_spmat *m);

/** m's entries in partition `partition` (DISTRT_SPMAT_ROWS or
 *  DISTRT_SPMAT_NONZEROS): m itself when it is partitioned so; otherwise a
 *  companion matrix of the other partition holding the same entries (same
 *  extents, widths and dtype, m's grid), made by the first call after m's
 *  entries change and kept, owned by m, until they change again
 *  (distrt_spmat_assign, _read, _generate on m free it) or m is freed.
 *  Callers never free it, nor change its entries (both fatal); everything
 *  else a matrix does (plan, parts, exchange, local rows, partial sums,
 *  reduce_rows, products, gather_dense, write_mm) works on it, and its own
 *  plan and buffers are kept with it.  Asked for m's partition, the
 *  companion returns m.  Collective over m's grid (when it makes the
 *  companion; every process calls it at the same point).  Entries whose
 *  owner is the same process under both partitions are copied locally;
 *  only the others are sent: rows -> nonzeros an all-gather of P counts
 *  (the offsets), then, both ways, one all-to-all of P counts and one
 *  all-to-all-v of (row, column, value) triples; pos is rebuilt for the
 *  new rows.  With DISTRT_VERBOSE set and not 0, grid rank 0 prints
 *      distrt: distrt_spmat_in_partition: R x C matrix, rows -> nonzeros:
 *      moved M of N entries
 *  (on one line; or "nonzeros -> rows").  The 32-bit limits of
 *  distrt_spmat_create_nonzeros (or of the row partition) apply to the
 *  companion.  An unknown partition ends the job with one line. */
distrt_spmat *distrt_spmat_in_partition(distrt_spmat *m, int64_t partition);

/* An order-3 tensor m (stored with DISTRT_SPMAT_ROWS or _NONZEROS) asked
 * for DISTRT_SPMAT_ENTRIES by distrt_spmat_in_partition gives its entries
 * companion: its G entries, numbered row-major, cut in blocks of E =
 * ceil(G / P) (SpDISTAL's fusion of all three levels), so a fiber or a
 * row may be split between neighbouring processes; kept as the matrices'
 * companion is.  The entries move as for the matrices (an all-gather of P
 * (fiber, entry) count pairs, one all-to-all of P pairs, two
 * all-to-all-v); DISTRT_VERBOSE prints "I x J x K tensor, fibers ->
 * entries: moved M of G entries".  Its fibers (distrt_spmat_fibers), rows
 * (local_rows), partial rows (partial, reduce_rows) work as a non-zero
 * partition's; any other partition asked of an order-3 tensor is fatal. */

/** A zeroed buffer of one element per local fiber of an order-3 tensor
 *  (distrt_spmat_fibers' *nfibers; host memory, owned by m, reused; zeroed
 *  on every call; never NULL) for the partial sums of its fibers. */
void *distrt_spmat_fiber_partial(distrt_spmat *m);

/** Like distrt_spmat_fiber_partial, but after distrt_spmat_fiber_runs only
 *  the fibers outside the own run are zeroed (the product writes those
 *  straight into y); fatal while the reduction is not planned (by
 *  fiber_runs or reduce_fibers since the entries last changed). */
void *distrt_spmat_fiber_partial_foreign(distrt_spmat *m);

/** Collective: y = the sums over the processes of the partial sums of
 *  fibers, where m is the entries companion of a tensor stored by fibers
 *  (DISTRT_SPMAT_NONZEROS), partial holds one element per local fiber (the
 *  fibers m's entries lie in, numbered from m's first), and y is this
 *  process's block of a vector over the F fibers blocked in ceil(F / P)
 *  (ny elements, the fibers the stored tensor's piece holds: the values of
 *  SpTTV's output A, which has those fibers as its entries).  y is zeroed,
 *  then gets this process's own sums and, in increasing rank, the ones the
 *  processes sharing its fibers send (point to point, planned once per
 *  companion).  Fatal for another m or a wrong ny. */
void distrt_spmat_reduce_fibers(distrt_spmat *m, const void *partial, void *y,
                                int64_t ny);

/** The own run of a product over the entries companion m (as for
 *  distrt_spmat_reduce_fibers) that writes this process's fibers straight
 *  into y (ny elements, its block of the F fibers): zeroes y and gives the
 *  local fibers [*own_begin, *own_end) that lie in y's block, local fiber
 *  q going to y[q - *own_begin + *y_offset]; the others go to the partial
 *  sums (distrt_spmat_fiber_partial), which
 *  distrt_spmat_reduce_fibers_foreign sends.  Collective the first time
 *  after m's entries change (it plans the reduction).  Any out pointer may
 *  be NULL. */
void distrt_spmat_fiber_runs(distrt_spmat *m, void *y, int64_t ny,
                             int64_t *own_begin, int64_t *own_end,
                             int64_t *y_offset);

/** Collective: after distrt_spmat_fiber_runs (fatal while the reduction
 *  is not planned, as above), y += the partial sums of
 *  this process's fibers that other processes hold (in increasing rank),
 *  and partial's fibers outside [own_begin, own_end) go to the processes
 *  whose blocks hold them; y's own run is not touched. */
void distrt_spmat_reduce_fibers_foreign(distrt_spmat *m, const void *partial,
                                        void *y, int64_t ny);

/** The entries (global: the sum over the processes) sent to another
 *  process when m's companion (distrt_spmat_in_partition) was made, i.e.
 *  those whose row-block owner floor(row / B) is not their non-zero owner
 *  floor(e / E) (e: the entry's row-major number); 0 while m has no
 *  companion (none made since its entries last changed) and for a
 *  companion itself. */
int64_t distrt_spmat_moved_entries(const distrt_spmat *m);

/** The rows of this process's piece: the global number of its first row
 *  and the number of CSR rows of its parts (pos has *nrows + 1 entries):
 *  B = ceil(rows / P) for the row partition (first = lo), the rows its
 *  entries span for the non-zero partition (first = 0 and *nrows = 0 when
 *  it has none).  *ids: the local row numbers 0 .. *nrows - 1 as an array
 *  of the crd width (owned by m, valid until m's entries change or m is
 *  freed; never NULL), so that a DCSR (compressed-rows) kernel can run
 *  over the piece.  Any pointer may be NULL. */
void distrt_spmat_local_rows(distrt_spmat *m, void **ids, int64_t *first,
                             int64_t *nrows);

/** A zeroed buffer of nrows x k elements of m's dtype (host memory, owned
 *  by m, reused; zeroed on every call; never NULL) for the partial sums of
 *  this process's rows (distrt_spmat_local_rows).  Valid until the next
 *  call, a product on m (distrt_spmat_mul and _mul_add use it under the
 *  non-zero partition), a change of m's entries or m's free.  Fatal for
 *  k < 1. */
void *distrt_spmat_partial(distrt_spmat *m, int64_t k);

/** Collective: y += the partial sums, where y is this process's block of
 *  the output (B = ceil(rows / P) rows of k, blocked by rank like the row
 *  partition) and partial holds this process's local rows (nrows x k,
 *  distrt_spmat_local_rows).  Rows of partial in this process's block are
 *  added in place; the others are sent to the ranks whose block holds them,
 *  which add them (a row split between ranks is summed).  Deterministic
 *  order: own rows first, then received rows in increasing sender rank.
 *  Which ranks send what is worked out once per matrix entries (one
 *  all-to-all of 2 P counts) and reused; the rows travel point to point
 *  between those ranks only.  Under the row partition every row is this
 *  process's: y += partial, no communication.  Host memory; every process
 *  passes the same k >= 1; fatal while an exchange is in flight. */
void distrt_spmat_reduce_rows(distrt_spmat *m, const void *partial, void *y,
                              int64_t k);

/** Where the sums of this process's rows go when the rows of its own
 *  output block are written straight into the output (y, B rows of k,
 *  blocked as for distrt_spmat_reduce_rows: this process's block is rows
 *  [lo, hi), lo = min(rank B, rows)).  For part DISTRT_SPMAT_ALL or
 *  DISTRT_SPMAT_DIAG: over the piece's local rows (*count = nrows of
 *  distrt_spmat_local_rows); for DISTRT_SPMAT_OFFDIAG: over the OFFDIAG
 *  part's compressed rows (distrt_spmat_offdiag_rows; *count = their
 *  number; needs the plan, fatal without).  *targets (*count
 *  entries of the crd width, owned by m, made by the first call and valid
 *  while the entries (ALL, DIAG) or the plan (OFFDIAG) are): for an entry
 *  in [*own_begin, *own_end) the row of the process's output block its row
 *  is (global row - lo), for the others its local row (its place in the
 *  partial sums).  The entries in [*own_begin, *own_end) are exactly those
 *  whose global row lies in [lo, hi); they are contiguous (0 <= own_begin
 *  <= own_end <= count).  So a product y += A x writes the sums of rows in
 *  [*own_begin, *own_end) into y[targets[i]], the others into
 *  partial[targets[i]] (distrt_spmat_partial_foreign), then
 *  distrt_spmat_reduce_foreign.  Works for both partitions (for the row
 *  partition the own range is the process's real rows, targets the local
 *  rows).  Any pointer may be NULL; an unknown part ends the job with one
 *  line. */
void distrt_spmat_row_targets(distrt_spmat *m, int64_t part, void **targets,
                              int64_t *own_begin, int64_t *own_end,
                              int64_t *count);

/** Like distrt_spmat_partial, but only the rows outside this process's
 *  output block are zeroed (the others are written to the output
 *  directly, distrt_spmat_row_targets, and their partial sums are not
 *  read).  The same buffer, valid as long; fatal for k < 1. */
void *distrt_spmat_partial_foreign(distrt_spmat *m, int64_t k);

/** Like distrt_spmat_reduce_rows, but the partial sums of rows inside this
 *  process's output block are ignored (already in y,
 *  distrt_spmat_row_targets): only the rows of other blocks travel, and
 *  their owners add them (in increasing sender rank).  Under the row
 *  partition nothing is added.  Collective; every process passes the same
 *  k >= 1. */
void distrt_spmat_reduce_foreign(distrt_spmat *m, const void *partial,
                                 void *y, int64_t k);

/** Frees m, its plan, its buffers and its companion
 *  (distrt_spmat_in_partition).  Collective over m's grid.  NULL is a
 *  no-op.  Fatal on a companion (its matrix frees it). */
void distrt_spmat_free(distrt_spmat *m);

/** Replaces m's entries with `coo` (this process's share as the readers
 *  and generators give it: its rows, sorted, no duplicates; order 2).
 *  Collective.  Fatal, on every process, with one line naming `what`
 *  (e.g. the file) when coo's extents differ from m's, when an entry lies
 *  outside this process's rows or out of order, or when a count or a
 *  column does not fit 32-bit positions / coordinates.  Drops the plan
 *  (and the exchange buffers) and frees m's companion
 *  (distrt_spmat_in_partition).  Under the non-zero partition the entries
 *  then move to their owners (distrt_spmat_create_nonzeros).  Fatal on a
 *  companion. */
void distrt_spmat_assign(distrt_spmat *m, const distrt_coo *coo,
                         const char *what);

/** Reads `path` into m by its extension (case-insensitive): .mtx
 *  (MatrixMarket), .rua .rsa .rra .pua .psa .pra (Harwell-Boeing), .tns
 *  (FROSTT, with m's extents).  Any other extension, and every error of
 *  the readers, ends the job with one line.  An order-3 tensor reads .tns
 *  files only (3 indices a line, m's extents). */
void distrt_spmat_read(distrt_spmat *m, const char *path);

/** Fills m from a generator (DISTRT_GEN_*) with parameter `param`, sized
 *  by m's extents.  An order-3 tensor takes DISTRT_GEN_UNIFORM,
 *  distrt_coo_gen_uniform(g, 3, {d0, d1, d2}, param * d0, seed, ...), or
 *  DISTRT_GEN_RMAT, distrt_coo_gen_kronecker with the same arguments. */
void distrt_spmat_generate(distrt_spmat *m, int64_t kind, int64_t param,
                           int64_t seed);

/** Entries this process holds; entries of the whole matrix (order 3: the
 *  entries, level 2, not the fibers). */
int64_t distrt_spmat_local_nnz(const distrt_spmat *m);
int64_t distrt_spmat_global_nnz(const distrt_spmat *m);

/** Builds the exchange plan (collective; the first call after a change of
 *  entries does the work, later calls return at once). */
void distrt_spmat_plan(distrt_spmat *m);

/** A view of one part (DISTRT_SPMAT_*): pointers to its pos (B + 1
 *  entries under the row partition, nrows + 1 of distrt_spmat_local_rows
 *  in general), crd and values (*nnz entries each), owned by m and valid until
 *  m changes or is freed.  DIAG and OFFDIAG need the plan (fatal without).
 *  *ncols: the column extent of the part's numbering (cols, C for DIAG,
 *  the number of ghosts for OFFDIAG). */
void distrt_spmat_part(distrt_spmat *m, int64_t part, void **pos, void **crd,
                       void **values, int64_t *nnz, int64_t *ncols);

/** The rows of the OFFDIAG part that hold entries (needs the plan; fatal
 *  without), so that its product can skip the others, as PETSc's
 *  compressed rows do: *rows (*nrows entries of the crd width, increasing
 *  local row numbers) and *pos (*nrows + 1 entries of the pos width: row
 *  rows[r] holds OFFDIAG's entries [pos[r], pos[r + 1])), owned by m and
 *  valid while the plan is. */
void distrt_spmat_offdiag_rows(distrt_spmat *m, void **rows, void **pos,
                               int64_t *nrows);

/** Starts the exchange (needs the plan): x is this process's block of the
 *  dense operand (its rows of C, each k elements of m's dtype, row-major;
 *  a process past the end holds none).  Returns the ghost buffer (ghosts x
 *  k elements, owned by m, valid until the next begin with another k or
 *  m's free).  The ghost rows are there once distrt_spmat_exchange_end
 *  returns; x must not change before then.  One exchange at a time. */
void *distrt_spmat_exchange_begin(distrt_spmat *m, const void *x, int64_t k);

/** The dense operand whole, in node-shared memory, when every process of
 *  m's grid runs on one node, the backend has shared memory (MPI-3 shared
 *  windows) and the block of x is no more rows than the most a process
 *  would pack plus receive in the exchange (decided once per matrix
 *  entries, on the first call; always on one node with
 *  DISTRT_SPARSE_SHARED=1, never with 0): copies x (this process's block, as for
 *  distrt_spmat_exchange_begin) into its place in a node-shared array of
 *  all the blocks, waits until every process has, and returns the array
 *  (ceil(cols / P) * P rows of k elements, global row numbers; owned by m,
 *  valid until the next call).  A product then reads the rows it needs in
 *  place (the ALL part, global columns): nothing is packed or sent.
 *  Otherwise returns NULL, and the product uses the exchange plan.
 *  Collective over m's grid; every process passes the same k.  Two arrays
 *  alternate, so one barrier a call keeps a process from overwriting rows
 *  another still reads. */
void *distrt_spmat_share_x(distrt_spmat *m, const void *x, int64_t k);
void distrt_spmat_exchange_end(distrt_spmat *m);

/** y = m * x with the plan and overlap, by the runtime's own loops (the
 *  hand-written path; generated code normally multiplies the parts with
 *  sparsifier-compiled leaves).  Builds the plan if m has none.  x: this
 *  process's block of C rows of k columns (k >= 1; only its real rows are
 *  read); y: this process's B rows of k columns, overwritten (rows past its
 *  last real row get 0).  Under the non-zero partition the product goes
 *  into the partial buffer (distrt_spmat_partial), then
 *  distrt_spmat_reduce_rows adds it into y (zeroed first). */
void distrt_spmat_mul(distrt_spmat *m, const void *x, void *y, int64_t k);

/** Sparse products of compiled programs with device tiles: y += m * x.
 *  x: this process's block of the dense operand (C rows of k, row-major),
 *  or with x_whole != 0 the whole of it (cols rows); y: the process's B
 *  rows of k.  x and y both host memory (the runtime's loops) or both
 *  device memory (the backend's sparse product: cuSPARSE on NCCL): the
 *  parts go to the device once per matrix entries; a blocked x travels
 *  through the plan's exchange (its block staged through the host), the
 *  DIAG product overlapping it.  Collective over m's grid (the exchange)
 *  unless x_whole.  Under the non-zero partition (host memory only; device
 *  buffers are fatal) the product goes into the partial buffer and
 *  distrt_spmat_reduce_rows adds it into y: collective with x_whole too. */
void distrt_spmat_mul_add(distrt_spmat *m, const void *x, void *y, int64_t k,
                          int64_t x_whole);

/** Collective: grid rank `root` receives the whole matrix, dense and
 *  row-major (rows x cols elements of m's dtype, zeros where no entry) in
 *  `dense`; other processes may pass NULL.  For --check.  Under the
 *  non-zero partition each process sends root its entries (memory
 *  proportional to its piece; root also holds the matrix's entries).  An
 *  order-3 tensor: d0 x d1 x d2 elements, row-major; every process sends
 *  root its entries, under both partitions. */
void distrt_spmat_gather_dense(distrt_spmat *m, void *dense, int64_t root);

/** Collective: a's entries become b's pattern (the same piece on every
 *  process: rows, positions and coordinates; values 0), for the output of
 *  an SDDMM, which has its matrix's pattern and its own values.  Does
 *  nothing when a already has the pattern of b's current entries (the
 *  pattern is copied again after b's entries, or a's, change).  a and b
 *  must be different matrices of one grid, shape, partition, index widths
 *  and dtype, and a no companion (distrt_spmat_in_partition); otherwise
 *  every process stops with one line.  With b an order-3 tensor (SpTTV's
 *  output A(i, j)): a gets b's fibers as its entries (level 1: rows,
 *  positions, j coordinates; one value a fiber, 0, for the program to
 *  write); a must be a matrix of d0 x d1 with b's grid, partition and
 *  index widths (its dtype its own). */
void distrt_spmat_pattern_of(distrt_spmat *a, distrt_spmat *b);

/** Collective: room for a's new entries (the output of a sum of sparse
 *  matrices, whose pattern is known once computed).  a's entries, plan and
 *  companion are dropped; its piece gets the rows of `like`'s (a and like:
 *  one grid, shape, partition, widths and dtype; different matrices) with
 *  nr + 1 zero positions and room for `capacity` coordinates and values,
 *  returned in *pos, *crd, *values (runtime storage).  The caller writes
 *  the CSR piece there, then calls distrt_spmat_commit. */
void distrt_spmat_reserve(distrt_spmat *a, const distrt_spmat *like,
                          int64_t capacity, void **pos, void **crd,
                          void **values);

/** Collective: a (after distrt_spmat_reserve) holds `count` entries on
 *  this process, at most the room reserved (fatal otherwise); the global
 *  count is summed over the processes. */
void distrt_spmat_commit(distrt_spmat *a, int64_t count);

/** Collective check of a sparse result: m is gathered dense on grid rank
 *  0 (distrt_spmat_gather_dense) and compared there with `ref` (rows x
 *  cols of m's dtype, row-major, read on rank 0 only): every element,
 *  stored or not, within relative error `tol` (of the largest |ref|).
 *  Rank 0 prints "dist: check <name>: max relative error <e> (tolerance
 *  <tol>) on <P> rank(s): PASS|FAIL (checksum <h>)" and, on failure, the
 *  first mismatching element; a failure counts towards the exit status as
 *  distrt_check_result's do.  Returns 1 when it passes, on every
 *  process. */
int64_t distrt_spmat_check_result(distrt_spmat *m, const char *name,
                                  const void *ref, double tol);

/** Writes m to `path` as a MatrixMarket "coordinate real general" file
 *  (1-based, row-major order, values printed so that they read back
 *  exactly: %.17g for f64, %.9g for f32).  Collective: every process
 *  formats its own rows and writes them at its offset of one shared file
 *  (the ranks must share a file system); the data goes to `path.partial`
 *  and is renamed to `path` when every process has written its part, so
 *  an interrupted run never leaves a complete-looking file.  Any failure
 *  (cannot create, short write, rename) ends every process with one line
 *  naming the path and the cause. */
void distrt_spmat_write_mm(distrt_spmat *m, const char *path);

/** Writes the order-3 tensor m (distrt_spmat_create3) to `path` as a
 *  FROSTT .tns file: a "#" comment line with the extents and the entry
 *  count, then one "i j k value" line an entry (1-based, row-major, values
 *  as distrt_spmat_write_mm prints them), in parallel and through
 *  `path.partial` as distrt_spmat_write_mm.  Reading it back with the
 *  tensor's extents gives the same tensor on any number of processes.
 *  Fatal for a matrix. */
void distrt_spmat_write_tns(distrt_spmat *m, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* DISTRT_SPARSE_H */
