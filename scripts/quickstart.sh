#!/usr/bin/env bash
# One command: install what is missing, build, and run the main example
# end to end under MPI with its result checked.
#
#   scripts/quickstart.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"

example="$root/examples/smoke.mlir"
echo "quickstart: dist-run -np 4 examples/smoke.mlir"
out="$("$build/bin/dist-run" -np 4 --timeout 120 "$example")"
echo "$out"

# Check the result: grid row 0 sums to (0 1 1 2), row 1 to (2 1 5 2).
expected=("rank 0: 0 1 1 2" "rank 1: 0 1 1 2" "rank 2: 2 1 5 2" "rank 3: 2 1 5 2")
for line in "${expected[@]}"; do
  if ! grep -qx "$line" <<<"$out"; then
    echo "quickstart: FAILED: expected the line '$line'" >&2
    exit 1
  fi
done
echo "quickstart: PASSED: the 4-rank allreduce over grid rows gave the expected sums"
