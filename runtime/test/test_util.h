/* Helpers shared by the distrt unit-test programs.
 *
 * Output conventions (checked by the lit tests in test/Runtime with FileCheck):
 *   - any failed expectation prints a line starting with "FAIL" on the rank
 *     that saw it (immediately, so it shows up even if ranks disagree);
 *   - tu_section() ends a group of checks: rank 0 prints "PASS <name>" when
 *     no rank failed since the previous section, else "FAIL <name>";
 *   - tu_finish() prints "<program>: <N> ranks: DONE" on rank 0.
 */
#ifndef DISTRT_TEST_UTIL_H
#define DISTRT_TEST_UTIL_H

#include "distrt/compiler.h" /* distrt.h and the compiler ABI */

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TU_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TU_PRINTF(a, b)
#endif

/* distrt_init plus a 1-D "world" grid used for summaries. */
void tu_init(const char *program);
/* Record one expectation; prints "FAIL rank R: <file>:<line>: <message>". */
int tu_expect(int ok, const char *file, int line, const char *fmt, ...)
    TU_PRINTF(4, 5);
#define EXPECT(cond, ...) tu_expect(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* End a section (collective over all ranks). Returns 1 if it passed. */
int tu_section(const char *fmt, ...) TU_PRINTF(1, 2);
/* Print the summary, finalize, return the exit code. */
int tu_finish(void);

int64_t tu_rank(void);
int64_t tu_size(void);
distrt_grid *tu_world(void);

/* Independent reference: world ranks of the processes of a grid with
 * `ndims` axes `dims` that agree with `rank` on every axis outside `axes`,
 * in increasing order.  Returns their number. */
int64_t tu_members(int64_t ndims, const int64_t *dims, int64_t rank,
                   int64_t axes, int64_t *out);
/* Independent reference: row-major coordinates of `rank`. */
void tu_coords(int64_t ndims, const int64_t *dims, int64_t rank,
               int64_t *coords);

/* Typed element access. */
double tu_get(const void *buf, int64_t dtype, int64_t i);
void tu_set(void *buf, int64_t dtype, int64_t i, double v);
int64_t tu_esize(int64_t dtype);
const char *tu_dtype_name(int64_t dtype);

#endif
