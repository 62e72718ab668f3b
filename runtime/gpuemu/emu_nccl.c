/*===- emu_nccl.c - host emulation of the NCCL subset over MPI ---*- C -*-===*
 *
 * Test-only (emu.h).  A communicator is an MPI communicator over its
 * members.  ncclCommInitRank is called by the members only, so it cannot
 * use a world collective: the unique id carries its creator's world rank
 * and a sequence number; each member sends (its NCCL rank, its world rank)
 * to the creator, which answers every member with the table, and the
 * members then make the communicator with MPI_Comm_create_group (collective
 * over the members only).  The creator must be a member.  As NCCL, it
 * refuses two members on the same device of one host (ncclInvalidUsage).
 *
 * Operations are queued on their stream and run over MPI when the stream
 * runs (emu.h): every buffer must be device memory.  ncclSend / ncclRecv
 * between ncclGroupStart and ncclGroupEnd become one queued operation
 * (non-blocking MPI, then a wait for all), so their order within the group
 * does not matter, as with NCCL.
 *===----------------------------------------------------------------------===*/

#define _DEFAULT_SOURCE /* gethostid */
#include "emu.h"

#include <limits.h>
#include <mpi.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ncclComm {
  MPI_Comm comm;
  int rank, size;
};

/* The id: a magic word, the creator's world rank, a sequence number. */
struct emu_id {
  char magic[8];
  int creator;
  int seq;
};
static const char id_magic[8] = "GPUEMUID";
enum { TAG_BASE = 20000, TAG_SPAN = 10000 };

const char *ncclGetErrorString(ncclResult_t result) {
  switch (result) {
  case ncclSuccess:
    return "no error (gpuemu)";
  case ncclInvalidArgument:
    return "invalid argument (gpuemu)";
  case ncclInvalidUsage:
    return "invalid usage (gpuemu)";
  default:
    return "error (gpuemu)";
  }
}

static int world_rank(void) {
  int init = 0, r = 0;
  MPI_Initialized(&init);
  if (!init)
    emu_fail("NCCL call before MPI is initialised");
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId) {
  static int seq;
  if (!uniqueId)
    return ncclInvalidArgument;
  struct emu_id id;
  memcpy(id.magic, id_magic, sizeof id.magic);
  id.creator = world_rank();
  id.seq = seq++;
  memset(uniqueId, 0, sizeof *uniqueId);
  memcpy(uniqueId->internal, &id, sizeof id);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId,
                              int rank) {
  struct emu_id id;
  memcpy(&id, commId.internal, sizeof id);
  if (memcmp(id.magic, id_magic, sizeof id.magic) != 0)
    emu_fail("ncclCommInitRank: the unique id was not made by "
             "ncclGetUniqueId (not shared correctly?)");
  if (!comm || nranks < 1 || rank < 0 || rank >= nranks)
    return ncclInvalidArgument;
  int me = world_rank(), tag = TAG_BASE + id.seq % TAG_SPAN;
  /* table[0..nranks): world ranks by NCCL rank; table[nranks]: 1 if two
   * members are on the same device of the same host (NCCL refuses that:
   * "Duplicate GPU detected"). */
  int *table = (int *)emu_malloc((size_t)(nranks + 1) * sizeof *table);
  int mine[4] = {rank, me, emu_device(), (int)gethostid()};
  if (me == id.creator) {
    int *dev = (int *)emu_malloc((size_t)nranks * 2 * sizeof *dev);
    for (int i = 0; i < nranks; ++i)
      table[i] = -1;
    table[nranks] = 0;
    for (int i = 0; i < nranks; ++i) {
      int q[4];
      if (i == 0)
        memcpy(q, mine, sizeof q);
      else
        MPI_Recv(q, 4, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      if (q[0] < 0 || q[0] >= nranks || table[q[0]] != -1)
        emu_fail("ncclCommInitRank: NCCL rank %d given twice or out of range "
                 "(%d ranks)",
                 q[0], nranks);
      table[q[0]] = q[1];
      dev[2 * q[0]] = q[2];
      dev[2 * q[0] + 1] = q[3];
    }
    for (int i = 0; i < nranks; ++i)
      for (int j = 0; j < i; ++j)
        if (dev[2 * i] == dev[2 * j] && dev[2 * i + 1] == dev[2 * j + 1])
          table[nranks] = 1;
    free(dev);
    for (int i = 0; i < nranks; ++i)
      if (i != rank)
        MPI_Send(table, nranks + 1, MPI_INT, table[i], tag, MPI_COMM_WORLD);
  } else {
    MPI_Send(mine, 4, MPI_INT, id.creator, tag, MPI_COMM_WORLD);
    MPI_Recv(table, nranks + 1, MPI_INT, id.creator, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  if (table[nranks]) {
    free(table);
    fprintf(stderr, "gpuemu: ncclCommInitRank: Duplicate GPU detected (two "
                    "ranks of the communicator on one device)\n");
    return ncclInvalidUsage;
  }
  MPI_Group world, group;
  struct ncclComm *c = (struct ncclComm *)emu_malloc(sizeof *c);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, nranks, table, &group);
  if (MPI_Comm_create_group(MPI_COMM_WORLD, group, tag, &c->comm) !=
          MPI_SUCCESS ||
      c->comm == MPI_COMM_NULL)
    emu_fail("ncclCommInitRank: MPI_Comm_create_group failed");
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  free(table);
  MPI_Comm_rank(c->comm, &c->rank);
  MPI_Comm_size(c->comm, &c->size);
  if (c->rank != rank)
    emu_fail("ncclCommInitRank: rank %d came out as %d", rank, c->rank);
  *comm = c;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (!comm)
    return ncclInvalidArgument;
  MPI_Comm_free(&comm->comm);
  free(comm);
  return ncclSuccess;
}

/*===-- operations -------------------------------------------------------===*/

static MPI_Datatype mpi_type(ncclDataType_t t, size_t *es) {
  switch (t) {
  case ncclFloat64:
    *es = 8;
    return MPI_DOUBLE;
  case ncclFloat32:
    *es = 4;
    return MPI_FLOAT;
  case ncclInt32:
    *es = 4;
    return MPI_INT32_T;
  case ncclInt64:
    *es = 8;
    return MPI_INT64_T;
  default:
    emu_fail("NCCL datatype %d is not emulated", (int)t);
  }
}

static MPI_Op mpi_op(ncclRedOp_t op) {
  switch (op) {
  case ncclSum:
    return MPI_SUM;
  case ncclProd:
    return MPI_PROD;
  case ncclMin:
    return MPI_MIN;
  case ncclMax:
    return MPI_MAX;
  default:
    emu_fail("NCCL reduction %d is not emulated", (int)op);
  }
}

enum kind { K_ALLREDUCE, K_REDUCE, K_BCAST, K_ALLGATHER, K_RSCATTER, K_P2P };

struct p2p {
  int send; /* 1 send, 0 recv */
  void *buf;
  size_t count;
  ncclDataType_t type;
  int peer;
};

struct nop {
  enum kind kind;
  const void *send;
  void *recv;
  size_t count;
  ncclDataType_t type;
  ncclRedOp_t op;
  int root;
  ncclComm_t comm;
  int np; /* K_P2P: entries */
  struct p2p *ps;
};

/* A device range of `count` elements (fatal for host memory: NCCL takes
 * device buffers only). */
static void need_device(const char *fn, const char *what, const void *p,
                        size_t bytes) {
  if (bytes && !emu_is_device(p, bytes))
    emu_fail("%s: %s %p is not device memory", fn, what, p);
}

static void run_op(void *arg) {
  struct nop *o = (struct nop *)arg;
  size_t es;
  MPI_Datatype t = mpi_type(o->type, &es);
  MPI_Comm c = o->comm ? o->comm->comm : MPI_COMM_NULL;
  int n = (int)o->count, size = o->comm ? o->comm->size : 1;
  int rank = o->comm ? o->comm->rank : 0;
  switch (o->kind) {
  case K_ALLREDUCE:
    emu_open(o->recv, o->count * es);
    if (o->send == o->recv)
      MPI_Allreduce(MPI_IN_PLACE, o->recv, n, t, mpi_op(o->op), c);
    else
      MPI_Allreduce(emu_open(o->send, o->count * es), o->recv, n, t,
                    mpi_op(o->op), c);
    break;
  case K_REDUCE: {
    const void *s = emu_open(o->send, o->count * es);
    if (rank == o->root) {
      emu_open(o->recv, o->count * es);
      MPI_Reduce(s == o->recv ? MPI_IN_PLACE : s, o->recv, n, t, mpi_op(o->op),
                 o->root, c);
    } else {
      MPI_Reduce(s, NULL, n, t, mpi_op(o->op), o->root, c);
    }
    break;
  }
  case K_BCAST:
    emu_open(o->recv, o->count * es);
    if (rank == o->root && o->send != o->recv)
      memcpy(o->recv, emu_open(o->send, o->count * es), o->count * es);
    MPI_Bcast(o->recv, n, t, o->root, c);
    break;
  case K_ALLGATHER:
    MPI_Allgather(emu_open(o->send, o->count * es), n, t,
                  emu_open(o->recv, o->count * es * (size_t)size), n, t, c);
    break;
  case K_RSCATTER:
    MPI_Reduce_scatter_block(emu_open(o->send, o->count * es * (size_t)size),
                             emu_open(o->recv, o->count * es), n, t,
                             mpi_op(o->op), c);
    break;
  case K_P2P: {
    MPI_Request *r = (MPI_Request *)emu_malloc((size_t)o->np * sizeof *r);
    for (int pass = 0; pass < 2; ++pass) /* receives first */
      for (int i = 0; i < o->np; ++i) {
        struct p2p *p = &o->ps[i];
        if (p->send == (pass == 0))
          continue;
        MPI_Datatype pt = mpi_type(p->type, &es);
        void *b = emu_open(p->buf, p->count * es);
        if (p->send)
          MPI_Isend(b, (int)p->count, pt, p->peer, 0, c, &r[i]);
        else
          MPI_Irecv(b, (int)p->count, pt, p->peer, 0, c, &r[i]);
      }
    MPI_Waitall(o->np, r, MPI_STATUSES_IGNORE);
    free(r);
    free(o->ps);
    break;
  }
  }
}

static int group_depth;
static struct nop *group_op; /* the group's send/recv, K_P2P */
static cudaStream_t group_stream;

static ncclResult_t enqueue(const char *fn, struct nop *o,
                            cudaStream_t stream) {
  if (!o->comm) {
    free(o);
    return ncclInvalidArgument;
  }
  if (o->count > INT_MAX)
    emu_fail("%s: count %zu is beyond the emulation's int range", fn, o->count);
  if (group_depth > 0)
    emu_fail("%s inside ncclGroupStart/ncclGroupEnd is not emulated (only "
             "ncclSend and ncclRecv are)",
             fn);
  emu_enqueue(stream, run_op, o);
  return ncclSuccess;
}

static struct nop *new_op(enum kind k, const void *send, void *recv,
                          size_t count, ncclDataType_t type, ncclRedOp_t op,
                          int root, ncclComm_t comm) {
  struct nop *o = (struct nop *)emu_malloc(sizeof *o);
  memset(o, 0, sizeof *o);
  o->kind = k;
  o->send = send;
  o->recv = recv;
  o->count = count;
  o->type = type;
  o->op = op;
  o->root = root;
  o->comm = comm;
  return o;
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t stream) {
  size_t es;
  mpi_type(datatype, &es);
  need_device("ncclAllReduce", "sendbuff", sendbuff, count * es);
  need_device("ncclAllReduce", "recvbuff", recvbuff, count * es);
  return enqueue(
      "ncclAllReduce",
      new_op(K_ALLREDUCE, sendbuff, recvbuff, count, datatype, op, 0, comm),
      stream);
}

ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count,
                        ncclDataType_t datatype, ncclRedOp_t op, int root,
                        ncclComm_t comm, cudaStream_t stream) {
  size_t es;
  mpi_type(datatype, &es);
  need_device("ncclReduce", "sendbuff", sendbuff, count * es);
  if (comm && comm->rank == root)
    need_device("ncclReduce", "recvbuff", recvbuff, count * es);
  return enqueue(
      "ncclReduce",
      new_op(K_REDUCE, sendbuff, recvbuff, count, datatype, op, root, comm),
      stream);
}

ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  size_t es;
  mpi_type(datatype, &es);
  if (comm && comm->rank == root)
    need_device("ncclBroadcast", "sendbuff", sendbuff, count * es);
  need_device("ncclBroadcast", "recvbuff", recvbuff, count * es);
  return enqueue(
      "ncclBroadcast",
      new_op(K_BCAST, sendbuff, recvbuff, count, datatype, ncclSum, root, comm),
      stream);
}

ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff,
                           size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream) {
  size_t es;
  mpi_type(datatype, &es);
  need_device("ncclAllGather", "sendbuff", sendbuff, sendcount * es);
  if (comm)
    need_device("ncclAllGather", "recvbuff", recvbuff,
                sendcount * es * (size_t)comm->size);
  return enqueue("ncclAllGather",
                 new_op(K_ALLGATHER, sendbuff, recvbuff, sendcount, datatype,
                        ncclSum, 0, comm),
                 stream);
}

ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff,
                               size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm,
                               cudaStream_t stream) {
  size_t es;
  mpi_type(datatype, &es);
  if (comm)
    need_device("ncclReduceScatter", "sendbuff", sendbuff,
                recvcount * es * (size_t)comm->size);
  need_device("ncclReduceScatter", "recvbuff", recvbuff, recvcount * es);
  return enqueue(
      "ncclReduceScatter",
      new_op(K_RSCATTER, sendbuff, recvbuff, recvcount, datatype, op, 0, comm),
      stream);
}

ncclResult_t ncclGroupStart(void) {
  ++group_depth;
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  if (group_depth == 0)
    return ncclInvalidUsage;
  if (--group_depth > 0 || !group_op)
    return ncclSuccess;
  struct nop *o = group_op;
  group_op = NULL;
  emu_enqueue(group_stream, run_op, o);
  return ncclSuccess;
}

static ncclResult_t p2p(const char *fn, int send, void *buf, size_t count,
                        ncclDataType_t type, int peer, ncclComm_t comm,
                        cudaStream_t stream) {
  size_t es;
  mpi_type(type, &es);
  if (!comm || peer < 0 || peer >= comm->size)
    return ncclInvalidArgument;
  need_device(fn, send ? "sendbuff" : "recvbuff", buf, count * es);
  if (count > INT_MAX)
    emu_fail("%s: count %zu is beyond the emulation's int range", fn, count);
  struct nop *o = group_op;
  if (!o || group_depth == 0) {
    o = new_op(K_P2P, NULL, NULL, 0, type, ncclSum, 0, comm);
    if (group_depth > 0) {
      group_op = o;
      group_stream = stream;
    }
  } else if (o->comm != comm ||
             emu_stream(group_stream) != emu_stream(stream)) {
    emu_fail("%s: a group of send/recv on several communicators or streams "
             "is not emulated",
             fn);
  }
  o->ps = (struct p2p *)realloc(o->ps, (size_t)(o->np + 1) * sizeof *o->ps);
  if (!o->ps)
    emu_fail("out of memory");
  o->ps[o->np++] = (struct p2p){send, buf, count, type, peer};
  if (group_depth == 0)
    emu_enqueue(stream, run_op, o);
  return ncclSuccess;
}

ncclResult_t ncclSend(const void *sendbuff, size_t count,
                      ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  return p2p("ncclSend", 1, (void *)(uintptr_t)sendbuff, count, datatype, peer,
             comm, stream);
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype,
                      int peer, ncclComm_t comm, cudaStream_t stream) {
  return p2p("ncclRecv", 0, recvbuff, count, datatype, peer, comm, stream);
}
