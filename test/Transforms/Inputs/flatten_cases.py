#!/usr/bin/env python3
"""Cases for flatten-machines-exact.test.

Writes DIR/exact.mlir (layouts on machines of nodes that flatten exactly)
and DIR/inexact.mlir (blocked-over-blocked extents that do not, one per
split with its expected error). Which is which is decided here by brute
force, element by element, from the definition of nested blocks (level l
deals the extent its part got from level l-1 in blocks of ceil(extent/Q));
nothing is shared with dist-flatten-machines' closed form. The test then
compares LayoutSemantics' per-processor elements and extents of every exact
case before and after the pass.
"""

import itertools
import os
import sys


def ceil_div(a, b):
    return (a + b - 1) // b


def nested_blocked(g, n, parts):
    """Part index at every level and the local index of g, nested."""
    idx = []
    extent = n
    for q_count in parts:
        b = ceil_div(extent, q_count)
        q = g // b
        g -= q * b
        extent = min(b, extent - q * b)
        idx.append(q)
    return tuple(idx), g


def flat_blocked(g, n, parts):
    """The same for one blocked distribution over all parts, inner fastest."""
    total = 1
    for q_count in parts:
        total *= q_count
    b = ceil_div(n, total)
    q = g // b
    idx = []
    for q_count in reversed(parts):
        idx.append(q % q_count)
        q //= q_count
    return tuple(reversed(idx)), g - (g // b) * b


def blocked_exact(n, parts):
    return all(nested_blocked(g, n, parts) == flat_blocked(g, n, parts)
               for g in range(n))


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    grids = {}
    exact, inexact = [], []

    def grid(levels):
        name = "g" + "_".join("x".join(map(str, l)) for l in levels)
        if name not in grids:
            kinds = ["node"] * (len(levels) - 1) + ["cpu"]
            grids[name] = "dist.grid @%s %s" % (name, ", ".join(
                "%s[%s]" % (k, ", ".join(map(str, l)))
                for k, l in zip(kinds, levels)))
        return name

    def add(shape, levels, strings, blocked_parts):
        """blocked_parts: per tensor dimension, the part counts per level
        of a dimension blocked at several levels (None otherwise)."""
        g = grid(levels)
        ty = "!dist.tensor<%sxf64, #dist.layout<@%s, %s>>" % (
            "x".join(map(str, shape)), g, ", ".join(strings))
        bad = [(d, n, parts) for d, (n, parts) in
               enumerate(zip(shape, blocked_parts))
               if parts and not blocked_exact(n, parts)]
        (inexact if bad else exact).append((ty, bad))

    # 1-D, blocked at both levels: every extent up to 13 on every
    # node[N], cpu[P] up to 4 x 4 (uneven sizes, empty nodes and CPUs).
    for n, nodes, cpus in itertools.product(range(1, 14), range(1, 5),
                                            range(1, 5)):
        add([n], [[nodes], [cpus]], ['"x -> x"', '"x -> x"'],
            [[nodes, cpus]])
    # Three levels: node[2], node[N], cpu[P].
    for n, nodes, cpus in itertools.product(range(1, 13), range(1, 4),
                                            range(1, 4)):
        add([n], [[2], [nodes], [cpus]],
            ['"x -> x"', '"x -> x"', '"x -> x"'], [[2, nodes, cpus]])
    # 2-D on node[2, 2], cpu[1, 2] (SUMMA over nodes and within them) and
    # several mesh modes per dimension at one level.
    for rows, cols in itertools.product([1, 3, 4, 5, 8], [2, 4, 6, 7]):
        add([rows, cols], [[2, 2], [1, 2]], ['"xy -> xy"', '"xy -> xy"'],
            [[2, 1], [2, 2]])
        add([rows, cols], [[2, 2], [2, 2]], ['"xy -> xy"', '"xy -> yx"'],
            [[2, 2], [2, 2]])
        add([rows, cols], [[2, 2], [2]], ['"xy -> xy"', '"xy -> x"'],
            [[2, 2], None])
    # Cyclic and block-cyclic at both levels, a dimension partitioned at
    # one level only, replication and fixed coordinates: always exact.
    for n in [1, 2, 3, 5, 7, 8, 11]:
        for nodes, cpus in [(2, 2), (3, 2), (2, 3), (1, 4), (4, 1)]:
            add([n], [[nodes], [cpus]], ['"x -> x" cyclic', '"x -> x" cyclic'],
                [None])
            add([n], [[nodes], [cpus]],
                ['"x -> x" block_cyclic(2)', '"x -> x" block_cyclic(2)'],
                [None])
            add([n, 3], [[nodes], [cpus]], ['"xy -> x"', '"xy -> y"'],
                [None, None])
            add([n, 2], [[nodes], [cpus, 2]], ['"xy -> *"', '"xy -> yx"'],
                [None, None])
            add([n, 2], [[nodes, 2], [cpus]], ['"xy -> x1"', '"xy -> *"'],
                [None, None])
            add([n, 2], [[nodes], [cpus, 2]], ['"xy -> x"', '"xy -> *0"'],
                [None, None])

    with open(os.path.join(out, "exact.mlir"), "w") as f:
        for decl in grids.values():
            f.write(decl + "\n")
        f.write("func.func @exact() {\n")
        for i, (ty, _) in enumerate(exact):
            f.write("  %%a%d = dist.alloc : %s\n" % (i, ty))
        f.write("  return\n}\n")
    with open(os.path.join(out, "inexact.mlir"), "w") as f:
        chunks = []
        for i, (ty, bad) in enumerate(inexact):
            d, n, parts = bad[0]
            chunk = "\n".join(grids.values()) + "\n"
            chunk += "func.func @inexact%d() {\n" % i
            chunk += ("  // expected-error @+1 {{dimension %d (extent %d) "
                      "is blocked over}}\n" % (d, n))
            chunk += "  %%a = dist.alloc : %s\n  return\n}\n" % ty
            chunks.append(chunk)
        f.write("\n// -----\n\n".join(chunks))
    print("flatten cases: %d exact, %d inexact" % (len(exact), len(inexact)))


if __name__ == "__main__":
    main()
