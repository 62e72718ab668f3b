"""The one-sided section of docs/performance.md (report.py), from the rows
bench_onesided.py writes (suite "onesided")."""


def _f(x, fmt):
    return format(x, fmt) if x is not None else ""


def onesided_section(rows, table):
    """The lines of the section (empty without one-sided rows)."""
    orows = [r for r in rows if r["suite"] == "onesided"]
    if not orows:
        return []
    L = []
    w = L.append
    w("## One-sided products")
    w("")
    w("`bench.py --only onesided` (benchmarks/bench_onesided.py, programs "
      "in benchmarks/onesided/programs.py): C = A * B, n x n x n f64, "
      "one OpenBLAS thread per rank, in one run. *Mismatched*: A by rows, "
      "B by columns, C 2-D block-cyclic (blocks of n / 8); the one-sided "
      "product with each stationary choice against redistributing A and B "
      "to SUMMA's layouts, SUMMA, and redistributing C back (the sum of "
      "the four steps' times). *Matching*: all three 2-D blocked; the "
      "one-sided product against DISTAL's Fig. 9 2-D algorithms. Times are "
      "medians of the timed calls after a warm-up. Speedup = reference "
      "time / one-sided time (reference: redistribute-then-SUMMA, or the "
      "best Fig. 9 algorithm). Words: the most any rank moved in a call "
      "(received, got or accumulated elements, counted by the runtime's "
      "profile; docs/runtime.md).")
    w("")
    body = []
    for r in sorted(orows, key=lambda r: (r["n"] or 0, r["ranks"] or 0,
                                          r["param"], r["impl"])):
        body.append((str(r["n"]), str(r["ranks"]), r["grid"], r["param"],
                     r["impl"], _f(r["median_s"], ".4f"),
                     _f(r["rate"], ".1f"),
                     _f(r["comm_bytes"], ".0f"),
                     _f(r["ratio_blas"], ".2f"), r["status"],
                     _f(r["other_load"], ".2f")))
    w(table(["n", "ranks", "grid", "layouts", "implementation", "median s",
             "GFLOP/s", "words / rank", "speedup", "status", "other load"],
            body))
    w("")
    # The targets at the largest n.
    big = max(r["n"] or 0 for r in orows)
    verdicts = []
    for ranks in sorted({r["ranks"] for r in orows}):
        at = [r for r in orows if r["n"] == big and r["ranks"] == ranks
              and r["status"] == "ok"]
        mis = [r for r in at if r["param"] == "mismatched"
               and r["impl"].startswith("onesided")
               and r["ratio_blas"] is not None]
        mat = [r for r in at if r["param"] == "matching"
               and r["impl"].startswith("onesided")
               and r["ratio_blas"] is not None]
        ref = [r for r in at if r["impl"] == "redist-summa"]
        if mis:
            best = max(mis, key=lambda r: r["ratio_blas"])
            auto = [r for r in mis if r["impl"] == "onesided-auto"]
            verdicts.append(
                f"- {ranks} ranks, mismatched layouts: best one-sided "
                f"({best['impl']}) {best['ratio_blas']:.2f}x "
                f"redistribute-then-SUMMA"
                + (f", the cost model's choice {auto[0]['ratio_blas']:.2f}x"
                   if auto else "")
                + f" (target 1.3x: {'met' if best['ratio_blas'] >= 1.3 else 'not met'}).")
            gemm = [r["prof_gemm_s"] for r in mis
                    if r.get("prof_gemm_s")]
            if ref and gemm:
                bound = ref[0]["median_s"] / min(gemm)
                verdicts.append(
                    f"- {ranks} ranks, the bound: the one-sided product's "
                    f"local GEMMs alone took {min(gemm):.3f} s, "
                    f"redistribute-then-SUMMA {ref[0]['median_s']:.3f} s, so "
                    f"no product that runs those GEMMs, even one that moved "
                    f"nothing, could be more than {bound:.2f}x faster than "
                    f"redistribute-then-SUMMA on this machine"
                    + (" (the 1.3x target is out of reach here)"
                       if bound < 1.3 else "") + ".")
            if ref and ref[0]["comm_bytes"] is not None and \
                    best["comm_bytes"] is not None:
                verdicts.append(
                    f"- {ranks} ranks, words per rank: one-sided "
                    f"{best['comm_bytes']:.0f}, redistribute-then-SUMMA "
                    f"{ref[0]['comm_bytes']:.0f} (target: never more: "
                    f"{'met' if best['comm_bytes'] <= ref[0]['comm_bytes'] else 'not met'}).")
        if mat:
            best = max(mat, key=lambda r: r["ratio_blas"])
            verdicts.append(
                f"- {ranks} ranks, matching layouts: one-sided "
                f"({best['impl']}) {best['ratio_blas']:.2f}x the best Fig. 9 "
                f"algorithm (target 0.95x: "
                f"{'met' if best['ratio_blas'] >= 0.95 else 'not met'}).")
    if verdicts:
        w(f"Targets at n = {big}:")
        w("")
        L.extend(verdicts)
        w("")
    return L
