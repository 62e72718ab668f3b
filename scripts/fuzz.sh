#!/usr/bin/env bash
# Fuzz the dist compiler with libFuzzer: parse, verify, print and lower (the
# whole dist-to-llvm pipeline) mutated inputs under ASan + UBSan.
#
#   scripts/fuzz.sh            # 60 s
#   scripts/fuzz.sh 3600       # a long run (an hour)
#   scripts/fuzz.sh 600 -- -only_ascii=1     # extra libFuzzer flags after --
#
# Configures and builds build-fuzz/ (clang-22, -C test/fuzz/fuzz.cmake; only
# the dist-fuzz target), rebuilds the seed corpus from examples/ and test/
# (build-fuzz/fuzz/seeds), keeps what the fuzzer learns in
# build-fuzz/fuzz/corpus (it grows from run to run), and exits non-zero if a
# crash, sanitizer report, leak, timeout or out-of-memory was found,
# printing the reproducer's path and how to replay and minimise it.
#
# Environment:
#   FUZZ_BUILD_DIR   build directory (default build-fuzz)
#   FUZZ_JOBS        parallel fuzzing processes (default 1; >1 uses -fork=N)
#   FUZZ_KEEP_GOING  1: do not stop at the first finding (fork mode with
#                    -ignore_crashes/-ignore_timeouts/-ignore_ooms), collect
#                    them all until the time is up
#   FUZZ_TIMEOUT     seconds one input may take before it counts as a hang
#                    (default 20)
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
secs=60
if [ $# -gt 0 ] && [ "$1" != "--" ]; then secs="$1"; shift; fi
[ "${1:-}" = "--" ] && shift
case "$secs" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [seconds] [-- libFuzzer flags]" >&2; exit 2 ;; esac
jobs="${FUZZ_JOBS:-1}"
keep_going="${FUZZ_KEEP_GOING:-0}"
input_timeout="${FUZZ_TIMEOUT:-20}"
nproc="$(nproc 2>/dev/null || echo 2)"

command -v /usr/lib/llvm-22/bin/clang++ >/dev/null || {
  echo "fuzz: clang-22 is needed (apt-get install clang-22 libclang-rt-22-dev)" >&2; exit 2; }

if [ ! -f "$build/build.ninja" ] || ! grep -q '^DIST_ENABLE_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "fuzz: configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -C "$root/test/fuzz/fuzz.cmake" >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2; echo "fuzz: configure failed" >&2; exit 2; }
fi
echo "fuzz: building dist-fuzz in $build"
cmake --build "$build" --target dist-fuzz -j "$nproc" || { echo "fuzz: build failed" >&2; exit 2; }

work="$build/fuzz"
stamp="$(date +%Y%m%d-%H%M%S)"
artifacts="$work/artifacts/$stamp"
mkdir -p "$work/corpus" "$artifacts"
rm -rf "$work/seeds"
python3 "$root/test/fuzz/make_corpus.py" --root "$root" --out "$work/seeds" || exit 2

flags=(
  -dict="$root/test/fuzz/dist.dict"
  -max_total_time="$secs"
  -timeout="$input_timeout"
  -rss_limit_mb=4096
  -max_len=16384
  -artifact_prefix="$artifacts/"
  -print_final_stats=1
)
if [ "$jobs" -gt 1 ] || [ "$keep_going" = 1 ]; then
  flags+=(-fork="$jobs")
  [ "$keep_going" = 1 ] && flags+=(-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

log="$work/fuzz-$stamp.log"
echo "fuzz: running dist-fuzz for ${secs}s ($jobs process(es)); log in $log"
(cd "$work" && "$build/bin/dist-fuzz" "${flags[@]}" "$@" corpus seeds) 2>&1 | tee "$log" |
  grep --line-buffered -E '^#[0-9]+.*(INITED|DONE|pulse|cov:)|^==[0-9]+==ERROR|^SUMMARY|dist-fuzz: BUG' |
  awk 'NR % 20 == 1 || /INITED|DONE|ERROR|SUMMARY|BUG/'
rc=${PIPESTATUS[0]}

last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
[ -n "$execs" ] || execs="$(printf '%s' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')"
found=()
while IFS= read -r f; do found+=("$f"); done < <(find "$artifacts" -type f ! -name 'slow-unit-*' | sort)
# Inputs over libFuzzer's -report_slow_units (10 s here, under the sanitizers)
# are kept as slow-unit-* for a look, but are not failures: the timeout is
# FUZZ_TIMEOUT.
slow="$(find "$artifacts" -type f -name 'slow-unit-*' | wc -l)"
[ "$slow" -gt 0 ] && echo "fuzz: $slow slow input(s) (over 10 s, under $input_timeout s) kept in $artifacts"
echo "fuzz: ${execs} inputs executed; last status: ${last:-none}"
echo "fuzz: corpus $work/corpus ($(find "$work/corpus" -type f | wc -l) inputs)"
if [ ${#found[@]} -gt 0 ] || { [ "$rc" != 0 ] && [ "$keep_going" != 1 ]; }; then
  echo "fuzz: FOUND ${#found[@]} problem input(s) (dist-fuzz status $rc):"
  for f in "${found[@]}"; do echo "  $f"; done
  echo "fuzz: replay one:   $build/bin/dist-fuzz FILE"
  echo "fuzz: minimise:     $build/bin/dist-fuzz -minimize_crash=1 -runs=20000 -exact_artifact_path=FILE.min FILE"
  echo "fuzz: then save it as test/fuzz/regressions/NAME.mlir (fuzz-smoke runs it)"
  exit 1
fi
[ "$slow" -gt 0 ] || rmdir "$artifacts" 2>/dev/null
echo "fuzz: no crash, leak, timeout or OOM found"
exit 0
