/*===- sparse_device.c - sparse products on host or device tiles -*- C -*-===*
 *
 * distrt_spmat_mul_add (compiler.h): y += m * x, what a compiled sparse
 * product calls when its dense tiles are in device memory (the sparsifier's
 * leaves are host code).  On host buffers it runs the runtime's loops; on
 * device buffers the backend's dev_csrmm (cuSPARSE on the NCCL backend):
 *
 *   - the parts (ALL, or DIAG and OFFDIAG of the plan) are copied to the
 *     device once per matrix entries and plan, with both index arrays of
 *     the wider of the two widths (cuSPARSE wants one index type);
 *   - x blocked: the process's block of x is copied to the host, the plan's
 *     exchange sends the rows others need (MPI), the DIAG product runs on
 *     the device meanwhile, then the ghosts are copied to the device and
 *     the OFFDIAG product adds them;
 *   - x replicated (x_whole): one product with ALL.
 *
 * Under the non-zero partition (host buffers only, for now) the product
 * goes into the partial sums of the piece's rows, which
 * distrt_spmat_reduce_rows adds into y (sparse_nonzeros.c).
 *===----------------------------------------------------------------------===*/

#include "sparse_spmat_internal.h"

#include <stdlib.h>
#include <string.h>

static void dev_free_csr(const char *op, spm_csr *a) {
  const struct distrt_backend *be = distrt_g.be;
  be->dev_free(op, a->pos);
  be->dev_free(op, a->crd);
  be->dev_free(op, a->val);
  memset(a, 0, sizeof *a);
}

void spm_dev_drop(distrt_spmat *m) {
  const char *op = "distrt_spmat (device copies)";
  if (m->dev_ready & 1)
    dev_free_csr(op, &m->dev_all);
  if (m->dev_ready & 2) {
    dev_free_csr(op, &m->dev_diag);
    dev_free_csr(op, &m->dev_off);
  }
  m->dev_ready = 0;
  if (m->dev_ghost)
    distrt_g.be->dev_free(op, m->dev_ghost);
  m->dev_ghost = NULL;
  m->dev_ghost_cap = 0;
  free(m->host_x);
  m->host_x = NULL;
  m->host_x_cap = 0;
}

/* An index array of n entries and `bits` bits in device memory, `to` bits
 * wide. */
static void *upload_index(const char *op, const void *a, int64_t bits,
                          int64_t to, int64_t n) {
  const struct distrt_backend *be = distrt_g.be;
  int64_t bytes = n * (to / 8);
  void *dev = be->dev_alloc(op, bytes > 0 ? bytes : 8);
  if (n == 0)
    return dev;
  if (bits == to) {
    be->dev_copy(op, dev, a, bytes);
    return dev;
  }
  void *tmp = spm_alloc(op, bytes);
  for (int64_t i = 0; i < n; ++i)
    spm_put(tmp, to, i, spm_get(a, bits, i));
  be->dev_copy(op, dev, tmp, bytes);
  free(tmp);
  return dev;
}

static void upload(const char *op, const distrt_spmat *m, const spm_csr *a,
                   spm_csr *d) {
  const struct distrt_backend *be = distrt_g.be;
  d->nnz = a->nnz;
  d->pos = upload_index(op, a->pos, m->pos_bits, m->dev_bits, m->nr + 1);
  d->crd = upload_index(op, a->crd, m->crd_bits, m->dev_bits, a->nnz);
  int64_t bytes = a->nnz * m->esize;
  d->val = be->dev_alloc(op, bytes > 0 ? bytes : 8);
  if (bytes > 0)
    be->dev_copy(op, d->val, a->val, bytes);
}

/* The ALL part (whole) or the plan's DIAG and OFFDIAG on the device. */
static void dev_prepare(const char *op, distrt_spmat *m, int whole) {
  m->dev_bits = m->pos_bits > m->crd_bits ? m->pos_bits : m->crd_bits;
  int want = whole ? 1 : 2;
  if (m->dev_ready & want)
    return;
  if (whole) {
    upload(op, m, &m->all, &m->dev_all);
  } else {
    upload(op, m, &m->diag, &m->dev_diag);
    upload(op, m, &m->off, &m->dev_off);
  }
  m->dev_ready |= want;
}

static void dev_product(const char *op, const distrt_spmat *m,
                        const spm_csr *d, int64_t cols, const void *x, void *y,
                        int64_t k) {
  if (d->nnz == 0 || m->nr == 0)
    return;
  distrt_g.be->dev_csrmm(op, m->dtype, m->dev_bits, m->nr, cols, d->nnz,
                         d->pos, d->crd, d->val, k, x, y);
}

/* Grows *buf (host or device) to at least `bytes`. */
static void *grow(const char *op, void **buf, int64_t *cap, int64_t bytes,
                  int device) {
  if (*cap >= bytes && *buf)
    return *buf;
  const struct distrt_backend *be = distrt_g.be;
  if (device) {
    if (*buf)
      be->dev_free(op, *buf);
    *buf = be->dev_alloc(op, bytes > 0 ? bytes : 8);
  } else {
    free(*buf);
    *buf = spm_alloc(op, bytes > 0 ? bytes : 8);
  }
  *cap = bytes;
  return *buf;
}

/* y += m * x on the host under the non-zero partition: the product into
 * the partial sums (the DIAG part overlapping the exchange, then OFFDIAG;
 * or ALL times the whole of x), then their reduction into y. */
static void host_nonzeros(const char *op, distrt_spmat *m, const void *x,
                          void *y, int64_t k, int64_t x_whole) {
  void *partial = spm_partial(op, m, k, 0);
  if (x_whole) {
    spm_spmm(m, &m->all, x, partial, k, 0);
  } else {
    spm_plan_build(op, m);
    const void *ghost = spm_begin(op, m, x, k);
    spm_spmm(m, &m->diag, x, partial, k, 0);
    spm_end(op, m);
    if (m->off.nnz > 0)
      spm_spmm(m, &m->off, ghost, partial, k, 1);
  }
  spm_reduce_rows(op, m, partial, y, k, 0);
}

void distrt_spmat_mul_add(distrt_spmat *m, const void *x, void *y, int64_t k,
                          int64_t x_whole) {
  const char *op = "distrt_spmat_mul_add";
  spm_check_matrix(op, m);
  if (k < 1)
    distrt_fatal(op, "k is %lld; expected >= 1", (long long)k);
  if (!x || !y)
    distrt_fatal(op, "%s is NULL", !x ? "x" : "y");
  int dx = distrt_is_device_ptr(x), dy = distrt_is_device_ptr(y);
  if (dx != dy)
    distrt_fatal(op, "x is %s memory but y is %s memory", dx ? "device" : "host",
                 dy ? "device" : "host");
  if (dx && !distrt_g.be->dev_csrmm)
    distrt_fatal(op, "the %s backend has no sparse products on device memory",
                 distrt_g.be->name);
  if (m->kind == DISTRT_SPMAT_NONZEROS) {
    if (dx)
      distrt_fatal_collective(op, "non-zero partitions "
                                  "(distrt_spmat_create_nonzeros) on device "
                                  "tiles are not supported yet");
    host_nonzeros(op, m, x, y, k, x_whole);
    return;
  }
  if (x_whole) {
    if (dx) {
      dev_prepare(op, m, 1);
      dev_product(op, m, &m->dev_all, m->cols, x, y, k);
    } else {
      spm_spmm(m, &m->all, x, y, k, 1);
    }
    return;
  }
  spm_plan_build(op, m);
  if (!dx) {
    const void *ghost = spm_begin(op, m, x, k);
    spm_spmm(m, &m->diag, x, y, k, 1);
    spm_end(op, m);
    if (m->off.nnz > 0)
      spm_spmm(m, &m->off, ghost, y, k, 1);
    return;
  }
  dev_prepare(op, m, 0);
  /* The rows to send are packed on the host: x's block comes over once. */
  int64_t xbytes = distrt_mul(op, "the bytes of x", m->C * k, m->esize);
  void *hx = grow(op, &m->host_x, &m->host_x_cap, xbytes, 0);
  if (m->nsend_rows > 0)
    distrt_g.be->dev_copy(op, hx, x, xbytes);
  const void *ghost = spm_begin(op, m, hx, k);
  dev_product(op, m, &m->dev_diag, m->C, x, y, k);
  spm_end(op, m);
  if (m->off.nnz > 0) {
    int64_t gbytes = m->nghost * k * m->esize;
    void *dg = grow(op, &m->dev_ghost, &m->dev_ghost_cap, gbytes, 1);
    distrt_g.be->dev_copy(op, dg, ghost, gbytes);
    dev_product(op, m, &m->dev_off, m->nghost, dg, y, k);
  }
}
