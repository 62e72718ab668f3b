/*===- sparse_spmat.c - distrt sparse: distributed CSR matrices --*- C -*-===*
 *
 * The distributed CSR matrix of distrt/sparse.h (sparse_spmat_internal.h):
 * creation and freeing, its entries (from a row-distributed COO, a file or
 * a generator), the views of its parts, and the dense gather for --check.
 * The exchange plan, the exchange and the product are in sparse_plan.c.
 *
 * Entries come from a distrt_coo that already has this process's rows,
 * sorted and without duplicates (what the readers and generators give), so
 * assigning needs no communication beyond agreeing on errors: the
 * processes check the shape and the entries, all-reduce whether any found
 * a problem (sp_agree, as the readers do: the lowest rank with an error
 * prints it and the job ends), then fill their CSR arrays in one pass.
 * Under the non-zero partition the checked entries first move to their
 * owners (sparse_nonzeros.c).  An order-3 tensor's entries, read and
 * gather are in sparse_tensor3.c; its creation and checks are here.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "sparse_spmat_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- shared helpers ---------------------------------------------------===*/

void spm_check(const char *op, const distrt_spmat *m) {
  distrt_require_init(op);
  if (!m)
    distrt_fatal(op, "the matrix is NULL");
  if (m->magic != DISTRT_SPMAT_MAGIC)
    distrt_fatal(op, "%p is not a live matrix (already freed, or not "
                     "created by distrt_spmat_create)",
                 (const void *)m);
  distrt_grid_check(op, m->g);
}

void spm_check_matrix(const char *op, const distrt_spmat *m) {
  spm_check(op, m);
  if (m->order != 2)
    distrt_fatal_collective(op, "the tensor has order %lld; this call takes "
                                "a matrix (order 2) only",
                            (long long)m->order);
}

void *spm_alloc(const char *op, int64_t n) {
  void *p = malloc(n > 0 ? (size_t)n : 1);
  if (!p)
    distrt_fatal(op, "out of memory (%lld bytes)", (long long)n);
  return p;
}

void spm_csr_alloc(const char *op, const distrt_spmat *m, spm_csr *a,
                   int64_t nnz) {
  int64_t pb = m->pos_bits / 8, cb = m->crd_bits / 8;
  a->pos = spm_alloc(op, (m->nr + 1) * pb);
  memset(a->pos, 0, (size_t)((m->nr + 1) * pb));
  a->crd = spm_alloc(op, distrt_mul(op, "the coordinates' bytes", nnz, cb));
  a->val = spm_alloc(op, distrt_mul(op, "the values' bytes", nnz, m->esize));
  a->nnz = nnz;
}

void spm_csr_free(spm_csr *a) {
  free(a->pos);
  free(a->crd);
  free(a->val);
  memset(a, 0, sizeof *a);
}

int64_t spm_new_stamp(void) {
  static int64_t next = 0;
  return ++next;
}

/*===-- lifetime ---------------------------------------------------------===*/

/* Every process must describe the same matrix: MIN of (v, -v) all-reduced
 * gives the smallest and the largest value of each field (n <= 8; the
 * first 5 a matrix's, 7 with depth and partition an order-3 tensor's). */
static void agree_shape(const char *op, distrt_grid *g, const int64_t *v,
                        int64_t n) {
  int64_t a[16];
  for (int64_t i = 0; i < n; ++i) {
    a[i] = v[i];
    a[n + i] = -v[i];
  }
  distrt_g.be->allreduce(op, g->icomm, a, 2 * n, DISTRT_I64, DISTRT_MIN);
  for (int64_t i = 0; i < n; ++i)
    if (a[i] != -a[n + i])
      distrt_fatal_collective(
          op, n == 5 ? "the processes disagree on the matrix (rows, cols, "
                       "pos_bits, crd_bits, dtype)"
                     : "the processes disagree on the tensor (d0, d1, "
                       "pos_bits, crd_bits, dtype, d2, partition)");
}

distrt_spmat *spm_create(const char *op, distrt_grid *g, int64_t rows,
                         int64_t cols, int64_t depth, int64_t pos_bits,
                         int64_t crd_bits, int64_t dtype, int64_t kind) {
  distrt_grid_check(op, g);
  if (pos_bits != 32 && pos_bits != 64)
    distrt_fatal_collective(op, "pos_bits is %lld; expected 32 or 64",
                            (long long)pos_bits);
  if (crd_bits != 32 && crd_bits != 64)
    distrt_fatal_collective(op, "crd_bits is %lld; expected 32 or 64",
                            (long long)crd_bits);
  if (dtype != DISTRT_F32 && dtype != DISTRT_F64)
    distrt_fatal_collective(op, "dtype is %lld (%s); expected DISTRT_F32 or "
                                "DISTRT_F64",
                            (long long)dtype, distrt_dtype_name(dtype));
  if (depth >= 0 && (rows < 0 || cols < 0))
    distrt_fatal_collective(op, "negative extent: %lld x %lld x %lld",
                            (long long)rows, (long long)cols,
                            (long long)depth);
  if (rows < 0 || cols < 0)
    distrt_fatal_collective(op, "negative extent: %lld x %lld",
                            (long long)rows, (long long)cols);
  int64_t v[7] = {rows, cols, pos_bits, crd_bits, dtype, depth, kind};
  agree_shape(op, g, v, depth >= 0 ? 7 : 5);
  return spm_new(op, g, rows, cols, pos_bits, crd_bits, dtype, kind);
}

distrt_spmat *spm_new(const char *op, distrt_grid *g, int64_t rows,
                      int64_t cols, int64_t pos_bits, int64_t crd_bits,
                      int64_t dtype, int64_t kind) {
  distrt_spmat *m = (distrt_spmat *)spm_alloc(op, sizeof *m);
  memset(m, 0, sizeof *m);
  m->magic = DISTRT_SPMAT_MAGIC;
  m->g = g;
  m->comm = g->icomm;
  m->P = g->size;
  m->rank = g->rank;
  m->rows = rows;
  m->cols = cols;
  m->B = distrt_ceil_div(rows, m->P);
  m->lo = distrt_block_start(m->rank, m->B, rows);
  m->hi = distrt_block_start(m->rank + 1, m->B, rows);
  m->kind = kind;
  /* The row partition's piece is its block; the non-zero partition's is
   * empty until entries arrive. */
  m->first = kind == DISTRT_SPMAT_ROWS ? m->lo : 0;
  m->nr = kind == DISTRT_SPMAT_ROWS ? m->B : 0;
  m->C = distrt_ceil_div(cols, m->P);
  m->xlo = distrt_block_start(m->rank, m->C, cols);
  m->xhi = distrt_block_start(m->rank + 1, m->C, cols);
  m->pos_bits = pos_bits;
  m->crd_bits = crd_bits;
  m->dtype = dtype;
  m->esize = distrt_dtype_size(op, dtype);
  m->order = 2;
  m->shared = -1;
  m->reserved = -1;
  spm_csr_alloc(op, m, &m->all, 0);
  return m;
}

distrt_spmat *distrt_spmat_create(distrt_grid *g, int64_t rows, int64_t cols,
                                  int64_t pos_bits, int64_t crd_bits,
                                  int64_t dtype) {
  return spm_create("distrt_spmat_create", g, rows, cols, -1, pos_bits,
                    crd_bits, dtype, DISTRT_SPMAT_ROWS);
}

distrt_spmat *distrt_spmat_create_nonzeros(distrt_grid *g, int64_t rows,
                                           int64_t cols, int64_t pos_bits,
                                           int64_t crd_bits, int64_t dtype) {
  return spm_create("distrt_spmat_create_nonzeros", g, rows, cols, -1,
                    pos_bits, crd_bits, dtype, DISTRT_SPMAT_NONZEROS);
}

int64_t distrt_spmat_partition(const distrt_spmat *m) {
  spm_check("distrt_spmat_partition", m);
  return m->kind;
}

void distrt_spmat_free(distrt_spmat *m) {
  const char *op = "distrt_spmat_free";
  if (!m)
    return;
  if (m->magic != DISTRT_SPMAT_MAGIC)
    distrt_fatal(op, "%p is not a live matrix (already freed, or not "
                     "created by distrt_spmat_create)",
                 (void *)m);
  if (m->owner)
    distrt_fatal_collective(op, "the matrix is the companion of another "
                                "(distrt_spmat_in_partition), which owns "
                                "and frees it");
  /* The buffers of an exchange still in flight belong to the backend. */
  if (m->in_flight)
    distrt_spmat_exchange_end(m);
  spm_mixed_drop(m);
  spm_plan_drop(m);
  spm_share_free(op, m);
  spm_csr_free(&m->all);
  spm_t3_free(m);
  m->magic = 0;
  free(m);
}

/*===-- entries ----------------------------------------------------------===*/

/* A companion's entries are its owner's: they change through the owner. */
static void check_not_companion(const char *op, const distrt_spmat *m) {
  if (m->owner)
    distrt_fatal_collective(op, "the matrix is the companion of another "
                                "(distrt_spmat_in_partition); change that "
                                "matrix's entries instead");
}

/* An order-3 coo's shape against m's (order 3): the first problem in c. */
static void check_shape3(sp_ctx *c, const distrt_spmat *m,
                         const distrt_coo *coo, const char *src) {
  if (coo->order != 3)
    sp_fail(c, 0, "%s holds a tensor of order %lld; the tensor has order 3",
            src, (long long)coo->order);
  else if (coo->dims[0] != m->rows || coo->dims[1] != m->cols ||
           coo->dims[2] != m->depth)
    sp_fail(c, 0, "%s holds a %lld x %lld x %lld tensor; the tensor is "
                  "%lld x %lld x %lld",
            src, (long long)coo->dims[0], (long long)coo->dims[1],
            (long long)coo->dims[2], (long long)m->rows, (long long)m->cols,
            (long long)m->depth);
}

/* Whether entry e (order w) comes after entry e - w, lexicographically. */
static int after(const int64_t *e, int64_t w) {
  for (int64_t d = 0; d < w; ++d)
    if (e[d - w] != e[d])
      return e[d - w] < e[d];
  return 0;
}

/* Records the first problem of coo (shape, then entries) in c; `src`
 * names where the entries come from ("the file"). */
static void check_coo(sp_ctx *c, const distrt_spmat *m, const distrt_coo *coo,
                      const char *src) {
  int64_t w = m->order, dims[3] = {m->rows, m->cols, m->depth};
  if (w == 3) {
    check_shape3(c, m, coo, src);
    if (c->failed)
      return;
  } else if (coo->order != 2) {
    sp_fail(c, 0, "%s holds a tensor of order %lld; the tensor is a matrix",
            src, (long long)coo->order);
    return;
  } else if (coo->dims[0] != m->rows || coo->dims[1] != m->cols) {
    sp_fail(c, 0, "%s holds a %lld x %lld matrix; the tensor is %lld x %lld",
            src, (long long)coo->dims[0], (long long)coo->dims[1],
            (long long)m->rows, (long long)m->cols);
    return;
  }
  if (coo->nnz < 0 || (coo->nnz > 0 && (!coo->coords || !coo->values))) {
    sp_fail(c, 0, "%lld entries with coords %p and values %p",
            (long long)coo->nnz, (void *)coo->coords, (void *)coo->values);
    return;
  }
  char a[96], b[96], r[96];
  for (int64_t k = 0; k < coo->nnz; ++k) {
    const int64_t *e = coo->coords + w * k;
    int in = 1;
    for (int64_t d = 0; d < w; ++d)
      in &= e[d] >= 0 && e[d] < dims[d];
    if (!in) {
      if (w == 2)
        snprintf(r, sizeof r, "1..%lld, 1..%lld", (long long)m->rows,
                 (long long)m->cols);
      else
        snprintf(r, sizeof r, "1..%lld, 1..%lld, 1..%lld",
                 (long long)m->rows, (long long)m->cols, (long long)m->depth);
      sp_fail(c, 0, "entry %s out of range (%s)",
              sp_coord_str(a, sizeof a, w, e), r);
      return;
    }
    if (e[0] < m->lo || e[0] >= m->hi) {
      sp_fail(c, 0, "entry %s is not in this process's rows %lld..%lld",
              sp_coord_str(a, sizeof a, w, e), (long long)m->lo + 1,
              (long long)m->hi);
      return;
    }
    if (k > 0 && !after(e, w)) {
      sp_fail(c, 0, "entries %s and %s are out of order or repeated "
                    "(expected sorted, without duplicates)",
              sp_coord_str(a, sizeof a, w, e - w),
              sp_coord_str(b, sizeof b, w, e));
      return;
    }
  }
}

void spm_fill_csr(const char *op, distrt_spmat *m, int64_t n,
                  const int64_t *coords, const double *values) {
  int64_t pb = m->pos_bits, cb = m->crd_bits;
  spm_csr_alloc(op, m, &m->all, n);
  int64_t k = 0;
  for (int64_t r = 0; r < m->nr; ++r) {
    spm_put(m->all.pos, pb, r, k);
    for (; k < n && coords[2 * k] - m->first == r; ++k) {
      spm_put(m->all.crd, cb, k, coords[2 * k + 1]);
      if (m->dtype == DISTRT_F32)
        ((float *)m->all.val)[k] = (float)values[k];
      else
        ((double *)m->all.val)[k] = values[k];
    }
  }
  spm_put(m->all.pos, pb, m->nr, n);
}

/* distrt_spmat_assign, reporting as `op`; `src` as for check_coo. */
static void assign_impl(const char *op, distrt_spmat *m,
                        const distrt_coo *coo, const char *what,
                        const char *src) {
  if (!what || !*what)
    what = "the entries";
  if (m->in_flight)
    distrt_fatal(op, "%s: an exchange is in flight (call "
                     "distrt_spmat_exchange_end first)",
                 what);
  sp_ctx c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.path = what;
  c.comm = m->comm;
  c.size = m->P;
  c.rank = m->rank;
  if (!coo)
    sp_fail(&c, 0, "the entries (coo) are NULL");
  else
    check_coo(&c, m, coo, src);
  sp_agree(&c);

  /* Largest local count and column (order 3: j or k): do the 32-bit
   * arrays hold them? */
  int64_t w = m->order, mx[2] = {coo->nnz, coo->nnz ? 0 : -1};
  for (int64_t k = 0; k < coo->nnz; ++k)
    for (int64_t d = 1; d < w; ++d)
      if (coo->coords[w * k + d] > mx[1])
        mx[1] = coo->coords[w * k + d];
  distrt_g.be->allreduce(op, m->comm, mx, 2, DISTRT_I64, DISTRT_MAX);
  /* The non-zero partition checks its own counts once it knows them. */
  if (m->kind == DISTRT_SPMAT_ROWS && m->pos_bits == 32 && mx[0] > INT32_MAX)
    distrt_fatal_collective(op, "%s: %lld entries on one process do not fit "
                                "32-bit positions (pos_bits = 32)",
                            what, (long long)mx[0]);
  if (m->crd_bits == 32 && mx[1] > INT32_MAX)
    distrt_fatal_collective(op, "%s: %s index %lld (0-based) does not "
                                "fit 32-bit coordinates (crd_bits = 32)",
                            what, w == 2 ? "column" : "coordinate",
                            (long long)mx[1]);

  /* New entries: the companion goes (every process is here). */
  spm_mixed_drop(m);
  m->stamp = spm_new_stamp();
  m->pattern_src = NULL;
  m->reserved = -1;
  if (w == 3) {
    spm_t3_assign(op, m, coo, what);
    return;
  }
  if (m->kind == DISTRT_SPMAT_NONZEROS) {
    spm_nz_assign(op, m, coo, what);
    return;
  }
  spm_plan_drop(m);
  spm_csr_free(&m->all);
  spm_fill_csr(op, m, coo->nnz, coo->coords, coo->values);
  m->gnnz = coo->nnz;
  distrt_g.be->allreduce(op, m->comm, &m->gnnz, 1, DISTRT_I64, DISTRT_SUM);
}

void distrt_spmat_assign(distrt_spmat *m, const distrt_coo *coo,
                         const char *what) {
  const char *op = "distrt_spmat_assign";
  spm_check(op, m);
  check_not_companion(op, m);
  assign_impl(op, m, coo, what, "the COO");
}

/* The extension of path's last component, lower-cased ("" if none). */
static void extension(const char *path, char *ext, size_t n) {
  const char *base = strrchr(path, '/');
  const char *dot = strrchr(base ? base + 1 : path, '.');
  ext[0] = '\0';
  if (!dot || strlen(dot) >= n)
    return;
  size_t i = 0;
  for (; dot[i]; ++i)
    ext[i] = (char)tolower((unsigned char)dot[i]);
  ext[i] = '\0';
}

void distrt_spmat_read(distrt_spmat *m, const char *path) {
  const char *op = "distrt_spmat_read";
  spm_check(op, m);
  check_not_companion(op, m);
  if (!path || !*path)
    distrt_fatal_collective(op, "the file path is NULL or empty");
  static const char *const hb[] = {".rua", ".rsa", ".rra",
                                   ".pua", ".psa", ".pra"};
  char ext[16];
  extension(path, ext, sizeof ext);
  int is_hb = 0;
  for (size_t i = 0; i < sizeof hb / sizeof hb[0]; ++i)
    is_hb |= strcmp(ext, hb[i]) == 0;
  distrt_coo coo;
  if (m->order == 3) {
    if (strcmp(ext, ".tns") != 0)
      distrt_fatal_collective(op, "%s: an order-3 tensor is read from a "
                                  "FROSTT .tns file",
                              path);
    int64_t dims[3] = {m->rows, m->cols, m->depth};
    distrt_coo_read_tns(path, m->g, 3, dims, &coo);
  } else if (strcmp(ext, ".mtx") == 0) {
    distrt_coo_read_mm(path, m->g, &coo);
  } else if (is_hb) {
    distrt_coo_read_hb(path, m->g, &coo);
  } else if (strcmp(ext, ".tns") == 0) {
    int64_t dims[2] = {m->rows, m->cols};
    distrt_coo_read_tns(path, m->g, 2, dims, &coo);
  } else {
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    distrt_fatal_collective(
        op,
        "%s: unknown extension '%s' (expected .mtx, .rua, .rsa, .rra, .pua, "
        ".psa, .pra or .tns)",
        path, dot && (!slash || dot > slash) ? dot : "");
  }
  assign_impl(op, m, &coo, path, "the file");
  distrt_coo_free(&coo);
}

void distrt_spmat_generate(distrt_spmat *m, int64_t kind, int64_t param,
                           int64_t seed) {
  const char *op = "distrt_spmat_generate";
  spm_check(op, m);
  check_not_companion(op, m);
  const char *what = kind == DISTRT_GEN_BANDED ? "the banded generator"
                     : kind == DISTRT_GEN_RMAT ? "the R-MAT generator"
                                               : "the uniform generator";
  if (kind < DISTRT_GEN_BANDED || kind > DISTRT_GEN_UNIFORM)
    distrt_fatal_collective(op, "unknown generator %lld (expected "
                                "DISTRT_GEN_BANDED=0, DISTRT_GEN_RMAT=1 or "
                                "DISTRT_GEN_UNIFORM=2)",
                            (long long)kind);
  if (kind == DISTRT_GEN_BANDED && m->order == 3)
    distrt_fatal_collective(op, "%s makes matrices; the tensor has order 3 "
                                "(DISTRT_GEN_UNIFORM and DISTRT_GEN_RMAT "
                                "make one)",
                            what);
  if (kind != DISTRT_GEN_UNIFORM && m->order == 2 && m->rows != m->cols)
    distrt_fatal_collective(op, "%s makes square matrices; the tensor is "
                                "%lld x %lld",
                            what, (long long)m->rows, (long long)m->cols);
  distrt_coo coo;
  if (kind == DISTRT_GEN_BANDED) {
    distrt_coo_gen_banded(m->g, m->rows, param, seed, &coo);
  } else if (kind == DISTRT_GEN_RMAT && m->order == 2) {
    distrt_coo_gen_rmat(m->g, m->rows, param, seed, &coo);
  } else {
    if (param < 0)
      distrt_fatal_collective(op, "%s: %lld draws per row (must be >= 0)",
                              what, (long long)param);
    int64_t dims[3] = {m->rows, m->cols, m->depth};
    int64_t draws = distrt_mul(op, "the number of draws", param, m->rows);
    if (kind == DISTRT_GEN_RMAT) /* order 3: a power-law tensor */
      distrt_coo_gen_kronecker(m->g, m->order, dims, draws, seed, &coo);
    else
      distrt_coo_gen_uniform(m->g, m->order, dims, draws, seed, &coo);
  }
  assign_impl(op, m, &coo, what, "the generator");
  distrt_coo_free(&coo);
}

int64_t distrt_spmat_local_nnz(const distrt_spmat *m) {
  spm_check("distrt_spmat_local_nnz", m);
  return m->order == 3 ? m->nnz2 : m->all.nnz;
}

int64_t distrt_spmat_global_nnz(const distrt_spmat *m) {
  spm_check("distrt_spmat_global_nnz", m);
  return m->order == 3 ? m->gnnz2 : m->gnnz;
}

/*===-- views and the dense gather ---------------------------------------===*/

void distrt_spmat_part(distrt_spmat *m, int64_t part, void **pos, void **crd,
                       void **values, int64_t *nnz, int64_t *ncols) {
  const char *op = "distrt_spmat_part";
  spm_check_matrix(op, m);
  const spm_csr *a = &m->all;
  int64_t nc = m->cols;
  if (part == DISTRT_SPMAT_DIAG || part == DISTRT_SPMAT_OFFDIAG) {
    if (!m->planned)
      distrt_fatal_collective(op, "the %s part needs the plan (call "
                                  "distrt_spmat_plan first)",
                              part == DISTRT_SPMAT_DIAG ? "DIAG" : "OFFDIAG");
    a = part == DISTRT_SPMAT_DIAG ? &m->diag : &m->off;
    nc = part == DISTRT_SPMAT_DIAG ? m->C : m->nghost;
  } else if (part != DISTRT_SPMAT_ALL) {
    distrt_fatal_collective(op, "unknown part %lld (expected "
                                "DISTRT_SPMAT_ALL=0, DISTRT_SPMAT_DIAG=1 or "
                                "DISTRT_SPMAT_OFFDIAG=2)",
                            (long long)part);
  }
  if (pos)
    *pos = a->pos;
  if (crd)
    *crd = a->crd;
  if (values)
    *values = a->val;
  if (nnz)
    *nnz = a->nnz;
  if (ncols)
    *ncols = nc;
}

void distrt_spmat_gather_dense(distrt_spmat *m, void *dense, int64_t root) {
  const char *op = "distrt_spmat_gather_dense";
  spm_check(op, m);
  distrt_reject_device(op, dense, "dense", "the sparse gather");
  if (root < 0 || root >= m->P)
    distrt_fatal_collective(op, "root %lld is not a grid rank (0 .. %lld)",
                            (long long)root, (long long)m->P - 1);
  if (m->order == 3) {
    spm_t3_gather(op, m, dense, root);
    return;
  }
  int64_t panel = distrt_mul(op, "the elements of a row panel", m->B, m->cols);
  int64_t total = distrt_mul(op, "the elements of the matrix", m->P, panel);
  if (m->rank == root)
    distrt_check_buf(op, "dense", dense, m->rows * m->cols);
  if (m->kind == DISTRT_SPMAT_NONZEROS) {
    spm_nz_gather(op, m, dense, root);
    return;
  }
  if (panel == 0)
    return; /* no elements at all: every process knows */
  distrt_check_count(op, "the elements of a row panel", panel);
  int64_t es = m->esize;
  /* This process's B rows, dense (rows past hi stay zero). */
  char *mine = (char *)spm_alloc(op, panel * es);
  memset(mine, 0, (size_t)(panel * es));
  for (int64_t r = 0; r < m->hi - m->lo; ++r)
    for (int64_t p = spm_get(m->all.pos, m->pos_bits, r),
                 e = spm_get(m->all.pos, m->pos_bits, r + 1);
         p < e; ++p)
      memcpy(mine + (r * m->cols + spm_get(m->all.crd, m->crd_bits, p)) * es,
             (char *)m->all.val + p * es, (size_t)es);
  char *all = NULL;
  if (m->rank == root)
    all = (char *)spm_alloc(op, distrt_mul(op, "the gathered bytes", total,
                                           es));
  distrt_g.be->gather(op, m->comm, mine, all, panel, m->dtype, root);
  if (m->rank == root)
    memcpy(dense, all, (size_t)(m->rows * m->cols * es));
  free(all);
  free(mine);
}
