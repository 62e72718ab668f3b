#!/usr/bin/env python3
"""fuzz-smoke: dist-opt must never crash on malformed input.

Runs dist-opt over a deterministic set of mutants of the seed inputs
(mutate.py; fixed seed) plus every regression input in test/fuzz/regressions,
twice each: parse + verify + print only, and through the whole --dist-to-llvm
pipeline. Every run must end with status 0 or 1 (success or a diagnostic):
a signal, a status >= 2, a sanitizer report, an LLVM fatal error or a run
past the time limit is a failure. The inputs go to dist-opt in batches
(-split-input-file), and a failing batch is split again to name the input.

    test/fuzz/smoke.py                              # dist-opt from PATH
    test/fuzz/smoke.py --opt build/bin/dist-opt --count 1000 --seed 7 -v
    test/fuzz/smoke.py --opt build-asan/bin/dist-opt --boundary   # + the sweep

Exit status 0 when nothing crashed; 1 otherwise, after printing each
offending input (kept under --work) and the tail of dist-opt's stderr.
Used by test/Tools/fuzz-smoke.test.
"""

import argparse
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

SEPARATOR = "\n// -----\n"

# What a crash looks like on stderr even when the status is 1 (ASan and UBSan
# exit with 1 by default; an LLVM fatal error may too).
CRASH_MARKERS = (
    "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
    "LLVM ERROR:", "PLEASE submit a bug report", "Stack dump:",
    "Assertion `", "UNREACHABLE executed", "terminate called",
)

MODES = {
    "parse": [],
    "dist-to-llvm": ["--dist-to-llvm"],
}


def sanitizer_env():
    env = dict(os.environ)
    # Make sanitizer reports unmistakable (and never "successful").
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        opts = env.get(var, "")
        env[var] = (opts + ":" if opts else "") + "exitcode=86"
    return env


class Result:
    def __init__(self, status, stderr, seconds, timed_out):
        self.status = status
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out

    def crashed(self):
        if self.timed_out:
            return "timed out"
        if self.status < 0:
            return "killed by signal %d" % -self.status
        if self.status not in (0, 1):
            return "exit status %d" % self.status
        for marker in CRASH_MARKERS:
            if marker in self.stderr:
                return "stderr has '%s'" % marker
        return None


def run_opt(opt, path, mode, timeout, env, split):
    cmd = [opt, path, "-o", os.devnull] + MODES[mode]
    if split:
        cmd.insert(1, "--split-input-file")
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
        return Result(p.returncode, p.stderr.decode("utf-8", "replace"),
                      time.monotonic() - start, False)
    except subprocess.TimeoutExpired as e:
        err = (e.stderr or b"").decode("utf-8", "replace")
        return Result(-9, err, time.monotonic() - start, True)


def write(path, text):
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", default=shutil.which("dist-opt") or "dist-opt",
                    help="dist-opt to test (default: from PATH)")
    ap.add_argument("--root", default=os.path.join(here, "..", ".."),
                    help="source tree with examples/ and test/")
    ap.add_argument("--count", type=int, default=300, help="mutants (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--batch", type=int, default=25, help="inputs per dist-opt run")
    ap.add_argument("--jobs", type=int, default=2, help="dist-opt runs in parallel")
    ap.add_argument("--timeout", type=float, default=30,
                    help="seconds per batch run (default 30)")
    ap.add_argument("--input-timeout", type=float, default=15,
                    help="seconds per input when a failing batch is split (default 15)")
    ap.add_argument("--boundary", action="store_true",
                    help="also run the systematic boundary-value sweep "
                         "(mutate.boundary_mutants: ~9,000 inputs)")
    ap.add_argument("--work", help="directory for the inputs (default: temporary)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="dist-fuzz-smoke.")
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    env = sanitizer_env()

    inputs = mutate.mutants(args.root, args.count, args.seed)
    if args.boundary:
        inputs += mutate.boundary_mutants(args.root)
    for path in sorted(glob.glob(os.path.join(here, "regressions", "*.mlir"))):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            inputs.append(("regression." + os.path.basename(path)[:-5], f.read()))
    for name, text in inputs:
        write(os.path.join(work, name + ".mlir"), text)

    batches = []
    for i in range(0, len(inputs), args.batch):
        chunk = inputs[i:i + args.batch]
        path = os.path.join(work, "batch%03d.mlir" % (i // args.batch))
        write(path, SEPARATOR.join(text for _, text in chunk))
        batches.append((path, chunk))

    start = time.monotonic()
    runs = 0
    failures = []  # (input name, mode, reason, stderr)
    statuses = {0: 0, 1: 0}

    def check_batch(job):
        (path, chunk), mode = job
        res = run_opt(args.opt, path, mode, args.timeout, env, split=True)
        out = [(path, mode, res, 1)]
        if res.crashed():
            # Name the input(s): run each one alone.
            for name, _ in chunk:
                one = os.path.join(work, name + ".mlir")
                out.append((one, mode, run_opt(args.opt, one, mode,
                                               args.input_timeout, env,
                                               split=False), 0))
        return out

    jobs = [(b, m) for b in batches for m in MODES]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for out in pool.map(check_batch, jobs):
            singles = 0
            for path, mode, res, is_batch in out:
                runs += 1
                reason = res.crashed()
                if args.verbose:
                    print("fuzz-smoke: %-12s %s: status %d, %.2fs%s" % (
                        mode, os.path.basename(path), res.status, res.seconds,
                        " FAILURE: " + reason if reason else ""))
                if is_batch:
                    if not reason:
                        statuses[res.status] = statuses.get(res.status, 0) + 1
                elif reason:
                    singles += 1
                    failures.append((path, mode, reason, res.stderr))
            if len(out) > 1 and singles == 0:
                # The batch crashed but no input alone does (state shared
                # between pieces): report the batch itself.
                path, mode, res, _ = out[0]
                failures.append((path, mode, res.crashed() + " (batch only)",
                                 res.stderr))

    secs = time.monotonic() - start
    for path, mode, reason, stderr in failures:
        print("fuzz-smoke: FAILURE (%s) in mode %s on %s" % (reason, mode, path))
        tail = stderr.strip().splitlines()[-25:]
        for line in tail:
            print("    " + line)
        cmd = "%s %s%s" % (args.opt, path, "".join(" " + a for a in MODES[mode]))
        print("  reproduce: " + cmd)
    regressions = sum(1 for n, _ in inputs if n.startswith("regression."))
    print("fuzz-smoke: %d inputs (%d mutants, seed %d, %d regressions%s), %d dist-opt "
          "runs in %.1fs: %d batch runs succeeded, %d ended with a diagnostic, "
          "%d crash(es)" % (len(inputs), args.count, args.seed, regressions,
                            ", %d boundary" % (len(inputs) - args.count - regressions)
                            if args.boundary else "",
                            runs, secs, statuses.get(0, 0),
                            statuses.get(1, 0), len(failures)))
    if not args.work and not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
