/*===- comm.c - public communication entry points and requests --*- C -*-===*
 *
 * Validates arguments, resolves the grid sub-communicator and forwards to
 * the selected backend.  Groups of one process are handled locally (no
 * communicator is created for them).
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdlib.h>
#include <string.h>

void distrt_check_count(const char *op, const char *what, int64_t count) {
  if (count < 0)
    distrt_fatal(op, "%s is negative (%lld)", what, (long long)count);
  if (distrt_g.be && count > distrt_g.be->max_count)
    distrt_fatal(op,
                 "%s %lld exceeds the %s backend's limit of %lld elements per "
                 "call",
                 what, (long long)count, distrt_g.be->name,
                 (long long)distrt_g.be->max_count);
}

/* Common prologue: validated grid, group size, element size. */
struct coll {
  distrt_grid *g;
  int64_t size; /* processes spanning the axes */
  int64_t rank; /* this process's rank among them */
  int64_t es;   /* element size in bytes */
};

static struct coll coll_begin(const char *op, distrt_grid *g, int64_t axes,
                              int64_t count, int64_t dtype) {
  struct coll c;
  c.g = distrt_grid_check(op, g);
  distrt_grid_check_mask(op, c.g, axes);
  c.es = distrt_dtype_size(op, dtype);
  distrt_check_count(op, "count", count);
  c.size = distrt_grid_mask_size(c.g, axes);
  c.rank = distrt_grid_mask_rank(c.g, axes);
  return c;
}

static void check_root(const char *op, const struct coll *c, int64_t axes,
                       int64_t root) {
  if (root < 0 || root >= c->size)
    distrt_fatal(op,
                 "root %lld is out of range for the %lld process%s spanning "
                 "axes 0x%llx",
                 (long long)root, (long long)c->size,
                 c->size == 1 ? "" : "es", (unsigned long long)axes);
}

/* count * size elements, checked against the backend limit. */
static int64_t total_count(const char *op, const char *what, int64_t count,
                           int64_t size) {
  int64_t t = distrt_mul(op, what, count, size);
  distrt_check_count(op, what, t);
  return t;
}

/* A group of one copies locally; a backend with device memory copies (its
 * buffers may be device memory the host cannot touch). */
static void copy(void *dst, const void *src, int64_t bytes) {
  if (bytes > 0 && distrt_g.be && distrt_g.be->dev_copy)
    distrt_g.be->dev_copy("distrt copy", dst, src, bytes);
  else if (bytes > 0)
    memcpy(dst, src, (size_t)bytes);
}

/*===-- blocking collectives ---------------------------------------------===*/

void distrt_allreduce(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                      int64_t dtype, int64_t op) {
  const char *fn = "distrt_allreduce";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  distrt_check_op(fn, op);
  distrt_check_buf(fn, "buf", buf, count);
  if (c.size == 1)
    return;
  struct distrt_levels lv;
  if (distrt_two_level(fn, c.g, axes, &lv)) {
    distrt_allreduce_2(fn, c.g, &lv, buf, count, dtype, op);
    return;
  }
  distrt_g.be->allreduce(fn, distrt_grid_sub(fn, c.g, axes), buf, count, dtype,
                         op);
}

void distrt_reduce(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                   int64_t dtype, int64_t op, int64_t root) {
  const char *fn = "distrt_reduce";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  distrt_check_op(fn, op);
  check_root(fn, &c, axes, root);
  distrt_check_buf(fn, "buf", buf, count);
  if (c.size == 1)
    return;
  struct distrt_levels lv;
  if (distrt_two_level(fn, c.g, axes, &lv)) {
    distrt_reduce_2(fn, c.g, &lv, buf, count, dtype, op, root);
    return;
  }
  distrt_g.be->reduce(fn, distrt_grid_sub(fn, c.g, axes), buf, count, dtype,
                      op, root);
}

void distrt_bcast(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                  int64_t dtype, int64_t root) {
  const char *fn = "distrt_bcast";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  check_root(fn, &c, axes, root);
  distrt_check_buf(fn, "buf", buf, count);
  if (c.size == 1)
    return;
  struct distrt_levels lv;
  if (distrt_two_level(fn, c.g, axes, &lv)) {
    distrt_bcast_2(fn, c.g, &lv, buf, count, dtype, root);
    return;
  }
  distrt_g.be->bcast(fn, distrt_grid_sub(fn, c.g, axes), buf, count, dtype,
                     root);
}

void distrt_allgather(distrt_grid *g, int64_t axes, const void *send,
                      void *recv, int64_t count, int64_t dtype) {
  const char *fn = "distrt_allgather";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "send", send, count);
  distrt_check_buf(fn, "recv", recv, total);
  distrt_check_no_overlap(fn, "send", send, count * c.es, "recv", recv,
                          total * c.es);
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  distrt_g.be->allgather(fn, distrt_grid_sub(fn, c.g, axes), send, recv, count,
                         dtype);
}

void distrt_reduce_scatter(distrt_grid *g, int64_t axes, const void *send,
                           void *recv, int64_t count, int64_t dtype,
                           int64_t op) {
  const char *fn = "distrt_reduce_scatter";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  distrt_check_op(fn, op);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "send", send, total);
  distrt_check_buf(fn, "recv", recv, count);
  distrt_check_no_overlap(fn, "send", send, total * c.es, "recv", recv,
                          count * c.es);
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  distrt_g.be->reduce_scatter(fn, distrt_grid_sub(fn, c.g, axes), send, recv,
                              count, dtype, op);
}

/* Elements of group rank r in a cut of `count` into blocks of `block`. */
static int64_t block_piece(int64_t count, int64_t block, int64_t r) {
  if (r >= distrt_ceil_div(count, block))
    return 0;
  int64_t left = count - r * block;
  return left < block ? left : block;
}

void distrt_reduce_scatter_blocks(distrt_grid *g, int64_t axes,
                                  const void *send, int64_t count, void *recv,
                                  int64_t recv_count, int64_t block,
                                  int64_t dtype, int64_t op) {
  const char *fn = "distrt_reduce_scatter_blocks";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  distrt_check_op(fn, op);
  if (block < 1)
    distrt_fatal(fn, "block %lld is not positive", (long long)block);
  if (distrt_ceil_div(count, block) > c.size)
    distrt_fatal(fn,
                 "%lld elements in blocks of %lld need %lld processes; the "
                 "axes 0x%llx span %lld",
                 (long long)count, (long long)block,
                 (long long)distrt_ceil_div(count, block),
                 (unsigned long long)axes, (long long)c.size);
  int64_t mine = block_piece(count, block, c.rank);
  if (recv_count < mine)
    distrt_fatal(fn, "recv holds %lld elements; group rank %lld receives %lld",
                 (long long)recv_count, (long long)c.rank, (long long)mine);
  distrt_check_buf(fn, "send", send, count);
  distrt_check_buf(fn, "recv", recv, mine);
  distrt_check_no_overlap(fn, "send", send, count * c.es, "recv", recv,
                          mine * c.es);
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  int64_t *counts = (int64_t *)malloc((size_t)c.size * sizeof *counts);
  if (!counts)
    distrt_fatal(fn, "out of memory for %lld counts", (long long)c.size);
  for (int64_t r = 0; r < c.size; ++r)
    counts[r] = block_piece(count, block, r);
  distrt_g.be->reduce_scatter_v(fn, distrt_grid_sub(fn, c.g, axes), send, recv,
                                counts, dtype, op);
  free(counts);
}

void distrt_alltoall(distrt_grid *g, int64_t axes, const void *send,
                     void *recv, int64_t count, int64_t dtype) {
  const char *fn = "distrt_alltoall";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "send", send, total);
  distrt_check_buf(fn, "recv", recv, total);
  distrt_check_no_overlap(fn, "send", send, total * c.es, "recv", recv,
                          total * c.es);
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  distrt_g.be->alltoall(fn, distrt_grid_sub(fn, c.g, axes), send, recv, count,
                        dtype);
}

void distrt_gather(distrt_grid *g, int64_t axes, const void *send, void *recv,
                   int64_t count, int64_t dtype, int64_t root) {
  const char *fn = "distrt_gather";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  check_root(fn, &c, axes, root);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "send", send, count);
  if (c.rank == root) {
    distrt_check_buf(fn, "recv (at root)", recv, total);
    distrt_check_no_overlap(fn, "send", send, count * c.es, "recv", recv,
                            total * c.es);
  }
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  distrt_g.be->gather(fn, distrt_grid_sub(fn, c.g, axes), send, recv, count,
                      dtype, root);
}

void distrt_scatter(distrt_grid *g, int64_t axes, const void *send,
                    void *recv, int64_t count, int64_t dtype, int64_t root) {
  const char *fn = "distrt_scatter";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  check_root(fn, &c, axes, root);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "recv", recv, count);
  if (c.rank == root) {
    distrt_check_buf(fn, "send (at root)", send, total);
    distrt_check_no_overlap(fn, "send", send, total * c.es, "recv", recv,
                            count * c.es);
  }
  if (c.size == 1) {
    copy(recv, send, count * c.es);
    return;
  }
  distrt_g.be->scatter(fn, distrt_grid_sub(fn, c.g, axes), send, recv, count,
                       dtype, root);
}

void distrt_barrier(distrt_grid *g, int64_t axes) {
  const char *fn = "distrt_barrier";
  struct coll c = coll_begin(fn, g, axes, 0, DISTRT_I64);
  if (c.size == 1)
    return;
  distrt_g.be->barrier(fn, distrt_grid_sub(fn, c.g, axes));
}

/*===-- shifts -----------------------------------------------------------===*/

/* Normalised displacement in [0, dim) plus source / destination coordinate
 * along the axis (which is also the rank in the axis sub-communicator). */
struct shift {
  int64_t d, src, dest;
};

static struct shift shift_plan(const distrt_grid *g, int64_t axis,
                               int64_t disp) {
  struct shift s;
  int64_t dim = g->dims[axis];
  int64_t me = g->coords[axis];
  s.d = ((disp % dim) + dim) % dim;
  s.src = (me + s.d) % dim;
  s.dest = (me - s.d + dim) % dim;
  return s;
}

void distrt_shift(distrt_grid *g, int64_t axis, int64_t disp, void *buf,
                  int64_t count, int64_t dtype) {
  const char *fn = "distrt_shift";
  distrt_grid *G = distrt_grid_check(fn, g);
  distrt_grid_check_axis(fn, G, axis);
  distrt_dtype_size(fn, dtype);
  distrt_check_count(fn, "count", count);
  distrt_check_buf(fn, "buf", buf, count);
  struct shift s = shift_plan(G, axis, disp);
  if (s.d == 0)
    return;
  distrt_bcomm *axis_comm = distrt_grid_sub(fn, G, (int64_t)1 << axis);
  distrt_g.be->sendrecv_replace(fn, axis_comm, buf, count, dtype, s.dest,
                                s.src, DISTRT_TAG_SHIFT);
}

/*===-- point to point ---------------------------------------------------===*/

static void check_peer(const char *op, const char *what, const distrt_grid *g,
                       int64_t r) {
  if (r < 0 || r >= g->size)
    distrt_fatal(op, "%s rank %lld is out of range for a grid of %lld "
                     "processes",
                 what, (long long)r, (long long)g->size);
}

static void check_tag(const char *op, int64_t tag) {
  if (tag < 0 || tag > distrt_g.tag_ub)
    distrt_fatal(op, "tag %lld is out of range (0 .. %lld)", (long long)tag,
                 (long long)distrt_g.tag_ub);
}

void distrt_send(distrt_grid *g, const void *buf, int64_t count, int64_t dtype,
                 int64_t dest, int64_t tag) {
  const char *fn = "distrt_send";
  distrt_grid *G = distrt_grid_check(fn, g);
  distrt_dtype_size(fn, dtype);
  distrt_check_count(fn, "count", count);
  distrt_check_buf(fn, "buf", buf, count);
  check_peer(fn, "destination", G, dest);
  check_tag(fn, tag);
  distrt_g.be->send(fn, G->comm, buf, count, dtype, dest, tag);
}

void distrt_recv(distrt_grid *g, void *buf, int64_t count, int64_t dtype,
                 int64_t src, int64_t tag) {
  const char *fn = "distrt_recv";
  distrt_grid *G = distrt_grid_check(fn, g);
  distrt_dtype_size(fn, dtype);
  distrt_check_count(fn, "count", count);
  distrt_check_buf(fn, "buf", buf, count);
  check_peer(fn, "source", G, src);
  check_tag(fn, tag);
  distrt_g.be->recv(fn, G->comm, buf, count, dtype, src, tag);
}

void distrt_sendrecv(distrt_grid *g, const void *send, int64_t scount,
                     int64_t dest, void *recv, int64_t rcount, int64_t src,
                     int64_t dtype, int64_t tag) {
  const char *fn = "distrt_sendrecv";
  distrt_grid *G = distrt_grid_check(fn, g);
  int64_t es = distrt_dtype_size(fn, dtype);
  distrt_check_count(fn, "scount", scount);
  distrt_check_count(fn, "rcount", rcount);
  distrt_check_buf(fn, "send", send, scount);
  distrt_check_buf(fn, "recv", recv, rcount);
  distrt_check_no_overlap(fn, "send", send, scount * es, "recv", recv,
                          rcount * es);
  check_peer(fn, "destination", G, dest);
  check_peer(fn, "source", G, src);
  check_tag(fn, tag);
  distrt_g.be->sendrecv(fn, G->comm, send, scount, dest, recv, rcount, src,
                        dtype, tag);
}

/*===-- requests ---------------------------------------------------------===*/

struct req_entry {
  int64_t id;
  distrt_breq *r; /* NULL: completed locally at issue time */
  const char *op; /* issuing function */
};

static struct req_entry *reqs;
static int64_t nreqs, capreqs;
static int64_t next_id = 1;

static int64_t req_add(const char *op, distrt_breq *r) {
  if (nreqs == capreqs) {
    int64_t cap = capreqs ? 2 * capreqs : 16;
    struct req_entry *n =
        (struct req_entry *)realloc(reqs, (size_t)cap * sizeof *n);
    if (!n)
      distrt_fatal(op, "out of memory growing the request table to %lld",
                   (long long)cap);
    reqs = n;
    capreqs = cap;
  }
  int64_t id = next_id++;
  reqs[nreqs].id = id;
  reqs[nreqs].r = r;
  reqs[nreqs].op = op;
  ++nreqs;
  distrt_g.live[DISTRT_COUNT_REQUESTS] = nreqs;
  return id;
}

static void req_complete(const char *op, int64_t idx) {
  struct req_entry e = reqs[idx];
  memmove(&reqs[idx], &reqs[idx + 1],
          (size_t)(nreqs - idx - 1) * sizeof *reqs);
  --nreqs;
  distrt_g.live[DISTRT_COUNT_REQUESTS] = nreqs;
  if (e.r)
    distrt_g.be->wait(op, e.r);
}

int64_t distrt_ibcast(distrt_grid *g, int64_t axes, void *buf, int64_t count,
                      int64_t dtype, int64_t root) {
  const char *fn = "distrt_ibcast";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  check_root(fn, &c, axes, root);
  distrt_check_buf(fn, "buf", buf, count);
  distrt_breq *r = NULL;
  struct distrt_levels lv;
  if (c.size > 1 && distrt_two_level(fn, c.g, axes, &lv))
    r = distrt_ibcast_2(fn, c.g, &lv, buf, count, dtype, root);
  else if (c.size > 1)
    r = distrt_g.be->ibcast(fn, distrt_grid_sub(fn, c.g, axes), buf, count,
                            dtype, root);
  return req_add(fn, r);
}

int64_t distrt_iallreduce(distrt_grid *g, int64_t axes, void *buf,
                          int64_t count, int64_t dtype, int64_t op) {
  const char *fn = "distrt_iallreduce";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  distrt_check_op(fn, op);
  distrt_check_buf(fn, "buf", buf, count);
  distrt_breq *r = NULL;
  struct distrt_levels lv;
  if (c.size > 1 && distrt_two_level(fn, c.g, axes, &lv))
    r = distrt_iallreduce_2(fn, c.g, &lv, buf, count, dtype, op);
  else if (c.size > 1)
    r = distrt_g.be->iallreduce(fn, distrt_grid_sub(fn, c.g, axes), buf, count,
                                dtype, op);
  return req_add(fn, r);
}

int64_t distrt_ishift(distrt_grid *g, int64_t axis, int64_t disp,
                      const void *send, void *recv, int64_t count,
                      int64_t dtype) {
  const char *fn = "distrt_ishift";
  distrt_grid *G = distrt_grid_check(fn, g);
  distrt_grid_check_axis(fn, G, axis);
  int64_t es = distrt_dtype_size(fn, dtype);
  distrt_check_count(fn, "count", count);
  distrt_check_buf(fn, "send", send, count);
  distrt_check_buf(fn, "recv", recv, count);
  distrt_check_no_overlap(fn, "send", send, count * es, "recv", recv,
                          count * es);
  struct shift s = shift_plan(G, axis, disp);
  distrt_breq *r = NULL;
  if (s.d == 0)
    copy(recv, send, count * es);
  else
    r = distrt_g.be->isendrecv(fn, distrt_grid_sub(fn, G, (int64_t)1 << axis),
                               send, s.dest, recv, s.src, count, dtype,
                               DISTRT_TAG_SHIFT);
  return req_add(fn, r);
}

int64_t distrt_iallgather(distrt_grid *g, int64_t axes, const void *send,
                          void *recv, int64_t count, int64_t dtype) {
  const char *fn = "distrt_iallgather";
  struct coll c = coll_begin(fn, g, axes, count, dtype);
  int64_t total = total_count(fn, "count * group size", count, c.size);
  distrt_check_buf(fn, "send", send, count);
  distrt_check_buf(fn, "recv", recv, total);
  distrt_check_no_overlap(fn, "send", send, count * c.es, "recv", recv,
                          total * c.es);
  distrt_breq *r = NULL;
  if (c.size == 1)
    copy(recv, send, count * c.es);
  else
    r = distrt_g.be->iallgather(fn, distrt_grid_sub(fn, c.g, axes), send, recv,
                                count, dtype);
  return req_add(fn, r);
}

int64_t distrt_ipermute(distrt_grid *g, const void *send, int64_t scount,
                        int64_t dest, void *recv, int64_t rcount, int64_t src,
                        int64_t dtype) {
  const char *fn = "distrt_ipermute";
  distrt_require_init(fn);
  distrt_grid *G = distrt_grid_check(fn, g);
  int64_t es = distrt_dtype_size(fn, dtype);
  if (dest < -1 || dest >= G->size || src < -1 || src >= G->size)
    distrt_fatal(fn, "partner out of range (dest %lld, source %lld, grid of "
                     "%lld)",
                 (long long)dest, (long long)src, (long long)G->size);
  distrt_check_count(fn, "scount", scount);
  distrt_check_count(fn, "rcount", rcount);
  if ((dest == G->rank) != (src == G->rank))
    distrt_fatal(fn, "a process that sends to itself must also receive from "
                     "itself (dest %lld, source %lld, rank %lld)",
                 (long long)dest, (long long)src, (long long)G->rank);
  distrt_breq *r = NULL;
  if (dest == G->rank) {
    if (scount != rcount)
      distrt_fatal(fn, "local copy of %lld elements into %lld",
                   (long long)scount, (long long)rcount);
    copy(recv, send, rcount * es);
    return req_add(fn, r);
  }
  if (dest >= 0 && scount > 0)
    distrt_check_buf(fn, "send", send, scount);
  if (src >= 0 && rcount > 0)
    distrt_check_buf(fn, "recv", recv, rcount);
  if (dest >= 0 && src >= 0)
    distrt_check_no_overlap(fn, "send", send, scount * es, "recv", recv,
                            rcount * es);
  if (dest >= 0 || src >= 0)
    r = distrt_g.be->ipermute(fn, G->icomm, send, scount, dest, recv, rcount,
                              src, dtype, DISTRT_TAG_PERMUTE);
  return req_add(fn, r);
}

void distrt_wait(int64_t request) {
  const char *fn = "distrt_wait";
  distrt_require_init(fn);
  for (int64_t i = 0; i < nreqs; ++i)
    if (reqs[i].id == request) {
      req_complete(fn, i);
      return;
    }
  if (request <= 0)
    distrt_fatal(fn, "invalid request id %lld (request ids are > 0)",
                 (long long)request);
  distrt_fatal(fn,
               "unknown request id %lld (never issued, or already completed)",
               (long long)request);
}

void distrt_waitall(void) {
  const char *fn = "distrt_waitall";
  distrt_require_init(fn);
  while (nreqs > 0)
    req_complete(fn, 0);
}

void distrt_requests_finish_all(const char *op) {
  while (nreqs > 0)
    req_complete(op, 0);
  free(reqs);
  reqs = NULL;
  capreqs = 0;
}
