//===- runtime-table.cpp - the compiler's runtime table vs distrt ---------===//
//
// Part of the dist project: distributed tensor algebra in MLIR.
//
// runtime-table LIBDISTRT   (built and run by test/Runtime/runtime-table.test)
//
// Checks every entry of the compiler's table of runtime functions
// (include/DistTensor/Dialect/Dist/IR/RuntimeFunctions.def, what
// dist-materialize-spmd and convert-dist-to-runtime declare and call)
// against the runtime:
//   - the function is declared by the runtime's headers (otherwise this
//     file does not compile: "use of undeclared identifier");
//   - its C prototype has the table's signature in the ABI's abstract
//     types (int64_t is I64, double F64, any pointer Ptr, void Void; any
//     other C type matches nothing);
//   - the shared library LIBDISTRT defines it (dlsym, and dladdr says the
//     definition is in LIBDISTRT itself, not in a library it loads).
// Prints one line per entry that disagrees and exits 1; prints the number
// of entries checked and exits 0 when all agree.
//
//===----------------------------------------------------------------------===//

// The runtime's compiler-facing declarations, with the user API.
#if __has_include("distrt/compiler.h")
#include "distrt/compiler.h"
#else
#include "distrt/distrt.h"
#endif

#if __has_include("distrt/sparse.h")
#include "distrt/sparse.h"
#endif

#include <dlfcn.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>

namespace {

enum Kind { Void, I64, F64, Ptr, Other };

const char *kindName(Kind k) {
  switch (k) {
  case Void:
    return "void";
  case I64:
    return "i64";
  case F64:
    return "f64";
  case Ptr:
    return "ptr";
  case Other:
    break;
  }
  return "(not an ABI type)";
}

template <typename T> constexpr Kind kindOf() {
  if constexpr (std::is_void_v<T>)
    return Void;
  else if constexpr (std::is_same_v<T, int64_t>)
    return I64;
  else if constexpr (std::is_same_v<T, double>)
    return F64;
  else if constexpr (std::is_pointer_v<T>)
    return Ptr;
  else
    return Other;
}

constexpr int kMaxArgs = 16;

struct Signature {
  Kind result = Void;
  int nargs = 0;
  Kind args[kMaxArgs] = {};
};

/// The signature the table gives.
Signature tableSignature(Kind result, std::initializer_list<Kind> args) {
  Signature s;
  s.result = result;
  for (Kind k : args)
    if (s.nargs < kMaxArgs)
      s.args[s.nargs++] = k;
  if (args.size() > kMaxArgs)
    s.nargs = -1;
  return s;
}

/// The signature of the runtime's C prototype.
template <typename R, typename... A>
Signature runtimeSignature(R (*)(A...)) {
  static_assert(sizeof...(A) <= kMaxArgs, "raise kMaxArgs");
  Signature s;
  s.result = kindOf<R>();
  s.nargs = sizeof...(A);
  Kind args[] = {kindOf<A>()..., Void};
  for (int i = 0; i < s.nargs; ++i)
    s.args[i] = args[i];
  return s;
}

/// `s` as "result (arguments)" into `out`.
const char *describe(const Signature &s, char (&out)[256]) {
  int n = std::snprintf(out, sizeof out, "%s (", kindName(s.result));
  for (int i = 0; i < s.nargs && n > 0 && n < (int)sizeof out; ++i)
    n += std::snprintf(out + n, sizeof out - n, "%s%s", i ? ", " : "",
                       kindName(s.args[i]));
  if (n > 0 && n < (int)sizeof out)
    std::snprintf(out + n, sizeof out - n, ")");
  return out;
}

bool same(const Signature &a, const Signature &b) {
  if (a.result != b.result || a.nargs != b.nargs)
    return false;
  for (int i = 0; i < a.nargs; ++i)
    if (a.args[i] != b.args[i])
      return false;
  return true;
}

struct Entry {
  const char *name;
  Signature table;
  Signature runtime;
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s LIBDISTRT\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "FAIL cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  char libPath[PATH_MAX];
  if (!realpath(argv[1], libPath)) {
    std::fprintf(stderr, "FAIL cannot resolve %s\n", argv[1]);
    return 1;
  }

#define DISTRT_ARGUMENTS(...) {__VA_ARGS__}
#define DISTRT_FUNCTION(NAME, RESULT, ARGS)                                    \
  Entry{#NAME, tableSignature(RESULT, DISTRT_ARGUMENTS ARGS),                  \
        runtimeSignature(static_cast<decltype(&::NAME)>(nullptr))},
  const Entry entries[] = {
#include "DistTensor/Dialect/Dist/IR/RuntimeFunctions.def"
  };
#undef DISTRT_ARGUMENTS

  int failures = 0, count = 0;
  for (const Entry &e : entries) {
    ++count;
    for (const Entry &other : entries)
      if (&other < &e && std::strcmp(other.name, e.name) == 0) {
        std::printf("FAIL %s: listed twice in the table\n", e.name);
        ++failures;
      }
    if (!same(e.table, e.runtime)) {
      char table[256], runtime[256];
      std::printf("FAIL %s: the table says %s, the runtime's prototype is "
                  "%s\n",
                  e.name, describe(e.table, table),
                  describe(e.runtime, runtime));
      ++failures;
    }
    void *sym = dlsym(lib, e.name);
    Dl_info info;
    char where[PATH_MAX];
    if (!sym) {
      std::printf("FAIL %s: not defined by %s\n", e.name, argv[1]);
      ++failures;
    } else if (!dladdr(sym, &info) || !info.dli_fname ||
               !realpath(info.dli_fname, where) ||
               std::strcmp(where, libPath) != 0) {
      std::printf("FAIL %s: defined in %s, not in %s\n", e.name,
                  info.dli_fname ? info.dli_fname : "(unknown)", argv[1]);
      ++failures;
    }
  }
  if (failures) {
    std::printf("runtime-table: %d of %d entries disagree with the runtime\n",
                failures, count);
    return 1;
  }
  std::printf("runtime-table: %d runtime functions: declared, defined by "
              "libdistrt, prototypes match the table\n",
              count);
  return 0;
}
