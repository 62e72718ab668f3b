"""Inputs and the independent check for test/Integration/shard-import.test.

`make` writes the inputs of Inputs/shard/main.mlir: every element a
formula of its global index (the same formulas upstream's driver,
shard-upstream.test, uses). `check` reads the results dist stored and
compares each with NumPy's evaluation of what the linalg/arith operations
of kernels.mlir mean (linalg.matmul adds the product to its outs; a
linalg.generic reduction adds into its init). It shares no code with dist.
"""
import sys
import numpy as np


def formula(shape, seed, dtype):
    """Element (i, j, ...) = ((linear index * 7 + seed * 13) % 17 - 8) / 4."""
    n = int(np.prod(shape))
    lin = np.arange(n, dtype=np.int64)
    v = ((lin * 7 + seed * 13) % 17 - 8)
    if np.issubdtype(np.dtype(dtype), np.floating):
        v = v / 4.0
    return v.astype(dtype).reshape(shape)


INPUTS = {
    "a64x48.npy": ((64, 48), 1, np.float64),
    "b48x40.npy": ((48, 40), 2, np.float64),
    "a250.npy": ((250, 250), 3, np.float64),
    "b250.npy": ((250, 250), 4, np.float64),
    "c250.npy": ((250, 250), 5, np.float64),
    "x250.npy": ((250,), 6, np.float32),
    "w250.npy": ((250,), 7, np.float32),
    "m30x20.npy": ((30, 20), 8, np.int64),
    "v20.npy": ((20,), 9, np.int64),
    "y30.npy": ((30,), 10, np.int64),
    "x12x10.npy": ((12, 10), 11, np.float64),
}


def load(name):
    return np.load(name)


def check(name, got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        print("%s: FAIL shape/dtype %s %s, expected %s %s"
              % (name, got.shape, got.dtype, want.shape, want.dtype))
        return False
    # The products of these inputs are exact in binary floating point (small
    # multiples of 1/16) and every partial sum stays exact, so any summation
    # order gives the same bits: compare exactly.
    if not np.array_equal(got, want):
        bad = np.argwhere(got != want)[0]
        print("%s: FAIL at %s: got %r, expected %r"
              % (name, tuple(bad), got[tuple(bad)], want[tuple(bad)]))
        return False
    print("%s: %s %s exact" % (name, got.dtype, "x".join(map(str, got.shape))))
    return True


def main():
    if sys.argv[1] == "make":
        for name, (shape, seed, dtype) in INPUTS.items():
            np.save(name, formula(shape, seed, dtype))
        return 0
    a, b = load("a64x48.npy"), load("b48x40.npy")
    ok = check("matmul-tiles", load("out-matmul-tiles.npy"), a @ b)
    a, b, c = load("a250.npy"), load("b250.npy"), load("c250.npy")
    ok &= check("matmul-250", load("out-matmul-250.npy"), c + a @ b)
    x, w = load("x250.npy"), load("w250.npy")
    ok &= check("elementwise-250", load("out-elementwise-250.npy"), x * w + x)
    m, v, y0 = load("m30x20.npy"), load("v20.npy"), load("y30.npy")
    ok &= check("matvec-i64", load("out-matvec-i64.npy"), y0 + m @ v)
    x = load("x12x10.npy")
    ok &= check("multi-axis-x", load("out-multi-axis-x.npy"), x)
    ok &= check("multi-axis-t", load("out-multi-axis-t.npy"), x.T - 3.0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
