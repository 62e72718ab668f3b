#!/usr/bin/env bash
# The whole lit suite under AddressSanitizer + LeakSanitizer +
# UndefinedBehaviorSanitizer, in a separate build directory.
#
#   scripts/sanitize.sh                 # configure + build build-asan, run lit
#   scripts/sanitize.sh -v Runtime      # extra lit arguments / a path filter
#
# Configures build-asan/ with clang-22 and test/fuzz/asan.cmake (every target
# instrumented, asserts on in dist code), builds everything, and runs
# `lit -sv build-asan/test`. dist-run compiles the MPI test programs with a
# clang wrapper that adds -fsanitize=address,undefined (it must: libdistrt.so
# is instrumented), so the runtime is checked inside real MPI jobs too.
# Ends with "sanitize: N passed, N failed, N skipped" and exits non-zero on
# any failure. What is and is not covered: docs/reliability.md.
#
# Environment: SAN_BUILD_DIR (default build-asan), DIST_TEST_JOBS (lit -j),
# SAN_LEAKS=0 to turn LeakSanitizer off everywhere.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SAN_BUILD_DIR:-$root/build-asan}"
nproc="$(nproc 2>/dev/null || echo 2)"
jobs="${DIST_TEST_JOBS:-$nproc}"
lit=/usr/lib/llvm-22/bin/lit
llvm_bin=/usr/lib/llvm-22/bin

[ -x "$llvm_bin/clang" ] || { echo "sanitize: clang-22 is needed (apt-get install clang-22 libclang-rt-22-dev)" >&2; exit 2; }

mkdir -p "$build"
# dist-run's C compiler (DIST_CLANG, also lit's %clang): links programs with
# the sanitizer runtimes that libdistrt.so needs.
cat > "$build/asan-clang" <<WRAP
#!/bin/sh
exec $llvm_bin/clang -fsanitize=address,undefined -fno-sanitize-recover=all "\$@"
WRAP
chmod +x "$build/asan-clang"

if [ ! -f "$build/build.ninja" ]; then
  echo "sanitize: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -C "$root/test/fuzz/asan.cmake" \
    -DDIST_CLANG="$build/asan-clang" >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log" >&2; echo "sanitize: 0 passed, 1 failed (configure failed)"; exit 1; }
fi
echo "sanitize: building $build"
cmake --build "$build" -j "$nproc" && cmake --build "$build" -j "$nproc" --target mlir-doc || {
  echo "sanitize: 0 passed, 1 failed (build failed)"; exit 1; }

# LLVM is a release build without ASan: manual poisoning in its headers
# (BumpPtrAllocator) is half-applied and reports false use-after-poison.
leaks=1
[ "${SAN_LEAKS:-1}" = 0 ] && leaks=0
# Open MPI and the libraries under it keep memory until exit: suppressed by
# library (test/fuzz/lsan.supp), so leaks in distrt, its tests, the compiled
# programs and the compiler are still caught. The suppressions need whole
# allocation stacks (fast_unwind_on_malloc=0): Open MPI's components are
# unloaded before LeakSanitizer runs, and frame-pointer unwinding stops in
# them, leaving stacks with no library a suppression could name.
# allocator_may_return_null=1: a failed malloc returns NULL as in a normal
# build, so the runtime's out-of-memory path (a clear fatal message) is what
# the allocation-failure tests see, not an ASan report.
export ASAN_OPTIONS="allow_user_poisoning=0:allocator_may_return_null=1:detect_leaks=$leaks:fast_unwind_on_malloc=0:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$root/test/fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_SYMBOLIZER_PATH="$llvm_bin/llvm-symbolizer"
# lit feature `asan` (tests that cannot work under ASan, e.g. ulimit -v).
export DIST_SANITIZE=1
# Instrumented code is slower: give MPI runs and tests more time.
export DIST_MPI_TIMEOUT="${DIST_MPI_TIMEOUT:-300}"
export DIST_TEST_TIMEOUT="${DIST_TEST_TIMEOUT:-900}"

# Nothing is excluded: the installed-package test builds test/consumer with
# the same sanitizers as the installed libraries (lit's asan feature,
# %consumer_cmake_flags). SAN_FILTER_OUT=REGEX leaves tests out.
filter_out="${SAN_FILTER_OUT:-}"
filter_args=()
[ -n "$filter_out" ] && filter_args=(--filter-out "$filter_out")

log="$build/sanitize-results.txt"
start=$(date +%s)
"$lit" -sv -j "$jobs" "${filter_args[@]+"${filter_args[@]}"}" "$@" "$build/test" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
secs=$(( $(date +%s) - start ))

count() { sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -1; }
passed=$(( $(count Passed || true) + $(count "Expectedly Failed" || true) + 0 ))
failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + $(count Unresolved || true) + $(count "Timed Out" || true) + 0 ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + $(count Excluded || true) + 0 ))
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
echo "lit finished in ${secs}s (status $rc); sanitizer reports are in the failing tests' output above"
echo "sanitize: $passed passed, $failed failed, $skipped skipped${filter_out:+ (excluded: $filter_out)}"
exit "$rc"
