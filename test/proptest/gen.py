#!/usr/bin/env python3
"""Random dist programs for the property test (Python 3, stdlib only).

Each computation (one `dist.compute` with its tensors, fills and a store of
its output) is a pure function of (seed, index):

    gen.py --seed 1 --index 17            # one program with a @main
    gen.py --seed 1 --count 20 --func     # the functions only

It picks a machine of 1-8 ranks in 1-3 dimensions, a statement of output
order 0-4 with 1-4 operands (`+`, `-`, `*`, unary minus, constants, summed
indices), an element type (i32, i64, f32, f64), a layout per tensor (DISTAL
strings blocked / cyclic / block-cyclic, replicated `*`, fixed to a face,
the canonical form with several modes per dimension, skews and fixed modes,
the thesis' mode tuples) and a schedule built by simulating the loop nest
(divide, split, reorder, collapse/fuse, distribute with and without a grid,
rotate, communicate at any level, parallelize, substitute gemm / mttkrp /
gemv / dot,
overlap on/off). Most schedules are plausible; about one in eight gets one
deliberate mistake (a rejection is expected, but an accepted one must still
compute the right values).

Integer statements use small integer constants and a bound on |result|
(fill values are in [-8, 8)) so nothing overflows.

About one computation in eight is a sparse product instead (SpMV / SpMM
with a CSR matrix from dist.generate or from a MatrixMarket file written
here and embedded in the program's header; about a third with the matrix
stored and scheduled by SpDISTAL's non-zero partition): see "sparse
products" below.
About one in ten of the others is a one-sided matrix product
(C(i,j) = A(i,k) * B(k,j) with stationary / prefetch / offset, random
layouts): see "one-sided products" below.
"""

import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ELTS = ["f64", "f32", "i32", "i64"]
VARS = "ijklmn"
TENSORS = "ABCDE"
MAX_ITER = 2048          # product of every index variable's extent
MAX_EXTENT = 12


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def wchoice(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


# --- machines -----------------------------------------------------------------

def factorizations(n, d):
    """Ordered factorizations of n into d factors >= 1."""
    if d == 1:
        return [[n]]
    out = []
    for f in range(1, n + 1):
        if n % f == 0:
            for rest in factorizations(n // f, d - 1):
                out.append([f] + rest)
    return out


def gen_grid(rng):
    n = wchoice(rng, [(1, 2), (2, 3), (3, 2), (4, 4), (5, 1), (6, 2), (7, 1), (8, 3)])
    d = wchoice(rng, [(1, 3), (2, 4), (3, 2)])
    return rng.choice(factorizations(n, d))


# --- statements ---------------------------------------------------------------

class Expr:
    def __init__(self, kind, a=None, b=None, access=None, value=None):
        self.kind, self.a, self.b, self.access, self.value = kind, a, b, access, value


PREC = {"+": 1, "-": 1, "*": 2, "neg": 3, "access": 4, "const": 4}


def fmt_const(v, integer):
    if integer or v == int(v):
        return "%d" % int(v)
    return repr(v)


def print_expr(e, rng, integer):
    k = e.kind
    if k == "access":
        name, idx = e.access
        return name + ("(" + ",".join(idx) + ")" if idx else "")
    if k == "const":
        return fmt_const(e.value, integer)
    if k == "neg":
        inner = print_expr(e.a, rng, integer)
        if PREC[e.a.kind] < 3 or e.a.kind == "neg":
            inner = "(" + inner + ")"
        return "-" + inner
    p = PREC[k]
    left = print_expr(e.a, rng, integer)
    right = print_expr(e.b, rng, integer)
    if PREC[e.a.kind] < p or (rng.random() < 0.1 and e.a.kind in "+-*"):
        left = "(" + left + ")"
    if PREC[e.b.kind] < p or (PREC[e.b.kind] == p and k != "+") or \
            (rng.random() < 0.1 and e.b.kind in "+-*"):
        right = "(" + right + ")"
    return left + " " + k + " " + right


class Tensor:
    def __init__(self, name, indices, shape):
        self.name = name
        self.indices = indices      # index variables of its (first) access
        self.shape = shape
        self.layout = None
        self.seed = 0


class Computation:
    def __init__(self, seed, index):
        self.seed = seed
        self.index = index
        self.grid = []
        self.elt = "f64"
        self.stmt = ""
        self.tensors = []           # output first
        self.schedule = []
        self.insert = True          # --insert-redistributions
        self.overlap_opt = ""       # --overlap on|off or "" (default)
        self.leaf_fallback = False  # --leaf-fallback
        self.kernels_on_host = False  # dist-to-llvm test-kernels-on-host
        self.mistake = ""           # the deliberate mistake, if any
        self.extra_type = {}        # name -> type text override (mistakes)
        self.sparse = ""            # "spmv" / "spmm" for sparse products
        self.files = {}             # file name -> text the program reads
        self.onesided = False       # a one-sided product (generate_onesided)
        self.auto = False           # `schedule auto` (dist-auto-schedule)
        self.expect = ""            # a substring the rejection must contain

    @property
    def ranks(self):
        return prod(self.grid)

    @property
    def tag(self):
        return "s%d_i%d" % (self.seed, self.index)

    @property
    def gname(self):
        return "g_" + self.tag

    def full_type(self, t):
        if t.name in self.extra_type:
            return self.extra_type[t.name]
        shape = "x".join(str(n) for n in t.shape)
        return "!dist.tensor<%s%s, #dist.layout<@%s, %s>>" % (
            shape + "x" if shape else "", self.elt, self.gname, t.layout)

    def ttype(self, t):
        """The type alias of tensor t (defined by func_text)."""
        return "!%s_%s" % (self.tag, t.name)

    def run_options(self):
        opts = []
        if not self.insert:
            opts += ["--insert-redistributions", "off"]
        if self.overlap_opt:
            opts += ["--overlap", self.overlap_opt]
        if self.leaf_fallback:
            opts += ["--leaf-fallback"]
        if self.kernels_on_host:
            opts += ["--pipeline-options", "test-kernels-on-host=1"]
        return opts

    def key(self):
        """Computations with one key can share a program (one mpirun)."""
        return (self.ranks, self.insert, self.overlap_opt, self.leaf_fallback,
                self.kernels_on_host)

    def header(self):
        lines = ["// proptest: seed %d index %d ranks %d" % (self.seed, self.index, self.ranks)]
        if self.run_options():
            lines.append("// proptest-options: " + " ".join(self.run_options()))
        if self.mistake:
            lines.append("// proptest-mistake: " + self.mistake)
        if self.onesided:
            lines.insert(1, "// proptest-onesided: " + ", ".join(self.schedule))
        if self.expect:
            lines.append("// proptest-expect-error: " + self.expect)
        for name in sorted(self.files):
            lines += embed_file(name, self.files[name])
        return lines

    def func_text(self):
        """The grid and a function that computes on its arguments (the
        tensors, as in examples/distal)."""
        L = ["dist.grid @%s [%s]" % (self.gname, ", ".join(str(x) for x in self.grid))]
        for t in self.tensors:
            L.append("%s = %s" % (self.ttype(t), self.full_type(t)))
        args = ", ".join("%%%s: %s" % (t.name, self.ttype(t)) for t in self.tensors)
        L.append("func.func @pt_%s(%s) {" % (self.tag, args))
        binds = ", ".join("%s = %%%s" % (t.name, t.name) for t in self.tensors)
        sched = ""
        if self.auto:
            sched = "\n      schedule auto"
        elif self.schedule:
            sched = "\n      schedule [" + ",\n                ".join(self.schedule) + "]"
        L.append('  dist.compute "%s" (%s)%s\n      : %s' % (
            self.stmt, binds, sched, ", ".join(self.ttype(t) for t in self.tensors)))
        L.append("  return")
        L.append("}")
        return "\n".join(L) + "\n"

    # Suffix of the "// computation TAG" line of @main.
    main_label = ""

    def fill_line(self, t, val):
        """The line of @main that fills tensor `t` (value `val`)."""
        return "dist.fill %s seed %d : %s" % (val, t.seed, self.ttype(t))

    def main_block(self):
        """The part of @main that allocates and fills the tensors, calls the
        function and stores the output to out_<tag>.dtensor (relative to
        the run's working directory)."""
        v = lambda t: "%%%s_%s" % (self.tag, t.name)
        L = ["  // computation %s%s" % (self.tag, self.main_label)]
        for t in self.tensors:
            L.append("  %s = dist.alloc : %s" % (v(t), self.ttype(t)))
        for t in self.tensors:
            L.append("  " + self.fill_line(t, v(t)))
        L.append("  func.call @pt_%s(%s) : (%s) -> ()" % (
            self.tag, ", ".join(v(t) for t in self.tensors),
            ", ".join(self.ttype(t) for t in self.tensors)))
        out = self.tensors[0]
        L.append('  dist.store %s to "out_%s.dtensor" : %s' % (v(out), self.tag, self.ttype(out)))
        return "\n".join(L) + "\n"

    def program_text(self):
        return "\n".join(self.header()) + "\n\n" + self.func_text() + "\n" + main_text([self])


def embed_file(name, text):
    """A file the program reads (a MatrixMarket matrix), as header comments:
    the driver writes it next to the program before running it, so a kept
    failing program or a corpus file is self-contained."""
    return ["// proptest-file: " + name] + ["//| " + l for l in text.rstrip("\n").split("\n")]


def embedded_files(text):
    """{name: text} of the files embed_file wrote into a program's header."""
    files, cur = {}, None
    for line in text.splitlines():
        if line.startswith("// proptest-file: "):
            cur = line[len("// proptest-file: "):].strip()
            files[cur] = ""
        elif cur is not None and line.startswith("//| "):
            files[cur] += line[4:] + "\n"
        else:
            cur = None
    return files


def main_text(comps):
    L = ["func.func @main() -> i32 {"]
    for c in comps:
        L.append(c.main_block().rstrip("\n"))
    L += ["  %ok = arith.constant 0 : i32", "  return %ok : i32", "}"]
    return "\n".join(L) + "\n"


def batch_text(comps):
    return "".join(c.func_text() + "\n" for c in comps) + main_text(comps)


def gen_statement(rng, c):
    """Fills c.stmt, c.tensors (with shapes) and returns (free, summed, ext,
    kernel) where kernel is None, 'gemm', 'mttkrp', 'gemv' or 'dot' (a
    statement of that form)."""
    integer = c.elt in ("i32", "i64")
    form = wchoice(rng, [("random", 82), ("gemm", 12), ("mttkrp", 6)])
    # About 1 in 8 random statements becomes a gemv or dot form instead,
    # decided by a stream of its own so that the other programs stay as
    # they were.
    blas12 = random.Random("dist-proptest-blas12:%d:%d" % (c.seed, c.index))
    if form == "random" and blas12.random() < 0.12:
        form = blas12.choice(["gemv", "dot"])
    reused = []
    if form != "random" and integer and rng.random() < 0.8:
        c.elt = rng.choice(["f32", "f64"])
        integer = False
    if form == "gemm":
        # Out(b.., r, s) = In1(.., r, k) * In2(k, s) with random transposes
        # and an optional batch variable on Out and In1.
        batch = rng.random() < 0.25
        r, s, k = "i", "j", "k"
        out = (["l"] if batch else []) + [r, s]
        in1 = [r, k] if rng.random() < 0.75 else [k, r]
        if batch:
            in1 = ["l"] + in1
        in2 = [k, s] if rng.random() < 0.75 else [s, k]
        free = out[:]
        summed = [k]
        accs = [("B", in1), ("C", in2)]
        expr = Expr("*", Expr("access", access=accs[0]), Expr("access", access=accs[1]))
        if rng.random() < 0.12:     # not quite gemm: a constant factor
            expr = Expr("*", Expr("const", value=2), expr)
        ops = accs
        allvars = free + summed
    elif form in ("gemv", "dot"):
        # gemv: Out(.., i) = M(.., i/k .., k/i) * V(.., k); dot: Out(..) =
        # U(.., k) * V(.., k); an optional extra variable l, fixed by the
        # loops around the leaf, in some of the accesses (free when in Out,
        # summed outside the leaf otherwise). Mostly contiguous vectors as
        # substitute needs; sometimes not (the verifier must refuse).
        gemv = form == "gemv"
        k = "k"
        extra = rng.random() < 0.6
        where = set()
        if extra:
            while not where:
                where = {x for x in ("out", "m", "v") if rng.random() < 0.6}

        def place(last, others):
            idx = others[:]
            rng.shuffle(idx)
            if rng.random() < 0.1 and idx:   # not contiguous
                return [last] + idx
            return idx + [last]
        out = place("i", ["l"] if "out" in where else []) if gemv else \
            (["l"] if "out" in where else [])
        ml = ["l"] if "m" in where else []
        if gemv:
            last = "k" if rng.random() < 0.7 else "i"   # "i" last: transposed
            m_idx = place(last, ml + ["i" if last == "k" else "k"])
        else:
            m_idx = place(k, ml)
        v_idx = place(k, ["l"] if "v" in where else [])
        free = out[:]
        summed = [x for x in [k, "l"]
                  if x not in out and (x in m_idx or x in v_idx)]
        ops = [("B", m_idx), ("C", v_idx)]
        if rng.random() < 0.5:
            ops.reverse()
        expr = Expr("*", Expr("access", access=ops[0]), Expr("access", access=ops[1]))
        allvars = free + summed
    elif form == "mttkrp":
        free, summed = ["i", "l"], ["j", "k"]
        ops = [("B", ["i", "j", "k"]), ("C", ["j", "l"]), ("D", ["k", "l"])]
        expr = Expr("*", Expr("*", Expr("access", access=ops[0]), Expr("access", access=ops[1])),
                    Expr("access", access=ops[2]))
        out = free[:]
        allvars = free + summed
    else:
        order = wchoice(rng, [(0, 2), (1, 3), (2, 5), (3, 2), (4, 1)])
        nsum = wchoice(rng, [(0, 4), (1, 5), (2, 2), (3, 1)])
        nsum = min(nsum, 6 - order)
        if order == 0 and nsum == 0 and (prod(c.grid) > 1 or rng.random() < 0.5):
            nsum = 1
        pool = list(VARS)
        rng.shuffle(pool)
        free = sorted(pool[:order], key=VARS.index) if rng.random() < 0.6 else pool[:order]
        summed = pool[order:order + nsum]
        allvars = free + summed
        nops = wchoice(rng, [(1, 3), (2, 5), (3, 3), (4, 2)])
        if not allvars:
            nops = min(nops, 2)
        ops = []
        for n in range(nops):
            rank = min(len(allvars), wchoice(rng, [(0, 1), (1, 3), (2, 4), (3, 2), (4, 1)]))
            ops.append([TENSORS[1 + n], rng.sample(allvars, rank)])
        # every summed variable is used; most free variables are too
        for v in summed + [f for f in free if rng.random() < 0.9]:
            if not any(v in o[1] for o in ops):
                cand = [o for o in ops if len(o[1]) < 4]
                if not cand:
                    cand = ops
                o = rng.choice(cand)
                if len(o[1]) >= 4:
                    o[1][rng.randrange(4)] = v
                else:
                    o[1].insert(rng.randrange(len(o[1]) + 1), v)
        for v in summed:           # a replacement may have dropped one
            if not any(v in o[1] for o in ops):
                summed = [s for s in summed if any(s in o[1] for o in ops)]
                break
        allvars = free + summed
        ops = [(n, idx) for n, idx in ops]
        # reuse an input under another access sometimes (same name twice)
        leaves = [Expr("access", access=o) for o in ops]
        if rng.random() < 0.015 and ops and ops[0][1]:
            n0, idx0 = ops[0]
            perm = idx0[:]
            rng.shuffle(perm)
            leaves.append(Expr("access", access=(n0, perm)))
            reused.append(perm)
        for _ in range(wchoice(rng, [(0, 6), (1, 3), (2, 1)])):
            if integer:
                val = rng.choice([1, 2, 3])
            else:
                val = rng.choice([0.5, 1.5, 2, 3, 0.25])
            leaves.append(Expr("const", value=val))
        for i, lf in enumerate(leaves):
            if rng.random() < 0.1:
                leaves[i] = Expr("neg", lf)
        rng.shuffle(leaves)
        while len(leaves) > 1:
            a = leaves.pop(rng.randrange(len(leaves)))
            b = leaves.pop(rng.randrange(len(leaves)))
            op = wchoice(rng, [("*", 5), ("+", 3), ("-", 2)])
            e = Expr(op, a, b)
            if rng.random() < 0.08:
                e = Expr("neg", e)
            leaves.append(e)
        expr = leaves[0]
        out = free[:]

    # extents: some divisible by the grid's extents, bounded iteration space
    ext = {}
    for v in allvars:
        if rng.random() < 0.35:
            p = rng.choice(c.grid)
            m = rng.randint(1, max(1, MAX_EXTENT // p))
            ext[v] = p * m
        else:
            ext[v] = rng.randint(1, MAX_EXTENT)
    for e in reused:                # one tensor, one shape: equal extents
        for v in e:
            ext[v] = ext[e[0]]
    while prod(ext.values()) > MAX_ITER:
        v = max(ext, key=lambda x: ext[x])
        ext[v] = max(1, ext[v] * 2 // 3)

    acc = rng.random() < 0.2
    lhs = "A" + ("(" + ",".join(out) + ")" if out else "")
    stmt = lhs + (" += " if acc else " = ") + print_expr(expr, rng, integer)
    c.stmt = stmt
    A = Tensor("A", out, [ext[v] for v in out])
    c.tensors = [A]
    for n, idx in ops:
        if not any(t.name == n for t in c.tensors):
            c.tensors.append(Tensor(n, idx, [ext[v] for v in idx]))
    # integer overflow guard: shrink extents of summed variables until safe
    if integer:
        limit = 2 ** 30 if c.elt == "i32" else 2 ** 60
        for _ in range(50):
            st = oracle.Statement(stmt)
            shapes = {t.name: t.shape for t in c.tensors}
            if oracle.bound(st, shapes) < limit:
                break
            v = max(summed, key=lambda x: ext[x]) if summed else max(ext, key=lambda x: ext[x])
            ext[v] = max(1, ext[v] // 2)
            for t in c.tensors:
                t.shape = [ext[x] for x in t.indices]
    kernel = None if form == "random" else form
    # the verifier's loop order: the output's variables, then the summed ones
    # in order of first appearance
    st = oracle.Statement(stmt)
    return st.free, st.summed, ext, kernel


# --- layouts ------------------------------------------------------------------

DIM_LETTERS = "xyzw"


def kind_suffix(rng, spelled_blocked):
    k = wchoice(rng, [("blocked", 6), ("cyclic", 2), ("bc", 2)])
    if k == "blocked":
        return " blocked" if spelled_blocked else ""
    if k == "cyclic":
        return " cyclic"
    return " block_cyclic(%d)" % rng.randint(1, 4)


def gen_layout(rng, rank, grid, mistakes):
    d = len(grid)
    style = wchoice(rng, [("distal", 35), ("canonical", 35), ("thesis", 10),
                          ("replicated", 10), ("face", 10)])
    if style in ("distal", "face", "replicated"):
        left = DIM_LETTERS[:rank]
        right = []
        free = list(left)
        rng.shuffle(free)
        for m in range(d):
            if style == "replicated":
                right.append("*")
                continue
            r = rng.random()
            if free and r < 0.65:
                right.append(free.pop())
            elif style == "face" and r < 0.9 or r < 0.1:
                right.append(str(rng.randrange(grid[m])))
            else:
                right.append("*")
        if style == "face" and not any(x.isdigit() for x in right):
            m = rng.randrange(d)
            right[m] = str(rng.randrange(grid[m]))
        if len(right) > 1 and rng.random() < 0.1 and right[-1] == "*":
            right = right[:-1]      # machine dimensions beyond those written
        if mistakes and rng.random() < 0.3:
            m = rng.randrange(d)
            right[m] = str(grid[m])  # coordinate outside the extent
            mistakes.append("layout-coordinate-out-of-range")
        s = '"%s -> %s"' % (left, "".join(right))
        if rank and any(x.isalpha() for x in right):
            s += kind_suffix(rng, False)
        return s
    if style == "thesis" and rank:
        modes = list(range(d))
        rng.shuffle(modes)
        tuples = [[] for _ in range(rank)]
        for m in modes:
            if rng.random() < 0.7:
                tuples[rng.randrange(rank)].append(m)
        body = ",".join("(" + ",".join(str(m) for m in t) + ")" for t in tuples)
        unused = [m for m in range(d) if not any(m in t for t in tuples)]
        if unused and rng.random() < 0.4:
            e = rng.sample(unused, rng.randint(1, len(unused)))
            if rng.random() < 0.5:
                return '"[%s; (%s), 0]"' % (body, ",".join(str(m) for m in e))
            return '"[%s]|(%s)"' % (body, ",".join(str(m) for m in e))
        return '"[%s]"' % body
    # canonical form
    modes = list(range(d))
    rng.shuffle(modes)
    tuples = [[] for _ in range(rank)]
    fixed = []
    for m in modes:
        r = rng.random()
        if rank and r < 0.65:
            tuples[rng.randrange(rank)].append(m)
        elif r < 0.8:
            fixed.append((m, rng.randrange(grid[m])))
    owner = {m: i for i, t in enumerate(tuples) for m in t}
    skews = [[] for _ in range(rank)]
    skewed = set()
    for i in rng.sample(range(rank), rank):
        if not tuples[i] or rng.random() > 0.3:
            continue
        # a skew mode must not partition this dimension nor a skewed one,
        # and no skewed dimension may already be skewed by this one's modes
        if any(owner.get(s) == i for j in skewed for s in skews[j]):
            continue
        cand = [m for m in range(d) if owner.get(m) != i and owner.get(m) not in skewed]
        if not cand:
            continue
        skews[i] = rng.sample(cand, rng.randint(1, min(2, len(cand))))
        skewed.add(i)
    if mistakes and rng.random() < 0.3 and rank >= 1 and d >= 1:
        tuples[0] = tuples[0] + [tuples[0][0] if tuples[0] else 0] * 2   # mode twice
        mistakes.append("layout-mode-twice")
    dims = []
    for i in range(rank):
        if not tuples[i]:
            dims.append("()")
            continue
        s = "(" + ", ".join(str(m) for m in tuples[i]) + ")" + kind_suffix(rng, True)
        if skews[i]:
            s += " skew(" + ", ".join(str(m) for m in skews[i]) + ")"
        dims.append(s)
    s = "[" + ", ".join(dims) + "]"
    if fixed:
        s += " | (" + ", ".join("%d = %d" % f for f in fixed) + ")"
    return s


# --- schedules ----------------------------------------------------------------

class Loop:
    def __init__(self, name, extent, origin):
        self.name = name
        self.extent = extent
        self.origin = set(origin)   # statement variables it derives from
        self.dist = False
        self.leaf = False
        self.rotated = False


class Nest:
    """The loop nest the verifier would build, enough to write plausible
    commands (names, extents, positions, distribution)."""

    def __init__(self, vars_, ext):
        self.loops = [Loop(v, ext[v], [v]) for v in vars_]
        self.defined = set(vars_)
        self.cmds = []

    def names(self):
        return [l.name for l in self.loops]

    def pos(self, name):
        return self.names().index(name)

    def get(self, name):
        return self.loops[self.pos(name)]

    def fresh(self, base):
        n = base
        k = 2
        while n in self.defined:
            n = "%s%d" % (base, k)
            k += 1
        self.defined.add(n)
        return n

    def _two(self, v, parts_outer, inner_ext, o=None, i=None):
        l = self.get(v)
        o = o or self.fresh(v + "o")
        i = i or self.fresh(v + "i")
        lo, li = Loop(o, parts_outer, l.origin), Loop(i, inner_ext, l.origin)
        p = self.pos(v)
        self.loops[p:p + 1] = [lo, li]
        return o, i

    def divide(self, v, parts):
        n = self.get(v).extent
        b = -(-n // parts)
        o, i = self._two(v, parts, b)
        self.cmds.append("divide(%s, %s, %s, %d)" % (v, o, i, parts))
        return o, i

    def split(self, v, chunk):
        n = self.get(v).extent
        o, i = self._two(v, -(-n // chunk), chunk)
        self.cmds.append("split(%s, %s, %s, %d)" % (v, o, i, chunk))
        return o, i

    def reorder(self, order, emit=True):
        positions = sorted(self.pos(n) for n in order)
        loops = [self.get(n) for n in order]
        for p, l in zip(positions, loops):
            self.loops[p] = l
        if emit:
            self.cmds.append("reorder({%s})" % ", ".join(order))

    def collapse(self, a, b, word="collapse"):
        la, lb = self.get(a), self.get(b)
        f = self.fresh("f")
        nl = Loop(f, la.extent * lb.extent, la.origin | lb.origin)
        nl.dist = False
        p = self.pos(a)
        self.loops[p:p + 2] = [nl]
        self.cmds.append("%s(%s, %s, %s)" % (word, a, b, f))
        return f

    def rotate(self, t, by):
        l = self.get(t)
        r = self.fresh(t + "r")
        nl = Loop(r, l.extent, l.origin)
        nl.rotated = True
        self.loops[self.pos(t)] = nl
        self.cmds.append("rotate(%s, {%s}, %s)" % (t, ", ".join(by), r))
        return r

    def local(self):
        return [l for l in self.loops if not l.dist and not l.leaf]

    def distributed(self):
        return [l for l in self.loops if l.dist]


def gen_schedule(rng, c, free, summed, ext, kernel, mistakes):
    grid = c.grid
    d = len(grid)
    N = prod(grid)
    vars_ = free + summed
    nest = Nest(vars_, ext)
    tensors = [t.name for t in c.tensors]

    # 1. distribution
    dist_names = []
    want_dist = N > 1 or rng.random() < 0.5
    if want_dist and nest.loops:
        recipe = wchoice(rng, [("compound", 50), ("manual", 40), ("none", 2)])
        if recipe == "compound" and len(nest.loops) >= d:
            r = rng.random()
            if r < 0.55:
                # the outermost loops, as DISTAL's algorithms do
                targets = nest.names()[:d]
                if rng.random() < 0.3:
                    rng.shuffle(targets)
            else:
                targets = rng.sample(nest.names(), d)
                if r < 0.95:
                    # bring them outermost first (else: a rejection)
                    order = targets + [n for n in nest.names() if n not in targets]
                    if order != nest.names():
                        nest.reorder(order)
            outs, ins = [], []
            for v, p in zip(targets, grid):
                o, i = nest._two(v, p, -(-nest.get(v).extent // p))
                outs.append(o)
                ins.append(i)
            nest.reorder(outs + ins, emit=False)
            for o in outs:
                nest.get(o).dist = True
            if rng.random() < 0.5:
                g = "@" + c.gname
            else:
                g = "Grid(%s)" % ", ".join(str(p) for p in grid)
            nest.cmds.append("distribute({%s}, {%s}, {%s}, %s)" % (
                ", ".join(targets), ", ".join(outs), ", ".join(ins), g))
            dist_names = outs
        elif recipe != "none":
            # one outer loop per grid dimension: divide, split or collapse
            for p in grid:
                cand = [l for l in nest.loops if not l.dist and l.name not in dist_names]
                if not cand:
                    break
                style = wchoice(rng, [("divide", 5), ("split", 2), ("collapse", 2), ("as-is", 1)])
                if style == "as-is":
                    same = [l for l in cand if l.extent == p]
                    if same:
                        dist_names.append(rng.choice(same).name)
                        continue
                    style = "divide"
                if style == "collapse" and len(cand) >= 2 and p > 1:
                    fs = [f for f in range(1, p + 1) if p % f == 0]
                    f1 = rng.choice(fs)
                    f2 = p // f1
                    a, b = rng.sample(cand, 2)
                    ao, _ = nest.divide(a.name, f1)
                    bo, _ = nest.divide(b.name, f2)
                    # make bo directly follow ao
                    order = [l.name for l in nest.loops if l.name != bo]
                    order.insert(order.index(ao) + 1, bo)
                    if order != nest.names():
                        nest.reorder(order)
                    word = "fuse" if rng.random() < 0.3 else "collapse"
                    dist_names.append(nest.collapse(ao, bo, word))
                    continue
                l = rng.choice(cand)
                if style == "split":
                    chunk = -(-l.extent // p)
                    if -(-l.extent // chunk) == p:
                        o, _ = nest.split(l.name, chunk)
                        dist_names.append(o)
                        continue
                o, _ = nest.divide(l.name, p)
                dist_names.append(o)
            rest = [n for n in nest.names() if n not in dist_names]
            order = dist_names + rest
            if order != nest.names():
                nest.reorder(order)
            for n in dist_names:
                nest.get(n).dist = True
            if rng.random() < 0.5:
                nest.cmds.append("distribute({%s})" % ", ".join(dist_names))
            else:
                for n in dist_names:
                    nest.cmds.append("distribute(%s)" % n)

    # 2. local loop shaping
    for _ in range(wchoice(rng, [(0, 4), (1, 4), (2, 2), (3, 1)])):
        loc = nest.local()
        if not loc:
            break
        op = wchoice(rng, [("split", 3), ("divide", 3), ("reorder", 3), ("collapse", 1)])
        l = rng.choice(loc)
        if op == "split":
            nest.split(l.name, rng.randint(1, max(1, l.extent)))
        elif op == "divide":
            nest.divide(l.name, rng.randint(1, max(1, l.extent)))
        elif op == "reorder" and len(loc) >= 2:
            sub = rng.sample([x.name for x in loc], rng.randint(2, len(loc)))
            nest.reorder(sub)
        elif op == "collapse":
            p = nest.pos(l.name)
            if p + 1 < len(nest.loops) and not nest.loops[p + 1].dist:
                nest.collapse(l.name, nest.loops[p + 1].name,
                              "fuse" if rng.random() < 0.3 else "collapse")

    # 3. rotate a time loop by distributed loops
    dl = nest.distributed()
    if dl and rng.random() < 0.3:
        loc = nest.local()
        if loc:
            pref = [l for l in loc if l.origin & set(summed)]
            t = rng.choice(pref if pref and rng.random() < 0.7 else loc)
            by = rng.sample([l.name for l in dl], rng.randint(1, len(dl)))
            nest.rotate(t.name, by)

    later = []
    # 4. leaf kernel
    if kernel and rng.random() < 0.8:
        if kernel == "gemm":
            st = oracle.Statement(c.stmt)
            a1, a2 = st.accesses[0].indices, st.accesses[1].indices
            k = summed[0]
            out_idx = c.tensors[0].indices
            row = [v for v in a1 if v in out_idx and v not in a2][-1]
            col = [v for v in a2 if v in out_idx and v not in a1][-1]
            kvars = [row, col, k]
        elif kernel == "gemv":
            kvars = ["i", "k"]
        elif kernel == "dot":
            kvars = ["k"]
        else:
            kvars = ["i", "j", "k", "l"]
        leaf = []
        for v in kvars:
            ls = [l for l in nest.loops if l.origin == {v} and not l.dist and not l.rotated]
            if ls:
                leaf.append(ls[-1].name)
        if len(leaf) == len(kvars):
            if kernel == "gemm" and rng.random() < 0.5:
                rng.shuffle(leaf)
            others = [n for n in nest.names() if n not in leaf]
            if others + leaf != nest.names():
                nest.reorder(others + leaf)
            for n in leaf:
                nest.get(n).leaf = True
            later.append("substitute({%s}, %s)" % (", ".join(leaf), kernel))

    # 5. communicate at any level
    groups = {}
    candidates = [l.name for l in nest.loops if not l.leaf]
    for t in tensors:
        if candidates and rng.random() < 0.6:
            groups.setdefault(rng.choice(candidates), []).append(t)
    comm_at = {}
    for v, ts in groups.items():
        if len(ts) > 1 and rng.random() < 0.3:
            for t in ts:
                later.append("communicate(%s, %s)" % (t, v))
        else:
            later.append("communicate(%s, %s)" % (ts[0] if len(ts) == 1 else "{" + ", ".join(ts) + "}", v))
        for t in ts:
            comm_at[t] = v

    # 6. parallelize a local loop over output variables only; every tensor is
    # then communicated outside it (the default point is the innermost loop)
    if rng.random() < 0.2:
        cand = []
        for l in nest.local():
            if l.origin & set(summed):
                continue
            p = nest.pos(l.name)
            if any(x.leaf for x in nest.loops[p + 1:]):
                continue
            cand.append(l.name)
        if cand:
            v = rng.choice(cand)
            p = nest.pos(v)
            outside = nest.names()[:p]
            inner = set(nest.names()[p:])
            if outside:
                later = [x for x in later if not (x.startswith("communicate") and
                                                  x.rsplit(", ", 1)[1].rstrip(")") in inner)]
                moved = [t for t in tensors if comm_at.get(t) not in outside]
                at = rng.choice(outside)
                later.append("communicate(%s, %s)" % (
                    moved[0] if len(moved) == 1 else "{" + ", ".join(moved) + "}", at))
                later.append("parallelize(%s)" % v)

    rng.shuffle(later)
    # a substitute first, then communicates (any order is legal)
    later.sort(key=lambda s: 0 if s.startswith("substitute") and rng.random() < 0.5 else 1)
    cmds = nest.cmds + later

    # 7. overlap on/off anywhere
    if rng.random() < 0.3:
        cmds.insert(rng.randint(0, len(cmds)), "overlap(%s)" % rng.choice(["on", "off"]))

    # 8. one deliberate mistake
    if mistakes is not None and rng.random() < 0.6:
        cmds = mistake(rng, c, nest, cmds, tensors, mistakes)
    return cmds


def mistake(rng, c, nest, cmds, tensors, mistakes):
    names = nest.names()
    dl = [l.name for l in nest.distributed()]
    loc = [l.name for l in nest.local()]
    options = ["unknown-var", "reused-name", "zero-factor", "grid-rank", "overlap-twice",
               "comm-unknown-tensor", "comm-consumed", "unknown-command", "no-distribution",
               "not-outermost", "collapse-not-adjacent", "substitute-not-kernel",
               "grid-extent"]
    if dl:
        options += ["parallelize-distributed"]
    if loc:
        options += ["rotate-by-local"]
    kind = rng.choice(options)
    mistakes.append(kind)
    v = rng.choice(names) if names else "i"
    if kind == "unknown-var":
        cmds.insert(rng.randint(0, len(cmds)), "split(q, qo, qi, 2)")
    elif kind == "reused-name":
        cmds.append("split(%s, %s, %si, 2)" % (v, v, v))
    elif kind == "zero-factor":
        cmds.append("%s(%s, %sx, %sy, %d)" % (rng.choice(["split", "divide"]), v, v, v, rng.choice([0, -1])))
    elif kind == "grid-rank":
        g = c.grid + [1]
        cmds.insert(0, "distribute({%s}, {%s}, {%s}, Grid(%s))" % (
            ", ".join(["i"] * len(g)), ", ".join("x%d" % k for k in range(len(g))),
            ", ".join("y%d" % k for k in range(len(g))), ", ".join(map(str, g))))
    elif kind == "overlap-twice":
        cmds += ["overlap(on)", "overlap(off)"]
    elif kind == "comm-unknown-tensor":
        cmds.append("communicate(Z, %s)" % v)
    elif kind == "comm-consumed":
        cmds.insert(0, "communicate(%s, %s)" % (rng.choice(tensors), v))
        cmds.append("split(%s, %sa, %sb, 2)" % (v, v, v))
    elif kind == "unknown-command":
        cmds.append("tile(%s, 2)" % v)
    elif kind == "no-distribution":
        cmds = [x for x in cmds if not x.startswith("distribute")]
    elif kind == "not-outermost":
        if loc and dl:
            cmds.append("reorder({%s, %s})" % (loc[-1], dl[0]))
        else:
            cmds.append("reorder({%s})" % ", ".join(reversed(names)))
    elif kind == "collapse-not-adjacent":
        if len(names) >= 3:
            cmds.append("collapse(%s, %s, fz)" % (names[0], names[2]))
        else:
            cmds.append("collapse(%s, %s, fz)" % (v, v))
    elif kind == "substitute-not-kernel":
        cmds.append("substitute({%s}, %s)" % (", ".join(names[-3:]), rng.choice(["gemm", "mttkrp", "syrk"])))
    elif kind == "grid-extent":
        # the machine's extents in another order, or all on dimension 0
        g = list(reversed(c.grid)) if len(set(c.grid)) > 1 else [prod(c.grid)] + [1] * (len(c.grid) - 1)
        if g == c.grid:
            g = c.grid + [1]
        comp = [k for k, x in enumerate(cmds) if x.startswith("distribute({") and x.count("{") == 3]
        if comp:
            k = comp[0]
            cmds[k] = cmds[k][:cmds[k].rindex("}, ") + 3] + "Grid(%s))" % ", ".join(map(str, g))
        else:
            cmds.append("distribute({%s}, {gz}, {gy}, Grid(%d))" % (v, prod(c.grid) + 1))
    elif kind == "parallelize-distributed":
        cmds.append("parallelize(%s)" % rng.choice(dl))
    elif kind == "rotate-by-local":
        cmds.append("rotate(%s, {%s}, rz)" % (rng.choice(loc), rng.choice(loc)))
    return cmds


# --- sparse products --------------------------------------------------------------
#
# About one computation in eight (SPARSE_FRACTION, decided by a random stream
# of its own so that every other (seed, index) gives the same dense program
# as before) is a sparse product: SpMV Y(r) = B(r,c) * X(c) or SpMM
# Y(r,k) = B(r,c) * X(c,k) with B a CSR matrix whose rows are blocked over a
# 1-D grid of 1-4 ranks (docs/sparse.md). B is made by dist.generate
# (banded, rmat, uniform) or read by dist.load from a MatrixMarket file the
# generator writes (general or symmetric, real, integer or pattern,
# coordinate or array; empty rows, sometimes no entry at all), embedded in
# the program's header (embed_file). About one in four carries a mistake
# the sparse verifier must reject with a located diagnostic.
#
# How the values are checked: dist.generate's matrices are defined by the
# runtime only, so the independent reference (oracle.py) cannot know them;
# for those, the values are checked by dist-run --check alone (its
# reference is the runtime's evaluator on B gathered dense, not the
# lowering). For matrices read from a file, oracle.py parses the file itself
# and evaluates the statement densely, as for every dense computation.

SPARSE_FRACTION = 0.12
# Dense computations (without a deliberate mistake) scheduled `schedule auto`.
AUTO_FRACTION = 0.1
# Weight (against 17) of each of "2 * ", "0.5 * " and "-" in front of a
# product the generator counts as valid. 0: the verifier refuses them
# (the "scaled-product" mistake checks that), since the leaf multiplies the
# two operands only; it once accepted them and dropped the constant and the
# sign (found by this generator: seed 1 indices 16, 19, 135, 194, 494, 673,
# 674, 726, 735). Set it to 1 if the lowering learns to scale the product.
SPARSE_SCALED = 0

CSR_MAP = "(i, j) -> (i : dense, j : compressed)"
OTHER_MAPS = {"csc": "(i, j) -> (j : dense, i : compressed)",
              "dcsr": "(i, j) -> (i : compressed, j : compressed)",
              "coo": "(i, j) -> (i : compressed(nonunique), j : singleton)"}


def encoding_text(rng, map_):
    parts = ["map = " + map_]
    for w in ("posWidth", "crdWidth"):
        x = wchoice(rng, [(None, 3), (0, 1), (32, 3), (64, 2)])
        if x is not None:
            parts.append("%s = %d" % (w, x))
    return "#sparse_tensor.encoding<{%s}>" % ", ".join(parts)


def gen_mtx(rng, rows, cols):
    """A MatrixMarket file of a rows x cols matrix (independent of dist)."""
    symmetric = rows == cols and rng.random() < 0.2
    field = wchoice(rng, [("real", 7), ("integer", 2), ("pattern", 1)])
    array = not symmetric and field != "pattern" and rng.random() < 0.06
    p_empty = wchoice(rng, [(0.0, 2), (0.2, 5), (0.5, 2), (1.0, 1)])
    per_row = rng.randint(1, 6)
    full = rng.randrange(rows) if rng.random() < 0.3 else -1
    entries = {}

    def value():
        if field == "integer":
            return str(rng.choice([-3, -2, -1, 1, 2, 3]))
        return repr(round(rng.uniform(-1, 1), 3) or 0.5)

    for i in range(rows):
        if i != full and rng.random() < p_empty:
            continue
        js = range(cols) if i == full else rng.sample(range(cols), min(cols, rng.randint(0, per_row)))
        for j in js:
            i2, j2 = (j, i) if symmetric and j > i else (i, j)
            entries[(i2, j2)] = value()
    lines = ["%%%%MatrixMarket matrix %s %s %s" % ("array" if array else "coordinate", field,
                                                 "symmetric" if symmetric else "general"),
             "% written by test/proptest/gen.py"]
    if array:
        lines.append("%d %d" % (rows, cols))
        for j in range(cols):           # column-major, zeros included
            for i in range(rows):
                lines.append(entries.get((i, j), "0"))
        return "\n".join(lines) + "\n"
    lines.append("%d %d %d" % (rows, cols, len(entries)))
    items = list(entries.items())
    rng.shuffle(items)                  # any order: each rank sorts its rows
    for (i, j), v in items:
        lines.append("%d %d" % (i + 1, j + 1) + ("" if field == "pattern" else " " + v))
    return "\n".join(lines) + "\n"


class SparseComputation(Computation):
    def __init__(self, seed, index):
        super().__init__(seed, index)
        self.encodings = {}     # tensor name -> #sparse_tensor.encoding text
        self.init = {}          # tensor name -> main line ("%(v)s", "%(ty)s")

    def full_type(self, t):
        s = Computation.full_type(self, t)
        if t.name in self.encodings and t.name not in self.extra_type:
            s = s[:-1] + ", " + self.encodings[t.name] + ">"
        return s

    def header(self):
        lines = Computation.header(self)
        lines.insert(1, "// proptest-sparse: " + self.sparse)
        return lines

    main_label = " (sparse)"

    def fill_line(self, t, val):
        if t.name in self.init:
            return self.init[t.name] % {"v": val, "ty": self.ttype(t)}
        return Computation.fill_line(self, t, val)


SPARSE_MISTAKES = [
    "sparse-output", "distribute-columns", "cyclic-dense-operand", "not-csr",
    "substitute", "matrix-rows-not-blocked", "two-d-grid", "integer-elements",
    "mixed-elements", "output-replicated", "wrong-parts", "no-distribution",
    "rotate", "parallelize", "not-a-product", "both-sparse", "bad-generator",
    "load-not-matrix-file", "dense-columns-partitioned", "dense-on-a-face",
    "scaled-product",
]


def generate_sparse(seed, index):
    rng = random.Random("dist-proptest-sparse-program:%d:%d" % (seed, index))
    c = SparseComputation(seed, index)
    P = wchoice(rng, [(1, 2), (2, 3), (3, 3), (4, 3)])
    c.grid = [P]
    c.elt = rng.choice(["f64", "f32"])
    spmm = rng.random() < 0.45
    c.sparse = "spmm" if spmm else "spmv"
    mistake = rng.choice(SPARSE_MISTAKES) if rng.random() < 0.25 else ""
    if mistake == "dense-columns-partitioned" or mistake == "substitute":
        spmm, c.sparse = True, "spmm"

    # B's fill first: banded and rmat matrices are square
    how = wchoice(rng, [("banded", 2), ("rmat", 2), ("uniform", 2), ("mtx", 4)])
    r = rng.random()
    if r < 0.35:
        rows = P * rng.randint(1, 10)
    elif r < 0.5 and P > 1:
        rows = rng.randint(1, P - 1)        # fewer rows than ranks
    else:
        rows = rng.randint(1, 40)
    if how in ("banded", "rmat") or rng.random() < 0.3:
        cols = rows
    else:
        cols = rng.randint(1, 40)
    K = rng.randint(1, 5)

    # names: the variables and tensors vary; the output is first
    rv, cv, kv = rng.sample(VARS, 3)
    yn, bn, xn = rng.choice([("A", "B", "C"), ("a", "B", "c"), ("Y", "M", "X"), ("A", "C", "B")])
    Y = Tensor(yn, [rv, kv] if spmm else [rv], [rows, K] if spmm else [rows])
    B = Tensor(bn, [rv, cv], [rows, cols])
    X = Tensor(xn, [cv, kv] if spmm else [cv], [cols, K] if spmm else [cols])
    c.tensors = [Y, B, X] if rng.random() < 0.7 else [Y, X, B]
    for k, t in enumerate(c.tensors):
        t.seed = index * 10 + k + 1
    acc = lambda t: "%s(%s)" % (t.name, ",".join(t.indices))
    factors = [acc(B), acc(X)]
    if rng.random() < 0.2:
        factors.reverse()
    op = " += " if rng.random() < 0.3 else " = "
    # a constant factor or a minus sign (SPARSE_SCALED: off for now)
    scale = wchoice(rng, [("", 17)] + [(x, SPARSE_SCALED) for x in ("2 * ", "0.5 * ", "-")])
    c.stmt = acc(Y) + op + scale + " * ".join(factors)

    # layouts
    g = "@" + c.gname
    vec_or_mat = lambda t, right: '"%s -> %s"' % ("xy" if len(t.shape) == 2 else "x", right)
    Y.layout = vec_or_mat(Y, "x")
    B.layout = '"xy -> x"'
    X.layout = vec_or_mat(X, "x" if rng.random() < 0.6 else "*")
    c.encodings[B.name] = encoding_text(rng, CSR_MAP)

    # B's values
    gseed = rng.randint(0, 999)
    if how == "banded":
        w = rng.choice([1, 3, 5, 7, 9]) if rng.random() < 0.85 else 2 * rows + 1
        c.init[B.name] = "dist.generate %%(v)s banded(%d) seed %d : %%(ty)s" % (w, gseed)
    elif how == "rmat":
        c.init[B.name] = "dist.generate %%(v)s rmat(%d) seed %d : %%(ty)s" % (rng.randint(1, 6), gseed)
    elif how == "uniform":
        c.init[B.name] = "dist.generate %%(v)s uniform(%d) seed %d : %%(ty)s" % (
            wchoice(rng, [(0, 1), (1, 3), (2, 3), (3, 2), (5, 1)]), gseed)
    else:
        name = "%s_%s.mtx" % (c.tag, B.name)
        c.files[name] = gen_mtx(rng, rows, cols)
        c.init[B.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name

    # the schedule: rows blocked over the grid, the rest plausible
    ro, ri = rv + "o", rv + "i"
    style = wchoice(rng, [("compound", 7), ("machine", 2), ("divide", 2)])
    if style == "divide":
        sched = ["divide(%s, %s, %s, %d)" % (rv, ro, ri, P), "distribute(%s)" % ro]
    else:
        sched = ["distribute({%s}, {%s}, {%s}, %s)" % (rv, ro, ri, g if style == "machine" else "Grid(%d)" % P)]
    names = [t.name for t in c.tensors]
    r = rng.random()
    if r < 0.35:
        sched.append("communicate({%s}, %s)" % (", ".join(names), ro))
    elif r < 0.5:
        for t in rng.sample(names, rng.randint(1, 3)):
            sched.append("communicate(%s, %s)" % (t, rng.choice([ro, ro, ri])))
    if rng.random() < 0.1:
        sched.insert(rng.randint(0, len(sched)), "overlap(%s)" % rng.choice(["on", "off"]))

    # SpDISTAL's non-zero partition (docs/sparse.md), from a random stream of
    # its own so that every other program stays as it was: B stored
    # "xy -> x~" and scheduled by the positions of its fused rows and
    # columns; now and then only one of the two (a mixed partition: the
    # runtime moves B's entries to the schedule's partition).
    nzr = random.Random("dist-proptest-sparse-nonzeros:%d:%d" % (seed, index))
    nonzeros = nzr.random() < 0.35
    if nonzeros:
        fused = ["fuse(%s, %s, %sf)" % (rv, cv, rv), "pos(%sf, %sp, %s)" % (rv, rv, bn),
                 "distribute({%sp}, {%s}, {%s}, %s)" % (
                     rv, ro, ri, g if style == "machine" else "Grid(%d)" % P)]
        if spmm:
            fused.insert(0, "reorder({%s, %s, %s})" % (rv, cv, kv))
        if nzr.random() < 0.35:
            fused.append("communicate({%s}, %s)" % (", ".join(names), ro))
        mixed = wchoice(nzr, [("", 6), ("layout", 2), ("schedule", 2)])
        if mixed != "layout":
            B.layout = nzr.choice(['"xy -> x~"', '"xy -> x" nonzeros', "[(0) nonzeros, ()]"])
        if mixed != "schedule":
            sched = fused

    # one deliberate mistake
    if mistake == "sparse-output":
        c.encodings[Y.name] = encoding_text(rng, CSR_MAP)
        if not spmm:
            Y.shape, Y.indices = [rows, K], [rv, kv]     # a matrix output (then also not SpMV)
            Y.layout = '"xy -> x"'
            c.stmt = acc(Y) + op + " * ".join(factors)
    elif mistake == "distribute-columns":
        co, ci = cv + "o", cv + "i"
        sched = ["distribute({%s}, {%s}, {%s}, Grid(%d))" % (cv, co, ci, P),
                 "reorder({%s, %s, %s})" % (co, rv, ci)]
    elif mistake == "cyclic-dense-operand":
        X.layout = vec_or_mat(X, "x") + rng.choice([" cyclic", " block_cyclic(2)"])
    elif mistake == "not-csr":
        c.encodings[B.name] = encoding_text(rng, OTHER_MAPS[rng.choice(sorted(OTHER_MAPS))])
    elif mistake == "substitute":
        sched.append("substitute({%s, %s, %s}, gemm)" % (ri, cv, kv))
    elif mistake == "matrix-rows-not-blocked":
        B.layout = rng.choice(['"xy -> y"', '"xy -> *"', '"xy -> x" cyclic', '"xy -> x" block_cyclic(3)'])
    elif mistake == "two-d-grid":
        c.grid = [P, 1] if rng.random() < 0.5 else [1, P]
        sched = ["distribute({%s}, {%s}, {%s}, Grid(%s))" % (rv, ro, ri, ", ".join(map(str, c.grid)))] \
            if c.grid[0] == P else sched
    elif mistake == "integer-elements":
        c.elt = rng.choice(["i32", "i64"])
    elif mistake == "mixed-elements":
        other = "f32" if c.elt == "f64" else "f64"
        t = rng.choice([Y, X])
        c.extra_type[t.name] = Computation.full_type(c, t).replace("x" + c.elt, "x" + other, 1)
    elif mistake == "output-replicated":
        Y.layout = vec_or_mat(Y, "*")
    elif mistake == "wrong-parts":
        sched = ["divide(%s, %s, %s, %d)" % (rv, ro, ri, P + 1), "distribute(%s)" % ro]
    elif mistake == "no-distribution":
        sched = [x for x in sched if x.startswith("communicate") and ro not in x and ri not in x]
    elif mistake == "rotate":
        sched.append("rotate(%s, {%s}, %sr)" % (cv, ro, cv))
    elif mistake == "parallelize":
        sched.append("parallelize(%s)" % ri)
    elif mistake == "scaled-product":
        # the verifier refuses a constant factor or a sign (the leaf
        # multiplies the two operands only); it once dropped them
        c.stmt = acc(Y) + op + rng.choice(["2 * ", "0.5 * ", "-"]) + " * ".join(factors)
    elif mistake == "not-a-product":
        c.stmt = acc(Y) + op + " * ".join(factors) + rng.choice([" + " + acc(Y), " * " + acc(X)])
    elif mistake == "both-sparse":
        c.encodings[X.name] = encoding_text(rng, CSR_MAP)
        X.layout = '"xy -> x"' if spmm else X.layout
    elif mistake == "bad-generator":
        bad = rng.choice(["banded-even", "rmat-zero", "uniform-negative", "not-square"])
        if bad == "banded-even":
            c.init[B.name] = "dist.generate %%(v)s banded(%d) seed 1 : %%(ty)s" % rng.choice([0, 2, 4])
        elif bad == "rmat-zero":
            c.init[B.name] = "dist.generate %(v)s rmat(0) seed 1 : %(ty)s"
        elif bad == "uniform-negative":
            c.init[B.name] = "dist.generate %(v)s uniform(-1) seed 1 : %(ty)s"
        else:
            if rows == cols:
                B.shape = [rows, cols + 1]
                X.shape = [cols + 1] + X.shape[1:]
            c.init[B.name] = "dist.generate %%(v)s %s seed 1 : %%(ty)s" % rng.choice(["rmat(2)", "banded(3)"])
        c.files = {}
    elif mistake == "load-not-matrix-file":
        c.files = {}
        c.init[B.name] = 'dist.load %%(v)s from "%s_%s.%s" : %%(ty)s' % (
            c.tag, B.name, rng.choice(["dtensor", "txt", "mtx.gz"]))
    elif mistake == "dense-columns-partitioned":
        X.layout = '"xy -> y"'
    elif mistake == "dense-on-a-face":
        X.layout = vec_or_mat(X, "0")
    c.schedule = sched
    c.mistake = mistake
    c.insert = rng.random() < 0.9
    c.overlap_opt = wchoice(rng, [("", 8), ("off", 1), ("on", 1)])
    # As for dense computations: about one in four is lowered as for device
    # tiles (test-kernels-on-host), so the product runs in the runtime
    # (distrt_spmat_mul_add), from a random stream of its own.
    # Not a non-zero partition: the runtime's product on device tiles does
    # not take one yet (the lowering rejects it).
    c.kernels_on_host = random.Random(seed * 1000003 + index * 7 + 11).random() < 0.25 \
        and not nonzeros
    return c


# --- one-sided products -------------------------------------------------------------
#
# About one computation in ten (ONESIDED_FRACTION of the computations that
# are not sparse, decided by a random stream of its own, so every other
# (seed, index) gives the same dense or sparse program as before) is a
# one-sided matrix product (docs/onesided.md): C(i,j) = A(i,k) * B(k,j) or
# +=, the operands in either order, with random tensor and index names,
# sizes 1-17 that do or do not divide the grid (size-1 dimensions
# included), f32 or f64, on a 1-D or 2-D grid of 1-8 ranks, A, B and C each
# with a random layout (every kind gen_layout writes: blocked, cyclic and
# block-cyclic dimensions over any grid axes, replicated and fixed axes,
# several axes per dimension; no skew), and a schedule of the one-sided
# commands only: stationary(A | B | C | auto), prefetch(1..16),
# offset(on | off), each at most once, in any order. Its values are
# compared with the independent reference (oracle.py) and checked by
# dist-run --check. About one in five carries a mistake the verifier must
# refuse with a specific message (ONESIDED_MISTAKES: the expected substring
# is written into the program's header, "// proptest-expect-error: ...",
# and proptest.py fails a program whose rejection lacks it or that is
# accepted).

ONESIDED_FRACTION = 0.11
ONESIDED_TENSORS = ["A", "B", "C", "D", "M", "W", "X", "Y", "Out", "Acc", "a", "b", "c", "T2"]
ONESIDED_VARS = ["i", "j", "k", "l", "m", "n", "p", "q", "r", "s", "kk", "row", "col"]
LOOP_COMMANDS_MSG = "the one-sided lowering (stationary, prefetch, offset) takes no loop commands"
# mistake -> the substring the rejection must contain ("%s": filled in)
ONESIDED_MISTAKES = {
    "stationary-unknown": "stationary(%s): '%s' is not a tensor of the statement; write stationary(T)",
    "prefetch-range": "prefetch(%d): the prefetch depth must be between 1 and 16, got %d",
    "duplicate-command": "the schedule already has %s %s command",
    "loop-command": LOOP_COMMANDS_MSG,
    "transposed": "one-sided product cannot be lowered: the statement must read C(i,j) = A(i,k) * B(k,j), "
                  "or a contraction that matricizes to one",
    "scaled": "one-sided product cannot be lowered: it computes matrix products C(i,j) = A(i,k) * B(k,j) "
              "or C(i,j) += A(i,k) * B(k,j) (and contractions that matricize to them), without constant "
              "factors, signs or sums",
    "same-tensor": "one-sided product cannot be lowered: A, B and C must be three different tensors",
    "integer-elements": "one-sided product cannot be lowered: '%s' has element type integer; "
                        "the one-sided lowering's GEMMs take f32 or f64",
    "skewed": "one-sided product cannot be lowered: '%s' has a skewed layout",
}


def onesided_extent(rng, grid):
    r = rng.random()
    if r < 0.12:
        return 1
    if r < 0.4:
        p = rng.choice(grid + [prod(grid)])
        return p * rng.randint(1, max(1, 17 // p))
    return rng.randint(1, 17)


def onesided_layout(rng, grid):
    """A random layout of a matrix on grid without skew (the one-sided
    lowering takes every other layout)."""
    for _ in range(20):
        lay = gen_layout(rng, 2, grid, None)
        if "skew(" not in lay:
            return lay
    return '"xy -> %s"' % ("*" * len(grid))


def generate_onesided(seed, index):
    rng = random.Random("dist-proptest-onesided-program:%d:%d" % (seed, index))
    c = Computation(seed, index)
    c.onesided = True
    n = wchoice(rng, [(1, 2), (2, 3), (3, 2), (4, 4), (5, 1), (6, 2), (7, 1), (8, 3)])
    c.grid = rng.choice(factorizations(n, wchoice(rng, [(1, 4), (2, 5)])))
    c.elt = rng.choice(["f64", "f32"])
    mistake = ""
    if rng.random() < 0.2:
        mistake = rng.choice(sorted(ONESIDED_MISTAKES))
        if mistake == "skewed" and len(c.grid) < 2:
            mistake = "transposed"

    cn, an, bn = rng.sample(ONESIDED_TENSORS, 3)
    i, j, k = rng.sample(ONESIDED_VARS, 3)
    M, K, N = (onesided_extent(rng, c.grid) for _ in range(3))
    C = Tensor(cn, [i, j], [M, N])
    A = Tensor(an, [i, k], [M, K])
    B = Tensor(bn, [k, j], [K, N])
    c.tensors = [C] + ([A, B] if rng.random() < 0.6 else [B, A])
    for t in c.tensors:
        t.layout = onesided_layout(rng, c.grid)
    acc = lambda t: "%s(%s)" % (t.name, ",".join(t.indices))
    op = " += " if rng.random() < 0.3 else " = "
    swap = rng.random() < 0.3

    # the schedule: the one-sided commands only, each at most once
    names = [cn, an, bn]
    cmds = []
    if rng.random() < 0.85:
        cmds.append("stationary(%s)" % wchoice(rng, [(an, 3), (bn, 3), (cn, 3), ("auto", 3)]))
    if rng.random() < 0.5:
        cmds.append("prefetch(%d)" % wchoice(rng, [(1, 3), (2, 3), (3, 2), (4, 1), (rng.randint(5, 16), 1)]))
    if rng.random() < 0.4 or not cmds:
        cmds.append("offset(%s)" % rng.choice(["on", "off"]))
    rng.shuffle(cmds)

    # one deliberate mistake, with the message it must be refused with
    expect = ONESIDED_MISTAKES.get(mistake, "")
    if mistake == "stationary-unknown":
        bad = rng.choice([x for x in ONESIDED_TENSORS + ["Z", "Q"] if x not in names])
        cmds = [x for x in cmds if not x.startswith("stationary")]
        cmds.insert(rng.randint(0, len(cmds)), "stationary(%s)" % bad)
        expect = expect % (bad, bad)
    elif mistake == "prefetch-range":
        d = rng.choice([0, 17, 32])
        cmds = [x for x in cmds if not x.startswith("prefetch")]
        cmds.insert(rng.randint(0, len(cmds)), "prefetch(%d)" % d)
        expect = expect % (d, d)
    elif mistake == "duplicate-command":
        what = rng.choice(["stationary", "prefetch", "offset"])
        first = "%s(%s)" % (what, {"stationary": rng.choice(names + ["auto"]), "prefetch": rng.randint(1, 4),
                                   "offset": rng.choice(["on", "off"])}[what])
        second = "%s(%s)" % (what, {"stationary": rng.choice(names + ["auto"]), "prefetch": rng.randint(1, 4),
                                    "offset": rng.choice(["on", "off"])}[what])
        cmds = [x for x in cmds if not x.startswith(what)]
        cmds.insert(rng.randint(0, len(cmds)), first)
        cmds.insert(rng.randint(cmds.index(first) + 1, len(cmds)), second)
        expect = expect % ("an" if what == "offset" else "a", what)
    elif mistake == "loop-command":
        # a command that is valid on the statement's nest (i, j, k)
        ts = [i, j][:len(c.grid)]
        loop = rng.choice([
            "split(%s, %so, %si, %d)" % (i, i, i, rng.randint(1, 4)),
            "divide(%s, %so, %si, %d)" % (j, j, j, rng.randint(1, 3)),
            "reorder({%s, %s, %s})" % (k, i, j),
            "distribute({%s}, {%s}, {%s}, @%s)" % (", ".join(ts), ", ".join(v + "o" for v in ts),
                                                   ", ".join(v + "i" for v in ts), c.gname),
            "communicate(%s, %s)" % (rng.choice(names), rng.choice([i, j, k])),
            "overlap(%s)" % rng.choice(["on", "off"]),
            "parallelize(%s)" % rng.choice([i, j]),
        ])
        cmds.insert(rng.randint(0, len(cmds)), loop)
    elif mistake == "transposed":
        how = rng.choice(["A", "B", "C"])
        if how == "A":
            A.indices, A.shape = [k, i], [K, M]
        elif how == "B":
            B.indices, B.shape = [j, k], [N, K]
        else:
            C.indices, C.shape = [j, i], [N, M]
    elif mistake == "same-tensor":
        # A(i,k) * A(k,j): one square matrix twice
        M = K = N = max(M, 2)
        C.shape = [M, M]
        A.shape = [M, M]
        B = Tensor(an, [k, j], [M, M])
        c.tensors = [C, A]
        cmds = [x.replace("(%s)" % bn, "(%s)" % rng.choice([an, cn])) for x in cmds]
    elif mistake == "integer-elements":
        c.elt = rng.choice(["i32", "i64"])
    elif mistake == "skewed":
        t = rng.choice([C, A, B])
        m = rng.randrange(2)
        t.layout = "[(%d) %s, (%d) %s skew(%d)]" % (
            m, rng.choice(["blocked", "cyclic", "block_cyclic(2)"]), 1 - m, rng.choice(["blocked", "cyclic"]), m) \
            if rng.random() < 0.5 else \
            "[(%d) %s skew(%d), (%d) %s]" % (m, rng.choice(["blocked", "cyclic"]), 1 - m, 1 - m, "blocked")
    factors = [acc(A), acc(B)]
    if swap:
        factors.reverse()
    rhs = " * ".join(factors)
    if mistake == "scaled":
        kind = rng.choice(["2 * ", "0.5 * ", "-", "sum"])
        if kind == "sum":       # the product twice (the output may not be read)
            rhs = rhs + " + " + rhs
        else:
            rhs = kind + rhs
    c.stmt = acc(C) + op + rhs
    if mistake == "integer-elements":
        # the first tensor the matcher looks at: A (the operand that shares C's row index)
        expect = ONESIDED_MISTAKES[mistake] % A.name
    elif mistake == "skewed":
        skewed = [x for x in (A, B, C) if "skew(" in x.layout][0]
        expect = expect % skewed.name
    for n_, t in enumerate(c.tensors):
        t.seed = index * 10 + n_ + 1
    c.schedule = cmds
    c.mistake = mistake
    c.expect = expect
    c.insert = rng.random() < 0.9
    c.overlap_opt = wchoice(rng, [("", 8), ("off", 1), ("on", 1)])
    return c


# --- one computation ------------------------------------------------------------

def generate(seed, index):
    import gen_sparse2  # SDDMM and sums of sparse matrices, which use this module
    if random.Random("dist-proptest-sddmm:%d:%d" % (seed, index)).random() < gen_sparse2.SDDMM_FRACTION:
        return gen_sparse2.generate_sddmm(seed, index)
    if random.Random("dist-proptest-spadd:%d:%d" % (seed, index)).random() < gen_sparse2.SPADD_FRACTION:
        return gen_sparse2.generate_spadd(seed, index)
    import gen_sparse3  # SpTTV and SpMTTKRP on tensors of order 3
    if random.Random("dist-proptest-tensor3:%d:%d" % (seed, index)).random() < gen_sparse3.TENSOR3_FRACTION:
        return gen_sparse3.generate(seed, index)
    if random.Random("dist-proptest-sparse:%d:%d" % (seed, index)).random() < SPARSE_FRACTION:
        return generate_sparse(seed, index)
    if random.Random("dist-proptest-onesided:%d:%d" % (seed, index)).random() < ONESIDED_FRACTION:
        return generate_onesided(seed, index)
    rng = random.Random("dist-proptest:%d:%d" % (seed, index))
    c = Computation(seed, index)
    c.grid = gen_grid(rng)
    c.elt = wchoice(rng, [("f64", 4), ("f32", 2), ("i32", 2), ("i64", 2)])
    free, summed, ext, kernel = gen_statement(rng, c)
    mistakes = [] if rng.random() < 0.12 else None
    for k, t in enumerate(c.tensors):
        t.layout = gen_layout(rng, len(t.shape), c.grid, mistakes if mistakes is not None and not mistakes else None)
        t.seed = index * 10 + k + 1
    c.schedule = gen_schedule(rng, c, free, summed, ext, kernel,
                              mistakes if mistakes is not None and not mistakes else None)
    if mistakes is not None and not mistakes:
        # a statement-level mistake: element type or extents disagree
        t = rng.choice(c.tensors)
        if t.shape and rng.random() < 0.5:
            shape = t.shape[:]
            shape[0] += 1
            c.extra_type[t.name] = c.full_type(t).replace(
                "<" + "x".join(map(str, t.shape)) + "x", "<" + "x".join(map(str, shape)) + "x", 1)
            mistakes.append("extent-mismatch")
        else:
            other = rng.choice([e for e in ELTS if e != c.elt])
            c.extra_type[t.name] = c.full_type(t).replace("x" + c.elt if t.shape else "<" + c.elt,
                                                      "x" + other if t.shape else "<" + other, 1)
            mistakes.append("element-type-mismatch")
    c.mistake = ", ".join(mistakes or [])
    c.insert = rng.random() < 0.75
    c.overlap_opt = wchoice(rng, [("", 8), ("off", 1), ("on", 1)])
    c.leaf_fallback = any(x.startswith("substitute") for x in c.schedule) and rng.random() < 0.3
    # About one dense computation in four makes its leaves GPU kernels and
    # runs them as host loops (dist-gpu-kernels test-host-loops), from a
    # random stream of its own so that the programs themselves are unchanged.
    c.kernels_on_host = random.Random(seed * 1000003 + index * 7 + 11).random() < 0.25
    # About one dense computation without a deliberate mistake in ten leaves
    # its schedule to dist-auto-schedule (`schedule auto`), from a random
    # stream of its own: the statement, tensors and layouts stay as drawn.
    if not c.mistake and random.Random("dist-proptest-auto:%d:%d" % (seed, index)).random() < AUTO_FRACTION:
        c.auto = True
        c.schedule = []
        c.leaf_fallback = False
        c.expect = ""
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--func", action="store_true", help="functions only, no @main")
    a = ap.parse_args()
    for i in range(a.index, a.index + a.count):
        c = generate(a.seed, i)
        sys.stdout.write(c.func_text() if a.func else c.program_text())
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
