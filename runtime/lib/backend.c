/*===- backend.c - choosing the distrt communication backend ---*- C -*-===*
 *
 * DISTRT_BACKEND selects the backend at distrt_init time:
 *   unset, "" or "mpi"  -> the MPI backend (backend_mpi.c)
 *   "nccl"              -> the NCCL backend plugin: libdistrt_nccl.so next
 *                          to libdistrt (found with dladdr), or the file
 *                          DISTRT_NCCL_PLUGIN names; libdistrt itself has
 *                          no CUDA dependency.
 * Every failure to load the plugin is a collective fatal error that says
 * why (not built, missing file, dlopen's error, not a plugin, another
 * distrt version).
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE /* dladdr */
#include "internal.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DISTRT_HAVE_NCCL_PLUGIN
#define DISTRT_HAVE_NCCL_PLUGIN 0
#endif

static int equals_nocase(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

/* The plugin's path: DISTRT_NCCL_PLUGIN, else the directory of libdistrt. */
static const char *plugin_path(const char *op, char *buf, size_t n) {
  const char *env = getenv("DISTRT_NCCL_PLUGIN");
  if (env && *env)
    return env;
  Dl_info info;
  if (!dladdr((void *)distrt_select_backend, &info) || !info.dli_fname)
    distrt_fatal_collective(op, "DISTRT_BACKEND=nccl: cannot find the "
                                "directory of libdistrt (dladdr failed); set "
                                "DISTRT_NCCL_PLUGIN to libdistrt_nccl.so");
  const char *slash = strrchr(info.dli_fname, '/');
  int dir = slash ? (int)(slash - info.dli_fname) : 1;
  snprintf(buf, n, "%.*s/libdistrt_nccl.so", dir, slash ? info.dli_fname : ".");
  return buf;
}

static const struct distrt_backend *load_nccl(const char *op) {
  char buf[PATH_MAX + 32];
  const char *path = plugin_path(op, buf, sizeof buf);
  int named = getenv("DISTRT_NCCL_PLUGIN") && *getenv("DISTRT_NCCL_PLUGIN");
  if (access(path, F_OK) != 0) {
    if (!named && !DISTRT_HAVE_NCCL_PLUGIN)
      distrt_fatal_collective(
          op, "DISTRT_BACKEND=nccl: this distrt was built without CUDA "
              "(configure found no CUDA toolkit with NCCL and cuBLAS), so "
              "there is no NCCL backend plugin; unset DISTRT_BACKEND or set "
              "it to mpi (docs/gpu.md)");
    distrt_fatal_collective(op,
                            "DISTRT_BACKEND=nccl: the NCCL backend plugin "
                            "'%s' does not exist%s",
                            path,
                            named ? " (DISTRT_NCCL_PLUGIN)"
                                  : "; install it next to libdistrt or set "
                                    "DISTRT_NCCL_PLUGIN");
  }
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *err = dlerror();
    distrt_fatal_collective(op,
                            "DISTRT_BACKEND=nccl: cannot load the NCCL "
                            "backend plugin: %s",
                            err ? err : path);
  }
  const struct distrt_backend *be =
      (const struct distrt_backend *)dlsym(h, DISTRT_PLUGIN_TABLE_SYMBOL);
  const size_t *size = (const size_t *)dlsym(h, DISTRT_PLUGIN_SIZE_SYMBOL);
  if (!be || !size)
    distrt_fatal_collective(op,
                            "DISTRT_BACKEND=nccl: '%s' is not a distrt "
                            "backend plugin (no symbol %s)",
                            path, DISTRT_PLUGIN_TABLE_SYMBOL);
  if (*size != sizeof(struct distrt_backend))
    distrt_fatal_collective(op,
                            "DISTRT_BACKEND=nccl: the plugin '%s' was built "
                            "for another version of distrt (backend table of "
                            "%zu bytes, this distrt has %zu)",
                            path, *size, sizeof(struct distrt_backend));
  return be; /* the plugin stays loaded for the life of the process */
}

const struct distrt_backend *distrt_select_backend(const char *op) {
  const char *env = getenv("DISTRT_BACKEND");
  if (!env || !*env || equals_nocase(env, "mpi"))
    return &distrt_backend_mpi;
  if (equals_nocase(env, "nccl"))
    return load_nccl(op);
  distrt_fatal_collective(op,
                          "unknown DISTRT_BACKEND '%s' (expected mpi or nccl)",
                          env);
}
