/*===- distrt/distrt.h - dist runtime library: the user API ----*- C -*-===*
 *
 * AUDIENCE: people writing their own C or C++ programs against distrt
 * (-ldistrt), and the SPMD programs the dist compiler emits, which call
 * many of these functions too.  The entry points that only generated code
 * calls (grid slots, the exchanges and redistribution steps of a lowered
 * computation, the --check oracle, the timing / profile hooks, the
 * allocation hooks of memref.alloc) are in distrt/compiler.h, which
 * includes this header; distrt/abi.h holds the codes and the layout
 * descriptor encoding that both sides share.  A program that calls a
 * compiler-ABI function includes <distrt/compiler.h> instead of (or as
 * well as) this header.
 *
 * distrt is the small C runtime that SPMD programs produced by the dist
 * compiler link against.  It provides process grids and their cached
 * sub-communicators, blocking and non-blocking collectives, point to point
 * messages, tile descriptors (fill / gather / check), tensors described by
 * layout descriptors (fill, gather, redistribute, load / store), aligned
 * memory, a local GEMM, timers, and a uniform fatal-error path.
 *
 * ABI rules (generated LLVM IR calls these functions directly):
 *   - every scalar argument and result is int64_t or double;
 *   - buffers are plain pointers, counts are element counts;
 *   - no MPI / NCCL type ever appears here (this header never includes
 *     mpi.h), so it compiles as C and C++ without any MPI headers.
 *
 * Error model: every function validates its inputs; any misuse (NULL grid,
 * bad dtype / op, negative count, axis or root out of range, unknown request
 * id, ...) or any failed communication call ends the whole job through
 * distrt_fatal(), which prints
 *     distrt: fatal: rank R of N: <function>: <message>
 * to stderr and aborts every rank.  No function returns an error code.
 *
 * Initialisation: functions that need the process layout or communicate
 * (distrt_world_*, distrt_grid_*, distrt_axes_*, all collectives, point to
 * point, requests, distrt_gather_tensor, distrt_check_tensor, distrt_print_*)
 * are fatal when called before distrt_init() or after distrt_finalize().
 * Purely local functions (tile arithmetic, fill, distrt_max_rel_error, memory,
 * GEMM, timers, distrt_fatal) work at any time.
 *
 * Threading: the runtime is not thread safe; call it from one thread
 * (MPI is initialised with MPI_THREAD_FUNNELED).
 *
 * See docs/runtime.md for the full description.
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_DISTRT_H
#define DISTRT_DISTRT_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h" /* dtype, reduction and layout codes; DISTRT_MAX_DIMS */

#if defined(__GNUC__) || defined(__clang__)
#define DISTRT_NORETURN __attribute__((noreturn))
#define DISTRT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define DISTRT_NORETURN
#define DISTRT_PRINTF(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this API (major * 10000 + minor * 100 + patch). */
#define DISTRT_API_VERSION 10000

/* Element types (DISTRT_F32 ..), reduction operators (DISTRT_SUM ..),
 * DISTRT_MAX_DIMS and the layout descriptor encoding: distrt/abi.h. */

/** Number of timers (ids 0 .. DISTRT_NUM_TIMERS-1). */
#define DISTRT_NUM_TIMERS 64

/** Opaque process grid. */
typedef struct distrt_grid distrt_grid;

/*===----------------------------------------------------------------------===*
 * Lifetime
 *===----------------------------------------------------------------------===*/

/** Initialise the runtime.  Collective over all processes when it starts
 *  MPI itself, local when the program already did (see below); idempotent
 *  (later calls do nothing).
 *  Selects the communication backend from the environment variable
 *  DISTRT_BACKEND (`mpi`, the default; `nccl` is not built yet and is fatal).
 *  The MPI backend calls MPI_Init_thread(MPI_THREAD_FUNNELED) unless MPI is
 *  already initialised.  When distrt initialises MPI, it sets
 *  MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF so that every
 *  failing MPI call is reported through distrt_fatal().  When the program
 *  initialised MPI itself, distrt leaves the error handlers of
 *  MPI_COMM_WORLD and MPI_COMM_SELF as they are and works on its own
 *  duplicate of MPI_COMM_WORLD (MPI_ERRORS_RETURN is set on that duplicate
 *  and on every communicator distrt makes), made when the world is first
 *  used for communication: distrt_init itself then involves no other
 *  process.  Fatal when called after distrt_finalize() finalised MPI. */
void distrt_init(void);

/** Initialise the runtime for use as a library inside a program that owns
 *  MPI and need not know about distrt (a drop-in replacement such as
 *  examples/scalapack/dist_pdgemm.c calls it on its first call).  Local: no
 *  other process takes part, so the processes of one sub-communicator may
 *  call it alone.  MPI must be initialised (fatal otherwise).  Unlike
 *  distrt_init, there is no exit check (docs/runtime.md, "Exit without
 *  finalize"): the runtime finalises itself when the program calls
 *  MPI_Finalize (an MPI_COMM_SELF attribute), without the job-wide
 *  DISTRT_PROFILE report and without changing the exit status.  A no-op when
 *  the runtime is already initialised. */
void distrt_init_library(void);

/** Shut the runtime down: completes (waits for) every outstanding request,
 *  frees every live grid with its cached communicators and distrt's
 *  duplicates of the communicators passed to distrt_comm_push /
 *  distrt_grid_create_on, forgets the pushed communicators, and calls
 *  MPI_Finalize if distrt_init() initialised MPI (a program that started
 *  MPI keeps it: it calls MPI_Finalize itself, after this).  Idempotent; a
 *  no-op if the runtime was never initialised.  Collective over all
 *  processes. */
void distrt_finalize(void);

/** Rank of this process in the whole job (0 .. size-1), whatever
 *  communicator is pushed.  Fatal messages print it ("rank R of N"). */
int64_t distrt_world_rank(void);
/** Number of processes in the whole job. */
int64_t distrt_world_size(void);

/*===----------------------------------------------------------------------===*
 * The communicator grids are laid on
 *
 * By default a grid spans the whole job (MPI_COMM_WORLD).  A program that
 * owns MPI can lay grids on a communicator of its own instead, so that
 * several groups of processes run distrt computations at the same time, or
 * a library call runs on the caller's communicator.  No MPI type appears in
 * this header: `mpi_comm` is the address of an MPI_Comm (C handle), read
 * during the call only:
 *     MPI_Comm half;  MPI_Comm_split(MPI_COMM_WORLD, color, key, &half);
 *     distrt_comm_push(&half);
 *     kernel();              // its distrt_grid_lookup grids span `half`
 *     distrt_comm_pop();
 * distrt works on its own duplicate of the communicator (made the first
 * time the communicator is passed, kept until distrt_finalize), so its
 * traffic never mixes with the caller's.  A grid's rank and coordinates
 * are the process's rank in that communicator; every operation on the grid
 * stays inside it.
 *===----------------------------------------------------------------------===*/

/** Make `mpi_comm` (the address of an MPI_Comm) the communicator that
 *  distrt_grid_create* and distrt_grid_lookup lay new grids on, until the
 *  matching distrt_comm_pop.  Pushes nest (at most 16 deep).  Collective
 *  over the communicator the first time it is passed (distrt duplicates
 *  it); later pushes of the same communicator do not communicate.  Passing
 *  MPI_COMM_WORLD means the whole job.  Fatal if mpi_comm is NULL, points
 *  to MPI_COMM_NULL, or is an intercommunicator. */
void distrt_comm_push(const void *mpi_comm);
/** Back to the communicator current before the matching distrt_comm_push.
 *  Local.  Fatal if nothing is pushed.  Grids stay valid after the pop. */
void distrt_comm_pop(void);
/** Size of the current communicator (the world when none is pushed). */
int64_t distrt_comm_size(void);
/** This process's rank in the current communicator. */
int64_t distrt_comm_rank(void);

/*===----------------------------------------------------------------------===*
 * Process grids
 *===----------------------------------------------------------------------===*/

/** Create an `ndims`-dimensional grid with extents dims[0..ndims-1] laid
 *  on the current communicator (the world unless distrt_comm_push made
 *  another one current).  Collective over that communicator.  Ranks map to
 *  coordinates row-major (the last axis varies fastest), like
 *  MPI_Cart_create with reorder = 0, and the grid rank of a process equals
 *  its rank in that communicator (its world rank when none is pushed).
 *  Fatal if ndims < 1, ndims > DISTRT_MAX_DIMS, some dims[i] < 1, or
 *  product(dims) differs from the communicator's size, e.g.
 *  "grid 2x2 needs 4 ranks, but the program was started with 3 ranks
 *  (mpirun -np 4)" or, on a pushed communicator, "grid 2x2 needs 4 ranks,
 *  but the communicator it is laid on (distrt_comm_push) has 2 ranks". */
distrt_grid *distrt_grid_create(int64_t ndims, const int64_t *dims);
/** distrt_grid_create laid on `mpi_comm` (the address of an MPI_Comm)
 *  whatever communicator is current; checks `mpi_comm` as distrt_comm_push
 *  does.  Collective over that communicator. */
distrt_grid *distrt_grid_create_on(const void *mpi_comm, int64_t ndims,
                                   const int64_t *dims);
/** A grid of a hierarchical machine: the leading `node_axes` axes index
 *  nodes, the others the processes of a node (node[2] x cpu[2,2] is
 *  dims {2, 2, 2}, node_axes 1).  0 <= node_axes <= ndims; 0 is exactly
 *  distrt_grid_create.  Collective over the current communicator.  The job
 *  must have prod(dims[0..node_axes)) nodes of prod(dims[node_axes..))
 *  processes each: nodes of DISTRT_RANKS_PER_NODE consecutive ranks when
 *  that is set (DISTRT_NODE_PLACEMENT=cyclic: rank mod nodes, emulating a
 *  round-robin launcher), else the hosts the processes share memory on;
 *  otherwise fatal, naming the grid, the nodes found and their sizes.  The
 *  grid ranks processes node by node (nodes in the order of their lowest
 *  rank, each node's processes in communicator order), so a process's grid
 *  rank differs from its communicator rank when the launcher did not place
 *  ranks node by node.  Collectives over axes that mix node and processor
 *  axes run in two stages (docs/runtime.md). */
distrt_grid *distrt_grid_create_nodes(int64_t ndims, const int64_t *dims,
                                      int64_t node_axes);
/** distrt_grid_create with one axis. */
distrt_grid *distrt_grid_create1(int64_t d0);
/** distrt_grid_create with two axes. */
distrt_grid *distrt_grid_create2(int64_t d0, int64_t d1);
/** distrt_grid_create with three axes. */
distrt_grid *distrt_grid_create3(int64_t d0, int64_t d1, int64_t d2);

/** Free a grid and its cached sub-communicators.  Optional (distrt_finalize
 *  frees every grid still alive).  Collective over the grid's processes.
 * Passing a NULL, already freed, or unknown pointer is fatal. */
void distrt_grid_free(distrt_grid *g);

/** Number of axes. */
int64_t distrt_grid_ndims(const distrt_grid *g);
/** Extent of `axis` (0 <= axis < ndims). */
int64_t distrt_grid_dim(const distrt_grid *g, int64_t axis);
/** Number of leading axes that index nodes (0 for a flat grid). */
int64_t distrt_grid_node_axes(const distrt_grid *g);
/** Number of processes in the grid (product of the extents). */
int64_t distrt_grid_size(const distrt_grid *g);
/** Grid rank of this process (its rank in the communicator the grid is laid
 *  on: its world rank unless the grid was laid on another communicator, or
 *  has node axes and the launcher placed ranks out of node order). */
int64_t distrt_grid_rank(const distrt_grid *g);
/** Coordinate of this process on `axis`. */
int64_t distrt_grid_coord(const distrt_grid *g, int64_t axis);
/** Coordinates of grid rank `rank`, written to coords[0..ndims-1]. */
void distrt_grid_coords_of(const distrt_grid *g, int64_t rank, int64_t *coords);
/** Grid rank of the process at coords[0..ndims-1] (each in range). */
int64_t distrt_grid_rank_of(const distrt_grid *g, const int64_t *coords);

/** Sub-communicators.  `axes` is a bit mask over grid axes (bit i selects
 *  axis i).  The group for a mask is the set of processes that agree with
 *  this process on every coordinate NOT in the mask; ranks within it are
 *  row-major over the selected axes (lowest selected axis slowest).  The
 *  communicator is created on first use (collective over the members of the
 *  group only), cached in the grid, and freed with the grid.  Mask 0 is this
 *  process alone; the full mask is the whole grid.  Bits >= ndims are fatal. */
int64_t distrt_axes_size(distrt_grid *g, int64_t axes);
/** Rank of this process within the `axes` group. */
int64_t distrt_axes_rank(distrt_grid *g, int64_t axes);

/*===----------------------------------------------------------------------===*
 * Collectives over the processes spanning `axes`.
 * Counts are element counts; `root` is a rank within the `axes` group;
 * `dtype` is a DISTRT_F32.. value, `op` a DISTRT_SUM.. value.  Send and
 * receive buffers must not overlap.  A buffer may be NULL only when its size
 * is zero (or where documented as "not read").
 *===----------------------------------------------------------------------===*/

/** In-place all-reduce of buf[0..count). */
void distrt_allreduce(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                      int64_t dtype, int64_t op);
/** Reduce buf[0..count) to `root`, in place there (other ranks' buf is not
 *  modified). */
void distrt_reduce(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                   int64_t dtype, int64_t op, int64_t root);
/** Broadcast buf[0..count) from `root`. */
void distrt_bcast(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                  int64_t dtype, int64_t root);
/** All-gather: send has `count` elements, recv gets count * size elements
 *  ordered by group rank. */
void distrt_allgather(distrt_grid *g, int64_t axes, const void *send,
                      void *recv, int64_t count, int64_t dtype);
/** Reduce-scatter: send has count * size elements; block r (of `count`
 *  elements) of the reduction lands in recv on group rank r. */
void distrt_reduce_scatter(distrt_grid *g, int64_t axes, const void *send,
                           void *recv, int64_t count, int64_t dtype,
                           int64_t op);
/** Reduce-scatter in blocks that need not divide `count`: send has `count`
 *  elements; group rank r receives elements [r * block, min((r + 1) *
 *  block, count)) of the reduction in recv (none when r * block >= count),
 *  which holds `recv_count` elements. block >= 1 and the group's blocks
 *  cover the send buffer (block * group size >= count): the pieces of a
 *  blocked layout whose extent the group does not divide. */
void distrt_reduce_scatter_blocks(distrt_grid *g, int64_t axes,
                                  const void *send, int64_t count, void *recv,
                                  int64_t recv_count, int64_t block,
                                  int64_t dtype, int64_t op);
/** All-to-all: block j (count elements) of send goes to group rank j; recv
 *  block i comes from group rank i. */
void distrt_alltoall(distrt_grid *g, int64_t axes, const void *send,
                     void *recv, int64_t count, int64_t dtype);
/** Gather `count` elements from every group rank into recv at `root`
 *  (count * size elements, ordered by rank; recv not read elsewhere). */
void distrt_gather(distrt_grid *g, int64_t axes, const void *send, void *recv,
                   int64_t count, int64_t dtype, int64_t root);
/** Scatter: block r (count elements) of send at `root` lands in recv on
 *  group rank r (send not read elsewhere). */
void distrt_scatter(distrt_grid *g, int64_t axes, const void *send,
                    void *recv, int64_t count, int64_t dtype, int64_t root);

/** Periodic systolic shift along one grid axis, in place: afterwards buf
 *  holds what the process at coordinate (c + disp) mod dim held before, so
 *  disp = +1 moves data toward lower coordinates (Cannon's "shift A left").
 *  Collective over the processes of that axis. */
void distrt_shift(distrt_grid *g, int64_t axis, int64_t disp, void *buf,
                  int64_t count, int64_t dtype);

/** Blocking send to grid rank `dest` (tag >= 0). */
void distrt_send(distrt_grid *g, const void *buf, int64_t count, int64_t dtype,
                 int64_t dest, int64_t tag);
/** Blocking receive from grid rank `src`; the message must hold exactly
 *  `count` elements (fewer or more is fatal). */
void distrt_recv(distrt_grid *g, void *buf, int64_t count, int64_t dtype,
                 int64_t src, int64_t tag);
/** Send `scount` elements to `dest` and receive exactly `rcount` elements
 *  from `src`, both with `tag`. */
void distrt_sendrecv(distrt_grid *g, const void *send, int64_t scount,
                     int64_t dest, void *recv, int64_t rcount, int64_t src,
                     int64_t dtype, int64_t tag);
/** Barrier over the processes spanning `axes`. */
void distrt_barrier(distrt_grid *g, int64_t axes);

/*===----------------------------------------------------------------------===*
 * Non-blocking operations.  They return a request id (> 0) that must be
 * completed exactly once with distrt_wait (or distrt_waitall).  Buffers must
 * stay valid and untouched until completion.
 *===----------------------------------------------------------------------===*/

/** Non-blocking distrt_bcast. */
int64_t distrt_ibcast(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                      int64_t dtype, int64_t root);
/** Non-blocking in-place distrt_allreduce. */
int64_t distrt_iallreduce(distrt_grid *g, int64_t axes, void *buf,
                          int64_t count, int64_t dtype, int64_t op);
/** Non-blocking shift, out of place: after completion recv holds the `send`
 *  of the process at coordinate (c + disp) mod dim on `axis`. */
int64_t distrt_ishift(distrt_grid *g, int64_t axis, int64_t disp,
                      const void *send, void *recv, int64_t count,
                      int64_t dtype);
/** Non-blocking distrt_allgather. */
int64_t distrt_iallgather(distrt_grid *g, int64_t axes, const void *send,
                          void *recv, int64_t count, int64_t dtype);
/** Complete one request; unknown or already completed ids are fatal. */
void distrt_wait(int64_t request);
/** Complete every outstanding request, in issue order. */
void distrt_waitall(void);

/*===----------------------------------------------------------------------===*
 * Tiles and tensor descriptors.
 *
 * Each tensor dimension d is described by (n = global extent,
 * p = processes over which it is split, c = this process's coordinate among
 * them (0 <= c < p), b = block size): global index g is owned by c iff
 * (g / b) % p == c.  Blocked: b = ceil(n / p); cyclic: b = 1; block-cyclic:
 * any b; replicated / unsplit: p = 1, c = 0, b = n.  b must be >= 1, except
 * that b = 0 is accepted when n = 0.  Local index l <-> global index
 * g = (l / b) * (b * p) + c * b + (l % b).  A local tile is dense row-major
 * with the local extents.  Arrays shape/procs/coords/blocks have ndims
 * entries (0 <= ndims <= DISTRT_MAX_DIMS; ndims = 0 is a scalar).
 *===----------------------------------------------------------------------===*/

/** Number of global indices in [0, n) owned by coordinate c. */
int64_t distrt_local_extent(int64_t n, int64_t p, int64_t c, int64_t b);
/** Global index of local index l. */
int64_t distrt_local_to_global(int64_t l, int64_t p, int64_t c, int64_t b);

/** Deterministic value of the global element with row-major linear index
 *  `linear` for `seed` (splitmix64 hash).  The result is k / 2^23 - 1 for an
 *  integer k in [0, 2^24), i.e. in [-1, 1) and exactly representable as a
 *  float, so F32 and F64 fills hold the same numbers.  Integer dtypes store
 *  floor(8 * value), an integer in [-8, 8). */
double distrt_value(int64_t seed, int64_t linear);
/** Fill a local tile with the values distrt_value gives its global elements
 *  (so the values do not depend on the distribution). */
void distrt_fill(void *tile, int64_t dtype, int64_t ndims, const int64_t *shape,
                 const int64_t *procs, const int64_t *coords,
                 const int64_t *blocks, int64_t seed);
/** Fill a whole (undistributed) row-major tensor with the same values. */
void distrt_fill_global(void *buf, int64_t dtype, int64_t ndims,
                        const int64_t *shape, int64_t seed);

/** Gather every process's tile to grid rank `root` and assemble
 *  the global row-major tensor in `global` (only used on root; may be NULL
 *  elsewhere).  Each process passes its own procs/coords/blocks; dtype,
 *  ndims and shape must agree everywhere.  Replicated copies must agree
 *  bitwise, otherwise fatal naming the first disagreeing element; elements
 *  nobody owns are fatal too.  Collective over the grid. */
void distrt_gather_tensor(distrt_grid *g, const void *tile, int64_t dtype,
                          int64_t ndims, const int64_t *shape,
                          const int64_t *procs, const int64_t *coords,
                          const int64_t *blocks, void *global, int64_t root);

/** Normwise relative error max_i |a_i - ref_i| / max(max_i |ref_i|, DBL_MIN)
 *  over `count` elements; 0 when equal, NaN if any element of `a` or `ref` is
 *  NaN (and the two differ), so that a NaN never passes a tolerance test. */
double distrt_max_rel_error(const void *a, const void *ref, int64_t count,
                            int64_t dtype);

/** Collective check: gathers the tensor to grid rank 0 (as
 *  distrt_gather_tensor), compares it with `ref` (the global tensor, read on
 *  rank 0 only) and prints on rank 0
 *    "distrt: check <name>: max relative error <e> (tolerance <tol>): PASS"
 *  (or FAIL when the error exceeds tol or is NaN).  Returns 1 on pass and 0
 *  on fail, on every rank.  `name` may be NULL ("tensor"). */
int64_t distrt_check_tensor(distrt_grid *g, const char *name, const void *tile,
                            int64_t dtype, int64_t ndims, const int64_t *shape,
                            const int64_t *procs, const int64_t *coords,
                            const int64_t *blocks, const void *ref, double tol);

/*===----------------------------------------------------------------------===*
 * Memory
 *===----------------------------------------------------------------------===*/

/** Allocate `bytes` bytes aligned to 64 bytes (a zero size gives a valid
 *  unique pointer).  Fatal naming the size on failure or negative size.
 *  Blocks of 1 MiB and more are kept when freed (up to 16 blocks and 1 GiB
 *  in all; DISTRT_ALLOC_CACHE_MB sets the total, 0 turns this off) and
 *  handed out again for a request between half their size and their size,
 *  so a kernel called repeatedly does not page-fault its buffers in anew. */
void *distrt_alloc(int64_t bytes);
/** Free memory from distrt_alloc (NULL is ignored; a pointer the runtime
 *  did not hand out, or one freed twice, is fatal). */
void distrt_free(void *p);

/*===----------------------------------------------------------------------===*
 * One-sided distributed matrix multiply ("Slicing", docs/runtime.md)
 *===----------------------------------------------------------------------===*/

/** C (+)= A * B for 2-D tensors on grid g, each with its own layout
 *  descriptor (abi.h; unskewed, any kinds, replicated and fixed axes
 *  allowed) and local tile: A is M x K, B is K x N, C is M x N.  dtype is
 *  DISTRT_F32 or DISTRT_F64.  `stationary` (DISTRT_STATIONARY_A / _B / _C)
 *  names the operand whose blocks stay in place: the others' blocks are
 *  read with one-sided gets from the nearest replica and, unless C is
 *  stationary, partial products are added into C's holders with one-sided
 *  accumulates.  offset (0/1): start each process's loop at a position
 *  derived from its rank.  prefetch (1 to 16): gets in flight ahead of the
 *  block product being computed.  accumulate 0: C = A * B, 1: C += A * B;
 *  every replica of C ends with the same values.  Collective over g.
 *  DISTRT_ONESIDED=twosided selects the two-sided fallback. */
void distrt_onesided_matmul(distrt_grid *g, int64_t dtype,
                            const int64_t *desc_a, const void *a,
                            const int64_t *desc_b, const void *b,
                            const int64_t *desc_c, void *c, int64_t stationary,
                            int64_t offset, int64_t prefetch,
                            int64_t accumulate);
/** distrt_onesided_matmul with A, B and C on the grids ga, gb and gc, each
 *  descriptor read against its own grid.  The grids must be of the same
 *  processes (made on one communicator, so of one size: rank r is the same
 *  process in each, at its own coordinates in each).  Collective over
 *  them. */
void distrt_onesided_matmul_grids(distrt_grid *ga, distrt_grid *gb,
                                  distrt_grid *gc, int64_t dtype,
                                  const int64_t *desc_a, const void *a,
                                  const int64_t *desc_b, const void *b,
                                  const int64_t *desc_c, void *c,
                                  int64_t stationary, int64_t offset,
                                  int64_t prefetch, int64_t accumulate);
/** Batched: C[t] (+)= A[t] * B[t] for each batch element t.  desc_batch is
 *  the 1-D layout descriptor on gc of the batch index (its extent: the
 *  number of products; no fixed axes): a process has the batch elements of
 *  its tile of that layout (all of them when it is whole), and its tiles
 *  of A, B and C hold, one after the other, its tile of each of those
 *  elements (row-major as for one product; desc_a, desc_b, desc_c
 *  describe one product).  Batch elements dealt out over grid axes need
 *  ga == gb == gc: then the processes differing only on those axes hold
 *  different batch elements, and each product is among the processes of
 *  one batch coordinate.  Collective over the grids. */
void distrt_onesided_matmul_batched(
    distrt_grid *ga, distrt_grid *gb, distrt_grid *gc, int64_t dtype,
    const int64_t *desc_batch, const int64_t *desc_a, const void *a,
    const int64_t *desc_b, const void *b, const int64_t *desc_c, void *c,
    int64_t stationary, int64_t offset, int64_t prefetch, int64_t accumulate);
/** Elements this process has moved in distrt_onesided_matmul so far:
 *  remote gets plus remote accumulates (local blocks are not counted). */
int64_t distrt_onesided_words(void);

/** Profile (DISTRT_PROFILE set): the elements this process has moved since
 *  distrt_init, counted by the profiled backend: what it receives from
 *  other processes (collectives by the data a process receives: bcast and
 *  scatter `count` on non-roots, gather count * (p - 1) and reduce `count`
 *  on the root, allreduce `count` (a lower bound), allgather, alltoall and
 *  reduce-scatter count * (p - 1), the -v forms their counts from others,
 *  point to point the received count) plus its one-sided gets and
 *  accumulates (so it includes distrt_onesided_words()).  The profile's
 *  own reports are not counted.  0 when profiling is off. */
int64_t distrt_profile_words(void);

/*===----------------------------------------------------------------------===*
 * Local GEMM, row-major: C[m x n] = alpha * A[m x k] * B[k x n] + beta * C.
 * lda >= max(1,k), ldb >= max(1,n), ldc >= max(1,n).  Uses cblas (OpenBLAS).
 *===----------------------------------------------------------------------===*/

void distrt_gemm_f64(int64_t m, int64_t n, int64_t k, double alpha,
                     const double *a, int64_t lda, const double *b, int64_t ldb,
                     double beta, double *c, int64_t ldc);
void distrt_gemm_f32(int64_t m, int64_t n, int64_t k, double alpha,
                     const float *a, int64_t lda, const float *b, int64_t ldb,
                     double beta, float *c, int64_t ldc);
/** GEMM with transposed operands (row-major): C = alpha * op(A) * op(B) +
 *  beta * C, op(X) = X^T when its flag is 1.  A is m x k (k x m stored when
 *  transposed), B is k x n (n x k stored).  Empty products return at once. */
void distrt_gemm_t_f64(int64_t transa, int64_t transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const double *a, int64_t lda,
                       const double *b, int64_t ldb, double beta, double *c,
                       int64_t ldc);
void distrt_gemm_t_f32(int64_t transa, int64_t transb, int64_t m, int64_t n,
                       int64_t k, double alpha, const float *a, int64_t lda,
                       const float *b, int64_t ldb, double beta, float *c,
                       int64_t ldc);

/*===----------------------------------------------------------------------===*
 * Device memory and leaves on it (docs/gpu.md).  With DISTRT_BACKEND=nccl
 * these buffers are GPU memory (cudaMalloc): the host must not touch them
 * (copy with distrt_copy_to_device / distrt_copy_from_device), and every
 * transfer (distrt_allreduce, distrt_bcast, ..., distrt_send) given device
 * buffers moves them with NCCL.  With the MPI backend they are host memory,
 * so the same program runs on both.  Device work is ordered on one stream
 * per process: blocking transfers and the copies return when done;
 * non-blocking transfers and the leaves below are queued (no host
 * synchronisation) and run in order.
 *===----------------------------------------------------------------------===*/

/** 1 if distrt_device_alloc returns GPU memory (the NCCL backend), 0 if
 *  host memory.  Local. */
int distrt_device_is_gpu(void);
/** `bytes` (>= 0) of device memory, 64-byte aligned; fatal if out of
 *  memory.  Local. */
void *distrt_device_alloc(int64_t bytes);
/** Free what distrt_device_alloc returned (NULL: nothing).  Local. */
void distrt_device_free(void *p);
/** Copy `bytes` from host memory to device memory / back; return when the
 *  copy is done, after the device work queued before it.  Local. */
void distrt_copy_to_device(void *dev, const void *host, int64_t bytes);
void distrt_copy_from_device(void *host, const void *dev, int64_t bytes);
/** Wait for every device operation of this process.  Local. */
void distrt_device_synchronize(void);
/** distrt_gemm_t_* on device memory (cuBLAS with the NCCL backend). */
void distrt_device_gemm_t_f64(int64_t transa, int64_t transb, int64_t m,
                              int64_t n, int64_t k, double alpha,
                              const double *a, int64_t lda, const double *b,
                              int64_t ldb, double beta, double *c, int64_t ldc);
void distrt_device_gemm_t_f32(int64_t transa, int64_t transb, int64_t m,
                              int64_t n, int64_t k, double alpha,
                              const float *a, int64_t lda, const float *b,
                              int64_t ldb, double beta, float *c, int64_t ldc);
/** y = alpha * op(A) x + beta * y on device memory, A row-major m x n
 *  (op(A) = A^T when transa is 1). */
void distrt_device_gemv_t_f64(int64_t transa, int64_t m, int64_t n,
                              double alpha, const double *a, int64_t lda,
                              const double *x, int64_t incx, double beta,
                              double *y, int64_t incy);
void distrt_device_gemv_t_f32(int64_t transa, int64_t m, int64_t n,
                              double alpha, const float *a, int64_t lda,
                              const float *x, int64_t incx, double beta,
                              float *y, int64_t incy);
/** *result = x . y, with `result` in device memory. */
void distrt_device_dot_f64(int64_t n, const double *x, int64_t incx,
                           const double *y, int64_t incy, double *result);
void distrt_device_dot_f32(int64_t n, const float *x, int64_t incx,
                           const float *y, int64_t incy, float *result);

/*===----------------------------------------------------------------------===*
 * Timers and output
 *===----------------------------------------------------------------------===*/

/** Wall-clock time in seconds (monotonic clock). */
double distrt_wtime(void);
/** Start timer `id` (0 .. 63). */
void distrt_timer_start(int64_t id);
/** Stop timer `id`: returns the seconds since its matching start and adds
 *  them to its total.  Fatal if the timer is not running. */
double distrt_timer_stop(int64_t id);
/** Accumulated seconds of timer `id`. */
double distrt_timer_total(int64_t id);

/** Print "rank R: v0 v1 ...\n" to stdout as one write, then flush. */
void distrt_print_i64(const int64_t *buf, int64_t n);
/** Same for doubles, each printed with %.17g. */
void distrt_print_f64(const double *buf, int64_t n);

/*===----------------------------------------------------------------------===*
 * Distributed tensors by layout descriptor (the layouts compiled programs
 * use; distrt/compiler.h has the exchanges and steps built on them)
 *===----------------------------------------------------------------------===*/

/* A layout descriptor is the int64 array the compiler emits for a tensor's
 * layout on a grid (encoding and field names: distrt/abi.h):
 *   [ndims,
 *    per dimension d: n_d, kind_d, block_d, naxes_d, axes_d[0..naxes_d),
 *    nfixed, (axis, coord) * nfixed]
 * kind: 0 not partitioned, 1 blocked (blocks of ceil(n/Q)), 2 cyclic,
 * 3 block-cyclic with block_d.  A dimension is dealt over the processes of
 * its grid axes numbered q = c[a0] + P[a0] * (c[a1] + ...) (first axis
 * fastest); Q is their number.  Bits 8 and up of kind_d are a mask of
 * skew axes S: the dimension's owner digit is then (q + sum of c[s], s in S)
 * mod Q (the article's skewed sharding; a skew axis may not partition
 * another skewed dimension).  Axes used by no dimension and not fixed
 * replicate the tensor; fixed axes restrict the holders to one coordinate.
 * Tiles are dense row-major over the local extents.  Malformed descriptors
 * are fatal. */

/** Elements of this process's tile (0 when it holds nothing). */
int64_t distrt_layout_tile_size(distrt_grid *g, const int64_t *desc);
/** Largest tile of any process (at least 1): the size to allocate. */
int64_t distrt_layout_tile_capacity(distrt_grid *g, const int64_t *desc);
/** Copy the layout descriptor template `tmpl` into `out` (room for
 *  DISTRT_DESC_MAX_LEN entries) with each DISTRT_DESC_DYNAMIC extent
 *  replaced by the next of `extents` (in dimension order); returns `out`.
 *  Fatal, naming `fn` and `what` (the function and the argument), when an
 *  extent is below 1.  Local: what a library function with dynamic (`?`)
 *  extents and its header's helpers use (docs/interop.md). */
int64_t *distrt_layout_with_extents(const int64_t *tmpl, const int64_t *extents,
                                    int64_t *out, const char *fn,
                                    const char *what);
/** Fatal, naming `fn` and `what`, when the processes of g were given
 *  different extents in `desc` or when this process's tile of `desc` has
 *  more than `elems` elements (the tile the caller passed is too small).
 *  Collective over g (one small allreduce). */
void distrt_layout_check_tile(distrt_grid *g, const int64_t *desc,
                              int64_t elems, const char *fn, const char *what);
/** Fill this process's tile with distrt_value(seed, row-major global index):
 *  the same tensor whatever the layout. */
void distrt_layout_fill(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype, int64_t seed);
/** Set this process's tile to zero. */
void distrt_layout_zero(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype);
/** Collective: copy a tensor from one layout to another (grids of the same
 *  size; processes matched by rank). */
void distrt_redistribute(distrt_grid *gs, const int64_t *sdesc,
                         const void *stile, distrt_grid *gd,
                         const int64_t *ddesc, void *dtile, int64_t dtype);
/** Collective: the whole tensor, row-major, into `global` on grid rank
 *  `root` (ignored elsewhere). */
void distrt_layout_gather(distrt_grid *g, const int64_t *desc,
                          const void *tile, int64_t dtype, void *global,
                          int64_t root);

/*===----------------------------------------------------------------------===*
 * Tensor files (dist.load / dist.store); format in docs/reliability.md:
 * "DISTTNSR", version 1, byte-order mark, element type, rank, shape, then
 * the elements row-major.
 *===----------------------------------------------------------------------===*/

/** Collective over the grid: read this process's tile of the tensor
 *  described by `desc` from the tensor file `path`.  Fatal ("dist.load:
 *  PATH: cause", reported once, by the lowest failing rank) if the file is
 *  missing or unreadable, is not a tensor file (bad magic), has another
 *  version, byte order, element type or shape, or is shorter or longer than
 *  its header says.  A `path` ending in ".npy" (any case) is a NumPy file
 *  (versions 1.0-3.0, C or Fortran order, descr matching `dtype`). */
void distrt_layout_load(distrt_grid *g, const int64_t *desc, void *tile,
                        int64_t dtype, const char *path);
/** Collective over the grid: write the tensor to the tensor file `path`
 *  (through `path`.partial, renamed when complete).  Every element is
 *  written by exactly one of its holders.  The ranks must share a file
 *  system.  Fatal ("dist.store: PATH: cause") on any I/O error.  A `path`
 *  ending in ".npy" is written as a NumPy version 1.0, C-order file. */
void distrt_layout_store(distrt_grid *g, const int64_t *desc,
                         const void *tile, int64_t dtype, const char *path);

/*===----------------------------------------------------------------------===*
 * Resource counters (leak tests)
 *===----------------------------------------------------------------------===*/

/** Counters of live runtime objects (`what` of distrt_debug_count). */
enum {
  DISTRT_COUNT_GRIDS = 0,        /**< grids created and not yet freed */
  DISTRT_COUNT_COMMS = 1,        /**< backend communicators (grid, sub-grid) */
  DISTRT_COUNT_REQUESTS = 2,     /**< non-blocking requests not yet completed */
  DISTRT_COUNT_BUFFERS = 3,      /**< distrt_alloc buffers not yet freed */
  DISTRT_COUNT_DEVICE_COMMS = 4, /**< NCCL communicators (0 with MPI) */
  DISTRT_COUNT_DEVICE_BUFFERS = 5, /**< distrt_device_alloc buffers */
  DISTRT_NUM_COUNTS = 6
};
/** The number of live objects of kind `what` in this process (works at any
 *  time; all are 0 after distrt_finalize, except buffers the program did not
 *  free).  Fatal for an unknown `what`. */
int64_t distrt_debug_count(int64_t what);

/*===----------------------------------------------------------------------===*
 * Errors
 *===----------------------------------------------------------------------===*/

/** Print "distrt: fatal: rank R of N: <op>: <message>" to stderr and abort
 *  the whole job (MPI_Abort(MPI_COMM_WORLD, 1), or exit(1) when MPI is not
 *  initialised).  Never returns. */
void distrt_fatal(const char *op, const char *fmt, ...) DISTRT_NORETURN
    DISTRT_PRINTF(2, 3);

/*===----------------------------------------------------------------------===*
 * ScaLAPACK arrays
 *===----------------------------------------------------------------------===*/

/** Indices into a ScaLAPACK array descriptor (9 ints, `desc` / `desca`). */
enum {
  DISTRT_SL_DTYPE = 0, /**< 1: dense matrix */
  DISTRT_SL_CTXT = 1,  /**< BLACS context */
  DISTRT_SL_M = 2,     /**< global rows */
  DISTRT_SL_N = 3,     /**< global columns */
  DISTRT_SL_MB = 4,    /**< row block size */
  DISTRT_SL_NB = 5,    /**< column block size */
  DISTRT_SL_RSRC = 6,  /**< process row of the first row */
  DISTRT_SL_CSRC = 7,  /**< process column of the first column */
  DISTRT_SL_LLD = 8,   /**< leading dimension of the local array */
  DISTRT_SL_DLEN = 9
};

/** The dist layout of a ScaLAPACK array: `desc` describes an M x N
 *  column-major matrix dealt in MB x NB blocks over an nprow x npcol BLACS
 *  grid; dist sees the same local arrays as an N x M row-major tensor
 *  (element (i, j) of the matrix is element (j, i) of the tensor) on the
 *  grid [nprow, npcol] (the BLACS grid in row-major order), dimension 0
 *  block_cyclic(NB) over grid axis 1 and dimension 1 block_cyclic(MB) over
 *  grid axis 0.  A process's tile is then exactly its local array when
 *  LLD equals its local row count (numroc, at least 1).
 *  Writes the layout descriptor (abi.h) into out[0 .. DISTRT_DESC_MAX_LEN)
 *  and returns 0; returns -1 and sets *why (a static string) when the
 *  array has no dist layout: DTYPE other than 1, M or N below 1, MB or NB
 *  below 1, RSRC or CSRC other than 0, or a grid extent below 1.  Local. */
int distrt_layout_from_scalapack(const int *desc, int64_t nprow, int64_t npcol,
                                 int64_t *out, const char **why);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DISTRT_DISTRT_H */
