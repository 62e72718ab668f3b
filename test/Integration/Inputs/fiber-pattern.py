#!/usr/bin/env python3
"""fiber-pattern.py B.tns A.mtx: exits 1 unless the MatrixMarket matrix A
holds entries at exactly the (i, j) fibers of the order-3 tensor B (the
pairs (i, j) with some stored B(i, j, k)). For the SpTTV test: A(i,j) =
B(i,j,k) * c(k) keeps B's fibers as its pattern. Independent of dist."""
import sys


def fibers(path):
    with open(path) as f:
        return {tuple(int(x) for x in l.split()[:2]) for l in f
                if l.strip() and not l.startswith("#")}


def coords(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("%")]
    nnz = int(lines[0].split()[2])
    cs = {tuple(int(x) for x in l.split()[:2]) for l in lines[1:]}
    if len(lines) - 1 != nnz or len(cs) != nnz:
        sys.exit("fiber-pattern.py: %s: %d entries, header says %d"
                 % (path, len(lines) - 1, nnz))
    return cs


b, a = fibers(sys.argv[1]), coords(sys.argv[2])
if a != b:
    sys.exit("fiber-pattern.py: %s has %d fibers, %s %d entries: %d fibers "
             "missing, %d entries that are no fiber"
             % (sys.argv[1], len(b), sys.argv[2], len(a), len(b - a),
                len(a - b)))
