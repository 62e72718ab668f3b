"""Sparse II programs for the property test: SDDMM and sums of sparse
matrices (gen.py's generate calls these for about one computation in
twenty, SDDMM_FRACTION, and one in twenty-five, SPADD_FRACTION, each
decided by a random stream of its own so that every other (seed, index)
gives the program it gave before).

SDDMM:

A(r,c) = B(r,c) * C(r,k) * D(k,c) (docs/sparse.md), its three factors in
any order and with random tensor and index names, f32 or f64, on a 1-D grid
of 1-4 ranks, sizes that do or do not divide the rank count (fewer rows
than ranks included). B is CSR with random index widths, made by
dist.generate or read from a MatrixMarket file the generator writes; A has
B's type and starts with entries of its own (another file, or a generated
matrix), which the product replaces by B's pattern. Rows blocked with C
blocked like them or replicated, or (SpDISTAL's non-zero partition) B and
A stored "xy -> x~", scheduled by the positions of B's fused rows and
columns, with C replicated. D is replicated.

A is stored to out_TAG.mtx; when B and A come from files, proptest.py's
independent reference (oracle.py) reads B, C, D and the output and
evaluates the statement densely, so A's values and its pattern (every
element, stored or not) are compared; otherwise dist-run --check alone.
About one in four carries a mistake the verifier must reject, with the
substring its message must contain (// proptest-expect-error).
"""
import random
import re

import gen

SDDMM_FRACTION = 0.05
SPADD_FRACTION = 0.04

# mistake -> the substring the rejection must contain
SDDMM_MISTAKES = {
    "dense-output": "an SDDMM's output has the matrix's pattern",
    "output-type": "an SDDMM's output gets the matrix's pattern, so it must have the matrix's type",
    "accumulate": "an SDDMM's sparse output is assigned ('=')",
    "d-blocked": "must be replicated (\"xy -> *\"): every process reads the columns",
    "c-columns": "must not be partitioned",
    "c-blocked-nonzeros": "when the matrix is split by non-zeros",
    "mixed": "an SDDMM runs in the partition its matrix is stored in",
    "transposed-c": "SDDMM reads A(i,j) = B(i,j) * C(i,k) * D(k,j)",
}


class Sparse2Computation(gen.SparseComputation):
    def main_block(self):
        """As for the others, but A, sparse, is stored as MatrixMarket."""
        text = gen.SparseComputation.main_block(self)
        return text.replace('to "out_%s.dtensor"' % self.tag,
                            'to "out_%s.mtx"' % self.tag)


def start(kind, seed, index, mistakes):
    """What both kinds draw first, from the program's own stream: the
    computation on a 1-D grid of 1-4 ranks, f32 or f64, a mistake (about
    one in four) and the rows (a multiple of the ranks, fewer than the
    ranks, or any up to 30). Returns (rng, c, P, mistake, rows)."""
    rng = random.Random("dist-proptest-%s-program:%d:%d" % (kind, seed, index))
    c = Sparse2Computation(seed, index)
    P = gen.wchoice(rng, [(1, 2), (2, 3), (3, 3), (4, 3)])
    c.grid = [P]
    c.elt = rng.choice(["f64", "f32"])
    c.sparse = kind
    mistake = rng.choice(sorted(mistakes)) if rng.random() < 0.25 else ""
    r = rng.random()
    if r < 0.35:
        rows = P * rng.randint(1, 8)
    elif r < 0.5 and P > 1:
        rows = rng.randint(1, P - 1)
    else:
        rows = rng.randint(1, 30)
    return rng, c, P, mistake, rows


def generate_sddmm(seed, index):
    rng, c, P, mistake, rows = start("sddmm", seed, index, SDDMM_MISTAKES)
    how = gen.wchoice(rng, [("rmat", 2), ("uniform", 2), ("mtx", 5)])
    cols = rows if how == "rmat" or rng.random() < 0.3 else rng.randint(1, 30)
    K = rng.randint(1, 6)
    rv, cv, kv = rng.sample(gen.VARS, 3)
    an, bn, cn, dn = rng.choice([("A", "B", "C", "D"), ("S", "M", "U", "V"),
                                 ("out", "W", "X", "Y")])
    A = gen.Tensor(an, [rv, cv], [rows, cols])
    B = gen.Tensor(bn, [rv, cv], [rows, cols])
    C = gen.Tensor(cn, [rv, kv], [rows, K])
    D = gen.Tensor(dn, [kv, cv], [K, cols])
    c.tensors = [A] + rng.sample([B, C, D], 3)
    for k, t in enumerate(c.tensors):
        t.seed = index * 10 + k + 1
    acc = lambda t: "%s(%s)" % (t.name, ",".join(t.indices))
    factors = [acc(B), acc(C), acc(D)]
    rng.shuffle(factors)
    op = " = "
    nonzeros = rng.random() < 0.35
    g = "@" + c.gname
    grid = g if rng.random() < 0.2 else "Grid(%d)" % P
    blayout = rng.choice(['"xy -> x~"', '"xy -> x" nonzeros']) if nonzeros else '"xy -> x"'
    A.layout = B.layout = blayout
    C.layout = '"xy -> *"' if nonzeros or rng.random() < 0.4 else '"xy -> x"'
    D.layout = '"xy -> *"'
    enc = gen.encoding_text(rng, gen.CSR_MAP)
    c.encodings[A.name] = c.encodings[B.name] = enc
    ro, ri = rv + "o", rv + "i"
    if nonzeros:
        sched = ["fuse(%s, %s, %sf)" % (rv, cv, rv), "pos(%sf, %sp, %s)" % (rv, rv, bn),
                 "distribute({%sp}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    else:
        sched = ["distribute({%s}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]

    gseed = rng.randint(0, 999)
    if how == "rmat":
        c.init[B.name] = "dist.generate %%(v)s rmat(%d) seed %d : %%(ty)s" % (rng.randint(1, 5), gseed)
    elif how == "uniform":
        c.init[B.name] = "dist.generate %%(v)s uniform(%d) seed %d : %%(ty)s" % (rng.randint(0, 4), gseed)
    else:
        name = "%s_%s.mtx" % (c.tag, B.name)
        c.files[name] = gen.gen_mtx(rng, rows, cols)
        c.init[B.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name
    # A's own entries before the product: another pattern, replaced by B's.
    if rng.random() < 0.7:
        name = "%s_%s.mtx" % (c.tag, A.name)
        c.files[name] = gen.gen_mtx(rng, rows, cols)
        c.init[A.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name
    else:
        c.init[A.name] = "dist.generate %%(v)s uniform(%d) seed %d : %%(ty)s" % (
            rng.randint(0, 3), gseed + 1)

    c.expect = SDDMM_MISTAKES.get(mistake, "")
    if mistake == "dense-output":
        del c.encodings[A.name]
        A.layout = '"xy -> x"'
        c.init.pop(A.name)
    elif mistake == "output-type":
        # other position widths than B's (0, index, when not given)
        m = re.search(r"posWidth = (\d+)", enc)
        width = 64 if m and m.group(1) == "32" else 32
        c.encodings[A.name] = re.sub(r", posWidth = \d+", "", enc).replace(
            "}>", ", posWidth = %d}>" % width)
    elif mistake == "accumulate":
        op = " += "
    elif mistake == "d-blocked":
        D.layout = rng.choice(['"xy -> x"', '"xy -> y"'])
    elif mistake == "c-columns":
        C.layout = '"xy -> y"'
    elif mistake == "c-blocked-nonzeros":
        if not nonzeros:
            A.layout = B.layout = '"xy -> x~"'
            sched = ["fuse(%s, %s, %sf)" % (rv, cv, rv), "pos(%sf, %sp, %s)" % (rv, rv, bn),
                     "distribute({%sp}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
        C.layout = '"xy -> x"'
    elif mistake == "mixed":
        A.layout = B.layout = '"xy -> x"' if nonzeros else '"xy -> x~"'
        C.layout = '"xy -> *"'
    elif mistake == "transposed-c":
        C.indices = [kv, rv]
        C.shape = [K, rows]
        factors = [acc(B), acc(C), acc(D)]
    c.stmt = acc(A) + op + " * ".join(factors)
    c.schedule = sched
    c.mistake = mistake
    c.insert = rng.random() < 0.9
    return c


# --- sums of sparse matrices ---------------------------------------------------
#
# A(r,c) = B(r,c) + C(r,c) [+ D(r,c)] (docs/sparse.md), the terms in any
# order and with random names, every tensor CSR of one type (random widths),
# rows blocked over a 1-D grid of 1-4 ranks, f32 or f64, sizes 1-30 that do
# or do not divide the ranks. Each term is read from a MatrixMarket file the
# generator writes (then the independent reference judges A, stored as
# MatrixMarket: every element, so A's pattern too) or generated; A starts
# with entries of its own. About one in four carries a mistake.

SPADD_MISTAKES = {
    "dense-output": "the output of a sum of sparse matrices is sparse",
    "dense-term": "with every tensor sparse; '%s' is dense",
    "accumulate": "a sum of sparse matrices is assigned ('=')",
    "nonzeros": "a sum of sparse matrices is computed with their rows blocked",
    "term-type": "the terms of a sum of sparse matrices must have the output's type",
    "transposed": "every term indexed as the output",
}


def generate_spadd(seed, index):
    rng, c, P, mistake, rows = start("spadd", seed, index, SPADD_MISTAKES)
    cols = rows if rng.random() < 0.4 else rng.randint(1, 30)
    rv, cv = rng.sample(gen.VARS, 2)
    names = rng.choice([("A", "B", "C", "D"), ("S", "M", "U", "V"), ("out", "W", "X", "Y")])
    nterms = rng.choice([2, 3])
    tensors = [gen.Tensor(n, [rv, cv], [rows, cols]) for n in names[:nterms + 1]]
    A, terms = tensors[0], tensors[1:]
    c.tensors = [A] + rng.sample(terms, len(terms))
    for k, t in enumerate(c.tensors):
        t.seed = index * 10 + k + 1
        t.layout = '"xy -> x"'
    enc = gen.encoding_text(rng, gen.CSR_MAP)
    for t in c.tensors:
        c.encodings[t.name] = enc
    acc = lambda t: "%s(%s)" % (t.name, ",".join(t.indices))
    order = rng.sample(terms, len(terms))
    for t in tensors:
        if rng.random() < 0.7 or t is A:
            name = "%s_%s.mtx" % (c.tag, t.name)
            c.files[name] = gen.gen_mtx(rng, rows, cols)
            c.init[t.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name
        else:
            c.init[t.name] = "dist.generate %%(v)s uniform(%d) seed %d : %%(ty)s" % (
                rng.randint(0, 3), rng.randint(0, 999))
    op = " = "
    grid = "@" + c.gname if rng.random() < 0.2 else "Grid(%d)" % P
    ro, ri = rv + "o", rv + "i"
    sched = ["distribute({%s}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    c.expect = SPADD_MISTAKES.get(mistake, "")
    if mistake == "dense-output":
        del c.encodings[A.name]
        c.init.pop(A.name)
    elif mistake == "dense-term":
        t = order[-1]
        del c.encodings[t.name]
        c.init.pop(t.name)
        c.expect = c.expect % t.name
    elif mistake == "accumulate":
        op = " += "
    elif mistake == "nonzeros":
        for t in c.tensors:
            t.layout = '"xy -> x~"'
        sched = ["fuse(%s, %s, %sf)" % (rv, cv, rv),
                 "pos(%sf, %sp, %s)" % (rv, rv, order[0].name),
                 "distribute({%sp}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    elif mistake == "term-type":
        t = order[-1]
        m = re.search(r"crdWidth = (\d+)", enc)
        width = 64 if m and m.group(1) == "32" else 32
        c.encodings[t.name] = re.sub(r", crdWidth = \d+", "", enc).replace(
            "}>", ", crdWidth = %d}>" % width)
    elif mistake == "transposed":
        if rows != cols:
            cols = rows
            for t in tensors:
                t.shape = [rows, cols]
            for t in tensors:
                if t.name in c.init and "dist.load" in c.init[t.name]:
                    c.files["%s_%s.mtx" % (c.tag, t.name)] = gen.gen_mtx(rng, rows, cols)
        order[-1].indices = [cv, rv]
    c.stmt = acc(A) + op + " + ".join(acc(t) for t in order)
    c.schedule = sched
    c.mistake = mistake
    c.insert = rng.random() < 0.9
    return c
