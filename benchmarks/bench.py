#!/usr/bin/env python3
"""The dist benchmark suite (issue 7): runs every measurement in one go and
writes benchmarks/results/results.csv and benchmarks/results/meta.json.
benchmarks/report.py turns them into docs/performance.md and its plots;
benchmarks/run.sh runs both.

Every figure is the median of REPS timed calls made after one untimed warm-up
call in the same process (dist programs call the kernel 1 + REPS times from
main; the baselines loop the same way), with the min and max.

  benchmarks/bench.py [--quick] [--build DIR] [--work DIR] [--only SUITES]
"""

import argparse
import json
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench_onesided  # noqa: E402
import bench_sparse2  # noqa: E402
import bench_sparse3  # noqa: E402
EXAMPLES = os.path.join(ROOT, "examples")
DISTAL = os.path.join(EXAMPLES, "distal")

# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------

# Process grids per rank count. 2-D algorithms (SUMMA, Cannon, PUMMA) and
# ScaLAPACK use the 2-D grids, the 3-D ones (Johnson, 2.5D, COSMA) the 3-D
# grids.
GRIDS_2D = {1: [(1, 1)], 2: [(1, 2), (2, 1)], 4: [(2, 2)]}
GRIDS_3D = {1: [(1, 1, 1)], 2: [(2, 1, 1), (1, 1, 2)], 4: [(2, 2, 1), (2, 1, 2)]}
ALGS_2D = ["summa", "cannon", "pumma"]
ALGS_3D = ["johnson", "solomonik", "cosma"]

FULL = dict(
    mode="full",
    gemm_sizes=[1024, 2048, 4096],
    ranks=[1, 2, 4],
    reps=5,
    reps_by_n={},  # n -> repeats, when the budget needs fewer for big n
    check_n=256,
    summa_split=256,
    pdgemm_nb=[64, 128, 256],
    triad_n=1 << 25,  # 3 arrays of 256 MiB
    # Tensors of 256 MiB (8x the L3 cache): memory-bound sizes, short runs.
    ttv=(512, 256, 256),  # B: I x J x K
    innerprod=(256, 256, 256),  # B and C: 128 MiB each
    ttm=(256, 256, 512, 64),  # B: I x J x K, C: K x L
    mttkrp=(256, 256, 512, 32),  # B: I x J x K, C: J x L, D: K x L
    kernel_check=(16, 16, 16, 8),
    # Matrix-vector product (substitute gemv leaf) vs OpenBLAS dgemv, 1 rank.
    matvec_sizes=[4096, 8192],
    matvec_reps=60,  # the first ~20 calls at n = 4096 still speed up (both)
    inline_check=False,  # separate dist-run --check at check_n / kernel_check
    # Sparse suite: SpMV and SpMM (k columns) with PETSc and Tpetra on dist's
    # row partition, and an MPI triad at the same rank counts.
    sparse_matrices=[
        ("banded", "banded:1000000:11"),
        ("rmat", "rmat:1048576:10"),
        ("bcsstk24", "hb:bcsstk24"),
        ("4elt", "metis:4elt"),
        ("copter2", "metis:copter2"),
        ("mdual", "metis:mdual"),
    ],
    sparse_k=32,
    # Timed calls: at least sparse_reps, more for small matrices (whose
    # calls take tens of microseconds, where 20 calls are one disturbance
    # away from a different median): enough for about sparse_span_s of SpMV
    # at 4 GB/s, at most sparse_reps_max. Every implementation of a matrix
    # gets the same count.
    sparse_reps=20,
    sparse_reps_max=500,
    sparse_span_s=0.25,
    # Matrices that get more than sparse_reps calls (the small ones) are
    # measured in this many rounds, the implementations taking turns; the
    # big ones in sparse_rounds_big (a slow phase of a shared machine lasts
    # seconds, longer than one implementation's run of 20 calls).
    sparse_rounds=5,
    sparse_rounds_big=3,
    sparse_verify="files",  # --verify on the file matrices only
    sparse_triad_n=1 << 25,
    # One-sided products (bench_onesided.py): n, rank counts, timed calls.
    onesided_sizes=[4096],
    onesided_ranks=[2, 4],
    onesided_reps=5,
    # Sparse II kernels (bench_sparse2.py): SDDMM on R-MAT and uniform
    # matrices, k columns of C, dist on these rank counts against the
    # reference at as many threads.
    sddmm_matrices=[("rmat", "rmat:1048576:10"),
                    ("uniform", "uniform:1048576:10")],
    sddmm_k=32,
    sddmm_ranks=[1, 2],
    sddmm_reps=10,
    # Sums of three sparse matrices (bench_sparse2.run_add) against PETSc.
    spadd_matrices=[("rmat", "rmat:1048576:10"),
                    ("uniform", "uniform:1048576:10")],
    spadd_ranks=[1, 2],
    spadd_reps=10,
    # Sparse III kernels (bench_sparse3.py): SpTTV and SpMTTKRP (L columns)
    # on I x J x K tensors of per_row * I draws (about 10M non-zeros each),
    # (name, generator, dims, per_row, seed): uniform, and power-law in
    # every mode (dist.generate rmat, FROSTT-like); dist on these rank
    # counts against the reference at as many threads.
    sptensors=[("uniform", "uniform", (2048, 1024, 16384), 4883, 1),
               ("rmat", "rmat", (2048, 1024, 16384), 5750, 1)],
    sptensor_l=16,
    sptensor_ranks=[1, 2, 4],
    sptensor_reps=10,
    compile_reps=5,
    # Seconds spent waiting for quiet and re-measuring disturbed runs, at most.
    retry_budget=900,
    timeout=900,
)

# Quick: one small size; each timed dist-run also checks its result
# (dist-run --check prints the kernel time too), so there is no separate
# correctness pass.
QUICK = dict(
    mode="quick",
    gemm_sizes=[256],
    ranks=[1, 2, 4],
    reps=1,
    reps_by_n={},
    check_n=256,
    summa_split=64,
    pdgemm_nb=[64],
    triad_n=1 << 22,
    ttv=(64, 64, 64),
    innerprod=(64, 64, 64),
    ttm=(32, 64, 64, 16),
    mttkrp=(32, 64, 64, 8),
    kernel_check=(16, 16, 16, 8),
    matvec_sizes=[512],
    matvec_reps=3,
    inline_check=True,
    sparse_matrices=[
        ("banded", "banded:100000:11"),
        ("rmat", "rmat:65536:10"),
        ("bcsstk24", "hb:bcsstk24"),
        ("4elt", "metis:4elt"),
    ],
    sparse_k=32,
    sparse_reps=3,
    sparse_reps_max=3,
    sparse_span_s=0.0,
    sparse_rounds=1,
    sparse_rounds_big=1,
    sparse_verify="all",
    sparse_triad_n=1 << 22,
    onesided_sizes=[256],
    onesided_ranks=[2, 4],
    onesided_reps=2,
    sddmm_matrices=[("rmat", "rmat:4096:8"), ("uniform", "uniform:4096:8")],
    sddmm_k=8,
    sddmm_ranks=[1, 2],
    sddmm_reps=2,
    spadd_matrices=[("rmat", "rmat:4096:8")],
    spadd_ranks=[1, 2],
    spadd_reps=2,
    sptensors=[("uniform", "uniform", (256, 128, 2048), 200, 1),
               ("rmat", "rmat", (256, 128, 2048), 200, 1)],
    sptensor_l=16,
    sptensor_ranks=[1, 2],
    sptensor_reps=2,
    compile_reps=1,
    retry_budget=0,
    timeout=300,
)

FIELDS = [
    "suite", "kernel", "impl", "n", "shape", "ranks", "grid", "threads",
    "param", "overlap", "reps", "median_s", "min_s", "max_s", "rate",
    "rate_unit", "ratio_openblas", "ratio_pdgemm_grid", "ratio_pdgemm_best",
    "ratio_triad", "ratio_blas", "ratio_petsc", "ratio_tpetra", "baseline_ref", "check", "comm",
    "comm_bytes", "prof_compute_s", "prof_gemm_s", "prof_comm_s",
    "prof_barrier_s", "prof_pack_s", "other_load", "status", "times", "note",
]


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------

_HZ = os.sysconf("SC_CLK_TCK")


def _cpu_busy():
    """Busy CPU seconds of the whole machine so far, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq = v[:7]
    steal = v[7] if len(v) > 7 else 0
    return (user + nice + system + irq + softirq) / _HZ, steal / _HZ


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Runner:
    """Runs commands and keeps track of how much CPU others used meanwhile."""

    MISSING = ("cannot find dist-opt", "cannot find dist-translate",
               "cannot find libdistrt", "No such file or directory")

    def __init__(self, bindir, timeout):
        self.bindir = bindir
        self.timeout = timeout

    def run(self, cmd, env=None, timeout=None):
        """Returns (rc, output, wall seconds, CPU cores used by other
        processes on average during the run)."""
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        for attempt in range(20):
            b0, s0 = _cpu_busy()
            c0 = _children_cpu()
            t0 = time.perf_counter()
            try:
                p = subprocess.run(cmd, env=full_env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True,
                                   timeout=timeout or self.timeout)
                rc, out = p.returncode, p.stdout
            except OSError as e:  # e.g. a binary being rewritten
                rc, out = 126, f"{cmd[0]}: {e} (No such file or directory?)"
            except subprocess.TimeoutExpired as e:
                rc = 124
                out = (e.stdout or b"")
                out = out.decode() if isinstance(out, bytes) else out
                out += "\n(timed out)"
            wall = time.perf_counter() - t0
            b1, s1 = _cpu_busy()
            c1 = _children_cpu()
            other = max(0.0, ((b1 - b0) - (c1 - c0)) / wall) if wall > 0 else 0
            # The build is shared: another engineer may be relinking the
            # tools right now. Wait for them and try again.
            if rc != 0 and any(m in out for m in self.MISSING) and \
                    cmd[0].startswith(self.bindir) and attempt < 19:
                log(f"  (a dist binary is missing; waiting for the build: "
                    f"{out.strip().splitlines()[-1][:100]})")
                time.sleep(15)
                continue
            return rc, out, wall, other
        return rc, out, wall, other


TIME_RE = re.compile(r"^dist: time (.*): ([0-9.eE+-]+) s on (\d+) rank", re.M)
CHECK_RE = re.compile(r"^dist: check (.*): max relative error (\S+) .*?: (PASS|FAIL)", re.M)
BASE_RE = re.compile(r"^baseline: time .*?: ([0-9.eE+-]+) s", re.M)
PROF_RE = re.compile(r"^dist: profile call (\d+) rank (\d+) .*: total (\S+) "
                     r"compute (\S+) comm (\S+) barrier (\S+) packing (\S+) "
                     r"gemm (\S+)$", re.M)
PROF_KEYS = ("prof_compute_s", "prof_comm_s", "prof_barrier_s", "prof_pack_s",
             "prof_gemm_s")


def profile(out):
    """Median over the timed calls (the warm-up, call 0, left out) of the
    mean over ranks of each part of the kernel time, from the runtime's
    profile (DISTRT_PROFILE=calls: one line per rank and computation,
    "total T compute C comm W barrier B packing P gemm G"). compute is the
    rest of the kernel time (generated loops and library leaves: C = T - W
    - B - P); gemm is the part of it spent in GEMM leaves; barrier is the
    wait at barriers (the one that ends each call included): load
    imbalance, not data movement."""
    calls = {}
    for m in PROF_RE.finditer(out):
        call, rank = int(m.group(1)), int(m.group(2))
        calls.setdefault(call, []).append(tuple(map(float, m.group(4, 5, 6, 7, 8))))
    n = len(PROF_KEYS)
    parts = [[statistics.mean(v[i] for v in vals) for i in range(n)]
             for call, vals in sorted(calls.items()) if call > 0]
    if not parts:
        return {}
    return {k: f"{statistics.median(p[i] for p in parts):.6f}"
            for i, k in enumerate(PROF_KEYS)}


def summarize(times):
    return dict(median_s=statistics.median(times), min_s=min(times),
                max_s=max(times), times=";".join(f"{t:.6f}" for t in times))


def tail(out, n=3):
    lines = [l for l in out.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:300]


# ---------------------------------------------------------------------------
# Program generation from examples/distal
# ---------------------------------------------------------------------------

class Gen:
    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.src = f.read()

    def sub(self, old, new, count=None):
        if old not in self.src:
            raise RuntimeError(f"{os.path.relpath(self.path, ROOT)}: expected "
                               f"'{old}' (the benchmark derives its programs "
                               f"from this example)")
        self.src = self.src.replace(old, new)
        return self

    def grid(self, old, new):
        o = ", ".join(map(str, old))
        n = ", ".join(map(str, new))
        self.sub(f"dist.grid @m [{o}]", f"dist.grid @m [{n}]")
        self.sub(f"Grid({o})", f"Grid({n})")
        return self

    def repeat_call(self, calls):
        """Call the kernel `calls` times from @main."""
        m = re.search(r"^  func\.call @\w+\(.*\n", self.src, re.M)
        if not m:
            raise RuntimeError(f"{self.path}: no func.call in @main")
        self.src = self.src[:m.start()] + m.group(0) * calls + self.src[m.end():]
        return self

    def write(self, path):
        with open(path, "w") as f:
            f.write(self.src)
        return path


def gemm_program(alg, n, grid, calls, split):
    g = Gen(os.path.join(DISTAL, f"{alg}.mlir"))
    g.sub("64x64xf64", f"{n}x{n}xf64")
    g.grid((2, 2) if len(grid) == 2 else (2, 2, 2), grid)
    steps = max(grid[0], grid[1])
    if alg == "summa":
        g.sub("split(k, ko, ki, 16)", f"split(k, ko, ki, {split})")
        param = f"split {split}"
    elif alg in ("cannon", "pumma"):
        # One step per processor along the longer grid side.
        g.sub("divide(k, ko, ki, 2)", f"divide(k, ko, ki, {steps})")
        param = f"divide {steps}"
    elif alg == "solomonik":
        # sqrt(p / c^3) steps for a g x g x c grid: g / c.
        s = max(1, steps // grid[2])
        g.sub("divide(ki, kio, kii, 1)", f"divide(ki, kio, kii, {s})")
        param = f"divide {s}"
    elif alg == "cosma":
        param = "divide 2"
    else:
        param = ""
    g.repeat_call(calls)
    return g, param


def ttv_program(shape, grid, calls):
    i, j, k = shape
    g = Gen(os.path.join(DISTAL, "ttv.mlir"))
    g.sub("32x32x32xf64", f"{i}x{j}x{k}xf64")
    g.sub("<32x32xf64", f"<{i}x{j}xf64")
    g.sub("<32xf64", f"<{k}xf64")
    g.grid((2, 2), grid)
    return g.repeat_call(calls)


def innerprod_program(shape, grid, calls):
    i, j, k = shape
    g = Gen(os.path.join(DISTAL, "innerprod.mlir"))
    g.sub("32x32x32xf64", f"{i}x{j}x{k}xf64")
    g.grid((2, 2), grid)
    return g.repeat_call(calls)


def ttm_program(shape, ranks, calls):
    i, j, k, l = shape
    g = Gen(os.path.join(DISTAL, "ttm.mlir"))
    g.sub("16x32x24xf64", f"{i}x{j}x{l}xf64")
    g.sub("16x32x20xf64", f"{i}x{j}x{k}xf64")
    g.sub("<20x24xf64", f"<{k}x{l}xf64")
    g.grid((4,), (ranks,))
    return g.repeat_call(calls)


def mttkrp_program(shape, grid, calls):
    i, j, k, l = shape
    g = Gen(os.path.join(DISTAL, "mttkrp.mlir"))
    g.sub("!A = !dist.tensor<16x8xf64", f"!A = !dist.tensor<{i}x{l}xf64")
    g.sub("!B = !dist.tensor<16x16x16xf64", f"!B = !dist.tensor<{i}x{j}x{k}xf64")
    g.sub("!C = !dist.tensor<16x8xf64", f"!C = !dist.tensor<{j}x{l}xf64")
    g.sub("!D = !dist.tensor<16x8xf64", f"!D = !dist.tensor<{k}x{l}xf64")
    g.grid((2, 2, 2), grid)
    return g.repeat_call(calls)


def matvec_program(n, calls):
    """examples/distal/gemv.mlir on one rank at n x n (the gemv leaf)."""
    g = Gen(os.path.join(DISTAL, "gemv.mlir"))
    g.sub("<64xf64", f"<{n}xf64")
    g.sub("<64x48xf64", f"<{n}x{n}xf64")
    g.sub("<48xf64", f"<{n}xf64")
    g.grid((4,), (1,))
    return g.repeat_call(calls)


def gname(grid):
    return "x".join(map(str, grid))


# ---------------------------------------------------------------------------
# Sparse matrices (the sparse suite)
# ---------------------------------------------------------------------------

# Real matrices from Debian packages: a Harwell-Boeing file (scilab-doc) that
# distrt reads as is, and METIS graphs (libmetis-doc) that
# benchmarks/sparse/metis2mtx.py turns into symmetric MatrixMarket files
# (graph Laplacian plus identity: off-diagonal -1, diagonal degree + 1).
SPARSE_HB = {"bcsstk24": "/usr/share/scilab/modules/umfpack/demos/bcsstk24.rsa"}
METIS_GRAPHS = "/usr/share/doc/libmetis-dev/examples/graphs"
SPARSE_TIME_RE = re.compile(
    r"^baseline: time (\S+) matrix=(\S+) ranks=(\d+)(?: k=(\d+))?: "
    r"([0-9.eE+-]+) s", re.M)
SPARSE_MATRIX_RE = re.compile(
    r"^baseline: matrix (\S+): (\d+) x (\d+), (\d+) entries \(per rank "
    r"(\d+) to (\d+)\)", re.M)


def dist_sparse_cmd(suite, kernel, matrix, ranks, k, reps, rows, cols,
                    nonzeros=False):
    """The command that runs dist's SpMV / SpMM on `ranks` processes (a list
    for subprocess): benchmarks/sparse/dist-product.mlir instantiated in
    suite.work and run with dist-run --time (1 + reps calls; the first is
    the warm-up).

      kernel  "spmv" (y = A x) or "spmm" (Y = A X, X of k columns)
      matrix  the baselines' --matrix argument: "banded:N:W" and
              "rmat:N:EPR" become dist.generate with seed 1 (the same
              distrt generators, so the same matrix); "file:PATH" becomes
              dist.load. Same row partition (blocks of ceil(rows / P)), x
              blocked by ceil(cols / P).
      rows, cols  the matrix's extents (from the baselines' output)
      nonzeros  B stored with SpDISTAL's non-zero partition ("xy -> x~")
              and scheduled by positions, instead of rows blocked

    Returns None for a matrix spec it does not know."""
    kind, _, rest = matrix.partition(":")
    if kind == "banded":
        fill = f"dist.generate %b banded({rest.split(':')[1]}) seed 1 : !B"
    elif kind == "rmat":
        fill = f"dist.generate %b rmat({rest.split(':')[1]}) seed 1 : !B"
    elif kind == "file":
        fill = f'dist.load %b from "{rest}" : !B'
    else:
        return None
    spmm = kernel == "spmm"
    vals = {
        "P": str(ranks), "ROWS": str(rows), "COLS": str(cols),
        "YSHAPE": f"{rows}x{k}" if spmm else str(rows),
        "XSHAPE": f"{cols}x{k}" if spmm else str(cols),
        "YLAYOUT": '"xy -> x"' if spmm else '"x -> x"',
        "STMT": '"Y(i,k) = B(i,j) * X(j,k)"' if spmm
                else '"Y(i) = B(i,j) * X(j)"',
        "FILL": fill, "CALLS": str(reps + 1),
        "BLAYOUT": '"xy -> x~"' if nonzeros else '"xy -> x"',
        "SCHED": (("reorder({i, j, k}), " if spmm else "") +
                  f"fuse(i, j, f), pos(f, fp, B), "
                  f"distribute({{fp}}, {{fo}}, {{fi}}, Grid({ranks}))")
                 if nonzeros else f"distribute({{i}}, {{io}}, {{ii}}, Grid({ranks}))"}
    with open(os.path.join(HERE, "sparse", "dist-product.mlir")) as f:
        text = f.read()
    for key, val in vals.items():
        text = text.replace(f"@{key}@", val)
    tag = re.sub(r"[^A-Za-z0-9]+", "_", os.path.basename(matrix))
    path = os.path.join(suite.work, f"dist-{kernel}-{tag}-{ranks}"
                                    f"{'-nz' if nonzeros else ''}.mlir")
    with open(path, "w") as f:
        f.write(text)
    return [suite.dist_run, "-np", str(ranks), "--time", "--timeout",
            str(suite.cfg["timeout"]), path]


# ---------------------------------------------------------------------------
# The suite
# ---------------------------------------------------------------------------

class Suite:
    def __init__(self, cfg, bindir, work, nproc):
        self.cfg = cfg
        self.bindir = bindir
        self.work = work
        self.nproc = nproc
        self.runner = Runner(bindir, cfg["timeout"])
        self.rows = []
        self.checks = {}  # (kernel or alg, grid) -> PASS / FAIL
        self.failures = []
        self.dist_run = os.path.join(bindir, "dist-run")
        self.dist_opt = os.path.join(bindir, "dist-opt")
        self.exe = {}
        self.last_error = ""
        self.retry_left = cfg["retry_budget"]
        self.retries = 0
        self.quiet_wait = 0.0
        self.last_out = ""

    DISTURBED = 0.4  # cores used by other processes during a measurement

    # -- helpers ----------------------------------------------------------

    def row(self, **kw):
        r = {f: "" for f in FIELDS}
        r.update(kw)
        self.rows.append(r)
        return r

    def reps_for(self, n):
        return self.cfg["reps_by_n"].get(n, self.cfg["reps"])

    def fail(self, what, out):
        msg = f"{what}: {tail(out)}"
        self.failures.append(msg)
        log(f"  FAILED {msg}")

    def dist_measure(self, path, ranks, reps, threads=1, check=False,
                     overlap=None, mpirun_args=""):
        """Times of the 1 + reps calls minus the warm-up, the output, the
        load of other processes, and (with check) PASS / FAIL of
        dist-run --check on every call and the largest error. The runtime
        profiles every call (DISTRT_PROFILE=calls)."""
        env = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": str(threads),
               "DISTRT_PROFILE": "calls"}
        cmd = [self.dist_run, "-np", str(ranks),
               "--check" if check else "--time", "--timeout",
               str(self.cfg["timeout"]), "--mpirun-args",
               ("-x DISTRT_PROFILE " + mpirun_args).strip(), path]
        if overlap:
            cmd[1:1] = ["--overlap", overlap]
        rc, out, wall, other = self.run_undisturbed(cmd, env)
        self.last_out = out
        # A call's time includes the redistributions dist-run inserted
        # before it (their own "dist: time redistribute" lines).
        times, pending = [], 0.0
        for m in TIME_RE.finditer(out):
            if m.group(1).startswith("redistribute "):
                pending += float(m.group(2))
            else:
                times.append(float(m.group(2)) + pending)
                pending = 0.0
        st = ""
        if check:
            res = CHECK_RE.findall(out)
            # One check of the computation per call, plus one per
            # redistribution that dist-insert-redistributions added.
            calls = [r for r in res if r[0] != "redistribute"]
            st = "PASS" if rc == 0 and len(calls) == reps + 1 and \
                all(r[2] == "PASS" for r in res) else "FAIL"
            self.last_error = max((r[1] for r in res), key=float, default="")
        if rc != 0 or len(times) != reps + 1:
            return None, out, other, st
        return times[1:], out, other, st

    def dist_check(self, path, ranks, threads=1):
        env = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": str(threads)}
        cmd = [self.dist_run, "-np", str(ranks), "--check", "--timeout",
               str(self.cfg["timeout"]), path]
        rc, out, _, _ = self.runner.run(cmd, env)
        res = CHECK_RE.findall(out)
        ok = rc == 0 and res and all(r[2] == "PASS" for r in res)
        return ("PASS" if ok else "FAIL"), (res[0][1] if res else ""), out

    def overlaps(self, path):
        """Whether the lowering double buffers any transfer of the program
        (a time-stepped broadcast, shift, allgather or permutation)."""
        rc, out, _, _ = self.runner.run(
            [self.dist_opt, "--dist-materialize-spmd", path], timeout=120)
        return rc == 0 and re.search(
            r"dist\.start_(broadcast|shift|allgather|permute) "
            r"|distrt_i(bcast|shift|allgather|permute)\(", out) is not None

    def comm_report(self, path):
        """The communication pattern dist-report-communication picks for each
        tensor, and the bytes a rank receives at most (steps x elements x 8,
        over the tensors that are not local)."""
        rc, out, _, _ = self.runner.run(
            [self.dist_opt, "--dist-report-communication", path, "-o",
             os.devnull], timeout=120)
        pats, total = [], 0
        for m in re.finditer(
                r"remark: (\w+)( \(output\))?: (.*?), (?:once|at each iteration "
                r"of '\w+') \((\d+) steps?, up to (\d+) elements\)", out):
            name, _, desc, steps, elems = m.groups()
            kind = desc.split()[0]
            if kind == "point-to-point":
                kind = "p2p"
            pats.append(f"{name}:{kind}" + (f"x{steps}" if int(steps) > 1 else ""))
            if kind != "local":
                total += int(steps) * int(elems) * 8
        return " ".join(pats), total

    def run_undisturbed(self, cmd, env):
        """Runs a measurement; if other processes used more than
        DISTURBED cores meanwhile and the retry budget allows, waits for
        the machine to go quiet and measures again, keeping the run that
        was disturbed least."""
        best = self.runner.run(cmd, env)
        if best[3] > self.DISTURBED and best[0] == 0 and self.retry_left > 0:
            t0 = time.time()
            load = wait_for_quiet(min(120, self.retry_left), quiet=True)
            if load < 0.3:
                log(f"  (others used {best[3]:.2f} cores during that run: "
                    f"measuring again)")
                again = self.runner.run(cmd, env)
                self.retries += 1
                if again[0] == 0 and again[3] < best[3]:
                    best = again
            else:
                log(f"  (others used {best[3]:.2f} cores during that run, and "
                    f"still do: keeping it)")
            self.retry_left -= time.time() - t0
            self.quiet_wait += time.time() - t0
        return best

    def baseline(self, cmd, env, what, key=None):
        """Times printed by a baseline (lines 'baseline: time KEY...')."""
        rc, out, wall, other = self.run_undisturbed(cmd, env)
        self.last_out = out
        times = [float(m.group(1)) for m in BASE_RE.finditer(out)
                 if key is None or m.group(0).startswith(f"baseline: time {key} ")]
        if rc != 0 or not times:
            self.fail(what, out)
            return None, other
        return times, other

    def mpirun(self, ranks):
        args = ["mpirun", "--oversubscribe"]
        if os.geteuid() == 0:
            args.append("--allow-run-as-root")
        return args + ["-np", str(ranks)]

    # -- build the baselines ------------------------------------------------

    def build_baselines(self):
        b = os.path.join(HERE, "baselines")
        w = self.work
        steps = [
            ("dgemm", ["cc", "-O2", f"{b}/dgemm.c", "-o", f"{w}/dgemm",
                       "-lopenblas"]),
            ("dgemv", ["cc", "-O2", f"{b}/dgemv.c", "-o", f"{w}/dgemv",
                       "-lopenblas"]),
            ("tensor", ["cc", "-O2", "-fopenmp", f"{b}/tensor.c", "-o",
                        f"{w}/tensor", "-lopenblas"]),
            ("triad", ["cc", "-O3", "-march=native", "-fopenmp",
                       f"{b}/triad.c", "-o", f"{w}/triad"]),
            ("pdgemm", ["mpicc", "-O2", f"{b}/pdgemm.c", "-o", f"{w}/pdgemm",
                        "-lscalapack-openmpi"]),
        ]
        # The same program with dist's pdgemm_ drop-in linked first
        # (examples/scalapack/dist_pdgemm.c): same descriptors, same arrays.
        lib = os.path.join(os.path.dirname(self.bindir), "lib")
        if os.path.exists(os.path.join(lib, "libdist_pdgemm.so")):
            steps.append(("pdgemm_dist", [
                "mpicc", "-O2", f"{b}/pdgemm.c", "-o", f"{w}/pdgemm_dist",
                f"-L{lib}", f"-Wl,-rpath,{lib}", "-ldist_pdgemm",
                "-lscalapack-openmpi"]))
        else:
            self.fail("building pdgemm_dist",
                      f"{lib}/libdist_pdgemm.so is missing (ScaLAPACK not "
                      "found when dist was configured)")
        for name, cmd in steps:
            log("  " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c
                                for c in cmd))
            p = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                self.fail(f"building {name}", p.stdout)
            else:
                self.exe[name] = os.path.join(self.work, name)

    # -- GEMM -----------------------------------------------------------

    def gemm_configs(self):
        for ranks in self.cfg["ranks"]:
            for alg in ALGS_2D:
                for grid in GRIDS_2D[ranks]:
                    yield alg, ranks, grid
            for alg in ALGS_3D:
                for grid in GRIDS_3D[ranks]:
                    yield alg, ranks, grid

    def gemm_checks(self):
        n = self.cfg["check_n"]
        log(f"== GEMM correctness at n = {n} (dist-run --check, every "
            f"algorithm and grid measured below)")
        for alg, ranks, grid in self.gemm_configs():
            g, _ = gemm_program(alg, n, grid, 1, min(self.cfg["summa_split"], n // 2))
            path = g.write(os.path.join(self.work, f"check-{alg}-{gname(grid)}.mlir"))
            st, err, out = self.dist_check(path, ranks)
            self.checks[(alg, gname(grid))] = st
            log(f"  {alg:10s} {gname(grid):6s} {st} (max rel. error {err})")
            self.row(suite="check", kernel="gemm", impl=alg, n=n, shape=f"{n}x{n}x{n}",
                     ranks=ranks, grid=gname(grid), threads=1, status=st,
                     note=f"max relative error {err}")
            if st != "PASS":
                self.fail(f"check {alg} {gname(grid)}", out)

    def gemm_dist(self):
        log("== GEMM f64, dist (one OpenBLAS thread per rank; overlap on and "
            "off where the program has time-stepped transfers)")
        for n in self.cfg["gemm_sizes"]:
            reps = self.reps_for(n)
            for alg, ranks, grid in self.gemm_configs():
                g, param = gemm_program(alg, n, grid, reps + 1, self.cfg["summa_split"])
                path = g.write(os.path.join(self.work, f"{alg}-{n}-{gname(grid)}.mlir"))
                comm, cbytes = self.comm_report(path)
                modes = ["on", "off"] if self.overlaps(path) else ["n/a"]
                for ov in modes:
                    self.gemm_dist_one(path, n, reps, alg, ranks, grid, param,
                                       comm, cbytes, ov)

    def gemm_dist_one(self, path, n, reps, alg, ranks, grid, param, comm,
                      cbytes, ov):
        times, out, other, st = self.dist_measure(
            path, ranks, reps, check=self.cfg["inline_check"],
            overlap=None if ov == "n/a" else ov)
        if self.cfg["inline_check"]:
            self.checks[(alg, gname(grid))] = st
            if st != "PASS":
                self.fail(f"check {alg} n={n} {gname(grid)}", out)
        base = dict(suite="gemm", kernel="gemm", impl=alg, n=n,
                    shape=f"{n}x{n}x{n}", ranks=ranks, grid=gname(grid),
                    threads=1, param=param, overlap=ov, reps=reps,
                    check=self.checks.get((alg, gname(grid)), ""),
                    comm=comm, comm_bytes=cbytes,
                    other_load=f"{other:.2f}")
        if times is None:
            self.fail(f"gemm {alg} n={n} grid={gname(grid)} overlap {ov}", out)
            self.row(**base, status="FAIL", note=tail(out))
            return
        s = summarize(times)
        r = self.row(**base, **s, **profile(out),
                     rate=f"{2 * n ** 3 / s['median_s'] / 1e9:.2f}",
                     rate_unit="GFLOP/s", status="ok")
        log(f"  n={n:5d} {ranks} rank(s) {alg:10s} {gname(grid):6s} "
            f"overlap {ov:3s} "
            f"{s['median_s']:.4f} s [{s['min_s']:.4f}, {s['max_s']:.4f}] "
            f"{r['rate']} GFLOP/s  (others used {other:.2f} cores)")

    def gemm_openblas(self):
        log("== GEMM baseline: single-process OpenBLAS dgemm, threads = ranks")
        if "dgemm" not in self.exe:
            return
        for n in self.cfg["gemm_sizes"]:
            reps = self.reps_for(n)
            for ranks in self.cfg["ranks"]:
                times, other = self.baseline(
                    [self.exe["dgemm"], str(n), str(ranks), str(reps)],
                    {"OPENBLAS_NUM_THREADS": str(ranks)}, f"dgemm n={n} t={ranks}")
                if not times:
                    continue
                s = summarize(times)
                self.row(suite="gemm", kernel="gemm", impl="openblas", n=n,
                         shape=f"{n}x{n}x{n}", ranks=ranks, grid="", threads=ranks,
                         reps=reps, **s,
                         rate=f"{2 * n ** 3 / s['median_s'] / 1e9:.2f}",
                         rate_unit="GFLOP/s", status="ok", other_load=f"{other:.2f}",
                         note="1 process")
                log(f"  n={n:5d} {ranks} thread(s) openblas {s['median_s']:.4f} s "
                    f"(others used {other:.2f} cores)")

    def matvec(self):
        """y(i) = A(i,j) * x(j) on one rank, n x n f64: the dist gemv leaf
        (examples/distal/gemv.mlir) against single-threaded OpenBLAS dgemv
        on the same data size."""
        log("== Matvec f64, 1 rank: dist gemv leaf vs OpenBLAS dgemv "
            "(1 thread)")
        reps = self.cfg["matvec_reps"]
        for n in self.cfg["matvec_sizes"]:
            bt = None
            if "dgemv" in self.exe:
                times, other = self.baseline(
                    [self.exe["dgemv"], str(n), "1", str(reps)],
                    {"OPENBLAS_NUM_THREADS": "1"}, f"dgemv n={n}")
                if times:
                    bt = summarize(times)
                    self.row(suite="matvec", kernel="matvec", impl="openblas",
                             n=n, shape=f"{n}x{n}", ranks=1, grid="",
                             threads=1, reps=reps, **bt,
                             rate=f"{2 * n * n / bt['median_s'] / 1e9:.2f}",
                             rate_unit="GFLOP/s", status="ok",
                             other_load=f"{other:.2f}", note="1 process")
                    log(f"  n={n:5d} openblas dgemv {bt['median_s']:.6f} s "
                        f"(others used {other:.2f} cores)")
            g = matvec_program(n, reps + 1)
            path = g.write(os.path.join(self.work, f"matvec-{n}.mlir"))
            # Unbound, like the baseline process: on a small shared machine
            # mpirun's default binding to one core costs 5-15 % here.
            times, out, other, st = self.dist_measure(
                path, 1, reps, check=self.cfg["inline_check"],
                mpirun_args="--bind-to none")
            base = dict(suite="matvec", kernel="matvec", impl="dist-gemv",
                        n=n, shape=f"{n}x{n}", ranks=1, grid="1", threads=1,
                        param="substitute gemv", reps=reps, check=st,
                        other_load=f"{other:.2f}")
            if times is None:
                self.fail(f"matvec n={n}", out)
                self.row(**base, status="FAIL", note=tail(out))
                continue
            s = summarize(times)
            ratio = (f"{bt['median_s'] / s['median_s']:.3f}" if bt else "")
            self.row(**base, **s, **profile(out),
                     rate=f"{2 * n * n / s['median_s'] / 1e9:.2f}",
                     rate_unit="GFLOP/s", ratio_blas=ratio,
                     baseline_ref="openblas dgemv 1t" if bt else "",
                     status="ok")
            log(f"  n={n:5d} dist gemv leaf {s['median_s']:.6f} s "
                f"[{s['min_s']:.6f}, {s['max_s']:.6f}] "
                f"(openblas/dist = {ratio or 'n/a'}; others used "
                f"{other:.2f} cores)")

    def gemm_pdgemm(self):
        log("== GEMM baseline: ScaLAPACK pdgemm, one OpenBLAS thread per rank, "
            f"block sizes {self.cfg['pdgemm_nb']}")
        if "pdgemm" not in self.exe:
            return
        for n in self.cfg["gemm_sizes"]:
            reps = self.reps_for(n)
            for ranks in self.cfg["ranks"]:
                for grid in GRIDS_2D[ranks]:
                    for nb in self.cfg["pdgemm_nb"]:
                        if nb > n:
                            continue
                        cmd = self.mpirun(ranks) + [
                            self.exe["pdgemm"], str(n), str(grid[0]), str(grid[1]),
                            str(nb), str(reps)]
                        times, other = self.baseline(
                            cmd, {"OPENBLAS_NUM_THREADS": "1"},
                            f"pdgemm n={n} grid={gname(grid)} nb={nb}")
                        if not times:
                            continue
                        s = summarize(times)
                        self.row(suite="gemm", kernel="gemm", impl="pdgemm", n=n,
                                 shape=f"{n}x{n}x{n}", ranks=ranks,
                                 grid=gname(grid), threads=1, param=f"nb {nb}",
                                 reps=reps, **s,
                                 rate=f"{2 * n ** 3 / s['median_s'] / 1e9:.2f}",
                                 rate_unit="GFLOP/s", status="ok",
                                 other_load=f"{other:.2f}")
                        log(f"  n={n:5d} {ranks} rank(s) pdgemm {gname(grid)} "
                            f"nb={nb:3d} {s['median_s']:.4f} s "
                            f"(others used {other:.2f} cores)")
                        self.pdgemm_dropin(n, ranks, grid, nb, reps, s)

    def pdgemm_dropin(self, n, ranks, grid, nb, reps, base):
        """The pdgemm baseline program with dist's drop-in linked first."""
        if "pdgemm_dist" not in self.exe:
            return
        cmd = self.mpirun(ranks) + [
            self.exe["pdgemm_dist"], str(n), str(grid[0]), str(grid[1]),
            str(nb), str(reps)]
        times, other = self.baseline(
            cmd, {"OPENBLAS_NUM_THREADS": "1"},
            f"dist pdgemm_ drop-in n={n} grid={gname(grid)} nb={nb}")
        if not times:
            return
        s = summarize(times)
        ratio = base["median_s"] / s["median_s"]
        self.row(suite="pdgemm-dropin", kernel="gemm", impl="dist-pdgemm",
                 n=n, shape=f"{n}x{n}x{n}", ranks=ranks, grid=gname(grid),
                 threads=1, param=f"nb {nb}", reps=reps, **s,
                 rate=f"{2 * n ** 3 / s['median_s'] / 1e9:.2f}",
                 rate_unit="GFLOP/s", status="ok", other_load=f"{other:.2f}",
                 ratio_pdgemm_grid=f"{ratio:.3f}",
                 baseline_ref=f"pdgemm {gname(grid)} nb {nb} (same program)")
        log(f"  n={n:5d} {ranks} rank(s) dist pdgemm_ drop-in {gname(grid)} "
            f"nb={nb:3d} {s['median_s']:.4f} s: {ratio:.2f}x pdgemm "
            f"(others used {other:.2f} cores)")

    # -- memory-bound and tensor kernels -----------------------------------

    def kernel_configs(self, kernel):
        if kernel in ("ttv", "innerprod"):
            # (ranks, grid, OpenMP threads per rank)
            cfgs = [(1, (1, 1), 1), (2, (2, 1), 1), (4, (2, 2), 1)]
            if kernel == "ttv":  # parallelize(ii): threads inside one rank
                cfgs.append((1, (1, 1), 2))
            return [c for c in cfgs if c[0] in self.cfg["ranks"]]
        if kernel == "ttm":
            return [(r, (r,), 1) for r in self.cfg["ranks"]]
        if kernel == "mttkrp":
            g = {1: (1, 1, 1), 2: (2, 1, 1), 4: (2, 2, 1)}
            return [(r, g[r], 1) for r in self.cfg["ranks"]]
        raise ValueError(kernel)

    def kernel_program(self, kernel, shape, grid, ranks, calls):
        if kernel == "ttv":
            return ttv_program(shape, grid, calls)
        if kernel == "innerprod":
            return innerprod_program(shape, grid, calls)
        if kernel == "ttm":
            return ttm_program(shape, ranks, calls)
        return mttkrp_program(shape, grid, calls)

    @staticmethod
    def kernel_size(kernel, shape):
        """(bytes moved at least, flops) per call."""
        if kernel == "ttv":
            i, j, k = shape
            return 8 * (i * j * k + i * j + k), 2 * i * j * k
        if kernel == "innerprod":
            i, j, k = shape
            return 8 * 2 * i * j * k, 2 * i * j * k
        if kernel == "ttm":
            i, j, k, l = shape
            return 8 * (i * j * k + k * l + i * j * l), 2 * i * j * k * l
        i, j, k, l = shape
        return 8 * (i * j * k + (i + j + k) * l), 2 * i * j * k * l

    def kernels(self):
        log("== Tensor kernels (TTV, innerprod vs triad bandwidth; TTM, MTTKRP "
            "vs local OpenBLAS)")
        reps = self.cfg["reps"]
        for kernel in ("ttv", "innerprod", "ttm", "mttkrp"):
            shape = self.cfg[kernel]
            cshape = self.cfg["kernel_check"][:3 if kernel in ("ttv", "innerprod") else 4]
            for ranks, grid, threads in self.kernel_configs(kernel):
                inline = self.cfg["inline_check"]
                if not inline:
                    g = self.kernel_program(kernel, cshape, grid, ranks, 1)
                    path = g.write(os.path.join(self.work, f"check-{kernel}-{gname(grid)}-{threads}.mlir"))
                    st, err, out = self.dist_check(path, ranks, threads)
                    self.row(suite="check", kernel=kernel, impl="dist",
                             shape="x".join(map(str, cshape)), ranks=ranks,
                             grid=gname(grid), threads=threads, status=st,
                             note=f"max relative error {err}")
                    if st != "PASS":
                        self.fail(f"check {kernel} {gname(grid)}", out)
                g = self.kernel_program(kernel, shape, grid, ranks, reps + 1)
                path = g.write(os.path.join(self.work, f"{kernel}-{gname(grid)}-{threads}.mlir"))
                comm, cbytes = self.comm_report(path)
                times, out, other, cst = self.dist_measure(path, ranks, reps,
                                                           threads, check=inline)
                if inline:
                    st = cst
                    if st != "PASS":
                        self.fail(f"check {kernel} {gname(grid)}", out)
                base = dict(suite="kernel", kernel=kernel, impl="dist",
                            shape="x".join(map(str, shape)), ranks=ranks,
                            grid=gname(grid), threads=threads, reps=reps,
                            overlap="n/a", check=st, comm=comm,
                            comm_bytes=cbytes, other_load=f"{other:.2f}")
                if kernel in ("ttv", "innerprod"):
                    base["param"] = "parallelize(ii)" if kernel == "ttv" else ""
                if times is None:
                    self.fail(f"{kernel} grid={gname(grid)}", out)
                    self.row(**base, status="FAIL", note=tail(out))
                    continue
                s = summarize(times)
                nbytes, flops = self.kernel_size(kernel, shape)
                if kernel in ("ttv", "innerprod"):
                    rate, unit = nbytes / s["median_s"] / 1e9, "GB/s"
                else:
                    rate, unit = flops / s["median_s"] / 1e9, "GFLOP/s"
                self.row(**base, **s, **profile(out), rate=f"{rate:.2f}",
                         rate_unit=unit, status="ok")
                log(f"  {kernel:9s} {ranks} rank(s) x {threads} thread(s) "
                    f"{gname(grid):6s} {s['median_s']:.4f} s {rate:.2f} {unit} "
                    f"(check {st}; others used {other:.2f} cores)")

    def kernel_baselines(self):
        log("== Kernel baselines: triad bandwidth, OpenBLAS TTM and MTTKRP")
        reps = self.cfg["reps"]
        threads_needed = sorted({r * t for k in ("ttv", "innerprod", "ttm", "mttkrp")
                                 for r, _, t in self.kernel_configs(k)})
        for t in threads_needed:
            if "triad" in self.exe:
                n = self.cfg["triad_n"]
                times, other = self.baseline(
                    [self.exe["triad"], str(n), str(t), str(reps)],
                    {"OMP_NUM_THREADS": str(t)}, f"triad t={t}", key="triad")
                fresh = [float(m.group(1)) for m in BASE_RE.finditer(self.last_out)
                         if m.group(0).startswith("baseline: time fresh-copy ")]
                if t == 1 and fresh:
                    s = summarize(fresh)
                    self.row(suite="kernel", kernel="fresh-copy", impl="memcpy",
                             shape=str(n), ranks=1, threads=1, reps=reps, **s,
                             rate=f"{8 * n / s['median_s'] / 1e9:.2f}",
                             rate_unit="GB/s", status="ok",
                             other_load=f"{other:.2f}",
                             note="malloc + memcpy of 8n bytes into a new buffer")
                    log(f"  copy into a new buffer: {8 * n / s['median_s'] / 1e9:.2f} GB/s")
                if times:
                    s = summarize(times)
                    self.row(suite="kernel", kernel="triad", impl="triad",
                             shape=str(n), ranks=1, threads=t, reps=reps, **s,
                             rate=f"{24 * n / s['median_s'] / 1e9:.2f}",
                             rate_unit="GB/s", status="ok",
                             other_load=f"{other:.2f}",
                             note="a[i] = b[i] + s*c[i], 24 bytes per element")
                    log(f"  triad {t} thread(s): {24 * n / s['median_s'] / 1e9:.2f} GB/s")
            if "tensor" not in self.exe:
                continue
            for kernel in ("ttm", "mttkrp"):
                if t not in {r * th for r, _, th in self.kernel_configs(kernel)}:
                    continue
                shape = self.cfg[kernel]
                times, other = self.baseline(
                    [self.exe["tensor"], kernel, *map(str, shape), str(t), str(reps)],
                    {"OPENBLAS_NUM_THREADS": str(t), "OMP_NUM_THREADS": str(t)},
                    f"{kernel} blas t={t}")
                if not times:
                    continue
                s = summarize(times)
                _, flops = self.kernel_size(kernel, shape)
                self.row(suite="kernel", kernel=kernel, impl="openblas",
                         shape="x".join(map(str, shape)), ranks=1, threads=t,
                         reps=reps, **s,
                         rate=f"{flops / s['median_s'] / 1e9:.2f}",
                         rate_unit="GFLOP/s", status="ok",
                         other_load=f"{other:.2f}",
                         note="one dgemm" if kernel == "ttm" else
                         "Khatri-Rao product + one dgemm")
                log(f"  {kernel} OpenBLAS {t} thread(s): {s['median_s']:.4f} s")

    # -- compile time -----------------------------------------------------

    def compile_times(self):
        reps = self.cfg["compile_reps"]
        log(f"== Compile time: dist-opt --dist-to-llvm FILE -o /dev/null "
            f"(median of {reps} after a warm-up)")
        files = []
        for d, _, fs in os.walk(EXAMPLES):
            files += [os.path.join(d, f) for f in fs if f.endswith(".mlir")]
        # An empty module first: the fixed cost of starting dist-opt.
        empty = os.path.join(self.work, "empty.mlir")
        with open(empty, "w") as f:
            f.write("module {}\n")
        for path in [empty] + sorted(files):
            rel = "(empty module)" if path == empty else os.path.relpath(path, ROOT)
            times, status, other_max = [], "ok", 0.0
            for r in range(reps + 1):
                rc, out, wall, other = self.runner.run(
                    [self.dist_opt, "--dist-to-llvm", path, "-o", os.devnull],
                    timeout=300)
                if rc != 0:
                    status = "FAIL"
                    self.fail(f"compile {rel}", out)
                    break
                if r > 0:
                    times.append(wall)
                    other_max = max(other_max, other)
            if status != "ok":
                self.row(suite="compile", kernel=os.path.basename(path)[:-5],
                         impl="dist-opt", shape=rel, status="FAIL",
                         note=tail(out))
                continue
            s = summarize(times)
            self.row(suite="compile", kernel=os.path.basename(path)[:-5],
                     impl="dist-opt", shape=rel, reps=reps, **s, status="ok",
                     other_load=f"{other_max:.2f}", note="--dist-to-llvm")
            log(f"  {rel:40s} {s['median_s'] * 1e3:7.1f} ms")

    # -- sparse -------------------------------------------------------------

    def build_sparse_baselines(self):
        """petsc_spmv, tpetra_spmv (both linked with the snapshot's libdistrt
        for the matrix) and triad_mpi."""
        b = os.path.join(HERE, "baselines")
        w = self.work
        lib = os.path.join(os.path.dirname(self.bindir), "lib")
        inc = os.path.join(ROOT, "runtime", "include")
        distrt = [f"-I{inc}", f"-L{lib}", "-ldistrt", f"-Wl,-rpath,{lib}"]
        petsc = bench_sparse2.petsc_flags()
        tpetra = ["-I/usr/include/trilinos", "-ltrilinos_tpetra",
                  "-ltrilinos_kokkoskernels", "-ltrilinos_teuchoscomm",
                  "-ltrilinos_teuchoscore", "-ltrilinos_kokkoscontainers",
                  "-ltrilinos_kokkoscore"]
        steps = [
            ("triad_mpi", ["mpicc", "-O3", "-march=native",
                           f"{b}/triad_mpi.c", "-o", f"{w}/triad_mpi"]),
            ("petsc_spmv", ["mpicc", "-O2", f"{b}/petsc_spmv.c", "-o",
                            f"{w}/petsc_spmv", *distrt, *petsc, "-lm"]),
            ("tpetra_spmv", ["mpicxx", "-O2", "-std=c++17",
                             "-Wno-deprecated-declarations",
                             f"{b}/tpetra_spmv.cpp", "-o", f"{w}/tpetra_spmv",
                             *distrt, *tpetra]),
        ]
        for name, cmd in steps:
            log("  " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c
                                for c in cmd))
            p = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                self.fail(f"building {name}", p.stdout)
            else:
                self.exe[name] = os.path.join(self.work, name)

    def sparse_matrix(self, spec):
        """The baselines' --matrix argument for a configured matrix, or None
        (and why) when its file is not there."""
        kind, _, what = spec.partition(":")
        if kind in ("banded", "rmat", "uniform"):
            return spec, ""
        if kind == "hb":
            path = SPARSE_HB.get(what, what)
            if not os.path.exists(path):
                return None, f"{path} is missing (Debian package scilab-doc)"
            return f"file:{path}", ""
        if kind == "metis":
            graph = os.path.join(METIS_GRAPHS, f"{what}.graph")
            if not os.path.exists(graph):
                return None, f"{graph} is missing (Debian package libmetis-doc)"
            mtx = os.path.join(self.work, f"{what}.mtx")
            if not os.path.exists(mtx):
                p = subprocess.run(
                    [sys.executable, os.path.join(HERE, "sparse", "metis2mtx.py"),
                     graph, mtx], stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True)
                if p.returncode != 0:
                    self.fail(f"converting {graph}", p.stdout)
                    return None, "conversion failed"
                log(f"  {p.stdout.strip()}")
            return f"file:{mtx}", ""
        raise ValueError(spec)

    @staticmethod
    def sparse_entries(arg):
        """About how many entries the matrix of a baselines' --matrix
        argument has (symmetric files counted twice), from the generator's
        parameters or the file's header; None if unknown."""
        kind, _, rest = arg.partition(":")
        try:
            if kind in ("banded", "rmat"):
                n, per_row = rest.split(":")[:2]
                return int(n) * int(per_row)
            if kind != "file":
                return None
            with open(rest, errors="replace") as f:
                if rest.endswith(".mtx"):
                    banner = f.readline().lower()
                    line = banner
                    while line.startswith("%"):
                        line = f.readline()
                    entries = int(line.split()[2])
                    return entries * (2 if "symmetric" in banner else 1)
                # Harwell-Boeing: line 3 is MXTYPE NROW NCOL NNZERO.
                lines = [f.readline() for _ in range(3)]
                fields = lines[2].split()
                return int(fields[3]) * (2 if fields[0][1:2].lower() == "s" else 1)
        except (OSError, ValueError, IndexError):
            return None

    def sparse_reps_for(self, arg):
        """Timed calls for a matrix: cfg sparse_reps, more for a small one
        (about sparse_span_s of SpMV at 4 GB/s), at most sparse_reps_max."""
        lo, hi = self.cfg["sparse_reps"], self.cfg["sparse_reps_max"]
        entries = self.sparse_entries(arg)
        if not entries or not self.cfg["sparse_span_s"]:
            return lo
        per_call = entries * 12 / 4e9
        return max(lo, min(hi, int(math.ceil(self.cfg["sparse_span_s"] / per_call))))

    def sparse_triad(self, ranks):
        """MPI triad bandwidth (GB/s) at this rank count, or None."""
        if "triad_mpi" not in self.exe:
            return None
        n, reps = self.cfg["sparse_triad_n"], self.cfg["sparse_reps"]
        times, other = self.baseline(
            self.mpirun(ranks) + [self.exe["triad_mpi"], str(n), str(reps)],
            {"OMP_NUM_THREADS": "1"}, f"triad-mpi ranks={ranks}",
            key="triad-mpi")
        if not times:
            return None
        s = summarize(times)
        gbs = 24 * n / s["median_s"] / 1e9
        self.row(suite="sparse", kernel="triad", impl="triad-mpi", n=n,
                 shape=str(n), ranks=ranks, grid=str(ranks), threads=1,
                 reps=reps, **s, rate=f"{gbs:.2f}", rate_unit="GB/s",
                 status="ok", other_load=f"{other:.2f}",
                 note="a[i] = b[i] + s*c[i] on each rank's block, 24 bytes "
                      "per element; time = max over ranks")
        log(f"  triad {ranks} rank(s): {gbs:.2f} GB/s")
        return gbs

    @staticmethod
    def sparse_model(rows, cols, nnz, k):
        """(bytes, flops) of one product: CSR with 32-bit column indices,
        as sparse_common.h counts them."""
        return (nnz * 12 + (rows + 1) * 4 + (cols + rows) * 8 * k,
                2 * nnz * k)

    def sparse_rows(self, impl, name, info, out, other, ranks, reps, k,
                    triad, times_of, kernels=("spmv", "spmm")):
        """Rows for the kernels of one run; times_of(kernel) gives the timed
        calls or None."""
        rows_, cols, nnz, lo, hi = info
        for kernel in kernels:
            kk = 1 if kernel == "spmv" else k
            times = times_of(kernel)
            base = dict(suite="sparse", kernel=kernel, impl=impl, n=rows_,
                        shape=name, ranks=ranks, grid=str(ranks), threads=1,
                        param=f"nnz {nnz}" + (f", k {k}" if kernel == "spmm" else ""),
                        reps=reps, other_load=f"{other:.2f}")
            if not times:
                self.fail(f"sparse {impl} {kernel} {name} ranks={ranks}", out)
                self.row(**base, status="FAIL", note=tail(out))
                continue
            s = summarize(times)
            nbytes, flops = self.sparse_model(rows_, cols, nnz, kk)
            gbs = nbytes / s["median_s"] / 1e9
            m = re.search(rf"^baseline: verify {impl}-{kernel} .*: (PASS|FAIL)$",
                          out, re.M)
            check = m.group(1) if m else ""
            if check == "FAIL":
                self.fail(f"verify {impl} {kernel} {name} ranks={ranks}", out)
            m = re.search(rf"^baseline: checksum {impl}-{kernel} .*: sum\(y\) = (\S+)$",
                          out, re.M)
            if impl == "dist-nz":  # runs of ceil(nnz / P) entries
                e = -(-nnz // ranks)
                lo, hi = max(0, nnz - (ranks - 1) * e), e
            note = (f"{gbs:.2f} GB/s (CSR model); entries per rank {lo}..{hi}"
                    + (f"; sum(y) = {m.group(1)}" if m else ""))
            self.row(**base, **s, rate=f"{flops / s['median_s'] / 1e9:.3f}",
                     rate_unit="GFLOP/s", check=check, status="ok",
                     ratio_triad=f"{gbs / triad:.3f}" if triad else "",
                     baseline_ref=f"triad-mpi {ranks} ranks {triad:.2f} GB/s"
                     if triad else "", note=note)
            log(f"  {name:20s} {ranks} rank(s) {impl:6s} {kernel} "
                f"{s['median_s'] * 1e3:9.3f} ms {flops / s['median_s'] / 1e9:6.2f} "
                f"GFLOP/s {gbs:6.2f} GB/s{' ' + check if check else ''} "
                f"(others used {other:.2f} cores)")

    def sparse(self):
        log("== Sparse SpMV and SpMM (k = "
            f"{self.cfg['sparse_k']}) f64: PETSc MatMult / MatMatMult, Tpetra "
            "CrsMatrix::apply, dist (when dist_sparse_cmd gives a program); "
            "rows blocked as dist blocks them; MPI triad bandwidth")
        reps, k = self.cfg["sparse_reps"], self.cfg["sparse_k"]
        env = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        triad = {r: self.sparse_triad(r) for r in self.cfg["ranks"]}
        for name, spec in self.cfg["sparse_matrices"]:
            arg, why = self.sparse_matrix(spec)
            if arg is None:
                log(f"  {name}: skipped ({why})")
                self.row(suite="sparse", kernel="spmv", impl="", shape=name,
                         status="SKIP", note=why)
                continue
            reps = self.sparse_reps_for(arg)
            log(f"  {name}: {reps} timed calls per figure")
            verify = self.cfg["sparse_verify"] == "all" or (
                self.cfg["sparse_verify"] == "files" and arg.startswith("file:"))
            # Several rounds, the implementations taking turns, each keeping
            # its least disturbed round (the lowest median), so that a
            # disturbance lasting a few seconds does not decide the ratio.
            rounds = (self.cfg["sparse_rounds"] if reps > self.cfg["sparse_reps"]
                      else self.cfg["sparse_rounds_big"])
            for ranks in self.cfg["ranks"]:
                first = len(self.rows)
                for _ in range(rounds):
                    self.sparse_round(name, arg, ranks, reps, k, verify, env,
                                      triad.get(ranks))
                if rounds > 1:
                    self.keep_best_rounds(first, rounds)

    def keep_best_rounds(self, first, rounds):
        """Of the rows from index `first` on (`rounds` rounds of one matrix
        and rank count), keeps for each implementation and kernel the round
        with the lowest median (or its first failure)."""
        mine = self.rows[first:]
        del self.rows[first:]
        groups = {}
        for r in mine:
            groups.setdefault((r["impl"], r["kernel"]), []).append(r)
        for (impl, kernel), rs in groups.items():
            bad = [r for r in rs if r["status"] != "ok"]
            if bad:
                self.rows.append(bad[0])
                continue
            best = min(rs, key=lambda r: float(r["median_s"]))
            medians = ", ".join(f"{float(r['median_s']) * 1e3:.3f}" for r in rs)
            best["note"] += (f"; the least disturbed of {rounds} alternating "
                             f"rounds (medians {medians} ms)")
            self.rows.append(best)
            log(f"  {best['shape']:20s} {best['ranks']} rank(s) {impl:6s} "
                f"{kernel} best of {rounds} rounds: "
                f"{float(best['median_s']) * 1e3:9.3f} ms")

    def sparse_round(self, name, arg, ranks, reps, k, verify, env, triad):
        """One round of a matrix at one rank count: PETSc and Tpetra (both
        kernels in one run each), then dist's SpMV and SpMM, rows blocked
        and by non-zeros."""
        info = None
        for lib in ("petsc", "tpetra"):
            exe = self.exe.get(f"{lib}_spmv")
            if not exe:
                continue
            cmd = self.mpirun(ranks) + [
                exe, "--matrix", arg, "--kernel", "spmv,spmm", "--k",
                str(k), "--reps", str(reps), "--seed", "1"]
            if verify:
                cmd.append("--verify")
            rc, out, wall, other = self.run_undisturbed(cmd, env)
            m = SPARSE_MATRIX_RE.search(out)
            if m:
                info = tuple(int(m.group(i)) for i in (2, 3, 4, 5, 6))
                mname = m.group(1)
            else:
                self.fail(f"sparse {lib} {name} ranks={ranks}", out)
                self.row(suite="sparse", kernel="spmv", impl=lib,
                         shape=name, ranks=ranks, status="FAIL",
                         note=tail(out))
                continue

            def times_of(kernel, out=out, lib=lib, rc=rc):
                t = [float(x.group(5)) for x in SPARSE_TIME_RE.finditer(out)
                     if x.group(1) == f"{lib}-{kernel}"]
                return t if rc == 0 and len(t) == reps else None
            self.sparse_rows(lib, mname, info, out, other, ranks, reps,
                             k, triad, times_of)
        if info is None:
            return
        for kernel in ("spmv", "spmm"):
            for nz in (False, True):
                self.sparse_dist(kernel, arg, mname, info, ranks, reps,
                                 k, triad, env, nz)

    def sparse_dist(self, kernel, arg, name, info, ranks, reps, k, triad, env,
                    nonzeros=False):
        """dist's product; impl "dist-nz" with the non-zero partition."""
        cmd = dist_sparse_cmd(self, kernel, arg, ranks, k, reps, info[0],
                              info[1], nonzeros)
        if cmd is None:
            return
        rc, out, wall, other = self.run_undisturbed(cmd, env)
        t = [float(m.group(2)) for m in TIME_RE.finditer(out)]
        if len(t) == reps + 1:
            t = t[1:]  # dist-run --time: the warm-up call first
        else:
            t = [float(x.group(5)) for x in SPARSE_TIME_RE.finditer(out)
                 if x.group(1) == f"dist-{kernel}"]
        ok = rc == 0 and len(t) == reps
        self.sparse_rows("dist-nz" if nonzeros else "dist", name, info, out,
                         other, ranks, reps, k, triad,
                         lambda kern: t if ok else None, kernels=(kernel,))

    # -- ratios -----------------------------------------------------------

    def ratios(self):
        ok = [r for r in self.rows if r["status"] == "ok" and r["median_s"] != ""]

        def med(r):
            return float(r["median_s"])

        for r in ok:
            if r["suite"] != "gemm" or r["impl"] in ("openblas", "pdgemm"):
                continue
            n, ranks, t = r["n"], r["ranks"], med(r)
            refs = []
            ob = [x for x in ok if x["suite"] == "gemm" and x["impl"] == "openblas"
                  and x["n"] == n and x["threads"] == ranks]
            if ob:
                r["ratio_openblas"] = f"{med(ob[0]) / t:.3f}"
                refs.append(f"openblas {ranks}t")
            pd = [x for x in ok if x["suite"] == "gemm" and x["impl"] == "pdgemm"
                  and x["n"] == n and x["ranks"] == ranks]
            if pd:
                best = min(pd, key=med)
                r["ratio_pdgemm_best"] = f"{med(best) / t:.3f}"
                grid = r["grid"]
                if grid.count("x") == 2 and grid.endswith("x1"):
                    grid = grid[:-2]  # a g x h x 1 grid is the g x h grid
                same = [x for x in pd if x["grid"] == grid]
                if same:
                    b = min(same, key=med)
                    r["ratio_pdgemm_grid"] = f"{med(b) / t:.3f}"
                    refs.append(f"pdgemm {b['grid']} {b['param']}")
                refs.append(f"best pdgemm {best['grid']} {best['param']}")
            r["baseline_ref"] = "; ".join(refs)
        for r in ok:
            if r["suite"] != "sparse" or r["impl"] not in ("dist", "dist-nz"):
                continue
            refs = [r["baseline_ref"]] if r["baseline_ref"] else []
            for lib in ("petsc", "tpetra"):
                b = [x for x in ok if x["suite"] == "sparse" and x["impl"] == lib
                     and x["kernel"] == r["kernel"] and x["shape"] == r["shape"]
                     and x["ranks"] == r["ranks"]]
                if b:
                    r[f"ratio_{lib}"] = f"{med(b[0]) / med(r):.3f}"
                    refs.append(f"{lib} {r['ranks']} ranks")
            r["baseline_ref"] = "; ".join(refs)
        for r in ok:
            if r["suite"] != "kernel" or r["impl"] != "dist":
                continue
            t = med(r)
            th = r["ranks"] * r["threads"]
            if r["kernel"] in ("ttv", "innerprod"):
                tr = [x for x in ok if x["kernel"] == "triad" and x["threads"] == th]
                if tr:
                    r["ratio_triad"] = f"{float(r['rate']) / float(tr[0]['rate']):.3f}"
                    r["baseline_ref"] = f"triad {th}t {tr[0]['rate']} GB/s"
            else:
                bl = [x for x in ok if x["kernel"] == r["kernel"]
                      and x["impl"] == "openblas" and x["threads"] == th]
                if bl:
                    r["ratio_blas"] = f"{med(bl[0]) / t:.3f}"
                    r["baseline_ref"] = f"openblas {th}t"


def core_seconds(reps=3):
    """Seconds a fixed single-threaded loop takes pinned to each core (the
    best of `reps` runs), or None without taskset. Virtual machines can give
    cores of different speeds (a vCPU sharing its physical core with another
    guest): a P-rank figure then runs at the slowest core's pace."""
    if not shutil.which("taskset"):
        return None
    code = ("import time\nt = time.perf_counter()\ns = 0\n"
            "for i in range(2000000):\n    s += i * i\n"
            "print(time.perf_counter() - t)")
    out = []
    for core in sorted(os.sched_getaffinity(0)):
        best = None
        for _ in range(reps):
            p = subprocess.run(["taskset", "-c", str(core), sys.executable,
                                "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            try:
                t = float(p.stdout.strip())
            except ValueError:
                return None
            best = t if best is None else min(best, t)
        out.append(round(best, 4))
    return out


def machine_info():
    info = {"nproc": os.cpu_count(), "kernel": platform.release()}
    info["core_seconds"] = core_seconds()
    try:
        with open("/proc/cpuinfo") as f:
            txt = f.read()
        m = re.search(r"^model name\s*:\s*(.*)$", txt, re.M)
        info["cpu"] = m.group(1).strip() if m else "unknown"
        m = re.search(r"^cpu MHz\s*:\s*(.*)$", txt, re.M)
        info["mhz"] = m.group(1).strip() if m else ""
        m = re.search(r"^flags\s*:\s*(.*)$", txt, re.M)
        flags = m.group(1).split() if m else []
        info["simd"] = " ".join(f for f in ("avx2", "fma", "avx512f") if f in flags)
        info["hypervisor"] = "hypervisor" in flags
    except OSError:
        info["cpu"] = "unknown"
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"MemTotal:\s*(\d+) kB", f.read())
        info["mem_gib"] = round(int(m.group(1)) / 2 ** 20, 1)
    except (OSError, AttributeError):
        pass
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for key in ("L2 cache", "L3 cache", "Thread(s) per core",
                    "Core(s) per socket", "Socket(s)"):
            m = re.search(rf"^{re.escape(key)}:\s*(.*)$", out, re.M)
            if m:
                info[key] = m.group(1).strip()
    except OSError:
        pass
    for name, cmd in (("openblas", ["dpkg-query", "-W", "-f=${Version}", "libopenblas0-pthread"]),
                      ("scalapack", ["dpkg-query", "-W", "-f=${Version}", "libscalapack-openmpi-dev"]),
                      ("openmpi", ["dpkg-query", "-W", "-f=${Version}", "openmpi-bin"])):
        try:
            info[name] = subprocess.run(cmd, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True).stdout.strip()
        except OSError:
            pass
    try:
        info["commit"] = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
        info["dirty"] = bool(dirty)
    except OSError:
        pass
    return info


def snapshot_build(build, dest, limit_s=900):
    """Copies dist-opt, dist-translate, dist-run and libdistrt out of the
    build into dest/{bin,lib}, so that a rebuild during the run cannot mix
    versions, and checks the copy on a small program. Waits while the build
    is being written. Returns (bindir, description)."""
    files = {"bin": ["dist-opt", "dist-translate", "dist-run"], "lib": []}
    t0 = time.time()
    while True:
        libs = sorted(f for f in os.listdir(os.path.join(build, "lib"))
                      if f.startswith(("libdistrt.so", "libdist_pdgemm.so"))) if \
            os.path.isdir(os.path.join(build, "lib")) else []
        files["lib"] = libs
        paths = [os.path.join(build, d, f) for d, fs in files.items() for f in fs]
        ready = libs and all(os.path.exists(p) for p in paths)
        newest = max((os.lstat(p).st_mtime for p in paths if os.path.lexists(p)),
                     default=time.time())
        if ready and time.time() - newest > 20:
            shutil.rmtree(dest, ignore_errors=True)
            for d, fs in files.items():
                os.makedirs(os.path.join(dest, d), exist_ok=True)
                for f in fs:
                    src = os.path.join(build, d, f)
                    dst = os.path.join(dest, d, f)
                    if os.path.islink(src):
                        os.symlink(os.readlink(src), dst)
                    else:
                        shutil.copy2(src, dst)
            bindir = os.path.join(dest, "bin")
            # Smoke test: SUMMA on one rank, checked.
            g, _ = gemm_program("summa", 32, (1, 1), 1, 16)
            prog = g.write(os.path.join(dest, "smoke.mlir"))
            p = subprocess.run([os.path.join(bindir, "dist-run"), "-np", "1",
                                "--check", prog], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if p.returncode == 0 and "PASS" in p.stdout:
                when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(newest))
                return bindir, f"{build} as of {when}"
            why = tail(p.stdout)
        else:
            why = "the build is being written"
        if time.time() - t0 > limit_s:
            sys.exit(f"bench.py: no usable dist build in {build} ({why})")
        log(f"  (waiting for a usable build: {why})")
        time.sleep(20)


def wait_for_quiet(limit_s, threshold=0.3, quiet=False):
    """Waits (up to limit_s) until other processes use less than `threshold`
    cores over a 5-second window; returns the last measured load."""
    t0 = time.time()
    while True:
        b0, _ = _cpu_busy()
        time.sleep(5)
        b1, _ = _cpu_busy()
        load = (b1 - b0) / 5
        if load < threshold or time.time() - t0 > limit_s:
            return load
        if not quiet:
            log(f"  (the machine is busy: {load:.2f} cores used by other "
                f"processes; waiting, at most "
                f"{limit_s - (time.time() - t0):.0f} s more)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="small sizes, one repeat after the warm-up: about a minute")
    ap.add_argument("--build", default=os.environ.get("DIST_BUILD", os.path.join(ROOT, "build")),
                    help="the dist build directory (default: build/)")
    ap.add_argument("--work", help="keep generated programs and binaries here "
                    "(default: a temporary directory, removed afterwards)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"),
                    help="where results.csv and meta.json go")
    ap.add_argument("--only", default="check,gemm,kernels,matvec,compile,sparse,sparse2,sparse3,onesided",
                    help="comma-separated subset of check,gemm,kernels,"
                    "matvec,compile,sparse,sparse2,sparse3,onesided (sparse: "
                    "dist, PETSc and Tpetra SpMV / SpMM and an MPI triad; "
                    "sparse2: SDDMM against a single-process OpenMP "
                    "reference; sparse3: SpTTV and SpMTTKRP on a 3-tensor "
                    "against a single-process OpenMP reference; "
                    "onesided: the one-sided product against "
                    "redistribute-then-SUMMA and the Fig. 9 algorithms)")
    ap.add_argument("--wait-quiet", type=float, default=None,
                    help="wait at most this many seconds for other processes "
                    "to go quiet before starting (default 300 full, 0 quick)")
    ap.add_argument("--sizes", help="GEMM sizes instead of the mode's, e.g. 1024,2048")
    ap.add_argument("--reps", type=int, help="timed calls per figure instead of the mode's")
    args = ap.parse_args()

    cfg = dict(QUICK if args.quick else FULL)
    if args.sizes:
        cfg["gemm_sizes"] = [int(v) for v in args.sizes.split(",")]
    if args.reps:
        cfg["reps"] = args.reps
    build = os.path.abspath(args.build)
    work = args.work or tempfile.mkdtemp(prefix="dist-bench.")
    os.makedirs(work, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    only = set(args.only.split(","))

    info = machine_info()
    log(f"dist benchmarks ({cfg['mode']} mode): {info.get('nproc')} CPUs, "
        f"{info.get('cpu')}, {info.get('mem_gib')} GiB; work dir {work}")
    bindir, info["build"] = snapshot_build(build, os.path.join(work, "dist"))
    log(f"  using a copy of {info['build']}")
    wait = args.wait_quiet if args.wait_quiet is not None else (0 if args.quick else 300)
    t_wait = time.time()
    load_before = wait_for_quiet(wait) if wait > 0 else None
    waited = time.time() - t_wait
    if load_before is not None:
        log(f"  other processes use {load_before:.2f} cores at the start")

    start = time.time()
    suite = Suite(cfg, bindir, work, info.get("nproc") or 1)
    try:
        suite.build_baselines()
        if "check" in only and not cfg["inline_check"]:
            suite.gemm_checks()
        if "gemm" in only:
            suite.gemm_openblas()
            suite.gemm_pdgemm()
            suite.gemm_dist()
        if "kernels" in only:
            suite.kernel_baselines()
            suite.kernels()
        if "matvec" in only:
            suite.matvec()
        if "compile" in only:
            suite.compile_times()
        if "sparse" in only:
            suite.build_sparse_baselines()
            suite.sparse()
        if "sparse2" in only:
            bench_sparse2.run(suite, log, summarize)
            bench_sparse2.run_add(suite, log, summarize)
        if "sparse3" in only:
            bench_sparse3.run(suite, log, summarize)
        if "onesided" in only:
            bench_onesided.run(suite, log, summarize)
    finally:
        suite.ratios()
        duration = time.time() - start
        csv_path = os.path.join(args.out, "results.csv")
        import csv
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(suite.rows)
        loads = [float(r["other_load"]) for r in suite.rows if r["other_load"] != ""]
        meta = dict(
            mode=cfg["mode"], config={k: v for k, v in cfg.items()},
            started=time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(start)),
            duration_s=round(duration, 1), machine=info,
            other_load_start=load_before,
            other_load_max=max(loads) if loads else None,
            other_load_mean=statistics.mean(loads) if loads else None,
            failures=suite.failures, argv=sys.argv[1:],
            retries=suite.retries, waited_s=round(waited, 1),
            quiet_wait_s=round(suite.quiet_wait, 1),
        )
        with open(os.path.join(args.out, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1, default=str)
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    log(f"wrote {os.path.relpath(csv_path, ROOT)} ({len(suite.rows)} rows); "
        f"the {cfg['mode']} suite took {duration:.0f} s "
        f"({duration / 60:.1f} min)")
    if suite.failures:
        log(f"{len(suite.failures)} failure(s):")
        for f in suite.failures:
            log(f"  {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
