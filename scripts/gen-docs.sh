#!/usr/bin/env bash
# Regenerate docs/reference/ (dialect and pass reference) from the ODS files.
# The test suite checks that the committed copies are current.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake --build "$build" --target mlir-doc
mkdir -p "$root/docs/reference"
cp "$build"/docs/reference/*.md "$root/docs/reference/"
echo "gen-docs: updated docs/reference from $build/docs/reference"
