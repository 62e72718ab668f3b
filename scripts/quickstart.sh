#!/usr/bin/env bash
# One command: install what is missing, build, and run the main example,
# SUMMA (examples/quickstart/summa.mlir: C = A * B, 4096x4096 f64, on a 2x2
# grid of 4 MPI ranks), with its result checked by a program that shares
# no code with dist (examples/quickstart/check-dgemm.c: OpenBLAS on every
# element, textbook loops on one element of every row) and its time printed
# next to OpenBLAS dgemm on one process.
#
#   scripts/quickstart.sh                  # setup.sh (install, build), then the example
#   scripts/quickstart.sh --no-setup       # the example only, with the existing build
#   scripts/quickstart.sh -n 1024          # the example at another size (a multiple of 512)
#   scripts/quickstart.sh --program F.mlir # another 4-rank program that writes
#                                          # c.dtensor, a.dtensor, b.dtensor (C = A * B)
#   scripts/quickstart.sh --repeat 5       # median of 5 timed runs (default 3)
#   scripts/quickstart.sh --timeout 600    # limit for each run in seconds (default 300)
#
# Ends with "quickstart: PASSED: ..." and status 0, or "quickstart: FAILED:
# <why>" on stderr and a non-zero status. Environment: BUILD_DIR (as for
# setup.sh; default build), CC (the C compiler for check-dgemm; default cc).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
program="$root/examples/quickstart/summa.mlir"
checker_src="$root/examples/quickstart/check-dgemm.c"
setup=1
size=""
repeat=3
timeout_s=300
np=4
label=SUMMA

fail() {
  echo "quickstart: FAILED: $*" >&2
  exit 1
}
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --no-setup) setup=0; shift ;;
    -n) [ $# -ge 2 ] || { usage >&2; exit 2; }; size="$2"; shift 2 ;;
    --program) [ $# -ge 2 ] || { usage >&2; exit 2; }; program="$2"; label="$(basename "$2")"; shift 2 ;;
    --repeat) [ $# -ge 2 ] || { usage >&2; exit 2; }; repeat="$2"; shift 2 ;;
    --timeout) [ $# -ge 2 ] || { usage >&2; exit 2; }; timeout_s="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "quickstart: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
for v in "$repeat" "$timeout_s" ${size:+"$size"}; do
  case "$v" in ''|*[!0-9]*|0) echo "quickstart: expected a positive integer, got '$v'" >&2; exit 2 ;; esac
done
[ -r "$program" ] || { echo "quickstart: cannot read '$program'" >&2; exit 2; }
program="$(cd "$(dirname "$program")" && pwd)/$(basename "$program")"

if [ "$setup" = 1 ]; then
  "$root/scripts/setup.sh" || fail "scripts/setup.sh (install and build) failed"
fi
dist_run="$build/bin/dist-run"
[ -x "$dist_run" ] || fail "no $dist_run: build first (scripts/setup.sh, or BUILD_DIR=...)"

work="$(mktemp -d "${TMPDIR:-/tmp}/dist-quickstart.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The example's size is in its tensor types (NxN); -n rewrites them.
n="$(sed -n 's/.*!dist\.tensor<\([0-9][0-9]*\)x\1xf64.*/\1/p' "$program" | head -1)"
[ -n "$n" ] || fail "$program declares no square f64 matrix type (!dist.tensor<NxNxf64, ...>)"
rel="${program#"$root"/}"
if [ -n "$size" ] && [ "$size" != "$n" ]; then
  sed "s/<${n}x${n}xf64/<${size}x${size}xf64/g" "$program" > "$work/resized.mlir"
  program="$work/resized.mlir"
  rel="$rel at n=$size"
  n="$size"
fi

# 1. Compile and run it on 4 ranks: a warm-up run, then $repeat timed runs.
echo "quickstart: dist-run -np $np --repeat $repeat $rel"
set +e
(cd "$work" && "$dist_run" -np "$np" --repeat "$repeat" --timeout "$timeout_s" "$program") \
  > "$work/run.out" 2> "$work/run.err"
rc=$?
set -e
cat "$work/run.out"
cat "$work/run.err" >&2
[ $rc = 0 ] || fail "dist-run exited with status $rc on $rel$([ $rc = 124 ] && echo " (timed out after $timeout_s s)")"
summa_s="$(sed -n 's/^dist: repeat .*: median \([0-9.eE+-]*\) s, .*/\1/p' "$work/run.out" | head -1)"
[ -n "$summa_s" ] || fail "dist-run printed no 'dist: repeat ...: median T s' line"
for f in c a b; do
  [ -f "$work/$f.dtensor" ] || fail "$rel did not write $f.dtensor"
done

# 2. Check C against A and B, and time OpenBLAS on one process, one thread.
cc="${CC:-cc}"
"$cc" -O2 "$checker_src" -o "$work/check-dgemm" -lopenblas ||
  fail "cannot build examples/quickstart/check-dgemm.c with '$cc' and -lopenblas (libopenblas-dev; scripts/setup.sh installs it)"
set +e
(cd "$work" && OPENBLAS_NUM_THREADS=1 timeout -k 5 "$timeout_s" ./check-dgemm c.dtensor a.dtensor b.dtensor "$repeat" 1) \
  > "$work/check.out"
rc=$?
set -e
cat "$work/check.out"
[ $rc != 124 ] || fail "check-dgemm did not finish within $timeout_s s"
blas_s="$(sed -n 's/^check-dgemm: openblas dgemm threads=1: median \([0-9.eE+-]*\) s .*/\1/p' "$work/check.out")"
# "T s (R GFLOP/s)" for a time T of 2 n^3 floating-point operations.
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.3f s (%.1f GFLOP/s)", t, 2 * n * n * n / t / 1e9 }'; }
if [ -n "$blas_s" ]; then
  echo "quickstart: $label n=$n on $np ranks ($(nproc) cores): $(rate "$n" "$summa_s"); OpenBLAS dgemm on 1 process (1 thread): $(rate "$n" "$blas_s")"
fi
[ $rc != 1 ] || fail "C = A * B computed on $np ranks does not match the reference (see the check-dgemm lines above)"
[ $rc = 0 ] || fail "check-dgemm exited with status $rc"
err="$(sed -n 's/^check-dgemm: against OpenBLAS dgemm.*: max relative error \([^ ]*\) .*/\1/p' "$work/check.out")"
echo "quickstart: PASSED: C = A * B from $label (n=$n, $np ranks) matches OpenBLAS dgemm on every element (max relative error $err) and textbook loops on one element of every row"
