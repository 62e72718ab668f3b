/*
 * onesided_exec.c - running the cells of distrt_onesided_matmul
 * (onesided.c builds them).
 *
 * One-sided: the cells run in order; the blocks of the next `prefetch`
 * cells are being fetched (backend rget, passive target) while the current
 * cell's product is computed, in a ring of prefetch + 1 slots.  A block this
 * process holds is used in place (GEMM with the tile's row length), never
 * copied.  With A or B stationary each partial product goes to the nearest
 * holder of its C block with an accumulate (MPI_SUM) from the slot's
 * product buffer, or into the `self` buffer when that holder is this
 * process.
 *
 * Two-sided fallback: the same cells and the same providers, but every
 * block this process needs is requested and served with two all-to-all-v
 * exchanges before the products, and the partial products travel with two
 * more after them (descriptors, then data, packed per peer in cell order).
 */
#include "onesided_internal.h"

#include <stdlib.h>
#include <string.h>

/* The interval of operand x's dimension d in cell c. */
static const os_ival *ival(const os_plan *p, const os_cell *c, int x, int d) {
  int idx = (int)p->X[x].idx[d];
  return &p->iv[idx][c->iv[idx]];
}

static int64_t max_len(const os_plan *p, int idx) {
  int64_t m = 1;
  for (int64_t t = 0; t < p->niv[idx]; ++t)
    if (p->iv[idx][t].len > m)
      m = p->iv[idx][t].len;
  return m;
}

static void gemm(const os_plan *p, int64_t m, int64_t n, int64_t k,
                 const char *a, int64_t lda, const char *b, int64_t ldb,
                 double beta, char *c, int64_t ldc) {
  if (p->dtype == DISTRT_F64)
    distrt_gemm_f64(m, n, k, 1.0, (const double *)a, lda, (const double *)b,
                    ldb, beta, (double *)c, ldc);
  else
    distrt_gemm_f32(m, n, k, 1.0, (const float *)a, lda, (const float *)b, ldb,
                    beta, (float *)c, ldc);
}

static void wait_comm(distrt_breq **r) {
  if (!*r)
    return;
  distrt_profile_enter(DISTRT_PROF_COMM);
  distrt_g.be->wait("distrt_onesided_matmul", *r);
  distrt_profile_leave();
  *r = NULL;
}

/* The product of cell c from its A and B blocks (a, lda), (b, ldb): into
 * the C tile (stationary C), else into `part` (ld n) and then delivered:
 * added into `self`, or accumulated at the nearest holder (*req), or, when
 * `deliver` is 0, left in `part` for the caller (the fallback). */
static void product(os_plan *p, const os_cell *c, const char *a, int64_t lda,
                    const char *b, int64_t ldb, char *part, distrt_breq **req,
                    int deliver) {
  const os_ival *I = &p->iv[OS_I][c->iv[OS_I]], *K = &p->iv[OS_K][c->iv[OS_K]],
                *J = &p->iv[OS_J][c->iv[OS_J]];
  const os_opnd *C = &p->X[OS_C];
  if (p->stationary == DISTRT_STATIONARY_C) {
    int64_t off =
        local_of(&C->L, 0, I->lo) * C->ext[1] + local_of(&C->L, 1, J->lo);
    gemm(p, I->len, J->len, K->len, a, lda, b, ldb, 1.0, p->acc + off * p->es,
         C->ext[1]);
    return;
  }
  if (req)
    wait_comm(req);
  gemm(p, I->len, J->len, K->len, a, lda, b, ldb, 0.0, part, J->len);
  if (!deliver)
    return;
  os_loc loc;
  os_locate(p, OS_C, I->lo, J->lo, &loc);
  if (loc.rank == p->g->rank) {
    os_add_block(p, p->self + loc.disp * p->es, loc.ld, part, I->len, J->len);
    return;
  }
  distrt_profile_enter(DISTRT_PROF_COMM);
  *req = distrt_g.be->raccumulate(p->op, p->acc_win, part, I->len, J->len,
                                  p->dtype, loc.rank, loc.disp, loc.ld);
  distrt_profile_leave();
  p->words += I->len * J->len;
}

/*===-- one-sided --------------------------------------------------------===*/

typedef struct {
  char *buf[2];        /* fetched A / B blocks */
  distrt_breq *get[2]; /* their gets in flight */
  const char *ptr[2];  /* the blocks: fetched or in place */
  int64_t ld[2];
  char *part;       /* product buffer (A or B stationary) */
  distrt_breq *acc; /* its accumulate in flight */
} os_slot;

static void issue(os_plan *p, const os_cell *c, os_slot *s) {
  for (int x = 0; x < 2; ++x) {
    const os_ival *R = ival(p, c, x, 0), *Cl = ival(p, c, x, 1);
    os_loc loc;
    os_locate(p, x, R->lo, Cl->lo, &loc);
    if (loc.rank == p->g->rank) {
      s->ptr[x] = p->X[x].tile + loc.disp * p->es;
      s->ld[x] = loc.ld;
      continue;
    }
    distrt_profile_enter(DISTRT_PROF_COMM);
    s->get[x] =
        distrt_g.be->rget(p->op, p->X[x].win, s->buf[x], R->len, Cl->len,
                          p->dtype, loc.rank, loc.disp, loc.ld);
    distrt_profile_leave();
    s->ptr[x] = s->buf[x];
    s->ld[x] = Cl->len;
    p->words += R->len * Cl->len;
  }
}

void os_run_onesided(os_plan *p) {
  if (p->ncells == 0)
    return;
  int64_t depth = p->prefetch < p->ncells ? p->prefetch : p->ncells;
  int64_t nslot = depth + 1;
  int64_t mi = max_len(p, OS_I), mk = max_len(p, OS_K), mj = max_len(p, OS_J);
  int64_t cap[2] = {mi * mk, mk * mj};
  os_slot *slot = calloc((size_t)nslot, sizeof *slot);
  if (!slot)
    distrt_fatal(p->op, "out of memory for %lld prefetch slots",
                 (long long)nslot);
  for (int64_t s = 0; s < nslot; ++s) {
    for (int x = 0; x < 2; ++x)
      if (x != p->stationary)
        slot[s].buf[x] = xmalloc(p->op, cap[x] * p->es);
    if (p->stationary != DISTRT_STATIONARY_C)
      slot[s].part = xmalloc(p->op, mi * mj * p->es);
  }
  for (int64_t t = 0; t < depth; ++t)
    issue(p, &p->cells[t], &slot[t % nslot]);
  for (int64_t t = 0; t < p->ncells; ++t) {
    if (t + depth < p->ncells)
      issue(p, &p->cells[t + depth], &slot[(t + depth) % nslot]);
    os_slot *s = &slot[t % nslot];
    wait_comm(&s->get[0]);
    wait_comm(&s->get[1]);
    product(p, &p->cells[t], s->ptr[0], s->ld[0], s->ptr[1], s->ld[1], s->part,
            &s->acc, 1);
  }
  for (int64_t s = 0; s < nslot; ++s) {
    wait_comm(&slot[s].acc);
    free(slot[s].buf[0]);
    free(slot[s].buf[1]);
    free(slot[s].part);
  }
  free(slot);
}

/*===-- two-sided fallback -----------------------------------------------===*/

enum { REQ_FIELDS = 5, ACC_FIELDS = 4 };

/* Per-peer counts -> packed offsets (prefix sums); returns the total. */
static int64_t prefix(const int64_t *cnt, int64_t *off, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) {
    off[i] = s;
    s += cnt[i];
  }
  return s;
}

typedef struct {
  int64_t *cnt, *off, *pos;    /* per peer: fields */
  int64_t *ecnt, *eoff, *epos; /* per peer: elements */
} os_counts;

static void counts_alloc(const os_plan *p, os_counts *k) {
  int64_t P = p->g->size;
  int64_t *all = calloc((size_t)(6 * P), sizeof(int64_t));
  if (!all)
    distrt_fatal(p->op, "out of memory for the fallback's counts");
  k->cnt = all;
  k->off = all + P;
  k->pos = all + 2 * P;
  k->ecnt = all + 3 * P;
  k->eoff = all + 4 * P;
  k->epos = all + 5 * P;
}

/* The fallback's gets: every remote A / B block of every cell; returns
 * the received data, *where[2 * cell + x] its element offset (-1: local). */
static char *fetch_all(os_plan *p, int64_t **where) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = p->g->size;
  os_counts k;
  counts_alloc(p, &k);
  int64_t *w = xmalloc(p->op, (int64_t)sizeof(int64_t) * 2 * p->ncells);
  int64_t *sreq = NULL, nreq = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t t = 0; t < p->ncells; ++t)
      for (int x = 0; x < 2; ++x) {
        const os_ival *R = ival(p, &p->cells[t], x, 0),
                      *Cl = ival(p, &p->cells[t], x, 1);
        os_loc loc;
        os_locate(p, x, R->lo, Cl->lo, &loc);
        w[2 * t + x] = -1;
        if (loc.rank == p->g->rank)
          continue;
        int64_t r = loc.rank;
        if (pass == 0) {
          k.cnt[r] += REQ_FIELDS;
          k.ecnt[r] += R->len * Cl->len;
          continue;
        }
        int64_t *q = sreq + k.pos[r];
        q[0] = x, q[1] = R->lo, q[2] = R->len, q[3] = Cl->lo, q[4] = Cl->len;
        k.pos[r] += REQ_FIELDS;
        w[2 * t + x] = k.epos[r];
        k.epos[r] += R->len * Cl->len;
      }
    if (pass == 0) {
      nreq = prefix(k.cnt, k.off, P);
      prefix(k.ecnt, k.eoff, P);
      memcpy(k.pos, k.off, (size_t)P * sizeof(int64_t));
      memcpy(k.epos, k.eoff, (size_t)P * sizeof(int64_t));
      sreq = xmalloc(p->op, (int64_t)sizeof(int64_t) * nreq);
    }
  }
  int64_t nrecv = prefix(k.ecnt, k.eoff, P);
  for (int64_t t = 0; t < P; ++t)
    p->words += k.ecnt[t];
  /* The requests this process serves, and the data it sends back. */
  int64_t *rcnt = k.pos, *scnt = k.epos; /* reused: per peer */
  be->alltoall(p->op, p->g->icomm, k.cnt, rcnt, 1, DISTRT_I64);
  int64_t nin = 0;
  for (int64_t s = 0; s < P; ++s)
    nin += rcnt[s];
  int64_t *rreq = xmalloc(p->op, (int64_t)sizeof(int64_t) * nin);
  be->alltoallv(p->op, p->g->icomm, sreq, k.cnt, rreq, rcnt, DISTRT_I64);
  int64_t nsend = 0;
  for (int64_t i = 0; i < nin; i += REQ_FIELDS)
    nsend += rreq[i + 2] * rreq[i + 4];
  char *sdata = xmalloc(p->op, nsend * p->es), *out = sdata;
  int64_t i = 0;
  for (int64_t s = 0; s < P; ++s) {
    scnt[s] = 0;
    for (int64_t end = i + rcnt[s]; i < end; i += REQ_FIELDS) {
      const os_opnd *X = &p->X[rreq[i]];
      int64_t rows = rreq[i + 2], cols = rreq[i + 4];
      const char *src = X->tile + (local_of(&X->L, 0, rreq[i + 1]) * X->ext[1] +
                                   local_of(&X->L, 1, rreq[i + 3])) *
                                      p->es;
      for (int64_t r = 0; r < rows; ++r, out += cols * p->es)
        memcpy(out, src + r * X->ext[1] * p->es, (size_t)(cols * p->es));
      scnt[s] += rows * cols;
    }
  }
  char *rdata = xmalloc(p->op, nrecv * p->es);
  be->alltoallv(p->op, p->g->icomm, sdata, scnt, rdata, k.ecnt, p->dtype);
  free(sreq);
  free(rreq);
  free(sdata);
  free(k.cnt);
  *where = w;
  return rdata;
}

/* The fallback's accumulates: the partial products for other processes
 * are computed straight into their place in the send buffer, then sent
 * with their C boxes (global indices) and added into the target's acc. */
static void products_and_push(os_plan *p, const char *rdata,
                              const int64_t *where) {
  const struct distrt_backend *be = distrt_g.be;
  const os_opnd *C = &p->X[OS_C];
  int64_t P = p->g->size;
  os_counts k;
  counts_alloc(p, &k);
  int64_t mi = max_len(p, OS_I), mj = max_len(p, OS_J);
  char *tmp = xmalloc(p->op, mi * mj * p->es), *sdata = NULL;
  int64_t *sdesc = NULL;
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t t = 0; t < p->ncells; ++t) {
      const os_cell *c = &p->cells[t];
      const os_ival *I = &p->iv[OS_I][c->iv[OS_I]],
                    *J = &p->iv[OS_J][c->iv[OS_J]];
      os_loc loc;
      os_locate(p, OS_C, I->lo, J->lo, &loc);
      int64_t r = loc.rank, local = r == p->g->rank;
      if (pass == 0) {
        if (!local) {
          k.cnt[r] += ACC_FIELDS;
          k.ecnt[r] += I->len * J->len;
        }
        continue;
      }
      const char *ab[2];
      int64_t ld[2];
      for (int x = 0; x < 2; ++x) {
        os_loc bl;
        os_locate(p, x, ival(p, c, x, 0)->lo, ival(p, c, x, 1)->lo, &bl);
        ab[x] = where[2 * t + x] < 0 ? p->X[x].tile + bl.disp * p->es
                                     : rdata + where[2 * t + x] * p->es;
        ld[x] = where[2 * t + x] < 0 ? bl.ld : ival(p, c, x, 1)->len;
      }
      if (p->stationary == DISTRT_STATIONARY_C) { /* into acc */
        product(p, c, ab[0], ld[0], ab[1], ld[1], NULL, NULL, 0);
        continue;
      }
      char *part = local ? tmp : sdata + k.epos[r] * p->es;
      product(p, c, ab[0], ld[0], ab[1], ld[1], part, NULL, 0);
      if (local) {
        os_add_block(p, p->self + loc.disp * p->es, loc.ld, tmp, I->len,
                     J->len);
        continue;
      }
      int64_t *d = sdesc + k.pos[r];
      d[0] = I->lo, d[1] = I->len, d[2] = J->lo, d[3] = J->len;
      k.pos[r] += ACC_FIELDS;
      k.epos[r] += I->len * J->len;
      p->words += I->len * J->len;
    }
    if (pass == 0) {
      int64_t nd = prefix(k.cnt, k.off, P), ne = prefix(k.ecnt, k.eoff, P);
      memcpy(k.pos, k.off, (size_t)P * sizeof(int64_t));
      memcpy(k.epos, k.eoff, (size_t)P * sizeof(int64_t));
      sdesc = xmalloc(p->op, (int64_t)sizeof(int64_t) * nd);
      sdata = xmalloc(p->op, ne * p->es);
    }
  }
  int64_t *rcnt = k.pos, *recnt = k.epos; /* reused: per peer */
  be->alltoall(p->op, p->g->icomm, k.cnt, rcnt, 1, DISTRT_I64);
  int64_t nd = 0, ne = 0;
  for (int64_t s = 0; s < P; ++s)
    nd += rcnt[s];
  int64_t *rdesc = xmalloc(p->op, (int64_t)sizeof(int64_t) * nd);
  be->alltoallv(p->op, p->g->icomm, sdesc, k.cnt, rdesc, rcnt, DISTRT_I64);
  for (int64_t s = 0, i = 0; s < P; ++s) {
    recnt[s] = 0;
    for (int64_t end = i + rcnt[s]; i < end; i += ACC_FIELDS)
      recnt[s] += rdesc[i + 1] * rdesc[i + 3];
    ne += recnt[s];
  }
  char *in = xmalloc(p->op, ne * p->es), *cur = in;
  be->alltoallv(p->op, p->g->icomm, sdata, k.ecnt, in, recnt, p->dtype);
  for (int64_t i = 0; i < nd; i += ACC_FIELDS) {
    int64_t off = local_of(&C->L, 0, rdesc[i]) * C->ext[1] +
                  local_of(&C->L, 1, rdesc[i + 2]);
    os_add_block(p, p->acc + off * p->es, C->ext[1], cur, rdesc[i + 1],
                 rdesc[i + 3]);
    cur += rdesc[i + 1] * rdesc[i + 3] * p->es;
  }
  free(in);
  free(rdesc);
  free(sdesc);
  free(sdata);
  free(tmp);
  free(k.cnt);
}

void os_run_twosided(os_plan *p) {
  int64_t *where = NULL;
  char *rdata = fetch_all(p, &where);
  products_and_push(p, rdata, where);
  free(rdata);
  free(where);
}
