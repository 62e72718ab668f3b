#!/usr/bin/env bash
# Pack what the real-GPU checks need into one self-contained folder that can
# be copied to a GPU machine which has the NVIDIA driver, the CUDA runtime,
# cuBLAS and NCCL but none of dist's other dependencies (no Open MPI, no
# OpenBLAS, no LLVM): the lent GPU machines of this workplace are like that.
#
#   scripts/gpu-bundle.sh [BUNDLE]      # default: ./.gpu-bundle
#
# Needs a build with the NCCL plugin (build/lib/libdistrt_nccl.so; see
# docs/gpu.md) and dist-opt, since it compiles the programs here:
#   - the runtime's device tests (distrt-test-nccl, distrt-test-devtiles);
#   - the DISTAL examples dist-run --backend nccl compiles, with --check,
#     on one GPU (1x1 and 1x1x1 grids) and on the example's own grid
#     (run only where there are that many GPUs);
#   - the GPU benchmark's programs and its cuBLAS baseline
#     (benchmarks/gpu/bench_gpu.py prepare).
# and copies, beside them, libdistrt, OpenBLAS and a relocated Open MPI
# (mpirun, orted, its components; OPAL_PREFIX points at the copy), with
# every library they load that is not part of the C runtime.
#
# It also writes BUNDLE.tar.xz (about 15 MB). Run it there with
# BUNDLE/run.sh OUT-DIR (scripts/gpu-check.sh): it finds the CUDA libraries,
# runs everything and writes logs and the benchmark's results into OUT-DIR.
# With this workplace's device tool: carry .gpu-bundle.tar.xz and run
#   tar xf .gpu-bundle.tar.xz -C /tmp && bash /tmp/.gpu-bundle/run.sh $OUT
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bundle="${1:-$root/.gpu-bundle}"
multiarch=x86_64-linux-gnu
sys=/usr/lib/$multiarch

die() { echo "gpu-bundle: error: $*" >&2; exit 1; }
[ -f "$build/lib/libdistrt_nccl.so" ] ||
  die "$build/lib/libdistrt_nccl.so is missing: configure found no CUDA toolkit with NCCL and cuBLAS (docs/gpu.md)"
[ -x "$build/bin/dist-opt" ] || die "$build/bin/dist-opt is missing: build dist first (scripts/setup.sh)"
[ -d "$sys/openmpi/lib" ] || die "Open MPI is not installed (openmpi-bin, libopenmpi-dev)"

rm -rf "$bundle" "$bundle.tar.xz"
mkdir -p "$bundle"/{bin,lib,progs,bench,ompi/usr/bin,ompi/usr/share}

# --- dist's own files --------------------------------------------------------
cp "$build"/bin/distrt-test-nccl "$build"/bin/distrt-test-devtiles "$bundle/bin/"
cp -P "$build"/lib/libdistrt.so* "$build/lib/libdistrt_nccl.so" "$bundle/lib/"
cp "$root/scripts/gpu-check.sh" "$bundle/run.sh"
cp "$root/benchmarks/gpu/bench_gpu.py" "$bundle/"

# The examples with library leaves that --backend nccl compiles (docs/gpu.md,
# "Compiled programs"), each on one GPU and on its own grid.
distal="$root/examples/distal"
one_gpu() { # FILE -> the example with every grid extent 1
  sed -E -e 's/dist\.grid @m \[[0-9, ]+\]/dist.grid @m [ONES]/' \
    -e 's/Grid\(([0-9, ]+)\)/Grid(ONES)/g' "$1" |
    awk -v n="$2" 'BEGIN{o="1"; for(i=1;i<n;i++) o=o ", 1"} {gsub(/ONES/, o); print}'
}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
: >"$bundle/progs/list"
# ttv and innerprod have leaves that are not library calls: generated GPU
# kernels (their list lines say "kernels": the emulation cannot run them).
for f in summa pumma cannon johnson solomonik cosma ttm ttv-gemv innerprod-dot mttkrp gemv dot ttv innerprod; do
  src="$distal/$f.mlir"
  dims="$(sed -nE 's/^dist\.grid @m \[([0-9, ]+)\].*/\1/p' "$src" | head -1)"
  [ -n "$dims" ] || die "$src: no 'dist.grid @m [...]' line"
  nd="$(awk -F, '{print NF}' <<<"$dims")"
  np="$(awk -F, '{p=1; for(i=1;i<=NF;i++) p*=$i; print p}' <<<"$dims")"
  one_gpu "$src" "$nd" >"$tmp/$f.1.mlir"
  grep -q "Grid(" "$src" && ! grep -q "Grid(1" "$tmp/$f.1.mlir" && die "$f: the 1-GPU rewrite missed a Grid(...)"
  "$build/bin/dist-run" --backend nccl --check -o "$bundle/progs/$f.1" "$tmp/$f.1.mlir"
  kind=""
  grep -q mgpuLaunchKernel "$bundle/progs/$f.1" && kind=" kernels"
  echo "$f 1 progs/$f.1$kind" >>"$bundle/progs/list"
  "$build/bin/dist-run" --backend nccl --check -o "$bundle/progs/$f.$np" "$src"
  echo "$f $np progs/$f.$np$kind" >>"$bundle/progs/list"
done

# A sparse product on device tiles (cuSPARSE through distrt_spmat_mul_add).
src="$root/examples/sparse/spmv.mlir"
one_gpu "$src" 1 >"$tmp/spmv.1.mlir"
"$build/bin/dist-run" --backend nccl --check -o "$bundle/progs/spmv.1" "$tmp/spmv.1.mlir"
echo "spmv 1 progs/spmv.1" >>"$bundle/progs/list"
"$build/bin/dist-run" --backend nccl --check -o "$bundle/progs/spmv.4" "$src"
echo "spmv 4 progs/spmv.4" >>"$bundle/progs/list"

# Machines of nodes over GPUs (examples/distal/hierarchical/*-gpus.mlir)
# on one node of one GPU; dist-run's default backend compiles them for device
# memory (dist-to-llvm device=auto). Their 8-rank forms need 4 nodes of 2
# GPUs (or DISTRT_RANKS_PER_NODE=2 on a node of 8): gpu-emu-machines.test
# runs them on the emulation.
for f in summa-gpus ttv-gpus; do
  src="$root/examples/distal/hierarchical/$f.mlir"
  sed -E -e 's/node\[[0-9, ]+\], gpu\[([0-9, ]+)\]/node[1, 1], gpu[\1]/' \
    -e 's/gpu\[1, 2\]/gpu[1, 1]/' -e 's/gpu\[2\]/gpu[1]/' \
    -e 's/Grid\(([0-9]+), ([0-9]+)\)/Grid(1, 1)/g' -e 's/Grid\([0-9]+\)/Grid(1)/g' \
    "$src" >"$tmp/$f.1.mlir"
  grep -q 'node\[1, 1\], gpu\[1' "$tmp/$f.1.mlir" || die "$f: the 1-GPU rewrite missed the machine"
  "$build/bin/dist-run" --check -o "$bundle/progs/$f.1" "$tmp/$f.1.mlir"
  echo "$f 1 progs/$f.1" >>"$bundle/progs/list"
done

# The benchmark's programs and baseline.
python3 "$root/benchmarks/gpu/bench_gpu.py" prepare --build "$build" --out "$bundle/bench"

# --- Open MPI, relocated -----------------------------------------------------
ompi="$bundle/ompi/usr"
mkdir -p "$ompi/lib/$multiarch"
cp -a "$sys/openmpi" "$ompi/lib/$multiarch/"
rm -rf "$ompi/lib/$multiarch/openmpi/include" "$ompi/lib/$multiarch/openmpi/lib/pkgconfig"
find "$ompi/lib/$multiarch/openmpi" -name '*.a' -o -name '*.la' -o -name '*.mod' | xargs rm -f
cp -a "$sys/pmix2" "$ompi/lib/$multiarch/"
rm -f "$ompi/lib/$multiarch/pmix2/lib/libpmix.a"
cp -a /usr/share/openmpi "$ompi/share/"
[ -d /usr/share/pmix ] && cp -a /usr/share/pmix "$ompi/share/"
for b in orterun orted; do cp "$(readlink -f /usr/bin/$b)" "$ompi/bin/$b"; done
ln -s orterun "$ompi/bin/mpirun"
ln -s orterun "$ompi/bin/mpiexec"

# Components that need network stacks the GPU machine does not have (UCX,
# libfabric, PSM, verbs) are left out: Open MPI skips a missing component,
# and shared memory plus TCP is what one machine needs.
exotic='libuc[pmst]|libfabric|libpsm|libinfinipath|libibverbs|librdmacm|libefa|libnl-|libmca_common_(ucx|ofi|verbs)'
for c in "$ompi/lib/$multiarch/openmpi/lib/openmpi3"/*.so "$ompi/lib/$multiarch/openmpi/lib"/liboshmem*; do
  if ldd "$c" 2>/dev/null | grep -Eq "$exotic"; then rm -f "$c"; fi
done

# --- every other library, once ------------------------------------------------
# The C runtime (glibc, libstdc++, libgcc) is the GPU machine's own; so are
# the CUDA libraries, which run.sh finds there.
core='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libutil\.so|libstdc\+\+\.so|libgcc_s\.so)'
cuda='^(libcudart|libcublas|libcublasLt|libnccl|libcuda\.so|libnvidia)'
elfs=$(find "$bundle/bin" "$bundle/lib" "$bundle/progs" "$bundle/bench" "$ompi" -type f \
  \( -perm -u+x -o -name '*.so*' \) -exec sh -c 'head -c4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
for e in $elfs; do
  ldd "$e" 2>/dev/null | awk '/=> \//{print $1, $3}'
done | sort -u | while read -r name path; do
  if [[ "$name" =~ $core || "$name" =~ $cuda ]]; then continue; fi
  case "$(readlink -f "$path")" in "$bundle"/*|"$build"/*|"$sys"/openmpi/*|"$sys"/pmix2/*) continue ;; esac
  [ -e "$bundle/lib/$name" ] || cp -L "$path" "$bundle/lib/$name"
done

# One compressed file as well: the device tool carries at most 64 MiB.
tar -C "$(dirname "$bundle")" -cJf "$bundle.tar.xz" "$(basename "$bundle")"
du -sh "$bundle" "$bundle.tar.xz" | awk '{print "gpu-bundle: " $2 ": " $1}'
echo "gpu-bundle: on the GPU machine: tar xf $(basename "$bundle").tar.xz -C /tmp && bash /tmp/$(basename "$bundle")/run.sh OUT-DIR"
