"""Independent reference for the property test (Python 3, stdlib only).

Nothing here uses the compiler: the statement is parsed from its text, the
inputs are the values `dist.fill` documents (docs/runtime.md: distrt_value,
a splitmix64 hash of the seed and the row-major linear index), and the
statement is evaluated with the documented meaning of index notation:

- the index variables of the left-hand side are free;
- every other variable is summed over the *smallest sub-expression that
  contains all of its uses*, and an addition or subtraction never sums: an
  operand that does not use the variable is not repeated
  (`A(i,j) = B(i,k)*C(k,j) + D(i,j)` is B.C + D, not B.C + n_k*D;
  `A(i) = B(i,j) + C(i) + D(i,j)` is sum_j B + C + sum_j D; a product sums
  the variables both its factors use), as docs/dialect.md#summed-indices
  says;
- `+=` adds to the output's previous values.

It also reads the tensor files `dist.store` writes (docs/reliability.md)
and, for sparse products whose matrix `dist.load` reads from a MatrixMarket
file, the file itself (read_mtx: the matrix as a dense one, so the
statement is evaluated like any other). Matrices made by `dist.generate`
are defined by the runtime only; the property test checks those with
`dist-run --check` alone.
"""

import struct

MASK = (1 << 64) - 1


def splitmix64(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def fill_value(seed, linear, elt):
    """The value dist.fill gives element `linear` (row-major) for `seed`."""
    h = splitmix64(((seed & MASK) * 0xD1B54A32D192ED03 & MASK) ^ splitmix64(linear))
    k = h >> 40
    v = (k - (1 << 23)) / 8388608.0
    if elt in ("i32", "i64"):
        # floor(8 * v): v = k' / 2^23 exactly, so this is an exact integer.
        return (k - (1 << 23)) >> 20
    return v


# --- statements --------------------------------------------------------------

class Node:
    __slots__ = ("kind", "lhs", "rhs", "tensor", "indices", "value", "sums")

    def __init__(self, kind, lhs=None, rhs=None, tensor=None, indices=None,
                 value=None):
        self.kind = kind          # access, const, neg, +, -, *
        self.lhs = lhs
        self.rhs = rhs
        self.tensor = tensor
        self.indices = indices or []
        self.value = value
        self.sums = []            # variables summed at this node

    def children(self):
        return [c for c in (self.lhs, self.rhs) if c is not None]


class ParseError(Exception):
    pass


class _Parser:
    """The grammar of lib/Dialect/Dist/IR/IndexNotation.cpp: expr = term
    {(+|-) term}; term = factor {* factor}; factor = - factor | ( expr ) |
    number | access."""

    def __init__(self, text):
        self.t = text
        self.p = 0

    def skip(self):
        while self.p < len(self.t) and self.t[self.p].isspace():
            self.p += 1

    def peek(self, s):
        self.skip()
        return self.t.startswith(s, self.p)

    def eat(self, s):
        if self.peek(s):
            self.p += len(s)
            return True
        return False

    def ident(self):
        self.skip()
        q = self.p
        while self.p < len(self.t) and (self.t[self.p].isalnum() or self.t[self.p] == "_"):
            self.p += 1
        if q == self.p:
            raise ParseError("expected a name at column %d of %r" % (q, self.t))
        return self.t[q:self.p]

    def access(self):
        name = self.ident()
        idx = []
        if self.eat("("):
            while True:
                idx.append(self.ident())
                if self.eat(")"):
                    break
                if not self.eat(","):
                    raise ParseError("expected , or ) in %r" % self.t)
        return Node("access", tensor=name, indices=idx)

    def factor(self):
        self.skip()
        if self.eat("-"):
            return Node("neg", lhs=self.factor())
        if self.eat("("):
            e = self.expr()
            if not self.eat(")"):
                raise ParseError("expected ) in %r" % self.t)
            return e
        c = self.t[self.p] if self.p < len(self.t) else ""
        if c.isdigit() or c == ".":
            q = self.p
            while self.p < len(self.t) and (self.t[self.p].isdigit() or self.t[self.p] in ".eE" or
                                            (self.t[self.p] in "+-" and self.t[self.p - 1] in "eE")):
                self.p += 1
            return Node("const", value=float(self.t[q:self.p]))
        return self.access()

    def term(self):
        e = self.factor()
        while self.eat("*"):
            e = Node("*", e, self.factor())
        return e

    def expr(self):
        e = self.term()
        while True:
            if self.eat("+"):
                e = Node("+", e, self.term())
            elif self.eat("-"):
                e = Node("-", e, self.term())
            else:
                return e


class Statement:
    def __init__(self, text):
        self.text = text
        p = _Parser(text)
        self.lhs = p.access()
        if p.eat("+="):
            self.accumulate = True
        elif p.eat("="):
            self.accumulate = False
        else:
            raise ParseError("expected = or += in %r" % text)
        self.rhs = p.expr()
        p.skip()
        if p.p != len(text):
            raise ParseError("trailing text in %r" % text)
        self.free = list(self.lhs.indices)
        self.accesses = []
        self._collect(self.rhs)
        self.summed = []
        for a in self.accesses:
            for v in a.indices:
                if v not in self.free and v not in self.summed:
                    self.summed.append(v)
        for v in self.summed:
            self._attach(v)

    def _collect(self, n):
        if n.kind == "access":
            self.accesses.append(n)
        for c in n.children():
            self._collect(c)

    @staticmethod
    def _uses(n, v):
        if n.kind == "access":
            return v in n.indices
        return any(Statement._uses(c, v) for c in n.children())

    def _attach(self, v, n=None):
        """Sum v over the smallest sub-expression holding all its uses; an
        addition or subtraction never sums (each operand that uses v sums
        it on its own, an operand that does not is not repeated)."""
        n = n or self.rhs
        while True:
            users = [c for c in n.children() if self._uses(c, v)]
            if n.kind in ("+", "-") and len(users) == 2:
                for c in users:
                    self._attach(v, c)
                return
            if len(users) == 1:
                n = users[0]
                continue
            break
        n.sums.append(v)

    def extents(self, shapes):
        """Index variable -> extent, from the tensors' shapes."""
        ext = {}
        for a in [self.lhs] + self.accesses:
            for v, n in zip(a.indices, shapes[a.tensor]):
                ext.setdefault(v, n)
        return ext

    def tensor_names(self):
        names = [self.lhs.tensor]
        for a in self.accesses:
            if a.tensor not in names:
                names.append(a.tensor)
        return names


def _linear(idx, shape):
    l = 0
    for i, n in zip(idx, shape):
        l = l * n + i
    return l


def _points(vars_, ext):
    pts = [{}]
    for v in vars_:
        pts = [dict(p, **{v: x}) for p in pts for x in range(ext[v])]
    return pts


def evaluate(stmt, shapes, values, elt, out_init=None):
    """Returns the output tensor (flat row-major list). `values[name]` is a
    flat row-major list per input; `out_init` the output's values before
    the statement (for +=)."""
    ext = stmt.extents(shapes)
    integer = elt in ("i32", "i64")

    def ev(n, env):
        if n.sums:
            total = 0
            for p in _points(n.sums, ext):
                e2 = dict(env)
                e2.update(p)
                total += raw(n, e2)
            return total
        return raw(n, env)

    def raw(n, env):
        k = n.kind
        if k == "access":
            return values[n.tensor][_linear([env[v] for v in n.indices], shapes[n.tensor])]
        if k == "const":
            return int(n.value) if integer else n.value
        if k == "neg":
            return -ev(n.lhs, env)
        a = ev(n.lhs, env)
        b = ev(n.rhs, env)
        if k == "+":
            return a + b
        if k == "-":
            return a - b
        return a * b

    oshape = shapes[stmt.lhs.tensor]
    out = list(out_init) if (stmt.accumulate and out_init is not None) else [0] * _prod(oshape)
    for p in _points(stmt.free, ext):
        l = _linear([p[v] for v in stmt.free], oshape)
        v = ev(stmt.rhs, p)
        out[l] = out[l] + v if stmt.accumulate else v
    return out


def bound(stmt, shapes, leaf_bound=8.0):
    """An upper bound of |result| for inputs bounded by leaf_bound."""
    ext = stmt.extents(shapes)

    def b(n):
        k = n.kind
        if k == "access":
            r = leaf_bound
        elif k == "const":
            r = abs(n.value)
        elif k == "neg":
            r = b(n.lhs)
        elif k in "+-":
            r = b(n.lhs) + b(n.rhs)
        else:
            r = b(n.lhs) * b(n.rhs)
        for v in n.sums:
            r *= ext[v]
        return r

    r = b(stmt.rhs)
    return r + leaf_bound if stmt.accumulate else r


def _prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


# --- tensor files ---------------------------------------------------------------

_DTYPES = {0: ("f32", "f", 4), 1: ("f64", "d", 8), 2: ("i32", "i", 4), 3: ("i64", "q", 8)}


def read_dtensor(path):
    """Returns (elt, shape, flat values) of a dist.store file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24 or data[:8] != b"DISTTNSR":
        raise ValueError("%s: not a dist tensor file" % path)
    version, bom, dtype, rank = struct.unpack_from("<IIII", data, 8)
    if bom != 0x01020304:
        raise ValueError("%s: unexpected byte order" % path)
    shape = list(struct.unpack_from("<%dq" % rank, data, 24))
    elt, code, size = _DTYPES[dtype]
    n = _prod(shape)
    off = 24 + 8 * rank
    if len(data) != off + n * size:
        raise ValueError("%s: %d bytes, expected %d" % (path, len(data), off + n * size))
    return elt, shape, list(struct.unpack_from("<%d%s" % (n, code), data, off))


def read_mtx(path):
    """Returns ([rows, cols], flat row-major dense values) of a MatrixMarket
    matrix: `coordinate` or `array`, `real`, `integer` or `pattern` (1.0
    per entry), `general` or `symmetric` (an off-diagonal entry (i, j) is
    also (j, i)); the kinds the runtime reads (docs/runtime.md)."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].lower().split() if lines else []
    if len(head) != 5 or head[0] != "%%matrixmarket" or head[1] != "matrix":
        raise ValueError("%s: not a MatrixMarket matrix" % path)
    fmt, field, sym = head[2:]
    if fmt not in ("coordinate", "array") or field not in ("real", "integer", "pattern") or \
            sym not in ("general", "symmetric") or (fmt == "array" and (field == "pattern" or sym != "general")):
        raise ValueError("%s: unsupported kind %s" % (path, " ".join(head[2:])))
    body = [l.split() for l in lines[1:] if l.strip() and not l.lstrip().startswith("%")]
    rows, cols = int(body[0][0]), int(body[0][1])
    dense = [0.0] * (rows * cols)
    if fmt == "array":               # column-major, every entry
        vals = [float(x) for l in body[1:] for x in l]
        if len(vals) != rows * cols:
            raise ValueError("%s: %d values, expected %d" % (path, len(vals), rows * cols))
        for n, v in enumerate(vals):
            j, i = divmod(n, rows)
            dense[i * cols + j] = v
        return [rows, cols], dense
    nnz = int(body[0][2])
    if len(body) - 1 != nnz:
        raise ValueError("%s: %d entries, the size line says %d" % (path, len(body) - 1, nnz))
    for t in body[1:]:
        i, j = int(t[0]) - 1, int(t[1]) - 1
        v = 1.0 if field == "pattern" else float(t[2])
        dense[i * cols + j] += v
        if sym == "symmetric" and i != j:
            dense[j * cols + i] += v
    return [rows, cols], dense


def read_tns(path, shape):
    """Returns flat row-major dense values of a FROSTT .tns tensor of
    extents `shape`: one entry a line, the 1-based indices then the value;
    `#` lines are comments (docs/runtime.md)."""
    dense = [0.0] * _prod(shape)
    with open(path) as f:
        for l in f:
            t = l.split()
            if not t or t[0].startswith("#"):
                continue
            if len(t) != len(shape) + 1:
                raise ValueError("%s: %d fields, expected %d" % (path, len(t), len(shape) + 1))
            idx = [int(x) - 1 for x in t[:-1]]
            if any(not 0 <= i < e for i, e in zip(idx, shape)):
                raise ValueError("%s: index %s out of %s" % (path, t[:-1], shape))
            dense[_linear(idx, shape)] += float(t[-1])
    return dense


def compare(got, want, elt):
    """Normwise relative error max|got-want| / max(max|want|, 1); exact for
    integers. Returns (ok, error, first differing linear index or None)."""
    if len(got) != len(want):
        return False, float("inf"), None
    worst, first = 0.0, None
    for l, (g, w) in enumerate(zip(got, want)):
        d = abs(g - w)
        if d != d:  # NaN
            return False, float("nan"), l
        if d > worst:
            worst = d
        if d != 0 and first is None:
            if elt in ("i32", "i64") or d > 1e-12 * max(1.0, abs(w)):
                first = l
    scale = max([1.0] + [abs(w) for w in want])
    err = worst / scale
    tol = {"f64": 1e-9, "f32": 1e-4}.get(elt, 0.0)
    return err <= tol, err, first
