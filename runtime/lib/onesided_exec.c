/*
 * onesided_exec.c - running the chunks of distrt_onesided_matmul
 * (onesided.c builds them and their panels).
 *
 * One chunk (an interval of the free index) at a time, one GEMM each:
 *   stationary C:  C tile      += Apanel [my C rows x chunk]
 *                                 * Bpanel [chunk x my C columns]
 *   stationary A:  Ppanel [my A rows x chunk] = A tile * Bpanel [my A
 *                  columns x chunk], its pieces accumulated into C
 *   stationary B:  Ppanel [chunk x my B columns] = Apanel [chunk x my B
 *                  rows] * B tile, likewise
 * A gathered panel is dense in the stationary tile's local order; its
 * pieces (one per interval of the stationary's local index and segment of
 * the chunk, adjacent ones from one holder merged) are fetched once per
 * chunk, so no remote element is fetched twice by one process.
 *
 * One-sided: the panels of the next `depth` chunks are being fetched
 * (backend rget, passive target) while the current chunk's GEMM runs, in a
 * ring of depth + 1 slots.  A piece spanning the panel's full width lands
 * in place; a narrower one in a staging buffer and is copied after the
 * wait; a piece this process holds is copied from its tile, and a panel
 * made only of those, laid out like the tile, is used in place.  Product
 * pieces go to the nearest holder of their C block with an accumulate
 * (MPI_SUM, packed when narrower than the panel), or into `self` when that
 * holder is this process.
 *
 * Two-sided fallback: the same chunks and pieces, but every remote piece is
 * requested and served with two all-to-all-v exchanges before the
 * products, and the product pieces travel with two more after them
 * (descriptors, then data, packed per peer in chunk order).
 */
#include "onesided_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* rows x cols elements from src (row length sld) to dst (row length dld). */
static void copy_block(const os_plan *p, char *dst, int64_t dld,
                       const char *src, int64_t sld, int64_t rows,
                       int64_t cols) {
  for (int64_t r = 0; r < rows; ++r)
    memcpy(dst + r * dld * p->es, src + r * sld * p->es,
           (size_t)(cols * p->es));
}

/* The most pieces a panel of any of this process's chunks has. */
static int64_t max_pieces(const os_plan *p, const os_panel *d) {
  int64_t m = 0;
  for (int64_t c = 0; c < p->nchunks; ++c)
    if (p->chunks[c].s1 - p->chunks[c].s0 > m)
      m = p->chunks[c].s1 - p->chunks[c].s0;
  int64_t n = m * p->nmine[d->ds];
  return n > 0 ? n : 1;
}

/* Whether the pieces are all this process's and laid out like its tile of
 * operand x (panel (r, c) at base + r * ld + c there): then the panel is
 * used in place. */
static int in_place(const os_plan *p, const os_piece *pc, int64_t n,
                    int64_t *base, int64_t *ld) {
  if (n == 0)
    return 0;
  *ld = pc[0].ld;
  *base = pc[0].disp - pc[0].prow * pc[0].ld - pc[0].pcol;
  for (int64_t i = 0; i < n; ++i)
    if (pc[i].rank != p->g->rank || pc[i].ld != *ld ||
        pc[i].disp - pc[i].prow * pc[i].ld - pc[i].pcol != *base)
      return 0;
  return *base >= 0;
}

/* The chunk's product from its panels: into acc (stationary C), else into
 * part (row length: the product panel's columns). */
static void product(const os_plan *p, const os_chunk *ch, const char *const *pp,
                    const int64_t *pld, char *part) {
  const os_opnd *A = &p->X[OS_A], *B = &p->X[OS_B], *C = &p->X[OS_C];
  if (p->stationary == DISTRT_STATIONARY_C)
    gemm(p, C->ext[0], C->ext[1], ch->len, pp[0], pld[0], pp[1], pld[1], 1.0,
         p->acc, C->ext[1]);
  else if (p->stationary == DISTRT_STATIONARY_A)
    gemm(p, A->ext[0], ch->len, A->ext[1], A->tile, A->ext[1], pp[0], pld[0],
         0.0, part, ch->len);
  else
    gemm(p, ch->len, B->ext[1], B->ext[0], pp[0], pld[0], B->tile, B->ext[1],
         0.0, part, B->ext[1]);
}

/*===-- one-sided --------------------------------------------------------===*/

typedef struct {
  char *buf, *stage;  /* the panel and its staging (or packing) buffer */
  os_piece *pc;       /* its pieces */
  int64_t npc;
  distrt_breq **req;  /* per piece: its get / accumulate in flight */
  const char *ptr;    /* the panel: buf or in place */
  int64_t ld;
  int64_t scap;       /* elements of stage */
  int64_t bcap, sbytes; /* bytes of buf and stage (pooled, os_scratch_get) */
} os_pslot;

/* Makes room for `need` elements of staging (nothing of it in flight). */
static void stage_room(const os_plan *p, os_pslot *s, int64_t need) {
  if (need <= s->scap)
    return;
  os_scratch_put(p->g, s->stage, s->sbytes);
  s->stage = os_scratch_get(p->op, p->g, need * p->es, &s->sbytes);
  s->scap = s->sbytes / p->es;
}

/* Elements of the slot's remote pieces that are narrower than the panel
 * (`cols` wide), which land in staging rather than in place. */
static int64_t staged_elements(const os_plan *p, const os_pslot *s,
                               int64_t cols) {
  int64_t n = 0;
  for (int64_t i = 0; i < s->npc; ++i)
    if (s->pc[i].rank != p->g->rank && s->pc[i].cols != cols)
      n += s->pc[i].rows * s->pc[i].cols;
  return n;
}

typedef struct {
  os_pslot g[2]; /* gathered panels */
  os_pslot o;    /* product panel (A or B stationary) */
} os_slot;

static void pslot_alloc(const os_plan *p, const os_panel *d, os_pslot *s) {
  int64_t rows, cols, np = max_pieces(p, d);
  os_panel_shape(p, d, p->width, &rows, &cols);
  s->buf = os_scratch_get(p->op, p->g, rows * cols * p->es, &s->bcap);
  s->stage = NULL;
  s->scap = s->sbytes = 0;
  if (d->fdim == 0)
    stage_room(p, s, rows * cols);
  s->pc = xmalloc(p->op, (int64_t)sizeof(os_piece) * np);
  s->req = calloc((size_t)np, sizeof *s->req);
  if (!s->req)
    distrt_fatal(p->op, "out of memory for %lld requests", (long long)np);
}

static void pslot_free(const os_plan *p, os_pslot *s) {
  for (int64_t i = 0; s->req && i < s->npc; ++i)
    wait_comm(&s->req[i]);
  os_scratch_put(p->g, s->buf, s->bcap);
  os_scratch_put(p->g, s->stage, s->sbytes);
  free(s->pc);
  free(s->req);
}

/* Starts the gets of panel d for chunk ch. */
static void gather(os_plan *p, const os_panel *d, const os_chunk *ch,
                   os_pslot *s) {
  const os_opnd *X = &p->X[d->x];
  int64_t rows, cols, base, ld;
  os_panel_shape(p, d, ch->len, &rows, &cols);
  s->npc = os_pieces(p, d, ch, s->pc);
  if (in_place(p, s->pc, s->npc, &base, &ld)) {
    s->ptr = X->base + base * p->es;
    s->ld = ld;
    s->npc = 0;
    return;
  }
  s->ptr = s->buf;
  s->ld = cols;
  stage_room(p, s, staged_elements(p, s, cols));
  int64_t st = 0;
  for (int64_t i = 0; i < s->npc; ++i) {
    os_piece *q = &s->pc[i];
    char *dst = s->buf + (q->prow * cols + q->pcol) * p->es;
    if (q->rank == p->g->rank) {
      copy_block(p, dst, cols, X->base + q->disp * p->es, q->ld, q->rows,
                 q->cols);
      continue;
    }
    if (q->cols != cols) {
      q->stage = st;
      dst = s->stage + st * p->es;
      st += q->rows * q->cols;
    }
    distrt_profile_enter(DISTRT_PROF_COMM);
    s->req[i] = distrt_g.be->rget(p->op, X->win, dst, q->rows, q->cols,
                                  p->dtype, q->rank, q->disp, q->ld);
    distrt_profile_leave();
    p->words += q->rows * q->cols;
  }
}

/* Completes the gets of a gathered panel (and places the staged pieces). */
static void gather_wait(os_plan *p, os_pslot *s) {
  for (int64_t i = 0; i < s->npc; ++i) {
    os_piece *q = &s->pc[i];
    wait_comm(&s->req[i]);
    if (q->stage >= 0)
      copy_block(p, s->buf + (q->prow * s->ld + q->pcol) * p->es, s->ld,
                 s->stage + q->stage * p->es, q->cols, q->rows, q->cols);
  }
  s->npc = 0;
}

/* Delivers the product panel of chunk ch (in s->buf). */
static void scatter(os_plan *p, const os_chunk *ch, os_pslot *s) {
  int64_t rows, cols, st = 0;
  os_panel_shape(p, &p->out, ch->len, &rows, &cols);
  s->npc = os_pieces(p, &p->out, ch, s->pc);
  stage_room(p, s, staged_elements(p, s, cols));
  for (int64_t i = 0; i < s->npc; ++i) {
    const os_piece *q = &s->pc[i];
    const char *src = s->buf + (q->prow * cols + q->pcol) * p->es;
    if (q->rank == p->g->rank) {
      os_add_block(p, p->self + q->disp * p->es, q->ld, src, cols, q->rows,
                   q->cols);
      continue;
    }
    if (q->cols != cols) {
      char *pk = s->stage + st * p->es;
      copy_block(p, pk, q->cols, src, cols, q->rows, q->cols);
      src = pk;
      st += q->rows * q->cols;
    }
    distrt_profile_enter(DISTRT_PROF_COMM);
    s->req[i] = distrt_g.be->raccumulate(p->op, p->acc_win, src, q->rows,
                                         q->cols, p->dtype, q->rank, q->disp,
                                         q->ld);
    distrt_profile_leave();
    p->words += q->rows * q->cols;
  }
}

static void issue(os_plan *p, const os_chunk *ch, os_slot *s) {
  for (int i = 0; i < p->npan; ++i)
    gather(p, &p->pan[i], ch, &s->g[i]);
}

void os_run_onesided(os_plan *p) {
  if (p->nchunks == 0)
    return;
  int64_t depth = p->nslot - 1 < p->nchunks ? p->nslot - 1 : p->nchunks;
  int64_t nslot = depth + 1;
  int out = p->stationary != DISTRT_STATIONARY_C;
  os_slot *slot = calloc((size_t)nslot, sizeof *slot);
  if (!slot)
    distrt_fatal(p->op, "out of memory for %lld prefetch slots",
                 (long long)nslot);
  for (int64_t s = 0; s < nslot; ++s) {
    for (int i = 0; i < p->npan; ++i)
      pslot_alloc(p, &p->pan[i], &slot[s].g[i]);
    if (out)
      pslot_alloc(p, &p->out, &slot[s].o);
  }
  for (int64_t t = 0; t < depth; ++t)
    issue(p, &p->chunks[t], &slot[t % nslot]);
  for (int64_t t = 0; t < p->nchunks; ++t) {
    if (t + depth < p->nchunks)
      issue(p, &p->chunks[t + depth], &slot[(t + depth) % nslot]);
    os_slot *s = &slot[t % nslot];
    const char *pp[2];
    int64_t pld[2];
    for (int i = 0; i < p->npan; ++i) {
      gather_wait(p, &s->g[i]);
      pp[i] = s->g[i].ptr;
      pld[i] = s->g[i].ld;
    }
    if (out)
      for (int64_t i = 0; i < s->o.npc; ++i)
        wait_comm(&s->o.req[i]);
    product(p, &p->chunks[t], pp, pld, out ? s->o.buf : NULL);
    if (out)
      scatter(p, &p->chunks[t], &s->o);
  }
  for (int64_t s = 0; s < nslot; ++s) {
    for (int i = 0; i < p->npan; ++i)
      pslot_free(p, &slot[s].g[i]);
    if (out)
      pslot_free(p, &slot[s].o);
  }
  free(slot);
}

/*===-- two-sided fallback -----------------------------------------------===*/

enum { REQ_FIELDS = 4, ACC_FIELDS = 3 };

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

static os_piece *pieces_alloc(const os_plan *p, const os_panel *d) {
  return xmalloc(p->op, (int64_t)sizeof(os_piece) * max_pieces(p, d));
}

/* The fallback's gets: every remote piece of every gathered panel of
 * every chunk, in that order; returns the received data, *where[n] the
 * element offset of the n-th remote piece in it. */
static char *fetch_all(os_plan *p, int64_t **where) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t P = p->g->size;
  os_counts k;
  counts_alloc(p, &k);
  os_piece *pc[2] = {NULL, NULL};
  for (int i = 0; i < p->npan; ++i)
    pc[i] = pieces_alloc(p, &p->pan[i]);
  int64_t *w = NULL, nw = 0, *sreq = NULL, nreq = 0;
  for (int pass = 0; pass < 2; ++pass) {
    nw = 0;
    for (int64_t t = 0; t < p->nchunks; ++t)
      for (int i = 0; i < p->npan; ++i) {
        int64_t n = os_pieces(p, &p->pan[i], &p->chunks[t], pc[i]), base, ld;
        if (in_place(p, pc[i], n, &base, &ld))
          continue;
        for (int64_t u = 0; u < n; ++u) {
          const os_piece *q = &pc[i][u];
          int64_t r = q->rank;
          if (r == p->g->rank)
            continue;
          if (pass == 0) {
            k.cnt[r] += REQ_FIELDS;
            k.ecnt[r] += q->rows * q->cols;
            ++nw;
            continue;
          }
          int64_t *f = sreq + k.pos[r];
          f[0] = p->pan[i].x, f[1] = q->disp, f[2] = q->rows, f[3] = q->cols;
          k.pos[r] += REQ_FIELDS;
          w[nw++] = k.epos[r];
          k.epos[r] += q->rows * q->cols;
        }
      }
    if (pass == 0) {
      nreq = prefix(k.cnt, k.off, P);
      prefix(k.ecnt, k.eoff, P);
      memcpy(k.pos, k.off, (size_t)P * sizeof(int64_t));
      memcpy(k.epos, k.eoff, (size_t)P * sizeof(int64_t));
      sreq = xmalloc(p->op, (int64_t)sizeof(int64_t) * (nreq + 1));
      w = xmalloc(p->op, (int64_t)sizeof(int64_t) * (nw + 1));
    }
  }
  int64_t nrecv = prefix(k.ecnt, k.eoff, P);
  p->words += nrecv;
  /* The requests this process serves, and the data it sends back. */
  int64_t *rcnt = k.pos, *scnt = k.epos; /* reused: per peer */
  be->alltoall(p->op, p->g->icomm, k.cnt, rcnt, 1, DISTRT_I64);
  int64_t nin = 0;
  for (int64_t s = 0; s < P; ++s)
    nin += rcnt[s];
  int64_t *rreq = xmalloc(p->op, (int64_t)sizeof(int64_t) * (nin + 1));
  be->alltoallv(p->op, p->g->icomm, sreq, k.cnt, rreq, rcnt, DISTRT_I64);
  int64_t nsend = 0;
  for (int64_t i = 0; i < nin; i += REQ_FIELDS)
    nsend += rreq[i + 2] * rreq[i + 3];
  char *sdata = xmalloc(p->op, nsend * p->es), *out = sdata;
  int64_t i = 0;
  for (int64_t s = 0; s < P; ++s) {
    scnt[s] = 0;
    for (int64_t end = i + rcnt[s]; i < end; i += REQ_FIELDS) {
      const os_opnd *X = &p->X[rreq[i]];
      int64_t rows = rreq[i + 2], cols = rreq[i + 3];
      copy_block(p, out, cols, X->base + rreq[i + 1] * p->es, X->ext[1], rows,
                 cols);
      out += rows * cols * p->es;
      scnt[s] += rows * cols;
    }
  }
  char *rdata = xmalloc(p->op, nrecv * p->es);
  be->alltoallv(p->op, p->g->icomm, sdata, scnt, rdata, k.ecnt, p->dtype);
  free(sreq);
  free(rreq);
  free(sdata);
  free(k.cnt);
  free(pc[0]);
  free(pc[1]);
  *where = w;
  return rdata;
}

/* The fallback's products: each chunk's panels are assembled from the
 * tiles and the received data, multiplied, and (A or B stationary) the
 * product pieces for other processes packed, sent with their places in
 * the target's C tile and added into its acc. */
static void products_and_push(os_plan *p, const char *rdata,
                              const int64_t *where) {
  const struct distrt_backend *be = distrt_g.be;
  const os_opnd *C = &p->X[OS_C];
  int64_t P = p->g->size;
  int out = p->stationary != DISTRT_STATIONARY_C;
  os_counts k;
  counts_alloc(p, &k);
  os_piece *pc[2] = {NULL, NULL}, *opc = NULL;
  char *buf[2] = {NULL, NULL}, *part = NULL, *sdata = NULL;
  int64_t *sdesc = NULL, rows, cols;
  for (int i = 0; i < p->npan; ++i) {
    pc[i] = pieces_alloc(p, &p->pan[i]);
    os_panel_shape(p, &p->pan[i], p->width, &rows, &cols);
    buf[i] = xmalloc(p->op, rows * cols * p->es);
  }
  if (out) {
    opc = pieces_alloc(p, &p->out);
    os_panel_shape(p, &p->out, p->width, &rows, &cols);
    part = xmalloc(p->op, rows * cols * p->es);
  }
  for (int pass = out ? 0 : 1; pass < 2; ++pass) {
    int64_t nw = 0;
    for (int64_t t = 0; t < p->nchunks; ++t) {
      const os_chunk *ch = &p->chunks[t];
      if (pass == 1) {
        const char *pp[2];
        int64_t pld[2], base, ld;
        for (int i = 0; i < p->npan; ++i) {
          const os_panel *d = &p->pan[i];
          const os_opnd *X = &p->X[d->x];
          int64_t n = os_pieces(p, d, ch, pc[i]);
          if (in_place(p, pc[i], n, &base, &ld)) {
            pp[i] = X->base + base * p->es;
            pld[i] = ld;
            continue;
          }
          os_panel_shape(p, d, ch->len, &rows, &cols);
          pp[i] = buf[i];
          pld[i] = cols;
          for (int64_t u = 0; u < n; ++u) {
            const os_piece *q = &pc[i][u];
            char *dst = buf[i] + (q->prow * cols + q->pcol) * p->es;
            if (q->rank == p->g->rank)
              copy_block(p, dst, cols, X->base + q->disp * p->es, q->ld,
                         q->rows, q->cols);
            else
              copy_block(p, dst, cols, rdata + where[nw++] * p->es, q->cols,
                         q->rows, q->cols);
          }
        }
        product(p, ch, pp, pld, part);
      }
      if (!out)
        continue;
      os_panel_shape(p, &p->out, ch->len, &rows, &cols);
      int64_t n = os_pieces(p, &p->out, ch, opc);
      for (int64_t u = 0; u < n; ++u) {
        const os_piece *q = &opc[u];
        int64_t r = q->rank;
        const char *src = part + (q->prow * cols + q->pcol) * p->es;
        if (pass == 0) {
          if (r != p->g->rank) {
            k.cnt[r] += ACC_FIELDS;
            k.ecnt[r] += q->rows * q->cols;
          }
          continue;
        }
        if (r == p->g->rank) {
          os_add_block(p, p->self + q->disp * p->es, q->ld, src, cols, q->rows,
                       q->cols);
          continue;
        }
        copy_block(p, sdata + k.epos[r] * p->es, q->cols, src, cols, q->rows,
                   q->cols);
        int64_t *d = sdesc + k.pos[r];
        d[0] = q->disp, d[1] = q->rows, d[2] = q->cols;
        k.pos[r] += ACC_FIELDS;
        k.epos[r] += q->rows * q->cols;
        p->words += q->rows * q->cols;
      }
    }
    if (pass == 0) {
      int64_t nd = prefix(k.cnt, k.off, P), ne = prefix(k.ecnt, k.eoff, P);
      memcpy(k.pos, k.off, (size_t)P * sizeof(int64_t));
      memcpy(k.epos, k.eoff, (size_t)P * sizeof(int64_t));
      sdesc = xmalloc(p->op, (int64_t)sizeof(int64_t) * (nd + 1));
      sdata = xmalloc(p->op, (ne + 1) * p->es);
    }
  }
  free(buf[0]);
  free(buf[1]);
  free(part);
  free(pc[0]);
  free(pc[1]);
  free(opc);
  if (out) {
    int64_t *rcnt = k.pos, *recnt = k.epos; /* reused: per peer */
    be->alltoall(p->op, p->g->icomm, k.cnt, rcnt, 1, DISTRT_I64);
    int64_t nd = 0, ne = 0;
    for (int64_t s = 0; s < P; ++s)
      nd += rcnt[s];
    int64_t *rdesc = xmalloc(p->op, (int64_t)sizeof(int64_t) * (nd + 1));
    be->alltoallv(p->op, p->g->icomm, sdesc, k.cnt, rdesc, rcnt, DISTRT_I64);
    for (int64_t s = 0, i = 0; s < P; ++s) {
      recnt[s] = 0;
      for (int64_t end = i + rcnt[s]; i < end; i += ACC_FIELDS)
        recnt[s] += rdesc[i + 1] * rdesc[i + 2];
      ne += recnt[s];
    }
    char *in = xmalloc(p->op, (ne + 1) * p->es), *cur = in;
    be->alltoallv(p->op, p->g->icomm, sdata, k.ecnt, in, recnt, p->dtype);
    for (int64_t i = 0; i < nd; i += ACC_FIELDS) {
      os_add_block(p, p->acc + rdesc[i] * p->es, C->ext[1], cur, rdesc[i + 2],
                   rdesc[i + 1], rdesc[i + 2]);
      cur += rdesc[i + 1] * rdesc[i + 2] * p->es;
    }
    free(in);
    free(rdesc);
  }
  free(sdesc);
  free(sdata);
  free(k.cnt);
}

void os_run_twosided(os_plan *p) {
  int64_t *where = NULL;
  char *rdata = fetch_all(p, &where);
  products_and_push(p, rdata, where);
  free(rdata);
  free(where);
}
