/*===- alloc.c - buffers of the generated code, with a reuse cache -*- C -*-===*
 *
 * The pipeline lowers memref.alloc / memref.dealloc in dist programs to
 * _mlir_memref_to_llvm_alloc / _mlir_memref_to_llvm_free
 * (finalize-memref-to-llvm{use-generic-functions=1}), defined here.
 *
 * A kernel allocates its scratch and communication buffers on entry and
 * frees them on exit. Large blocks come from mmap, so every call of the
 * kernel would page-fault its buffers in anew (a fresh 64 MiB buffer costs
 * about 25 ms of page faults here, as much as a fifth of a GEMM step). Freed
 * blocks of at least CACHE_MIN bytes are therefore kept, at most CACHE_SLOTS
 * of them and CACHE_BYTES in all, and handed out again for a request between
 * half their size and their size. When an allocation fails the cache is
 * emptied and the allocation tried once more; distrt_finalize empties it too.
 *
 * DISTRT_ALLOC_CACHE_MB sets CACHE_BYTES; 0 turns the cache off, and then
 * every block is a plain allocator block of exactly the requested size, so
 * that AddressSanitizer sees every free and every out-of-bounds access (the
 * lit configuration does this under scripts/sanitize.sh).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum {
  CACHE_SLOTS = 16,
  CACHE_MIN = 1 << 20,
  HEADER = 64, /* keeps the returned pointer 64-byte aligned */
};
static const int64_t CACHE_BYTES_DEFAULT = (int64_t)1 << 30;

/* Stored in the HEADER bytes before every pointer handed out. */
struct header {
  void *block;    /* what posix_memalign returned */
  size_t usable;  /* bytes from the returned pointer to the block's end */
  size_t align;   /* the returned pointer's alignment */
  uint64_t magic; /* HEADER_MAGIC while handed out */
};
static const uint64_t HEADER_MAGIC = 0x64697374616c6c63ull; /* "distallc" */

struct slot {
  char *ptr; /* the pointer it was handed out as; NULL: empty */
};

static struct {
  pthread_mutex_t lock;
  struct slot slot[CACHE_SLOTS];
  int64_t cached; /* bytes held in the slots */
  int64_t limit;  /* set once by read_limit */
} cache = {PTHREAD_MUTEX_INITIALIZER, {{0}}, 0, -1};

static struct header *header_of(void *p) {
  return (struct header *)((char *)p - sizeof(struct header));
}

static pthread_once_t limit_once = PTHREAD_ONCE_INIT;

/* Reads DISTRT_ALLOC_CACHE_MB (once; a malformed value is fatal). */
static void read_limit(void) {
  const char *env = getenv("DISTRT_ALLOC_CACHE_MB");
  if (!env || !*env) {
    cache.limit = CACHE_BYTES_DEFAULT;
    return;
  }
  char *end = NULL;
  long long mb = strtoll(env, &end, 10);
  if (*end != '\0' || mb < 0)
    distrt_fatal("DISTRT_ALLOC_CACHE_MB",
                 "expected a number of megabytes (0 turns the cache off), "
                 "got '%s'", env);
  cache.limit = mb > (INT64_MAX >> 20) ? INT64_MAX : (int64_t)mb << 20;
}

static int64_t cache_limit(void) {
  pthread_once(&limit_once, read_limit);
  return cache.limit;
}

/* Frees every cached block. Caller holds the lock. */
static void cache_flush_locked(void) {
  for (int i = 0; i < CACHE_SLOTS; ++i)
    if (cache.slot[i].ptr) {
      free(header_of(cache.slot[i].ptr)->block);
      cache.slot[i].ptr = NULL;
    }
  cache.cached = 0;
}

void distrt_alloc_cache_flush(void) {
  pthread_mutex_lock(&cache.lock);
  cache_flush_locked();
  pthread_mutex_unlock(&cache.lock);
}

int64_t distrt_alloc_cache_bytes(void) {
  pthread_mutex_lock(&cache.lock);
  int64_t n = cache.cached;
  pthread_mutex_unlock(&cache.lock);
  return n;
}

/* A cached block for `bytes` at `align`: the smallest that fits and is at
 * most twice as large. Caller holds the lock. */
static void *cache_take_locked(size_t bytes, size_t align) {
  int best = -1;
  for (int i = 0; i < CACHE_SLOTS; ++i) {
    char *p = cache.slot[i].ptr;
    if (!p)
      continue;
    struct header *h = header_of(p);
    if (h->usable < bytes || h->usable / 2 > bytes || h->align < align)
      continue;
    if (best < 0 || h->usable < header_of(cache.slot[best].ptr)->usable)
      best = i;
  }
  if (best < 0)
    return NULL;
  char *p = cache.slot[best].ptr;
  cache.slot[best].ptr = NULL;
  cache.cached -= (int64_t)header_of(p)->usable;
  return p;
}

static void *fresh(size_t bytes, size_t align) {
  size_t head = align > HEADER ? align : HEADER;
  if (bytes > SIZE_MAX - head - 63)
    return NULL;
  /* A whole number of 64-byte lines, so a reused block fits as well. */
  size_t usable = (bytes + 63) / 64 * 64;
  void *block = NULL;
  if (posix_memalign(&block, head, head + usable) != 0 || !block)
    return NULL;
  char *p = (char *)block + head;
  struct header *h = header_of(p);
  h->block = block;
  h->usable = usable;
  h->align = head;
  h->magic = HEADER_MAGIC;
  return p;
}

/* Whether the cache is on (DISTRT_ALLOC_CACHE_MB is read once, at the first
 * allocation). With it off, blocks are plain allocator blocks of exactly
 * the requested size, without a header: AddressSanitizer then sees an
 * access one element past a buffer, or before it, as out of bounds. */
static int cache_on(void) { return cache_limit() > 0; }

static void *cached_alloc(size_t bytes, size_t align) {
  if (bytes == 0)
    bytes = 1;
  if (align < sizeof(void *))
    align = sizeof(void *);
  void *p = NULL;
  if (!cache_on()) {
    if (posix_memalign(&p, align, bytes) != 0)
      p = NULL;
    if (p)
      __atomic_add_fetch(&distrt_g.live[DISTRT_COUNT_BUFFERS], 1,
                         __ATOMIC_RELAXED);
    return p;
  }
  pthread_mutex_lock(&cache.lock);
  if (bytes >= CACHE_MIN && cache.cached > 0)
    p = cache_take_locked(bytes, align);
  pthread_mutex_unlock(&cache.lock);
  if (!p)
    p = fresh(bytes, align);
  if (!p && distrt_alloc_cache_bytes() > 0) {
    distrt_alloc_cache_flush();
    p = fresh(bytes, align);
  }
  if (p) {
    header_of(p)->magic = HEADER_MAGIC;
    __atomic_add_fetch(&distrt_g.live[DISTRT_COUNT_BUFFERS], 1,
                       __ATOMIC_RELAXED);
  }
  return p;
}

static void cached_free(void *p, const char *op) {
  if (!p)
    return;
  if (!cache_on()) {
    __atomic_sub_fetch(&distrt_g.live[DISTRT_COUNT_BUFFERS], 1,
                       __ATOMIC_RELAXED);
    free(p);
    return;
  }
  struct header *h = header_of(p);
  if (h->magic != HEADER_MAGIC)
    distrt_fatal(op, "%p was not allocated by the dist runtime, or was "
                     "freed twice", p);
  h->magic = 0;
  __atomic_sub_fetch(&distrt_g.live[DISTRT_COUNT_BUFFERS], 1,
                     __ATOMIC_RELAXED);
  if (h->usable < CACHE_MIN) {
    free(h->block);
    return;
  }
  int64_t limit = cache_limit();
  pthread_mutex_lock(&cache.lock);
  /* Make room: evict the smallest blocks while over the limit or full. */
  while (cache.cached > 0) {
    int empty = -1, smallest = -1;
    for (int i = 0; i < CACHE_SLOTS; ++i) {
      if (!cache.slot[i].ptr) {
        empty = i;
        continue;
      }
      if (smallest < 0 || header_of(cache.slot[i].ptr)->usable <
                              header_of(cache.slot[smallest].ptr)->usable)
        smallest = i;
    }
    if (empty >= 0 && cache.cached + (int64_t)h->usable <= limit)
      break;
    if (smallest < 0 ||
        header_of(cache.slot[smallest].ptr)->usable > h->usable)
      break;
    cache.cached -= (int64_t)header_of(cache.slot[smallest].ptr)->usable;
    free(header_of(cache.slot[smallest].ptr)->block);
    cache.slot[smallest].ptr = NULL;
  }
  int kept = 0;
  if (cache.cached + (int64_t)h->usable <= limit)
    for (int i = 0; i < CACHE_SLOTS && !kept; ++i)
      if (!cache.slot[i].ptr) {
        cache.slot[i].ptr = p;
        cache.cached += (int64_t)h->usable;
        kept = 1;
      }
  pthread_mutex_unlock(&cache.lock);
  if (!kept)
    free(h->block);
}

/*===-- the generic allocation functions of finalize-memref-to-llvm ------===*/

void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  return cached_alloc(bytes, 16);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t bytes) {
  return cached_alloc(bytes, alignment);
}

void _mlir_memref_to_llvm_free(void *p) {
  cached_free(p, "memref.dealloc");
}

/*===-- distrt_alloc / distrt_free ---------------------------------------===*/

void *distrt_alloc(int64_t bytes) {
  const char *op = "distrt_alloc";
  if (bytes < 0)
    distrt_fatal(op, "cannot allocate a negative number of bytes (%lld)",
                 (long long)bytes);
  if (bytes > INT64_MAX - 63 || (uint64_t)bytes > (uint64_t)SIZE_MAX)
    distrt_fatal(op, "cannot allocate %lld bytes (too large)",
                 (long long)bytes);
  /* A whole number of 64-byte lines; never 0 bytes. */
  int64_t size = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
  void *p = cached_alloc((size_t)size, 64);
  if (!p)
    distrt_fatal(op, "cannot allocate %lld bytes (out of memory)",
                 (long long)bytes);
  return p;
}

void distrt_free(void *p) { cached_free(p, "distrt_free"); }
