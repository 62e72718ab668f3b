#!/usr/bin/env bash
# Install what is missing (Debian 12 packages), configure and build dist.
#
#   scripts/setup.sh            # build into ./build (Release)
#   BUILD_DIR=out scripts/setup.sh
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release),
# DIST_SKIP_APT=1 to never call apt-get, CMAKE_ARGS for extra cmake flags.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
build_type="${BUILD_TYPE:-Release}"

packages=(
  cmake ninja-build g++ python3 python3-psutil
  python3-numpy  # npy.test: numpy writes and reads the .npy files
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  libisl-dev
  libopenmpi-dev openmpi-bin
  libopenblas-dev
  libscalapack-openmpi-dev  # the pdgemm_ drop-in (examples/scalapack) and its test
  libomp-22-dev
  iproute2 util-linux  # netns-tcp.test: ip netns, unshare
  scilab-doc libmetis-doc  # real sparse matrices the tests read
)

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "${DIST_SKIP_APT:-0}" = 1 ]; then
    echo "setup: missing packages: ${missing[*]} (DIST_SKIP_APT=1, not installing)" >&2
    exit 1
  fi
  echo "setup: installing missing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all required Debian packages are installed"
fi

jobs="$(nproc 2>/dev/null || echo 2)"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE="$build_type" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  ${CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
# The generated reference docs (the test suite checks docs/reference).
cmake --build "$build" -j "$jobs" --target mlir-doc
echo "setup: built dist in $build"
