#!/usr/bin/env bash
# The real-GPU checks, run on a GPU machine from the folder that
# scripts/gpu-bundle.sh packs (it is copied there as run.sh):
#
#   bash BUNDLE/run.sh OUT-DIR
#
# 1. the runtime's device tests on the real plugin (test/Runtime/nccl-gpu.test's
#    lines): distrt-test-nccl and distrt-test-devtiles, the mixed-buffer
#    error and the host-write guard;
# 2. the DISTAL examples compiled with dist-run --backend nccl --check, on
#    one GPU (1x1 grids) and on their own grids where there are that many GPUs
#    (ttv and innerprod with generated GPU kernels);
# 3. the GPU benchmark (benchmarks/gpu/bench_gpu.py run).
# Logs go to OUT-DIR; the last line is "gpu: N passed, N failed, N skipped".
# Needs the NVIDIA driver and CUDA 13's runtime, cuBLAS and NCCL somewhere on
# the machine (the CUDA toolkit's lib64, or Python's nvidia-* wheels).
set -uo pipefail

B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:?usage: run.sh OUT-DIR}"
mkdir -p "$OUT"
log="$OUT/gpu-check.log"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

# GPU_CHECK_EMULATE=DIR (a build's lib/ with libdistrt_nccl_emu.so) runs the
# checks on the host emulation instead (GPUEMU_DEVICES GPUs), to test this
# script and the bundle on a machine without a GPU; the benchmark is skipped.
emu="${GPU_CHECK_EMULATE:-}"
if [ -n "$emu" ]; then
  ngpu="${GPUEMU_DEVICES:-1}"
  export GPUEMU_DEVICES="$ngpu" DISTRT_NCCL_PLUGIN="$emu/libdistrt_nccl_emu.so" GPU_CHECK_BENCH=0
  say "gpu: emulated: $ngpu GPU(s), $DISTRT_NCCL_PLUGIN"
else
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  say "gpu: $(nvidia-smi -L 2>&1 | head -8 | tr '\n' ';')"
fi
if [ "${ngpu:-0}" = 0 ]; then
  say "gpu: skipped: no GPU (nvidia-smi -L lists none)"
  say "gpu: 0 passed, 0 failed, 1 skipped"
  exit 0
fi

# The CUDA libraries the plugin and the baseline load, wherever they are.
cudalibs=""
[ -n "$emu" ] || for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcusparse.so.12 libnvJitLink.so.13 libnccl.so.2; do
  p=$(find /usr/local/cuda/lib64 /usr/local/cuda/targets /usr/lib /usr/local /opt \
    -name "$lib" 2>/dev/null | head -1)
  [ -n "$p" ] || { say "gpu: error: $lib not found on this machine"; exit 1; }
  say "gpu: $lib: $p"
  d=$(dirname "$p")
  case ":$cudalibs:" in *":$d:"*) ;; *) cudalibs="$cudalibs:$d" ;; esac
done

ompi="$B/ompi/usr"
march=x86_64-linux-gnu
export LD_LIBRARY_PATH="$B/lib:$ompi/lib/$march/openmpi/lib:$ompi/lib/$march/pmix2/lib$cudalibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
missing=$(ldd "$B/lib/libdistrt_nccl.so" "$B/bin/distrt-test-nccl" 2>&1 | grep "not found" | sort -u | tr -s ' \t\n' ' ')
[ -z "$missing" ] || say "gpu: warning: libraries not found: $missing"
export OPAL_PREFIX="$ompi" PATH="$ompi/bin:$PATH"
export OPAL_LIBDIR="$ompi/lib/$march/openmpi/lib"
export PMIX_MCA_mca_base_component_path="$ompi/lib/$march/pmix2/lib/pmix"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_osc=pt2pt,sm
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OPENBLAS_NUM_THREADS=1 DISTRT_BACKEND=nccl
export MPIRUN="$ompi/bin/mpirun"
X="-x DISTRT_BACKEND${emu:+ -x DISTRT_NCCL_PLUGIN -x GPUEMU_DEVICES}"
mpirun() { timeout -k 5 "${T:-120}" "$MPIRUN" --oversubscribe --bind-to none "$@"; }

passed=0 failed=0 skipped=0
# check NAME CMD...: run CMD, keep its output in OUT/NAME.log, count it.
check() {
  local name="$1"; shift
  "$@" >"$OUT/$name.log" 2>&1 </dev/null
  echo "rc=$?" >>"$OUT/$name.log"
}
verdict() { # NAME OK?
  if [ "$2" = 1 ]; then passed=$((passed + 1)); say "PASS $1"
  else failed=$((failed + 1)); say "FAIL $1: $(grep -v '^\s*$' "$OUT/$1.log" | tail -3 | tr '\n' ' ')"; fi
}
has() { grep -q -- "$2" "$OUT/$1.log"; }
nofail() { ! grep -q "FAIL" "$OUT/$1.log"; }

# 1. The runtime's device tests.
for np in 1 2 4; do
  [ "$np" -le "$ngpu" ] || { skipped=$((skipped + 2)); say "SKIP runtime tests on $np ranks: $ngpu GPU(s)"; continue; }
  check "test-nccl-$np" mpirun -np "$np" $X "$B/bin/distrt-test-nccl"
  ok=0; has "test-nccl-$np" "sections, DONE" && has "test-nccl-$np" "backend: device" && nofail "test-nccl-$np" && has "test-nccl-$np" "rc=0" && ok=1
  verdict "test-nccl-$np" $ok
  mkdir -p "$OUT/tiles$np"
  check "test-devtiles-$np" mpirun -np "$np" $X "$B/bin/distrt-test-devtiles" "$OUT/tiles$np"
  ok=0; has "test-devtiles-$np" "6 sections, DONE" && nofail "test-devtiles-$np" && has "test-devtiles-$np" "rc=0" && ok=1
  verdict "test-devtiles-$np" $ok
  rm -rf "$OUT/tiles$np"
done
check test-nccl-mixed mpirun -np 2 $X "$B/bin/distrt-test-nccl" mixed
ok=0; has test-nccl-mixed "send is host memory but recv is device memory" && ! has test-nccl-mixed "rc=0" && ok=1
verdict test-nccl-mixed $ok
check test-nccl-guard timeout 60 "$B/bin/distrt-test-nccl" guard
ok=0; has test-nccl-guard "guard: writing to device memory from the host" && ! has test-nccl-guard "did not fault" && ! has test-nccl-guard "rc=0" && ok=1
verdict test-nccl-guard $ok

# 2. Compiled DISTAL examples with --check.
while read -r name np exe kind; do
  [ "$np" -le "$ngpu" ] || { skipped=$((skipped + 1)); say "SKIP $name on $np ranks: $ngpu GPU(s)"; continue; }
  if [ -n "$emu" ] && [ "$kind" = kernels ]; then
    skipped=$((skipped + 1)); say "SKIP $name on $np ranks: generated GPU kernels need a real GPU"; continue
  fi
  check "prog-$name-$np" mpirun -np "$np" $X "$B/$exe"
  ok=0; has "prog-$name-$np" ": PASS" && nofail "prog-$name-$np" && has "prog-$name-$np" "rc=0" && ok=1
  verdict "prog-$name-$np" $ok
done <"$B/progs/list"

# 3. The benchmark.
if [ "${GPU_CHECK_BENCH:-1}" = 1 ]; then
  T=300 python3 "$B/bench_gpu.py" run --dir "$B/bench" --out "$OUT" >"$OUT/bench.log" 2>&1
  rc=$?
  cat "$OUT/bench.log" >>"$log"
  verdict bench $([ $rc = 0 ] && echo 1 || echo 0)
fi

say "gpu: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
