#!/usr/bin/env python3
"""Writes a FROSTT .tns tensor of order 3 for the sparse tests.

    sparse-tns.py I J K PER_ROW SEED

About PER_ROW entries a slice i at pseudo-random (j, k), with every fifth
slice empty, fiber (1, 2) full (every k) and a first line of the largest
indices (so that the extents are I x J x K), values with three decimals in
[-1, 1). Independent of dist: the tests' inputs.
"""
import random
import sys

I, J, K, per_row, seed = (int(a) for a in sys.argv[1:6])
rng = random.Random(seed)
entries = {}
for i in range(I):
    if i % 5 == 4:
        continue
    for _ in range(per_row):
        entries[(i, rng.randrange(J), rng.randrange(K))] = None
    if i == 1 and J > 2:
        for k in range(K):
            entries[(1, 2, k)] = None
entries[(I - 1, J - 1, K - 1)] = None
print("# sparse-tns.py %s" % " ".join(sys.argv[1:]))
for c in sorted(entries):
    v = round(rng.uniform(-1, 1), 3) or 0.5
    print("%d %d %d %s" % (c[0] + 1, c[1] + 1, c[2] + 1, v))
