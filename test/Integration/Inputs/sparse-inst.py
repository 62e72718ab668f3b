#!/usr/bin/env python3
"""Instantiates a sparse test template: sparse-inst.py TEMPLATE KEY=VALUE...

Replaces every @KEY@ of TEMPLATE by VALUE and prints the result. Defaults:
T=f64, PW=32, CW=32, OP='=', K=4, CLAYOUT=blocked. CLAYOUT=blocked or
replicated becomes the dense operand's layout ("x -> x" / "x -> *", or
the "xy" forms for a matrix)."""
import re
import sys

vals = {"T": "f64", "PW": "32", "CW": "32", "OP": "=", "K": "4",
        "CLAYOUT": "blocked"}
for a in sys.argv[2:]:
    k, v = a.split("=", 1)
    vals[k] = v
text = open(sys.argv[1]).read()
matrix = "@K@" in text
dims = "xy" if matrix else "x"
vals["CLAYOUT"] = {"blocked": '"%s -> x"' % dims,
                   "replicated": '"%s -> *"' % dims}.get(vals["CLAYOUT"],
                                                        vals["CLAYOUT"])
for k, v in vals.items():
    text = text.replace("@%s@" % k, v)
code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
if re.search(r"@[A-Z]+@", code):
    sys.exit("sparse-inst.py: a token is left in %s" % sys.argv[1])
print(text, end="")
