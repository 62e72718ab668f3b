#!/usr/bin/env python3
"""Property test of the dist compiler: every schedule the verifier accepts
computes the same values as the unscheduled statement.

For each generated computation (test/proptest/gen.py, a pure function of
the seed and its index):

1. `dist-opt --dist-to-llvm` on the computation alone. A rejection must be
   a located diagnostic (FILE:LINE:COL: error: ...); it is counted under a
   short reason key. A crash (signal, "PLEASE submit a bug report", a stack
   dump), a diagnostic without a location, or a non-zero status without a
   diagnostic is a FAILURE. Accepted computations must pass
   --test-dist-communication-crosscheck (symbolic analysis = enumeration).
2. Accepted computations with the same rank count (and run options) are
   batched into one program with one @main and run under
   `dist-run -np N --check`: every `dist: check` line must PASS, and every
   output, stored with dist.store, must equal an independent reference
   (test/proptest/oracle.py: the statement evaluated in Python from the
   fill values, no compiler code involved; a sparse matrix read from a
   MatrixMarket file is parsed by oracle.py too, while one made by
   dist.generate is defined by the runtime only, so those sparse products
   are checked by --check alone). A compile failure, a runtime
   fatal error, a timeout, a FAIL or a wrong value is a FAILURE. A failing
   batch is rerun one computation at a time so that every failure names one
   program.

A mistake that declares its error (a one-sided one: the header line
"// proptest-expect-error: TEXT") must be rejected with a located
diagnostic containing TEXT; its acceptance or another error is a FAILURE.

Ends with three lines scripts can read, the sparse products among the
computations, the one-sided products (all of them compared with the
independent reference) and all of them:

  proptest: sparse: generated G, accepted A, rejected R (reason: n, ...), executed E, passed P (values vs the independent reference O, by --check only Q), failed F
  proptest: onesided: generated G, accepted A, rejected R (reason: n, ...), executed E, passed P, failed F
  proptest: generated G, accepted A, rejected R (reason: n, ...), executed E, passed P, failed F

preceded by one `proptest: FAIL ...` line per failure naming the seed, the
index and the single-computation program that fails.

  proptest.py --count 300 --seed 7 --jobs 2 --keep /tmp/failing
  proptest.py --files test/proptest/corpus/*.mlir      # regression corpus
"""

import argparse
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import oracle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))

LOCATED = re.compile(r"^(.+?):(\d+):(\d+): error: (.*)$")
ANY_ERROR = re.compile(r"(^|\s|:)error: (.*)$")
CHECK = re.compile(r"^dist: check (.*): max relative error (\S+) \(tolerance (\S+)\) on (\d+) rank\(s\): (PASS|FAIL)")
# Signs that the build tree is being rebuilt under us (a tool missing, a
# runtime library older than the compiler): retried, not blamed on a program.
ENV_PROBLEM = re.compile(r"cannot find (dist-opt|dist-translate|libdistrt)|undefined reference to `distrt_|"
                         r"Permission denied|No such file or directory.*(dist-opt|dist-translate|libdistrt)|"
                         r"error while loading shared libraries")
# Open MPI could not start the job (its session directory, shared memory
# or the launcher's own channels): a fault of the machine at that moment,
# not of the program, which never ran. Retried twice, then reported.
MPI_LAUNCH_PROBLEM = re.compile(r"orte_init failed|ORTE was unable to reliably start|orte_session_dir|"
                                r"PMIX ERROR|shared memory initialization|opal_shmem_base_select failed|"
                                r"unable to open (a|the) (shared memory|backing) file|A call to mkdir was unable to create|"
                                r"ORTE_ERROR_LOG")
CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR", "Assertion",
               "Segmentation fault", "AddressSanitizer", "UndefinedBehaviorSanitizer",
               "Signal: ", "free(): ", "double free", "corrupted size", "malloc(): ")


def reason_key(msg):
    """A short key for a diagnostic: command arguments, quoted names and
    numbers dropped, the first few words kept."""
    m = re.sub(r"^'[\w.]+' op ", "", msg)
    m = m.replace("schedule cannot be lowered:", "lowering:")
    m = m.replace("cannot be lowered:", "lowering:")
    m = re.sub(r"^schedule: ", "", m)
    m = re.sub(r"#dist\.\w+<.*?>+", "", m)
    m = re.sub(r"!dist\.\w+<.*?>+", "", m)
    for _ in range(3):
        m = re.sub(r"\b([a-z_]+)\((?:[^()]|\([^()]*\))*\)", r"\1", m)
    m = re.sub(r"(?<![A-Za-z])'[^'\s]*'|\"[^\"]*\"|@\w+", "", m)
    m = re.sub(r"\(s\)", "", m)
    stop = {"a", "an", "the", "of", "is", "are", "it", "to", "in", "and", "or", "but", "its",
            "be", "on", "by", "for", "with", "at", "as", "so", "that", "this", "which", "has",
            "have", "s", "x", "not", "no"}
    words = [w for w in re.findall(r"[a-z_]+", m.lower()) if w not in stop]
    return "-".join(words[:6]) or "unknown"


class Tools:
    def __init__(self, bindir):
        self.bindir = bindir
        self.opt = os.path.join(bindir, "dist-opt")
        self.run = os.path.join(bindir, "dist-run")


def sh(cmd, cwd=None, timeout=None):
    """Runs cmd; returns (rc, stdout, stderr); rc None on timeout. A tool
    that cannot be started (being rebuilt) is waited for, up to 2 minutes."""
    for attempt in range(25):
        try:
            p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                               errors="replace")
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            return None, out, err
        except OSError as e:
            if attempt == 24:
                return 127, "", "cannot run %s: %s" % (cmd[0], e)
            time.sleep(5)
    return 127, "", "unreachable"


def pipeline_arg(options):
    popts = ["check=1", "timing=1"]
    if "--overlap" in options:
        popts.append("overlap=" + ("true" if options[options.index("--overlap") + 1] == "on" else "false"))
    if "--insert-redistributions" in options:
        popts.append("insert-redistributions=" + ("1" if options[options.index("--insert-redistributions") + 1] == "on" else "0"))
    if "--leaf-fallback" in options:
        popts.append("leaf-fallback=true")
    if "--pipeline-options" in options:
        popts += options[options.index("--pipeline-options") + 1].split()
    return "--dist-to-llvm=" + " ".join(popts)


# --- step 1: verification --------------------------------------------------------

def verify(tools, path, options, timeout=120, sparse=False, expect=""):
    """Returns ('accepted', '') | ('rejected', reason) | ('failure', what).
    A sparse product skips the communication cross-check: its communication
    is the matrix's exchange plan, built at run time, which the test pass
    refuses to analyse (docs/sparse.md). With `expect` (a mistake that
    declares its error: gen.py's one-sided mistakes), the computation must
    be rejected with a located diagnostic containing that substring."""
    rc, out, err = sh([tools.opt, pipeline_arg(options), path, "-o", os.devnull], timeout=timeout)
    text = out + err
    if rc is None:
        return "failure", "dist-opt timed out after %d s" % timeout
    if rc < 0 or any(mk in text for mk in CRASH_MARKS):
        return "failure", "dist-opt crashed (status %s): %s" % (rc, first_line(text, CRASH_MARKS))
    if rc == 0 and expect:
        return "failure", "accepted, but the mistake must be rejected with: " + expect
    if rc == 0 and sparse:
        return "accepted", ""
    if rc == 0:
        # The symbolic communication analysis the lowering used must agree
        # with brute-force enumeration (kinds, roots and peers at every
        # processor and step).
        # `schedule auto`: the schedule dist-auto-schedule chose.
        with open(path) as f:
            auto = ["--dist-auto-schedule"] if "schedule auto" in f.read() else []
        rc, out, err = sh([tools.opt] + auto + ["--test-dist-communication-crosscheck", path, "-o", os.devnull],
                          timeout=timeout)
        if rc != 0:
            return "failure", "communication cross-check: %s" % first_line(
                out + err, ["error: crosscheck", "error:"] + list(CRASH_MARKS))
        return "accepted", ""
    located = []
    unlocated = []
    for line in err.splitlines():
        m = LOCATED.match(line)
        if m and os.path.basename(m.group(1)) == os.path.basename(path):
            located.append(m.group(4))
        elif ANY_ERROR.search(line):
            unlocated.append(line.strip())
    if unlocated and not located:
        return "failure", "diagnostic without a location: " + unlocated[0]
    if not located:
        return "failure", "dist-opt exited %d without an error diagnostic: %s" % (rc, text.strip()[:200])
    if rc != 1:
        return "failure", "dist-opt exited %d (expected 1) on: %s" % (rc, located[0])
    if expect and not any(expect in m for m in located):
        return "failure", "rejected with '%s', expected an error containing '%s'" % (located[0], expect)
    return "rejected", reason_key(located[0])


def expected_error(text):
    """The substring a program's header says its rejection must contain
    (gen.Computation.header: "// proptest-expect-error: ..."), or ""."""
    m = re.search(r"^// proptest-expect-error: (.*)$", text, re.M)
    return m.group(1).strip() if m else ""


def first_line(text, marks, count=1):
    """The first `count` lines that carry one of `marks`, joined."""
    found = []
    for line in text.splitlines():
        if any(mk in line for mk in marks) and line.strip() not in found:
            found.append(line.strip()[:200])
            if len(found) == count:
                break
    if found:
        return "; ".join(found)
    return text.strip().splitlines()[0][:200] if text.strip() else ""


# --- step 2: execution -----------------------------------------------------------

TENSOR_TYPE = re.compile(r"!dist\.tensor<((?:\d+x)*)(f32|f64|i32|i64)\b")


def parse_program(text):
    """The computations of a program, for the oracle: each dist.compute's
    statement and, per bound name, the tensor's shape, element type, fill
    seed and store path. Values passed to a function by a call from @main
    are followed to @main's allocations, fills and stores."""
    aliases = dict(re.findall(r"^(![\w.]+) = (!dist\.tensor<.*)$", text, re.M))

    def shape_of(ty):
        ty = aliases.get(ty.strip(), ty)
        m = TENSOR_TYPE.search(ty)
        if not m:
            return None
        return [int(x) for x in m.group(1).split("x") if x], m.group(2)

    funcs = {}
    for m in re.finditer(r"^func\.func @(\w+)\(([^\n]*?)\)\s*(?:->[^{]*)?\{\n(.*?)^\}", text, re.M | re.S):
        name, sig, body = m.groups()
        f = {"args": re.findall(r"%(\w+)\s*:", sig), "types": {}, "seeds": {}, "stores": {},
             "loads": {}, "computes": [], "calls": []}
        for a, ty in re.findall(r"%(\w+)\s*:\s*(![^,]+?)(?=,\s*%|$)", sig):
            f["types"][a] = shape_of(ty)
        for a, ty in re.findall(r"%(\w+) = dist\.alloc : (.*)$", body, re.M):
            f["types"][a] = shape_of(ty)
        for a, sd in re.findall(r"dist\.fill %(\w+) seed (\d+)", body):
            f["seeds"][a] = int(sd)
        for a, path in re.findall(r'dist\.store %(\w+) to "([^"]+)"', body):
            f["stores"][a] = path
        for a, path in re.findall(r'dist\.load %(\w+) from "([^"]+)"', body):
            f["loads"][a] = path
        for st, bl in re.findall(r'dist\.compute "([^"]*)"\s*\(([^)]*)\)', body):
            binds = {}
            for b in bl.split(","):
                k, v = [x.strip() for x in b.split("=")]
                binds[k] = v.lstrip("%")
            f["computes"].append((st, binds))
        for callee, ops in re.findall(r"func\.call @(\w+)\(([^)]*)\)", body):
            f["calls"].append((callee, [x.strip().lstrip("%") for x in ops.split(",") if x.strip()]))
        funcs[name] = f

    def resolve(fname, val):
        """(function, value) where val was allocated: follows arguments to
        the call in @main."""
        f = funcs[fname]
        if val in f["args"] and fname != "main" and "main" in funcs:
            pos = f["args"].index(val)
            for callee, ops in funcs["main"]["calls"]:
                if callee == fname and pos < len(ops):
                    return "main", ops[pos]
        return fname, val

    comps = []
    for fname, f in funcs.items():
        for st, binds in f["computes"]:
            types, seeds, stores, loads, names = {}, {}, {}, {}, {}
            for k, v in binds.items():
                g, w = resolve(fname, v)
                key = "%s.%s" % (g, w)
                names[k] = key
                ty = funcs[g]["types"].get(w) or f["types"].get(v)
                if ty:
                    types[key] = ty
                if w in funcs[g]["seeds"]:
                    seeds[key] = funcs[g]["seeds"][w]
                if w in funcs[g]["stores"]:
                    stores[key] = funcs[g]["stores"][w]
                if w in funcs[g]["loads"]:
                    loads[key] = funcs[g]["loads"][w]
            comps.append({"stmt": st, "binds": names, "types": types, "seeds": seeds,
                          "stores": stores, "loads": loads})
    return comps


def oracle_judges(comp):
    """Whether the independent reference knows every input: filled by
    dist.fill (documented values) or read from a MatrixMarket file (parsed
    by oracle.py). A matrix made by dist.generate is defined by the runtime
    only: such a computation (a sparse one) is checked by dist-run --check
    alone."""
    st = oracle.Statement(comp["stmt"])
    if comp["binds"][st.lhs.tensor] not in comp["stores"]:
        return False
    return all(v in comp["types"] and (v in comp["seeds"] or
                                       comp["loads"].get(v, "").endswith((".mtx", ".tns")))
               for v in comp["binds"].values())


def oracle_check(comp, cwd):
    """Compares the stored output with the independent reference. Returns
    None when it matches (or cannot be judged: oracle_judges), else a
    description."""
    if not oracle_judges(comp):
        return None
    st = oracle.Statement(comp["stmt"])
    binds = comp["binds"]
    out_val = binds[st.lhs.tensor]
    shapes, values = {}, {}
    elt = None
    for name, val in binds.items():
        shape, e = comp["types"][val]
        elt = elt or e
        shapes[name] = shape
        n = 1
        for x in shape:
            n *= x
        if val in comp["seeds"]:
            values[name] = [oracle.fill_value(comp["seeds"][val], l, e) for l in range(n)]
            continue
        # a sparse tensor read from a FROSTT file, or a sparse matrix from a
        # MatrixMarket file: dense, in Python
        if comp["loads"][val].endswith(".tns"):
            try:
                values[name] = oracle.read_tns(os.path.join(cwd, comp["loads"][val]), shape)
            except (ValueError, IndexError, OSError) as ex:
                return "the oracle cannot read %s: %s" % (comp["loads"][val], ex)
            continue
        try:
            mshape, values[name] = oracle.read_mtx(os.path.join(cwd, comp["loads"][val]))
        except (ValueError, IndexError, OSError) as ex:
            return "the oracle cannot read %s: %s" % (comp["loads"][val], ex)
        if mshape != shape:
            return "%s holds a %s matrix; the tensor is %s" % (comp["loads"][val], mshape, shape)
    path = os.path.join(cwd, comp["stores"][out_val])
    if not os.path.exists(path):
        return "the output file %s was not written" % comp["stores"][out_val]
    try:
        if path.endswith(".mtx"):  # a sparse output (SDDMM), dense here
            fshape, got = oracle.read_mtx(path)
        else:
            felt, fshape, got = oracle.read_dtensor(path)
    except (ValueError, KeyError, IndexError, OSError) as e:
        return "unreadable output: %s" % e
    want = oracle.evaluate(st, shapes, values, elt, values[st.lhs.tensor])
    ok, err, first = oracle.compare(got, want, elt)
    if ok:
        return None
    where = ""
    if first is not None:
        idx, l = [], first
        for n in reversed(shapes[st.lhs.tensor]):
            idx.append(l % n)
            l //= n
        where = " first at %s(%s): got %r, expected %r" % (
            st.lhs.tensor, ",".join(map(str, reversed(idx))), got[first], want[first])
    return "wrong values (independent reference): normwise error %.3g%s" % (err, where)


def run_program(tools, path, ranks, options, ncomps, timeout):
    """Runs one program; returns (ok, failure description, [per-computation
    check ok], stdout+stderr)."""
    cwd = os.path.dirname(path)
    cmd = [tools.run, "-np", str(ranks), "--check", "--timeout", str(timeout)] + options + [os.path.basename(path)]
    launch_retries = 0
    for attempt in range(13):
        rc, out, err = sh(cmd, cwd=cwd, timeout=timeout + 120)
        if rc != 0 and MPI_LAUNCH_PROBLEM.search(err) and launch_retries < 2:
            launch_retries += 1
            time.sleep(5)
            continue
        if not ENV_PROBLEM.search(err) or attempt == 12:
            break
        # the tools are being rebuilt: not the program's fault
        time.sleep(15)
    text = out + "\n" + err
    checks = [m for m in (CHECK.match(l) for l in out.splitlines()) if m]
    comp_checks = [m for m in checks if not m.group(1).startswith("redistribute")]
    if rc is None or rc == 124:
        return False, "timeout: the run did not finish within %d s" % timeout, text
    if any(mk in text for mk in CRASH_MARKS):
        return False, "crash: " + first_line(text, CRASH_MARKS, 2), text
    if "dist-opt failed" in err or "dist-translate failed" in err or "linking with distrt failed" in err:
        return False, "compile failed: " + first_line(err, ("error", "failed")), text
    if "fatal" in text:
        return False, "runtime fatal error: " + first_line(text, ("fatal",)), text
    fails = [m for m in checks if m.group(5) != "PASS"]
    if fails:
        m = fails[0]
        return False, "check FAIL: %s: max relative error %s (tolerance %s)" % (m.group(1), m.group(2), m.group(3)), text
    if rc != 0:
        return False, "dist-run exited %d: %s" % (rc, first_line(text, ("error", "rror"))), text
    if len(comp_checks) != ncomps:
        return False, "expected %d check line(s), got %d" % (ncomps, len(comp_checks)), text
    return True, "", text


def reasons_text(rejected):
    return ", ".join("%s: %d" % kv for kv in sorted(rejected.items(), key=lambda kv: (-kv[1], kv[0])))


class Result:
    def __init__(self):
        self.generated = 0
        self.accepted = 0
        self.rejected = {}
        self.executed = 0
        self.passed = 0
        self.failures = []   # (comp or None, kind, detail, path)
        self.lock = None
        # the sparse products among them (gen.generate_sparse): generated,
        # accepted, executed, passed, passed with values compared with the
        # independent reference, failed; rejection reasons
        self.sp = dict(generated=0, accepted=0, executed=0, passed=0, oracle=0, failed=0)
        self.sp_rejected = {}
        # the one-sided products among them (gen.generate_onesided), all
        # compared with the independent reference; rejection reasons
        self.os = dict(generated=0, accepted=0, executed=0, passed=0, failed=0)
        self.os_rejected = {}

    def summary(self):
        return "proptest: generated %d, accepted %d, rejected %d (%s), executed %d, passed %d, failed %d" % (
            self.generated, self.accepted, sum(self.rejected.values()), reasons_text(self.rejected),
            self.executed, self.passed, len(self.failures))

    def sparse_summary(self):
        sp = self.sp
        return ("proptest: sparse: generated %d, accepted %d, rejected %d (%s), executed %d, "
                "passed %d (values vs the independent reference %d, by --check only %d), failed %d" % (
                    sp["generated"], sp["accepted"], sum(self.sp_rejected.values()),
                    reasons_text(self.sp_rejected), sp["executed"], sp["passed"], sp["oracle"],
                    sp["passed"] - sp["oracle"], sp["failed"]))

    def onesided_summary(self):
        o = self.os
        return ("proptest: onesided: generated %d, accepted %d, rejected %d (%s), executed %d, "
                "passed %d, failed %d" % (
                    o["generated"], o["accepted"], sum(self.os_rejected.values()),
                    reasons_text(self.os_rejected), o["executed"], o["passed"], o["failed"]))


def write_files(files, d):
    """Writes the files a program reads (gen.embed_file) into its run
    directory."""
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def write_single(c, d):
    path = os.path.join(d, c.tag, c.tag + ".mlir")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(c.program_text())
    write_files(c.files, os.path.dirname(path))
    return path


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def run_single(tools, c, work, timeout):
    """Runs one computation alone; returns None or a failure description."""
    d = os.path.join(work, "single", c.tag)
    path = os.path.join(d, c.tag + ".mlir")
    for f in os.listdir(d):
        if f.endswith(".dtensor"):
            os.remove(os.path.join(d, f))
    ok, what, _ = run_program(tools, path, c.ranks, c.run_options(), 1, timeout)
    if not ok:
        return what
    return oracle_check(comp_of(c), d)


def comp_of(c):
    return parse_program(c.program_text())[0]


def run_batch(tools, comps, work, name, timeout):
    """Returns {tag: None | failure description}."""
    d = os.path.join(work, "batch", name)
    fresh_dir(d)
    path = os.path.join(d, name + ".mlir")
    with open(path, "w") as f:
        f.write(gen.batch_text(comps))
    for c in comps:
        write_files(c.files, d)
    ok, what, _ = run_program(tools, path, comps[0].ranks, comps[0].run_options(), len(comps), timeout)
    res = {}
    if ok:
        for c in comps:
            res[c.tag] = oracle_check(comp_of(c), d)
        wrong = [c for c in comps if res[c.tag]]
        # confirm wrong values on the computation alone (the minimal program)
        for c in wrong:
            res[c.tag] = run_single(tools, c, work, timeout)
            if res[c.tag] is None:
                res[c.tag] = "wrong values only inside a batch (passes alone): " + \
                    oracle_check(comp_of(c), d)
        return res
    if len(comps) == 1:
        return {comps[0].tag: what}
    for c in comps:
        res[c.tag] = run_single(tools, c, work, timeout)
    if all(v is None for v in res.values()):
        # every computation passes alone: report the batch on its first one
        res[comps[0].tag] = "fails only inside a batch of %d (%s): %s" % (len(comps), path, what)
    return res


def sanity(tools, work):
    """A tiny program must compile and run, else the tools are broken (a
    rebuild in progress): no point in blaming generated programs."""
    d = os.path.join(work, "sanity")
    fresh_dir(d)
    path = os.path.join(d, "sanity.mlir")
    with open(path, "w") as f:
        f.write("""dist.grid @m [2]
func.func @main() -> i32 {
  %a = dist.alloc : !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>
  %b = dist.alloc : !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>
  dist.fill %b seed 1 : !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>
  dist.compute "A(i) = B(i)" (A = %a, B = %b) schedule [distribute({i}, {io}, {ii}, Grid(2))]
      : !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>, !dist.tensor<4xf64, #dist.layout<@m, "x -> x">>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
""")
    ok, what, text = run_program(tools, path, 2, [], 1, 120)
    return None if ok else what + "\n" + text[-2000:]


def keep_failure(keep, c, what, src_path):
    os.makedirs(keep, exist_ok=True)
    dst = os.path.join(keep, c.tag + ".mlir")
    with open(src_path) as f:
        text = f.read()
    lines = text.splitlines()
    hdr = ["// proptest-failure: " + what.replace("\n", " ")[:400]]
    with open(dst, "w") as f:
        f.write("\n".join(lines[:1] + hdr + lines[1:]) + "\n")
    return dst


def main_generate(a, tools):
    res = Result()
    work = a.work or tempfile.mkdtemp(prefix="dist-proptest-")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    problem = None if a.no_run else sanity(tools, work)
    if problem:
        print("proptest: the tools do not run a trivial program; stopping:\n" + problem)
        print("proptest: generated 0, accepted 0, rejected 0 (), executed 0, passed 0, failed 1")
        return 1

    comps = [gen.generate(a.seed, i) for i in range(a.start, a.start + a.count)]
    res.generated = len(comps)
    paths = {}
    for c in comps:
        fresh_dir(os.path.join(work, "single", c.tag))
        paths[c.tag] = write_single(c, os.path.join(work, "single"))

    # 1. verification, J at a time
    accepted = []
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [(c, ex.submit(verify, tools, paths[c.tag], c.run_options(), sparse=bool(c.sparse),
                              expect=c.expect))
                for c in comps]
        for c, f in futs:
            kind, what = f.result()
            if kind == "accepted":
                accepted.append(c)
            elif kind == "rejected":
                res.rejected[what] = res.rejected.get(what, 0) + 1
                if c.sparse:
                    res.sp_rejected[what] = res.sp_rejected.get(what, 0) + 1
                if c.onesided:
                    res.os_rejected[what] = res.os_rejected.get(what, 0) + 1
            else:
                res.failures.append((c, "verify", what, paths[c.tag]))
    res.accepted = len(accepted)
    t1 = time.time()

    # 2. batched execution, grouped by rank count and run options
    groups = {}
    for c in ([] if a.no_run else accepted):
        groups.setdefault(c.key(), []).append(c)
    batches = []
    for key in sorted(groups, key=lambda k: (k[0], not k[1], k[2], k[3])):
        cs = groups[key]
        size = max(1, a.batch if key[0] <= 4 else max(1, a.batch * 2 // 3))
        for b in range(0, len(cs), size):
            batches.append(cs[b:b + size])
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = []
        for n, b in enumerate(batches):
            name = "b%03d_np%d" % (n, b[0].ranks)
            futs.append((b, ex.submit(run_batch, tools, b, work, name, a.timeout)))
        for b, f in futs:
            out = f.result()
            for c in b:
                res.executed += 1
                if c.sparse:
                    res.sp["executed"] += 1
                if c.onesided:
                    res.os["executed"] += 1
                if out.get(c.tag) is None:
                    res.passed += 1
                    if c.sparse:
                        res.sp["passed"] += 1
                        res.sp["oracle"] += oracle_judges(comp_of(c))
                    if c.onesided:
                        res.os["passed"] += 1
                else:
                    res.failures.append((c, "run", out[c.tag], paths[c.tag]))
    t2 = time.time()

    fail_lines = []
    for c, stage, what, path in sorted(res.failures, key=lambda f: f[0].index):
        shown = path
        if a.keep:
            shown = keep_failure(a.keep, c, what, path)
        opts = " ".join(c.run_options())
        fail_lines.append("proptest: FAIL seed %d index %d (%d rank(s)%s): %s: %s" % (
            c.seed, c.index, c.ranks, ", " + opts if opts else "", " ".join(what.split("\n")), shown))
    for line in fail_lines:
        print(line)
        # also on stderr, which lit shows in full when the test fails (a
        # CI log that keeps only part of FileCheck's input dump still
        # names the failing computations)
        print(line, file=sys.stderr)
    with open(os.path.join(work, "failures.txt"), "w") as f:
        f.write("".join(line + "\n" for line in fail_lines))
    if a.verbose:
        print("proptest: verify %.1f s, run %.1f s (%d batches), work dir %s" % (
            t1 - t0, t2 - t1, len(batches), work), file=sys.stderr)
    res.sp["generated"] = sum(1 for c in comps if c.sparse)
    res.sp["accepted"] = sum(1 for c in accepted if c.sparse)
    res.sp["failed"] = sum(1 for f in res.failures if f[0] is not None and f[0].sparse)
    res.os["generated"] = sum(1 for c in comps if c.onesided)
    res.os["accepted"] = sum(1 for c in accepted if c.onesided)
    res.os["failed"] = sum(1 for f in res.failures if f[0] is not None and f[0].onesided)
    line = res.summary()
    print(res.sparse_summary())
    print(res.onesided_summary())
    print(line)
    if a.summary:
        os.makedirs(os.path.dirname(os.path.abspath(a.summary)), exist_ok=True)
        with open(a.summary, "w") as f:
            f.write(res.sparse_summary() + "\n" + res.onesided_summary() + "\n" + line + "\n")
    if not a.work and not res.failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if res.failures else 0


# --- corpus -----------------------------------------------------------------------

def main_files(a, tools):
    """Runs each given single-computation program (the corpus): it must be
    rejected with a located diagnostic, or compile, pass --check and match
    the independent reference. Files embedded in a program's header
    (gen.embed_file: a MatrixMarket matrix) are written next to it."""
    files = list(a.files or [])
    if a.corpus:
        files += sorted(os.path.join(a.corpus, f) for f in os.listdir(a.corpus) if f.endswith(".mlir"))
    work = a.work or tempfile.mkdtemp(prefix="dist-proptest-corpus-")
    os.makedirs(work, exist_ok=True)
    passed, failed = 0, 0
    for f in files:
        with open(f) as fh:
            text = fh.read()
        m = re.search(r"^// proptest: .*\branks (\d+)", text, re.M)
        if m:
            ranks = int(m.group(1))
        else:
            ranks = 1
            g = re.search(r"dist\.grid @\w+ \[([\d, ]+)\]", text)
            for x in (g.group(1).split(",") if g else []):
                ranks *= int(x)
        m = re.search(r"^// proptest-options: (.*)$", text, re.M)
        options = m.group(1).split() if m else []
        d = os.path.join(work, os.path.splitext(os.path.basename(f))[0])
        fresh_dir(d)
        path = os.path.join(d, os.path.basename(f))
        shutil.copy(f, path)
        write_files(gen.embedded_files(text), d)
        kind, what = verify(tools, path, options, sparse="// proptest-sparse:" in text,
                            expect=expected_error(text))
        if kind == "rejected":
            passed += 1
            print("proptest-corpus: PASS %s (rejected: %s)" % (f, what))
            continue
        if kind == "accepted":
            ok, what, _ = run_program(tools, path, ranks, options, len(parse_program(text)), a.timeout)
            if ok:
                for comp in parse_program(text):
                    what = oracle_check(comp, d)
                    if what:
                        break
        if kind == "accepted" and not what:
            passed += 1
            print("proptest-corpus: PASS %s" % f)
        else:
            failed += 1
            print("proptest-corpus: FAIL %s: %s" % (f, what))
    print("proptest-corpus: %d file(s), %d passed, %d failed" % (len(files), passed, failed))
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


def main_merge(files):
    """Adds up summary lines (one per shard; the sparse line, the one-sided
    line, then the total) into one of each."""
    tot = [0, 0, 0, 0, 0, 0]
    reasons = {}
    sp = Result()
    pat = re.compile(r"proptest: generated (\d+), accepted (\d+), rejected (\d+) \((.*)\), executed (\d+), passed (\d+), failed (\d+)")
    spat = re.compile(r"proptest: sparse: generated (\d+), accepted (\d+), rejected (\d+) \((.*)\), executed (\d+), "
                      r"passed (\d+) \(values vs the independent reference (\d+), by --check only \d+\), failed (\d+)")
    opat = re.compile(r"proptest: onesided: generated (\d+), accepted (\d+), rejected (\d+) \((.*)\), executed (\d+), "
                      r"passed (\d+), failed (\d+)")

    def add_reasons(rs, into):
        for kv in filter(None, rs.split(", ")):
            k, v = kv.rsplit(": ", 1)
            into[k] = into.get(k, 0) + int(v)

    seen = sparse_seen = onesided_seen = 0
    for f in files:
        try:
            with open(f) as fh:
                lines = fh.read().strip().splitlines()
            line = lines[-1]
        except (OSError, IndexError):
            continue
        for other in lines[:-1]:
            m = spat.match(other)
            if m:
                sparse_seen += 1
                g, acc, _, rs, e, p, o, fl = m.groups()
                for k, v in zip(["generated", "accepted", "executed", "passed", "oracle", "failed"],
                                [g, acc, e, p, o, fl]):
                    sp.sp[k] += int(v)
                add_reasons(rs, sp.sp_rejected)
            m = opat.match(other)
            if m:
                onesided_seen += 1
                g, acc, _, rs, e, p, fl = m.groups()
                for k, v in zip(["generated", "accepted", "executed", "passed", "failed"], [g, acc, e, p, fl]):
                    sp.os[k] += int(v)
                add_reasons(rs, sp.os_rejected)
        m = pat.match(line)
        if not m:
            continue
        seen += 1
        g, acc, _, rs, e, p, fl = m.groups()
        for i, v in enumerate([g, acc, e, p, fl]):
            tot[i] += int(v)
        add_reasons(rs, reasons)
    if not seen:
        return 1
    if sparse_seen:
        print(sp.sparse_summary())
    if onesided_seen:
        print(sp.onesided_summary())
    print("proptest: generated %d, accepted %d, rejected %d (%s), executed %d, passed %d, failed %d" % (
        tot[0], tot[1], sum(reasons.values()), reasons_text(reasons), tot[2], tot[3], tot[4]))
    return 0


def mpi_environment():
    """What test/lit.cfg.py sets for every mpirun, when proptest.py runs
    outside lit: local transports, and a private Open MPI session tree made
    in advance (Open MPI 4.1 creates its top level with a racy mkdir, and
    this script starts two mpiruns at a time: 'File exists')."""
    env = os.environ
    env.setdefault("OMPI_MCA_btl", "self,vader,tcp")
    env.setdefault("OMPI_MCA_btl_tcp_if_include", "lo")
    env.setdefault("OMPI_MCA_oob_tcp_if_include", "lo")
    env.setdefault("PMIX_MCA_gds", "hash")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    if "OMPI_MCA_orte_tmpdir_base" not in env:
        import atexit
        import socket
        d = tempfile.mkdtemp(prefix="dist-proptest-ompi-")
        os.makedirs(os.path.join(d, "ompi.%s.%d" % (socket.gethostname().split(".")[0], os.geteuid())),
                    exist_ok=True)
        atexit.register(shutil.rmtree, d, True)
        env["OMPI_MCA_orte_tmpdir_base"] = d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--count", type=int, default=100, help="computations to generate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first index")
    ap.add_argument("--jobs", type=int, default=2, help="processes at a time")
    ap.add_argument("--batch", type=int, default=12, help="computations per program")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per mpirun")
    ap.add_argument("--keep", help="write every failing program (one computation) here")
    ap.add_argument("--work", help="working directory (default: a temporary one, removed)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"), help="dist-opt / dist-run directory")
    ap.add_argument("--summary", help="also write the summary line to this file")
    ap.add_argument("--files", nargs="+", help="run these programs (the corpus) instead of generating")
    ap.add_argument("--corpus", help="run every .mlir in this directory instead of generating")
    ap.add_argument("--merge", nargs="+", help="print one summary line adding up these summary files")
    ap.add_argument("--no-run", action="store_true", help="verify only (step 1)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if a.merge:
        return main_merge(a.merge)
    tools = Tools(os.path.abspath(a.bin))
    mpi_environment()
    if a.files or a.corpus:
        return main_files(a, tools)
    return main_generate(a, tools)


if __name__ == "__main__":
    sys.exit(main())
