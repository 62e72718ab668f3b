#!/usr/bin/env python3
"""union-pattern.py OUT.mtx IN.mtx...: exits 1 unless OUT holds entries at
exactly the union of the inputs' coordinates (values aside). For the sum
of sparse matrices: A = B + C + D has the union of their patterns (an
entry whose sum is 0 is still stored). Independent of dist."""
import sys


def coords(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("%")]
    dims = tuple(int(x) for x in lines[0].split()[:2])
    return dims, {tuple(int(x) for x in l.split()[:2]) for l in lines[1:]}


out_dims, out = coords(sys.argv[1])
want = set()
for p in sys.argv[2:]:
    dims, cs = coords(p)
    if dims != out_dims:
        sys.exit("union-pattern.py: %s is %s, %s is %s" % (p, dims, sys.argv[1], out_dims))
    want |= cs
if out != want:
    sys.exit("union-pattern.py: %s: %d entries, the union has %d (%d missing, %d extra)"
             % (sys.argv[1], len(out), len(want), len(want - out), len(out - want)))
