/* distrt-test-reference [CASE]: the --check oracle.
 *
 * Without CASE (under mpirun, any rank count): the reference evaluator of
 * index notation (distrt_reference_*) against expected values written by
 * hand or computed by plain loops here, then distrt_check_result on a grid
 * (2x2 on 4 ranks) for replicated, cyclic, face-fixed and scalar layouts
 * whose every copy is right: each check must PASS.
 *
 * CASE "corrupt" (4 ranks): the same layouts with a replica on a rank other
 * than 0 corrupted: each check must FAIL, naming the first bad rank and
 * element (the program then exits 1, as any program whose check failed).
 *
 * Other CASEs misuse the evaluator without MPI; each must end in
 * distrt_fatal (test/Runtime/reference.test checks the messages).  Prints
 * "UNEXPECTED" if the runtime did not stop it. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===-- the reference evaluator ------------------------------------------===*/

/* Values with small integers, so float results are exact. */
static void iota(double *x, int64_t n, int64_t mul, int64_t mod,
                 int64_t shift) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = (double)((i * mul) % mod - shift);
}

static void expect_equal(const char *what, const double *got,
                         const double *want, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    EXPECT(got[i] == want[i], "%s: element %lld is %.17g, expected %.17g",
           what, (long long)i, got[i], want[i]);
}

/* A(i,j) = B(i,k) * C(k,j) + D(i,j): B.C + D (D is not summed over k). */
static void test_matmul_plus(void) {
  enum { I = 3, J = 5, K = 4 };
  double A[I * J], B[I * K], C[K * J], D[I * J], want[I * J];
  iota(B, I * K, 3, 7, 3);
  iota(C, K * J, 5, 11, 5);
  iota(D, I * J, 1, 13, 6);
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += B[i * K + k] * C[k * J + j];
      want[i * J + j] = s + D[i * J + j];
    }
  memset(A, 0x7f, sizeof A); /* '=' must overwrite every element */
  distrt_reference *r =
      distrt_reference_begin("A(i,j) = B(i,k) * C(k,j) + D(i,j)", DISTRT_F64);
  distrt_reference_bind(r, "A", 2, (int64_t[]){I, J}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){I, K}, B);
  distrt_reference_bind(r, "C", 2, (int64_t[]){K, J}, C);
  distrt_reference_bind(r, "D", 2, (int64_t[]){I, J}, D);
  distrt_reference_run(r);
  expect_equal("B.C + D", A, want, I * J);
}

/* Scopes: the smallest sub-expression holding every use. */
static void test_scopes(void) {
  enum { I = 3, J = 4, K = 2 };
  double B[I * J], C[J], D[J * K], E[I], A[I], want[I];
  iota(B, I * J, 7, 5, 2);
  iota(C, J, 3, 4, 1);
  iota(D, J * K, 5, 9, 4);
  iota(E, I, 2, 5, 1);
  /* sum_j B(i,j) * (C(j) + sum_k D(j,k)) */
  for (int i = 0; i < I; ++i) {
    want[i] = 0;
    for (int j = 0; j < J; ++j) {
      double dk = 0;
      for (int k = 0; k < K; ++k)
        dk += D[j * K + k];
      want[i] += B[i * J + j] * (C[j] + dk);
    }
  }
  distrt_reference *r =
      distrt_reference_begin("A(i) = B(i,j)*(C(j) + D(j,k))", DISTRT_F64);
  distrt_reference_bind(r, "B", 2, (int64_t[]){I, J}, B);
  distrt_reference_bind(r, "C", 1, (int64_t[]){J}, C);
  distrt_reference_bind(r, "D", 2, (int64_t[]){J, K}, D);
  distrt_reference_bind(r, "A", 1, (int64_t[]){I}, A);
  distrt_reference_run(r);
  expect_equal("B*(C + D)", A, want, I);

  /* a = B(i) + C(j): sum_i B(i) + sum_j C(j), by hand: B = 1 2 3,
   * C = 10 20 30 40. */
  double b[3] = {1, 2, 3}, c[4] = {10, 20, 30, 40}, a = -1;
  r = distrt_reference_begin("a = B(i) + C(j)", DISTRT_F64);
  distrt_reference_bind(r, "a", 0, NULL, &a);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, b);
  distrt_reference_bind(r, "C", 1, (int64_t[]){4}, c);
  distrt_reference_run(r);
  EXPECT(a == 106, "a = B(i) + C(j) is %g, expected 106", a);

  /* ((B + C) + E): sum_j (B(i,j) + C(i,j)) + E(i). */
  double Bm[I * J], Cm[I * J];
  iota(Bm, I * J, 3, 10, 4);
  iota(Cm, I * J, 7, 6, 2);
  for (int i = 0; i < I; ++i) {
    want[i] = E[i];
    for (int j = 0; j < J; ++j)
      want[i] += Bm[i * J + j] + Cm[i * J + j];
  }
  r = distrt_reference_begin("A(i) = B(i,j) + C(i,j) + E(i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){I}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){I, J}, Bm);
  distrt_reference_bind(r, "C", 2, (int64_t[]){I, J}, Cm);
  distrt_reference_bind(r, "E", 1, (int64_t[]){I}, E);
  distrt_reference_run(r);
  expect_equal("B + C + E", A, want, I);

  /* B(i,j) - C(i): sum_j B(i,j) - C(i), not - n_j * C(i).  Rows of B:
   * 1 2 3 4 / 5 6 7 8 / 0 0 0 1; C = 1 2 3. */
  double Bs[12] = {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1}, Cs[3] = {1, 2, 3};
  r = distrt_reference_begin("A(i) = B(i,j) - C(i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 4}, Bs);
  distrt_reference_bind(r, "C", 1, (int64_t[]){3}, Cs);
  distrt_reference_run(r);
  expect_equal("B - C", A, (double[]){9, 24, -2}, 3);

  /* An addition never sums: the smallest node holding every use of k is
   * the outer '+', but D(i) is counted once, not once per k.  B = 1
   * (3x4), C = 2, D = 3: 4 + 3 + 8 = 15 (not 4 + 4 * 3 + 8 = 24). */
  double Bo[12], Co[4], Do[3], Ao[3];
  for (int i = 0; i < 12; ++i)
    Bo[i] = 1;
  for (int i = 0; i < 4; ++i)
    Co[i] = 2;
  for (int i = 0; i < 3; ++i)
    Do[i] = 3;
  r = distrt_reference_begin("A(i) = B(i,k) + D(i) + B(i,k) * C(k)",
                             DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, Ao);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 4}, Bo);
  distrt_reference_bind(r, "C", 1, (int64_t[]){4}, Co);
  distrt_reference_bind(r, "D", 1, (int64_t[]){3}, Do);
  distrt_reference_run(r);
  expect_equal("B + D + B*C", Ao, (double[]){15, 15, 15}, 3);
  /* sum_k B(i,k) + D(i) - sum_k C(k): 4 + 3 - 8 = -1, inside a negation. */
  r = distrt_reference_begin("A(i) = -(B(i,k) + D(i) - C(k))", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, Ao);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 4}, Bo);
  distrt_reference_bind(r, "C", 1, (int64_t[]){4}, Co);
  distrt_reference_bind(r, "D", 1, (int64_t[]){3}, Do);
  distrt_reference_run(r);
  expect_equal("-(B + D - C)", Ao, (double[]){1, 1, 1}, 3);
  /* A product sums what both factors use: sum_k (B(i,k) + D(i)) * C(k) =
   * 4 * (1 + 3) * 2 = 32. */
  r = distrt_reference_begin("A(i) = (B(i,k) + D(i)) * C(k)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, Ao);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 4}, Bo);
  distrt_reference_bind(r, "C", 1, (int64_t[]){4}, Co);
  distrt_reference_bind(r, "D", 1, (int64_t[]){3}, Do);
  distrt_reference_run(r);
  expect_equal("(B + D) * C", Ao, (double[]){32, 32, 32}, 3);

  /* A free variable used only on the left: a broadcast. */
  double Ab[6];
  r = distrt_reference_begin("A(i,j) = B(i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 2, (int64_t[]){3, 2}, Ab);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, b);
  distrt_reference_run(r);
  expect_equal("broadcast", Ab, (double[]){1, 1, 2, 2, 3, 3}, 6);
}

/* +=, scalars, the output read on the right, a product of three. */
static void test_accumulate_and_scalars(void) {
  double A[4] = {1, 2, 3, 4}, B[4] = {2, 0, -2, 4};
  distrt_reference *r =
      distrt_reference_begin("A(i,j) += B(i,j) * 2.5", DISTRT_F64);
  distrt_reference_bind(r, "A", 2, (int64_t[]){2, 2}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, B);
  distrt_reference_run(r);
  expect_equal("+=", A, (double[]){6, 2, -2, 14}, 4);

  /* a += B(i) * C(i): a dot product added to a. */
  double a = 100, x[3] = {1, 2, 3}, y[3] = {4, 5, 6};
  r = distrt_reference_begin("a += B(i) * C(i)", DISTRT_F64);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, x);
  distrt_reference_bind(r, "C", 1, (int64_t[]){3}, y);
  distrt_reference_bind(r, "a", 0, NULL, &a);
  distrt_reference_run(r);
  EXPECT(a == 132, "a += B.C is %g, expected 132", a);

  /* Order-0 tensors only; "s()" is a scalar too. */
  double s = 0, b = 3, c = -4;
  r = distrt_reference_begin("s() = b * c + 1.5", DISTRT_F64);
  distrt_reference_bind(r, "s", 0, NULL, &s);
  distrt_reference_bind(r, "b", 0, NULL, &b);
  distrt_reference_bind(r, "c", 0, NULL, &c);
  distrt_reference_run(r);
  EXPECT(s == -10.5, "s = b*c + 1.5 is %g, expected -10.5", s);

  /* A(i) = A(i) * 2 + B(i) reads the old A. */
  double v[3] = {1, 2, 3};
  r = distrt_reference_begin("A(i) = A(i) * 2 + B(i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, v);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, x);
  distrt_reference_run(r);
  expect_equal("A*2 + B", v, (double[]){3, 6, 9}, 3);

  /* A(i,l) = B(i,j) * (C(j,k) * D(k,l)) with 2x2 matrices. */
  double P[4], Q[4] = {1, 2, 3, 4}, R[4] = {0, 1, 1, 0}, S[4] = {2, 0, 0, 3};
  r = distrt_reference_begin("A(i,l) = B(i,j) * (C(j,k) * D(k,l))",
                             DISTRT_F64);
  distrt_reference_bind(r, "A", 2, (int64_t[]){2, 2}, P);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, Q);
  distrt_reference_bind(r, "C", 2, (int64_t[]){2, 2}, R);
  distrt_reference_bind(r, "D", 2, (int64_t[]){2, 2}, S);
  distrt_reference_run(r);
  /* R.S = [0 3; 2 0]; Q.(R.S) = [4 3; 8 9]. */
  expect_equal("B.(C.D)", P, (double[]){4, 3, 8, 9}, 4);
}

/* Constants, subtraction, unary minus; floats in double. */
static void test_constants(void) {
  double A[3], B[3] = {2, -4, 8};
  distrt_reference *r = distrt_reference_begin(
      "A(i) = 0.5 * B(i) + 1e-3 - 2.5e+00 - -B(i) * -(1)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, A);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, B);
  distrt_reference_run(r);
  /* 0.5 B + 0.001 - 2.5 - B */
  expect_equal("float constants", A,
               (double[]){1 + 0.001 - 2.5 - 2, -2 + 0.001 - 2.5 + 4,
                          4 + 0.001 - 2.5 - 8},
               3);

  /* Integer statements: 2.9 -> 2, -1.5 -> -(1). */
  int64_t Ai[3], Bi[3] = {5, -7, 0};
  r = distrt_reference_begin("A(i) = B(i) * 2.9 + -1.5 - (3 - B(i))",
                             DISTRT_I64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, Ai);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, Bi);
  distrt_reference_run(r);
  /* 2B - 1 - 3 + B = 3B - 4 */
  EXPECT(Ai[0] == 11 && Ai[1] == -25 && Ai[2] == -4,
         "integer constants: %lld %lld %lld, expected 11 -25 -4",
         (long long)Ai[0], (long long)Ai[1], (long long)Ai[2]);

  /* f32: evaluated in double, rounded once: 1 + 2^-24 + 2^-24 is
   * 1 + 2^-23 (a float sum would stay at 1). */
  float f[3] = {1.0f, 0x1p-24f, 0x1p-24f}, fs = 0;
  r = distrt_reference_begin("s = B(i)", DISTRT_F32);
  distrt_reference_bind(r, "s", 0, NULL, &fs);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, f);
  distrt_reference_run(r);
  EXPECT(fs == 1.0f + 0x1p-23f, "f32 sum is %.9g, expected %.9g",
         (double)fs, (double)(1.0f + 0x1p-23f));
}

/* Integers wrap in their width. */
static void test_wrap(void) {
  int32_t A[3], B[3] = {65536, INT32_MAX, INT32_MIN},
                C[3] = {65536, 1, 1};
  distrt_reference *r =
      distrt_reference_begin("A(i) = B(i) * C(i) + 2147483647", DISTRT_I32);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, A);
  distrt_reference_bind(r, "B", 1, (int64_t[]){3}, B);
  distrt_reference_bind(r, "C", 1, (int64_t[]){3}, C);
  distrt_reference_run(r);
  /* 2^32 wraps to 0; INT32_MAX + INT32_MAX = -2; INT32_MIN + INT32_MAX = -1 */
  EXPECT(A[0] == INT32_MAX && A[1] == -2 && A[2] == -1,
         "i32 wrap: %d %d %d, expected %d -2 -1", A[0], A[1], A[2],
         INT32_MAX);

  int32_t s = 0, v[2] = {INT32_MAX, 1};
  r = distrt_reference_begin("s = -B(i)", DISTRT_I32);
  distrt_reference_bind(r, "s", 0, NULL, &s);
  distrt_reference_bind(r, "B", 1, (int64_t[]){2}, v);
  distrt_reference_run(r);
  EXPECT(s == INT32_MIN, "i32 -(MAX) - 1 is %d, expected %d", s, INT32_MIN);

  int64_t t = 0, w[2] = {INT64_MAX, INT64_MAX};
  r = distrt_reference_begin("t = B(i) + 3", DISTRT_I64);
  distrt_reference_bind(r, "t", 0, NULL, &t);
  distrt_reference_bind(r, "B", 1, (int64_t[]){2}, w);
  distrt_reference_run(r);
  /* i is summed at B(i): 2 * (2^63 - 1) + 3 = 2^64 + 1 -> 1 */
  EXPECT(t == 1, "i64 wrap is %lld, expected 1", (long long)t);
}

/* A tensor used twice, an index used twice in one access, empty extents. */
static void test_repeats_and_empty(void) {
  double B[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, A[3];
  distrt_reference *r =
      distrt_reference_begin("A(i) = B(i,j) * B(j,i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 3}, B);
  distrt_reference_run(r);
  /* diag(B.B) = 1+8+21, 8+25+48, 21+48+81 */
  expect_equal("B(i,j)*B(j,i)", A, (double[]){30, 81, 150}, 3);

  r = distrt_reference_begin("A(i) = B(i,i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){3}, A);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 3}, B);
  distrt_reference_run(r);
  expect_equal("diagonal", A, (double[]){1, 5, 9}, 3);

  double tr = 0;
  r = distrt_reference_begin("t = B(i,i)", DISTRT_F64);
  distrt_reference_bind(r, "t", 0, NULL, &tr);
  distrt_reference_bind(r, "B", 2, (int64_t[]){3, 3}, B);
  distrt_reference_run(r);
  EXPECT(tr == 15, "trace is %g, expected 15", tr);

  /* j has extent 0: empty sums; += keeps the old values. */
  double Z[2] = {7, 8};
  r = distrt_reference_begin("A(i) = B(i,j) + 1", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){2}, Z);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 0}, NULL);
  distrt_reference_run(r);
  /* j is summed at B(i,j) (an empty sum, 0), then 1 is added. */
  expect_equal("empty sum", Z, (double[]){1, 1}, 2);
  r = distrt_reference_begin("A(i) = B(i,j) * C(j) + 1", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){2}, Z);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 0}, NULL);
  distrt_reference_bind(r, "C", 1, (int64_t[]){0}, NULL);
  distrt_reference_run(r);
  expect_equal("empty product sum", Z, (double[]){1, 1}, 2);
  r = distrt_reference_begin("A(i) = (B(i,j) + C(j)) * 2", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){2}, Z);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 0}, NULL);
  distrt_reference_bind(r, "C", 1, (int64_t[]){0}, NULL);
  distrt_reference_run(r);
  expect_equal("empty sum of a sum", Z, (double[]){0, 0}, 2);
  double Y[2] = {7, 8};
  r = distrt_reference_begin("A(i) += B(i,j) * 3", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){2}, Y);
  distrt_reference_bind(r, "B", 2, (int64_t[]){2, 0}, NULL);
  distrt_reference_run(r);
  expect_equal("empty sum +=", Y, (double[]){7, 8}, 2);
  /* An empty output: nothing to do. */
  r = distrt_reference_begin("A(i) = B(i)", DISTRT_F64);
  distrt_reference_bind(r, "A", 1, (int64_t[]){0}, NULL);
  distrt_reference_bind(r, "B", 1, (int64_t[]){0}, NULL);
  distrt_reference_run(r);
}

/* A larger product against a plain triple loop (i64). */
static void test_larger(void) {
  enum { M = 24, N = 17, K = 31 };
  int64_t *A = malloc(sizeof(int64_t) * M * N);
  int64_t *B = malloc(sizeof(int64_t) * M * K);
  int64_t *C = malloc(sizeof(int64_t) * K * N);
  for (int64_t i = 0; i < M * K; ++i)
    B[i] = (i * 7919) % 23 - 11;
  for (int64_t i = 0; i < K * N; ++i)
    C[i] = (i * 104729) % 19 - 9;
  distrt_reference *r =
      distrt_reference_begin("C(i,j) = A(i,k) * B(k,j)", DISTRT_I64);
  distrt_reference_bind(r, "C", 2, (int64_t[]){M, N}, A);
  distrt_reference_bind(r, "A", 2, (int64_t[]){M, K}, B);
  distrt_reference_bind(r, "B", 2, (int64_t[]){K, N}, C);
  distrt_reference_run(r);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t s = 0;
      for (int64_t k = 0; k < K; ++k)
        s += B[i * K + k] * C[k * N + j];
      EXPECT(A[i * N + j] == s, "C(%lld,%lld) is %lld, expected %lld",
             (long long)i, (long long)j, (long long)A[i * N + j],
             (long long)s);
    }
  free(A);
  free(B);
  free(C);
}

/*===-- distrt_check_result ----------------------------------------------===*/

/* Layouts on a P0 x P1 grid (layout descriptors, see distrt.h) of the
 * tensor X(i,j) = 10 i + j (6x5, or 7x5 for the cyclic one) and of the
 * scalar 7. */
enum { ROWS, CYCLIC, FACE, SCALAR };

static void descriptor(int layout, int64_t P1, int64_t *desc) {
  static const int64_t rows[] = {2, 6, 1, 0, 1, 0, 5, 0, 0, 0, 0};
  static const int64_t cyclic[] = {2, 7, 0, 0, 0, 5, 2, 0, 1, 1, 0};
  static const int64_t face[] = {2, 6, 1, 0, 1, 0, 5, 0, 0, 0, 1, 1, -1};
  static const int64_t scalar[] = {0, 0};
  const int64_t *d = layout == ROWS     ? rows
                     : layout == CYCLIC ? cyclic
                     : layout == FACE   ? face
                                        : scalar;
  int64_t n = layout == ROWS ? 11 : layout == CYCLIC ? 11 : layout == FACE ? 13
                                                                           : 2;
  memcpy(desc, d, sizeof(int64_t) * (size_t)n);
  if (layout == FACE)
    desc[12] = P1 - 1; /* held by the processes with c1 = P1 - 1 */
}

/* Global index of local index l for (p, c, b), by the ownership rule. */
static int64_t global_of(int64_t l, int64_t p, int64_t c, int64_t b) {
  return (l / b) * (b * p) + c * b + l % b;
}

struct tile {
  void *x;
  int64_t rows, cols; /* local extents (1 x 1 for the scalar) */
};

/* This rank's tile (its own computation of the layouts above); the buffer
 * of a process that holds nothing is garbage that must not be compared. */
static struct tile make_tile(distrt_grid *g, int layout, const int64_t *desc,
                             int64_t dtype) {
  int64_t P0 = distrt_grid_dim(g, 0), P1 = distrt_grid_dim(g, 1);
  int64_t c0 = distrt_grid_coord(g, 0), c1 = distrt_grid_coord(g, 1);
  int64_t cap = distrt_layout_tile_capacity(g, desc);
  struct tile t = {malloc((size_t)(cap * tu_esize(dtype))), 0, 0};
  for (int64_t i = 0; i < cap; ++i)
    tu_set(t.x, dtype, i, 999);
  int holder = layout != FACE || c1 == P1 - 1;
  if (layout == SCALAR) {
    tu_set(t.x, dtype, 0, 7);
    t.rows = t.cols = 1;
  } else if (layout == CYCLIC) {
    t.rows = 7;
    t.cols = (5 - c1 + P1 - 1) / P1;
    for (int64_t i = 0; i < t.rows; ++i)
      for (int64_t l = 0; l < t.cols; ++l)
        tu_set(t.x, dtype, i * t.cols + l,
               (double)(10 * i + global_of(l, P1, c1, 1)));
  } else if (holder) {
    int64_t b = (6 + P0 - 1) / P0; /* blocked rows */
    int64_t left = 6 - c0 * b;
    t.rows = left < 0 ? 0 : left < b ? left : b;
    t.cols = 5;
    for (int64_t l = 0; l < t.rows; ++l)
      for (int64_t j = 0; j < 5; ++j)
        tu_set(t.x, dtype, l * 5 + j,
               (double)(10 * global_of(l, P0, c0, b) + j));
  }
  int64_t want = holder ? t.rows * t.cols : 0;
  EXPECT(distrt_layout_tile_size(g, desc) == want,
         "tile size %lld, expected %lld",
         (long long)distrt_layout_tile_size(g, desc), (long long)want);
  return t;
}

/* The reference on rank 0 (NULL elsewhere). */
static void *make_ref(int layout, int64_t dtype) {
  if (tu_rank() != 0)
    return NULL;
  int64_t rows = layout == CYCLIC ? 7 : 6;
  void *ref = malloc((size_t)(rows * 5 * tu_esize(dtype)));
  if (layout == SCALAR) {
    tu_set(ref, dtype, 0, 7);
    return ref;
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < 5; ++j)
      tu_set(ref, dtype, i * 5 + j, (double)(10 * i + j));
  return ref;
}

/* One check of `layout` with the elements in `bad` (rank, local offset,
 * value; rank -1 ends the list) changed first; expects `pass`. */
struct change {
  int64_t rank, offset;
  double value;
};

/* 1: check() calls distrt_check_unchanged (silent unless it fails). */
static int unchanged_mode = 0;

static void check(distrt_grid *g, const char *name, int layout, int64_t dtype,
                  double tol, const struct change *bad, int pass) {
  int64_t desc[16];
  descriptor(layout, distrt_grid_dim(g, 1), desc);
  struct tile t = make_tile(g, layout, desc, dtype);
  for (; bad && bad->rank >= 0; ++bad)
    if (bad->rank == tu_rank())
      tu_set(t.x, dtype, bad->offset, bad->value);
  void *ref = make_ref(layout, dtype);
  int64_t ok =
      unchanged_mode
          ? distrt_check_unchanged(g, name, desc, t.x, dtype, ref, tol)
          : distrt_check_result(g, name, desc, t.x, dtype, ref, tol);
  EXPECT(ok == pass, "check '%s' returned %lld, expected %d", name,
         (long long)ok, pass);
  free(ref);
  free(t.x);
}

/* A P0 x P1 grid of every rank: 2x2 on 4 ranks. */
static distrt_grid *make_grid(void) {
  int64_t n = tu_size();
  return n % 2 == 0 ? distrt_grid_create2(n / 2, 2) : distrt_grid_create2(n, 1);
}

static void test_checks_pass(void) {
  distrt_grid *g = make_grid();
  check(g, "rows, replicated", ROWS, DISTRT_F64, 0.0, NULL, 1);
  check(g, "columns cyclic, replicated", CYCLIC, DISTRT_F64, 0.0, NULL, 1);
  check(g, "columns cyclic, replicated (i32)", CYCLIC, DISTRT_I32, 0.0, NULL,
        1);
  check(g, "face", FACE, DISTRT_F32, 0.0, NULL, 1);
  check(g, "scalar", SCALAR, DISTRT_I64, 0.0, NULL, 1);
  /* The first element of the last rank (row 3 on 4 ranks, row 0 on 1)
   * off by 0.5: 0.5 / 54 <= 1e-2. */
  if (tu_size() == 1 || tu_size() == 4) {
    const struct change off[] = {{tu_size() - 1, 0, tu_size() == 4 ? 30.5
                                                                   : 0.5},
                                 {-1, 0, 0}};
    check(g, "rows, a replica within tolerance", ROWS, DISTRT_F64, 1e-2, off,
          1);
  }
  /* An input every copy of which is unchanged: nothing printed. */
  unchanged_mode = 1;
  check(g, "input rows, unchanged", ROWS, DISTRT_F64, 0.0, NULL, 1);
  check(g, "input columns, unchanged", CYCLIC, DISTRT_I32, 0.0, NULL, 1);
  unchanged_mode = 0;
  distrt_grid_free(g);
}

/* 4 ranks, grid 2x2: rank (c0, c1) = 2 c0 + c1.  ROWS: ranks 0, 1 hold
 * rows 0..2, ranks 2, 3 rows 3..5 (replicas over c1); CYCLIC: ranks 0, 2
 * hold columns 0, 2, 4, ranks 1, 3 columns 1, 3; FACE: ranks 1 (rows
 * 0..2) and 3 (rows 3..5).  The gathered copy (and its checksum) comes
 * from ranks 0 and 2 for ROWS. */
static void test_checks_corrupt(void) {
  distrt_grid *g = make_grid();
  check(g, "rows", ROWS, DISTRT_F64, 0.0, NULL, 1);
  /* Rank 3, local (1,2): element (4,2). */
  const struct change r3[] = {{3, 1 * 5 + 2, 1000}, {-1, 0, 0}};
  check(g, "rows, rank 3 bad", ROWS, DISTRT_F64, 0.0, r3, 0);
  /* Rank 1 too, at local (2,4) and (1,0); the lowest rank, then the lowest
   * element: rank 1, element (1,0). */
  const struct change r13[] = {{3, 1 * 5 + 2, 1000},
                               {1, 2 * 5 + 4, -1},
                               {1, 1 * 5 + 0, 500},
                               {-1, 0, 0}};
  check(g, "rows, ranks 1 and 3 bad", ROWS, DISTRT_F64, 0.0, r13, 0);
  /* 0.5 / 54 is not within 5e-3. */
  const struct change near[] = {{3, 0, 30.5}, {-1, 0, 0}};
  check(g, "rows, rank 3 off by 0.5", ROWS, DISTRT_F64, 5e-3, near, 0);
  /* Rank 2, local (6,1) of columns 0, 2, 4: element (6,2). */
  const struct change c2[] = {{2, 6 * 3 + 1, -5}, {-1, 0, 0}};
  check(g, "columns, rank 2 bad (i32)", CYCLIC, DISTRT_I32, 0.0, c2, 0);
  /* Rank 3 holds rows 3..5 of the face; ranks 0 and 2 hold nothing. */
  const struct change f3[] = {{3, 0, 31}, {-1, 0, 0}};
  check(g, "face, rank 3 bad (f32)", FACE, DISTRT_F32, 0.0, f3, 0);
  const struct change s2[] = {{2, 0, 5}, {-1, 0, 0}};
  check(g, "scalar, rank 2 bad (i64)", SCALAR, DISTRT_I64, 0.0, s2, 0);
  const struct change nan3[] = {{3, 0, 0}, {-1, 0, 0}};
  struct change nan[2];
  memcpy(nan, nan3, sizeof nan);
  nan[0].value = NAN;
  check(g, "rows, rank 3 NaN", ROWS, DISTRT_F64, 1.0, nan, 0);
  /* An input changed on one replica only (rank 3): the unchanged check
   * prints the mismatch and FAIL. */
  unchanged_mode = 1;
  check(g, "input rows, rank 3 changed", ROWS, DISTRT_F64, 0.0, r3, 0);
  unchanged_mode = 0;
  distrt_grid_free(g);
}

/*===-- misuse (fatal) ---------------------------------------------------===*/

static void misuse(const char *c) {
  double x[4] = {0}, y[4] = {0};
  distrt_reference *r = NULL;
  if (strcmp(c, "syntax") == 0)
    r = distrt_reference_begin("A(i) = B(i) * * C(i)", DISTRT_F64);
  else if (strcmp(c, "syntax-paren") == 0)
    r = distrt_reference_begin("A(i) = (B(i) + C(i)", DISTRT_F64);
  else if (strcmp(c, "syntax-trailing") == 0)
    r = distrt_reference_begin("A(i) = B(i) C(i)", DISTRT_F64);
  else if (strcmp(c, "syntax-number") == 0)
    r = distrt_reference_begin("A(i) = B(i) * .", DISTRT_F64);
  else if (strcmp(c, "syntax-lhs") == 0)
    r = distrt_reference_begin("A(i) - B(i)", DISTRT_F64);
  else if (strcmp(c, "too-deep") == 0) {
    char text[1024] = "a = ";
    for (int i = 0; i < 300; ++i)
      strcat(text, "(");
    strcat(text, "b");
    for (int i = 0; i < 300; ++i)
      strcat(text, ")");
    r = distrt_reference_begin(text, DISTRT_F64);
  } else if (strcmp(c, "too-long") == 0) {
    char text[4096] = "a = b";
    for (int i = 0; i < 300; ++i)
      strcat(text, " + b");
    r = distrt_reference_begin(text, DISTRT_F64);
  } else if (strcmp(c, "bad-dtype") == 0)
    r = distrt_reference_begin("a = b", 9);
  else {
    r = distrt_reference_begin("A(i) = B(i,k) * C(k)", DISTRT_F64);
    distrt_reference_bind(r, "A", 1, (int64_t[]){2}, x);
    if (strcmp(c, "unbound") == 0) {
      distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, y);
    } else if (strcmp(c, "bind-unknown") == 0) {
      distrt_reference_bind(r, "D", 1, (int64_t[]){2}, y);
    } else if (strcmp(c, "bind-twice") == 0) {
      distrt_reference_bind(r, "A", 1, (int64_t[]){2}, x);
    } else if (strcmp(c, "rank") == 0) {
      distrt_reference_bind(r, "B", 1, (int64_t[]){4}, y);
      distrt_reference_bind(r, "C", 1, (int64_t[]){2}, x);
    } else if (strcmp(c, "extent") == 0) {
      distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, y);
      distrt_reference_bind(r, "C", 1, (int64_t[]){3}, x);
    } else if (strcmp(c, "valid") == 0) { /* fatal only by its environment */
      distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, y);
      distrt_reference_bind(r, "C", 1, (int64_t[]){2}, x);
    } else if (strcmp(c, "null-data") == 0) {
      distrt_reference_bind(r, "B", 2, (int64_t[]){2, 2}, NULL);
    } else {
      fprintf(stderr, "distrt-test-reference: unknown case %s\n", c);
      exit(2);
    }
    distrt_reference_run(r);
  }
  (void)r;
  printf("UNEXPECTED: case %s was not fatal\n", c);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "corrupt") != 0) {
    misuse(argv[1]);
    return 0;
  }
  tu_init("distrt-test-reference");
  if (argc == 2) {
    if (tu_size() != 4) {
      printf("distrt-test-reference corrupt needs 4 ranks\n");
      return tu_finish() + 1;
    }
    test_checks_corrupt();
    tu_section("check_result, corrupted replicas");
    return tu_finish();
  }
  test_matmul_plus();
  tu_section("reference B(i,k)*C(k,j) + D(i,j)");
  test_scopes();
  tu_section("reference scopes");
  test_accumulate_and_scalars();
  tu_section("reference +=, scalars, output on the right");
  test_constants();
  tu_section("reference constants, minus, f32 rounding");
  test_wrap();
  tu_section("reference integer wrap-around");
  test_repeats_and_empty();
  tu_section("reference repeated tensors and indices, empty extents");
  test_larger();
  tu_section("reference 24x31x17 i64 product");
  test_checks_pass();
  tu_section("check_result, every replica right");
  return tu_finish();
}
