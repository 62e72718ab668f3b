#!/usr/bin/env python3
"""Deterministic mutants of the dist seed inputs (no libFuzzer needed).

The seeds are the pieces make_corpus.py takes from examples/ and test/ (each
.mlir split at "// -----"). Each mutant applies one to three mutations, drawn
with a fixed random seed, so the same (seed, count) always gives the same
inputs on every machine and Python 3 version:

  flip       replace one byte by another printable byte (or a NUL / high byte)
  delete     delete one to three consecutive tokens
  duplicate  duplicate one to three consecutive tokens in place
  swap       exchange two tokens
  number     replace an integer literal by a huge, negative or boundary value
  truncate   cut the input at a random offset
  line       delete, duplicate or swap whole lines
  splice     insert a dist keyword or a token taken from another seed
  string     edit inside a string literal (layout, statement): the module
             still parses, so the dist verifiers and passes see it

    test/fuzz/mutate.py --count 300 --seed 1 --out /tmp/mutants
    test/fuzz/mutate.py --boundary --out /tmp/sweep   # every literal x every
                                                      # boundary value

fuzz-smoke (test/fuzz/smoke.py) imports this module.
"""

import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_corpus  # noqa: E402

TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"'          # string literal (index notation, layouts)
    r'|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?'  # number
    r'|[%@#!^]?[A-Za-z_][\w.$-]*'   # identifiers, SSA names, symbols, dialect.op
    r'|->|\S')                      # arrows and single punctuation

INTEGER = re.compile(r'(?<![\w.])-?\d+(?![\w.])')

SMALL = ["0", "1", "2", "3", "4", "5", "7", "8", "16", "64", "-1"]
NUMBERS = [
    "0", "-1", "-2", "1", "3", "7", "1000000",
    "2147483647", "2147483648", "-2147483648", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551616", "99999999999999999999999999",
]

KEYWORDS = [
    "dist.grid @m [2, 2]", "dist.grid @m [0]", "dist.grid @n [3]",
    "dist.alloc", "dist.fill", "dist.compute", "dist.redistribute",
    "dist.broadcast", "dist.allreduce", "dist.shift", "dist.send", "dist.recv",
    "!dist.tensor<8x8xf64, #dist.layout<@m, \"xy -> xy\">>",
    "#dist.layout<@m, \"xy -> x*\">", "\"xy -> yx\"", "\"xyz -> xy0\"",
    "distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2))", "split(k, ko, ki, 0)",
    "divide(k, ko, ki, -1)", "reorder({ki, ko})", "rotate(ko, {io, jo}, kos)",
    "communicate(A, jo)", "communicate({B, C}, ko)", "substitute({ii, ji, ki}, gemm)",
    "parallelize(ii)", "collapse(i, j, ij)", "\"A(i,j) = B(i,k) * C(k,j)\"",
    "\"A(i) = B(i,i,i)\"", "\"A(i,j) += A(i,j)\"", "\"a = b\"",
    "[(0) blocked, (1) blocked]", "[(0, 0), (1)]", "| (2 = 0)", "block_cyclic(0)",
    "memref<?xf64>", "memref<0xi64>", "index", "i1", "f16", "bf16", "complex<f64>",
    "{", "}", "(", ")", "[", "]", "<", ">", ",", ":", "=", "%a", "@m", "@nowhere",
]


def tokens(text):
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


def mutate_flip(rng, text, pool):
    if not text:
        return text
    i = rng.randrange(len(text))
    choice = rng.random()
    if choice < 0.05:
        c = "\0"
    elif choice < 0.10:
        c = chr(rng.randrange(0x80, 0x100))
    else:
        c = chr(rng.randrange(0x20, 0x7f))
    return text[:i] + c + text[i + 1:]


def mutate_delete(rng, text, pool):
    toks = tokens(text)
    if not toks:
        return text
    i = rng.randrange(len(toks))
    j = min(len(toks), i + rng.randint(1, 3)) - 1
    return text[:toks[i][0]] + text[toks[j][1]:]


def mutate_duplicate(rng, text, pool):
    toks = tokens(text)
    if not toks:
        return text
    i = rng.randrange(len(toks))
    j = min(len(toks), i + rng.randint(1, 3)) - 1
    span = text[toks[i][0]:toks[j][1]]
    return text[:toks[j][1]] + " " + span + text[toks[j][1]:]


def mutate_swap(rng, text, pool):
    toks = tokens(text)
    if len(toks) < 2:
        return text
    a, b = sorted(rng.sample(range(len(toks)), 2))
    (s1, e1), (s2, e2) = toks[a], toks[b]
    return text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]


def mutate_number(rng, text, pool):
    nums = list(INTEGER.finditer(text))
    if not nums:
        return mutate_splice(rng, text, pool)
    m = rng.choice(nums)
    value = rng.choice(SMALL if rng.random() < 0.5 else NUMBERS)
    return text[:m.start()] + value + text[m.end():]


def mutate_truncate(rng, text, pool):
    if len(text) < 2:
        return text
    return text[:rng.randrange(1, len(text))]


def mutate_line(rng, text, pool):
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i = rng.randrange(len(lines))
    what = rng.randrange(3)
    if what == 0:
        del lines[i]
    elif what == 1:
        lines.insert(i, lines[i])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def mutate_splice(rng, text, pool):
    if rng.random() < 0.5 or not pool:
        word = rng.choice(KEYWORDS)
    else:
        other = rng.choice(pool)
        toks = tokens(other)
        if not toks:
            return text
        s, e = rng.choice(toks)
        word = other[s:e]
    toks = tokens(text)
    at = rng.choice(toks)[rng.randrange(2)] if toks else 0
    return text[:at] + " " + word + " " + text[at:]


STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
STRING_BITS = ["x", "y", "z", "*", "0", "1", "->", " ", "i", "j", "k", "(", ")",
               ",", "+", "*", "=", "+=", "[", "]", "|", "A", "B", "(i,j)"]


def mutate_string(rng, text, pool):
    strs = [m for m in STRING.finditer(text)]
    if not strs:
        return mutate_number(rng, text, pool)
    m = rng.choice(strs)
    body = m.group(1)
    what = rng.randrange(4)
    if what == 0 and body:  # delete a character
        i = rng.randrange(len(body))
        body = body[:i] + body[i + 1:]
    elif what == 1:  # insert a piece
        i = rng.randrange(len(body) + 1)
        body = body[:i] + rng.choice(STRING_BITS) + body[i:]
    elif what == 2 and len(body) > 1:  # swap two characters
        i, j = sorted(rng.sample(range(len(body)), 2))
        body = body[:i] + body[j] + body[i + 1:j] + body[i] + body[j + 1:]
    else:  # another seed's string
        others = [x for t in rng.sample(pool, min(5, len(pool)))
                  for x in STRING.findall(t)]
        if others:
            body = rng.choice(others)
    return text[:m.start(1)] + body + text[m.end(1):]


MUTATORS = [
    ("flip", mutate_flip), ("delete", mutate_delete),
    ("duplicate", mutate_duplicate), ("swap", mutate_swap),
    ("number", mutate_number), ("number", mutate_number),
    ("truncate", mutate_truncate), ("line", mutate_line),
    ("splice", mutate_splice), ("string", mutate_string),
    ("string", mutate_string), ("string", mutate_string),
]


def clean(text):
    """A mutant must stay one piece of a -split-input-file batch."""
    return "\n".join(l for l in text.split("\n") if "// -----" not in l)


def mutants(root, count, seed):
    """[(name, text)]: `count` mutants of the seeds under `root`."""
    tagged = list(make_corpus.split_sources_tagged(root))
    if not tagged:
        raise SystemExit("mutate: no seed inputs under %s" % root)
    pool = [t for _, t, _ in tagged]
    # Three mutants in four start from a valid program (not a verifier test
    # expecting an error), so that many still reach the passes.
    valid = [(n, t) for n, t, neg in tagged if not neg] or \
        [(n, t) for n, t, _ in tagged]
    rng = random.Random(seed)
    out = []
    for n in range(count):
        seeds = valid if rng.random() < 0.75 else tagged
        name, text = seeds[rng.randrange(len(seeds))][:2]
        applied = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            label, fn = MUTATORS[rng.randrange(len(MUTATORS))]
            text = fn(rng, text, pool)
            applied.append(label)
        out.append(("m%03d.%s.%s" % (n, "+".join(applied), name), clean(text)))
    return out


# Boundary values for the systematic sweep: around dist's limits (2^20
# processors / parts, 2^50 tensor elements) and int32 / int64 edges.
BOUNDARY = ["0", "-1", "3", "1000003", "1048576", "1048577", "2147483648",
            "4294967298", "1125899906842624", "1125899906842625",
            "9223372036854775807"]
BOUNDARY_NUMBER = re.compile(r"(?<![\w.%@#])\d+(?![.\d])|(?<=\dx)\d+(?=x)")


def boundary_mutants(root, values=BOUNDARY):
    """[(name, text)]: every valid seed with one integer literal (including
    each tensor dimension) replaced by each boundary value. No randomness;
    about 9,000 inputs for the current seeds."""
    out = []
    for name, text, negative in make_corpus.split_sources_tagged(root):
        if negative:
            continue
        for k, m in enumerate(BOUNDARY_NUMBER.finditer(text)):
            for v in values:
                if v != m.group(0):
                    out.append(("b.%s.n%d.%s" % (name, k, v),
                                text[:m.start()] + v + text[m.end():]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boundary", action="store_true",
                    help="the systematic boundary-value sweep instead of random mutants")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    inputs = boundary_mutants(args.root) if args.boundary else \
        mutants(args.root, args.count, args.seed)
    for name, text in inputs:
        with open(os.path.join(args.out, name + ".mlir"), "w", encoding="utf-8",
                  errors="surrogateescape") as f:
            f.write(text)
    print("mutate: %d inputs in %s" % (len(inputs), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
