/*===- backend_nccl.c - the NCCL backend plugin ------------------*- C -*-===*
 *
 * `struct distrt_backend` for DISTRT_BACKEND=nccl, loaded by backend.c from
 * libdistrt_nccl.so.  MPI (the MPI backend's table) bootstraps the job and
 * carries every transfer of host buffers (the runtime's own traffic: plans,
 * checks, gathers).  Transfers of device buffers (cudaMalloc'd:
 * distrt_device_alloc) go through NCCL on the one stream of this process
 * (backend_nccl_dev.c):
 *   - every communicator gets its NCCL communicator on its first device
 *     transfer (collective over its members, as that transfer is), made
 *     once and kept until the communicator is freed: rank 0 makes the unique
 *     id and broadcasts it over the communicator's MPI communicator;
 *   - blocking transfers wait for the stream before returning;
 *   - non-blocking ones (ibcast, iallreduce, isendrecv, iallgather,
 *     ipermute) are queued on the stream and their request is a CUDA event
 *     recorded after them (wait = cudaEventSynchronize), so later device
 *     leaves are ordered after them without a host synchronisation;
 *   - what NCCL has no collective for (all-to-all, gather, scatter, the -v
 *     forms, point to point) is grouped ncclSend / ncclRecv.  NCCL has no
 *     tags: device messages between two processes match in the order sent,
 *     and a receive cannot check the sent count.
 * A transfer of host buffers first waits for the stream, so it is ordered
 * after the device work queued before it.  One-sided windows are left NULL
 * (distrt_onesided_matmul takes its two-sided path).
 *===----------------------------------------------------------------------===*/

#include "backend_nccl.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MPI_BE distrt_backend_mpi

static struct distrt_bcomm world;
static struct distrt_bcomm *adopted; /* wrappers of adopted communicators */

struct distrt_breq {
  distrt_breq *mpi; /* host transfer: the MPI backend's request */
  cudaEvent_t ev;   /* device transfer: recorded after it */
  void *tmp;        /* device scratch freed by wait */
  /* A device transfer staged through host memory (staged_pair): the host
   * copies of what is sent and received, and where the received elements
   * go on the device (rbytes of them) when the MPI request completes. */
  void *hsend, *hrecv, *drecv;
  int64_t rbytes;
};

/*===-- helpers ----------------------------------------------------------===*/

static ncclDataType_t nccl_type(int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
    return ncclFloat32;
  case DISTRT_F64:
    return ncclFloat64;
  case DISTRT_I32:
    return ncclInt32;
  default:
    return ncclInt64;
  }
}

static ncclRedOp_t nccl_op(int64_t rop) {
  switch (rop) {
  case DISTRT_SUM:
    return ncclSum;
  case DISTRT_PROD:
    return ncclProd;
  case DISTRT_MIN:
    return ncclMin;
  default:
    return ncclMax;
  }
}

/* Whether a transfer is of device memory: every non-NULL buffer of the call
 * must be of the same kind.  A host transfer first waits for the stream. */
static int on_device(const char *op, const void *a, const char *wa,
                     const void *b, const char *wb) {
  int da = nccl_is_device(a), db = nccl_is_device(b);
  if (a && b && da != db)
    distrt_fatal(op,
                 "%s is %s memory but %s is %s memory; pass all buffers of "
                 "a transfer in device memory (distrt_device_alloc) or all "
                 "in host memory",
                 wa, da ? "device" : "host", wb, db ? "device" : "host");
  if (da || db)
    return 1;
  nccl_dev_sync(op);
  return 0;
}

/* The NCCL communicator of c, made on first use (collective over c). */
static ncclComm_t dcomm(const char *op, distrt_bcomm *c) {
  if (c->nccl)
    return c->nccl;
  ncclUniqueId id;
  memset(&id, 0, sizeof id);
  if (c->rank == 0)
    NCCHK(op, "ncclGetUniqueId", ncclGetUniqueId(&id));
  MPI_BE.bcast(op, c->mpi, &id, (int64_t)(sizeof id / 4), DISTRT_I32, 0);
  ncclResult_t rc = ncclCommInitRank(&c->nccl, (int)c->size, id, (int)c->rank);
  if (rc != ncclSuccess && nccl_dev.local_size > nccl_dev.count)
    distrt_fatal(op,
                 "ncclCommInitRank failed (NCCL error %d): %s; %d processes "
                 "on this node share %d GPU%s, and NCCL refuses two ranks of "
                 "one communicator on the same GPU: run at most one process "
                 "per GPU",
                 (int)rc, ncclGetErrorString(rc), nccl_dev.local_size,
                 nccl_dev.count, nccl_dev.count == 1 ? "" : "s");
  if (rc != ncclSuccess)
    nccl_fail_nccl(op, "ncclCommInitRank", rc);
  ++distrt_g.live[DISTRT_COUNT_DEVICE_COMMS];
  return c->nccl;
}

static void nccl_dev_comm_ready(const char *op, distrt_bcomm *c) {
  (void)dcomm(op, c);
}

static char *at(const void *p, int64_t elems, int64_t es) {
  return (char *)(uintptr_t)p + elems * es;
}

static int64_t esize(const char *op, int64_t dtype) {
  return distrt_dtype_size(op, dtype);
}

/*===-- lifetime and communicators ---------------------------------------===*/

static distrt_bcomm *wrap(const char *op, distrt_bcomm *m) {
  distrt_bcomm *c = (distrt_bcomm *)calloc(1, sizeof *c);
  if (!c)
    distrt_fatal(op, "out of memory allocating a communicator handle");
  c->mpi = m;
  c->rank = MPI_BE.comm_rank(m);
  c->size = MPI_BE.comm_size(m);
  return c;
}

static void drop_nccl(const char *op, distrt_bcomm *c) {
  if (!c->nccl)
    return;
  nccl_dev_sync(op);
  NCCHK(op, "ncclCommDestroy", ncclCommDestroy(c->nccl));
  c->nccl = NULL;
  --distrt_g.live[DISTRT_COUNT_DEVICE_COMMS];
}

static distrt_bcomm *nccl_init(const char *op) {
  world.mpi = MPI_BE.init(op);
  world.rank = MPI_BE.comm_rank(world.mpi);
  world.size = MPI_BE.comm_size(world.mpi);
  world.nccl = NULL;
  nccl_dev_init(op);
  return &world;
}

static void nccl_finalize(const char *op) {
  if (!MPI_BE.active())
    return;
  while (adopted) {
    distrt_bcomm *c = adopted;
    adopted = c->next;
    drop_nccl(op, c);
    free(c);
  }
  drop_nccl(op, &world);
  nccl_dev_finalize(op);
  MPI_BE.finalize(op);
}

static int nccl_active(void) { return MPI_BE.active(); }
static void nccl_abort(int code) { MPI_BE.abort(code); }
static int nccl_host_active(void) { return MPI_BE.host_active(); }
static void nccl_at_host_finalize(const char *op, void (*fn)(void)) {
  MPI_BE.at_host_finalize(op, fn);
}
static int64_t nccl_tag_ub(void) { return MPI_BE.tag_ub(); }
/* The MPI backend's node_size works on distrt_g.world, which is this
 * backend's communicator: use the node size the device choice found. */
static int64_t nccl_node_size(const char *op) {
  (void)op;
  return nccl_dev.local_size > 0 ? nccl_dev.local_size : 1;
}
static int64_t nccl_comm_rank(distrt_bcomm *c) { return c->rank; }
static int64_t nccl_comm_size(distrt_bcomm *c) { return c->size; }

static distrt_bcomm *nccl_comm_dup(const char *op, distrt_bcomm *parent) {
  return wrap(op, MPI_BE.comm_dup(op, parent->mpi));
}

static distrt_bcomm *nccl_comm_subset(const char *op, distrt_bcomm *parent,
                                      int64_t n, const int64_t *ranks,
                                      int64_t tag) {
  return wrap(op, MPI_BE.comm_subset(op, parent->mpi, n, ranks, tag));
}

static void nccl_comm_free(const char *op, distrt_bcomm *c) {
  if (!c || c == &world)
    return;
  for (distrt_bcomm *a = adopted; a; a = a->next)
    if (a == c)
      return; /* kept until finalize */
  drop_nccl(op, c);
  MPI_BE.comm_free(op, c->mpi);
  free(c);
}

/* Hierarchical grids: the MPI backend's nodes and splits, wrapped. */
static int64_t nccl_node_color(const char *op, distrt_bcomm *c) {
  return MPI_BE.node_color(op, c->mpi);
}

static distrt_bcomm *nccl_comm_split(const char *op, distrt_bcomm *c,
                                     int64_t color, int64_t key) {
  distrt_bcomm *m = MPI_BE.comm_split(op, c->mpi, color, key);
  return m ? wrap(op, m) : NULL;
}

static distrt_bcomm *nccl_comm_adopt(const char *op, const void *handle) {
  distrt_bcomm *m = MPI_BE.comm_adopt(op, handle);
  if (m == world.mpi)
    return &world;
  for (distrt_bcomm *a = adopted; a; a = a->next)
    if (a->mpi == m)
      return a;
  distrt_bcomm *c = wrap(op, m);
  c->next = adopted;
  adopted = c;
  return c;
}

/*===-- blocking collectives ---------------------------------------------===*/

static void nccl_allreduce(const char *op, distrt_bcomm *c, void *buf,
                           int64_t count, int64_t dtype, int64_t rop) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.allreduce(op, c->mpi, buf, count, dtype, rop);
    return;
  }
  NCCHK(op, "ncclAllReduce",
        ncclAllReduce(buf, buf, (size_t)count, nccl_type(dtype), nccl_op(rop),
                      dcomm(op, c), nccl_dev.stream));
  nccl_dev_sync(op);
}

static void nccl_reduce(const char *op, distrt_bcomm *c, void *buf,
                        int64_t count, int64_t dtype, int64_t rop,
                        int64_t root) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.reduce(op, c->mpi, buf, count, dtype, rop, root);
    return;
  }
  NCCHK(op, "ncclReduce",
        ncclReduce(buf, buf, (size_t)count, nccl_type(dtype), nccl_op(rop),
                   (int)root, dcomm(op, c), nccl_dev.stream));
  nccl_dev_sync(op);
}

static void nccl_bcast(const char *op, distrt_bcomm *c, void *buf,
                       int64_t count, int64_t dtype, int64_t root) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.bcast(op, c->mpi, buf, count, dtype, root);
    return;
  }
  NCCHK(op, "ncclBroadcast",
        ncclBroadcast(buf, buf, (size_t)count, nccl_type(dtype), (int)root,
                      dcomm(op, c), nccl_dev.stream));
  nccl_dev_sync(op);
}

static void nccl_allgather(const char *op, distrt_bcomm *c, const void *send,
                           void *recv, int64_t count, int64_t dtype) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.allgather(op, c->mpi, send, recv, count, dtype);
    return;
  }
  NCCHK(op, "ncclAllGather",
        ncclAllGather(send, recv, (size_t)count, nccl_type(dtype), dcomm(op, c),
                      nccl_dev.stream));
  nccl_dev_sync(op);
}

static void nccl_reduce_scatter(const char *op, distrt_bcomm *c,
                                const void *send, void *recv, int64_t count,
                                int64_t dtype, int64_t rop) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.reduce_scatter(op, c->mpi, send, recv, count, dtype, rop);
    return;
  }
  NCCHK(op, "ncclReduceScatter",
        ncclReduceScatter(send, recv, (size_t)count, nccl_type(dtype),
                          nccl_op(rop), dcomm(op, c), nccl_dev.stream));
  nccl_dev_sync(op);
}

/* NCCL has no reduce-scatter with counts: reduce everything into scratch
 * (ncclAllReduce) and keep this rank's part. */
static void nccl_reduce_scatter_v(const char *op, distrt_bcomm *c,
                                  const void *send, void *recv,
                                  const int64_t *counts, int64_t dtype,
                                  int64_t rop) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.reduce_scatter_v(op, c->mpi, send, recv, counts, dtype, rop);
    return;
  }
  int64_t es = esize(op, dtype), total = 0, off = 0;
  for (int64_t i = 0; i < c->size; ++i) {
    if (i == c->rank)
      off = total;
    total += counts[i];
  }
  void *tmp = nccl_dev_alloc(op, total * es);
  NCCHK(op, "ncclAllReduce",
        ncclAllReduce(send, tmp, (size_t)total, nccl_type(dtype), nccl_op(rop),
                      dcomm(op, c), nccl_dev.stream));
  if (counts[c->rank] > 0)
    CUCHK(op, "cudaMemcpyAsync",
          cudaMemcpyAsync(recv, at(tmp, off, es),
                          (size_t)(counts[c->rank] * es),
                          cudaMemcpyDeviceToDevice, nccl_dev.stream));
  nccl_dev_sync(op);
  nccl_dev_free(op, tmp);
}

/* Grouped send / receive: one entry per peer, skipped when its count is 0
 * (counts NULL: `count` for every peer). */
static void grouped(const char *op, distrt_bcomm *c, const void *send,
                    const int64_t *scounts, void *recv, const int64_t *rcounts,
                    int64_t count, int64_t dtype) {
  ncclComm_t nc = dcomm(op, c);
  ncclDataType_t t = nccl_type(dtype);
  int64_t es = esize(op, dtype), so = 0, ro = 0;
  NCCHK(op, "ncclGroupStart", ncclGroupStart());
  for (int64_t i = 0; i < c->size; ++i) {
    int64_t sc = scounts ? scounts[i] : count,
            rc = rcounts ? rcounts[i] : count;
    if (send && sc > 0)
      NCCHK(op, "ncclSend",
            ncclSend(at(send, so, es), (size_t)sc, t, (int)i, nc,
                     nccl_dev.stream));
    if (recv && rc > 0)
      NCCHK(op, "ncclRecv",
            ncclRecv(at(recv, ro, es), (size_t)rc, t, (int)i, nc,
                     nccl_dev.stream));
    so += sc;
    ro += rc;
  }
  NCCHK(op, "ncclGroupEnd", ncclGroupEnd());
  nccl_dev_sync(op);
}

static void nccl_alltoall(const char *op, distrt_bcomm *c, const void *send,
                          void *recv, int64_t count, int64_t dtype) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.alltoall(op, c->mpi, send, recv, count, dtype);
    return;
  }
  grouped(op, c, send, NULL, recv, NULL, count, dtype);
}

static void nccl_alltoallv(const char *op, distrt_bcomm *c, const void *send,
                           const int64_t *scounts, void *recv,
                           const int64_t *rcounts, int64_t dtype) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.alltoallv(op, c->mpi, send, scounts, recv, rcounts, dtype);
    return;
  }
  grouped(op, c, send, scounts, recv, rcounts, 0, dtype);
}

/* Gather / scatter: the root receives from / sends to every member
 * (itself included) in one group. */
static void root_group(const char *op, distrt_bcomm *c, const void *send,
                       void *recv, int64_t count, int64_t dtype, int64_t root,
                       int gather) {
  ncclComm_t nc = dcomm(op, c);
  ncclDataType_t t = nccl_type(dtype);
  int64_t es = esize(op, dtype);
  NCCHK(op, "ncclGroupStart", ncclGroupStart());
  if (c->rank == root)
    for (int64_t i = 0; i < c->size; ++i) {
      if (gather)
        NCCHK(op, "ncclRecv",
              ncclRecv(at(recv, i * count, es), (size_t)count, t, (int)i, nc,
                       nccl_dev.stream));
      else
        NCCHK(op, "ncclSend",
              ncclSend(at(send, i * count, es), (size_t)count, t, (int)i, nc,
                       nccl_dev.stream));
    }
  if (gather)
    NCCHK(op, "ncclSend",
          ncclSend(send, (size_t)count, t, (int)root, nc, nccl_dev.stream));
  else
    NCCHK(op, "ncclRecv",
          ncclRecv(recv, (size_t)count, t, (int)root, nc, nccl_dev.stream));
  NCCHK(op, "ncclGroupEnd", ncclGroupEnd());
  nccl_dev_sync(op);
}

static void nccl_gather(const char *op, distrt_bcomm *c, const void *send,
                        void *recv, int64_t count, int64_t dtype,
                        int64_t root) {
  void *r = c->rank == root ? recv : NULL;
  if (!on_device(op, send, "send", r, "recv")) {
    MPI_BE.gather(op, c->mpi, send, recv, count, dtype, root);
    return;
  }
  if (count > 0)
    root_group(op, c, send, recv, count, dtype, root, 1);
}

static void nccl_scatter(const char *op, distrt_bcomm *c, const void *send,
                         void *recv, int64_t count, int64_t dtype,
                         int64_t root) {
  const void *s = c->rank == root ? send : NULL;
  if (!on_device(op, s, "send", recv, "recv")) {
    MPI_BE.scatter(op, c->mpi, send, recv, count, dtype, root);
    return;
  }
  if (count > 0)
    root_group(op, c, send, recv, count, dtype, root, 0);
}

static void nccl_barrier(const char *op, distrt_bcomm *c) {
  nccl_dev_sync(op);
  MPI_BE.barrier(op, c->mpi);
}

/*===-- point to point ---------------------------------------------------===*/

static distrt_breq *host_req(const char *op, distrt_breq *m);
static distrt_breq *dev_req(const char *op, void *tmp);

static void *host_buf(const char *op, int64_t bytes) {
  void *p = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!p)
    distrt_fatal(op, "out of memory staging %lld bytes of a device transfer",
                 (long long)bytes);
  return p;
}

/* One send and one receive of device memory on a communicator that has no
 * NCCL communicator yet, staged through host memory over MPI.  The NCCL
 * communicator is made by all members together (dcomm), so a transfer
 * between two of them cannot make it; and since it is made collectively,
 * whether it exists is the same on every member, so both ends of a
 * message take the same path.  The received elements reach the device
 * when the request is waited for. */
static distrt_breq *staged_pair(const char *op, distrt_bcomm *c,
                                const void *send, int64_t scount, int64_t dest,
                                void *recv, int64_t rcount, int64_t src,
                                int64_t dtype, int64_t tag) {
  int64_t es = esize(op, dtype);
  int sends = dest >= 0 && scount > 0, recvs = src >= 0 && rcount > 0;
  distrt_breq *r = host_req(op, NULL);
  if (sends) {
    r->hsend = host_buf(op, scount * es);
    CUCHK(op, "cudaMemcpyAsync",
          cudaMemcpyAsync(r->hsend, send, (size_t)(scount * es),
                          cudaMemcpyDeviceToHost, nccl_dev.stream));
  }
  nccl_dev_sync(op);
  if (recvs) {
    r->hrecv = host_buf(op, rcount * es);
    r->drecv = recv;
    r->rbytes = rcount * es;
  }
  r->mpi = MPI_BE.ipermute(op, c->mpi, r->hsend, sends ? scount : 0,
                           sends ? dest : -1, r->hrecv, recvs ? rcount : 0,
                           recvs ? src : -1, dtype, tag);
  return r;
}

/* At most one send and one receive of device memory: a group of NCCL
 * point-to-point calls when the communicator has its NCCL communicator,
 * otherwise staged through the host (staged_pair). */
static distrt_breq *pair(const char *op, distrt_bcomm *c, const void *send,
                         int64_t scount, int64_t dest, void *recv,
                         int64_t rcount, int64_t src, int64_t dtype,
                         int64_t tag) {
  if (!c->nccl)
    return staged_pair(op, c, send, scount, dest, recv, rcount, src, dtype,
                       tag);
  ncclComm_t nc = c->nccl;
  ncclDataType_t t = nccl_type(dtype);
  NCCHK(op, "ncclGroupStart", ncclGroupStart());
  if (dest >= 0 && scount > 0)
    NCCHK(op, "ncclSend",
          ncclSend(send, (size_t)scount, t, (int)dest, nc, nccl_dev.stream));
  if (src >= 0 && rcount > 0)
    NCCHK(op, "ncclRecv",
          ncclRecv(recv, (size_t)rcount, t, (int)src, nc, nccl_dev.stream));
  NCCHK(op, "ncclGroupEnd", ncclGroupEnd());
  return dev_req(op, NULL);
}

static void nccl_wait(const char *op, distrt_breq *r);

static void nccl_send(const char *op, distrt_bcomm *c, const void *buf,
                      int64_t count, int64_t dtype, int64_t dest, int64_t tag) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.send(op, c->mpi, buf, count, dtype, dest, tag);
    return;
  }
  nccl_wait(op, pair(op, c, buf, count, dest, NULL, 0, -1, dtype, tag));
}

static void nccl_recv(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                      int64_t dtype, int64_t src, int64_t tag) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.recv(op, c->mpi, buf, count, dtype, src, tag);
    return;
  }
  nccl_wait(op, pair(op, c, NULL, 0, -1, buf, count, src, dtype, tag));
}

static void nccl_sendrecv(const char *op, distrt_bcomm *c, const void *send,
                          int64_t scount, int64_t dest, void *recv,
                          int64_t rcount, int64_t src, int64_t dtype,
                          int64_t tag) {
  if (!on_device(op, send, "send", recv, "recv")) {
    MPI_BE.sendrecv(op, c->mpi, send, scount, dest, recv, rcount, src, dtype,
                    tag);
    return;
  }
  nccl_wait(op, pair(op, c, send, scount, dest, recv, rcount, src, dtype,
                     tag));
}

static void nccl_sendrecv_replace(const char *op, distrt_bcomm *c, void *buf,
                                  int64_t count, int64_t dtype, int64_t dest,
                                  int64_t src, int64_t tag) {
  if (!on_device(op, buf, "buf", NULL, NULL)) {
    MPI_BE.sendrecv_replace(op, c->mpi, buf, count, dtype, dest, src, tag);
    return;
  }
  int64_t bytes = count * esize(op, dtype);
  void *tmp = nccl_dev_alloc(op, bytes);
  nccl_wait(op, pair(op, c, buf, count, dest, tmp, count, src, dtype, tag));
  if (bytes > 0)
    CUCHK(op, "cudaMemcpyAsync",
          cudaMemcpyAsync(buf, tmp, (size_t)bytes, cudaMemcpyDeviceToDevice,
                          nccl_dev.stream));
  nccl_dev_sync(op);
  nccl_dev_free(op, tmp);
}

/*===-- non-blocking -----------------------------------------------------===*/

static distrt_breq *host_req(const char *op, distrt_breq *m) {
  distrt_breq *r = (distrt_breq *)calloc(1, sizeof *r);
  if (!r)
    distrt_fatal(op, "out of memory allocating a request");
  r->mpi = m;
  return r;
}

/* A request for the device work queued so far: an event after it. */
static distrt_breq *dev_req(const char *op, void *tmp) {
  distrt_breq *r = host_req(op, NULL);
  CUCHK(op, "cudaEventCreateWithFlags",
        cudaEventCreateWithFlags(&r->ev, cudaEventDisableTiming));
  CUCHK(op, "cudaEventRecord", cudaEventRecord(r->ev, nccl_dev.stream));
  r->tmp = tmp;
  return r;
}

static distrt_breq *nccl_ibcast(const char *op, distrt_bcomm *c, void *buf,
                                int64_t count, int64_t dtype, int64_t root) {
  if (!on_device(op, buf, "buf", NULL, NULL))
    return host_req(op, MPI_BE.ibcast(op, c->mpi, buf, count, dtype, root));
  NCCHK(op, "ncclBroadcast",
        ncclBroadcast(buf, buf, (size_t)count, nccl_type(dtype), (int)root,
                      dcomm(op, c), nccl_dev.stream));
  return dev_req(op, NULL);
}

static distrt_breq *nccl_iallreduce(const char *op, distrt_bcomm *c, void *buf,
                                    int64_t count, int64_t dtype, int64_t rop) {
  if (!on_device(op, buf, "buf", NULL, NULL))
    return host_req(op, MPI_BE.iallreduce(op, c->mpi, buf, count, dtype, rop));
  NCCHK(op, "ncclAllReduce",
        ncclAllReduce(buf, buf, (size_t)count, nccl_type(dtype), nccl_op(rop),
                      dcomm(op, c), nccl_dev.stream));
  return dev_req(op, NULL);
}

static distrt_breq *nccl_isendrecv(const char *op, distrt_bcomm *c,
                                   const void *send, int64_t dest, void *recv,
                                   int64_t src, int64_t count, int64_t dtype,
                                   int64_t tag) {
  if (!on_device(op, send, "send", recv, "recv"))
    return host_req(op, MPI_BE.isendrecv(op, c->mpi, send, dest, recv, src,
                                         count, dtype, tag));
  return pair(op, c, send, count, dest, recv, count, src, dtype, tag);
}

static distrt_breq *nccl_iallgather(const char *op, distrt_bcomm *c,
                                    const void *send, void *recv, int64_t count,
                                    int64_t dtype) {
  if (!on_device(op, send, "send", recv, "recv"))
    return host_req(op,
                    MPI_BE.iallgather(op, c->mpi, send, recv, count, dtype));
  NCCHK(op, "ncclAllGather",
        ncclAllGather(send, recv, (size_t)count, nccl_type(dtype), dcomm(op, c),
                      nccl_dev.stream));
  return dev_req(op, NULL);
}

static distrt_breq *nccl_ipermute(const char *op, distrt_bcomm *c,
                                  const void *send, int64_t scount,
                                  int64_t dest, void *recv, int64_t rcount,
                                  int64_t src, int64_t dtype, int64_t tag) {
  const void *s = dest >= 0 && scount > 0 ? send : NULL;
  void *r = src >= 0 && rcount > 0 ? recv : NULL;
  if ((s || r) && on_device(op, s, "send", r, "recv")) {
    return pair(op, c, s, scount, dest, r, rcount, src, dtype, tag);
  }
  if (!s && !r)
    nccl_dev_sync(op);
  return host_req(op, MPI_BE.ipermute(op, c->mpi, send, scount, dest, recv,
                                      rcount, src, dtype, tag));
}

static void nccl_wait(const char *op, distrt_breq *r) {
  if (r->mpi) {
    MPI_BE.wait(op, r->mpi);
    if (r->drecv) {
      CUCHK(op, "cudaMemcpyAsync",
            cudaMemcpyAsync(r->drecv, r->hrecv, (size_t)r->rbytes,
                            cudaMemcpyHostToDevice, nccl_dev.stream));
      nccl_dev_sync(op);
    }
    free(r->hsend);
    free(r->hrecv);
  } else {
    CUCHK(op, "cudaEventSynchronize", cudaEventSynchronize(r->ev));
    CUCHK(op, "cudaEventDestroy", cudaEventDestroy(r->ev));
    nccl_dev_free(op, r->tmp);
  }
  free(r);
}

/*===-- the table --------------------------------------------------------===*/

static void *dev_alloc(const char *op, int64_t bytes) {
  return nccl_dev_alloc(op, bytes);
}

static void dev_free(const char *op, void *p) {
  if (!p)
    return;
  if (!nccl_is_device(p))
    distrt_fatal(op,
                 "%p is not device memory (distrt_device_free takes "
                 "what distrt_device_alloc returned)",
                 p);
  nccl_dev_free(op, p);
}

const size_t distrt_backend_nccl_size = sizeof(struct distrt_backend);

const struct distrt_backend distrt_backend_nccl = {
    .name = "nccl",
    .init = nccl_init,
    .finalize = nccl_finalize,
    .active = nccl_active,
    .abort = nccl_abort,
    .host_active = nccl_host_active,
    .at_host_finalize = nccl_at_host_finalize,
    .max_count = INT_MAX,
    .tag_ub = nccl_tag_ub,
    .node_size = nccl_node_size,
    .comm_rank = nccl_comm_rank,
    .comm_size = nccl_comm_size,
    .comm_dup = nccl_comm_dup,
    .comm_subset = nccl_comm_subset,
    .comm_free = nccl_comm_free,
    .comm_adopt = nccl_comm_adopt,
    .allreduce = nccl_allreduce,
    .reduce = nccl_reduce,
    .bcast = nccl_bcast,
    .allgather = nccl_allgather,
    .reduce_scatter = nccl_reduce_scatter,
    .reduce_scatter_v = nccl_reduce_scatter_v,
    .alltoall = nccl_alltoall,
    .alltoallv = nccl_alltoallv,
    .gather = nccl_gather,
    .scatter = nccl_scatter,
    .barrier = nccl_barrier,
    .send = nccl_send,
    .recv = nccl_recv,
    .sendrecv = nccl_sendrecv,
    .sendrecv_replace = nccl_sendrecv_replace,
    .ibcast = nccl_ibcast,
    .iallreduce = nccl_iallreduce,
    .isendrecv = nccl_isendrecv,
    .iallgather = nccl_iallgather,
    .ipermute = nccl_ipermute,
    .wait = nccl_wait,
    /* no one-sided windows: distrt_onesided_matmul's two-sided path */
    .node_color = nccl_node_color,
    .comm_split = nccl_comm_split,
    .dev_alloc = dev_alloc,
    .dev_free = dev_free,
    .dev_copy = nccl_dev_copy,
    .dev_sync = nccl_dev_sync,
    .dev_gemm = nccl_dev_gemm,
    .dev_gemv = nccl_dev_gemv,
    .dev_dot = nccl_dev_dot,
    .dev_kernel = nccl_dev_kernel,
    .dev_launch = nccl_dev_launch,
    .dev_stream = nccl_dev_stream,
    .dev_csrmm = nccl_dev_csrmm,
    .dev_is_device = nccl_is_device,
    .dev_memset = nccl_dev_memset,
    .dev_copy2d = nccl_dev_copy2d,
    .dev_geam = nccl_dev_geam,
    .dev_comm_ready = nccl_dev_comm_ready,
};
