/*
 * onesided_win.c - the one-sided windows distrt_onesided_matmul keeps per
 * grid, so that repeated calls on the same tiles create none, and its
 * pooled scratch buffers.
 *
 * Creating (and freeing) a window is collective over the grid, but whether
 * a process finds a cached window for a tile is local (its own base pointer
 * and size).  Every call therefore agrees first, with one small allreduce
 * over the grid: a slot reuses its window only when every process found a
 * cached window with the same sequence number (windows are created in the
 * same order everywhere, so equal numbers mean the same window); otherwise
 * every process creates a new one.  Eviction is least recently used with
 * stamps that advance identically on every process (hits are collective
 * decisions), so every process frees the same windows in the same order.
 * The grid's windows are freed when the grid is (distrt_grid_free, or
 * distrt_finalize through it): the release hook registered with
 * distrt_grid_set_release_hook.
 *
 * Scratch buffers (the panels, their staging, a stationary A's or B's own
 * contributions) are returned to a per-grid pool at the end of a call and
 * reused by the next: fresh buffers of tens of megabytes per call cost
 * their page faults and zeroing every time (about a fifth of a 1024^3
 * product on 2 ranks).  The pool keeps only the buffers of the last call
 * (pool_trim), which that call held at once, so it adds no peak memory,
 * and at most DISTRT_ONESIDED_POOL_BYTES (256 MiB) of them.
 */
#include "onesided_internal.h"

#include <stdlib.h>

/* The most windows kept per grid (a call uses at most OS_MAX_SLOTS). */
#define OS_CACHE_MAX 8

typedef struct os_entry {
  struct os_entry *next;
  void *base;
  int64_t bytes, esize;
  int role;    /* what the caller exposes in it (part of the key) */
  int scratch; /* base is a runtime-owned buffer, freed with the entry */
  int64_t seq, stamp;
  distrt_bwin *win;
} os_entry;

/* A pooled scratch buffer: free, or taken by the running call. */
typedef struct os_buf {
  struct os_buf *next;
  void *base;
  int64_t cap;
  int used; /* taken or returned during the current call */
} os_buf;

struct distrt_oswin {
  os_entry *head; /* in creation (sequence) order */
  int64_t seq, clock, n;
  os_buf *pool;   /* free scratch buffers */
  int64_t pooled; /* their bytes */
};

/* The most bytes the pool keeps between calls: DISTRT_ONESIDED_POOL_BYTES,
 * else 256 MiB; a buffer returned beyond it is freed (a product that large
 * computes for much longer than its pages take to fault in). */
static int64_t pool_limit(const char *op) {
  static int64_t limit = -1;
  if (limit >= 0)
    return limit;
  limit = (int64_t)256 << 20;
  const char *env = getenv("DISTRT_ONESIDED_POOL_BYTES");
  if (env && *env) {
    char *end = NULL;
    long long v = strtoll(env, &end, 10);
    if (*end || v < 0)
      distrt_fatal_collective(op,
                              "DISTRT_ONESIDED_POOL_BYTES='%s' is not a "
                              "non-negative integer",
                              env);
    limit = (int64_t)v;
  }
  return limit;
}

static struct distrt_oswin *cache_of(const char *op, distrt_grid *g) {
  if (!g->wins) {
    g->wins = calloc(1, sizeof *g->wins);
    if (!g->wins)
      distrt_fatal(op, "out of memory for the window cache");
  }
  return g->wins;
}

static os_entry *lookup(struct distrt_oswin *c, void *base, int64_t bytes,
                        int role, int scratch, int64_t esize) {
  for (os_entry *e = c->head; e; e = e->next)
    if (e->role == role && e->scratch == scratch && e->bytes == bytes &&
        e->esize == esize && (scratch || e->base == base))
      return e;
  return NULL;
}

static os_entry *create(const char *op, distrt_grid *g, void *base,
                        int64_t bytes, int role, int scratch, int64_t esize) {
  struct distrt_oswin *c = g->wins;
  os_entry *e = calloc(1, sizeof *e);
  if (!e)
    distrt_fatal(op, "out of memory for a window cache entry");
  if (scratch)
    base = xmalloc(op, bytes);
  e->base = base;
  e->bytes = bytes;
  e->esize = esize;
  e->role = role;
  e->scratch = scratch;
  e->win = distrt_g.be->win_create(op, g->icomm, base, bytes, esize);
  e->seq = ++c->seq;
  os_entry **tail = &c->head;
  while (*tail)
    tail = &(*tail)->next;
  *tail = e;
  ++c->n;
  return e;
}

static void destroy(const char *op, os_entry *e) {
  distrt_g.be->win_free(op, e->win);
  if (e->scratch)
    free(e->base);
  free(e);
}

void os_windows(const char *op, distrt_grid *g, int nslots, void **base,
                const int64_t *bytes, const int *role, const int *scratch,
                int64_t esize, distrt_bwin **wins) {
  struct distrt_oswin *c = cache_of(op, g);
  os_entry *found[OS_MAX_SLOTS];
  int64_t v[2 * OS_MAX_SLOTS];
  for (int s = 0; s < nslots; ++s) {
    found[s] = lookup(c, base[s], bytes[s], role[s], scratch[s], esize);
    int64_t seq = found[s] ? found[s]->seq : -1;
    v[2 * s] = seq;
    v[2 * s + 1] = -seq;
  }
  distrt_g.be->allreduce(op, g->icomm, v, 2 * nslots, DISTRT_I64, DISTRT_MAX);
  for (int s = 0; s < nslots; ++s) {
    int64_t hi = v[2 * s], lo = -v[2 * s + 1];
    os_entry *e = found[s];
    if (!(lo == hi && lo >= 0))
      e = create(op, g, base[s], bytes[s], role[s], scratch[s], esize);
    e->stamp = ++c->clock;
    base[s] = e->base;
    wins[s] = e->win;
  }
}

void *os_scratch_get(const char *op, distrt_grid *g, int64_t bytes,
                     int64_t *cap) {
  struct distrt_oswin *c = cache_of(op, g);
  os_buf **best = NULL;
  for (os_buf **b = &c->pool; *b; b = &(*b)->next)
    if ((*b)->cap >= bytes && (!best || (*b)->cap < (*best)->cap))
      best = b;
  if (best) {
    os_buf *b = *best;
    void *base = b->base;
    *best = b->next;
    *cap = b->cap;
    c->pooled -= b->cap;
    free(b);
    return base;
  }
  (void)pool_limit(op); /* a bad setting fails here, not at the return */
  *cap = bytes > 0 ? bytes : 1;
  return xmalloc(op, *cap);
}

void os_scratch_put(distrt_grid *g, void *buf, int64_t cap) {
  if (!buf)
    return;
  struct distrt_oswin *c = g->wins;
  os_buf *b = c && c->pooled + cap <= pool_limit("distrt_onesided_matmul")
                  ? malloc(sizeof *b)
                  : NULL;
  if (!b) { /* over the limit, no pool, or no memory for its entry */
    free(buf);
    return;
  }
  b->base = buf;
  b->cap = cap;
  b->used = 1;
  b->next = c->pool;
  c->pool = b;
  c->pooled += cap;
}

/* Frees the pooled buffers not used since the last trim: the pool keeps
 * at most the scratch of the last call, which that call held at once. */
static void pool_trim(struct distrt_oswin *c) {
  for (os_buf **b = &c->pool; *b;) {
    if ((*b)->used) {
      (*b)->used = 0;
      b = &(*b)->next;
      continue;
    }
    os_buf *dead = *b;
    *b = dead->next;
    c->pooled -= dead->cap;
    free(dead->base);
    free(dead);
  }
}

void os_windows_trim(const char *op, distrt_grid *g) {
  struct distrt_oswin *c = g->wins;
  if (c)
    pool_trim(c);
  while (c && c->n > OS_CACHE_MAX) {
    os_entry **victim = &c->head;
    for (os_entry **e = &c->head; *e; e = &(*e)->next)
      if ((*e)->stamp < (*victim)->stamp)
        victim = e;
    os_entry *dead = *victim;
    *victim = dead->next;
    --c->n;
    destroy(op, dead);
  }
}

void os_windows_release(const char *op, distrt_grid *g) {
  struct distrt_oswin *c = g->wins;
  if (!c)
    return;
  while (c->head) {
    os_entry *e = c->head;
    c->head = e->next;
    destroy(op, e);
  }
  while (c->pool) {
    os_buf *b = c->pool;
    c->pool = b->next;
    free(b->base);
    free(b);
  }
  free(c);
  g->wins = NULL;
}
