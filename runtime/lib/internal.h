/*===- internal.h - distrt internals: backend seam, grid, state --*- C -*-===*
 *
 * Not installed.  The public API (distrt.h, distrt/compiler.h) is
 * implemented on top of a communication backend described by `struct
 * distrt_backend`, a table of function pointers.  The MPI implementation
 * lives in backend_mpi.c; an NCCL one can be added by providing another
 * table and selecting it in backend.c.
 *
 * Layers (each file calls only the layers below it):
 *   error.c (error.h)         fatal errors, validation, the state's data
 *   backend_mpi*.c, backend.c the backend and its selection
 *   util, alloc, blas,        process-local services and the profile
 *   profile
 *   grid.c, then comm.c       grids and sub-communicators, then the public
 *                             collectives and the request table (with
 *                             grid_nodes.c and comm_levels.c: grids with
 *                             node axes and their two-level collectives)
 *   tiles, layout_desc,       tensors: tile and layout descriptors, the
 *   boxes, exchange,          exchanges, the redistribution steps, the
 *   redist*, check, io,       check, tensor files, the reference evaluator
 *   reference
 *   core.c                    distrt_init / distrt_finalize (the top)
 * The error layer calls nothing above it: the backend registers how to
 * abort the job (distrt_set_abort_handler), core.c fills in distrt_g.
 *
 * Backend conventions:
 *   - `op` is the public function name to report in fatal errors;
 *   - communicators and requests are opaque backend objects;
 *   - all arguments have been validated by the public layer (ranks, counts,
 *     dtypes, ops are in range; counts fit the backend's limit);
 *   - every failure ends in distrt_fatal(op, ...).
 *===----------------------------------------------------------------------===*/

#ifndef DISTRT_INTERNAL_H
#define DISTRT_INTERNAL_H

#include "distrt/compiler.h" /* the user API and the compiler ABI */
#include "error.h"           /* the bottom layer and the process state */

#include <stddef.h>
#include <stdint.h>

/* Opaque backend objects (distrt_bcomm, a communicator: error.h). */
typedef struct distrt_breq distrt_breq; /* an in-flight operation */
typedef struct distrt_bwin distrt_bwin; /* a one-sided (RMA) window */

struct distrt_backend {
  const char *name;

  /* Lifetime.  init() returns the world communicator (owned by the backend;
   * never passed to comm_free). */
  distrt_bcomm *(*init)(const char *op);
  void (*finalize)(const char *op);
  /* 1 while the backend can communicate (between init and finalize). */
  int (*active)(void);
  /* Abort every process; registered with distrt_set_abort_handler for
   * distrt_fatal, which uses it while active() says so. Must not return. */
  void (*abort)(int code);
  /* Library mode: 1 if the host (MPI) is initialised and not finalised. */
  int (*host_active)(void);
  /* Library mode: run `fn` when the host program finalises the host (MPI:
   * at the start of MPI_Finalize, through an MPI_COMM_SELF attribute). */
  void (*at_host_finalize)(const char *op, void (*fn)(void));
  /* Largest element count a single call accepts. */
  int64_t max_count;
  /* Largest valid point-to-point tag. */
  int64_t (*tag_ub)(void);
  /* Number of processes of this job sharing this node (>= 1). */
  int64_t (*node_size)(const char *op);

  /* Communicators. */
  int64_t (*comm_rank)(distrt_bcomm *c);
  int64_t (*comm_size)(distrt_bcomm *c);
  /* Duplicate `parent` (collective over parent). */
  distrt_bcomm *(*comm_dup)(const char *op, distrt_bcomm *parent);
  /* Communicator over parent ranks ranks[0..n), in that order (rank i of the
   * result is parent rank ranks[i]).  Collective over those n processes only;
   * `tag` distinguishes concurrent creations on the same parent. */
  distrt_bcomm *(*comm_subset)(const char *op, distrt_bcomm *parent,
                               int64_t n, const int64_t *ranks, int64_t tag);
  void (*comm_free)(const char *op, distrt_bcomm *c);
  /* The caller's communicator `handle` (MPI: the address of an MPI_Comm),
   * for grids to be laid on: the backend's own duplicate, made on the first
   * call for that communicator (collective over it) and returned again,
   * with no communication, while the caller's communicator lives.  Owned
   * by the backend until finalize (never passed to comm_free), so its
   * address identifies the caller's communicator.  The world communicator
   * itself gives the world (init's).  Fatal for NULL, a null communicator
   * or an intercommunicator. */
  distrt_bcomm *(*comm_adopt)(const char *op, const void *handle);

  /* Blocking collectives. */
  void (*allreduce)(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                    int64_t dtype, int64_t rop);
  void (*reduce)(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                 int64_t dtype, int64_t rop, int64_t root);
  void (*bcast)(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                int64_t dtype, int64_t root);
  void (*allgather)(const char *op, distrt_bcomm *c, const void *send,
                    void *recv, int64_t count, int64_t dtype);
  void (*reduce_scatter)(const char *op, distrt_bcomm *c, const void *send,
                         void *recv, int64_t count, int64_t dtype,
                         int64_t rop);
  /* Reduce-scatter with counts: send holds the sum of counts elements;
   * rank i receives counts[i] of them (packed in rank order). */
  void (*reduce_scatter_v)(const char *op, distrt_bcomm *c, const void *send,
                           void *recv, const int64_t *counts, int64_t dtype,
                           int64_t rop);
  void (*alltoall)(const char *op, distrt_bcomm *c, const void *send,
                   void *recv, int64_t count, int64_t dtype);
  /* Packed all-to-all-v: send holds scounts[0] elements for rank 0, then
   * scounts[1] for rank 1, ...; recv likewise receives rcounts[i] elements
   * from rank i, packed in rank order (displacements are prefix sums). */
  void (*alltoallv)(const char *op, distrt_bcomm *c, const void *send,
                    const int64_t *scounts, void *recv,
                    const int64_t *rcounts, int64_t dtype);
  void (*gather)(const char *op, distrt_bcomm *c, const void *send,
                 void *recv, int64_t count, int64_t dtype, int64_t root);
  void (*scatter)(const char *op, distrt_bcomm *c, const void *send,
                  void *recv, int64_t count, int64_t dtype, int64_t root);
  void (*barrier)(const char *op, distrt_bcomm *c);

  /* Point to point. recv: the message must hold exactly `count` elements. */
  void (*send)(const char *op, distrt_bcomm *c, const void *buf,
               int64_t count, int64_t dtype, int64_t dest, int64_t tag);
  void (*recv)(const char *op, distrt_bcomm *c, void *buf, int64_t count,
               int64_t dtype, int64_t src, int64_t tag);
  void (*sendrecv)(const char *op, distrt_bcomm *c, const void *send,
                   int64_t scount, int64_t dest, void *recv, int64_t rcount,
                   int64_t src, int64_t dtype, int64_t tag);
  void (*sendrecv_replace)(const char *op, distrt_bcomm *c, void *buf,
                           int64_t count, int64_t dtype, int64_t dest,
                           int64_t src, int64_t tag);

  /* Non-blocking. */
  distrt_breq *(*ibcast)(const char *op, distrt_bcomm *c, void *buf,
                         int64_t count, int64_t dtype, int64_t root);
  distrt_breq *(*iallreduce)(const char *op, distrt_bcomm *c, void *buf,
                             int64_t count, int64_t dtype, int64_t rop);
  distrt_breq *(*isendrecv)(const char *op, distrt_bcomm *c, const void *send,
                            int64_t dest, void *recv, int64_t src,
                            int64_t count, int64_t dtype, int64_t tag);
  distrt_breq *(*iallgather)(const char *op, distrt_bcomm *c,
                             const void *send, void *recv, int64_t count,
                             int64_t dtype);
  /* Send scount elements to dest and receive rcount from src; a peer of -1
   * (or a count of 0) means no message in that direction. */
  distrt_breq *(*ipermute)(const char *op, distrt_bcomm *c, const void *send,
                           int64_t scount, int64_t dest, void *recv,
                           int64_t rcount, int64_t src, int64_t dtype,
                           int64_t tag);
  /* Complete and release a request. */
  void (*wait)(const char *op, distrt_breq *r);

  /* One-sided (RMA) operations, passive target; NULL when the backend has
   * none (distrt_onesided_matmul then uses its two-sided fallback).
   * win_create: collective over c; exposes `bytes` bytes at `base` (0 and
   * NULL allowed) with displacement unit `esize` and opens a lock_all
   * epoch that lasts until win_free (collective).  win_sync: makes local
   * stores to the exposed memory and remote updates agree (call before a
   * synchronisation).  The block transfers move rows x cols elements: at
   * the origin contiguous (row-major), at the target rows of `cols`
   * elements `ld` apart from element displacement `disp`.  rget completes
   * (wait) when the data has arrived; raccumulate (MPI_SUM) when the origin
   * buffer may be reused; win_flush completes every operation of this
   * process on the window at every target. */
  distrt_bwin *(*win_create)(const char *op, distrt_bcomm *c, void *base,
                             int64_t bytes, int64_t esize);
  /* Collective over c: whether windows can be made on c at all (makes and
   * frees one empty window). 1, or 0 with the reason in why[n]; fatal if
   * the processes disagree. */
  int (*win_usable)(const char *op, distrt_bcomm *c, char *why, size_t n);
  void (*win_free)(const char *op, distrt_bwin *w);
  void (*win_sync)(const char *op, distrt_bwin *w);
  void (*win_flush)(const char *op, distrt_bwin *w);
  distrt_breq *(*rget)(const char *op, distrt_bwin *w, void *dst, int64_t rows,
                       int64_t cols, int64_t dtype, int64_t target,
                       int64_t disp, int64_t ld);
  distrt_breq *(*raccumulate)(const char *op, distrt_bwin *w, const void *src,
                              int64_t rows, int64_t cols, int64_t dtype,
                              int64_t target, int64_t disp, int64_t ld);

  /* Hierarchical machines (grid_nodes.c).  node_color: collective over c;
   * a number >= 0, equal on exactly the processes of c that share this
   * process's node (MPI: MPI_COMM_TYPE_SHARED).  comm_split: collective
   * over c; the processes passing the same color >= 0 form a communicator
   * ranked by (key, rank in c); color -1 gives NULL. */
  int64_t (*node_color)(const char *op, distrt_bcomm *c);
  distrt_bcomm *(*comm_split)(const char *op, distrt_bcomm *c, int64_t color,
                              int64_t key);
  /* Node-shared memory (sparse_share.c); NULL when the backend has none.
   * shm_alloc: collective over c, whose processes must share one node;
   * each gives `bytes` (> 0) bytes, the segments lie contiguous in rank
   * order, and *base is the first (rank 0's) in this process.  NULL (on
   * every process) when the MPI's segments are not contiguous.  Freed
   * with win_free (collective).  shm_sync: collective over c; afterwards
   * each process sees the stores every process made before it (a memory
   * barrier, a barrier over c, a memory barrier). */
  distrt_bwin *(*shm_alloc)(const char *op, distrt_bcomm *c, int64_t bytes,
                            void **base);
  void (*shm_sync)(const char *op, distrt_bcomm *c, distrt_bwin *w);

  /* Device memory and library leaves on it (the NCCL backend); NULL in the
   * MPI backend, whose "device" memory is host memory (device.c).  A backend
   * with device memory takes device or host buffers in every transfer above
   * (all buffers of one call of the same kind) and orders device work on one
   * stream.  dev_copy copies between any two of host and device memory and
   * returns when the copy is done, after the stream's earlier work.  The
   * leaves are queued on the stream (ordered after earlier transfers and
   * leaves, no host synchronisation); their arguments have been validated;
   * GEMM and GEMV are row-major as distrt_gemm_t_* and distrt_gemv_t_*, and
   * dot writes x . y to `result` in device memory. */
  void *(*dev_alloc)(const char *op, int64_t bytes);
  void (*dev_free)(const char *op, void *p);
  void (*dev_copy)(const char *op, void *dst, const void *src, int64_t bytes);
  void (*dev_sync)(const char *op);
  void (*dev_gemm)(const char *op, int64_t dtype, int64_t transa,
                   int64_t transb, int64_t m, int64_t n, int64_t k,
                   double alpha, const void *a, int64_t lda, const void *b,
                   int64_t ldb, double beta, void *c, int64_t ldc);
  void (*dev_gemv)(const char *op, int64_t dtype, int64_t transa, int64_t m,
                   int64_t n, double alpha, const void *a, int64_t lda,
                   const void *x, int64_t incx, double beta, void *y,
                   int64_t incy);
  void (*dev_dot)(const char *op, int64_t dtype, int64_t n, const void *x,
                  int64_t incx, const void *y, int64_t incy, void *result);

  /* Device tiles (device_stage.c, boxes.c, blas.c); NULL in the MPI
   * backend, whose tiles are host memory.  dev_is_device: 1 if `p` points
   * into device memory.  The rest are queued on the stream like the leaves
   * (no host synchronisation) and take device pointers:
   * dev_memset zeroes `bytes` bytes; dev_copy2d copies `height` rows of
   * `width` bytes, row r from src + r * spitch to dst + r * dpitch (the
   * rows do not overlap); dev_geam adds a row-major m x n block in place,
   * c[i * ldc + j] += a[i * lda + j] (f32 or f64). */
  int (*dev_is_device)(const void *p);
  void (*dev_memset)(const char *op, void *p, int64_t bytes);
  void (*dev_copy2d)(const char *op, void *dst, int64_t dpitch, const void *src,
                     int64_t spitch, int64_t width, int64_t height);
  void (*dev_geam)(const char *op, int64_t dtype, int64_t m, int64_t n,
                   const void *a, int64_t lda, void *c, int64_t ldc);
  /* Makes c's device communicator now if it does not exist yet: collective
   * over c.  The backend makes one lazily at a communicator's first device
   * transfer, which is collective for collectives but not for point to
   * point, where only the two partners take part; a caller whose every
   * member reaches the same point (distrt_permute) calls this first. */
  void (*dev_comm_ready)(const char *op, distrt_bcomm *c);

  /* Generated GPU kernels (gpu_kernels.c); NULL in the MPI backend.
   * dev_kernel: the kernel `name` of the embedded binary `image` (a fat
   * binary, cubin, or NUL-terminated PTX of `size` bytes), loaded into this
   * process's device at first use and kept until finalize.  dev_launch
   * queues it on the stream with grid dims[0..2], blocks dims[3..5],
   * `smem` bytes of dynamic shared memory and the kernel's parameters.
   * dev_stream: the stream (an opaque handle the launches carry). */
  void *(*dev_kernel)(const char *op, const void *image, size_t size,
                      const char *name);
  void (*dev_launch)(const char *op, void *kernel, const intptr_t dims[6],
                     int32_t smem, void **params);
  void *(*dev_stream)(void);

  /* Sparse products on device memory (sparse_device.c; cuSPARSE on the
   * NCCL backend), queued on the stream: y (rows x k, row-major) += A x
   * (x: cols x k, row-major), A the CSR matrix of rows x cols with nnz
   * entries (pos: rows + 1 entries, crd: nnz, both index_bits (32 or 64)
   * wide; val: nnz elements of dtype DISTRT_F32 or DISTRT_F64), every
   * pointer device memory; k >= 1 (1: SpMV), nnz >= 1.  NULL in the MPI
   * backend. */
  void (*dev_csrmm)(const char *op, int64_t dtype, int64_t index_bits,
                    int64_t rows, int64_t cols, int64_t nnz, const void *pos,
                    const void *crd, const void *val, int64_t k,
                    const void *x, void *y);
};

/* A backend plugin (libdistrt_nccl.so) exports its table under this name
 * and sizeof(struct distrt_backend) under DISTRT_PLUGIN_SIZE_SYMBOL, which
 * backend.c compares with its own (a plugin of another distrt version is
 * refused). */
#define DISTRT_PLUGIN_TABLE_SYMBOL "distrt_backend_nccl"
#define DISTRT_PLUGIN_SIZE_SYMBOL "distrt_backend_nccl_size"

/* Device tiles in host code (device_stage.c).  distrt_is_device_ptr: 1 if
 * p is device memory of the backend (never on the MPI backend).
 * distrt_stage_in: p itself if it is host memory, else host scratch of
 * `bytes` holding a copy of p's bytes when `load` (uninitialised when not).
 * distrt_stage_out: when `host` is scratch, copies it back to p when
 * `store`, then frees it.  The _tile_ forms size the copy as this process's
 * tile of the layout `desc`.  distrt_reject_device: fatal, naming `op` and
 * `what` and the unported `feature`, when p is device memory. */
DISTRT_HIDDEN int distrt_is_device_ptr(const void *p);
DISTRT_HIDDEN void *distrt_stage_in(const char *op, const void *p,
                                    int64_t bytes, int load);
DISTRT_HIDDEN void distrt_stage_out(const char *op, void *p, void *host,
                                    int64_t bytes, int store);
DISTRT_HIDDEN int64_t distrt_own_tile_bytes(const char *op, distrt_grid *g,
                                            const int64_t *desc, int64_t dtype);
DISTRT_HIDDEN void *distrt_stage_tile_in(const char *op, distrt_grid *g,
                                         const int64_t *desc, const void *tile,
                                         int64_t dtype, int load);
DISTRT_HIDDEN void distrt_stage_tile_out(const char *op, distrt_grid *g,
                                         const int64_t *desc, void *tile,
                                         void *host, int64_t dtype, int store);
/* A redistribution step's source and destination tiles on one grid: host
 * copies of device tiles in *hs / *hd (the tiles themselves when host);
 * _out copies the destination back and frees both. */
DISTRT_HIDDEN void distrt_stage_pair_in(const char *op, distrt_grid *g,
                                        const int64_t *sdesc, const void *stile,
                                        const int64_t *ddesc, void *dtile,
                                        int64_t dtype, void **hs, void **hd);
DISTRT_HIDDEN void distrt_stage_pair_out(const char *op, distrt_grid *g,
                                         const int64_t *sdesc,
                                         const void *stile,
                                         const int64_t *ddesc, void *dtile,
                                         int64_t dtype, void *hs, void *hd);
DISTRT_HIDDEN void distrt_reject_device(const char *op, const void *p,
                                        const char *what, const char *feature);

/* Backend tables (backend_*.c). */
extern const struct distrt_backend distrt_backend_mpi;
/* Backend named by DISTRT_BACKEND (backend.c); fatal if unknown/not built. */
const struct distrt_backend *distrt_select_backend(const char *op);

/* Grid (grid.c). */
#define DISTRT_GRID_MAGIC 0x6469737467726964ULL /* "distgrid" */
#define DISTRT_NUM_MASKS (1 << DISTRT_MAX_DIMS)

struct distrt_grid {
  uint64_t magic;
  int64_t ndims;
  int64_t dims[DISTRT_MAX_DIMS];
  int64_t node_axes; /* the leading axes that index nodes (0: flat) */
  int reordered;     /* grid ranks are not the ranks in `parent` */
  int64_t size;
  int64_t rank;
  int64_t coords[DISTRT_MAX_DIMS];
  distrt_bcomm *parent; /* laid on: the world or an adopted communicator */
  distrt_grid **slot;   /* the distrt_grid_lookup slot that made it, or NULL */
  distrt_bcomm *comm;  /* user point to point */
  distrt_bcomm *icomm; /* internal: parent of sub-communicators, gathers */
  distrt_bcomm *sub[DISTRT_NUM_MASKS]; /* cached, by axis mask */
  struct distrt_oswin *wins; /* cached one-sided windows (onesided_win.c) */
  int rma; /* windows on icomm: 0 not tried, 1 usable, -1 not (onesided.c) */
  struct distrt_grid *prev, *next;     /* list of live grids */
};

/* Tags of the runtime's own messages.  User point to point uses the grid's
 * `comm`, never these communicators, so only internal traffic shares them. */
enum {
  DISTRT_TAG_SHIFT = 1,         /* shifts, on single-axis sub-communicators */
  DISTRT_TAG_GATHER = 2,        /* distrt_gather_tensor, on the grid's icomm */
  DISTRT_TAG_PERMUTE = 3,       /* distrt_permute, on the grid's icomm */
  DISTRT_TAG_SPMAT = 4,         /* distrt_spmat exchanges, grid's icomm */
  DISTRT_TAG_SPMAT_SUM = 5,     /* distrt_spmat_reduce_rows, grid's icomm */
  DISTRT_TAG_SUBCOMM_BASE = 256 /* + axis mask: sub-communicator creation */
};

/* Profile (profile.c, DISTRT_PROFILE=1): wall time per category; regions
 * nest and charge the innermost one only.  Inside a timed computation the
 * time no region claims is local compute (the generated loops run between
 * runtime calls). */
enum {
  DISTRT_PROF_GEMM,    /* library compute leaves (distrt_gemm_*) */
  DISTRT_PROF_COMM,    /* transfers and waits for them (the backend) */
  DISTRT_PROF_PACK,    /* box copies, the exchanges' and steps' packing */
  DISTRT_PROF_BARRIER, /* barriers: waiting for the slowest process */
  DISTRT_PROF_N
};
void distrt_profile_setup(void);
int distrt_profile_enabled(void);
void distrt_profile_enter(int category);
void distrt_profile_leave(void);
/* The backend `be`, or a copy whose transfers (and communicator
 * creation) charge DISTRT_PROF_COMM and whose barrier charges
 * DISTRT_PROF_BARRIER; its transfers, rget and raccumulate also count the
 * words this rank moves (distrt_profile_words). */
const struct distrt_backend *
distrt_profile_backend(const struct distrt_backend *be);
/* Ends the current timed computation (distrt_report_time). */
void distrt_profile_kernel_end(void);
/* DISTRT_PROFILE=calls: grid rank 0 prints every rank's split of the
 * computation that just ended (collective over the grid). */
void distrt_profile_call_report(const char *op, distrt_grid *g,
                                const char *name);
/* At finalize: rank 0 prints every rank's split (collective). */
void distrt_profile_report(const char *op);

/* Hierarchical grids (grid_nodes.c): a communicator over parent's
 * processes ordered node by node (node index * per_node + rank within the
 * node), after checking that the job has exactly `nodes` nodes of
 * `per_node` processes (fatal on every process otherwise, naming `name`);
 * *reordered: 1 on every process if some grid rank differs from the rank
 * in parent.
 * Nodes come from DISTRT_RANKS_PER_NODE when set, else from the backend's
 * node_color.  Collective over parent. */
distrt_bcomm *distrt_grid_node_comm(const char *op, distrt_bcomm *parent,
                                    const char *name, int64_t nodes,
                                    int64_t per_node, int *reordered);
/* Mask of the grid's node axes (0 for a flat grid). */
int64_t distrt_grid_node_mask(const distrt_grid *g);

/* Grid layer (grid.c). */
distrt_grid *distrt_grid_check(const char *op, const distrt_grid *g);
void distrt_grid_check_axis(const char *op, const distrt_grid *g,
                            int64_t axis);
void distrt_grid_check_mask(const char *op, const distrt_grid *g,
                            int64_t axes);
/* Operations on several grids pair processes by grid rank: fatal
 * (collective) if a (named an) and b order the processes differently (one
 * was ranked node by node, distrt_grid_create_nodes, the other not). */
void distrt_grid_check_order(const char *op, const distrt_grid *a,
                             const char *an, const distrt_grid *b,
                             const char *bn);
/* Size of / this process's rank in the group spanning `axes` (no checks). */
int64_t distrt_grid_mask_size(const distrt_grid *g, int64_t axes);
int64_t distrt_grid_mask_rank(const distrt_grid *g, int64_t axes);
/* Cached communicator for `axes` (created on first use). */
distrt_bcomm *distrt_grid_sub(const char *op, distrt_grid *g, int64_t axes);
void distrt_grid_free_all(const char *op);
/* The communicator grids are laid on now (distrt_comm_push; the world when
 * none is pushed) and its size / this process's rank in it. */
distrt_bcomm *distrt_current_comm(void);
/* Forget the pushed communicators (finalize). */
void distrt_comm_reset(void);
/* Called (collectively) by distrt_grid_free / finalize for every grid about
 * to be released, before its communicators are freed: the layers above
 * release what they keep per grid (the one-sided windows).  One hook. */
void distrt_grid_set_release_hook(void (*hook)(const char *op, distrt_grid *g));

/* This process's tile of a tensor given by a layout descriptor
 * (layout_desc.c), for code outside the layout files (io.c).  Local index l
 * of dimension d is global index distrt_local_to_global(l, p[d], c[d],
 * b[d]); the tile is dense row-major over ext[].  `writer` is 1 on exactly
 * one holder of every element: the holder at coordinate 0 on every
 * replicated grid axis. */
struct distrt_tile_view {
  int64_t ndims;
  int64_t n[DISTRT_MAX_DIMS];   /* global extents */
  int64_t p[DISTRT_MAX_DIMS];   /* processes the dimension is dealt over */
  int64_t c[DISTRT_MAX_DIMS];   /* this process among them */
  int64_t b[DISTRT_MAX_DIMS];   /* block size */
  int64_t ext[DISTRT_MAX_DIMS]; /* local extents */
  int64_t size;                 /* elements of the tile (0: holds nothing) */
  int64_t elements;             /* elements of the global tensor */
  int writer;
};
void distrt_layout_view(const char *op, distrt_grid *g, const int64_t *desc,
                        struct distrt_tile_view *v);

/* Two-level collectives (comm_levels.c).  distrt_two_level: whether a
 * collective over `axes` of g runs in two stages (g has node axes and
 * `axes` spans more than one process both on node axes and on processor
 * axes); fills *lv either way when g has node axes.  `op` names the
 * collective for DISTRT_DEBUG_COLLECTIVES.  The stages run on the cached
 * sub-communicators of lv->mn and lv->mp; arguments are validated and the
 * group has more than one process. */
struct distrt_levels {
  int64_t mn, mp; /* the node axes and the processor axes of the mask */
  int64_t sn, sp; /* their group sizes */
  int64_t rn, rp; /* this process's ranks in those groups */
};
int distrt_two_level(const char *op, const distrt_grid *g, int64_t axes,
                     struct distrt_levels *lv);
void distrt_allreduce_2(const char *op, distrt_grid *g,
                        const struct distrt_levels *lv, void *buf,
                        int64_t count, int64_t dtype, int64_t rop);
void distrt_bcast_2(const char *op, distrt_grid *g,
                    const struct distrt_levels *lv, void *buf, int64_t count,
                    int64_t dtype, int64_t root);
void distrt_reduce_2(const char *op, distrt_grid *g,
                     const struct distrt_levels *lv, void *buf, int64_t count,
                     int64_t dtype, int64_t rop, int64_t root);
distrt_breq *distrt_ibcast_2(const char *op, distrt_grid *g,
                             const struct distrt_levels *lv, void *buf,
                             int64_t count, int64_t dtype, int64_t root);
distrt_breq *distrt_iallreduce_2(const char *op, distrt_grid *g,
                                 const struct distrt_levels *lv, void *buf,
                                 int64_t count, int64_t dtype, int64_t rop);

/* Request table (comm.c). */
void distrt_requests_finish_all(const char *op);
/* Fatal with `op` if `count` (named `what`) is negative or more than the
 * backend takes in one call (comm.c). */
void distrt_check_count(const char *op, const char *what, int64_t count);

/* BLAS threading policy (blas.c). */
void distrt_blas_setup(void);

/* alloc.c: frees the blocks kept for reuse / how many bytes they hold. */
void distrt_alloc_cache_flush(void);
int64_t distrt_alloc_cache_bytes(void);

#endif /* DISTRT_INTERNAL_H */
