#!/usr/bin/env python3
"""Writes a NumPy .npy file without NumPy (for dist-tensor from-npy tests).

  make-npy.py OUT DESCR SHAPE [--version 1|2] [--fortran] [--extra N]

DESCR is a dtype string ('<f8', '>f8', '<i4', '|u1', ...); SHAPE is like
2x3, or 'scalar'. The elements are 1, 2, 3, ... (row-major), packed for
DESCR; --extra N appends N junk bytes.
"""
import struct
import sys

args = sys.argv[1:]
out, descr, shape_s = args[:3]
version, fortran, extra = 1, False, 0
rest = args[3:]
while rest:
    if rest[0] == "--version":
        version = int(rest[1]); rest = rest[2:]
    elif rest[0] == "--fortran":
        fortran = True; rest = rest[1:]
    elif rest[0] == "--extra":
        extra = int(rest[1]); rest = rest[2:]
    else:
        sys.exit("unknown argument " + rest[0])
shape = () if shape_s == "scalar" else tuple(int(x) for x in shape_s.split("x"))
count = 1
for e in shape:
    count *= e
shape_txt = "(" + "".join("%d, " % e for e in shape)
shape_txt = shape_txt[:-2] + ",)" if len(shape) == 1 else shape_txt.rstrip(", ") + ")"
header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
    descr, "True" if fortran else "False", shape_txt)
pre = 10 if version == 1 else 12
pad = 64 - (pre + len(header) + 1) % 64
header = (header + " " * (pad % 64) + "\n").encode("latin1")
order = {"<": "<", ">": ">", "|": "<", "=": "<"}[descr[0]]
code = {"f8": "d", "f4": "f", "i8": "q", "i4": "i", "u1": "B", "c16": "dd",
        "i2": "h"}[descr[1:]]
data = b"".join(struct.pack(order + code, *([i + 1] * len(code)))
                for i in range(count))
with open(out, "wb") as f:
    f.write(b"\x93NUMPY" + bytes([version, 0]))
    f.write(struct.pack("<H" if version == 1 else "<I", len(header)))
    f.write(header)
    f.write(data + b"\xab" * extra)
