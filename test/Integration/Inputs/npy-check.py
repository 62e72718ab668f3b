#!/usr/bin/env python3
"""NumPy's side of test/Integration/npy.test (needs numpy).

    npy-check.py make      writes the inputs of Inputs/npy-io.mlir with
                           numpy.save (and numpy.lib.format.write_array for
                           format versions 2.0 and 3.0) into the current
                           directory
    npy-check.py check     reads every out-*.npy that program writes with
                           numpy.load and compares it with what numpy
                           computes from the inputs; also checks that the
                           file is format 1.0, C order, the data starting at
                           a multiple of 64 bytes

Values are pseudo-random (fixed seed), different in every element, so a
misplaced element is noticed. Independent of dist: only numpy reads and
writes the files here. `check` prints one line per file and "N files: PASS"
or exits 1 with "FAIL" lines.
"""
import sys

import numpy as np
import numpy.lib.format as fmt


def inputs():
    """The arrays, by name, as the .mlir program's inputs."""
    rng = np.random.default_rng(20240518)
    a = {}
    a["a64"] = rng.uniform(-1, 1, (10, 7))
    a["b64"] = rng.uniform(-1, 1, (10, 7))
    a["g64"] = rng.uniform(-1, 1, (7, 5))
    a["a32"] = rng.uniform(-1, 1, (10, 7)).astype(np.float32)
    a["i32"] = rng.integers(-2**31, 2**31, (5, 3, 4), dtype=np.int32)
    a["w64"] = rng.integers(-2**62, 2**62, (6, 301), dtype=np.int64)
    a["t64"] = rng.integers(-2**62, 2**62, (301, 6), dtype=np.int64)
    a["v64"] = rng.uniform(-1, 1, (13,))
    a["s64"] = np.array(rng.uniform(-1, 1))
    return a


def make():
    a = inputs()
    for name, x in a.items():
        np.save(name + "-c.npy", x)  # C order, as generated
        if x.ndim >= 2:
            np.save(name + "-f.npy", np.asfortranarray(x))
    # The same 10x7 array in format versions 2.0 and 3.0 (numpy.save picks
    # 1.0 whenever the header fits).
    for v in (2, 3):
        with open("a64-v%d.npy" % v, "wb") as f:
            fmt.write_array(f, a["a64"], version=(v, 0))
    for name in ("a64-c", "a64-f", "a64-v2", "a64-v3", "t64-f", "i32-f"):
        with open(name + ".npy", "rb") as f:
            version = fmt.read_magic(f)
            shape, fortran, dtype = fmt._read_array_header(f, version)
        print("%s.npy: version %d.%d, fortran_order %s, descr %s" %
              (name, version[0], version[1], fortran, dtype.str))


def expected():
    """What each out-*.npy must hold."""
    a = inputs()
    e = {}
    for lay in ("rows", "blk", "cyc", "bc"):
        e["a64c-" + lay] = a["a64"]
        e["a64f-" + lay] = a["a64"]
    for name in ("a32", "i32", "w64", "t64"):
        e[name + "c"] = a[name]
        e[name + "f"] = a[name]
    e["a64v2"] = a["a64"]
    e["a64v3"] = a["a64"]
    e["v64"] = a["v64"]
    e["s64"] = a["s64"]
    e["sum"] = 2 * a["a64"] + a["b64"]
    e["prod"] = a["a64"] @ a["g64"]
    return e


def check_header(path):
    """Format 1.0, C order, data at a multiple of 64; '' or the problem."""
    with open(path, "rb") as f:
        version = fmt.read_magic(f)
        shape, fortran, dtype = fmt._read_array_header(f, version)
        offset = f.tell()
    if version != (1, 0):
        return "format version %d.%d, expected 1.0" % version
    if fortran:
        return "fortran_order True, expected False"
    if offset % 64:
        return "the data starts at byte %d, not a multiple of 64" % offset
    return ""


def check():
    failed = 0
    e = expected()
    for name in sorted(e):
        path = "out-%s.npy" % name
        want = e[name]
        try:
            got = np.load(path)
        except (OSError, ValueError) as err:
            print("%s: FAIL: numpy.load: %s" % (path, err))
            failed += 1
            continue
        problem = check_header(path)
        if not problem and got.dtype != want.dtype:
            problem = "dtype %s, expected %s" % (got.dtype, want.dtype)
        if not problem and got.shape != want.shape:
            problem = "shape %s, expected %s" % (got.shape, want.shape)
        if not problem and name == "prod":
            err = np.max(np.abs(got - want))
            if err > 1e-13:
                problem = "max difference %g from numpy's product" % err
        elif not problem and not np.array_equal(got, want):
            bad = int(np.sum(got != want))
            problem = "%d of %d elements differ" % (bad, want.size)
        if problem:
            print("%s: FAIL: %s" % (path, problem))
            failed += 1
        else:
            print("%s: %s %s ok" % (path, want.dtype, "x".join(
                str(n) for n in want.shape) or "scalar"))
    if failed:
        print("%d of %d files: FAIL" % (failed, len(e)))
        sys.exit(1)
    print("%d files: PASS" % len(e))


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]]()
