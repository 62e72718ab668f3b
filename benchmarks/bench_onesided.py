"""The one-sided matrix product suite of bench.py (--only onesided).

n x n x n f64 products (benchmarks/onesided/programs.py) on 2 and 4 ranks:

  mismatched layouts (A by rows, B by columns, C 2-D block-cyclic):
    onesided-auto / -A / -B / -C   one dist.compute, stationary(S)
    redist-summa                   redistribute A and B, SUMMA, redistribute C
  matching layouts (all "xy -> xy"):
    onesided-auto / -C             one dist.compute
    summa, cannon, pumma           DISTAL Fig. 9's 2-D algorithms

Every figure is the median over the timed calls (after one warm-up) of the
time of one call: one "dist: time" line for a single computation, the sum
of the four lines (three redistributions and SUMMA) for redist-summa. The
runtime's profile (DISTRT_PROFILE=calls) gives the words each rank moves
per call ("dist: words call N rank R NAME: W"); the row keeps the maximum
over the ranks, summed over a call's steps, in `comm_bytes` as words, and
the split of its time (the prof_* columns, mean over the ranks): a
one-sided row's prof_gemm_s, its local GEMMs alone, bounds what any
product could gain over redist-summa on this machine (report_onesided.py).
Ratios: `ratio_blas` holds redist-summa time / this time (mismatched) or
best Fig. 9 time / this time (matching).
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "onesided"))
import programs  # noqa: E402

TIME_RE = re.compile(r"^dist: time (.*): ([0-9.eE+-]+) s on (\d+) rank", re.M)
WORDS_RE = re.compile(r"^dist: words call (\d+) rank (\d+) .*: (\d+)$", re.M)
PROF_RE = re.compile(r"^dist: profile call (\d+) rank (\d+) .*: total \S+ "
                     r"compute (\S+) comm (\S+) barrier (\S+) packing (\S+) "
                     r"gemm (\S+)$", re.M)
PROF_KEYS = ("prof_compute_s", "prof_comm_s", "prof_barrier_s", "prof_pack_s",
             "prof_gemm_s")
GRIDS = {1: (1, 1), 2: (2, 1), 4: (2, 2)}


def _per_call(out, steps):
    """Per-call times (each the sum of `steps` consecutive time lines)."""
    t = [float(m.group(2)) for m in TIME_RE.finditer(out)]
    if not t or len(t) % steps:
        return None
    return [sum(t[i:i + steps]) for i in range(0, len(t), steps)]


def _words(out, steps):
    """Median over the timed calls of the largest per-rank words of a call
    (its `steps` profile calls summed), or None without the counter."""
    per = {}
    for m in WORDS_RE.finditer(out):
        call, rank, w = int(m.group(1)), int(m.group(2)), int(m.group(3))
        per.setdefault(call // steps, {}).setdefault(rank, 0)
        per[call // steps][rank] += w
    calls = [max(r.values()) for c, r in sorted(per.items()) if c > 0]
    return int(statistics.median(calls)) if calls else None


def _profile(out, steps):
    """Median over the timed calls of the mean over the ranks of each part
    of a call's time (DISTRT_PROFILE=calls; a call's `steps` computations
    summed), keyed like results.csv's prof_* columns; {} without it.
    prof_gemm_s of a one-sided row is the time its local GEMMs took alone:
    no product that runs those GEMMs can take less."""
    per = {}
    for m in PROF_RE.finditer(out):
        call, rank = int(m.group(1)), int(m.group(2))
        parts = per.setdefault(call // steps, {}).setdefault(
            rank, [0.0] * len(PROF_KEYS))
        for i in range(len(PROF_KEYS)):
            parts[i] += float(m.group(3 + i))
    calls = [[statistics.mean(r[i] for r in ranks.values())
              for i in range(len(PROF_KEYS))]
             for c, ranks in sorted(per.items()) if c > 0]
    if not calls:
        return {}
    return {k: f"{statistics.median(c[i] for c in calls):.6f}"
            for i, k in enumerate(PROF_KEYS)}


def run(suite, log, summarize):
    cfg = suite.cfg
    log("== One-sided matrix product (Slicing) f64: one dist.compute with "
        "stationary(S) vs redistribute-then-SUMMA (mismatched layouts) and "
        "the Fig. 9 algorithms (matching layouts)")
    for n in cfg["onesided_sizes"]:
        reps = cfg["onesided_reps"]
        split = min(cfg["summa_split"], max(1, n // 2))
        for ranks in cfg["onesided_ranks"]:
            grid = GRIDS[ranks]
            jobs = []
            for s in ("auto", "A", "B", "C"):
                jobs.append(("mismatched", f"onesided-{s}", 1, programs.onesided(
                    n, grid, "mismatched", s, reps + 1)))
            jobs.append(("mismatched", "redist-summa", 4, programs.redist_summa(
                n, grid, "mismatched", reps + 1, split)))
            for s in ("auto", "C"):
                jobs.append(("matching", f"onesided-{s}", 1, programs.onesided(
                    n, grid, "matching", s, reps + 1)))
            for alg in ("summa", "cannon", "pumma"):
                jobs.append(("matching", alg, 1, programs.fig9(
                    n, grid, alg, reps + 1, split)))
            rows = {}
            for case, impl, steps, text in jobs:
                path = os.path.join(suite.work,
                                    f"onesided-{case}-{impl}-{n}-{ranks}.mlir")
                with open(path, "w") as f:
                    f.write(text)
                env = {"OPENBLAS_NUM_THREADS": "1", "DISTRT_PROFILE": "calls"}
                cmd = [suite.dist_run, "-np", str(ranks), "--time",
                       "--timeout", str(cfg["timeout"]), "--mpirun-args",
                       "-x DISTRT_PROFILE", path]
                rc, out, _, other = suite.run_undisturbed(cmd, env)
                times = _per_call(out, steps) if rc == 0 else None
                base = dict(suite="onesided", kernel="gemm", impl=impl, n=n,
                            shape=f"{n}x{n}x{n}", ranks=ranks,
                            grid="x".join(map(str, grid)), threads=1,
                            param=case, reps=reps,
                            other_load=f"{other:.2f}")
                if not times or len(times) != reps + 1:
                    suite.fail(f"onesided {case} {impl} n={n} ranks={ranks}",
                               out)
                    suite.row(**base, status="FAIL")
                    continue
                s = summarize(times[1:])
                words = _words(out, steps)
                r = suite.row(**base, **s, **_profile(out, steps),
                              rate=f"{2 * n ** 3 / s['median_s'] / 1e9:.2f}",
                              rate_unit="GFLOP/s", status="ok",
                              comm_bytes="" if words is None else str(words),
                              note="comm_bytes: words per rank per call")
                rows[(case, impl)] = r
                log(f"  n={n:5d} {ranks} rank(s) {case:10s} {impl:14s} "
                    f"{s['median_s']:.4f} s  words/rank "
                    f"{words if words is not None else '?'}  "
                    f"(others used {other:.2f} cores)")
            _ratios(rows)


def _ratios(rows):
    """redist-summa / one-sided (mismatched); best Fig. 9 / one-sided
    (matching), into ratio_blas."""
    ref = rows.get(("mismatched", "redist-summa"))
    fig9 = [rows[("matching", a)] for a in ("summa", "cannon", "pumma")
            if ("matching", a) in rows]
    best = min((float(r["median_s"]) for r in fig9), default=None)
    for (case, impl), r in rows.items():
        if not impl.startswith("onesided"):
            continue
        t = float(r["median_s"])
        if case == "mismatched" and ref:
            r["ratio_blas"] = f"{float(ref['median_s']) / t:.3f}"
            r["baseline_ref"] = "redist-summa"
        elif case == "matching" and best:
            r["ratio_blas"] = f"{best / t:.3f}"
            r["baseline_ref"] = "best Fig. 9"
