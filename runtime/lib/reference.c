/*===- reference.c - independent reference evaluator of index notation -===*
 *
 * The correctness oracle of `dist-run --check`: a parser and interpreter for
 * the index-notation statement text the compiler prints, evaluated over
 * whole row-major tensors.  It shares no code with the compiler's lowering.
 *
 * Grammar (the compiler's):
 *   statement ::= access ('=' | '+=') expr
 *   expr      ::= term (('+' | '-') term)*
 *   term      ::= factor ('*' factor)*
 *   factor    ::= '-' factor | number | access | '(' expr ')'
 *   access    ::= name ('(' (index (',' index)*)? ')')?
 * A bare name is an order-0 tensor; numbers are read by strtod.
 *
 * Semantics (TACO / DISTAL / einsum; docs/dialect.md#summed-indices): the
 * index variables of the left-hand side are free; every other variable is
 * summed over the smallest node of the parse tree that contains all its
 * uses, except that an addition or subtraction never sums: there, each
 * operand that uses the variable sums it on its own (by the same rule) and
 * an operand that does not is counted once.  So
 *   A(i,j) = B(i,k) * C(k,j) + D(i,j)      is  sum_k (B * C) + D,
 *   a = B(i) + C(j)                        is  sum_i B(i) + sum_j C(j),
 *   A(i) = B(i,k) + D(i) + B(i,k) * C(k)   is  sum_k B + D + sum_k (B * C).
 * Each node carries the variables summed at it; evaluating a node loops
 * over them around the evaluation of its operation.
 *
 * Arithmetic: f32 and f64 are evaluated in double and rounded to the
 * element type when stored.  i32 and i64 wrap (two's complement) in the
 * element's width: values are kept as uint64_t, where +, -, * and negation
 * are exact modulo 2^64, and truncated to the width when stored (reduction
 * modulo 2^32 commutes with those operations, so this equals wrapping at
 * every step).  A constant in an integer statement is (int64_t)constant.
 *===----------------------------------------------------------------------===*/

#include "reference_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deepest expression tree, and deepest nesting of parentheses and unary
 * minus, a statement may have. */
#define REF_MAX_DEPTH 256

void *distrt_ref_xrealloc(const char *op, void *p, size_t n, size_t size) {
  if (n == 0)
    n = 1;
  if (n > SIZE_MAX / size)
    distrt_fatal(op, "out of memory (%zu items of %zu bytes)", n, size);
  void *q = realloc(p, n * size);
  if (!q)
    distrt_fatal(op, "out of memory (%zu bytes)", n * size);
  return q;
}

static char *xstrndup(const char *op, const char *s, size_t n) {
  char *d = distrt_ref_xrealloc(op, NULL, n + 1, 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

/*===-- parser -----------------------------------------------------------===*/

static const char *const kBeginOp = "distrt_reference_begin";

/* Messages quote the statement, cut after REF_QUOTE characters:
 *   printf("... " QUOTE " ...", QUOTED(text)). */
#define REF_QUOTE 200
#define QUOTE "\"%.*s%s\""
#define QUOTED(text)                                                           \
  (int)(strlen(text) > REF_QUOTE ? REF_QUOTE : strlen(text)), (text),          \
      (strlen(text) > REF_QUOTE ? "..." : "")

struct parser {
  distrt_reference *r;
  const char *s;
  size_t pos;
  int nesting; /* parentheses and unary minus around the current factor */
};

static void parse_error(const struct parser *p,
                        const char *message) DISTRT_NORETURN;
static void parse_error(const struct parser *p, const char *message) {
  distrt_fatal(kBeginOp, "invalid statement " QUOTE " at column %zu: %s",
               QUOTED(p->s), p->pos + 1, message);
}

static void skip(struct parser *p) {
  while (isspace((unsigned char)p->s[p->pos]))
    ++p->pos;
}

static int consume(struct parser *p, const char *token) {
  skip(p);
  size_t n = strlen(token);
  if (strncmp(p->s + p->pos, token, n) != 0)
    return 0;
  p->pos += n;
  return 1;
}

/* Length of the identifier at the current position (0 if none). */
static size_t identifier(struct parser *p) {
  skip(p);
  const char *s = p->s + p->pos;
  if (!isalpha((unsigned char)s[0]) && s[0] != '_')
    return 0;
  size_t n = 1;
  while (isalnum((unsigned char)s[n]) || s[n] == '_')
    ++n;
  return n;
}

static struct node *new_node(struct parser *p, enum node_kind kind,
                             struct node *lhs, struct node *rhs) {
  distrt_reference *r = p->r;
  struct node *n = distrt_ref_xrealloc(kBeginOp, NULL, 1, sizeof(*n));
  memset(n, 0, sizeof(*n));
  n->kind = kind;
  n->lhs = lhs;
  n->rhs = rhs;
  n->depth = 1;
  if (lhs && lhs->depth + 1 > n->depth)
    n->depth = lhs->depth + 1;
  if (rhs && rhs->depth + 1 > n->depth)
    n->depth = rhs->depth + 1;
  if (n->depth > REF_MAX_DEPTH) {
    free(n);
    parse_error(p, "the expression nests too deeply (more than 256 levels)");
  }
  r->nodes = distrt_ref_xrealloc(kBeginOp, r->nodes, (size_t)r->nnodes + 1,
                                 sizeof(*r->nodes));
  r->nodes[r->nnodes++] = n;
  return n;
}

/* Id of the tensor or variable `name` (length n), added if new. */
static int64_t intern_tensor(distrt_reference *r, const char *name, size_t n) {
  for (int64_t t = 0; t < r->ntensors; ++t)
    if (strlen(r->tensors[t].name) == n &&
        strncmp(r->tensors[t].name, name, n) == 0)
      return t;
  r->tensors = distrt_ref_xrealloc(
      kBeginOp, r->tensors, (size_t)r->ntensors + 1, sizeof(*r->tensors));
  struct ref_tensor *t = &r->tensors[r->ntensors];
  memset(t, 0, sizeof(*t));
  t->name = xstrndup(kBeginOp, name, n);
  return r->ntensors++;
}

static int64_t intern_var(distrt_reference *r, const char *name, size_t n) {
  for (int64_t v = 0; v < r->nvars; ++v)
    if (strlen(r->vars[v].name) == n && strncmp(r->vars[v].name, name, n) == 0)
      return v;
  r->vars = distrt_ref_xrealloc(kBeginOp, r->vars, (size_t)r->nvars + 1,
                                sizeof(*r->vars));
  struct ref_var *v = &r->vars[r->nvars];
  memset(v, 0, sizeof(*v));
  v->name = xstrndup(kBeginOp, name, n);
  v->extent = -1;
  return r->nvars++;
}

static struct node *parse_access(struct parser *p) {
  size_t n = identifier(p);
  if (n == 0)
    parse_error(p, "expected a tensor name");
  struct node *a = new_node(p, N_ACCESS, NULL, NULL);
  a->begin = p->pos;
  a->tensor = intern_tensor(p->r, p->s + p->pos, n);
  p->pos += n;
  a->end = p->pos;
  if (!consume(p, "("))
    return a; /* a bare name: an order-0 tensor */
  if (!consume(p, ")")) {
    do {
      size_t m = identifier(p);
      if (m == 0)
        parse_error(p, "expected an index variable");
      a->idx = distrt_ref_xrealloc(kBeginOp, a->idx, (size_t)a->nidx + 1,
                                   sizeof(*a->idx));
      a->idx[a->nidx++] = intern_var(p->r, p->s + p->pos, m);
      p->pos += m;
    } while (consume(p, ","));
    if (!consume(p, ")"))
      parse_error(p, "expected ',' or ')' in an access");
  }
  a->end = p->pos;
  return a;
}

static struct node *parse_expr(struct parser *p);

static struct node *parse_factor(struct parser *p) {
  skip(p);
  if (p->s[p->pos] == '\0')
    parse_error(p, "expected an access, a constant or '(' but the statement "
                   "ended");
  if (p->s[p->pos] == '-' || p->s[p->pos] == '(') {
    if (++p->nesting > REF_MAX_DEPTH)
      parse_error(p, "the expression nests too deeply (more than 256 "
                     "levels)");
    struct node *n;
    if (consume(p, "-")) {
      struct node *operand = parse_factor(p);
      n = new_node(p, N_NEG, operand, NULL);
    } else {
      consume(p, "(");
      n = parse_expr(p);
      if (!consume(p, ")"))
        parse_error(p, "expected ')'");
    }
    --p->nesting;
    return n;
  }
  char c = p->s[p->pos];
  if (isdigit((unsigned char)c) || c == '.') {
    char *end = NULL;
    double v = strtod(p->s + p->pos, &end);
    if (end == p->s + p->pos)
      parse_error(p, "malformed number");
    struct node *n = new_node(p, N_CONST, NULL, NULL);
    n->constant = v;
    p->pos = (size_t)(end - p->s);
    return n;
  }
  return parse_access(p);
}

static struct node *parse_term(struct parser *p) {
  struct node *lhs = parse_factor(p);
  while (consume(p, "*")) {
    struct node *rhs = parse_factor(p);
    lhs = new_node(p, N_MUL, lhs, rhs);
  }
  return lhs;
}

static struct node *parse_expr(struct parser *p) {
  struct node *lhs = parse_term(p);
  for (;;) {
    enum node_kind kind;
    if (consume(p, "+"))
      kind = N_ADD;
    else if (consume(p, "-"))
      kind = N_SUB;
    else
      return lhs;
    struct node *rhs = parse_term(p);
    lhs = new_node(p, kind, lhs, rhs);
  }
}

distrt_reference *distrt_reference_begin(const char *stmt, int64_t dtype) {
  if (!stmt)
    distrt_fatal(kBeginOp, "the statement is NULL");
  distrt_dtype_size(kBeginOp, dtype);
  distrt_reference *r = distrt_ref_xrealloc(kBeginOp, NULL, 1, sizeof(*r));
  memset(r, 0, sizeof(*r));
  r->text = xstrndup(kBeginOp, stmt, strlen(stmt));
  r->dtype = dtype;
  r->is_int = dtype == DISTRT_I32 || dtype == DISTRT_I64;
  struct parser p = {r, r->text, 0, 0};
  r->lhs = parse_access(&p);
  if (consume(&p, "+="))
    r->accumulate = 1;
  else if (!consume(&p, "="))
    parse_error(&p, "expected '=' or '+=' after the left-hand side");
  r->rhs = parse_expr(&p);
  skip(&p);
  if (p.s[p.pos] != '\0') {
    char message[64];
    snprintf(message, sizeof message,
             "unexpected '%c' after the end of the statement", p.s[p.pos]);
    parse_error(&p, message);
  }
  return r;
}

/*===-- binding ----------------------------------------------------------===*/

void distrt_reference_bind(distrt_reference *r, const char *name, int64_t rank,
                           const int64_t *shape, void *data) {
  const char *op = "distrt_reference_bind";
  if (!r)
    distrt_fatal(op, "the reference is NULL");
  if (!name)
    distrt_fatal(op, "the tensor name is NULL");
  struct ref_tensor *t = NULL;
  for (int64_t i = 0; i < r->ntensors; ++i)
    if (strcmp(r->tensors[i].name, name) == 0)
      t = &r->tensors[i];
  if (!t)
    distrt_fatal(op, "tensor '%s' does not occur in " QUOTE, name,
                 QUOTED(r->text));
  if (t->bound)
    distrt_fatal(op, "tensor '%s' of " QUOTE " is bound twice", name,
                 QUOTED(r->text));
  if (rank < 0 || rank > DISTRT_MAX_DIMS)
    distrt_fatal(op, "tensor '%s' has rank %lld (0 .. %d)", name,
                 (long long)rank, DISTRT_MAX_DIMS);
  if (rank > 0 && !shape)
    distrt_fatal(op, "the shape of tensor '%s' is NULL", name);
  t->rank = rank;
  t->count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] < 0)
      distrt_fatal(op,
                   "tensor '%s' has a negative extent %lld in dimension "
                   "%lld",
                   name, (long long)shape[d], (long long)d);
    t->shape[d] = shape[d];
    t->count = distrt_mul(op, "the tensor's element count", t->count, shape[d]);
  }
  distrt_mul(op, "the tensor's size in bytes", t->count,
             distrt_dtype_size(op, r->dtype));
  int64_t s = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    t->stride[d] = s;
    s *= t->shape[d];
  }
  distrt_check_buf(op, name, data, t->count);
  t->data = data;
  t->bound = 1;
}

/*===-- checks and scopes ------------------------------------------------===*/

static const char *const kRunOp = "distrt_reference_run";

/* Every access: its tensor is bound with as many dimensions as it has
 * indices, and each variable has one extent everywhere. */
static void check_access(distrt_reference *r, const struct node *a) {
  const struct ref_tensor *t = &r->tensors[a->tensor];
  int len = (int)(a->end - a->begin);
  const char *text = r->text + a->begin;
  if (!t->bound)
    distrt_fatal(kRunOp, "tensor '%s' of " QUOTE " is not bound", t->name,
                 QUOTED(r->text));
  if (a->nidx != t->rank)
    distrt_fatal(kRunOp,
                 "access %.*s in " QUOTE " has %lld index(es) but "
                 "tensor '%s' is bound with rank %lld",
                 len, text, QUOTED(r->text), (long long)a->nidx, t->name,
                 (long long)t->rank);
  for (int64_t d = 0; d < a->nidx; ++d) {
    struct ref_var *v = &r->vars[a->idx[d]];
    if (v->extent < 0) {
      v->extent = t->shape[d];
      v->origin = a;
      v->origin_dim = d;
    } else if (v->extent != t->shape[d]) {
      const struct node *o = v->origin;
      distrt_fatal(kRunOp,
                   "index variable '%s' of " QUOTE " has extent "
                   "%lld in %.*s (dimension %lld) but %lld in %.*s "
                   "(dimension %lld)",
                   v->name, QUOTED(r->text), (long long)v->extent,
                   (int)(o->end - o->begin), r->text + o->begin,
                   (long long)v->origin_dim, (long long)t->shape[d], len, text,
                   (long long)d);
    }
  }
}

static void check_tree(distrt_reference *r, const struct node *n) {
  if (!n)
    return;
  if (n->kind == N_ACCESS)
    check_access(r, n);
  check_tree(r, n->lhs);
  check_tree(r, n->rhs);
}

/* Number of uses of variable v in the subtree n. */
static int64_t count_uses(const struct node *n, int64_t v) {
  if (!n)
    return 0;
  if (n->kind != N_ACCESS)
    return count_uses(n->lhs, v) + count_uses(n->rhs, v);
  int64_t c = 0;
  for (int64_t d = 0; d < n->nidx; ++d)
    c += n->idx[d] == v;
  return c;
}

/* Sums variable v over subtree n, which holds all `total` of its uses: at
 * the smallest node holding them all, except that an addition or a
 * subtraction never sums: each operand that uses v sums it on its own, so
 * an operand that does not use v is counted once. */
static void assign_scope(struct node *n, int64_t v, int64_t total) {
  int64_t left = count_uses(n->lhs, v), right = count_uses(n->rhs, v);
  if (left == total) {
    assign_scope(n->lhs, v, total);
  } else if (right == total) {
    assign_scope(n->rhs, v, total);
  } else if (n->kind == N_ADD || n->kind == N_SUB) {
    assign_scope(n->lhs, v, left);
    assign_scope(n->rhs, v, right);
  } else {
    n->scoped = distrt_ref_xrealloc(kRunOp, n->scoped, (size_t)n->nscoped + 1,
                                    sizeof(*n->scoped));
    n->scoped[n->nscoped++] = v;
  }
}

static void assign_scopes(distrt_reference *r) {
  for (int64_t v = 0; v < r->nvars; ++v)
    if (count_uses(r->lhs, v) == 0) /* not free */
      assign_scope(r->rhs, v, count_uses(r->rhs, v));
}

/*===-- evaluation -------------------------------------------------------===*/

static scalar load(const distrt_reference *r, const struct ref_tensor *t,
                   int64_t i) {
  scalar x;
  switch (r->dtype) {
  case DISTRT_F32:
    x.f = ((const float *)t->data)[i];
    break;
  case DISTRT_F64:
    x.f = ((const double *)t->data)[i];
    break;
  case DISTRT_I32:
    x.i = (uint64_t)(int64_t)((const int32_t *)t->data)[i];
    break;
  default:
    x.i = (uint64_t)((const int64_t *)t->data)[i];
    break;
  }
  return x;
}

static void store(const distrt_reference *r, void *data, int64_t i, scalar x) {
  switch (r->dtype) {
  case DISTRT_F32:
    ((float *)data)[i] = (float)x.f;
    break;
  case DISTRT_F64:
    ((double *)data)[i] = x.f;
    break;
  case DISTRT_I32: {
    uint32_t w = (uint32_t)x.i; /* the low 32 bits, two's complement */
    memcpy((int32_t *)data + i, &w, sizeof w);
    break;
  }
  default:
    memcpy((int64_t *)data + i, &x.i, sizeof x.i);
    break;
  }
}

static scalar constant(const distrt_reference *r, double c) {
  scalar x;
  if (!r->is_int) {
    x.f = c;
    return x;
  }
  /* (int64_t)c, saturated where the C conversion would be undefined. */
  int64_t v;
  if (isnan(c))
    v = 0;
  else if (c >= 9223372036854775808.0)
    v = INT64_MAX;
  else if (c < -9223372036854775808.0)
    v = INT64_MIN;
  else
    v = (int64_t)c;
  x.i = (uint64_t)v;
  return x;
}

static scalar add(const distrt_reference *r, scalar a, scalar b) {
  if (r->is_int)
    a.i += b.i;
  else
    a.f += b.f;
  return a;
}

static scalar sub(const distrt_reference *r, scalar a, scalar b) {
  if (r->is_int)
    a.i -= b.i;
  else
    a.f -= b.f;
  return a;
}

static scalar mul(const distrt_reference *r, scalar a, scalar b) {
  if (r->is_int)
    a.i *= b.i;
  else
    a.f *= b.f;
  return a;
}

static scalar zero(const distrt_reference *r) { return constant(r, 0.0); }

/* Element offset of an access for the current variable values. */
static int64_t offset_of(const distrt_reference *r, const struct node *a) {
  const struct ref_tensor *t = &r->tensors[a->tensor];
  int64_t off = 0;
  for (int64_t d = 0; d < a->nidx; ++d)
    off += r->env[a->idx[d]] * t->stride[d];
  return off;
}

static scalar eval(distrt_reference *r, const struct node *n);

/* The node's own operation, its scoped variables fixed. */
static scalar eval_op(distrt_reference *r, const struct node *n) {
  switch (n->kind) {
  case N_ACCESS:
    return load(r, &r->tensors[n->tensor], offset_of(r, n));
  case N_CONST:
    return constant(r, n->constant);
  case N_NEG:
    return sub(r, zero(r), eval(r, n->lhs));
  case N_ADD:
    return add(r, eval(r, n->lhs), eval(r, n->rhs));
  case N_SUB:
    return sub(r, eval(r, n->lhs), eval(r, n->rhs));
  default:
    return mul(r, eval(r, n->lhs), eval(r, n->rhs));
  }
}

/* Sets vars[0..n) to their first combination; 0 if there is none (an
 * empty extent). */
static int first_point(distrt_reference *r, int64_t n, const int64_t *vars) {
  for (int64_t k = 0; k < n; ++k) {
    if (r->vars[vars[k]].extent == 0)
      return 0;
    r->env[vars[k]] = 0;
  }
  return 1;
}

/* Advances vars[0..n) row-major (the last fastest); 0 after the last. */
static int next_point(distrt_reference *r, int64_t n, const int64_t *vars) {
  for (int64_t k = n - 1; k >= 0; --k) {
    if (++r->env[vars[k]] < r->vars[vars[k]].extent)
      return 1;
    r->env[vars[k]] = 0;
  }
  return 0;
}

/* The node's value: its operation summed over its scoped variables. */
static scalar eval(distrt_reference *r, const struct node *n) {
  if (n->nscoped == 0)
    return eval_op(r, n);
  scalar sum = zero(r);
  if (!first_point(r, n->nscoped, n->scoped))
    return sum;
  do
    sum = add(r, sum, eval_op(r, n));
  while (next_point(r, n->nscoped, n->scoped));
  return sum;
}

static void free_reference(distrt_reference *r) {
  for (int64_t i = 0; i < r->nnodes; ++i) {
    free(r->nodes[i]->idx);
    free(r->nodes[i]->scoped);
    free(r->nodes[i]);
  }
  for (int64_t t = 0; t < r->ntensors; ++t)
    free(r->tensors[t].name);
  for (int64_t v = 0; v < r->nvars; ++v)
    free(r->vars[v].name);
  free(r->nodes);
  free(r->tensors);
  free(r->vars);
  free(r->env);
  free(r->text);
  free(r);
}

int64_t *distrt_ref_free_vars(const distrt_reference *r, const char *op,
                              int64_t *n) {
  int64_t *vars =
      distrt_ref_xrealloc(op, NULL, (size_t)r->lhs->nidx, sizeof *vars);
  *n = 0;
  for (int64_t d = 0; d < r->lhs->nidx; ++d) {
    int seen = 0;
    for (int64_t k = 0; k < *n; ++k)
      seen |= vars[k] == r->lhs->idx[d];
    if (!seen)
      vars[(*n)++] = r->lhs->idx[d];
  }
  return vars;
}

/* DISTRT_REFERENCE: "auto" (default, also unset or empty) evaluates float
 * statements that are sums of products as loop nests (reference_fast.c),
 * "interpret" walks the tree for every statement. */
static int loop_nests(void) {
  const char *env = getenv("DISTRT_REFERENCE");
  if (!env || !*env || strcmp(env, "auto") == 0)
    return 1;
  if (strcmp(env, "interpret") == 0)
    return 0;
  distrt_fatal(kRunOp,
               "DISTRT_REFERENCE is '%s': expected 'auto' or "
               "'interpret'",
               env);
}

/* With DISTRT_VERBOSE set (and not 0): which evaluator ran the statement. */
static void verbose_line(const distrt_reference *r, const char *how) {
  const char *verbose = getenv("DISTRT_VERBOSE");
  if (!verbose || !*verbose || strcmp(verbose, "0") == 0)
    return;
  fprintf(stderr, "distrt: reference: " QUOTE " by %s\n", QUOTED(r->text), how);
  fflush(stderr);
}

void distrt_reference_run(distrt_reference *r) {
  if (!r)
    distrt_fatal(kRunOp, "the reference is NULL");
  for (int64_t t = 0; t < r->ntensors; ++t)
    if (!r->tensors[t].bound)
      distrt_fatal(kRunOp, "tensor '%s' of " QUOTE " is not bound",
                   r->tensors[t].name, QUOTED(r->text));
  check_access(r, r->lhs);
  check_tree(r, r->rhs);
  assign_scopes(r);
  r->env = distrt_ref_xrealloc(kRunOp, NULL, (size_t)r->nvars, sizeof(*r->env));
  if (loop_nests() && distrt_ref_fast_run(r, kRunOp)) {
    verbose_line(r, "loop nests");
    free_reference(r);
    return;
  }
  verbose_line(r, "the interpreter");
  /* Into a separate result, so that an output read on the right-hand side
   * gives its old values; '=' starts from zero, '+=' from the old values. */
  struct ref_tensor *out = &r->tensors[r->lhs->tensor];
  scalar *result =
      distrt_ref_xrealloc(kRunOp, NULL, (size_t)out->count, sizeof(scalar));
  for (int64_t i = 0; i < out->count; ++i)
    result[i] = r->accumulate ? load(r, out, i) : zero(r);
  int64_t nfree;
  int64_t *free_vars = distrt_ref_free_vars(r, kRunOp, &nfree);
  if (first_point(r, nfree, free_vars)) {
    do {
      int64_t off = offset_of(r, r->lhs);
      scalar v = eval(r, r->rhs);
      result[off] = r->accumulate ? add(r, result[off], v) : v;
    } while (next_point(r, nfree, free_vars));
  }
  for (int64_t i = 0; i < out->count; ++i)
    store(r, out->data, i, result[i]);
  free(free_vars);
  free(result);
  free_reference(r);
}
