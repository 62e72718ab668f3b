#!/usr/bin/env bash
# One command: install what is missing, build, and run the whole test suite
# (lit: IR tests, runtime unit tests, MPI integration tests, the installed
# CMake package). Ends with one summary line "dist: N passed, N failed...".
#
#   scripts/test.sh [extra lit arguments, e.g. -v or a test path filter]
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh" || { echo "dist: 0 passed, 1 failed (build failed)"; exit 1; }

lit="/usr/lib/llvm-22/bin/lit"
jobs="${DIST_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}"
log="$build/test-results.txt"
start=$(date +%s)
# The property test (test/proptest/proptest-*.test) writes its summary lines
# (sparse products, all) per part here; the merged lines are printed below.
rm -f "$build"/test/proptest/summary-*.txt
"$lit" -sv -j "$jobs" "$@" "$build/test" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
secs=$(( $(date +%s) - start ))

# lit pads the labels ("Passed  : 42") when it reports several categories.
count() { sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -1; }
passed=$(( $(count Passed || true) + 0 ))
xfail=$(( $(count "Expectedly Failed" || true) + 0 ))
failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + $(count Unresolved || true) + $(count "Timed Out" || true) + 0 ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + $(count Excluded || true) + 0 ))
passed=$(( passed + xfail ))
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; fi
echo "lit finished in ${secs}s (status $rc)"
if ls "$build"/test/proptest/summary-*.txt >/dev/null 2>&1; then
  python3 "$root/test/proptest/proptest.py" --merge "$build"/test/proptest/summary-*.txt || true
fi
echo "dist: $passed passed, $failed failed, $skipped skipped"
exit "$rc"
