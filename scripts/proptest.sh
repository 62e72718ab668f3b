#!/usr/bin/env bash
# The property test of the compiler (test/proptest): random computations
# (statement, element type, layouts, machine, schedule; about one in eight
# a sparse SpMV / SpMM, about one in ten a one-sided matrix product) are
# verified with dist-opt; accepted ones are run under MPI with --check in
# batches and compared with an independent reference. Ends with three lines
# (the sparse products, the one-sided ones, then all):
#
#   proptest: sparse: generated G, accepted A, rejected R (...), executed E, passed P (...), failed F
#   proptest: onesided: generated G, accepted A, rejected R (...), executed E, passed P, failed F
#   proptest: generated G, accepted A, rejected R (reason: n, ...), executed E, passed P, failed F
#
#   scripts/proptest.sh [--count N] [--seed S] [--jobs J] [--keep DIR] [other proptest.py options]
#
# Defaults: --count 1000 --seed (today, YYYYMMDD) --jobs 2. --keep DIR
# writes every failing program (one computation, with its seed and index in
# a header) to DIR; copy a confirmed bug into test/proptest/corpus/.
# Uses the tools in ${BUILD_DIR:-build}/bin as they are (no build).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
count=1000
seed="$(date +%Y%m%d)"
jobs=2
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n "2,16p" "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -x "$build/bin/dist-opt" ] && [ -x "$build/bin/dist-run" ] || {
  echo "proptest: no dist-opt / dist-run in $build/bin (build first: scripts/test.sh or cmake --build build)" >&2
  exit 2; }
echo "proptest: seed $seed, $count computations, $jobs jobs" >&2
exec python3 "$root/test/proptest/proptest.py" --bin "$build/bin" --seed "$seed" \
  --count "$count" --jobs "$jobs" "${args[@]+"${args[@]}"}"
