/*===- backend_mpi.c - MPI implementation of the distrt backend -*- C -*-===*
 *
 * Every MPI call is checked; every communicator created here (and
 * MPI_COMM_WORLD and MPI_COMM_SELF when distrt started MPI) uses
 * MPI_ERRORS_RETURN so failures come back as error codes and are reported
 * through distrt_fatal with the public function name and MPI's error
 * string.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "backend_mpi.h"
#include "internal.h"
#include "watchdog.h"
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

struct distrt_breq {
  MPI_Request req[2];
  int n;
};

static struct distrt_bcomm mpi_world;
static int mpi_we_initialized; /* distrt called MPI_Init_thread */
static int mpi_up;             /* between init and finalize */
static int mpi_world_dup;      /* mpi_world is our duplicate of the world */

void distrt_mpi_fail(const char *op, const char *call, int rc) {
  char msg[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
    len = 0;
  msg[len] = '\0';
  distrt_fatal(op, "%s failed (error %d): %s", call, rc,
               len ? msg : "unknown MPI error");
}

/* The MPI communicator of `c`.  For the world of a program that started MPI
 * itself this makes distrt's duplicate on first use (collective over the
 * world, like every operation that uses the world). */
static MPI_Comm world_comm(const char *op) {
  if (mpi_world.comm == MPI_COMM_NULL) {
    MPICHK(op, "MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &mpi_world.comm));
    mpi_world_dup = 1;
    MPICHK(op, "MPI_Comm_set_errhandler",
           MPI_Comm_set_errhandler(mpi_world.comm, MPI_ERRORS_RETURN));
  }
  return mpi_world.comm;
}
#define MCOMM(op, c) ((c) == &mpi_world ? world_comm(op) : (c)->comm)

MPI_Comm distrt_mpi_comm(const char *op, distrt_bcomm *c) {
  return MCOMM(op, c);
}

static MPI_Datatype mpi_type(int64_t dtype) {
  switch (dtype) {
  case DISTRT_F32:
    return MPI_FLOAT;
  case DISTRT_F64:
    return MPI_DOUBLE;
  case DISTRT_I32:
    return MPI_INT32_T;
  default:
    return MPI_INT64_T;
  }
}

static MPI_Op mpi_op(int64_t rop) {
  switch (rop) {
  case DISTRT_SUM:
    return MPI_SUM;
  case DISTRT_PROD:
    return MPI_PROD;
  case DISTRT_MIN:
    return MPI_MIN;
  default:
    return MPI_MAX;
  }
}

distrt_bcomm *distrt_mpi_wrap(const char *op, MPI_Comm c) {
  distrt_bcomm *b = (distrt_bcomm *)malloc(sizeof *b);
  if (!b)
    distrt_fatal(op, "out of memory allocating a communicator handle");
  b->comm = c;
  ++distrt_g.live[DISTRT_COUNT_COMMS];
  MPICHK(op, "MPI_Comm_set_errhandler",
         MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
  MPICHK(op, "MPI_Comm_rank", MPI_Comm_rank(c, &b->rank));
  MPICHK(op, "MPI_Comm_size", MPI_Comm_size(c, &b->size));
  return b;
}

/*===-- the caller's communicators (distrt_comm_push) --------------------===*/

/* A communicator the caller handed over: distrt's duplicate of it, cached
 * as an attribute of the caller's communicator so that passing the same
 * communicator again finds it, and a communicator created later (even
 * with a reused handle value) does not.  The duplicates live until
 * finalize, so their addresses identify the caller's communicators. */
struct adopted {
  struct distrt_bcomm *dup;
  MPI_Comm user; /* the caller's communicator */
  int attached;  /* the attribute is still set on `user` */
  struct adopted *next;
};
static struct adopted *adopted_list;
static int adopt_key = MPI_KEYVAL_INVALID;

/* The caller freed its communicator: forget it (the duplicate stays). */
static int adopt_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm;
  (void)key;
  (void)extra;
  ((struct adopted *)val)->attached = 0;
  return MPI_SUCCESS;
}

static distrt_bcomm *mpi_comm_adopt(const char *op, const void *handle) {
  if (!handle)
    distrt_fatal(op, "the communicator is NULL (pass the address of an "
                     "MPI_Comm)");
  MPI_Comm user = *(const MPI_Comm *)handle;
  if (user == MPI_COMM_NULL)
    distrt_fatal(op, "the communicator is MPI_COMM_NULL (this process is "
                     "not a member of it)");
  if (user == MPI_COMM_WORLD)
    return &mpi_world;
  int inter = 0;
  MPICHK(op, "MPI_Comm_test_inter", MPI_Comm_test_inter(user, &inter));
  if (inter)
    distrt_fatal(op, "the communicator is an intercommunicator; grids are "
                     "laid on intracommunicators");
  if (adopt_key == MPI_KEYVAL_INVALID)
    MPICHK(op, "MPI_Comm_create_keyval",
           MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, adopt_delete,
                                  &adopt_key, NULL));
  struct adopted *a = NULL;
  int found = 0;
  MPICHK(op, "MPI_Comm_get_attr",
         MPI_Comm_get_attr(user, adopt_key, &a, &found));
  if (found && a)
    return a->dup;
  a = (struct adopted *)calloc(1, sizeof *a);
  if (!a)
    distrt_fatal(op, "out of memory adopting a communicator");
  MPI_Comm d;
  MPICHK(op, "MPI_Comm_dup", MPI_Comm_dup(user, &d));
  a->dup = distrt_mpi_wrap(op, d);
  a->user = user;
  MPICHK(op, "MPI_Comm_set_attr", MPI_Comm_set_attr(user, adopt_key, a));
  a->attached = 1;
  a->next = adopted_list;
  adopted_list = a;
  return a->dup;
}

/* At finalize: detach from the caller's communicators that are still alive
 * and free the duplicates and the key. */
static void adopted_free_all(const char *op) {
  while (adopted_list) {
    struct adopted *a = adopted_list;
    if (a->attached)
      MPICHK(op, "MPI_Comm_delete_attr",
             MPI_Comm_delete_attr(a->user, adopt_key));
    MPICHK(op, "MPI_Comm_free", MPI_Comm_free(&a->dup->comm));
    --distrt_g.live[DISTRT_COUNT_COMMS];
    free(a->dup);
    adopted_list = a->next;
    free(a);
  }
  if (adopt_key != MPI_KEYVAL_INVALID)
    MPICHK(op, "MPI_Comm_free_keyval", MPI_Comm_free_keyval(&adopt_key));
}

/*===-- lifetime ---------------------------------------------------------===*/

/* Open MPI's shared-memory transport sends messages up to its eager limit
 * (4 KiB by default) at once, copied into the receiver's queue; a longer
 * one waits for a handshake that only happens while both processes are
 * inside MPI.  The sparse products' ghost rows of x (a few KiB to a few
 * tens of KiB for matrices of thousands of rows) are sent before the
 * local product and waited for after it: with the default limit the
 * handshake happened only in the wait (bcsstk24 on 2 ranks: 8-15 us of a
 * 45 us call waiting, 3-4 us at 16 KiB; docs/runtime.md).  When distrt
 * starts MPI and the user has not set the limit (mpirun --mca or the
 * environment), it is raised to 16 KiB.  Other MPIs ignore the variable. */
static void mpi_default_eager_limit(void) {
#if defined(OMPI_MAJOR_VERSION)
  const char *name = OMPI_MAJOR_VERSION >= 5 ? "OMPI_MCA_btl_sm_eager_limit"
                                             : "OMPI_MCA_btl_vader_eager_limit";
  setenv(name, "16384", /*overwrite=*/0);
#endif
}

/* When the program started MPI itself, distrt leaves the error handlers of
 * MPI_COMM_WORLD and MPI_COMM_SELF alone and works on its own duplicate of
 * MPI_COMM_WORLD (with MPI_ERRORS_RETURN); otherwise it owns MPI and sets
 * MPI_ERRORS_RETURN on both. */
static distrt_bcomm *mpi_init(const char *op) {
  int flag = 0;
  MPI_Finalized(&flag);
  if (flag)
    distrt_fatal(op, "MPI has already been finalized; the runtime cannot be "
                     "initialised again");
  MPI_Initialized(&flag);
  if (!flag) {
    int provided = 0;
    mpi_default_eager_limit();
    int rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS)
      distrt_fatal(op, "MPI_Init_thread failed (error %d)", rc);
    mpi_we_initialized = 1;
  }
  mpi_up = 1;
  if (mpi_we_initialized) {
    MPICHK(op, "MPI_Comm_set_errhandler",
           MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPICHK(op, "MPI_Comm_set_errhandler",
           MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    mpi_world.comm = MPI_COMM_WORLD;
  } else {
    /* The caller started MPI: distrt's duplicate of the world is made when
     * the world is first used for communication (world_comm), so that
     * distrt_init involves no other process (a library may be initialised
     * by the processes of one sub-communicator only). */
    mpi_world.comm = MPI_COMM_NULL;
  }
  MPICHK(op, "MPI_Comm_rank", MPI_Comm_rank(MPI_COMM_WORLD, &mpi_world.rank));
  MPICHK(op, "MPI_Comm_size", MPI_Comm_size(MPI_COMM_WORLD, &mpi_world.size));
  distrt_wd_setup(op, mpi_world.rank);
  return &mpi_world;
}

static void mpi_finalize(const char *op) {
  if (!mpi_up)
    return;
  adopted_free_all(op);
  if (mpi_world_dup)
    MPICHK(op, "MPI_Comm_free", MPI_Comm_free(&mpi_world.comm));
  mpi_world_dup = 0;
  if (mpi_we_initialized)
    MPICHK(op, "MPI_Finalize", MPI_Finalize());
  mpi_up = 0;
}

static int mpi_active(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

/* Library mode (distrt_init_library): MPI_Finalize deletes MPI_COMM_SELF's
 * attributes first, while MPI still works; the delete callback runs the
 * function distrt registered. */
static void (*host_finalize_fn)(void);
static int self_attr_delete(MPI_Comm comm, int keyval, void *value,
                            void *extra) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra;
  void (*fn)(void) = host_finalize_fn;
  host_finalize_fn = NULL;
  if (fn)
    fn();
  return MPI_SUCCESS;
}

static void mpi_at_host_finalize(const char *op, void (*fn)(void)) {
  int first = host_finalize_fn == NULL;
  host_finalize_fn = fn;
  if (!first)
    return;
  int key = MPI_KEYVAL_INVALID;
  MPICHK(op, "MPI_Comm_create_keyval",
         MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_attr_delete, &key,
                                NULL));
  MPICHK(op, "MPI_Comm_set_attr", MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
}

static void mpi_abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  exit(code); /* not reached with a working MPI */
}

/* The error layer knows no backend: register MPI's abort when the library
 * is loaded, so that a fatal error before distrt_init (the program may
 * have started MPI itself) still ends every rank.  distrt_init registers
 * the backend it selects again. */
__attribute__((constructor)) static void mpi_register_abort(void) {
  distrt_set_abort_handler(mpi_active, mpi_abort);
}

static int64_t mpi_tag_ub(void) {
  int *ub = NULL;
  int flag = 0;
  if (MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) !=
          MPI_SUCCESS ||
      !flag || !ub)
    return 32767; /* guaranteed minimum */
  return *ub;
}

/*===-- communicators ----------------------------------------------------===*/

static int64_t mpi_comm_rank(distrt_bcomm *c) { return c->rank; }
static int64_t mpi_comm_size(distrt_bcomm *c) { return c->size; }

static distrt_bcomm *mpi_comm_dup(const char *op, distrt_bcomm *parent) {
  MPI_Comm c;
  MPICHK(op, "MPI_Comm_dup", MPI_Comm_dup(MCOMM(op, parent), &c));
  return distrt_mpi_wrap(op, c);
}

static distrt_bcomm *mpi_comm_subset(const char *op, distrt_bcomm *parent,
                                     int64_t n, const int64_t *ranks,
                                     int64_t tag) {
  int *r = (int *)malloc((size_t)n * sizeof *r);
  if (!r)
    distrt_fatal(op, "out of memory building a process group of %lld ranks",
                 (long long)n);
  for (int64_t i = 0; i < n; ++i)
    r[i] = (int)ranks[i];
  MPI_Group pg, sg;
  MPI_Comm c;
  MPICHK(op, "MPI_Comm_group", MPI_Comm_group(MCOMM(op, parent), &pg));
  MPICHK(op, "MPI_Group_incl", MPI_Group_incl(pg, (int)n, r, &sg));
  MPICHK(op, "MPI_Comm_create_group",
         MPI_Comm_create_group(MCOMM(op, parent), sg, (int)tag, &c));
  MPICHK(op, "MPI_Group_free", MPI_Group_free(&sg));
  MPICHK(op, "MPI_Group_free", MPI_Group_free(&pg));
  free(r);
  if (c == MPI_COMM_NULL)
    distrt_fatal(op, "MPI_Comm_create_group returned MPI_COMM_NULL for a "
                     "group containing this process");
  return distrt_mpi_wrap(op, c);
}

static void mpi_comm_free(const char *op, distrt_bcomm *c) {
  if (!c || c == &mpi_world)
    return;
  if (mpi_up)
    MPICHK(op, "MPI_Comm_free", MPI_Comm_free(&c->comm));
  --distrt_g.live[DISTRT_COUNT_COMMS];
  free(c);
}

/*===-- collectives ------------------------------------------------------===*/

static void mpi_allreduce(const char *op, distrt_bcomm *c, void *buf,
                          int64_t count, int64_t dtype, int64_t rop) {
  MPICHK(op, "MPI_Allreduce",
         MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, mpi_type(dtype),
                       mpi_op(rop), MCOMM(op, c)));
}

static void mpi_reduce(const char *op, distrt_bcomm *c, void *buf,
                       int64_t count, int64_t dtype, int64_t rop,
                       int64_t root) {
  if (c->rank == root)
    MPICHK(op, "MPI_Reduce",
           MPI_Reduce(MPI_IN_PLACE, buf, (int)count, mpi_type(dtype),
                      mpi_op(rop), (int)root, MCOMM(op, c)));
  else
    MPICHK(op, "MPI_Reduce",
           MPI_Reduce(buf, NULL, (int)count, mpi_type(dtype), mpi_op(rop),
                      (int)root, MCOMM(op, c)));
}

static void mpi_bcast(const char *op, distrt_bcomm *c, void *buf,
                      int64_t count, int64_t dtype, int64_t root) {
  MPICHK(op, "MPI_Bcast",
         MPI_Bcast(buf, (int)count, mpi_type(dtype), (int)root, MCOMM(op, c)));
}

static void mpi_allgather(const char *op, distrt_bcomm *c, const void *send,
                          void *recv, int64_t count, int64_t dtype) {
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Allgather",
         MPI_Allgather(send, (int)count, t, recv, (int)count, t, MCOMM(op, c)));
}

static void mpi_reduce_scatter(const char *op, distrt_bcomm *c,
                               const void *send, void *recv, int64_t count,
                               int64_t dtype, int64_t rop) {
  MPICHK(op, "MPI_Reduce_scatter_block",
         MPI_Reduce_scatter_block(send, recv, (int)count, mpi_type(dtype),
                                  mpi_op(rop), MCOMM(op, c)));
}

/* int counts and prefix-sum displacements for MPI_Alltoallv and
 * MPI_Reduce_scatter. */
static int *v_layout(const char *op, const char *what, int n,
                     const int64_t *counts, int **displs) {
  int *cnt = (int *)malloc(2 * (size_t)(n ? n : 1) * sizeof *cnt);
  if (!cnt)
    distrt_fatal(op, "out of memory for %d %s counts", n, what);
  int *dsp = cnt + n;
  int64_t at = 0;
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0 || counts[i] > INT_MAX || at > INT_MAX)
      distrt_fatal(op,
                   "%s count %lld for rank %d (at offset %lld) exceeds the "
                   "MPI backend's int range",
                   what, (long long)counts[i], i, (long long)at);
    cnt[i] = (int)counts[i];
    dsp[i] = (int)at;
    at += counts[i];
  }
  *displs = dsp;
  return cnt;
}

static void mpi_reduce_scatter_v(const char *op, distrt_bcomm *c,
                                 const void *send, void *recv,
                                 const int64_t *counts, int64_t dtype,
                                 int64_t rop) {
  int *displs;
  int *cnt = v_layout(op, "receive", c->size, counts, &displs);
  MPICHK(op, "MPI_Reduce_scatter",
         MPI_Reduce_scatter(send, recv, cnt, mpi_type(dtype), mpi_op(rop),
                            MCOMM(op, c)));
  free(cnt);
}

static void mpi_alltoall(const char *op, distrt_bcomm *c, const void *send,
                         void *recv, int64_t count, int64_t dtype) {
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Alltoall",
         MPI_Alltoall(send, (int)count, t, recv, (int)count, t, MCOMM(op, c)));
}

static void mpi_alltoallv(const char *op, distrt_bcomm *c, const void *send,
                          const int64_t *scounts, void *recv,
                          const int64_t *rcounts, int64_t dtype) {
  MPI_Datatype t = mpi_type(dtype);
  int *sd, *rd;
  int *sc = v_layout(op, "send", c->size, scounts, &sd);
  int *rc = v_layout(op, "receive", c->size, rcounts, &rd);
  MPICHK(op, "MPI_Alltoallv",
         MPI_Alltoallv(send, sc, sd, t, recv, rc, rd, t, MCOMM(op, c)));
  free(sc);
  free(rc);
}

static void mpi_gather(const char *op, distrt_bcomm *c, const void *send,
                       void *recv, int64_t count, int64_t dtype,
                       int64_t root) {
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Gather",
         MPI_Gather(send, (int)count, t, c->rank == root ? recv : NULL,
                    (int)count, t, (int)root, MCOMM(op, c)));
}

static void mpi_scatter(const char *op, distrt_bcomm *c, const void *send,
                        void *recv, int64_t count, int64_t dtype,
                        int64_t root) {
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Scatter",
         MPI_Scatter(c->rank == root ? send : NULL, (int)count, t, recv,
                     (int)count, t, (int)root, MCOMM(op, c)));
}

static void mpi_barrier(const char *op, distrt_bcomm *c) {
  MPICHK(op, "MPI_Barrier", MPI_Barrier(MCOMM(op, c)));
}

/*===-- point to point ---------------------------------------------------===*/

static void check_received(const char *op, MPI_Status *st, int64_t count,
                           int64_t dtype, int64_t src) {
  int got = 0;
  MPICHK(op, "MPI_Get_count", MPI_Get_count(st, mpi_type(dtype), &got));
  if (got != count)
    distrt_fatal(op,
                 "expected a message of %lld %s elements from rank %lld, but "
                 "it held %d",
                 (long long)count, distrt_dtype_name(dtype), (long long)src,
                 got);
}

static void mpi_send(const char *op, distrt_bcomm *c, const void *buf,
                     int64_t count, int64_t dtype, int64_t dest, int64_t tag) {
  MPICHK(op, "MPI_Send",
         MPI_Send(buf, (int)count, mpi_type(dtype), (int)dest, (int)tag,
                  MCOMM(op, c)));
}

static void mpi_recv(const char *op, distrt_bcomm *c, void *buf, int64_t count,
                     int64_t dtype, int64_t src, int64_t tag) {
  MPI_Status st;
  MPICHK(op, "MPI_Recv",
         MPI_Recv(buf, (int)count, mpi_type(dtype), (int)src, (int)tag,
                  MCOMM(op, c), &st));
  check_received(op, &st, count, dtype, src);
}

static void mpi_sendrecv(const char *op, distrt_bcomm *c, const void *send,
                         int64_t scount, int64_t dest, void *recv,
                         int64_t rcount, int64_t src, int64_t dtype,
                         int64_t tag) {
  MPI_Status st;
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Sendrecv",
         MPI_Sendrecv(send, (int)scount, t, (int)dest, (int)tag, recv,
                      (int)rcount, t, (int)src, (int)tag, MCOMM(op, c), &st));
  check_received(op, &st, rcount, dtype, src);
}

static void mpi_sendrecv_replace(const char *op, distrt_bcomm *c, void *buf,
                                 int64_t count, int64_t dtype, int64_t dest,
                                 int64_t src, int64_t tag) {
  MPI_Status st;
  MPICHK(op, "MPI_Sendrecv_replace",
         MPI_Sendrecv_replace(buf, (int)count, mpi_type(dtype), (int)dest,
                              (int)tag, (int)src, (int)tag, MCOMM(op, c), &st));
}

/*===-- non-blocking -----------------------------------------------------===*/

static distrt_breq *new_req(const char *op) {
  distrt_breq *r = (distrt_breq *)malloc(sizeof *r);
  if (!r)
    distrt_fatal(op, "out of memory allocating a request");
  r->req[0] = r->req[1] = MPI_REQUEST_NULL;
  r->n = 0;
  return r;
}

static distrt_breq *mpi_ibcast(const char *op, distrt_bcomm *c, void *buf,
                               int64_t count, int64_t dtype, int64_t root) {
  distrt_breq *r = new_req(op);
  MPICHK(op, "MPI_Ibcast",
         MPI_Ibcast(buf, (int)count, mpi_type(dtype), (int)root, MCOMM(op, c),
                    &r->req[0]));
  r->n = 1;
  return r;
}

static distrt_breq *mpi_iallreduce(const char *op, distrt_bcomm *c, void *buf,
                                   int64_t count, int64_t dtype, int64_t rop) {
  distrt_breq *r = new_req(op);
  MPICHK(op, "MPI_Iallreduce",
         MPI_Iallreduce(MPI_IN_PLACE, buf, (int)count, mpi_type(dtype),
                        mpi_op(rop), MCOMM(op, c), &r->req[0]));
  r->n = 1;
  return r;
}

static distrt_breq *mpi_isendrecv(const char *op, distrt_bcomm *c,
                                  const void *send, int64_t dest, void *recv,
                                  int64_t src, int64_t count, int64_t dtype,
                                  int64_t tag) {
  distrt_breq *r = new_req(op);
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Irecv",
         MPI_Irecv(recv, (int)count, t, (int)src, (int)tag, MCOMM(op, c),
                   &r->req[0]));
  MPICHK(op, "MPI_Isend",
         MPI_Isend(send, (int)count, t, (int)dest, (int)tag, MCOMM(op, c),
                   &r->req[1]));
  r->n = 2;
  return r;
}

static distrt_breq *mpi_iallgather(const char *op, distrt_bcomm *c,
                                   const void *send, void *recv,
                                   int64_t count, int64_t dtype) {
  distrt_breq *r = new_req(op);
  MPI_Datatype t = mpi_type(dtype);
  MPICHK(op, "MPI_Iallgather",
         MPI_Iallgather(send, (int)count, t, recv, (int)count, t, MCOMM(op, c),
                        &r->req[0]));
  r->n = 1;
  return r;
}

static distrt_breq *mpi_ipermute(const char *op, distrt_bcomm *c,
                                 const void *send, int64_t scount,
                                 int64_t dest, void *recv, int64_t rcount,
                                 int64_t src, int64_t dtype, int64_t tag) {
  distrt_breq *r = new_req(op);
  MPI_Datatype t = mpi_type(dtype);
  if (src >= 0)
    MPICHK(op, "MPI_Irecv",
           MPI_Irecv(recv, (int)rcount, t, (int)src, (int)tag, MCOMM(op, c),
                     &r->req[r->n++]));
  if (dest >= 0)
    MPICHK(op, "MPI_Isend",
           MPI_Isend(send, (int)scount, t, (int)dest, (int)tag, MCOMM(op, c),
                     &r->req[r->n++]));
  return r;
}

static void mpi_wait(const char *op, distrt_breq *r) {
  MPI_Status st[2];
  int rc = MPI_Waitall(r->n, r->req, st);
  if (rc == MPI_ERR_IN_STATUS) {
    for (int i = 0; i < r->n; ++i)
      if (st[i].MPI_ERROR != MPI_SUCCESS)
        distrt_mpi_fail(op, "MPI_Waitall", st[i].MPI_ERROR);
  }
  if (rc != MPI_SUCCESS)
    distrt_mpi_fail(op, "MPI_Waitall", rc);
  free(r);
}

/*===-- one-sided (RMA) --------------------------------------------------===*/

/* Windows over user memory (MPI_Win_create), passive target: one lock_all
 * epoch from creation to free.  With Open MPI 4.1 the component is osc/rdma
 * (Debian's openmpi-mca-params.conf excludes pt2pt and ucx); over the
 * shared-memory btl it reads and updates the target's memory directly, so
 * no progress is needed at the target (works oversubscribed). */
static distrt_bwin *mpi_win_create(const char *op, distrt_bcomm *c, void *base,
                                   int64_t bytes, int64_t esize) {
  distrt_bwin *w = (distrt_bwin *)malloc(sizeof *w);
  if (!w)
    distrt_fatal(op, "out of memory allocating a window handle");
  MPI_Info info;
  MPICHK(op, "MPI_Info_create", MPI_Info_create(&info));
  /* Only MPI_SUM accumulates of one basic type per window. */
  MPICHK(op, "MPI_Info_set",
         MPI_Info_set(info, "accumulate_ops", "same_op_no_op"));
  int rc = MPI_Win_create(bytes > 0 ? base : NULL, (MPI_Aint)bytes, (int)esize,
                          info, MCOMM(op, c), &w->win);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
      len = 0;
    msg[len] = '\0';
    distrt_fatal(op,
                 "MPI_Win_create failed (error %d): %s; this MPI has no "
                 "usable one-sided component for this communicator (with "
                 "Open MPI try OMPI_MCA_osc=rdma or pt2pt), or set "
                 "DISTRT_ONESIDED=twosided",
                 rc, len ? msg : "unknown MPI error");
  }
  MPICHK(op, "MPI_Win_set_errhandler",
         MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN));
  MPICHK(op, "MPI_Win_lock_all", MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
  return w;
}

/* One empty window, made and freed: Open MPI fails MPI_Win_create when no
 * osc component can serve the communicator (osc/rdma over the tcp btl
 * alone, for one); the caller then takes the two-sided fallback. */
static int mpi_win_usable(const char *op, distrt_bcomm *c, char *why,
                          size_t n) {
  MPI_Win w;
  int rc = MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MCOMM(op, c), &w);
  int ok = rc == MPI_SUCCESS, all = 0, any = 0;
  MPICHK(op, "MPI_Allreduce",
         MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MCOMM(op, c)));
  MPICHK(op, "MPI_Allreduce",
         MPI_Allreduce(&ok, &any, 1, MPI_INT, MPI_MAX, MCOMM(op, c)));
  if (all) {
    MPICHK(op, "MPI_Win_free", MPI_Win_free(&w));
    return 1;
  }
  if (any)
    distrt_fatal(op, "MPI_Win_create succeeded on some processes of the "
                     "grid and failed on others; cannot use one-sided "
                     "operations or fall back consistently");
  char msg[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
    len = 0;
  msg[len] = '\0';
  snprintf(why, n, "MPI_Win_create failed: %s",
           len ? msg : "unknown MPI error");
  return 0;
}

static void mpi_win_free(const char *op, distrt_bwin *w) {
  if (!w)
    return;
  if (mpi_up) {
    MPICHK(op, "MPI_Win_unlock_all", MPI_Win_unlock_all(w->win));
    MPICHK(op, "MPI_Win_free", MPI_Win_free(&w->win));
  }
  free(w);
}

static void mpi_win_sync(const char *op, distrt_bwin *w) {
  MPICHK(op, "MPI_Win_sync", MPI_Win_sync(w->win));
}

static void mpi_win_flush(const char *op, distrt_bwin *w) {
  MPICHK(op, "MPI_Win_flush_all", MPI_Win_flush_all(w->win));
}

/* The target's rows x cols block, rows `ld` apart (committed; freed by the
 * caller after the call that uses it: MPI keeps what it needs). */
static MPI_Datatype block_type(const char *op, int64_t rows, int64_t cols,
                               int64_t ld, MPI_Datatype t) {
  MPI_Datatype v;
  MPICHK(op, "MPI_Type_vector",
         MPI_Type_vector((int)rows, (int)cols, (int)ld, t, &v));
  MPICHK(op, "MPI_Type_commit", MPI_Type_commit(&v));
  return v;
}

static distrt_breq *mpi_rget(const char *op, distrt_bwin *w, void *dst,
                             int64_t rows, int64_t cols, int64_t dtype,
                             int64_t target, int64_t disp, int64_t ld) {
  distrt_breq *r = new_req(op);
  MPI_Datatype t = mpi_type(dtype), v = block_type(op, rows, cols, ld, t);
  MPICHK(op, "MPI_Rget",
         MPI_Rget(dst, (int)(rows * cols), t, (int)target, (MPI_Aint)disp, 1, v,
                  w->win, &r->req[0]));
  MPICHK(op, "MPI_Type_free", MPI_Type_free(&v));
  r->n = 1;
  return r;
}

static distrt_breq *mpi_raccumulate(const char *op, distrt_bwin *w,
                                    const void *src, int64_t rows, int64_t cols,
                                    int64_t dtype, int64_t target, int64_t disp,
                                    int64_t ld) {
  distrt_breq *r = new_req(op);
  MPI_Datatype t = mpi_type(dtype), v = block_type(op, rows, cols, ld, t);
  MPICHK(op, "MPI_Raccumulate",
         MPI_Raccumulate(src, (int)(rows * cols), t, (int)target,
                         (MPI_Aint)disp, 1, v, MPI_SUM, w->win, &r->req[0]));
  MPICHK(op, "MPI_Type_free", MPI_Type_free(&v));
  r->n = 1;
  return r;
}

const struct distrt_backend distrt_backend_mpi = {
    .name = "mpi",
    .init = mpi_init,
    .finalize = mpi_finalize,
    .active = mpi_active,
    .abort = mpi_abort,
    .host_active = mpi_active,
    .at_host_finalize = mpi_at_host_finalize,
    .max_count = INT_MAX,
    .tag_ub = mpi_tag_ub,
    .node_size = distrt_mpi_node_size,
    .comm_rank = mpi_comm_rank,
    .comm_size = mpi_comm_size,
    .comm_dup = mpi_comm_dup,
    .comm_subset = mpi_comm_subset,
    .comm_free = mpi_comm_free,
    .comm_adopt = mpi_comm_adopt,
    .allreduce = mpi_allreduce,
    .reduce = mpi_reduce,
    .bcast = mpi_bcast,
    .allgather = mpi_allgather,
    .reduce_scatter = mpi_reduce_scatter,
    .reduce_scatter_v = mpi_reduce_scatter_v,
    .alltoall = mpi_alltoall,
    .alltoallv = mpi_alltoallv,
    .gather = mpi_gather,
    .scatter = mpi_scatter,
    .barrier = mpi_barrier,
    .send = mpi_send,
    .recv = mpi_recv,
    .sendrecv = mpi_sendrecv,
    .sendrecv_replace = mpi_sendrecv_replace,
    .ibcast = mpi_ibcast,
    .iallreduce = mpi_iallreduce,
    .isendrecv = mpi_isendrecv,
    .iallgather = mpi_iallgather,
    .ipermute = mpi_ipermute,
    .wait = mpi_wait,
    .win_create = mpi_win_create,
    .win_usable = mpi_win_usable,
    .win_free = mpi_win_free,
    .win_sync = mpi_win_sync,
    .win_flush = mpi_win_flush,
    .rget = mpi_rget,
    .raccumulate = mpi_raccumulate,
    .node_color = distrt_mpi_node_color,
    .comm_split = distrt_mpi_comm_split,
    .shm_alloc = distrt_mpi_shm_alloc,
    .shm_sync = distrt_mpi_shm_sync,
};
