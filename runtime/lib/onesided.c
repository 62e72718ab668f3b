/*
 * onesided.c - distrt_onesided_matmul: C (+)= A * B with one universal
 * one-sided algorithm ("Slicing Is All You Need"), for any layouts of A, B
 * and C on one grid; distrt_onesided_matmul_grids: on grids of the same
 * processes (each operand's owners are found on its own grid: rank r is
 * the same process in all of them); distrt_onesided_matmul_batched: one
 * such product per batch element, each process taking its own elements
 * (consecutive in its tiles) one after the other.
 *
 * Slicing: each loop index (i: rows of A and C, k: columns of A and rows of
 * B, j: columns of B and C) is cut at every block boundary of every layout
 * that partitions it.  An interval of each of two indices then lies in one
 * block of the operand that has both, so its part is a contiguous
 * rectangle in one tile of each of its holders.
 *
 * Panels: the stationary operand S fixes two indices; the third, the
 * "free" index f, is split into chunks (consecutive intervals, or parts of
 * one, up to a width the panel budget allows).  Per chunk this process
 * gathers, for each other input operand, the panel [S's local index x
 * chunk]: every element it needs from that operand for the chunk, dense in
 * S's local order (the local tile of any layout is a dense array, so "all
 * my rows x all my columns" is one matrix), fetched piece by piece (one
 * piece per S-interval and segment, adjacent pieces from one holder
 * merged) from the nearest holder (the owner digits on partitioned axes,
 * the fixed coordinate on fixed axes, this process's own coordinates on
 * replicated axes; no communication needed to find it), without a get when
 * this process holds them.  Then ONE GEMM per chunk: C tile += Apanel *
 * Bpanel (S = C), or the product panel Ppanel = A tile * Bpanel (S = A) /
 * Apanel * B tile (S = B), whose pieces are added (accumulate, MPI_SUM)
 * into the nearest holder of their C block.  Every remote element this
 * process needs is so fetched once (per chunk it belongs to), and every
 * product element is sent once.  When S is replicated (grid axes S does
 * not use) its replicas split the chunks: replica rho of r takes every
 * r-th.  With S = C the products go straight into the C tile (or a
 * temporary when C is replicated: the replicas' partial sums are then
 * added with an allreduce over C's replicating axes, and the old value of
 * C, for accumulate = 1, is added once, after that).  With S = A or B the
 * targets are a zeroed runtime buffer of the C tile's shape, summed over
 * C's replicating axes at the end and then copied (or added) into C, so
 * every replica of C ends equal.
 *
 * Everything is derived from coordinates and descriptors: no per-process
 * tables; the work is that of this process's chunks, the memory the
 * prefetch ring of panels (bounded by the budget).
 */
#include "onesided_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t words_total; /* distrt_onesided_words */

int64_t distrt_onesided_words(void) { return words_total; }

/*===-- validation and operands ------------------------------------------===*/

static const char *const os_names[3] = {"A", "B", "C"};

static void setup_operand(os_plan *p, int x, distrt_grid *g,
                          const int64_t *desc, const void *tile,
                          int64_t batch_mask) {
  static const int64_t idx[3][2] = {{OS_I, OS_K}, {OS_K, OS_J}, {OS_I, OS_J}};
  os_opnd *X = &p->X[x];
  X->g = g;
  parse_layout_as(p->op, g, desc, os_names[x], 0, &X->L);
  if (X->L.ndims != 2)
    distrt_fatal_collective(p->op,
                            "%s layout is %lld-D; expected a 2-D "
                            "layout",
                            os_names[x], (long long)X->L.ndims);
  for (int d = 0; d < 2; ++d)
    if (X->L.skew[d])
      distrt_fatal_collective(
          p->op,
          "%s layout: dimension %d is skewed; the one-sided "
          "matmul needs unskewed layouts (redistribute first)",
          os_names[x], d);
  int64_t stride[2];
  X->holder = is_holder(&X->L, g->coords);
  tile_shape(g, &X->L, g->coords, X->ext, stride);
  X->size = X->holder ? X->ext[0] * X->ext[1] : 0;
  digits_of(g, &X->L, g->coords, X->q);
  X->idx[0] = idx[x][0];
  X->idx[1] = idx[x][1];
  X->repl = 0;
  for (int64_t a = 0; a < g->ndims; ++a)
    if (X->L.role[a] == -1 && !(batch_mask >> a & 1))
      X->repl |= (int64_t)1 << a;
  X->base = X->tile = (char *)(uintptr_t)tile;
  if (X->size > 0)
    distrt_check_buf(p->op, os_names[x], tile, X->size * p->nbatch);
}

static void check_args(os_plan *p) {
  const char *op = p->op;
  os_opnd *A = &p->X[OS_A], *B = &p->X[OS_B], *C = &p->X[OS_C];
  if (A->L.n[0] != C->L.n[0] || A->L.n[1] != B->L.n[0] ||
      B->L.n[1] != C->L.n[1])
    distrt_fatal_collective(
        op,
        "extents do not match: A is %lld x %lld, B is %lld x %lld, "
        "C is %lld x %lld (expected M x K, K x N, M x N)",
        (long long)A->L.n[0], (long long)A->L.n[1], (long long)B->L.n[0],
        (long long)B->L.n[1], (long long)C->L.n[0], (long long)C->L.n[1]);
  for (int x = 0; x < 2; ++x)
    if (C->size > 0 && p->X[x].size > 0)
      distrt_check_no_overlap(op, "C", C->tile, C->size * p->nbatch * p->es,
                              os_names[x], p->X[x].tile,
                              p->X[x].size * p->nbatch * p->es);
}

void os_locate(const os_plan *p, int x, int64_t r, int64_t c, os_loc *out) {
  const os_opnd *X = &p->X[x];
  const layout_t *L = &X->L;
  const distrt_grid *g = X->g;
  int64_t co[LMAX], e[2] = {r, c}, ext[2];
  for (int64_t a = 0; a < g->ndims; ++a)
    co[a] = g->coords[a];
  for (int64_t i = 0; i < L->nfixed; ++i)
    co[L->faxis[i]] = L->fcoord[i];
  for (int d = 0; d < 2; ++d) {
    int64_t q = L->kind[d] == K_NONE ? 0 : owner_q(L, d, e[d]);
    ext[d] = local_extent(L, d, q);
    for (int64_t i = 0; i < L->naxes[d]; ++i) {
      int64_t a = L->axes[d][i];
      co[a] = q % g->dims[a];
      q /= g->dims[a];
    }
  }
  out->rank = distrt_grid_rank_of(g, co);
  out->ld = ext[1];
  out->disp = local_of(L, 0, r) * ext[1] + local_of(L, 1, c);
  if (x != OS_C)
    out->disp += p->batch * ext[0] * ext[1];
}

/*===-- slices and cells -------------------------------------------------===*/

/* Intervals of loop index x: cut at every block boundary of the layouts
 * that partition it. */
static void build_intervals(os_plan *p, int x) {
  int64_t n = 0, count = 0;
  for (int o = 0; o < 3; ++o)
    for (int d = 0; d < 2; ++d)
      if (p->X[o].idx[d] == x)
        n = p->X[o].L.n[d];
  for (int pass = 0; pass < 2; ++pass) {
    count = 0;
    for (int64_t lo = 0; lo < n;) {
      int64_t hi = n;
      for (int o = 0; o < 3; ++o)
        for (int d = 0; d < 2; ++d) {
          const layout_t *L = &p->X[o].L;
          if (p->X[o].idx[d] != x || L->kind[d] == K_NONE)
            continue;
          int64_t cut = (lo / L->bsz[d] + 1) * L->bsz[d];
          if (cut < hi)
            hi = cut;
        }
      if (pass == 1)
        p->iv[x][count] = (os_ival){lo, hi - lo};
      ++count;
      lo = hi;
    }
    if (pass == 0)
      p->iv[x] = xmalloc(p->op, (int64_t)sizeof(os_ival) * count);
  }
  p->niv[x] = count;
}

/* Whether interval t of loop index x lies in this process's tile of
 * operand o (the index is one of its dimensions). */
static int mine(const os_plan *p, int o, int x, int64_t t) {
  const os_opnd *X = &p->X[o];
  int d = X->idx[0] == x ? 0 : 1;
  return X->L.kind[d] == K_NONE || owner_q(&X->L, d, p->iv[x][t].lo) == X->q[d];
}

/* The panel budget in bytes: DISTRT_ONESIDED_PANEL_BYTES, else twice the
 * stationary tile, at least 64 MiB. */
static int64_t panel_budget(const os_plan *p) {
  const char *env = getenv("DISTRT_ONESIDED_PANEL_BYTES");
  if (env && *env) {
    char *end = NULL;
    long long v = strtoll(env, &end, 10);
    if (*end || v < 1)
      distrt_fatal_collective(p->op,
                              "DISTRT_ONESIDED_PANEL_BYTES='%s' is not a "
                              "positive integer",
                              env);
    return (int64_t)v;
  }
  int64_t b = 2 * p->X[p->stationary].size * p->es;
  return b > ((int64_t)64 << 20) ? b : (int64_t)64 << 20;
}

void os_panel_shape(const os_plan *p, const os_panel *d, int64_t len,
                    int64_t *rows, int64_t *cols) {
  int64_t el = p->X[p->stationary].ext[d->ds];
  *rows = d->fdim == 0 ? len : el;
  *cols = d->fdim == 0 ? el : len;
}

int64_t os_pieces(const os_plan *p, const os_panel *d, const os_chunk *ch,
                  os_piece *out) {
  const os_opnd *S = &p->X[p->stationary];
  int64_t n = 0, nseg = ch->s1 - ch->s0;
  for (int64_t u = 0; u < p->nmine[d->ds]; ++u) {
    const os_ival *E = &p->iv[d->e][p->mine[d->ds][u]];
    int64_t eoff = local_of(&S->L, d->ds, E->lo);
    for (int64_t s = ch->s0; s < ch->s1; ++s) {
      const os_ival *F = &p->seg[s];
      os_piece q;
      os_loc loc;
      if (d->fdim == 0) {
        q.rows = F->len, q.cols = E->len, q.prow = F->lo - ch->lo, q.pcol = eoff;
        os_locate(p, d->x, F->lo, E->lo, &loc);
      } else {
        q.rows = E->len, q.cols = F->len, q.prow = eoff, q.pcol = F->lo - ch->lo;
        os_locate(p, d->x, E->lo, F->lo, &loc);
      }
      q.rank = loc.rank, q.disp = loc.disp, q.ld = loc.ld, q.stage = -1;
      /* Merge into a recent piece when the union is one rectangle both in
       * the panel and in the holder's tile. */
      int merged = 0;
      for (int64_t b = n - 1; b >= 0 && b >= n - 1 - nseg && !merged; --b) {
        os_piece *r = &out[b];
        if (r->rank != q.rank || r->ld != q.ld)
          continue;
        if (r->pcol == q.pcol && r->cols == q.cols &&
            r->prow + r->rows == q.prow && r->disp + r->rows * r->ld == q.disp) {
          r->rows += q.rows;
          merged = 1;
        } else if (r->prow == q.prow && r->rows == q.rows &&
                   r->pcol + r->cols == q.pcol && r->disp + r->cols == q.disp &&
                   q.ld > 0 && r->disp / q.ld == q.disp / q.ld) {
          r->cols += q.cols;
          merged = 1;
        }
      }
      if (!merged)
        out[n++] = q;
    }
  }
  return n;
}

/* The panels, the segments of the free index and this process's chunks:
 * the chunk width is what the budget allows for the ring of nslot slots
 * (each: the gathered panels and the product panel), at most the free
 * extent (split among the replicas).  Staging is counted for the panels
 * whose rows run over the chunk (their pieces are narrower than the panel);
 * the others need it only for chunks of several segments and get it then
 * (at most as much again).  The
 * width depends only on the stationary tile's extents, the prefetch and
 * the budget, so the replicas of a tile agree on the chunks and split them
 * (replica rho takes every nrep-th).  With `offset` the list starts at the
 * first chunk at or after position rank * n / P of the free index (n its
 * extent, P the grid size), so that the processes start on different parts
 * of the operands (and so, usually, at different holders). */
static void build_chunks(os_plan *p, int64_t offset) {
  int s = (int)p->stationary;
  const os_opnd *S = &p->X[s];
  int f = 3 - (int)S->idx[0] - (int)S->idx[1];
  p->f = f;
  p->npan = 0;
  for (int x = 0; x < 3; ++x) {
    if (x == s)
      continue;
    os_panel d;
    d.x = x;
    d.fdim = p->X[x].idx[0] == f ? 0 : 1;
    d.e = (int)p->X[x].idx[1 - d.fdim];
    d.ds = S->idx[0] == d.e ? 0 : 1;
    if (x == OS_C)
      p->out = d;
    else
      p->pan[p->npan++] = d;
  }
  for (int d = 0; d < 2; ++d) {
    int x = (int)S->idx[d];
    p->mine[d] = xmalloc(p->op, (int64_t)sizeof(int64_t) * (p->niv[x] + 1));
    p->nmine[d] = 0;
    if (S->holder)
      for (int64_t t = 0; t < p->niv[x]; ++t)
        if (mine(p, s, x, t))
          p->mine[d][p->nmine[d]++] = t;
  }
  int64_t nf = 0;
  for (int64_t t = 0; t < p->niv[f]; ++t)
    nf += p->iv[f][t].len;
  int64_t nrep = distrt_grid_mask_size(S->g, S->repl);
  int64_t rho = distrt_grid_mask_rank(S->g, S->repl);
  int64_t per = 0; /* elements of one column of the ring's panels */
  for (int i = 0; i < p->npan; ++i)
    per += (p->pan[i].fdim == 0 ? 2 : 1) * S->ext[p->pan[i].ds];
  if (s != OS_C)
    per += (p->out.fdim == 0 ? 2 : 1) * S->ext[p->out.ds];
  int64_t budget = panel_budget(p), nslot = p->prefetch + 1, w = 1;
  for (;;) {
    w = per > 0 ? budget / (nslot * per * p->es) : nf;
    if (w >= 128 || nslot <= 2)
      break;
    nslot = 2;
  }
  int64_t cap = nrep > 1 ? (nf + nrep - 1) / nrep : nf;
  if (w > cap)
    w = cap;
  if (w < 1)
    w = 1;
  p->width = w;
  p->nslot = nslot;
  /* Segments: each interval split into near-equal parts of at most w. */
  p->nseg = 0;
  for (int64_t t = 0; t < p->niv[f]; ++t)
    p->nseg += distrt_ceil_div(p->iv[f][t].len, w);
  p->seg = xmalloc(p->op, (int64_t)sizeof(os_ival) * (p->nseg + 1));
  int64_t ns = 0;
  for (int64_t t = 0; t < p->niv[f]; ++t) {
    int64_t lo = p->iv[f][t].lo, len = p->iv[f][t].len;
    int64_t parts = distrt_ceil_div(len, w);
    /* Part q starts at floor(len * q / parts), without overflow. */
    for (int64_t q = 0; q < parts; ++q) {
      int64_t a = lo + (len / parts) * q + (len % parts) * q / parts;
      int64_t b =
          lo + (len / parts) * (q + 1) + (len % parts) * (q + 1) / parts;
      p->seg[ns++] = (os_ival){a, b - a};
    }
  }
  /* Chunks: consecutive segments, greedily, up to w; then this replica's. */
  p->chunks = xmalloc(p->op, (int64_t)sizeof(os_chunk) * (p->nseg + 1));
  p->nchunks = 0;
  if (S->size == 0)
    return;
  int64_t nall = 0;
  for (int64_t a = 0; a < p->nseg;) {
    int64_t b = a, len = 0;
    while (b < p->nseg && (b == a || len + p->seg[b].len <= w))
      len += p->seg[b++].len;
    if (nall++ % nrep == rho)
      p->chunks[p->nchunks++] = (os_chunk){p->seg[a].lo, len, a, b};
    a = b;
  }
  if (!offset || p->nchunks == 0)
    return;
  int64_t P = p->g->size, r = p->g->rank;
  int64_t want = (nf / P) * r + (nf % P) * r / P, start = 0;
  while (start < p->nchunks && p->chunks[start].lo < want)
    ++start;
  if (start == p->nchunks)
    return;
  os_chunk *rot = xmalloc(p->op, (int64_t)sizeof(os_chunk) * p->nchunks);
  for (int64_t i = 0; i < p->nchunks; ++i)
    rot[i] = p->chunks[(start + i) % p->nchunks];
  free(p->chunks);
  p->chunks = rot;
}

/*===-- the call ---------------------------------------------------------===*/

void os_add_block(const os_plan *p, char *dst, int64_t ld, const char *src,
                  int64_t sld, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r)
    add_row(dst + r * ld * p->es, src + r * sld * p->es, cols, p->dtype);
}

/* DISTRT_ONESIDED: unset, "" or "onesided": one-sided; "twosided": the
 * fallback.  A backend without RMA falls back too, and so does a grid on
 * which the MPI library cannot make windows (tried once per grid). */
enum { OS_REASON_BYTES = 320 };

static int want_twosided(const char *op, distrt_grid *g) {
  static int said;
  const char *env = getenv("DISTRT_ONESIDED");
  const char *why = NULL;
  if (env && *env && strcmp(env, "onesided") != 0) {
    if (strcmp(env, "twosided") != 0)
      distrt_fatal_collective(
          op,
          "DISTRT_ONESIDED must be onesided or twosided, got "
          "'%s'",
          env);
    why = "DISTRT_ONESIDED=twosided";
  }
  const struct distrt_backend *be = distrt_g.be;
  if (!why && (!be->win_create || !be->rget || !be->raccumulate))
    why = "the backend has no one-sided operations";
  if (!why && g->size > 1 && be->win_usable) {
    if (g->rma == 0) {
      char reason[OS_REASON_BYTES];
      g->rma = be->win_usable(op, g->icomm, reason, sizeof reason) ? 1 : -1;
      if (g->rma < 0 && g->rank == 0) {
        fprintf(stderr,
                "distrt: %s: one-sided path unavailable on this grid (%s); "
                "using the two-sided fallback\n",
                op, reason);
        fflush(stderr);
      }
    }
    return g->rma < 0;
  }
  if (why && !said && g->rank == 0) {
    fprintf(stderr,
            "distrt: %s: one-sided path unavailable (%s); using the "
            "two-sided fallback\n",
            op, why);
    fflush(stderr);
  }
  said = 1;
  return why != NULL;
}

/* Windows and the accumulation target; then the entry synchronisation. */
static void prepare(os_plan *p, int64_t accumulate) {
  os_opnd *C = &p->X[OS_C];
  int64_t cbytes = C->size * p->es;
  int64_t crep = distrt_grid_mask_size(p->g, C->repl);
  int useacc = p->stationary != DISTRT_STATIONARY_C;
  int rma = !p->twosided && p->g->size > 1;
  if (rma) {
    void *base[OS_MAX_SLOTS];
    int64_t bytes[OS_MAX_SLOTS];
    int scratch[OS_MAX_SLOTS] = {0}, role[OS_MAX_SLOTS];
    distrt_bwin *w[OS_MAX_SLOTS];
    int n = 0;
    for (int x = 0; x < 2; ++x)
      if (x != p->stationary) {
        base[n] = p->X[x].base;
        role[n] = x;
        bytes[n++] = p->X[x].size * p->nbatch * p->es;
      }
    if (useacc) {
      base[n] = NULL;
      scratch[n] = 1;
      role[n] = OS_C;
      bytes[n++] = cbytes;
    }
    os_windows(p->op, p->g, n, base, bytes, role, scratch, p->es, w);
    n = 0;
    for (int x = 0; x < 2; ++x)
      if (x != p->stationary)
        p->X[x].win = w[n++];
    if (useacc) {
      p->acc = base[n];
      p->acc_win = w[n];
    }
  } else if (useacc) {
    p->acc = os_scratch_get(p->op, p->g, cbytes, &p->acccap);
  }
  if (useacc) {
    memset(p->acc, 0, (size_t)cbytes);
    p->self = os_scratch_get(p->op, p->g, cbytes, &p->selfcap);
    memset(p->self, 0, (size_t)cbytes);
  } else if (crep > 1) {
    p->acc = os_scratch_get(p->op, p->g, cbytes, &p->acccap);
    memset(p->acc, 0, (size_t)cbytes);
  } else {
    p->acc = C->tile;
    if (!accumulate && cbytes > 0)
      memset(C->tile, 0, (size_t)cbytes);
  }
  for (int x = 0; x < 2; ++x)
    if (p->X[x].win)
      distrt_g.be->win_sync(p->op, p->X[x].win);
  if (p->acc_win)
    distrt_g.be->win_sync(p->op, p->acc_win);
  /* Every process has entered: its A and B are final, its target zeroed. */
  if (p->g->size > 1)
    distrt_g.be->barrier(p->op, p->g->icomm);
}

/* After the cells: every accumulate has landed; sum the replicas of C and
 * write C. */
static void finish(os_plan *p, int64_t accumulate) {
  os_opnd *C = &p->X[OS_C];
  const struct distrt_backend *be = distrt_g.be;
  if (p->acc_win)
    be->win_flush(p->op, p->acc_win);
  if (p->g->size > 1)
    be->barrier(p->op, p->g->icomm);
  if (p->acc_win)
    be->win_sync(p->op, p->acc_win);
  if (p->self)
    os_add_block(p, p->acc, C->ext[1], p->self, C->ext[1],
                 C->holder ? C->ext[0] : 0, C->ext[1]);
  if (p->acc != C->tile) {
    if (distrt_grid_mask_size(p->g, C->repl) > 1 && C->size > 0)
      be->allreduce(p->op, distrt_grid_sub(p->op, p->g, C->repl), p->acc,
                    C->size, p->dtype, DISTRT_SUM);
    if (C->size > 0) {
      if (accumulate)
        add_row(C->tile, p->acc, C->size, p->dtype);
      else
        memcpy(C->tile, p->acc, (size_t)(C->size * p->es));
    }
    if (!p->acc_win)
      os_scratch_put(p->g, p->acc, p->acccap);
  }
  os_scratch_put(p->g, p->self, p->selfcap);
}

/* The batch (distrt_onesided_matmul_batched): this process's count of
 * batch elements in *nb and the mask of the grid axes that deal them out
 * (0: every process has all of them) in *mask. */
static void parse_batch(const char *op, distrt_grid *gc, const int64_t *desc,
                        int64_t *nb, int64_t *mask) {
  *nb = 1;
  *mask = 0;
  if (!desc)
    return;
  layout_t L;
  parse_layout_as(op, gc, desc, "batch", LAYOUT_NO_SKEW | LAYOUT_NO_FIXED, &L);
  if (L.ndims != 1)
    distrt_fatal_collective(op, "the batch layout is %lld-D; expected 1-D",
                            (long long)L.ndims);
  int64_t ext[1], stride[1];
  tile_shape(gc, &L, gc->coords, ext, stride);
  *nb = ext[0];
  for (int64_t i = 0; i < L.naxes[0]; ++i)
    *mask |= (int64_t)1 << L.axes[0][i];
}

/* Grids of the same processes: each valid, laid on one communicator. */
static void check_grids(const char *op, distrt_grid *const *g) {
  for (int x = 0; x < 3; ++x)
    distrt_grid_check(op, g[x]);
  for (int x = 0; x < 2; ++x)
    if (g[x]->parent != g[OS_C]->parent || g[x]->size != g[OS_C]->size)
      distrt_fatal_collective(
          op,
          "%s's grid (%lld processes) and C's grid (%lld processes) are "
          "not grids of the same processes (one communicator)",
          os_names[x], (long long)g[x]->size, (long long)g[OS_C]->size);
  for (int x = 0; x < 2; ++x)
    distrt_grid_check_order(op, g[x], os_names[x], g[OS_C], "C");
}

static void onesided(const char *op, distrt_grid *const *grids, int64_t dtype,
                     const int64_t *desc_batch, const int64_t *desc_a,
                     const void *a, const int64_t *desc_b, const void *b,
                     const int64_t *desc_c, void *c, int64_t stationary,
                     int64_t offset, int64_t prefetch, int64_t accumulate) {
  distrt_require_init(op);
  check_grids(op, grids);
  distrt_reject_device(op, a, "the tile a", "the one-sided product");
  distrt_reject_device(op, b, "the tile b", "the one-sided product");
  distrt_reject_device(op, c, "the tile c", "the one-sided product");
  distrt_grid *g = grids[OS_C];
  if (dtype != DISTRT_F32 && dtype != DISTRT_F64)
    distrt_fatal_collective(
        op, "dtype is %lld (%s); expected DISTRT_F32 or DISTRT_F64",
        (long long)dtype, distrt_dtype_name(dtype));
  if (stationary < DISTRT_STATIONARY_A || stationary > DISTRT_STATIONARY_C)
    distrt_fatal_collective(
        op,
        "stationary is %lld; expected DISTRT_STATIONARY_A (0), "
        "_B (1) or _C (2)",
        (long long)stationary);
  /* The compiler's bound (kMaxPrefetch): deeper prefetch only takes
   * memory, and the slots times a panel column must fit in 64 bits. */
  if (prefetch < 1 || prefetch > 16)
    distrt_fatal_collective(op, "prefetch is %lld; expected 1 to 16",
                            (long long)prefetch);
  if ((offset != 0 && offset != 1) || (accumulate != 0 && accumulate != 1))
    distrt_fatal_collective(
        op, "offset is %lld and accumulate %lld; expected 0 or 1",
        (long long)offset, (long long)accumulate);
  os_plan p;
  memset(&p, 0, sizeof p);
  p.op = op;
  p.g = g;
  p.dtype = dtype;
  p.es = distrt_dtype_size(op, dtype);
  p.stationary = stationary;
  p.prefetch = prefetch;
  int64_t mask;
  parse_batch(op, g, desc_batch, &p.nbatch, &mask);
  if (mask && (grids[OS_A] != g || grids[OS_B] != g))
    distrt_fatal_collective(op, "a batch dealt out over grid axes needs A, B "
                                "and C on one grid");
  setup_operand(&p, OS_A, grids[OS_A], desc_a, a, mask);
  setup_operand(&p, OS_B, grids[OS_B], desc_b, b, mask);
  setup_operand(&p, OS_C, g, desc_c, c, mask);
  check_args(&p);
  distrt_grid_set_release_hook(os_windows_release);
  p.twosided = want_twosided(op, g);
  for (int x = 0; x < 3; ++x)
    build_intervals(&p, x);
  build_chunks(&p, offset);
  /* The batch elements one after the other; with a dealt-out batch every
   * process takes part in as many calls as the process with the most
   * (idle ones hold and compute nothing then). */
  int64_t rounds = p.nbatch;
  if (mask && g->size > 1)
    distrt_g.be->allreduce(op, g->icomm, &rounds, 1, DISTRT_I64, DISTRT_MAX);
  os_opnd *C = &p.X[OS_C];
  int64_t csize = C->size, nchunks = p.nchunks;
  int cholder = C->holder;
  for (p.batch = 0; p.batch < rounds; ++p.batch) {
    int idle = p.batch >= p.nbatch;
    for (int x = 0; x < 3; ++x) {
      p.X[x].tile = p.X[x].base + (idle ? 0 : p.batch) * p.X[x].size * p.es;
      p.X[x].win = NULL;
    }
    C->size = idle ? 0 : csize;
    C->holder = idle ? 0 : cholder;
    p.nchunks = idle ? 0 : nchunks;
    p.acc = p.self = NULL;
    p.acc_win = NULL;
    prepare(&p, accumulate);
    if (p.twosided)
      os_run_twosided(&p);
    else
      os_run_onesided(&p);
    finish(&p, accumulate);
  }
  os_windows_trim(op, g);
  words_total += p.words;
  for (int x = 0; x < 3; ++x)
    free(p.iv[x]);
  free(p.mine[0]);
  free(p.mine[1]);
  free(p.seg);
  free(p.chunks);
}

void distrt_onesided_matmul(distrt_grid *g, int64_t dtype,
                            const int64_t *desc_a, const void *a,
                            const int64_t *desc_b, const void *b,
                            const int64_t *desc_c, void *c, int64_t stationary,
                            int64_t offset, int64_t prefetch,
                            int64_t accumulate) {
  distrt_grid *grids[3] = {g, g, g};
  onesided("distrt_onesided_matmul", grids, dtype, NULL, desc_a, a, desc_b, b,
           desc_c, c, stationary, offset, prefetch, accumulate);
}

void distrt_onesided_matmul_grids(distrt_grid *ga, distrt_grid *gb,
                                  distrt_grid *gc, int64_t dtype,
                                  const int64_t *desc_a, const void *a,
                                  const int64_t *desc_b, const void *b,
                                  const int64_t *desc_c, void *c,
                                  int64_t stationary, int64_t offset,
                                  int64_t prefetch, int64_t accumulate) {
  distrt_grid *grids[3] = {ga, gb, gc};
  onesided("distrt_onesided_matmul_grids", grids, dtype, NULL, desc_a, a,
           desc_b, b, desc_c, c, stationary, offset, prefetch, accumulate);
}

void distrt_onesided_matmul_batched(
    distrt_grid *ga, distrt_grid *gb, distrt_grid *gc, int64_t dtype,
    const int64_t *desc_batch, const int64_t *desc_a, const void *a,
    const int64_t *desc_b, const void *b, const int64_t *desc_c, void *c,
    int64_t stationary, int64_t offset, int64_t prefetch, int64_t accumulate) {
  distrt_grid *grids[3] = {ga, gb, gc};
  const char *op = "distrt_onesided_matmul_batched";
  if (!desc_batch)
    distrt_fatal_collective(op, "the batch descriptor is NULL");
  onesided(op, grids, dtype, desc_batch, desc_a, a, desc_b, b, desc_c, c,
           stationary, offset, prefetch, accumulate);
}
