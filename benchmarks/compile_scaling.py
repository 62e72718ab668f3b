#!/usr/bin/env python3
"""Compile time and generated-code size against the number of processes.

    benchmarks/compile_scaling.py [--build DIR] [--max-p P] [--csv FILE]
                                  [--check]

For SUMMA, Cannon, PUMMA (2-D grids g x g) and Johnson (3-D grids g x g x g)
on 1024 x 1024 matrices, this compiles the DISTAL example with the grid
replaced, through `dist-opt --dist-to-llvm` and `dist-translate
--dist-to-llvmir`, and prints per algorithm and grid: P, the dist-opt
time, the translate time, and the sizes of the LLVM-dialect text and the
LLVM IR. Nothing in the compiler may grow with P (issue 13): the sizes
should be flat from P = 4 to P = 16,384 and the times flat up to noise.

SUMMA uses 128 steps (split by 8) on every grid; Cannon and PUMMA take one
step per grid column (divide by g), as their schedules prescribe.

With --check (test/Transforms/communication-scaling.test) it also fails
unless, per algorithm, every grid gets the same communication pattern
(dist-report-communication with the numbers left out), every dist-opt run
takes under 2 s, and the LLVM IR size varies by less than 10 %.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GRIDS_2D = [2, 4, 8, 16, 32, 64, 128]
GRIDS_3D = [2, 4, 8, 16, 25]  # 25^3 = 15,625 processes
N = 1024
N3 = 1000  # Johnson: divisible by every 3-D grid above


def program(alg, g):
    src = open(os.path.join(ROOT, "examples", "distal", alg + ".mlir")).read()
    if alg == "johnson":
        src = src.replace("[2, 2, 2]", "[%d, %d, %d]" % (g, g, g))
        src = src.replace("Grid(2, 2, 2)", "Grid(%d, %d, %d)" % (g, g, g))
        return src.replace("64x64", "%dx%d" % (N3, N3))
    src = src.replace("[2, 2]", "[%d, %d]" % (g, g))
    src = src.replace("Grid(2, 2)", "Grid(%d, %d)" % (g, g))
    src = src.replace("64x64", "%dx%d" % (N, N))
    src = src.replace("divide(k, ko, ki, 2)", "divide(k, ko, ki, %d)" % g)
    src = src.replace("split(k, ko, ki, 16)", "split(k, ko, ki, 8)")
    return src


def run(cmd, stdin_path, out_path):
    start = time.perf_counter()
    with open(stdin_path) as fin, open(out_path, "w") as fout:
        r = subprocess.run(cmd, stdin=fin, stdout=fout,
                           stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit("compile_scaling: %s failed:\n%s" % (" ".join(cmd),
                                                    r.stderr[-2000:]))
    return elapsed


def pattern(opt, src):
    """The communication pattern, with step counts and sizes left out."""
    r = subprocess.run([opt, "--dist-report-communication=quiet=1", src,
                        "-o", os.devnull], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in r.stdout.splitlines():
        m = re.search(r"remark: (.*)", line)
        if m:
            lines.append(re.sub(r" \(\d+ steps?, .*\)$", "", m.group(1)))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.environ.get(
        "DIST_BUILD", os.path.join(ROOT, "build")))
    ap.add_argument("--max-p", type=int, default=16384)
    ap.add_argument("--csv", help="also write the table as CSV")
    ap.add_argument("--check", action="store_true",
                    help="fail unless patterns, times and sizes are flat")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "dist-opt")
    translate = os.path.join(args.build, "bin", "dist-translate")
    for tool in (opt, translate):
        if not os.access(tool, os.X_OK):
            sys.exit("compile_scaling: %s not found (build first, or pass "
                     "--build)" % tool)
    rows = []
    print("%-8s %-10s %7s %9s %9s %12s %12s" %
          ("alg", "grid", "P", "opt s", "llvm s", "mlir bytes", "ll bytes"))
    with tempfile.TemporaryDirectory() as tmp:
        for alg in ("summa", "cannon", "pumma", "johnson"):
            grids = GRIDS_3D if alg == "johnson" else GRIDS_2D
            for g in grids:
                dims = 3 if alg == "johnson" else 2
                P = g ** dims
                if P > args.max_p:
                    continue
                src = os.path.join(tmp, "in.mlir")
                with open(src, "w") as f:
                    f.write(program(alg, g))
                lowered = os.path.join(tmp, "out.mlir")
                ll = os.path.join(tmp, "out.ll")
                t_opt = run([opt, "--dist-to-llvm", "-"], src, lowered)
                t_ll = run([translate, "--dist-to-llvmir", "-"], lowered, ll)
                grid = "x".join([str(g)] * dims)
                row = [alg, grid, P, round(t_opt, 3), round(t_ll, 3),
                       os.path.getsize(lowered), os.path.getsize(ll),
                       pattern(opt, src)]
                rows.append(row)
                print("%-8s %-10s %7d %9.3f %9.3f %12d %12d" % tuple(row[:7]))
                sys.stdout.flush()
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["alg", "grid", "P", "opt_s", "llvm_s", "mlir_bytes",
                        "ll_bytes"])
            w.writerows(r[:7] for r in rows)
    # Growth from the smallest to the largest grid, per algorithm.
    failures = []
    for alg in ("summa", "cannon", "pumma", "johnson"):
        r = [x for x in rows if x[0] == alg]
        if len(r) >= 2:
            print("%s: P %d -> %d: LLVM IR size x%.3f, dist-opt time x%.2f" %
                  (alg, r[0][2], r[-1][2], r[-1][6] / r[0][6],
                   r[-1][3] / max(r[0][3], 1e-3)))
        sizes = [x[6] for x in r]
        if sizes and max(sizes) > 1.10 * min(sizes):
            failures.append("%s: LLVM IR size varies from %d to %d bytes" %
                            (alg, min(sizes), max(sizes)))
        for x in r:
            if x[3] >= 2.0:
                failures.append("%s on %s: dist-opt took %.2f s" %
                                (alg, x[1], x[3]))
            if x[7] != r[0][7]:
                failures.append("%s on %s: pattern\n  %s\ndiffers from %s:"
                                "\n  %s" % (alg, x[1], "\n  ".join(x[7]),
                                            r[0][1], "\n  ".join(r[0][7])))
    if r:
        for alg in ("summa", "cannon", "pumma", "johnson"):
            first = [x for x in rows if x[0] == alg]
            if first:
                print("%s pattern: %s" % (alg, " | ".join(first[0][7])))
    if args.check:
        if failures:
            sys.exit("compile_scaling: FAIL\n" + "\n".join(failures))
        print("compile_scaling: OK (patterns, times and sizes flat)")


if __name__ == "__main__":
    main()
