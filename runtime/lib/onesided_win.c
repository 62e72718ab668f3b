/*
 * onesided_win.c - the one-sided windows distrt_onesided_matmul keeps per
 * grid, so that repeated calls on the same tiles create none.
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

struct distrt_oswin {
  os_entry *head; /* in creation (sequence) order */
  int64_t seq, clock, n;
};

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

void os_windows_trim(const char *op, distrt_grid *g) {
  struct distrt_oswin *c = g->wins;
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
  free(c);
  g->wins = NULL;
}
