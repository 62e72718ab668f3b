"""Sparse tensors of order 3 for the property test: SpTTV and SpMTTKRP
(gen.py's generate calls this for about one computation in twenty-five,
TENSOR3_FRACTION, decided by a random stream of its own so that every
other (seed, index) gives the program it gave before).

SpTTV A(r,c) = B(r,c,k) * v(k), its factors in either order, and SpMTTKRP
A(r,l) (+)= B(r,c,k) * C(c,l) * D(k,l), its factors in any order
(docs/sparse.md), with random tensor and index names, f32 or f64, on a 1-D
grid of 1-4 ranks, extents that do or do not divide the rank count (fewer
rows than ranks included). B is CSF with a dense root, random index
widths, made by dist.generate (uniform, or rmat: power-law in every mode)
or read from a FROSTT .tns file the
generator writes (empty slices, sometimes a full fiber); its rows blocked
("xyz -> x", the rows distributed) or its fibers split by non-zeros
("xyz -> x~", the positions of the fused rows and columns distributed);
either way, sometimes computed on its entries split equally (all three
levels fused and their positions distributed; SpTTV only when stored by
fibers).
SpTTV's A is CSR of B's partition and widths and starts with entries of
its own, which the product replaces by B's fibers; it is stored as
MatrixMarket. v, C and D are replicated.

When B comes from a file, proptest.py's independent reference (oracle.py)
reads it and evaluates the statement densely (A's pattern too, every
element, stored or not); otherwise dist-run --check alone. About one in
four carries a mistake the verifier must reject, with the substring its
message must contain (// proptest-expect-error).
"""
import random

import gen
import gen_sparse2

TENSOR3_FRACTION = 0.04
CSF_MAP = "(i, j, k) -> (i : dense, j : compressed, k : compressed)"

MISTAKES = {
    "ttv-dense-output": "an SpTTV's output has the tensor's (i, j) fibers as its pattern",
    "ttv-accumulate": "an SpTTV's sparse output is assigned ('=')",
    "ttv-partition": "so it is a CSR matrix of the tensor's first two extents",
    "blocked-vector": "must be replicated",
    "mixed": "runs in the partition its tensor is stored in",
    "csf-root": "tensors of order 3 are stored as CSF with a dense root",
    "mttkrp-transposed": "SpMTTKRP reads A(i,l) = B(i,j,k) * C(j,l) * D(k,l)",
    "mttkrp-output": "the output's rows must be blocked like the tensor's",
    "ttv-entries-rows": "an SpTTV over its entries split equally",
}


def gen_tns(rng, dims):
    """A FROSTT file of an I x J x K tensor (independent of dist); its last
    entry has the largest indices."""
    I, J, K = dims
    p_empty = rng.choice([0.0, 0.2, 0.5])
    per_row = rng.randint(1, 8)
    entries = {}
    for i in range(I):
        if rng.random() < p_empty:
            continue
        for _ in range(per_row):
            entries[(i, rng.randrange(J), rng.randrange(K))] = 1
    if rng.random() < 0.3:
        i, j = rng.randrange(I), rng.randrange(J)
        for k in range(K):
            entries[(i, j, k)] = 1
    entries[(I - 1, J - 1, K - 1)] = 1
    lines = ["# gen_sparse3.py"]
    for c in sorted(entries):
        v = round(rng.uniform(-1, 1), 3) or 0.5
        lines.append("%d %d %d %s" % (c[0] + 1, c[1] + 1, c[2] + 1, v))
    return "\n".join(lines) + "\n"


def generate(seed, index):
    rng, c, P, mistake, rows = gen_sparse2.start("tensor3", seed, index, MISTAKES)
    ttv = rng.random() < 0.5
    J, K = rng.randint(1, 12), rng.randint(1, 12)
    rv, cv, kv, lv = rng.sample(gen.VARS, 4)
    names = rng.choice([("A", "B", "C", "D"), ("S", "T", "U", "V"), ("out", "W", "X", "Y")])
    B = gen.Tensor(names[1], [rv, cv, kv], [rows, J, K])
    acc = lambda t: "%s(%s)" % (t.name, ",".join(t.indices))
    nonzeros = rng.random() < 0.4
    B.layout = '"xyz -> x~"' if nonzeros else '"xyz -> x"'
    enc = gen.encoding_text(rng, CSF_MAP)
    c.encodings[B.name] = enc
    if ttv:
        A = gen.Tensor(names[0], [rv, cv], [rows, J])
        V = gen.Tensor(names[2], [kv], [K])
        A.layout = '"xy -> x~"' if nonzeros else '"xy -> x"'
        V.layout = '"x -> *"'
        c.encodings[A.name] = enc.replace(CSF_MAP, gen.CSR_MAP)
        others = [V]
    else:
        L = rng.randint(1, 9)
        A = gen.Tensor(names[0], [rv, lv], [rows, L])
        C = gen.Tensor(names[2], [cv, lv], [J, L])
        D = gen.Tensor(names[3], [kv, lv], [K, L])
        A.layout = '"xy -> x"'
        C.layout = D.layout = '"xy -> *"'
        others = [C, D]
    c.tensors = [A] + rng.sample([B] + others, 1 + len(others))
    for k, t in enumerate(c.tensors):
        t.seed = index * 10 + k + 1
    factors = [acc(B)] + [acc(t) for t in others]
    rng.shuffle(factors)
    op = " += " if not ttv and rng.random() < 0.3 else " = "
    grid = "@" + c.gname if rng.random() < 0.2 else "Grid(%d)" % P
    ro, ri = rv + "o", rv + "i"
    order = [] if ttv else ["reorder({%s, %s, %s, %s})" % (rv, cv, kv, lv)]
    rows_sched = order + ["distribute({%s}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    nz_sched = order + ["fuse(%s, %s, %sf)" % (rv, cv, rv),
                        "pos(%sf, %sp, %s)" % (rv, rv, B.name),
                        "distribute({%sp}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    entries = rng.random() < 0.3 and (nonzeros or not ttv)
    ent_sched = order + ["fuse(%s, %s, %sf)" % (rv, cv, rv),
                         "fuse(%sf, %s, %sg)" % (rv, kv, rv),
                         "pos(%sg, %sp, %s)" % (rv, rv, B.name),
                         "distribute({%sp}, {%s}, {%s}, %s)" % (rv, ro, ri, grid)]
    sched = ent_sched if entries else nz_sched if nonzeros else rows_sched

    gseed = rng.randint(0, 999)
    if rng.random() < 0.4:
        kind = rng.choice(["uniform", "rmat"])  # rmat needs e >= 1
        c.init[B.name] = "dist.generate %%(v)s %s(%d) seed %d : %%(ty)s" % (
            kind, rng.randint(0 if kind == "uniform" else 1, 6), gseed)
    else:
        name = "%s_%s.tns" % (c.tag, B.name)
        c.files[name] = gen_tns(rng, [rows, J, K])
        c.init[B.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name
    if ttv:
        # A's own entries before the product, replaced by B's fibers.
        name = "%s_%s.mtx" % (c.tag, A.name)
        c.files[name] = gen.gen_mtx(rng, rows, J)
        c.init[A.name] = 'dist.load %%(v)s from "%s" : %%(ty)s' % name

    c.expect = MISTAKES.get(mistake, "")
    if mistake == "ttv-dense-output" and ttv:
        del c.encodings[A.name]
        c.init.pop(A.name)
        A.layout = '"xy -> x"'   # a dense tensor is not split by non-zeros
    elif mistake == "ttv-accumulate" and ttv:
        op = " += "
    elif mistake == "ttv-partition" and ttv:
        A.layout = '"xy -> x"' if nonzeros else '"xy -> x~"'
    elif mistake == "blocked-vector":
        t = others[0]
        t.layout = '"x -> x"' if ttv else '"xy -> x"'
    elif mistake == "mixed" and not entries:
        B.layout = '"xyz -> x"' if nonzeros else '"xyz -> x~"'
        if ttv:
            A.layout = '"xy -> x"' if nonzeros else '"xy -> x~"'
    elif mistake == "ttv-entries-rows" and ttv and entries:
        B.layout, A.layout = '"xyz -> x"', '"xy -> x"'
    elif mistake == "csf-root":
        c.encodings[B.name] = enc.replace("i : dense", "i : compressed")
    elif mistake == "mttkrp-transposed" and not ttv:
        D.indices, D.shape = [lv, kv], [D.shape[1], D.shape[0]]
        factors = [acc(B)] + [acc(t) for t in others]
    elif mistake == "mttkrp-output" and not ttv:
        A.layout = '"xy -> *"'
    else:
        c.expect, mistake = "", ""
    # A sparse output is stored as MatrixMarket (Sparse2Computation), a
    # dense one as a .dtensor.
    if A.name not in c.encodings:
        c.__class__ = gen.SparseComputation
    c.stmt = acc(A) + op + " * ".join(factors)
    c.schedule = sched
    c.mistake = mistake
    c.insert = rng.random() < 0.9
    return c
