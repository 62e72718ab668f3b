#!/usr/bin/env python3
"""Writes b.npy for test/Integration/npy-errors.test (needs numpy).

    npy-bad.py CASE

The tensor the test program reads is a 4x3 f64; CASE `good` writes it
(values A below) with numpy.save, the `accept-*` cases write it with
byte-order forms numpy reads as little-endian here, every other case a
faulty file of one kind. `compare` checks that a.NPY (the program's
output) holds A.
"""
import sys

import numpy as np

A = np.arange(12, dtype=np.float64).reshape(4, 3) * 0.5 - 1.0


def raw(header, data=A.tobytes(), version=(1, 0)):
    """A .npy file with the given header dict text, padded like numpy."""
    pre = 10 if version == (1, 0) else 12
    h = header.encode("latin1")
    pad = 64 - (pre + len(h) + 1) % 64
    h += b" " * pad + b"\n"
    size = len(h).to_bytes(2 if pre == 10 else 4, "little")
    return b"\x93NUMPY" + bytes(version) + size + h + data


def good_bytes():
    with open("good.npy", "wb") as f:
        np.save(f, A)
    with open("good.npy", "rb") as f:
        return f.read()


def dict_text(descr="'<f8'", fortran="False", shape="(4, 3)", extra=""):
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, %s}" % (
        descr, fortran, shape, extra)


def save(x, **kw):
    np.save("b.npy", x, **kw)


def write(data):
    with open("b.npy", "wb") as f:
        f.write(data)


def main(case):
    good = good_bytes()
    cases = {
        "good": lambda: save(A),
        "accept-pipe": lambda: write(raw(dict_text(descr="'|f8'"))),
        "accept-equal": lambda: write(raw(dict_text(descr="'=f8'"))),
        "accept-none": lambda: write(raw(dict_text(descr="\"f8\""))),
        "accept-py2": lambda: write(raw(dict_text(shape="(4L, 3L)"))),
        "empty": lambda: write(b""),
        "short": lambda: write(b"\x93NUM"),
        "magic": lambda: write(b"hello, this is not an array file"),
        "version": lambda: write(good[:6] + b"\x04\x00" + good[8:]),
        "preamble": lambda: write(good[:8]),
        "header-cut": lambda: write(good[:50]),
        "header-long": lambda: write(
            b"\x93NUMPY\x02\x00" + (20000).to_bytes(4, "little") + good[10:]),
        "not-dict": lambda: write(raw("[('descr', '<f8')]")),
        "no-shape": lambda: write(raw(
            "{'descr': '<f8', 'fortran_order': False, }")),
        "extra-key": lambda: write(raw(dict_text(extra="'extra': 1, "))),
        "twice": lambda: write(raw(dict_text(extra="'shape': (4, 3), "))),
        "bad-bool": lambda: write(raw(dict_text(fortran="0"))),
        "negative": lambda: write(raw(dict_text(shape="(4, -3)"))),
        "not-tuple": lambda: write(raw(dict_text(shape="(12)"))),
        "after": lambda: write(raw(dict_text() + " x")),
        "unterminated": lambda: write(raw("{'descr': '<f8")),
        "big-endian": lambda: save(A.astype(">f8")),
        "unsigned": lambda: save(A.astype("<u4")),
        "object": lambda: save(A.astype(object), allow_pickle=True),
        "structured": lambda: save(np.zeros((4, 3), dtype=[("x", "<f8")])),
        "shape": lambda: save(A.reshape(3, 4)),
        "rank": lambda: save(A.reshape(12)),
        "f32": lambda: save(A.astype(np.float32)),
        "i64": lambda: save(A.astype(np.int64)),
        "truncated": lambda: write(good[:-5]),
        "trailing": lambda: write(good + b"xyz"),
    }
    if case == "compare":
        got = np.load("a.NPY")
        ok = got.dtype == A.dtype and np.array_equal(got, A)
        print("a.NPY: %s" % ("equal to A" if ok else "DIFFERS from A"))
        sys.exit(0 if ok else 1)
    cases[case]()


if __name__ == "__main__":
    main(sys.argv[1])
