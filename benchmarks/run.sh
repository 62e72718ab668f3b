#!/usr/bin/env bash
# The dist benchmark suite (issue 7), in one command:
#
#   benchmarks/run.sh            full suite (~20 min on 2 cores): writes
#                                benchmarks/results/{results.csv,meta.json},
#                                docs/performance.md and docs/performance/*.png
#   benchmarks/run.sh --quick    small sizes, one repeat, about a minute: writes
#                                benchmarks/results/quick/ (results and a
#                                performance.md with plots), not docs/
#
# Other options go to benchmarks/bench.py (--build DIR, --work DIR, --only
# SUITES, --wait-quiet SECONDS; see bench.py --help). It uses the existing
# build in build/ (or $DIST_BUILD) and does not rebuild it. With --only (and
# no --out) the run goes to benchmarks/results/SUITE (sparse, sparse2,
# sparse3, onesided; other choices results/only-SUITES), never over the
# full suite's results; docs/performance.md shows each suite's newest run.
#
#   benchmarks/run.sh --quick --only sparse   PETSc / Tpetra / dist SpMV and
#                                SpMM and an MPI triad on small matrices
#                                (about a minute); --only sparse without
#                                --quick: the full sizes (about 20 minutes
#                                on 2 cores: small matrices get up to 500
#                                calls a figure, in 3 alternating rounds;
#                                part of the default suite)
#   benchmarks/run.sh --only sparse2   SDDMM against a single-process
#                                OpenMP loop, sums of sparse matrices
#                                against PETSc MatAXPY (about 8 minutes)
#   benchmarks/run.sh --only sparse3   SpTTV and SpMTTKRP (L = 16) on a
#                                2048 x 1024 x 16384 tensor of 10M
#                                non-zeros, dist on 1, 2, 4 ranks against
#                                a single-process OpenMP loop
#
# Installs what it needs with apt-get only if it is missing:
# python3-matplotlib, libscalapack-openmpi-dev, libopenblas-dev,
# libopenmpi-dev, openmpi-bin, gcc; for the sparse suite also petsc-dev,
# libtrilinos-tpetra-dev, libtrilinos-kokkos-kernels-dev, g++, scilab-doc,
# libmetis-doc, pkg-config.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"

quick=0
# The sparse suite is in the default set; an --only without it leaves it out.
sparse=1
only=""
has_out=0
prev=""
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --out|--out=*) has_out=1 ;;
    --only=*sparse*) sparse=1; only="${a#--only=}" ;;
    --only=*) sparse=0; only="${a#--only=}" ;;
    -h|--help)
      sed -n '2,/^set /{/^#/p}' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
      exit 0 ;;
  esac
  if [ "$prev" = --only ]; then
    only="$a"
    case "$a" in *sparse*) sparse=1 ;; *) sparse=0 ;; esac
  fi
  prev="$a"
done

# Debian's python3 (matplotlib comes from python3-matplotlib, which a
# python3 from pyenv or a virtual environment would not see).
py=/usr/bin/python3
[ -x "$py" ] || py="$(command -v python3)"

missing=()
pkgs="python3-matplotlib libscalapack-openmpi-dev libopenblas-dev
      libopenmpi-dev openmpi-bin gcc"
# The sparse suite: PETSc, Tpetra (its headers need the Kokkos, Kokkos
# Kernels and Teuchos -dev packages too, which apt does not pull in without
# recommends), g++ for Tpetra, and the real matrices (scilab-doc: HB files;
# libmetis-doc: METIS graphs).
if [ "$sparse" = 1 ]; then
  pkgs="$pkgs petsc-dev libtrilinos-tpetra-dev libtrilinos-kokkos-dev
        libtrilinos-kokkos-kernels-dev libtrilinos-teuchos-dev
        g++ scilab-doc libmetis-doc pkg-config"
fi
for pkg in $pkgs; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" \
    || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
fi

start=$(date +%s)
if [ "$quick" = 1 ]; then
  out="$here/results/quick"
  "$py" "$here/bench.py" --out "$out" "$@"
  "$py" "$here/report.py" --results "$out" --doc "$out/performance.md"
elif [ -n "$only" ] && [ "$has_out" = 0 ]; then
  # One suite alone: its own run under results/SUITE (report.py shows
  # each suite's newest run), never over the full suite's results.
  case "$only" in
    sparse|sparse2|sparse3|onesided) out="$here/results/$only" ;;
    *) out="$here/results/only-${only//,/-}" ;;
  esac
  "$py" "$here/bench.py" --out "$out" "$@"
  "$py" "$here/report.py"
else
  "$py" "$here/bench.py" "$@"
  "$py" "$here/report.py"
fi
end=$(date +%s)
echo "run.sh: done in $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s"
