/*===- dist-tensor.c - make, inspect and compare dist tensor files -*- C -*-===*
 *
 *   dist-tensor fill FILE TYPE SHAPE SEED   write a tensor file whose element
 *                                           i is distrt_value(SEED, i), the
 *                                           values dist.fill gives
 *   dist-tensor info FILE                   print type and shape
 *   dist-tensor check-fill FILE SEED        exit 0 iff every element is the
 *                                           one dist.fill with SEED gives
 *   dist-tensor compare A B [TOL]           max relative error of A vs B;
 *                                           exit 1 if above TOL (default 0)
 *   dist-tensor print FILE                  the elements, one line
 *
 * TYPE is f32, f64, i32 or i64; SHAPE is like 8x8 (or "scalar").  The file
 * format is described in runtime/lib/io.c and docs/reliability.md.  Local:
 * no MPI.  Exit status 1 on a failed check or a bad file, 2 on usage.
 *===----------------------------------------------------------------------===*/

#include "distrt/distrt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "DISTTNSR"
#define FIXED 24

typedef struct {
  uint32_t dtype, ndims;
  int64_t shape[DISTRT_MAX_DIMS];
  int64_t count;
  void *data;
} tensor;

static const char *prog = "dist-tensor";

static int usage(void) {
  fprintf(stderr,
          "usage: %s fill FILE TYPE SHAPE SEED | info FILE | check-fill FILE "
          "SEED | compare A B [TOL] | print FILE\n",
          prog);
  return 2;
}

static int64_t esize(uint32_t t) { return t == 0 || t == 2 ? 4 : 8; }
static const char *tname(uint32_t t) {
  static const char *n[] = {"f32", "f64", "i32", "i64"};
  return t < 4 ? n[t] : "?";
}

static double get(const tensor *t, int64_t i) {
  switch (t->dtype) {
  case 0: return ((const float *)t->data)[i];
  case 1: return ((const double *)t->data)[i];
  case 2: return ((const int32_t *)t->data)[i];
  default: return (double)((const int64_t *)t->data)[i];
  }
}

static void set(tensor *t, int64_t i, double v) {
  switch (t->dtype) {
  case 0: ((float *)t->data)[i] = (float)v; break;
  case 1: ((double *)t->data)[i] = v; break;
  case 2: ((int32_t *)t->data)[i] = (int32_t)floor(8 * v); break;
  default: ((int64_t *)t->data)[i] = (int64_t)floor(8 * v); break;
  }
}

/* Reads and validates a whole file; prints the problem and returns -1. */
static int read_tensor(const char *path, tensor *t) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return -1;
  }
  unsigned char h[FIXED];
  uint32_t fld[4];
  if (fread(h, 1, FIXED, f) != FIXED || memcmp(h, MAGIC, 8) != 0) {
    fprintf(stderr, "%s: %s: not a dist tensor file\n", prog, path);
    fclose(f);
    return -1;
  }
  memcpy(fld, h + 8, sizeof fld);
  if (fld[0] != 1 || fld[1] != 0x01020304u || fld[2] > 3 ||
      fld[3] > DISTRT_MAX_DIMS) {
    fprintf(stderr, "%s: %s: unsupported header (version %u, mark 0x%08x, "
                    "type %u, rank %u)\n",
            prog, path, fld[0], fld[1], fld[2], fld[3]);
    fclose(f);
    return -1;
  }
  t->dtype = fld[2];
  t->ndims = fld[3];
  t->count = 1;
  if (t->ndims &&
      fread(t->shape, 8, t->ndims, f) != t->ndims) {
    fprintf(stderr, "%s: %s: truncated header\n", prog, path);
    fclose(f);
    return -1;
  }
  for (uint32_t d = 0; d < t->ndims; ++d) {
    if (t->shape[d] < 1 || t->count > ((int64_t)1 << 40) / t->shape[d]) {
      fprintf(stderr, "%s: %s: bad extent %lld\n", prog, path,
              (long long)t->shape[d]);
      fclose(f);
      return -1;
    }
    t->count *= t->shape[d];
  }
  int64_t bytes = t->count * esize(t->dtype);
  t->data = malloc((size_t)bytes + 1);
  if (!t->data) {
    fprintf(stderr, "%s: %s: out of memory\n", prog, path);
    fclose(f);
    return -1;
  }
  size_t got = fread(t->data, 1, (size_t)bytes + 1, f);
  fclose(f);
  if ((int64_t)got != bytes) {
    fprintf(stderr, "%s: %s: %lld data bytes, expected %lld\n", prog, path,
            (long long)got, (long long)bytes);
    free(t->data);
    return -1;
  }
  return 0;
}

static int parse_type(const char *s, uint32_t *t) {
  for (uint32_t i = 0; i < 4; ++i)
    if (strcmp(s, tname(i)) == 0) {
      *t = i;
      return 0;
    }
  return -1;
}

static int parse_shape(const char *s, tensor *t) {
  t->ndims = 0;
  t->count = 1;
  if (strcmp(s, "scalar") == 0)
    return 0;
  while (*s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || v < 1 || t->ndims == DISTRT_MAX_DIMS ||
        t->count > ((int64_t)1 << 40) / v)
      return -1;
    t->shape[t->ndims++] = v;
    t->count *= v;
    s = end;
    if (*s == 'x')
      ++s;
    else if (*s)
      return -1;
  }
  return t->ndims ? 0 : -1;
}

static void print_shape(const tensor *t) {
  if (t->ndims == 0)
    printf("scalar");
  for (uint32_t d = 0; d < t->ndims; ++d)
    printf("%s%lld", d ? "x" : "", (long long)t->shape[d]);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  const char *cmd = argv[1];
  if (strcmp(cmd, "fill") == 0) {
    if (argc != 6)
      return usage();
    tensor t;
    char *end;
    long long seed = strtoll(argv[5], &end, 10);
    if (parse_type(argv[3], &t.dtype) || parse_shape(argv[4], &t) || *end) {
      fprintf(stderr, "%s: bad TYPE, SHAPE or SEED\n", prog);
      return usage();
    }
    t.data = malloc((size_t)(t.count * esize(t.dtype)) + 1);
    if (!t.data) {
      fprintf(stderr, "%s: out of memory\n", prog);
      return 1;
    }
    for (int64_t i = 0; i < t.count; ++i)
      set(&t, i, distrt_value(seed, i));
    FILE *f = fopen(argv[2], "wb");
    unsigned char h[FIXED];
    uint32_t fld[4] = {1, 0x01020304u, t.dtype, t.ndims};
    memcpy(h, MAGIC, 8);
    memcpy(h + 8, fld, sizeof fld);
    int ok = f && fwrite(h, 1, FIXED, f) == FIXED &&
             fwrite(t.shape, 8, t.ndims, f) == t.ndims &&
             (int64_t)fwrite(t.data, (size_t)esize(t.dtype), (size_t)t.count,
                             f) == t.count;
    if (f && fclose(f) != 0)
      ok = 0;
    free(t.data);
    if (!ok) {
      fprintf(stderr, "%s: cannot write %s: %s\n", prog, argv[2],
              strerror(errno));
      return 1;
    }
    return 0;
  }
  if (strcmp(cmd, "info") == 0 || strcmp(cmd, "print") == 0) {
    tensor t;
    if (argc != 3)
      return usage();
    if (read_tensor(argv[2], &t))
      return 1;
    if (cmd[0] == 'i') {
      printf("%s: %s ", argv[2], tname(t.dtype));
      print_shape(&t);
      printf(" (%lld elements)\n", (long long)t.count);
    } else {
      for (int64_t i = 0; i < t.count; ++i)
        printf(i ? " %.17g" : "%.17g", get(&t, i));
      printf("\n");
    }
    free(t.data);
    return 0;
  }
  if (strcmp(cmd, "check-fill") == 0) {
    tensor t;
    if (argc != 4)
      return usage();
    char *end;
    long long seed = strtoll(argv[3], &end, 10);
    if (*end)
      return usage();
    if (read_tensor(argv[2], &t))
      return 1;
    tensor ref = t;
    ref.data = malloc((size_t)(t.count * esize(t.dtype)) + 1);
    if (!ref.data)
      return 1;
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < t.count; ++i) {
      set(&ref, i, distrt_value(seed, i));
      if (memcmp((char *)ref.data + i * esize(t.dtype),
                 (char *)t.data + i * esize(t.dtype),
                 (size_t)esize(t.dtype)) != 0 && bad++ == 0)
        first = i;
    }
    if (bad)
      printf("%s: %s: %lld of %lld elements differ from fill seed %lld "
             "(first at linear index %lld: %.17g, expected %.17g): FAIL\n",
             prog, argv[2], (long long)bad, (long long)t.count, seed,
             (long long)first, get(&t, first), get(&ref, first));
    else
      printf("%s: %s: all %lld elements match fill seed %lld: PASS\n", prog,
             argv[2], (long long)t.count, seed);
    free(ref.data);
    free(t.data);
    return bad ? 1 : 0;
  }
  if (strcmp(cmd, "compare") == 0) {
    if (argc != 4 && argc != 5)
      return usage();
    double tol = argc == 5 ? strtod(argv[4], NULL) : 0.0;
    tensor a, b;
    if (read_tensor(argv[2], &a))
      return 1;
    if (read_tensor(argv[3], &b)) {
      free(a.data);
      return 1;
    }
    int same = a.dtype == b.dtype && a.ndims == b.ndims;
    for (uint32_t d = 0; same && d < a.ndims; ++d)
      same = a.shape[d] == b.shape[d];
    if (!same) {
      printf("%s: %s and %s differ in type or shape: FAIL\n", prog, argv[2],
             argv[3]);
      free(a.data);
      free(b.data);
      return 1;
    }
    double err = distrt_max_rel_error(a.data, b.data, a.count, a.dtype);
    int pass = err <= tol;
    printf("%s: max relative error %.3e (tolerance %.1e): %s\n", prog, err,
           tol, pass ? "PASS" : "FAIL");
    free(a.data);
    free(b.data);
    return pass ? 0 : 1;
  }
  return usage();
}
