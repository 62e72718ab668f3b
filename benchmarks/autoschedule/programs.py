#!/usr/bin/env python3
"""Programs whose computation is left to dist-auto-schedule (`schedule
auto`), for test/Integration/auto-schedule.test and the sweep
(benchmarks/autoschedule/sweep.py):

  programs.py KERNEL GRID EXTENTS [CALLS]

KERNEL gemm | ttv | innerprod | ttm | mttkrp; GRID the grid's extents
("2,2"); EXTENTS the statement's index extents in the order of its
variables ("30,26,22" for gemm's i, j, k). The tensors are blocked over the
grid as DISTAL's examples lay them out (examples/distal); @main fills the
inputs and calls the computation CALLS times (default 2). As a module,
program(kernel, grid, extents, calls, schedule) gives the text, with
`schedule` ("auto" or a command list "[...]") in place of the schedule."""
import sys

KERNELS = {
    # statement, variables, tensors: (name, indices, layout for 1-D / 2-D / 3-D grids)
    "gemm": ("A(i,j) = B(i,k) * C(k,j)", "ijk",
             [("A", "ij", ["xy -> x", "xy -> xy", "xy -> xy0"]),
              ("B", "ik", ["xy -> x", "xy -> xy", "xy -> xy0"]),
              ("C", "kj", ["xy -> x", "xy -> xy", "xy -> xy0"])]),
    "ttv": ("A(i,j) = B(i,j,k) * c(k)", "ijk",
            [("A", "ij", ["xy -> x", "xy -> xy", "xy -> xy0"]),
             ("B", "ijk", ["xyz -> x", "xyz -> xy", "xyz -> xyz"]),
             ("c", "k", ["z -> *", "z -> **", "z -> **z"])]),
    "innerprod": ("a = B(i,j,k) * C(i,j,k)", "ijk",
                  [("a", "", [" -> *", " -> **", " -> ***"]),
                   ("B", "ijk", ["xyz -> x", "xyz -> xy", "xyz -> xyz"]),
                   ("C", "ijk", ["xyz -> x", "xyz -> xy", "xyz -> xyz"])]),
    "ttm": ("A(i,j,l) = B(i,j,k) * C(k,l)", "ijkl",
            [("A", "ijl", ["xyz -> x", "xyz -> xy", "xyz -> xyz"]),
             ("B", "ijk", ["xyz -> x", "xyz -> xy", "xyz -> xyz"]),
             ("C", "kl", ["xy -> *", "xy -> **", "xy -> ***"])]),
    "mttkrp": ("A(i,l) = B(i,j,k) * C(j,l) * D(k,l)", "iljk",
               [("A", "il", ["il -> i", "il -> i*", "il -> i**"]),
                ("B", "ijk", ["ijk -> i", "ijk -> ij", "ijk -> ijk"]),
                ("C", "jl", ["jl -> *", "jl -> *j", "jl -> *j*"]),
                ("D", "kl", ["kl -> *", "kl -> **", "kl -> **k"])]),
}


def program(kernel, grid, extents, calls=2, schedule="auto"):
    stmt, variables, tensors = KERNELS[kernel]
    ext = dict(zip(variables, extents))
    out = ["dist.grid @m [%s]" % ", ".join(map(str, grid))]
    for name, idx, layouts in tensors:
        shape = "".join("%dx" % ext[v] for v in idx)
        out.append('!%s = !dist.tensor<%sf64, #dist.layout<@m, "%s">>'
                   % (name, shape, layouts[len(grid) - 1]))
    args = ", ".join("%%%s: !%s" % (n, n) for n, _, _ in tensors)
    binds = ", ".join("%s = %%%s" % (n, n) for n, _, _ in tensors)
    types = ", ".join("!%s" % n for n, _, _ in tensors)
    out.append("func.func @kernel(%s) {" % args)
    out.append('  dist.compute "%s" (%s)\n      schedule %s : %s'
               % (stmt, binds, schedule, types))
    out.append("  return\n}")
    out.append("func.func @main() -> i32 {")
    for n, _, _ in tensors:
        out.append("  %%%s = dist.alloc : !%s" % (n, n))
    for k, (n, _, _) in enumerate(tensors[1:]):
        out.append("  dist.fill %%%s seed %d : !%s" % (n, k + 1, n))
    call = "  func.call @kernel(%s) : (%s) -> ()" % (
        ", ".join("%" + n for n, _, _ in tensors), types)
    out += [call] * calls
    out.append("  %ok = arith.constant 0 : i32\n  return %ok : i32\n}")
    return "\n".join(out) + "\n"


def main():
    kernel, grid, extents = sys.argv[1], sys.argv[2], sys.argv[3]
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    sys.stdout.write(program(kernel, [int(g) for g in grid.split(",")],
                             [int(e) for e in extents.split(",")], calls))


if __name__ == "__main__":
    main()
