#!/usr/bin/env python3
"""Writes a dist program of one-sided products beyond one grid's matrices.

  onesided-more.py grids P       A, B and C on different grids of P
                                 processes (P = 4: [4] and [2, 2]; P = 6:
                                 [6], [2, 3] and [3, 2])
  onesided-more.py contract GRID contractions that matricize (several
                                 free or summed indices per group) and
                                 batched products (batch indices whole, or
                                 dealt out identically in all three)

Every product has sizes that do not divide the grid, '=' or '+=', f64 or
f32 and a stationary choice (A, B, C, auto) that varies; @main fills the
inputs and calls each product twice (the second call reuses the runtime's
windows). dist-run --check compares every copy of every output with the
runtime's own evaluator of the statement (not the one-sided code).
"""
import itertools
import random
import sys


def layouts(rank):
    """2-D layout spellings on a grid of `rank` axes."""
    if rank == 1:
        return ["[(0) blocked, ()]", "[(), (0) blocked]", "[(), ()]",
                "[(0) block_cyclic(2), ()]", "[(), (0) cyclic]"]
    return ["[(0) blocked, (1) blocked]", "[(1) blocked, (0) blocked]",
            "[(0) blocked, ()]", "[(), (1) blocked]", "[(), ()]",
            "[(0, 1) blocked, ()]", "[(), (1, 0) cyclic]",
            "[(0) block_cyclic(2), (1) block_cyclic(3)]"]


def grids_products(p, rng):
    shapes = {4: [[4], [2, 2]], 6: [[6], [2, 3], [3, 2]]}[p]
    names = [f"g{i}" for i in range(len(shapes))]
    decls = [f"dist.grid @{n} [{', '.join(map(str, s))}]"
             for n, s in zip(names, shapes)]
    combos = [c for c in itertools.product(range(len(shapes)), repeat=3)
              if len(set(c)) > 1]
    prods = []
    for i, (ga, gb, gc) in enumerate(combos):
        m, k, n = rng.choice([7, 13]), rng.choice([5, 11]), rng.choice([9, 3])
        lay = [rng.choice(layouts(len(shapes[g]))) for g in (ga, gb, gc)]
        ts = [(f"#dist.layout<@{names[g]}, {l}>") for g, l in
              zip((ga, gb, gc), lay)]
        prods.append((i, "C(i,j) {acc} A(i,k) * B(k,j)",
                      [(m, k), (k, n), (m, n)], ts))
    return decls, prods


def contract_products(grid, rng):
    decls = [f"dist.grid @m [{', '.join(map(str, grid))}]"]
    two = len(grid) == 2
    x = "(0)"
    y = "(1)" if two else "(0)"
    L = lambda *dims: "#dist.layout<@m, [" + ", ".join(dims) + "]>"
    prods = []
    # Several free / summed indices per group: i.. = (i, l), k.. = (k, q).
    st = "C(i,l,j) {acc} A(i,l,k,q) * B(k,q,j)"
    sh = [(5, 3, 2, 3), (2, 3, 7), (5, 3, 7)]
    for la, lb, lc in [
            (L(f"{x} blocked", "()", "()", "()"),
             L(f"{y} cyclic", "()", "()"), L("()", "()", f"{y} blocked")),
            (L("()", "()", f"{x} block_cyclic(1)", "()"),
             L("()", "()", "()"), L(f"{x} block_cyclic(2)", "()", "()")),
            (L("()", "()", "()", "()"),
             L("()", "()", f"{y} blocked"), L(f"{x} cyclic", "()", "()")),
    ]:
        prods.append((len(prods), st, sh, [la, lb, lc]))
    # An inner index dealt out in blocks that divide it (2 x 2 per cycle).
    prods.append((len(prods), "C(i,l,j) {acc} A(i,l,k) * B(k,j)",
                  [(3, 8, 5), (5, 6), (3, 8, 6)],
                  [L("()", f"{x} block_cyclic(2)", "()"),
                   L("()", f"{y} blocked"),
                   L("()", f"{x} block_cyclic(2)", "()")]))
    # Batch indices whole: one product per batch element.
    st = "C(b,i,j) {acc} A(b,i,k) * B(b,k,j)"
    sh = [(3, 7, 5), (3, 5, 9), (3, 7, 9)]
    for la, lb, lc in [
            (L("()", f"{x} blocked", "()"), L("()", "()", f"{y} blocked"),
             L("()", f"{x} cyclic", f"{y} blocked" if two else "()")),
            (L("()", "()", "()"), L("()", f"{x} block_cyclic(2)", "()"),
             L("()", "()", f"{x} blocked")),
    ]:
        prods.append((len(prods), st, sh, [la, lb, lc]))
    # Two batch indices and two free ones on A's side.
    prods.append((len(prods), "C(b,c,i,l,j) {acc} A(b,c,i,l,k) * B(b,c,k,j)",
                  [(2, 2, 3, 2, 5), (2, 2, 5, 4), (2, 2, 3, 2, 4)],
                  [L("()", "()", f"{x} blocked", "()", "()"),
                   L("()", "()", "()", f"{y} cyclic"),
                   L("()", "()", "()", "()", f"{x} blocked")]))
    if two:
        # Batch dealt out identically over axis 0 (3 over 2 processes, so
        # one process row has one batch element more than the other).
        prods.append((len(prods), st, sh,
                      [L("(0) blocked", "(1) blocked", "()"),
                       L("(0) blocked", "()", "(1) blocked"),
                       L("(0) blocked", "()", "()")]))
        prods.append((len(prods), st, [(5, 7, 5), (5, 5, 9), (5, 7, 9)],
                      [L("(0) cyclic", "()", "()"),
                       L("(0) cyclic", "()", "(1) blocked"),
                       L("(0) cyclic", "(1) cyclic", "()")]))
    return decls, prods


def main():
    mode = sys.argv[1]
    rng = random.Random(7)
    if mode == "grids":
        decls, prods = grids_products(int(sys.argv[2]), rng)
    else:
        decls, prods = contract_products(
            [int(v) for v in sys.argv[2].split("x")], rng)
    out = decls + [""]
    calls, allocs = [], []
    stationary = ["A", "B", "C", "auto"]
    for p, stmt, shapes, lays in prods:
        elt = "f32" if p % 5 == 4 else "f64"
        acc = "+=" if p % 3 == 1 else "="
        sched = [f"stationary({stationary[p % 4]})"]
        if p % 2:
            sched.append(f"prefetch({1 + p % 3})")
        if p % 4 == 3:
            sched.append("offset(off)")
        ta, tb, tc = (f"!dist.tensor<{'x'.join(map(str, s))}x{elt}, {l}>"
                      for s, l in zip(shapes, lays))
        out += [f"func.func @p{p}(%c: {tc}, %a: {ta}, %b: {tb}) {{",
                f'  dist.compute "{stmt.format(acc=acc)}" '
                f"(C = %c, A = %a, B = %b)",
                f"      schedule [{', '.join(sched)}] : {tc}, {ta}, {tb}",
                "  return", "}", ""]
        for name, t, seed in (("a", ta, 3 * p + 1), ("b", tb, 3 * p + 2),
                              ("c", tc, 3 * p + 3)):
            allocs += [f"  %{name}{p} = dist.alloc : {t}",
                       f"  dist.fill %{name}{p} seed {seed} : {t}"]
        for _ in range(2):
            calls.append(f"  func.call @p{p}(%c{p}, %a{p}, %b{p}) : "
                         f"({tc}, {ta}, {tb}) -> ()")
    out += ["func.func @main() -> i32 {", *allocs, *calls,
            "  %ok = arith.constant 0 : i32", "  return %ok : i32", "}"]
    print("\n".join(out))


main()
