/*===- distrt/compiler.h - dist runtime library: the compiler ABI -*- C -*-===*
 *
 * AUDIENCE: the dist compiler (dist-materialize-spmd,
 * convert-dist-to-runtime) and the runtime's own tests.  Generated code
 * calls the functions declared here by name; people writing their own
 * programs use distrt/distrt.h (the user API), which this header includes,
 * and rarely need anything below.  The codes and the layout descriptor
 * encoding both sides share are in distrt/abi.h.
 *
 * Generated code calls, besides everything declared here, these user-API
 * functions of distrt.h: distrt_init, distrt_finalize, distrt_grid_rank,
 * distrt_grid_coord, distrt_axes_rank, the collectives and point to point
 * of convert-dist-to-runtime (distrt_allreduce .. distrt_recv),
 * distrt_barrier, distrt_ibcast, distrt_ishift, distrt_iallgather,
 * distrt_wait, distrt_wtime, distrt_gemm_t_f32 / _f64,
 * distrt_layout_tile_capacity, distrt_layout_fill, distrt_layout_zero,
 * distrt_layout_with_extents, distrt_layout_check_tile,
 * distrt_layout_gather, distrt_layout_load / _store and
 * distrt_redistribute.  Renaming or changing the signature of any of them,
 * or of anything here, changes the compiler ABI: the compiler and the
 * runtime change together.
 *
 * The ABI rules, error model and threading rules of distrt.h apply: scalar
 * arguments are int64_t or double, buffers plain pointers, misuse is fatal
 * through distrt_fatal, and no MPI type appears (this header compiles as C
 * and C++ without MPI headers).  The contracts below are what the lowering
 * relies on; docs/runtime.md ("Compiler-facing functions") is the
 * overview.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_COMPILER_H
#define DISTRT_COMPILER_H

#include "distrt.h" /* the user API; abi.h through it */

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Grid slots
 *===----------------------------------------------------------------------===*/

/** Grid cached in `*slot` (a per-grid global in generated code), laid on
 *  the current communicator (distrt_comm_push; the world by default).  The
 *  cache is keyed on the communicator too: the call returns the live grid
 *  this slot made on the current communicator, creating it (with
 *  distrt_grid_create(ndims, dims)) on the first call for that
 *  communicator, or when the grid was freed; `*slot` is set to it.  A grid
 *  made through the slot on another communicator is never returned, and
 *  stays alive (found again when that communicator is current) until
 *  distrt_grid_free or distrt_finalize.  Collective over the current
 *  communicator on the calls that create.  Fatal if the slot's grid for
 *  the current communicator has another shape than dims. */
distrt_grid *distrt_grid_lookup(distrt_grid **slot, int64_t ndims,
                                const int64_t *dims);
/** distrt_grid_lookup for a grid whose leading `node_axes` axes index nodes
 *  (a hierarchical machine flattened outermost level first): creates with
 *  distrt_grid_create_nodes(ndims, dims, node_axes).  Fatal if the slot's
 *  grid has another shape or another number of node axes. */
distrt_grid *distrt_grid_lookup_nodes(distrt_grid **slot, int64_t ndims,
                                      const int64_t *dims, int64_t node_axes);
/** The grid of a machine of GPUs (`gpu[..]`, or `node[..], gpu[..]` with
 *  `node_axes` > 0 node axes; 0 for a one-level machine): as
 *  distrt_grid_lookup / distrt_grid_lookup_nodes, after checking that the
 *  NCCL backend runs (fatal on every process otherwise: a program compiled
 *  for GPUs does not silently run on CPUs). */
distrt_grid *distrt_grid_lookup_gpus(distrt_grid **slot, int64_t ndims,
                                     const int64_t *dims, int64_t node_axes);

/*===----------------------------------------------------------------------===*
 * Generated GPU kernels (dist-gpu-kernels, docs/gpu.md)
 *
 * dist-gpu-launch-to-llvm gives every kernel launch the stream
 * distrt_gpu_stream() returns; dist-translate lowers the embedded binary
 * and the launches to the mgpu* calls below, upstream MLIR's names for
 * them.  distrt implements them over the NCCL backend (fatal on a backend
 * without a device): mgpuModuleLoad only records the binary (it runs in a
 * global constructor, before the backend exists), which the backend loads
 * at the first mgpuModuleGetFunction; launches are queued on its stream.
 *===----------------------------------------------------------------------===*/

void *distrt_gpu_stream(void);

void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);

/*===----------------------------------------------------------------------===*
 * Buffers of generated code (memref.alloc / memref.dealloc) and the
 * checks every compiled computation makes
 *===----------------------------------------------------------------------===*/

/** The allocation functions of finalize-memref-to-llvm with
 *  use-generic-functions, which dist-to-llvm uses for memref.alloc and
 *  memref.dealloc: the same allocator and reuse cache as distrt_alloc,
 *  but a failed allocation returns NULL (the generated code reports it
 *  through distrt_check_alloc). */
void *_mlir_memref_to_llvm_alloc(size_t bytes);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t bytes);
void _mlir_memref_to_llvm_free(void *p);
/** Fatal ("cannot allocate N bytes for WHAT") when `p` is NULL and `bytes`
 *  is positive: compiled programs check every buffer they allocate. */
void distrt_check_alloc(const void *p, int64_t bytes, const char *what);
/** Fatal ("WHAT: the output and input NAME are the same tensor ...") when
 *  `out` and `in` are the same non-NULL tile: compiled programs check that
 *  a computation does not read the tensor it writes through another name
 *  (a function called with the same tensor for two parameters). */
void distrt_check_distinct(const void *out, const void *in, const char *what,
                           const char *name);

/*===----------------------------------------------------------------------===*
 * Timing and profile hooks of computations compiled with `timing`
 *===----------------------------------------------------------------------===*/

/** Profile (DISTRT_PROFILE=1): marks the start of a timed computation;
 *  distrt_report_time marks its end.  Inside marked computations only,
 *  time is charged to communication (every transfer and wait), barrier
 *  wait (distrt_barrier: load imbalance), packing (box copies, the
 *  exchanges and redistribution steps) and library leaves (GEMM); the rest
 *  of a computation's time is local compute (its generated loops).
 *  distrt_finalize prints one line per rank.  No effect when off. */
void distrt_profile_kernel_begin(void);
/** Collective: print "dist: time NAME: T s on N rank(s)" on rank 0, with T
 *  the maximum of `seconds` over the grid.  Ends the computation
 *  distrt_profile_kernel_begin started (first thing, so the report's own
 *  communication is not charged to it). */
void distrt_report_time(distrt_grid *g, const char *name, double seconds);

/*===----------------------------------------------------------------------===*
 * Exchanges of a computation's tensors, by layout descriptor (distrt.h
 * describes the descriptor)
 *===----------------------------------------------------------------------===*/

/** Collective over the grid: every process receives, in `out` (row-major,
 *  extents size[]), the box [lo, lo + size) of the tensor; boxes may differ
 *  per process and be empty.  An element a process holds is never sent to
 *  it; otherwise it comes from the holder with the requester's coordinates
 *  on replicated axes.  One all-to-all-v per call. */
void distrt_fetch_box(distrt_grid *g, const int64_t *desc, const void *tile,
                      int64_t dtype, const int64_t *lo, const int64_t *size,
                      void *out);
/** Collective over the grid: adds each process's box of partial results
 *  `in` into the tiles of every holder of those elements (all replicas).
 *  Contributions are added in rank order, so results are deterministic. */
void distrt_accumulate_box(distrt_grid *g, const int64_t *desc, void *tile,
                           int64_t dtype, const int64_t *lo,
                           const int64_t *size, const void *in);
/** Copy the box [lo, lo + size) from this process's own tile into `out`
 *  (row-major); fatal unless the process holds all of it.  Local. */
void distrt_copy_box_local(distrt_grid *g, const int64_t *desc,
                           const void *tile, int64_t dtype, const int64_t *lo,
                           const int64_t *size, void *out);
/** Add `in` (row-major box) into this process's own tile; fatal unless the
 *  process holds all of the box.  Local. */
void distrt_add_box_local(distrt_grid *g, const int64_t *desc, void *tile,
                          int64_t dtype, const int64_t *lo,
                          const int64_t *size, const void *in);
/** If the box [lo, lo + size) is one contiguous row-major block of this
 *  process's tile (the whole tile, or whole rows of it), the element offset
 *  of the block in the tile, so that the box can be read in place; else -1.
 *  Local. */
int64_t distrt_box_in_tile(distrt_grid *g, const int64_t *desc,
                           const int64_t *lo, const int64_t *size);
/** One step of a permutation between grid ranks: send `scount` elements
 *  to `dest` and receive `rcount` from `src` (-1: no partner).  A rank
 *  that is its own partner copies `send` into `recv`.  Every rank of the
 *  permutation calls it; no deadlock whatever the cycles. */
void distrt_permute(distrt_grid *g, const void *send, int64_t scount,
                    int64_t dest, void *recv, int64_t rcount, int64_t src,
                    int64_t dtype);
/** Non-blocking distrt_permute: same arguments and rules; `send` and
 *  `recv` must stay untouched until the request completes. */
int64_t distrt_ipermute(distrt_grid *g, const void *send, int64_t scount,
                        int64_t dest, void *recv, int64_t rcount, int64_t src,
                        int64_t dtype);

/*===----------------------------------------------------------------------===*
 * Balanced redistribution steps
 *===----------------------------------------------------------------------===*/

/* Balanced redistribution steps (Schatz 2015; docs/redistribution.md).
 * The compiler plans a redistribution between layouts with mode tuples
 * (descriptor kinds 0-3, no skew; fixed axes only for gather, broadcast
 * and scatter) on one grid as a sequence of these steps.  Each is
 * collective over the processes that differ only in the grid axes of `axes` (a bit mask) and moves each piece once, packed /
 * unpacked as a strided box.  A step whose layouts do not have the form it
 * needs is fatal. */

/** Local slice (no communication): the destination tile is a part of the
 *  source tile (the destination partitions over modes the source
 *  replicates). */
void distrt_redist_slice(distrt_grid *g, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype);
/** Allgather over `axes`: the destination no longer partitions over them;
 *  one allgather of the (padded) tiles over the axes' sub-communicator. */
void distrt_redist_allgather(distrt_grid *g, int64_t axes,
                             const int64_t *sdesc, const void *stile,
                             const int64_t *ddesc, void *dtile,
                             int64_t dtype);
/** Permutation over `axes`: every dimension keeps its number of processes
 *  (the per-mode stride condition); each tile moves whole to one partner
 *  (one sendrecv). */
void distrt_redist_permute(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                           const void *stile, const int64_t *ddesc,
                           void *dtile, int64_t dtype);
/** All-to-all over `axes`: both layouts partition over the axes; one
 *  all-to-all-v over the axes' sub-communicator. */
void distrt_redist_alltoall(distrt_grid *g, int64_t axes,
                            const int64_t *sdesc, const void *stile,
                            const int64_t *ddesc, void *dtile, int64_t dtype);
/** Kind change over `axes`: the same mode tuples, some dimensions dealt
 *  with other blocks (blocked <-> cyclic <-> block-cyclic); `axes` are
 *  exactly the grid axes of those dimensions.  One all-to-all-v over the
 *  axes' sub-communicator; each message is the union of runs where the
 *  two block structures overlap. */
void distrt_redist_kind(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                        const void *stile, const int64_t *ddesc, void *dtile,
                        int64_t dtype);
/* Non-replicated forms (layouts fixed to coordinates on grid axes, the
 * thesis' [D; E, w]): elemental-cyclic layouts whose fixed axes include the
 * step's `axes` on one side.  Groups whose other fixed coordinates do not
 * match hold nothing and skip the step. */

/** Gather-to-one over `axes`: the destination drops the source's tails on
 *  `axes` and is fixed on them (the root). */
void distrt_redist_gather(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                          const void *stile, const int64_t *ddesc,
                          void *dtile, int64_t dtype);
/** Broadcast over `axes`: the source is the destination fixed on `axes`. */
void distrt_redist_bcast(distrt_grid *g, int64_t axes, const int64_t *sdesc,
                         const void *stile, const int64_t *ddesc, void *dtile,
                         int64_t dtype);
/** Scatter over `axes`: the source is fixed on `axes` (the root), the
 *  destination partitions over them (tails of its tuples). */
void distrt_redist_scatter(distrt_grid *g, int64_t axes,
                           const int64_t *sdesc, const void *stile,
                           const int64_t *ddesc, void *dtile, int64_t dtype);

/* Partial sums (dist.redistribute ... sum [...]): the source is an
 * elemental-cyclic temporary whose dimensions in the bit mask `sumdims` are
 * summed; they are distributed over exactly the grid axes `axes` (the
 * freed modes).  Each process first adds up its own slices, then the group
 * over `axes` reduces (sum). */

/** Allreduce: the destination is the source's layout without the summed
 *  dimensions (replicated over the freed axes). */
void distrt_redist_allreduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                             const int64_t *sdesc, const void *stile,
                             const int64_t *ddesc, void *dtile,
                             int64_t dtype);
/** Reduce-scatter: the freed axes partition the destination (tails of its
 *  tuples); one reduce-scatter of padded blocks. */
void distrt_redist_reduce_scatter(distrt_grid *g, int64_t axes,
                                  int64_t sumdims, const int64_t *sdesc,
                                  const void *stile, const int64_t *ddesc,
                                  void *dtile, int64_t dtype);
/** Reduce-to-one: the destination is the source's layout without the
 *  summed dimensions, fixed to coordinate 0 on the freed axes. */
void distrt_redist_reduce(distrt_grid *g, int64_t axes, int64_t sumdims,
                          const int64_t *sdesc, const void *stile,
                          const int64_t *ddesc, void *dtile, int64_t dtype);

/*===----------------------------------------------------------------------===*
 * The --check oracle
 *===----------------------------------------------------------------------===*/

/** On grid rank `root` only: out = `in` (row-major, extents shape) summed
 *  over the dimensions in `sumdims` (the reference of --check). */
void distrt_sum_reference(distrt_grid *g, int64_t root, const void *in,
                          int64_t dtype, int64_t ndims, const int64_t *shape,
                          int64_t sumdims, void *out);
/** Collective: rank 0 broadcasts `ref` (the whole tensor, row-major, read
 *  on rank 0 only); every process compares EVERY element of its own tile
 *  (all replicas; processes off a fixed face compare nothing) with it,
 *  with the measure of distrt_max_rel_error, reduced over the grid.  Rank 0
 *  prints "dist: check NAME: max relative error E (tolerance T) on N
 *  rank(s): PASS|FAIL (checksum H)", H an FNV-1a hash of the copy gathered
 *  to rank 0; a failure is preceded by "dist: check NAME: first mismatch on
 *  rank R at element (i,j,...): got X, expected Y" (the lowest such rank,
 *  then its lowest row-major element).  Returns 1 on pass (E <= tol, never
 *  for NaN), 0 on failure, on every rank.  After a failed check,
 *  distrt_finalize() ends the process with status 1. */
int64_t distrt_check_result(distrt_grid *g, const char *name,
                            const int64_t *desc, const void *tile,
                            int64_t dtype, const void *ref, double tol);
/** Collective: distrt_check_result for a tensor that a computation only
 *  read (`ref`, on rank 0, is its gathered copy from before): silent when
 *  every copy on every process still equals it, else the same first
 *  mismatch and FAIL lines. */
int64_t distrt_check_unchanged(distrt_grid *g, const char *name,
                               const int64_t *desc, const void *tile,
                               int64_t dtype, const void *ref, double tol);
/* Reference evaluator of index notation (the oracle of --check; it shares
 * no code with the compiler's lowering).  Purely local.  The statement
 * grammar is the compiler's:
 *   statement ::= access ('=' | '+=') expr
 *   expr ::= term (('+' | '-') term)*      term ::= factor ('*' factor)*
 *   factor ::= '-' factor | number | access | '(' expr ')'
 *   access ::= name ('(' (index (',' index)*)? ')')?
 * A bare name is an order-0 tensor (one element); numbers are read with
 * strtod (print them with %.17g to round-trip).  The left-hand side's index
 * variables are free; every other variable is summed over the smallest
 * sub-expression (parse-tree node) containing all its uses, except that an
 * addition or subtraction never sums: each operand using the variable sums
 * it on its own and an operand not using it is counted once.  So
 * "A(i,j) = B(i,k) * C(k,j) + D(i,j)" is B.C + D, "a = B(i) + C(j)" is
 * sum_i B(i) + sum_j C(j) and "A(i) = B(i,k) + D(i) + B(i,k) * C(k)" is
 * sum_k B(i,k) + D(i) + sum_k B(i,k) C(k).  Floats are evaluated in double
 * and rounded to the element type when stored; integers wrap (two's
 * complement) in their width, and a constant in an integer statement is
 * (int64_t)constant.  An empty extent gives an empty sum (0). */
typedef struct distrt_reference distrt_reference;
/** Starts a reference evaluation of `stmt` over elements of type `dtype`
 *  (DISTRT_F32 .. DISTRT_I64).  Fatal on a malformed statement (the message
 *  names the column) or one nested more than 256 levels deep. */
distrt_reference *distrt_reference_begin(const char *stmt, int64_t dtype);
/** Binds tensor `name` (rank `rank`, extents shape[0..rank-1], row-major
 *  data).  Every tensor named in the statement must be bound exactly once
 *  (a name not in the statement, or bound twice, is fatal); the output's
 *  buffer holds the old values for `+=`. */
void distrt_reference_bind(distrt_reference *r, const char *name,
                           int64_t rank, const int64_t *shape, void *data);
/** Evaluates into the output's buffer (overwrites for '=', adds for '+=';
 *  the output may also be read on the right-hand side: it reads the old
 *  values), then frees r.  Fatal if a tensor is unbound, an access's index
 *  count differs from the bound rank, or an index variable is used with two
 *  different extents. */
void distrt_reference_run(distrt_reference *r);

/*===----------------------------------------------------------------------===*
 * Library leaves besides GEMM (substitute(..., gemv), substitute(..., dot))
 *===----------------------------------------------------------------------===*/

/** Matrix-vector product, row-major A stored m x n with leading dimension
 *  lda >= max(1, n): y = alpha * op(A) * x + beta * y with op(A) = A
 *  (transa 0: x has n elements, y m) or A^T (transa 1: x has m, y n), x and
 *  y with strides incx, incy >= 1.  cblas_dgemv / cblas_sgemv (naive loops
 *  without cblas).  Empty products return at once; negative sizes, bad
 *  strides or sizes beyond the BLAS integer range are fatal. */
void distrt_gemv_t_f64(int64_t transa, int64_t m, int64_t n, double alpha,
                       const double *a, int64_t lda, const double *x,
                       int64_t incx, double beta, double *y, int64_t incy);
void distrt_gemv_t_f32(int64_t transa, int64_t m, int64_t n, double alpha,
                       const float *a, int64_t lda, const float *x,
                       int64_t incx, double beta, float *y, int64_t incy);
/** Dot product accumulated into *out: *out += sum_i x[i*incx] * y[i*incy]
 *  over n elements (incx, incy >= 1).  cblas_ddot / cblas_sdot. */
void distrt_dot_acc_f64(int64_t n, const double *x, int64_t incx,
                        const double *y, int64_t incy, double *out);
void distrt_dot_acc_f32(int64_t n, const float *x, int64_t incx,
                        const float *y, int64_t incy, float *out);

/** Set `count` elements of type `dtype` (DISTRT_F32 .. DISTRT_I64) at `buf`
 *  to zero; `buf` is host memory or device memory (distrt_device_alloc on
 *  the NCCL backend: a memset queued on the backend's stream, ordered
 *  before every later transfer and leaf).  count 0 does nothing; a
 *  negative count, an unknown dtype or a NULL buffer with count > 0 is
 *  fatal.  Local.  Generated code zeroes its partial-result buffers with
 *  it. */
void distrt_zero_buffer(void *buf, int64_t count, int64_t dtype);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DISTRT_COMPILER_H */
