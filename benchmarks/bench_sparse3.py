"""The sparse III kernels' suite of bench.py (--only sparse3): SpTTV and
SpMTTKRP on an order-3 sparse tensor, dist against a single-process
reference.

  TTV     A(i,j) = B(i,j,k) * c(k), A sparse with B's (i,j) pattern
  MTTKRP  A(i,l) = B(i,j,k) * C(j,l) * D(k,l), A dense I x L

B: I x J x K, f64, uniform random (`dist.generate %b uniform(E) seed S`,
distrt_coo_gen_uniform with E * I draws) and power-law in every mode like
FROSTT's tensors (`dist.generate %b rmat(E) seed S`,
distrt_coo_gen_kronecker); the same tensor in dist and the reference
(sptensor_ref --gen), stored as CSF with a dense root and
32-bit positions and coordinates (rows, fibers (i,j), entries):

  ref-ttv, ref-mttkrp
              benchmarks/baselines/sptensor_ref.c: one process, a hand CSF
              loop over OpenMP threads (dynamic chunks of rows), MTTKRP's
              sum over k per fiber vectorized over l with L a compile-time
              constant; PETSc has no such kernels. Run with as many threads
              as dist has ranks, not bound to one core.
  dist        benchmarks/sparse/dist-{ttv,mttkrp}.mlir: B (and TTV's A)
              rows blocked, c / C / D replicated, MTTKRP's A rows blocked.
  dist-nz     the same with B (and TTV's A) split by non-zeros, scheduled
              by positions (SCHED_NZ below).
  dist-ent    B (and TTV's A) stored as for dist-nz, computed on B's
              entries split equally (all three levels fused, SCHED_ENT
              below; the companion made by the warm-up call).

Every figure is the median of the timed calls after one warm-up. Ratio
(`ratio_blas`): the reference at the same thread count / this time, so
above 1 is faster than the reference (issue 15 asks for at least 0.8 on 2
ranks against 2 threads). A dist job that fails (to compile, to run, or to
print its times) is recorded as a FAIL row and a failure; the suite goes
on.
"""
import os
import re

import bench_sparse2
from bench_sparse2 import TIME_RE, _instantiate

REF_RE = {k: re.compile(rf"^baseline: time ref-{k} [^:]*: ([0-9.eE+-]+) s",
                        re.M)
          for k in ("ttv", "mttkrp")}

# Schedules of the two dist variants (P: the rank count). The non-zero one
# is SDDMM's (bench_sparse2.dist_program): the fused (i,j) loop split by
# B's positions. MTTKRP first orders its loops i, j, k, l (B's order, l
# innermost; i and j adjacent for the fuse), in both variants, as
# test/Transforms/sparse-tensor3.mlir does.
SCHED_ROWS = "distribute({{i}}, {{io}}, {{ii}}, Grid({P}))"
SCHED_NZ = ("fuse(i, j, f), pos(f, fp, B), "
            "distribute({{fp}}, {{fo}}, {{fi}}, Grid({P}))")
SCHED_ENT = ("fuse(i, j, f), fuse(f, k, g), pos(g, gp, B), "
             "distribute({{gp}}, {{go}}, {{gi}}, Grid({P}))")
# impl: (stored by fibers, schedule, program name suffix)
VARIANTS = {"dist": (False, SCHED_ROWS, ""),
            "dist-nz": (True, SCHED_NZ, "-nz"),
            "dist-ent": (True, SCHED_ENT, "-ent")}
REORDER = {"ttv": "", "mttkrp": "reorder({i, j, k, l}), "}


def _tensors(cfg):
    """The suite's tensors: (name, generator, I, J, K, E, seed) each."""
    return [(name, gen, *dims, per_row, seed)
            for name, gen, dims, per_row, seed in cfg["sptensors"]]


def _ref(suite, log):
    """sptensor_ref, built once a suite run (None when it did not build)."""
    if "sptensor_ref" not in suite.exe:
        suite.exe["sptensor_ref"] = bench_sparse2._build_ref(
            suite, log, "sptensor_ref")
    return suite.exe["sptensor_ref"]


def dist_program(suite, tensor, kernel, ranks, calls, impl):
    """benchmarks/sparse/dist-KERNEL.mlir for `tensor` on `ranks`
    processes as VARIANTS[impl] stores and schedules it; its path."""
    name, gen, I, J, K, E, seed = tensor
    nonzeros, sched, suffix = VARIANTS[impl]
    vals = {
        "P": str(ranks), "I": str(I), "J": str(J), "K": str(K),
        "GEN": gen, "E": str(E), "SEED": str(seed), "CALLS": str(calls),
        "L": str(suite.cfg["sptensor_l"]),
        "BLAYOUT": '"xyz -> x~"' if nonzeros else '"xyz -> x"',
        "ALAYOUT": '"xy -> x~"' if nonzeros else '"xy -> x"',
        "SCHED": REORDER[kernel] + sched.format(P=ranks),
    }
    return _instantiate(suite, f"dist-{kernel}", vals,
                        f"{name}-{ranks}{suffix}")


def _run_kernel(suite, log, summarize, kernel, tensor):
    cfg = suite.cfg
    name, gen, I, J, K, E, seed = tensor
    L = cfg["sptensor_l"]
    reps = cfg["sptensor_reps"]
    quick = cfg["mode"] == "quick"
    ref = _ref(suite, log)
    impl_ref = f"ref-{kernel}"
    param = (f"{'L ' + str(L) + '; ' if kernel == 'mttkrp' else ''}"
             f"{I}x{J}x{K}, {gen}({E}) seed {seed}")
    refs = {}
    for ranks in cfg["sptensor_ranks"]:
        jobs = []
        if ref:
            jobs.append((impl_ref, [ref, "--kernel", kernel, "--gen", gen,
                                    "--dims",
                                    f"{I},{J},{K}", "--per-row", str(E),
                                    "--seed", str(seed), "--rank", str(L),
                                    "--reps", str(reps)]
                         + (["--verify"] if quick else []), ranks))
        for impl in VARIANTS:
            path = dist_program(suite, tensor, kernel, ranks, reps + 1, impl)
            jobs.append((impl,
                         [suite.dist_run, "-np", str(ranks), "--time",
                          "--timeout", str(cfg["timeout"]), path], ranks))
        for impl, cmd, threads in jobs:
            env = {"OMP_NUM_THREADS": str(threads),
                   "OPENBLAS_NUM_THREADS": "1"}
            if impl == impl_ref:
                # one process, its threads on every core (mpirun would
                # bind it to one)
                cmd = suite.mpirun(1) + ["--bind-to", "none"] + cmd
            rc, out, _, other = suite.run_undisturbed(cmd, env)
            if impl == impl_ref:
                times = [float(t) for t in REF_RE[kernel].findall(out)]
                ok = rc == 0 and len(times) == reps and (
                    not quick or ": PASS" in out)
            else:
                times = [float(m.group(2)) for m in TIME_RE.finditer(out)]
                ok = rc == 0 and len(times) == reps + 1
                times = times[1:]
            nr = 1 if impl == impl_ref else ranks
            base = dict(suite="sparse3", kernel=kernel, impl=impl, n=I,
                        shape=name, ranks=nr, grid=str(nr), threads=threads,
                        param=param, reps=reps, other_load=f"{other:.2f}")
            if not ok:
                suite.fail(f"{kernel} {impl} {name} ranks={nr} "
                           f"threads={threads}", out)
                suite.row(**base, status="FAIL")
                continue
            s = summarize(times)
            r = suite.row(**base, **s, status="ok")
            if impl == impl_ref:
                refs[threads] = float(s["median_s"])
                m = re.search(r"^baseline: checksum [^:]*: (.*)$", out, re.M)
                if m:
                    r["note"] = m.group(1)
                if quick:
                    r["check"] = "PASS"
            elif threads in refs:
                r["ratio_blas"] = f"{refs[threads] / float(s['median_s']):.3f}"
                r["baseline_ref"] = f"{impl_ref} {threads} thread(s)"
            log(f"  {kernel:6s} {impl:10s} {nr} rank(s) {threads} "
                f"thread(s) {float(s['median_s']) * 1e3:9.2f} ms"
                + (f"  ref/dist {r['ratio_blas']}" if r.get("ratio_blas")
                   else "") + f" (others used {other:.2f} cores)")


def run_ttv(suite, log, summarize):
    for t in _tensors(suite.cfg):
        name, gen, I, J, K, E, seed = t
        log(f"== Sparse III: SpTTV A(i,j) = B(i,j,k) * c(k), B {I}x{J}x{K} "
            f"CSF {gen}({E}) seed {seed}, f64: dist (rows, fibers, entries) on P "
            f"ranks against a single-process hand loop with P OpenMP "
            f"threads")
        _run_kernel(suite, log, summarize, "ttv", t)


def run_mttkrp(suite, log, summarize):
    for t in _tensors(suite.cfg):
        name, gen, I, J, K, E, seed = t
        log(f"== Sparse III: SpMTTKRP A(i,l) = B(i,j,k) * C(j,l) * D(k,l), "
            f"L = {suite.cfg['sptensor_l']}, B {I}x{J}x{K} CSF {gen}({E}) "
            f"seed {seed}, f64: dist (rows, fibers, entries) on P ranks against a "
            f"single-process hand loop with P OpenMP threads")
        _run_kernel(suite, log, summarize, "mttkrp", t)


def run(suite, log, summarize):
    run_ttv(suite, log, summarize)
    run_mttkrp(suite, log, summarize)
