#!/usr/bin/env python3
"""Instantiates a sparse test template: sparse-inst.py TEMPLATE KEY=VALUE...

Replaces every @KEY@ of TEMPLATE by VALUE and prints the result. Defaults:
T=f64, PW=32, CW=32, OP='=', K=4, CLAYOUT=blocked, PART=rows. CLAYOUT=blocked
or replicated becomes the dense operand's layout ("x -> x" / "x -> *", or
the "xy" forms for a matrix). PART=rows or nonzeros gives B's layout
(BLAYOUT: "xy -> x", or "xy -> x~", SpDISTAL's non-zero partition) and the
schedule (SCHED: the rows distributed, or the positions of the fused rows
and columns of B)."""
import re
import sys

vals = {"T": "f64", "PW": "32", "CW": "32", "OP": "=", "K": "4",
        "CLAYOUT": "blocked", "PART": "rows"}
for a in sys.argv[2:]:
    k, v = a.split("=", 1)
    vals[k] = v
text = open(sys.argv[1]).read()
matrix = "@K@" in text
dims = "xy" if matrix else "x"
vals["CLAYOUT"] = {"blocked": '"%s -> x"' % dims,
                   "replicated": '"%s -> *"' % dims}.get(vals["CLAYOUT"],
                                                        vals["CLAYOUT"])
part = vals.pop("PART")
if part not in ("rows", "nonzeros"):
    sys.exit("sparse-inst.py: PART is rows or nonzeros, not %s" % part)
vals.setdefault("BLAYOUT", '"xy -> x~"' if part == "nonzeros" else '"xy -> x"')
grid = "Grid(%s)" % vals.get("P", "@P@")
# The SpMV templates name their tensors a, B, c: they communicate at the
# distributed loop, as SpDISTAL's schedules do.
if part == "rows":
    vals.setdefault("SCHED", "distribute({i}, {io}, {ii}, %s)" % grid +
                    ("" if matrix else ", communicate({a, B, c}, io)"))
else:
    # SpDISTAL: fuse(i, j, f).pos(f, fp, B).divide(fp, fo, fi, P)
    #           .distribute(fo); j must be directly inside i to fuse.
    vals.setdefault("SCHED", ("reorder({i, j, k}), " if matrix else "") +
                    "fuse(i, j, f), pos(f, fp, B), "
                    "distribute({fp}, {fo}, {fi}, %s)" % grid +
                    ("" if matrix else ", communicate({a, B, c}, fo)"))
for k, v in vals.items():
    text = text.replace("@%s@" % k, v)
code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
if re.search(r"@[A-Z]+@", code):
    sys.exit("sparse-inst.py: a token is left in %s" % sys.argv[1])
print(text, end="")
