/*===- sparse_pattern.c - distrt sparse: outputs with a matrix's pattern -===*
 *
 * A sparse output that has another matrix's pattern (SDDMM's A(i,j) =
 * B(i,j) * C(i,k) * D(k,j) has B's): distrt_spmat_pattern_of copies B's
 * rows, positions and coordinates into A once per B's entries, and the
 * compiled product writes A's values.  A matrix whose entries the program
 * writes (a sum's output, whose pattern is the union of the terms'):
 * distrt_spmat_reserve and distrt_spmat_commit.  And the --check of a
 * sparse result,
 * distrt_spmat_check_result: the matrix gathered dense on rank 0 against
 * the reference evaluator's dense result, element by element.
 *===----------------------------------------------------------------------===*/

#include "sparse_spmat_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- the pattern ------------------------------------------------------===*/

/* Whether a and b describe one kind of matrix (a fatal line otherwise). */
static void check_alike(const char *op, const distrt_spmat *a,
                        const distrt_spmat *b) {
  if (a == b)
    distrt_fatal_collective(op, "the output and the matrix are one matrix");
  if (a->owner)
    distrt_fatal_collective(op, "the output is the companion of another "
                                "matrix (distrt_spmat_in_partition)");
  if (a->g != b->g)
    distrt_fatal_collective(op, "the two matrices are on different grids");
  if (a->rows != b->rows || a->cols != b->cols)
    distrt_fatal_collective(op, "the output is %lld x %lld, the matrix "
                                "%lld x %lld",
                            (long long)a->rows, (long long)a->cols,
                            (long long)b->rows, (long long)b->cols);
  if (a->kind != b->kind || a->pos_bits != b->pos_bits ||
      a->crd_bits != b->crd_bits || a->dtype != b->dtype)
    distrt_fatal_collective(
        op,
        "the output and the matrix differ in partition, index widths or "
        "dtype (%s %lld/%lld %s against %s %lld/%lld %s)",
        a->kind == DISTRT_SPMAT_NONZEROS ? "non-zeros" : "rows",
        (long long)a->pos_bits, (long long)a->crd_bits,
        distrt_dtype_name(a->dtype),
        b->kind == DISTRT_SPMAT_NONZEROS ? "non-zeros" : "rows",
        (long long)b->pos_bits, (long long)b->crd_bits,
        distrt_dtype_name(b->dtype));
  if (a->in_flight)
    distrt_fatal(op, "the output has an exchange in flight (call "
                     "distrt_spmat_exchange_end first)");
}

void distrt_spmat_pattern_of(distrt_spmat *a, distrt_spmat *b) {
  const char *op = "distrt_spmat_pattern_of";
  spm_check(op, a);
  spm_check(op, b);
  /* An order-3 b gives its fibers, the CSR matrix in its `all`
   * (sparse_tensor3.c checks a against it); the copy is the same. */
  if (a->order == 3 || b->order == 3)
    spm_t3_check_pattern(op, a, b);
  else
    check_alike(op, a, b);
  /* Every process takes the same branch: the stamps change at the same
   * collective calls everywhere. */
  if (a->pattern_src == b && a->pattern_stamp == b->stamp && b->stamp != 0)
    return;
  /* New entries for a, as in assign: its companion and plan go. */
  spm_mixed_drop(a);
  spm_plan_drop(a);
  spm_csr_free(&a->all);
  a->first = b->first;
  a->nr = b->nr;
  int64_t nnz = b->all.nnz;
  spm_csr_alloc(op, a, &a->all, nnz);
  memcpy(a->all.pos, b->all.pos, (size_t)((a->nr + 1) * (a->pos_bits / 8)));
  if (nnz > 0) {
    memcpy(a->all.crd, b->all.crd, (size_t)(nnz * (a->crd_bits / 8)));
    memset(a->all.val, 0, (size_t)(nnz * a->esize));
  }
  a->gnnz = b->gnnz;
  a->stamp = spm_new_stamp();
  a->pattern_src = b;
  a->pattern_stamp = b->stamp;
  a->reserved = -1;
}

/*===-- entries written by the program (a sum's output) -------------------===*/

void distrt_spmat_reserve(distrt_spmat *a, const distrt_spmat *like,
                          int64_t capacity, void **pos, void **crd,
                          void **values) {
  const char *op = "distrt_spmat_reserve";
  spm_check_matrix(op, a);
  spm_check_matrix(op, like);
  check_alike(op, a, like);
  if (capacity < 0)
    distrt_fatal(op, "negative capacity %lld", (long long)capacity);
  spm_mixed_drop(a);
  spm_plan_drop(a);
  spm_csr_free(&a->all);
  a->first = like->first;
  a->nr = like->nr;
  spm_csr_alloc(op, a, &a->all, capacity);
  a->all.nnz = 0;
  a->reserved = capacity;
  a->gnnz = 0;
  a->stamp = spm_new_stamp();
  a->pattern_src = NULL;
  if (pos)
    *pos = a->all.pos;
  if (crd)
    *crd = a->all.crd;
  if (values)
    *values = a->all.val;
}

void distrt_spmat_commit(distrt_spmat *a, int64_t count) {
  const char *op = "distrt_spmat_commit";
  spm_check_matrix(op, a);
  if (a->reserved < 0)
    distrt_fatal(op, "no room was reserved (call distrt_spmat_reserve "
                     "first)");
  if (count < 0 || count > a->reserved)
    distrt_fatal(op, "%lld entries, but room for %lld was reserved",
                 (long long)count, (long long)a->reserved);
  int64_t last = spm_get(a->all.pos, a->pos_bits, a->nr);
  if (last != count)
    distrt_fatal(op, "%lld entries, but the positions end at %lld",
                 (long long)count, (long long)last);
  a->all.nnz = count;
  a->reserved = -1;
  a->gnnz = count;
  distrt_g.be->allreduce(op, a->comm, &a->gnnz, 1, DISTRT_I64, DISTRT_SUM);
}

/*===-- the check --------------------------------------------------------===*/

static double value_at(const void *buf, int64_t dtype, int64_t i) {
  return dtype == DISTRT_F32 ? (double)((const float *)buf)[i]
                             : ((const double *)buf)[i];
}

int64_t distrt_spmat_check_result(distrt_spmat *m, const char *name,
                                  const void *ref, double tol) {
  const char *op = "distrt_spmat_check_result";
  spm_check_matrix(op, m);
  if (!name)
    name = "result";
  int64_t total = distrt_mul(op, "the matrix's elements", m->rows, m->cols);
  int64_t bytes = distrt_mul(op, "the matrix's bytes", total, m->esize);
  int root = m->rank == 0;
  if (root)
    distrt_check_buf(op, "ref", ref, total);
  void *got = root ? spm_alloc(op, bytes) : NULL;
  distrt_spmat_gather_dense(m, got, 0);
  /* On rank 0: the largest |ref|, the largest difference, the first
   * element off by more than tol, and whether anything is NaN. */
  double verdict[2] = {0.0, 0.0}; /* relative error, passed */
  if (root) {
    double maxref = 0.0, maxdiff = 0.0;
    int nan = 0;
    for (int64_t i = 0; i < total; ++i) {
      double r = value_at(ref, m->dtype, i);
      if (fabs(r) > maxref)
        maxref = fabs(r);
    }
    double den = maxref > DBL_MIN ? maxref : DBL_MIN;
    int64_t first = -1;
    for (int64_t i = 0; i < total; ++i) {
      double g = value_at(got, m->dtype, i), r = value_at(ref, m->dtype, i);
      double diff = fabs(g - r);
      if (isnan(g) || isnan(r))
        nan = 1;
      if (diff > maxdiff)
        maxdiff = diff;
      if (first < 0 && (isnan(g) != isnan(r) || diff / den > tol))
        first = i;
    }
    double err = nan ? NAN : maxdiff == 0.0 ? 0.0 : maxdiff / den;
    int ok = err <= tol; /* false for NaN */
    if (!ok && first >= 0) {
      int f32 = m->dtype == DISTRT_F32;
      printf("dist: check %s: first mismatch at element (%lld,%lld): got "
             "%.*g, expected %.*g\n",
             name, (long long)(first / m->cols), (long long)(first % m->cols),
             f32 ? 9 : 17, value_at(got, m->dtype, first), f32 ? 9 : 17,
             value_at(ref, m->dtype, first));
    }
    /* FNV-1a over the gathered result, as distrt_check_result prints. */
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)got;
    for (int64_t i = 0; i < bytes; ++i)
      h = (h ^ p[i]) * 1099511628211ULL;
    printf("dist: check %s: max relative error %.3e (tolerance %.1e) on %lld "
           "rank(s): %s (checksum %016llx)\n",
           name, err, tol, (long long)m->P, ok ? "PASS" : "FAIL",
           (unsigned long long)h);
    fflush(stdout);
    verdict[0] = err;
    verdict[1] = ok;
  }
  free(got);
  distrt_g.be->bcast(op, m->comm, verdict, 2, DISTRT_F64, 0);
  if (verdict[1] == 0.0)
    distrt_g.checks_failed++;
  return verdict[1] != 0.0;
}
