/* The MPI settings distrt chooses when it starts MPI (mpi-params.test).
 *
 * distrt raises Open MPI's shared-memory eager limit to 16 KiB when it
 * calls MPI_Init itself and the user has not set the limit
 * (backend_mpi.c, mpi_default_eager_limit).  This program reads the limit
 * MPI actually uses, through the MPI tool interface (MPI_T control
 * variables), after distrt_init:
 *
 *   distrt-test-mpi-params           distrt starts MPI
 *   distrt-test-mpi-params own-mpi   the program starts MPI first (distrt
 *                                    must leave MPI's settings alone)
 *
 * and prints "eager limit N" on rank 0, or "eager limit: no such variable"
 * under an MPI without it (another MPI, or an Open MPI built without its
 * shared-memory transport; the test then has nothing to check).
 *
 * It also prints how stdout is buffered after distrt_init ("stdout buffer
 * N bytes, line-buffered B", glibc only): distrt gives a program's stdout
 * a 4 MiB buffer (core.c, buffer_stdout), where under mpirun stdio would
 * write each line (the `--time` lines then wake mpirun during the calls
 * being timed). */

#include "distrt/compiler.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <stdio_ext.h>
#endif

/* The value of the control variable `name`, or -1 when MPI has none. */
static long long read_cvar(const char *name) {
  int provided = 0, n = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    return -1;
  long long value = -1;
  MPI_T_cvar_get_num(&n);
  for (int i = 0; i < n && value < 0; ++i) {
    char cname[256], desc[256];
    int nlen = sizeof cname, dlen = sizeof desc, verbosity, bind, scope;
    MPI_Datatype type;
    MPI_T_enum enumtype;
    if (MPI_T_cvar_get_info(i, cname, &nlen, &verbosity, &type, &enumtype, desc,
                            &dlen, &bind, &scope) != MPI_SUCCESS ||
        strcmp(cname, name) != 0)
      continue;
    MPI_T_cvar_handle h;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
      break;
    unsigned long long buf[4] = {0, 0, 0, 0};
    if (count == 1 && MPI_T_cvar_read(h, buf) == MPI_SUCCESS) {
      if (type == MPI_UNSIGNED_LONG || type == MPI_UNSIGNED_LONG_LONG ||
          type == MPI_LONG_LONG || type == MPI_LONG)
        value = (long long)buf[0];
      else if (type == MPI_INT || type == MPI_UNSIGNED) {
        int iv;
        memcpy(&iv, buf, sizeof iv);
        value = iv;
      }
    }
    MPI_T_cvar_handle_free(&h);
  }
  MPI_T_finalize();
  return value;
}

int main(int argc, char **argv) {
  int own = argc > 1 && strcmp(argv[1], "own-mpi") == 0;
  if (own) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  }
  distrt_init();
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5
  const char *name = "btl_sm_eager_limit";
#else
  const char *name = "btl_vader_eager_limit";
#endif
  long long v = read_cvar(name);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (v < 0)
      printf("eager limit: no such variable (%s)\n", name);
    else
      printf("eager limit %lld\n", v);
#if defined(__GLIBC__)
    printf("stdout buffer %zu bytes, line-buffered %d\n", __fbufsize(stdout),
           __flbf(stdout) != 0);
#else
    printf("stdout buffer: unknown (not glibc)\n");
#endif
  }
  distrt_finalize();
  if (own)
    MPI_Finalize();
  return 0;
}
