// Compiles distrt.h and distrt/compiler.h as C++ (extern "C", no MPI
// headers).
#include "distrt/distrt.h"
#include "distrt/compiler.h"
#include "distrt/sparse.h"

#if defined(MPI_VERSION) || defined(OMPI_MPI_H) || defined(MPICH_VERSION)
#error "distrt.h and distrt/compiler.h must not include mpi.h"
#endif

namespace {
[[maybe_unused]] constexpr int kF64 = DISTRT_F64;
[[maybe_unused]] void (*const checkFatal)(const char *, const char *, ...) =
    &distrt_fatal;
[[maybe_unused]] void (*const checkGemm)(int64_t, int64_t, int64_t, double,
                                         const double *, int64_t,
                                         const double *, int64_t, double,
                                         double *, int64_t) = &distrt_gemm_f64;
[[maybe_unused]] void (*const checkReferenceBind)(distrt_reference *,
                                                  const char *, int64_t,
                                                  const int64_t *, void *) =
    &distrt_reference_bind;
} // namespace

extern "C" int64_t distrt_header_check_cxx(distrt_grid *g) {
  return distrt_grid_ndims(g) + distrt_axes_size(g, 0);
}
