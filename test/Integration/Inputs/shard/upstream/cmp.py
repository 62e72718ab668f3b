"""Inputs and comparisons of test/Integration/shard-upstream.test.

`make KIND N` writes the inputs (element = ((linear index * 7 + seed * 13)
mod 17 - 8) / 4, the formula driver.c computes for its shards) as .npy for
dist. `compare KIND N UPSTREAM` compares upstream's gathered result (the
driver's file) with dist's (dist-out.npy) element by element, and both with
NumPy's C0 + A @ B or X * W + X. Every value is a multiple of 1/16 and
every partial sum is exact in f64, so the comparisons are exact. It shares
no code with dist.
"""
import sys
import numpy as np

SEEDS = {"a": 3, "b": 4, "c": 5, "x": 6, "w": 7}


def formula(shape, seed):
    n = int(np.prod(shape))
    lin = np.arange(n, dtype=np.int64)
    return (((lin * 7 + seed * 13) % 17 - 8) / 4.0).reshape(shape)


def expected(kind, n):
    if kind == "ew":
        x, w = formula((n,), SEEDS["x"]), formula((n,), SEEDS["w"])
        return x * w + x
    a, b, c = (formula((n, n), SEEDS[k]) for k in "abc")
    return c + a @ b


def read_upstream(path, kind, n):
    raw = open(path, "rb").read()
    rows = int(np.frombuffer(raw[:8], np.int64)[0])
    data = np.frombuffer(raw[8:], np.float64)
    return data.reshape((rows,) if kind == "ew" else (rows, n))


def describe(name, got, want):
    if got.shape != want.shape:
        k = got.shape[0]
        same = np.array_equal(got, want[:k])
        return "%s: %d of %d rows (%s on those)" % (
            name, k, want.shape[0], "exact" if same else "WRONG")
    if np.array_equal(got, want):
        return "%s: exact" % name
    return "%s: WRONG, max error %g" % (name, np.abs(got - want).max())


def main():
    mode, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "make":
        names = "xw" if kind == "ew" else "abc"
        for k in names:
            np.save(k + ".npy",
                    formula((n,) if kind == "ew" else (n, n), SEEDS[k]))
        return 0
    want = expected(kind, n)
    dist = np.load("dist-out.npy")
    print("%s n=%d: %s" % (kind, n, describe("dist vs numpy", dist, want)))
    if len(sys.argv) > 4:
        up = read_upstream(sys.argv[4], kind, n)
        print("%s n=%d: %s" % (kind, n, describe("upstream vs numpy", up, want)))
        print("%s n=%d: %s" % (kind, n, describe("dist vs upstream", dist, up)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
