/*===- reference_fast.c - loop-nest evaluation of the --check reference ---===*
 *
 * reference.c's interpreter walks the expression tree at every point of the
 * output and of every summed variable, in the statement's variable order:
 * tens of nanoseconds a point, and a product's C(k,j) read down a column, so
 * a 4096^3 product took longer than the sweep's two-minute limit.
 *
 * Here a float statement (f32, f64) whose right-hand side is a signed sum of
 * terms, each a product of accesses and constants (the einsum form: every
 * product and tensor kernel of the property test and the sweep), is
 * evaluated term by term over the whole output as a loop nest.  A term's
 * summed variables, wherever the scopes put them inside the product, are
 * summed at its top (distributivity), unless that takes more evaluations
 * than the interpreter's nested sums would:
 *
 *   for each block of KBLOCK values of the term's first summed variable:
 *     for each point of the other loop variables (the free variables but the
 *     innermost, then the summed ones, row-major):
 *       p = sign x constants x the factors that do not use the innermost
 *       for t over the innermost variable:
 *         result[o + t*os] += p x prod_f f[o_f + t*s_f]
 *
 * The innermost variable is the left-hand side's last free variable (a row
 * of the result), or, with no free variable, the term's last summed one (a
 * reduction into one sum).  The block keeps the rows of the operands that
 * use the first summed variable in cache (a GEMM's rows of C).
 *
 * The semantics are the interpreter's (the scopes are reference.c's
 * assign_scopes); values are doubles, rounded to the element type when
 * stored.  Sums run in another order, and constants are multiplied first,
 * so results may differ from the interpreter's in the last bits (--check
 * compares with a tolerance).  Nothing here is shared with the lowering.
 * Other statements (an inner sum, integers) keep the interpreter;
 * DISTRT_REFERENCE=interpret keeps it for every statement.
 *===----------------------------------------------------------------------===*/

#include "reference_internal.h"

#include <stdlib.h>
#include <string.h>

/* Values of the first summed variable per block. */
enum { KBLOCK = 64 };

struct factor {
  const double *data; /* the tensor's elements as doubles */
  int64_t *stride;    /* elements per step of each variable (0: unused) */
};

struct term {
  double coef; /* the sign and the constants */
  const struct node *root;
  int64_t nfactors;
  struct factor *f;
  int64_t nscoped; /* the variables summed anywhere in the product */
  int64_t *scoped;
};

struct fast {
  distrt_reference *r;
  const char *op;
  struct term *terms;
  int64_t nterms;
  double **copies; /* per tensor: its f32 elements as doubles, or NULL */
};

/* The elements of tensor t as doubles (a copy for f32, made once). */
static const double *as_doubles(struct fast *F, int64_t t) {
  const struct ref_tensor *x = &F->r->tensors[t];
  if (F->r->dtype == DISTRT_F64)
    return (const double *)x->data;
  if (!F->copies[t]) {
    double *c = distrt_ref_xrealloc(F->op, NULL, (size_t)x->count, sizeof *c);
    for (int64_t i = 0; i < x->count; ++i)
      c[i] = ((const float *)x->data)[i];
    F->copies[t] = c;
  }
  return F->copies[t];
}

/* Steps per variable of access a: the strides of the dimensions it indexes
 * with that variable, added (a repeated index walks a diagonal). */
static int64_t *strides_of(struct fast *F, const struct node *a,
                           const struct ref_tensor *t) {
  int64_t *s = distrt_ref_xrealloc(F->op, NULL, (size_t)F->r->nvars, sizeof *s);
  memset(s, 0, (size_t)F->r->nvars * sizeof *s);
  for (int64_t d = 0; d < a->nidx; ++d)
    s[a->idx[d]] += t->stride[d];
  return s;
}

/* Adds the factors of the product tree n to t, and the variables its nodes
 * sum; 0 if n is not a product of accesses and constants.  A sum inside a
 * product moves to the product's top: sum_j (X(j) * Y) = (sum_j X(j)) * Y
 * when Y does not use j. */
static int collect_product(struct fast *F, const struct node *n,
                           struct term *t) {
  if (n->nscoped) {
    t->scoped = distrt_ref_xrealloc(
        F->op, t->scoped, (size_t)(t->nscoped + n->nscoped), sizeof *t->scoped);
    memcpy(t->scoped + t->nscoped, n->scoped,
           (size_t)n->nscoped * sizeof *t->scoped);
    t->nscoped += n->nscoped;
  }
  switch (n->kind) {
  case N_ACCESS: {
    t->f =
        distrt_ref_xrealloc(F->op, t->f, (size_t)t->nfactors + 1, sizeof *t->f);
    struct factor *f = &t->f[t->nfactors++];
    f->data = NULL; /* set once the statement is known to qualify */
    f->stride = strides_of(F, n, &F->r->tensors[n->tensor]);
    return 1;
  }
  case N_CONST:
    t->coef *= n->constant;
    return 1;
  case N_NEG:
    t->coef = -t->coef;
    return collect_product(F, n->lhs, t);
  case N_MUL:
    return collect_product(F, n->lhs, t) && collect_product(F, n->rhs, t);
  default:
    return 0;
  }
}

/* How many nodes the interpreter evaluates for one value of n. */
static double evaluations(const distrt_reference *r, const struct node *n) {
  if (!n)
    return 0;
  double points = 1;
  for (int64_t k = 0; k < n->nscoped; ++k)
    points *= (double)r->vars[n->scoped[k]].extent;
  return points * (1 + evaluations(r, n->lhs) + evaluations(r, n->rhs));
}

/* Splits n into signed terms; 0 if some term is not a plain product. */
static int collect_terms(struct fast *F, const struct node *n, double sign) {
  if ((n->kind == N_ADD || n->kind == N_SUB) && n->nscoped == 0)
    return collect_terms(F, n->lhs, sign) &&
           collect_terms(F, n->rhs, n->kind == N_SUB ? -sign : sign);
  if (n->kind == N_NEG && n->nscoped == 0)
    return collect_terms(F, n->lhs, -sign);
  F->terms = distrt_ref_xrealloc(F->op, F->terms, (size_t)F->nterms + 1,
                                 sizeof *F->terms);
  struct term *t = &F->terms[F->nterms++];
  memset(t, 0, sizeof *t);
  t->coef = sign;
  t->root = n;
  if (!collect_product(F, n, t))
    return 0;
  /* Moving the inner sums out must not cost more than the interpreter's
   * evaluation (a = B(i) * C(j) stays two sums, not one over i and j). */
  double fused = 1;
  for (int64_t k = 0; k < t->nscoped; ++k)
    fused *= (double)F->r->vars[t->scoped[k]].extent;
  return fused <= evaluations(F->r, n);
}

/* Accesses in tree order, to give each factor its tensor's data. */
static void bind_data(struct fast *F, const struct node *n, struct term *t,
                      int64_t *next) {
  if (!n)
    return;
  if (n->kind == N_ACCESS) {
    t->f[(*next)++].data = as_doubles(F, n->tensor);
    return;
  }
  bind_data(F, n->lhs, t, next);
  bind_data(F, n->rhs, t, next);
}

/* row[t*os] += p * prod_f vp[f][t*vs[f]] for t in [0, n). */
static void add_row(double *restrict row, int64_t os, int64_t n, double p,
                    int64_t nv, const double *const *vp, const int64_t *vs) {
  if (nv == 0) {
    for (int64_t t = 0; t < n; ++t)
      row[t * os] += p;
  } else if (nv == 1 && os == 1 && vs[0] == 1) {
    const double *restrict a = vp[0];
    for (int64_t t = 0; t < n; ++t)
      row[t] += p * a[t];
  } else if (nv == 1) {
    const double *a = vp[0];
    for (int64_t t = 0; t < n; ++t)
      row[t * os] += p * a[t * vs[0]];
  } else if (nv == 2) {
    const double *a = vp[0], *b = vp[1];
    for (int64_t t = 0; t < n; ++t)
      row[t * os] += p * a[t * vs[0]] * b[t * vs[1]];
  } else {
    for (int64_t t = 0; t < n; ++t) {
      double x = p;
      for (int64_t f = 0; f < nv; ++f)
        x *= vp[f][t * vs[f]];
      row[t * os] += x;
    }
  }
}

/* sum_t prod_f vp[f][t*vs[f]] for t in [0, n), in four partial sums. */
static double sum_row(int64_t n, int64_t nv, const double *const *vp,
                      const int64_t *vs) {
  double s[4] = {0, 0, 0, 0};
  for (int64_t t = 0; t < n; ++t) {
    double x = 1.0;
    for (int64_t f = 0; f < nv; ++f)
      x *= vp[f][t * vs[f]];
    s[t & 3] += x;
  }
  return (s[0] + s[1]) + (s[2] + s[3]);
}

/* The loops of one term: loop variables (outermost first) with their
 * ranges, and the innermost variable (-1: none, a single point). */
struct nest {
  int64_t nloops;
  int64_t *var, *lo, *hi, *cur;
  int64_t inner, reduce, block; /* block: index in var[] of the blocked one */
};

/* Sets cur to the first point; 0 if the nest is empty. */
static int nest_first(struct nest *s) {
  for (int64_t l = 0; l < s->nloops; ++l) {
    if (s->lo[l] >= s->hi[l])
      return 0;
    s->cur[l] = s->lo[l];
  }
  return 1;
}

/* Advances cur row-major (the last fastest); 0 after the last point. */
static int nest_next(struct nest *s) {
  for (int64_t l = s->nloops - 1; l >= 0; --l) {
    if (++s->cur[l] < s->hi[l])
      return 1;
    s->cur[l] = s->lo[l];
  }
  return 0;
}

/* Every point of the nest's current ranges. */
static void run_points(struct nest *s, const struct term *t, double *res,
                       const int64_t *ostride, const double **vp, int64_t *vs) {
  int64_t n = s->inner >= 0 ? s->hi[s->nloops] : 1;
  int64_t os = s->inner >= 0 ? ostride[s->inner] : 0;
  if (n == 0 || !nest_first(s))
    return;
  do {
    int64_t o = 0;
    for (int64_t l = 0; l < s->nloops; ++l)
      o += s->cur[l] * ostride[s->var[l]];
    double p = t->coef;
    int64_t nv = 0;
    for (int64_t f = 0; f < t->nfactors; ++f) {
      const struct factor *x = &t->f[f];
      int64_t off = 0;
      for (int64_t l = 0; l < s->nloops; ++l)
        off += s->cur[l] * x->stride[s->var[l]];
      if (s->inner >= 0 && x->stride[s->inner] != 0) {
        vp[nv] = x->data + off;
        vs[nv++] = x->stride[s->inner];
      } else {
        p *= x->data[off];
      }
    }
    if (s->reduce)
      res[o] += p * sum_row(n, nv, vp, vs);
    else
      add_row(res + o, os, n, p, nv, vp, vs);
  } while (nest_next(s));
}

/* Adds term t, at every point of the output, into res. */
static void run_term(struct fast *F, const struct term *t, double *res,
                     const int64_t *ostride, const int64_t *freev,
                     int64_t nfree) {
  const distrt_reference *r = F->r;
  int64_t nvars = nfree + t->nscoped;
  struct nest s;
  /* One more slot than loops: hi[nloops] is the innermost extent. */
  s.var = distrt_ref_xrealloc(F->op, NULL, (size_t)nvars + 1, sizeof *s.var);
  s.lo = distrt_ref_xrealloc(F->op, NULL, (size_t)nvars + 1, sizeof *s.lo);
  s.hi = distrt_ref_xrealloc(F->op, NULL, (size_t)nvars + 1, sizeof *s.hi);
  s.cur = distrt_ref_xrealloc(F->op, NULL, (size_t)nvars + 1, sizeof *s.cur);
  s.nloops = 0;
  for (int64_t k = 0; k < nfree; ++k)
    s.var[s.nloops++] = freev[k];
  for (int64_t k = 0; k < t->nscoped; ++k)
    s.var[s.nloops++] = t->scoped[k];
  s.reduce = nfree == 0;
  s.inner = -1;
  if (nfree > 0) {
    /* The last free variable goes innermost; the others keep their order. */
    s.inner = freev[nfree - 1];
    memmove(&s.var[nfree - 1], &s.var[nfree],
            (size_t)(s.nloops - nfree) * sizeof *s.var);
    --s.nloops;
  } else if (s.nloops > 0) {
    s.inner = s.var[--s.nloops];
  }
  for (int64_t l = 0; l < s.nloops; ++l) {
    s.lo[l] = 0;
    s.hi[l] = r->vars[s.var[l]].extent;
  }
  s.hi[s.nloops] = s.inner >= 0 ? r->vars[s.inner].extent : 1;
  /* Block the first summed variable (when it is not innermost). */
  s.block = !s.reduce && t->nscoped > 0 ? nfree - 1 : -1;
  const double **vp =
      distrt_ref_xrealloc(F->op, NULL, (size_t)t->nfactors, sizeof *vp);
  int64_t *vs =
      distrt_ref_xrealloc(F->op, NULL, (size_t)t->nfactors, sizeof *vs);
  if (s.block < 0) {
    run_points(&s, t, res, ostride, vp, vs);
  } else {
    int64_t extent = s.hi[s.block];
    for (int64_t b = 0; b < extent; b += KBLOCK) {
      s.lo[s.block] = b;
      s.hi[s.block] = b + KBLOCK < extent ? b + KBLOCK : extent;
      run_points(&s, t, res, ostride, vp, vs);
    }
  }
  free(vp);
  free(vs);
  free(s.var);
  free(s.lo);
  free(s.hi);
  free(s.cur);
}

static void free_fast(struct fast *F) {
  for (int64_t k = 0; k < F->nterms; ++k) {
    for (int64_t f = 0; f < F->terms[k].nfactors; ++f)
      free(F->terms[k].f[f].stride);
    free(F->terms[k].f);
    free(F->terms[k].scoped);
  }
  free(F->terms);
  if (F->copies)
    for (int64_t t = 0; t < F->r->ntensors; ++t)
      free(F->copies[t]);
  free(F->copies);
}

int distrt_ref_fast_run(distrt_reference *r, const char *op) {
  if (r->dtype != DISTRT_F32 && r->dtype != DISTRT_F64)
    return 0;
  struct fast F = {r, op, NULL, 0, NULL};
  if (!collect_terms(&F, r->rhs, 1.0)) {
    free_fast(&F);
    return 0;
  }
  F.copies =
      distrt_ref_xrealloc(op, NULL, (size_t)r->ntensors, sizeof *F.copies);
  memset(F.copies, 0, (size_t)r->ntensors * sizeof *F.copies);
  for (int64_t k = 0; k < F.nterms; ++k) {
    int64_t next = 0;
    bind_data(&F, F.terms[k].root, &F.terms[k], &next);
  }
  /* The free variables (the left-hand side's, once each) and the output's
   * steps per variable. */
  struct ref_tensor *out = &r->tensors[r->lhs->tensor];
  int64_t *ostride = strides_of(&F, r->lhs, out);
  int64_t nfree;
  int64_t *freev = distrt_ref_free_vars(r, op, &nfree);
  /* Into a separate result, so that an output read on the right-hand side
   * gives its old values; '=' starts from zero, '+=' from the old values. */
  double *res = distrt_ref_xrealloc(op, NULL, (size_t)out->count, sizeof *res);
  const double *old = r->accumulate ? as_doubles(&F, r->lhs->tensor) : NULL;
  for (int64_t i = 0; i < out->count; ++i)
    res[i] = old ? old[i] : 0.0;
  for (int64_t k = 0; k < F.nterms; ++k)
    run_term(&F, &F.terms[k], res, ostride, freev, nfree);
  for (int64_t i = 0; i < out->count; ++i) {
    if (r->dtype == DISTRT_F32)
      ((float *)out->data)[i] = (float)res[i];
    else
      ((double *)out->data)[i] = res[i];
  }
  free(res);
  free(freev);
  free(ostride);
  free_fast(&F);
  return 1;
}
