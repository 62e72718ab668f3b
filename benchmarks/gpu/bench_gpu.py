#!/usr/bin/env python3
"""The GPU benchmark (issue 16): SUMMA and 2.5D (Solomonik) GEMM compiled
with `dist-run --backend nccl` (tiles in device memory, NCCL transfers,
cuBLAS leaves) against one-process cuBLAS GEMM on one GPU.

Two steps, since the machine that compiles (LLVM, dist-opt) is usually not
the one with the GPU:

  bench_gpu.py prepare --build BUILD --out DIR   compile the programs and the
                                                 baseline into DIR (no GPU
                                                 needed; needs CUDA's headers)
  bench_gpu.py run --dir DIR --out OUT           on the GPU machine: run what
                                                 fits its GPU count, write
                                                 OUT/gpu-results.csv and
                                                 OUT/gpu-performance.md

scripts/gpu-bundle.sh runs `prepare` and packs DIR with the libraries the
run needs; scripts/gpu-check.sh runs `run`. Every figure is the median of
REPS timed calls after one untimed warm-up call in the same process, as in
the CPU suite (benchmarks/bench.py), and the report has the same columns:
time, rate and the ratio to the baseline (baseline time / dist time, so
above 1 is faster). NCCL allows one rank of a communicator per GPU, so a
program on a grid of P processes runs only where there are P GPUs.
"""

import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The CPU suite's line formats (benchmarks/bench.py). Written again here,
# not imported: `run` goes to the GPU machine in the bundle without bench.py
# and its imports.
TIME_RE = re.compile(r"^dist: time (.*): ([0-9.eE+-]+) s on (\d+) rank", re.M)
BASE_RE = re.compile(r"^baseline: time .*?: ([0-9.eE+-]+) s", re.M)

SIZES = [4096, 8192]
REPS = 5
# Grids per GPU count: the 2-D ones for SUMMA, the 3-D ones for 2.5D.
GRIDS = {
    "summa": {1: (1, 1), 2: (1, 2), 4: (2, 2), 8: (2, 4)},
    "solomonik": {1: (1, 1, 1), 2: (1, 1, 2), 4: (2, 2, 1), 8: (2, 2, 2)},
}
DTYPES = {"summa": ["f64", "f32"], "solomonik": ["f64"]}


def prepare(args):
    sys.path.insert(0, os.path.dirname(HERE))
    import bench  # the CPU suite's program generator (examples/distal)

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    dist_run = os.path.join(args.build, "bin", "dist-run")
    entries = []
    for alg, grids in GRIDS.items():
        for gpus, grid in grids.items():
            for n in SIZES:
                for dt in DTYPES[alg]:
                    # SUMMA's panels: a quarter of k, so each step's GEMM is
                    # large enough for the GPU.
                    g, param = bench.gemm_program(alg, n, grid, REPS + 1, n // 4)
                    if dt == "f32":
                        g.sub(f"{n}x{n}xf64", f"{n}x{n}xf32")
                    name = f"{alg}-{dt}-n{n}-g{'x'.join(map(str, grid))}"
                    src = g.write(os.path.join(out, name + ".mlir"))
                    exe = os.path.join(out, name)
                    r = subprocess.run([dist_run, "--backend", "nccl", "--time",
                                        "-o", exe, src], capture_output=True,
                                       text=True)
                    if r.returncode != 0:
                        sys.exit(f"bench_gpu: compiling {name} failed:\n"
                                 f"{r.stdout}{r.stderr}")
                    os.remove(src)
                    entries.append(dict(kind="dist", impl=alg, n=n, dtype=dt,
                                        gpus=gpus, grid="x".join(map(str, grid)),
                                        param=param, exe=name))
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    cc = shutil.which("cc") or "gcc"
    exe = os.path.join(out, "cublas_gemm")
    subprocess.run([cc, "-O2", os.path.join(HERE, "cublas_gemm.c"),
                    f"-I{cuda}/include", f"-L{cuda}/lib64", "-lcublas",
                    "-lcudart", "-o", exe], check=True)
    for n in SIZES:
        for dt in ("f64", "f32"):
            entries.append(dict(kind="baseline", impl="cublas", n=n, dtype=dt,
                                gpus=1, grid="1", param="", exe="cublas_gemm"))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(dict(reps=REPS, entries=entries), f, indent=1)
    print(f"bench_gpu: {len(entries)} programs in {out}")


def gpu_count():
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True,
                           timeout=60)
        return sum(1 for l in r.stdout.splitlines() if l.startswith("GPU "))
    except (OSError, subprocess.SubprocessError):
        return 0


def run_one(cmd, env, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=timeout)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        return 124, f"timed out after {timeout} s: {e.stdout or ''}"


def run(args):
    d = os.path.abspath(args.dir)
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    ngpu = gpu_count()
    mpirun = os.environ.get("MPIRUN", "mpirun")
    env = dict(os.environ, DISTRT_BACKEND="nccl")
    rows, base = [], {}
    for e in man["entries"]:
        row = dict(suite="gpu", kernel="gemm", impl=e["impl"], n=e["n"],
                   dtype=e["dtype"], gpus=e["gpus"], grid=e["grid"],
                   param=e["param"], reps=man["reps"], status="", note="")
        if e["gpus"] > ngpu:
            row.update(status="SKIP", note=f"needs {e['gpus']} GPUs, {ngpu} here")
            rows.append(row)
            continue
        exe = os.path.join(d, e["exe"])
        if e["kind"] == "baseline":
            rc, out = run_one([exe, str(e["n"]), e["dtype"], str(man["reps"])],
                              env, args.timeout)
            times = [float(m.group(1)) for m in BASE_RE.finditer(out)]
        else:
            rc, out = run_one([mpirun, "-np", str(e["gpus"]), "--bind-to", "none",
                               "-x", "DISTRT_BACKEND", exe], env, args.timeout)
            # Drop the warm-up call (the first time line).
            times = [float(m.group(2)) for m in TIME_RE.finditer(out)][1:]
        if rc != 0 or len(times) != man["reps"]:
            lines = [l for l in out.strip().splitlines() if l.strip()]
            row.update(status="FAIL", note=" | ".join(lines[-3:])[:300])
            rows.append(row)
            continue
        med = statistics.median(times)
        flops = 2.0 * e["n"] ** 3
        row.update(status="ok", median_s=f"{med:.6f}", min_s=f"{min(times):.6f}",
                   max_s=f"{max(times):.6f}", rate=f"{flops / med / 1e12:.2f}",
                   rate_unit="TFLOP/s")
        if e["kind"] == "baseline":
            base[(e["n"], e["dtype"])] = med
        rows.append(row)
    for r in rows:
        b = base.get((r["n"], r["dtype"]))
        if r["status"] == "ok" and b:
            r["ratio_cublas"] = f"{b / float(r['median_s']):.2f}"
    report(rows, ngpu, args.out)
    return 0 if all(r["status"] in ("ok", "SKIP") for r in rows) else 1


COLS = ["suite", "kernel", "impl", "n", "dtype", "gpus", "grid", "param", "reps",
        "median_s", "min_s", "max_s", "rate", "rate_unit", "ratio_cublas",
        "status", "note"]


def report(rows, ngpu, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "gpu-results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip() \
        if shutil.which("nvidia-smi") else "none"
    lines = [f"GPU GEMM, {ngpu} GPU(s): {gpu}. Median of the timed calls; "
             "ratio = cuBLAS time / dist time (above 1: faster).", "",
             "| impl | dtype | n | GPUs | grid | param | median s | TFLOP/s | vs cuBLAS | status |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| {impl} | {dtype} | {n} | {gpus} | {grid} | {param} | "
                     "{median_s} | {rate} | {ratio_cublas} | {status} {note} |"
                     .format(**{c: r.get(c, "") for c in COLS}))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "gpu-performance.md"), "w") as f:
        f.write(text)
    print(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare", help="compile the programs (no GPU needed)")
    a.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build"))
    a.add_argument("--out", required=True)
    b = sub.add_parser("run", help="run them on the GPU machine")
    b.add_argument("--dir", required=True)
    b.add_argument("--out", required=True)
    b.add_argument("--timeout", type=int, default=120)
    args = p.parse_args()
    if args.cmd == "prepare":
        prepare(args)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
