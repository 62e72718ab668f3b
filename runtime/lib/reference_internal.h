/*===- reference_internal.h - the --check evaluator's data (private) -----===*
 *
 * Shared by reference.c (parser, checks, the tree-walking interpreter) and
 * reference_fast.c (the loop-nest evaluation of float statements that are
 * signed sums of products).  Not installed.
 *===----------------------------------------------------------------------===*/
#ifndef DISTRT_REFERENCE_INTERNAL_H
#define DISTRT_REFERENCE_INTERNAL_H

#include "internal.h"

#include <stddef.h>
#include <stdint.h>

enum node_kind { N_ACCESS, N_CONST, N_NEG, N_ADD, N_SUB, N_MUL };

struct node {
  enum node_kind kind;
  struct node *lhs, *rhs; /* operands; N_NEG uses lhs only */
  double constant;        /* N_CONST */
  int64_t tensor;         /* N_ACCESS: index into r->tensors */
  int64_t nidx;           /* N_ACCESS: number of indices */
  int64_t *idx;           /* N_ACCESS: variable of each index */
  size_t begin, end;      /* N_ACCESS: its text, for messages */
  int64_t nscoped;        /* variables summed at this node */
  int64_t *scoped;
  int depth; /* height of the subtree */
};

struct ref_tensor {
  char *name;
  int bound;
  int64_t rank, count;
  int64_t shape[DISTRT_MAX_DIMS], stride[DISTRT_MAX_DIMS];
  void *data;
};

struct ref_var {
  char *name;
  int64_t extent;            /* -1 until an access fixes it */
  const struct node *origin; /* the access that fixed the extent */
  int64_t origin_dim;
};

struct distrt_reference {
  char *text;
  int64_t dtype;
  int is_int;
  int accumulate;
  struct node *lhs, *rhs;
  struct ref_tensor *tensors;
  int64_t ntensors;
  struct ref_var *vars;
  int64_t nvars;
  int64_t *env;        /* current value of each variable */
  struct node **nodes; /* every node, for freeing */
  int64_t nnodes;
};

/* A value: double for float statements, uint64_t (mod 2^64) for integer
 * ones. */
typedef union {
  double f;
  uint64_t i;
} scalar;

/* Allocation that ends in distrt_fatal(op, ...) when memory runs out; n = 0
 * allocates one item. */
void *distrt_ref_xrealloc(const char *op, void *p, size_t n, size_t size);

/* The free variables (those of the left-hand side, once each, in their
 * order): an allocated array of *n of them. */
int64_t *distrt_ref_free_vars(const distrt_reference *r, const char *op,
                              int64_t *n);

/* reference_fast.c: evaluates r (checked, scopes assigned, env allocated)
 * into its output tensor and returns 1 when the statement is f32 or f64 and
 * its right-hand side is a signed sum of terms, each a product of accesses
 * and constants that sums its variables only at its top; returns 0, having
 * changed nothing, otherwise. */
int distrt_ref_fast_run(distrt_reference *r, const char *op);

#endif /* DISTRT_REFERENCE_INTERNAL_H */
