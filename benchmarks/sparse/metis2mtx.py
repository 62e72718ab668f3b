#!/usr/bin/env python3
"""Converts a METIS graph file (.graph) into a symmetric MatrixMarket file
for the sparse benchmarks.

  metis2mtx.py GRAPH OUT.mtx [--values laplacian|one|pattern]

METIS format: '%' lines are comments; the first line is "n m [fmt [ncon]]"
(n vertices, m undirected edges; fmt "abc": a = vertex sizes, b = vertex
weights (ncon of them), c = edge weights); then line i (1-based) lists the
neighbours of vertex i, each edge appearing on both of its endpoints'
lines.  Weights and sizes are skipped.

The output stores the lower triangle (row >= column) of the n x n matrix,
"coordinate real symmetric" (or "pattern symmetric"):
  laplacian (default)  off-diagonal -1 for each edge, diagonal degree + 1:
                       symmetric positive definite, every row has an entry;
  one                  1.0 for each edge, no diagonal;
  pattern              the edges, no values, no diagonal.
Checks that the file is consistent: n lines of vertices, indices in 1..n,
no self-loops, every edge listed by both endpoints, and 2 m neighbours in
all.

Example graphs (Debian libmetis-doc): /usr/share/doc/libmetis-dev/
examples/graphs/{4elt,copter2,mdual}.graph.  Real Harwell-Boeing matrices
(scilab-doc) need no conversion: distrt reads them directly, e.g.
/usr/share/scilab/modules/umfpack/demos/bcsstk24.rsa (3562 x 3562, RSA).
"""

import argparse
import sys


def read_graph(path):
    with open(path) as f:
        lines = (l for l in f if not l.startswith("%"))
        head = next(lines).split()
        n, m = int(head[0]), int(head[1])
        fmt = head[2] if len(head) > 2 else "0"
        fmt = fmt.rjust(3, "0")
        has_size, has_vwgt, has_ewgt = fmt[0] == "1", fmt[1] == "1", fmt[2] == "1"
        ncon = int(head[3]) if len(head) > 3 else (1 if has_vwgt else 0)
        adj = []
        for line in lines:
            if len(adj) == n:
                if line.strip():
                    sys.exit(f"{path}: more than {n} vertex lines")
                continue
            v = [int(t) for t in line.split()]
            skip = (1 if has_size else 0) + (ncon if has_vwgt else 0)
            v = v[skip:]
            nb = v[0::2] if has_ewgt else v
            adj.append(nb)
        if len(adj) != n:
            sys.exit(f"{path}: {len(adj)} vertex lines, the header says {n}")
    total = sum(len(a) for a in adj)
    if total != 2 * m:
        sys.exit(f"{path}: {total} neighbours in all, the header says 2 * {m}")
    return n, m, adj


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph")
    ap.add_argument("out")
    ap.add_argument("--values", choices=["laplacian", "one", "pattern"],
                    default="laplacian")
    a = ap.parse_args()
    n, m, adj = read_graph(a.graph)
    lower, upper = 0, 0
    entries = []
    for i, nb in enumerate(adj, 1):
        seen = set()
        for j in nb:
            if j < 1 or j > n:
                sys.exit(f"{a.graph}: vertex {i}: neighbour {j} out of range 1..{n}")
            if j == i:
                sys.exit(f"{a.graph}: vertex {i}: a self-loop")
            if j in seen:
                sys.exit(f"{a.graph}: vertex {i}: neighbour {j} listed twice")
            seen.add(j)
            if j < i:
                lower += 1
                entries.append((i, j))
            else:
                upper += 1
    if lower != upper or lower != m:
        sys.exit(f"{a.graph}: not symmetric: {lower} edges to lower, {upper} "
                 f"to higher vertices, {m} in the header")
    field = "pattern" if a.values == "pattern" else "real"
    diag = a.values == "laplacian"
    with open(a.out, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate {field} symmetric\n")
        f.write(f"% from {a.graph} by benchmarks/sparse/metis2mtx.py "
                f"--values {a.values}\n")
        f.write(f"{n} {n} {m + (n if diag else 0)}\n")
        out = []
        if diag:
            for i, nb in enumerate(adj, 1):
                out.append(f"{i} {i} {len(nb) + 1}\n")
        val = {"laplacian": " -1", "one": " 1", "pattern": ""}[a.values]
        for i, j in entries:
            out.append(f"{i} {j}{val}\n")
        f.writelines(out)
    print(f"metis2mtx: {a.graph}: {n} vertices, {m} edges -> {a.out} "
          f"({n}x{n}, {2 * m + (n if diag else 0)} entries after expansion)")


if __name__ == "__main__":
    main()
