/* distrt-test-reference_fast [time N]: the --check reference's two
 * evaluators against each other.
 *
 * Without arguments: every statement below, on data drawn from a fixed
 * seed, is evaluated by the tree-walking interpreter
 * (DISTRT_REFERENCE=interpret) and by the default (loop nests where the
 * statement is a sum of products: runtime/lib/reference_fast.c); the two
 * must agree to rounding (within 1e-12 for f64 and 1e-5 for f32, where
 * values are sums of at most a few hundred products of numbers in
 * [-1, 1]).  Sizes do not divide the loop nests' block of 64, and
 * every kind of term appears: products, transposed and diagonal accesses,
 * broadcasts, constants, minus, '+=', order-0 outputs, one to four factors
 * varying along the innermost loop.  test/Runtime/reference-fast.test runs it
 * with DISTRT_VERBOSE=1 and checks which evaluator ran each statement, so
 * that a statement quietly falling back to the interpreter fails.
 *
 * "time N": the seconds each evaluator takes for an N^3 f64 GEMM (a
 * measurement for docs/testing.md, not a test). */
#define _POSIX_C_SOURCE 200809L

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXT 6

struct operand {
  const char *name;
  int64_t rank;
  int64_t shape[4];
};

struct statement {
  const char *text;
  int64_t dtype;
  int64_t n; /* operands; the first is the output */
  struct operand t[MAXT];
};

static const struct statement kStatements[] = {
    {"A(i,j) = B(i,k) * C(k,j)", DISTRT_F64, 3,
     {{"A", 2, {37, 29}}, {"B", 2, {37, 150}}, {"C", 2, {150, 29}}}},
    {"A(i,j) += B(i,k) * C(k,j) + D(i,j)", DISTRT_F64, 4,
     {{"A", 2, {13, 70}},
      {"B", 2, {13, 65}},
      {"C", 2, {65, 70}},
      {"D", 2, {13, 70}}}},
    {"A(j,i) = B(i,k) * C(k,j)", DISTRT_F64, 3,
     {{"A", 2, {11, 17}}, {"B", 2, {17, 130}}, {"C", 2, {130, 11}}}},
    {"A(i,j) = B(i,j,k) * c(k)", DISTRT_F64, 3,
     {{"A", 2, {9, 10}}, {"B", 3, {9, 10, 67}}, {"c", 1, {67}}}},
    {"a = B(i,j,k) * C(i,j,k)", DISTRT_F64, 3,
     {{"a", 0, {0}}, {"B", 3, {7, 9, 11}}, {"C", 3, {7, 9, 11}}}},
    {"A(i,j,l) = B(i,j,k) * C(k,l)", DISTRT_F64, 3,
     {{"A", 3, {5, 6, 7}}, {"B", 3, {5, 6, 66}}, {"C", 2, {66, 7}}}},
    {"A(i,l) = B(i,j,k) * C(j,l) * D(k,l)", DISTRT_F64, 4,
     {{"A", 2, {6, 5}},
      {"B", 3, {6, 70, 9}},
      {"C", 2, {70, 5}},
      {"D", 2, {9, 5}}}},
    {"A(i,j) = B(i,j) - 2 * C(j,i) + -D(i)", DISTRT_F64, 4,
     {{"A", 2, {8, 9}}, {"B", 2, {8, 9}}, {"C", 2, {9, 8}}, {"D", 1, {8}}}},
    {"A(i) = B(i,i) * c(i) - B(i,j) * c(j)", DISTRT_F64, 3,
     {{"A", 1, {33}}, {"B", 2, {33, 33}}, {"c", 1, {33}}}},
    {"a = B(i) * C(j)", DISTRT_F64, 3,
     {{"a", 0, {0}}, {"B", 1, {21}}, {"C", 1, {19}}}},
    {"A(i,j) = B(i,j) * C(i,j) * D(j) * E(i,j)", DISTRT_F64, 5,
     {{"A", 2, {7, 8}},
      {"B", 2, {7, 8}},
      {"C", 2, {7, 8}},
      {"D", 1, {8}},
      {"E", 2, {7, 8}}}},
    {"A(i,j,k) = B(i) * C(j) * D(k) * E(i,j,k) + 0.5", DISTRT_F64, 5,
     {{"A", 3, {3, 4, 5}},
      {"B", 1, {3}},
      {"C", 1, {4}},
      {"D", 1, {5}},
      {"E", 3, {3, 4, 5}}}},
    {"A(i,j) = B(i,k) * C(k,j)", DISTRT_F32, 3,
     {{"A", 2, {19, 23}}, {"B", 2, {19, 129}}, {"C", 2, {129, 23}}}},
    {"a += B(i,k) * C(k)", DISTRT_F32, 3,
     {{"a", 0, {0}}, {"B", 2, {12, 100}}, {"C", 1, {100}}}},
    /* Not a sum of products (a sum inside a product): the interpreter. */
    {"A(i) = B(i,j) * (C(j) + D(j,k))", DISTRT_F64, 4,
     {{"A", 1, {6}}, {"B", 2, {6, 7}}, {"C", 1, {7}}, {"D", 2, {7, 8}}}},
};

static uint64_t seed = 12345;

static double draw(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static int64_t count(const struct operand *o) {
  int64_t c = 1;
  for (int64_t d = 0; d < o->rank; ++d)
    c *= o->shape[d];
  return c;
}

/* Evaluates s on data (each operand's elements) into out. */
static void evaluate(const struct statement *s, void **data, void *out) {
  distrt_reference *r = distrt_reference_begin(s->text, s->dtype);
  memcpy(out, data[0], (size_t)(count(&s->t[0]) * tu_esize(s->dtype)));
  for (int64_t k = 0; k < s->n; ++k) {
    const struct operand *o = &s->t[k];
    int64_t one = 1;
    distrt_reference_bind(r, o->name, o->rank, o->rank ? o->shape : &one,
                          k == 0 ? out : data[k]);
  }
  distrt_reference_run(r);
}

static void compare(const struct statement *s) {
  void *data[MAXT];
  for (int64_t k = 0; k < s->n; ++k) {
    int64_t c = count(&s->t[k]);
    data[k] = malloc((size_t)(c * tu_esize(s->dtype)));
    for (int64_t i = 0; i < c; ++i)
      tu_set(data[k], s->dtype, i, draw());
  }
  int64_t c = count(&s->t[0]);
  void *nest = malloc((size_t)(c * tu_esize(s->dtype)));
  void *tree = malloc((size_t)(c * tu_esize(s->dtype)));
  setenv("DISTRT_REFERENCE", "interpret", 1);
  evaluate(s, data, tree);
  unsetenv("DISTRT_REFERENCE");
  evaluate(s, data, nest);
  double tol = s->dtype == DISTRT_F32 ? 1e-5 : 1e-12;
  int bad = 0;
  for (int64_t i = 0; i < c && !bad; ++i) {
    double a = tu_get(nest, s->dtype, i), b = tu_get(tree, s->dtype, i);
    bad = !(fabs(a - b) <= tol);
    EXPECT(!bad, "%s: element %lld: loop nests %.17g, interpreter %.17g",
           s->text, (long long)i, a, b);
  }
  tu_section("loop nests = interpreter: %s", s->text);
  for (int64_t k = 0; k < s->n; ++k)
    free(data[k]);
  free(nest);
  free(tree);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void time_gemm(int64_t n) {
  double *b = malloc((size_t)(n * n) * sizeof *b);
  double *c = malloc((size_t)(n * n) * sizeof *c);
  double *a = malloc((size_t)(n * n) * sizeof *a);
  for (int64_t i = 0; i < n * n; ++i) {
    b[i] = draw();
    c[i] = draw();
  }
  const char *how[2] = {"auto", "interpret"};
  for (int k = 0; k < 2; ++k) {
    setenv("DISTRT_REFERENCE", how[k], 1);
    double t0 = now();
    distrt_reference *r =
        distrt_reference_begin("A(i,j) = B(i,k) * C(k,j)", DISTRT_F64);
    distrt_reference_bind(r, "A", 2, (int64_t[]){n, n}, a);
    distrt_reference_bind(r, "B", 2, (int64_t[]){n, n}, b);
    distrt_reference_bind(r, "C", 2, (int64_t[]){n, n}, c);
    distrt_reference_run(r);
    printf("reference %s: %lld^3 f64 GEMM in %.3f s\n", how[k], (long long)n,
           now() - t0);
  }
  free(a);
  free(b);
  free(c);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "time") == 0) {
    time_gemm(atoll(argv[2]));
    return 0;
  }
  tu_init("distrt-test-reference_fast");
  for (size_t k = 0; k < sizeof kStatements / sizeof *kStatements; ++k)
    compare(&kStatements[k]);
  return tu_finish();
}
