"""The dist programs of the one-sided benchmark (bench_onesided.py).

Each program multiplies C(i,j) = A(i,k) * B(k,j), n x n x n, f64, calls
@product 1 + reps times (the first call is the warm-up), and fills A and B
with seeds 1 and 2. The layouts:

  mismatched  A by rows over every grid axis, B by columns over every axis,
              C 2-D block-cyclic (blocks of n / 8): no Fig. 9 pattern fits
  matching    A, B and C 2-D blocked ("xy -> xy"): SUMMA's layouts

and the implementations:

  onesided-S        one dist.compute with stationary(S) (S = A, B, C or
                    auto: the cost model's choice)
  redist-summa      redistribute A and B to "xy -> xy", SUMMA into a C2 of
                    that layout, redistribute C2 to C (four timed steps)
  summa, cannon, pumma   DISTAL Fig. 9's 2-D algorithms (matching only)
"""

LAYOUTS = {
    "mismatched": ("[(0, 1) blocked, ()]", "[(), (0, 1) blocked]",
                   "[(0) block_cyclic(NB), (1) block_cyclic(NB)]"),
    "matching": ("[(0) blocked, (1) blocked]",) * 3,
}

SUMMA = ("distribute({i, j}, {io, jo}, {ii, ji}, Grid(GX, GY)), "
         "split(k, ko, ki, SPLIT), reorder({ko, ii, ji, ki}), "
         "communicate(C, jo), communicate({A, B}, ko), "
         "substitute({ii, ji, ki}, gemm)")
CANNON = ("distribute({i, j}, {io, jo}, {ii, ji}, Grid(GX, GY)), "
          "divide(k, ko, ki, STEPS), reorder({ko, ii, ji, ki}), "
          "rotate(ko, {io, jo}, kos), communicate(C, jo), "
          "communicate({A, B}, kos), substitute({ii, ji, ki}, gemm)")
PUMMA = ("distribute({i, j}, {io, jo}, {ii, ji}, Grid(GX, GY)), "
         "divide(k, ko, ki, STEPS), reorder({ko, ii, ji, ki}), "
         "rotate(ko, {io}, kos), communicate(C, jo), "
         "communicate({A, B}, kos), substitute({ii, ji, ki}, gemm)")


def _types(n, grid, layouts, names=("A", "B", "C")):
    g = ", ".join(map(str, grid))
    nb = max(1, n // 8)
    return [f"!{t} = !dist.tensor<{n}x{n}xf64, #dist.layout<@m, "
            f"{lay.replace('NB', str(nb))}>>"
            for t, lay in zip(names, layouts)], g


def _main(n, calls, extra_allocs, call):
    lines = ["func.func @main() -> i32 {",
             "  %a = dist.alloc : !A", "  %b = dist.alloc : !B",
             "  %c = dist.alloc : !C", *extra_allocs,
             "  dist.fill %a seed 1 : !A", "  dist.fill %b seed 2 : !B",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             f"  %n = arith.constant {calls} : index",
             "  scf.for %it = %c0 to %n step %c1 {", f"    {call}", "  }",
             "  %ok = arith.constant 0 : i32", "  return %ok : i32", "}"]
    return lines


def onesided(n, grid, case, stationary, calls, prefetch=2):
    types, g = _types(n, grid, LAYOUTS[case])
    return "\n".join([
        f"dist.grid @m [{g}]", *types,
        "func.func @product(%c: !C, %a: !A, %b: !B) {",
        '  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)',
        f"      schedule [stationary({stationary}), prefetch({prefetch})]"
        " : !C, !A, !B",
        "  return", "}",
        *_main(n, calls, [], "func.call @product(%c, %a, %b) : "
                             "(!C, !A, !B) -> ()")]) + "\n"


def _schedule(alg, grid, n, split):
    steps = max(grid)
    s = {"summa": SUMMA, "cannon": CANNON, "pumma": PUMMA}[alg]
    return (s.replace("GX", str(grid[0])).replace("GY", str(grid[1]))
            .replace("SPLIT", str(split)).replace("STEPS", str(steps)))


def fig9(n, grid, alg, calls, split):
    """A Fig. 9 algorithm on the matching layouts."""
    types, g = _types(n, grid, LAYOUTS["matching"])
    return "\n".join([
        f"dist.grid @m [{g}]", *types,
        "func.func @product(%c: !C, %a: !A, %b: !B) {",
        '  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c, A = %a, B = %b)',
        f"      schedule [{_schedule(alg, grid, n, split)}] : !C, !A, !B",
        "  return", "}",
        *_main(n, calls, [], "func.call @product(%c, %a, %b) : "
                             "(!C, !A, !B) -> ()")]) + "\n"


def redist_summa(n, grid, case, calls, split):
    """Redistribute A and B to SUMMA's layouts, SUMMA, redistribute C."""
    types, g = _types(n, grid, LAYOUTS[case])
    t2, _ = _types(n, grid, LAYOUTS["matching"], ("A2", "B2", "C2"))
    sched = _schedule("summa", grid, n, split)
    return "\n".join([
        f"dist.grid @m [{g}]", *types, *t2,
        "func.func @product(%c: !C, %a: !A, %b: !B, %a2: !A2, %b2: !B2, "
        "%c2: !C2) {",
        "  dist.redistribute %a into %a2 : !A into !A2",
        "  dist.redistribute %b into %b2 : !B into !B2",
        '  dist.compute "C(i,j) = A(i,k) * B(k,j)" (C = %c2, A = %a2, '
        "B = %b2)",
        f"      schedule [{sched}] : !C2, !A2, !B2",
        "  dist.redistribute %c2 into %c : !C2 into !C",
        "  return", "}",
        *_main(n, calls, ["  %a2 = dist.alloc : !A2",
                          "  %b2 = dist.alloc : !B2",
                          "  %c2 = dist.alloc : !C2"],
               "func.call @product(%c, %a, %b, %a2, %b2, %c2) : "
               "(!C, !A, !B, !A2, !B2, !C2) -> ()")]) + "\n"
