#!/usr/bin/env python3
"""Writes a dist program of one-sided matrix products for one grid.

  onesided-combos.py GRID [SEED]     GRID: 4 or 2x3 (the machine's extents)

Each product C(i,j) (+)= A(i,k) * B(k,j) has its own layouts of A, B and C,
drawn from the tilings of seed 004 (row, column, 2-D block, block-cyclic,
non-aligned blocks, replicated on one axis or everywhere), its own sizes
(none of them dividing the grid), '=' or '+=', f64 or f32, and a schedule
of stationary(A | B | C | auto), prefetch(1..3) and offset(on | off).
Every layout appears as A, B and C, and every stationary choice appears,
so a small number of products per grid covers the combinations; @main
fills the inputs and calls each product twice (the second call reuses the
runtime's windows). dist-run --check compares every copy of every output
with the runtime's own evaluator of the statement.
"""
import random
import sys


def layouts(grid):
    """Layout spellings (explicit form) for a 2-D tensor on `grid`."""
    if len(grid) == 1:
        return ["[(0) blocked, ()]", "[(), (0) blocked]", "[(), ()]",
                "[(0) block_cyclic(2), ()]", "[(), (0) cyclic]",
                "[(0) block_cyclic(3), ()]"]
    return ["[(0) blocked, (1) blocked]", "[(1) blocked, (0) blocked]",
            "[(0) blocked, ()]", "[(), (1) blocked]", "[(), ()]",
            "[(0, 1) blocked, ()]", "[(), (1, 0) blocked]",
            "[(0) block_cyclic(2), (1) block_cyclic(3)]",
            "[(1) cyclic, ()]"]


def main():
    grid = [int(x) for x in sys.argv[1].split("x")]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    ls = layouts(grid)
    n = max(len(ls), 8)
    # Every layout in every role, and every stationary choice.
    roles = [list(range(len(ls))) for _ in range(3)]
    for r in roles:
        rng.shuffle(r)
    stationary = ["A", "B", "C", "auto"]
    out = [f"dist.grid @m [{', '.join(map(str, grid))}]", ""]
    calls, allocs = [], []
    for p in range(n):
        la, lb, lc = (ls[roles[r][p % len(ls)]] for r in range(3))
        m, k, nn = rng.choice([7, 13, 1]), rng.choice([5, 11, 3]), \
            rng.choice([9, 17, 1])
        elt = "f32" if p % 5 == 4 else "f64"
        acc = "+=" if p % 3 == 1 else "="
        st = stationary[p % 4]
        sched = [f"stationary({st})"]
        if p % 2:
            sched.append(f"prefetch({1 + p % 3})")
        if p % 4 == 3:
            sched.append("offset(off)")
        ta = f"!dist.tensor<{m}x{k}x{elt}, #dist.layout<@m, {la}>>"
        tb = f"!dist.tensor<{k}x{nn}x{elt}, #dist.layout<@m, {lb}>>"
        tc = f"!dist.tensor<{m}x{nn}x{elt}, #dist.layout<@m, {lc}>>"
        out += [f"func.func @p{p}(%c: {tc}, %a: {ta}, %b: {tb}) {{",
                f'  dist.compute "C(i,j) {acc} A(i,k) * B(k,j)" '
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
