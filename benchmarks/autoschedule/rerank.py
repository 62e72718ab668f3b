#!/usr/bin/env python3
"""Re-ranks a sweep's measured candidates under another cost file, without
running them again (docs/autoschedule.md): for each shape and rank count of
RESULTS.csv (sweep.py's), dist-auto-schedule ranks the shape's candidates
under the cost file given for that rank count, each is matched to its
measured row by (schedule, grid), and the new choice's measured time over
the best measured one and the Spearman correlation are printed as the
sweep prints them.

  rerank.py RESULTS.csv --cost-file RANKS=FILE [--cost-file RANKS=FILE ...]

A choice among the sweep's finalists (rows noted "final") is compared by
their final measurements, as the sweep compares them; another choice by
its first rounds' time (a lower bound of what the sweep would report: the
first rounds keep each candidate's lowest median)."""
import argparse
import csv
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402
import sweep  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--cost-file", action="append", default=[],
                    help="RANKS=FILE: the cost file for that rank count")
    ap.add_argument("--build", default=os.path.join(sweep.ROOT, "build"))
    args = ap.parse_args()
    files = {}
    for spec in args.cost_file:
        ranks, _, path = spec.partition("=")
        files[int(ranks)] = path
    rows = {}
    for r in csv.DictReader(open(args.results)):
        if r["measured_s"]:
            rows.setdefault((r["shape"], int(r["ranks"])), []).append(r)
    kinds = {name: (kernel, ext) for name, kernel, ext in
             sweep.shapes(False) + sweep.shapes(False, medium=True)}
    ratios = []
    with tempfile.TemporaryDirectory() as work:
        for (shape, ranks), meas in rows.items():
            if ranks not in files or shape not in kinds:
                print("%s on %d: skipped (no cost file or unknown shape)" % (shape, ranks))
                continue
            kernel, ext = kinds[shape]
            src = os.path.join(work, "%s-%d.mlir" % (shape, ranks))
            with open(src, "w") as f:
                f.write(programs.program(kernel, sweep.GRIDS[ranks], ext))
            cands = sweep.candidates(args.build, src, files[ranks])
            first, final = {}, {}
            for r in meas:
                key = (r["schedule"], r["grid"])
                t = float(r["measured_s"])
                target = final if r["note"] == "final" else first
                target[key] = min(t, target.get(key, t))
            pred, got, chosen = [], [], None
            for c in cands:
                key = (c[6], c[7])
                t = final.get(key, first.get(key))
                if t is None:
                    continue
                pred.append(c[1])
                got.append(first.get(key, t))
                if chosen is None:
                    chosen = (key, t)
            if chosen is None:
                print("%s on %d: no candidate matched" % (shape, ranks))
                continue
            best = min(final.values()) if final else min(got)
            ratio = chosen[1] / best
            ratios.append(ratio)
            rho = sweep.spearman(pred, got)
            print("%-16s %d ranks: %3d matched, chosen %.4g s (%s), best %.4g s: %.2fx, Spearman %s"
                  % (shape, ranks, len(pred), chosen[1],
                     "final" if chosen[0] in final else "first rounds",
                     best, ratio, "%.3f" % rho if rho is not None else "-"))
    if ratios:
        print("within 1.1x: %d of %d; worst %.2fx; median %.2fx"
              % (sum(r <= 1.1 for r in ratios), len(ratios), max(ratios),
                 statistics.median(ratios)))


if __name__ == "__main__":
    main()
