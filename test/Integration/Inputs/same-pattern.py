#!/usr/bin/env python3
"""same-pattern.py B.mtx A.mtx: exits 1 unless the MatrixMarket files hold
entries at exactly the same coordinates (the values may differ). For the
SDDMM test: A(i,j) = B(i,j) * ... has B's pattern. Independent of dist."""
import sys


def coords(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("%")]
    rows, cols, nnz = (int(x) for x in lines[0].split())
    cs = {tuple(int(x) for x in l.split()[:2]) for l in lines[1:]}
    if len(lines) - 1 != nnz or len(cs) != nnz:
        sys.exit("same-pattern.py: %s: %d entries, header says %d"
                 % (path, len(lines) - 1, nnz))
    return (rows, cols), cs


sb, b = coords(sys.argv[1])
sa, a = coords(sys.argv[2])
if sb != sa or a != b:
    sys.exit("same-pattern.py: %s (%dx%d, %d entries) and %s (%dx%d, %d "
             "entries) differ in pattern: %d only in the first, %d only in "
             "the second" % (sys.argv[1], sb[0], sb[1], len(b), sys.argv[2],
                             sa[0], sa[1], len(a), len(b - a), len(a - b)))
