#!/usr/bin/env python3
"""The validation sweep of dist-auto-schedule (issue 19, docs/autoschedule.md).

For every shape and rank count it asks the pass for all of its candidate
schedules with their predicted times (`report=`), builds and runs every one
of them (`dist-opt --dist-auto-schedule=pick=K` writes candidate K with
its grid and redistributions, then `dist-run -o` and mpirun, each call
timed by `--time`), and
reports the automatic choice's measured time over the best measured time,
and the Spearman rank correlation between predicted and measured times
over the candidates that ran. A call's time is the computation's and
those of the redistributions put around it (dist-insert-redistributions',
and dist-auto-schedule's onto another grid shape).

  benchmarks/autoschedule/sweep.py [--quick | --medium]
        [--cost-file FILE | --calibrate] [--ranks 1,2,4] [--rounds R]
        [--finalists F] [--final-rounds N] [--no-check] [--check-timeout S]
        [--check-only] [--shapes NAME,...]
        [--out DIR] [--build DIR] [--timeout S] [--jobs N]

--rounds R (default 2): every candidate runs R times, in turn with the
others, and keeps its lowest median. Then the chosen candidate and the
--finalists F (default 3) best measured run --final-rounds N (default 3)
more times in turn, and these fresh measurements (their median) are what
the chosen and the best are compared by, so that the best is not merely
the luckiest of many noisy measurements. Then the automatic choice of a two-call program (one
call for the long shapes) is built with `dist-run --check` and run (--no-check skips it; it stops at
--check-timeout S, default 300). --check-only does only that, for every shape
and rank count, and measures nothing. --medium: the full set's kinds at
sizes between --quick's and the full ones (1024-2048 products, the
tensor kernels at 256, MTTKRP at 128; about half an hour on 1 and 2
ranks).

--calibrate: before each rank count, benchmarks/calibrate measures a cost
file at that count (at 2 for 1 rank: it needs two), and the pass and the
builds read it: 4 ranks oversubscribed on 2 cores have their own alpha.

--quick: small shapes on 2 and 4 ranks (a few minutes). Without it: square,
tall-skinny and small compute-bound products from 256 to 4096, and the four
tensor kernels, on 1, 2 and 4 ranks (hours on 2 cores: the candidates
without a GEMM leaf run scalar loops; each run stops at --timeout and
counts as that long). Writes DIR/results.csv (one row per candidate) and
DIR/summary.md (one row per shape and rank count), DIR defaulting to
benchmarks/results/autoschedule; prints the summary.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import programs  # noqa: E402

REMARK = re.compile(r"remark: schedule auto: (?:chosen|rank (\d+)) of (\d+): "
                    r"predicted ([0-9.eE+-]+) s \(compute ([0-9.eE+-]+), "
                    r"latency ([0-9.eE+-]+), bandwidth ([0-9.eE+-]+), "
                    r"redistribution ([0-9.eE+-]+), hidden [0-9.eE+-]+\): (\[.*\])"
                    r"(?: on @(\S+))?$")
TIME = re.compile(r"^dist: time .*: ([0-9.eE+-]+) s on \d+ rank", re.M)

GRIDS = {1: [1], 2: [2], 4: [2, 2], 8: [2, 2, 2]}
CALLS = 8
# A shape whose chosen candidate is predicted above LONG_CALL seconds a call
# makes LONG_CALLS calls (the first untimed).
LONG_CALL = 0.25
LONG_CALLS = 4


def shapes(quick, medium=False):
    """(name, kernel, extents) in the statement's variable order."""
    if medium:
        return [("gemm-1024", "gemm", [1024, 1024, 1024]),
                ("gemm-ts-2048", "gemm", [2048, 128, 2048]),
                ("gemm-small-256", "gemm", [256, 256, 2048]),
                ("ttv-256", "ttv", [256, 256, 256]),
                ("innerprod-256", "innerprod", [256, 256, 256]),
                ("mttkrp-128", "mttkrp", [128, 32, 128, 128])]
    if quick:
        return [("gemm-256", "gemm", [256, 256, 256]),
                ("gemm-ts", "gemm", [1024, 64, 1024]),
                ("gemm-small", "gemm", [64, 64, 512]),
                ("ttv-64", "ttv", [64, 64, 64]),
                ("mttkrp-32", "mttkrp", [32, 16, 32, 32])]
    out = []
    for n in (256, 1024, 4096):
        out.append(("gemm-%d" % n, "gemm", [n, n, n]))
    out += [("gemm-ts-4096", "gemm", [4096, 256, 4096]),
            ("gemm-ts-8192", "gemm", [8192, 64, 8192]),
            ("gemm-small-64", "gemm", [64, 64, 8192]),
            ("gemm-small-256", "gemm", [256, 256, 2048]),
            ("ttv-256", "ttv", [256, 256, 256]),
            ("innerprod-256", "innerprod", [256, 256, 256]),
            ("ttm-128", "ttm", [128, 128, 128, 64]),
            ("mttkrp-128", "mttkrp", [128, 32, 128, 128])]
    return out


def spearman(xs, ys):
    """Spearman's rank correlation (average ranks for ties), or None."""
    if len(xs) < 3:
        return None

    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2.0
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else None


def candidates(build, path, cost_file):
    """[(rank, predicted, compute, latency, bandwidth, redistribution,
    schedule, grid)], chosen first; grid is "" on the tensors' own grid."""
    opt = "report=100000" + (" cost-file=" + cost_file if cost_file else "")
    p = subprocess.run([os.path.join(build, "bin", "dist-opt"),
                        "--dist-auto-schedule=" + opt, path, "-o", os.devnull],
                       capture_output=True, text=True)
    out = []
    for line in p.stderr.splitlines():
        m = REMARK.search(line)
        if m:
            out.append((int(m.group(1) or 1),) + tuple(float(m.group(i)) for i in range(3, 8))
                       + (m.group(8), m.group(9) or ""))
    if p.returncode != 0 or not out:
        raise RuntimeError("dist-auto-schedule failed on %s: %s" % (path, p.stderr[-400:]))
    return out


def calibrate(build, work, ranks):
    """Runs benchmarks/calibrate on `ranks` ranks; the cost file's path."""
    out = os.path.join(work, "costs-%d.txt" % ranks)
    if not os.path.exists(out):
        subprocess.run([os.path.join(ROOT, "benchmarks", "calibrate", "calibrate"),
                        "-np", str(ranks), "--build", build, "-o", out],
                       check=True, capture_output=True, text=True)
    return out


def pick_one(build, src, k, cost_file, out):
    """Writes `src` with candidate k (1-based) chosen to `out`; "" or why not."""
    opt = "pick=%d" % k + (" cost-file=" + cost_file if cost_file else "")
    p = subprocess.run([os.path.join(build, "bin", "dist-opt"), "--dist-flatten-machines",
                        "--dist-auto-schedule=" + opt, src, "-o", out],
                       capture_output=True, text=True)
    return "" if p.returncode == 0 else "pick failed: " + p.stderr[-300:]


def build_one(build, src, exe, cost_file, timeout):
    cmd = [os.path.join(build, "bin", "dist-run"), "--time", "-o", exe, src]
    if cost_file:
        cmd[1:1] = ["--cost-file", cost_file]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "build timed out"
    return "" if p.returncode == 0 else "build failed: " + p.stderr[-300:]


def run_one(exe, ranks, timeout, calls=CALLS):
    """Median seconds of the calls after the first, or (None, why)."""
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), exe]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    times = [float(t) for t in TIME.findall(p.stdout)]
    if p.returncode != 0 or not times or len(times) % calls:
        return None, "run failed: " + (p.stdout + p.stderr)[-300:]
    # A call is the computation and the redistributions that
    # dist-insert-redistributions put around it, each timed on its own line.
    per = len(times) // calls
    calls = [sum(times[i:i + per]) for i in range(0, len(times), per)]
    return statistics.median(calls[1:]), ""


def check_choice(args, work, name, kernel, extents, ranks, calls=2):
    """Builds the automatic choice of a program of `calls` calls with
    `dist-run --check` and runs it: "ok", or why not."""
    src = os.path.join(work, "%s-%d-check.mlir" % (name, ranks))
    with open(src, "w") as f:
        f.write(programs.program(kernel, GRIDS[ranks], extents, calls, "auto"))
    cmd = [os.path.join(args.build, "bin", "dist-run"), "--check", "-o", src[:-5], src]
    if args.cost_file:
        cmd[1:1] = ["--cost-file", args.cost_file]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return "build failed: " + p.stderr[-200:]
    run = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks), src[:-5]]
    if os.geteuid() == 0:
        run.insert(1, "--allow-run-as-root")
    try:
        p = subprocess.run(run, capture_output=True, text=True, timeout=args.check_timeout)
    except subprocess.TimeoutExpired:
        return "check timed out"
    out = p.stdout + p.stderr
    if p.returncode == 0 and "PASS" in out and "FAIL" not in out:
        return "ok"
    return "check failed: " + out[-200:]


def sweep_one(args, work, name, kernel, extents, ranks, rows):
    grid = GRIDS[ranks]
    src = os.path.join(work, "%s-%d.mlir" % (name, ranks))
    with open(src, "w") as f:
        f.write(programs.program(kernel, grid, extents, CALLS, "auto"))
    cands = candidates(args.build, src, args.cost_file)
    # Long calls (the full sweep's 4096^3 products) make fewer of them, and
    # their check one (its reference runs on one process).
    long_call = cands[0][1] >= LONG_CALL
    chosen_text = cands[0][6] + (" on @" + cands[0][7] if cands[0][7] else "")
    if args.check_only:
        check = check_choice(args, work, name, kernel, extents, ranks, 1 if long_call else 2)
        return {"shape": name, "ranks": ranks, "candidates": len(cands), "ran": 0,
                "check": check, "chosen_s": None, "best_s": None, "ratio": None,
                "spearman": None, "chosen": chosen_text}
    calls = LONG_CALLS if long_call else CALLS
    if calls != CALLS:
        with open(src, "w") as f:
            f.write(programs.program(kernel, grid, extents, calls, "auto"))
    jobs, picked = [], []
    for k, c in enumerate(cands):
        csrc = os.path.join(work, "%s-%d-c%d.mlir" % (name, ranks, k))
        picked.append(pick_one(args.build, src, c[0], args.cost_file, csrc))
        jobs.append((csrc, csrc[:-5]))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(lambda j: j[2] or build_one(args.build, j[0], j[1],
                                                          args.cost_file, 600),
                              [(a, b, why) for (a, b), why in zip(jobs, picked)]))
    # Rounds: every candidate runs once per round, in turn, and keeps its
    # lowest median, so that a disturbance of the machine during one run
    # does not decide the comparison.
    measured = [None] * len(cands)
    notes = list(built)
    for _ in range(args.rounds):
        for i, (exe, why) in enumerate(zip([j[1] for j in jobs], built)):
            if why or notes[i] == "timeout":
                continue
            t, note = run_one(exe, ranks, args.timeout, calls)
            if t is None and note == "timeout":
                t = float(args.timeout)  # counted as that long
            if t is None:
                notes[i] = note
                continue
            notes[i] = note
            measured[i] = t if measured[i] is None else min(measured[i], t)
    # The chosen candidate and the best measured ones run again, in turn,
    # --final-rounds times, and keep only these fresh measurements (their
    # median): with dozens of candidates of nearly equal time, the lowest
    # of the first rounds' noisy measurements is lower than any one of them
    # measured again (the minimum of many draws; a winner's curse), which
    # would count against the choice for noise alone. The chosen and the
    # finalists are then measured alike, after the selection.
    ran = [i for i, m in enumerate(measured) if m is not None and notes[i] != "timeout"]
    finalists = sorted(set([0] if 0 in ran else []) |
                       set(sorted(ran, key=lambda i: measured[i])[:args.finalists]))
    fresh = {i: [] for i in finalists}
    for _ in range(args.final_rounds):
        for i in finalists:
            t, note = run_one(jobs[i][1], ranks, args.timeout, calls)
            if t is not None:
                fresh[i].append(t)
    for i, ts in fresh.items():
        if ts:
            measured[i] = statistics.median(ts)
    for i, i_fresh in fresh.items():
        if i_fresh and not notes[i]:
            notes[i] = "final"  # its time: the median of the fresh rounds
    for (rank, pred, comp, lat, bw, red, sched, grid), t, why in zip(cands, measured, notes):
        rows.append({"shape": name, "kernel": kernel, "extents": "x".join(map(str, extents)),
                     "ranks": ranks, "rank": rank, "predicted_s": pred, "compute_s": comp,
                     "latency_s": lat, "bandwidth_s": bw, "redistribution_s": red,
                     "measured_s": "" if t is None else "%.6g" % t, "note": why,
                     "schedule": sched, "grid": grid})
    ok = [(p[1], m) for p, m in zip(cands, measured) if m is not None]
    # The best of the finalists, measured as the chosen one was (a
    # candidate outside them measured lower only in the first rounds).
    final_ok = [measured[i] for i in finalists if measured[i] is not None]
    best = min(final_ok) if final_ok else (min(m for _, m in ok) if ok else None)
    chosen = measured[0]
    rho = spearman([p for p, _ in ok], [m for _, m in ok])
    check = (check_choice(args, work, name, kernel, extents, ranks, 1 if long_call else 2)
             if args.check else "-")
    return {"shape": name, "ranks": ranks, "candidates": len(cands), "ran": len(ok), "check": check,
            "chosen_s": chosen, "best_s": best,
            "ratio": chosen / best if chosen and best else None, "spearman": rho,
            "chosen": chosen_text}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cost-file", default="")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--ranks", default="")
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "autoschedule"))
    ap.add_argument("--build", default=os.environ.get("DIST_BUILD", os.path.join(ROOT, "build")))
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--medium", action="store_true")
    ap.add_argument("--shapes", default="",
                    help="only these shapes of the set (comma-separated names)")
    ap.add_argument("--no-check", dest="check", action="store_false")
    ap.add_argument("--check-timeout", type=float, default=300.0)
    ap.add_argument("--check-only", action="store_true",
                    help="only build and --check the automatic choice of each shape")
    ap.add_argument("--final-rounds", type=int, default=3)
    ap.add_argument("--finalists", type=int, default=3)
    args = ap.parse_args()
    ranks = [int(r) for r in args.ranks.split(",")] if args.ranks else ([2, 4] if args.quick else [1, 2, 4])
    os.makedirs(args.out, exist_ok=True)
    rows, summary = [], []
    if args.check_only and not args.check:
        ap.error("--check-only and --no-check leave nothing to do")
    if args.calibrate and args.cost_file:
        ap.error("--calibrate writes its own cost files; leave out --cost-file")
    with tempfile.TemporaryDirectory(prefix="dist-autosched-") as work:
        files = {}
        if args.calibrate:
            for r in ranks:
                files[r] = calibrate(args.build, work, max(r, 2))
        chosen = shapes(args.quick, args.medium)
        if args.shapes:
            want = args.shapes.split(",")
            unknown = sorted(set(want) - {n for n, _, _ in chosen})
            if unknown:
                ap.error("no shape %s in this set" % ", ".join(unknown))
            chosen = [s for s in chosen if s[0] in want]
        for name, kernel, extents in chosen:
            for r in ranks:
                if args.calibrate:
                    args.cost_file = files[r]
                s = sweep_one(args, work, name, kernel, extents, r, rows)
                summary.append(s)
                print("%-16s %d rank(s): %3d candidates, %3d ran; chosen %s s, best %s s, "
                      "chosen/best %s, spearman %s, --check %s" % (
                          name, r, s["candidates"], s["ran"], fmt(s["chosen_s"]),
                          fmt(s["best_s"]), fmt(s["ratio"]), fmt(s["spearman"]),
                          s["check"]), flush=True)
                # Written after every shape, so that a stopped sweep keeps
                # what it measured.
                write_results(args, rows, summary, quiet=True)
    write_results(args, rows, summary)


def write_results(args, rows, summary, quiet=False):
    if rows:
        with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    if summary:
        write_summary(args, summary, quiet)


def fmt(x):
    return "-" if x is None else "%.3g" % x


def cost_source(args):
    return "calibrated at each rank count" if args.calibrate else args.cost_file or "defaults"


def write_summary(args, summary, quiet=False):
    ratios = [s["ratio"] for s in summary if s["ratio"] is not None]
    rhos = [s["spearman"] for s in summary if s["spearman"] is not None]
    lines = ["| shape | ranks | candidates | ran | chosen (s) | best (s) | chosen / best "
             "| Spearman | --check |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for s in summary:
        lines.append("| %s | %d | %d | %d | %s | %s | %s | %s | %s |" % (
            s["shape"], s["ranks"], s["candidates"], s["ran"], fmt(s["chosen_s"]),
            fmt(s["best_s"]), fmt(s["ratio"]), fmt(s["spearman"]), s["check"]))
    if ratios:
        within = sum(1 for r in ratios if r <= 1.1)
        lines.append("")
        checked = [s["check"] for s in summary if s["check"] != "-"]
        lines.append("Within 1.1x of the best: %d of %d shapes (%.0f %%); worst %.2fx; "
                     "median Spearman %s; the automatic choice passed --check on %s "
                     "(cost file: %s)." % (
                         within, len(ratios), 100.0 * within / len(ratios), max(ratios),
                         fmt(statistics.median(rhos)) if rhos else "-",
                         "%d of %d" % (checked.count("ok"), len(checked)) if checked
                         else "none run (--no-check)",
                         cost_source(args)))
    if args.check_only:
        checked = [s["check"] for s in summary]
        lines.append("")
        lines.append("--check only: the automatic choice passed on %d of %d (cost file: %s)." % (
            checked.count("ok"), len(checked),
            cost_source(args)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(text)
    if not quiet:
        print(text)


if __name__ == "__main__":
    main()
