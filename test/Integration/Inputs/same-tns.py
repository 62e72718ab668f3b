#!/usr/bin/env python3
"""same-tns.py [--f32] A.tns B.tns: exits 1 unless the FROSTT files hold
the same entries (coordinates and values, compared as numbers, rounded to
float32 first with --f32), whatever their order and comments. For the order-3 test: a tensor read, then stored by
dist.store, must come back unchanged. Independent of dist."""
import struct
import sys

f32 = sys.argv[1:2] == ["--f32"]
args = sys.argv[2:] if f32 else sys.argv[1:]


def number(text):
    v = float(text)
    return struct.unpack("f", struct.pack("f", v))[0] if f32 else v


def entries(path):
    out = {}
    with open(path) as f:
        for l in f:
            t = l.split()
            if not t or t[0].startswith("#"):
                continue
            c = tuple(int(x) for x in t[:-1])
            if c in out:
                sys.exit("same-tns.py: %s: %s twice" % (path, c))
            out[c] = number(t[-1])
    return out


a, b = entries(args[0]), entries(args[1])
if a != b:
    diff = [c for c in set(a) | set(b) if a.get(c) != b.get(c)]
    sys.exit("same-tns.py: %s (%d entries) and %s (%d entries) differ at %d "
             "coordinates, e.g. %s: %s vs %s"
             % (args[0], len(a), args[1], len(b), len(diff),
                min(diff), a.get(min(diff)), b.get(min(diff))))
