"""The sparse II section of docs/performance.md (report.py), from the rows
bench_sparse2.py writes (suite "sparse2"): SDDMM against the
single-process reference, sums of sparse matrices against PETSc."""


def _num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def sparse2_section(rows, table):
    """The lines of the section (empty without sparse2 rows)."""
    allrows = [r for r in rows if r["suite"] == "sparse2"]
    srows = [r for r in allrows if r["kernel"] == "sddmm"]
    arows = [r for r in allrows if r["kernel"] == "spadd"]
    if not allrows:
        return []
    L = []
    w = L.append
    w("## Sparse II: SDDMM")
    w("")
    w("`bench.py --only sparse2` (benchmarks/bench_sparse2.py): A(i,j) = "
      "B(i,j) * C(i,k) * D(k,j), f64, B and A CSR with 32-bit indices, on "
      "generated matrices (dist.generate and the reference build the same "
      "matrix from the same seed). *dist*: rows blocked, C blocked like "
      "them, D replicated; *dist-nz*: B and A split by non-zeros, C "
      "replicated. *ref-sddmm* (benchmarks/baselines/sddmm_ref.c): one "
      "process, a hand CSR loop over OpenMP threads (dynamic chunks of "
      "rows, not bound to one core), D transposed inside each call in "
      "blocks as dist's leaf transposes it, the sum over k vectorized (omp "
      "simd) with k a compile-time constant (gcc -O3 -march=native); PETSc "
      "has no SDDMM. Times are medians of the timed calls after a warm-up. "
      "Speedup = the reference's time at as many threads as dist has ranks "
      "/ dist's time.")
    w("")
    body = []
    for r in sorted(srows, key=lambda r: (r["shape"], _num(r["ranks"]) or 0,
                                          r["impl"])):
        med = _num(r["median_s"])
        ratio = _num(r["ratio_blas"])
        load = _num(r["other_load"])
        body.append((r["shape"], r["param"], r["impl"], str(r["ranks"]),
                     str(r["threads"]),
                     f"{med * 1e3:.1f}" if med is not None else "",
                     f"{ratio:.2f}" if ratio is not None else "",
                     r["status"], f"{load:.2f}" if load is not None else ""))
    w(table(["matrix", "parameters", "implementation", "ranks", "threads",
             "median ms", "speedup", "status", "other load"], body))
    w("")
    verdicts = []
    for r in srows:
        ratio = _num(r["ratio_blas"])
        if ratio is None or str(r["ranks"]) != "2":
            continue
        verdicts.append(f"- {r['shape']}, {r['impl']} on 2 ranks: "
                        f"{ratio:.2f}x the reference with 2 threads "
                        f"(target 0.8x: {'met' if ratio >= 0.8 else 'not met'}).")
    if verdicts:
        w("Issue 15's target, SDDMM on 2 ranks at least 0.8x the "
          "single-process reference with 2 threads:")
        w("")
        L.extend(sorted(verdicts))
        w("")
    if arows:
        w("### Sums of sparse matrices")
        w("")
        w("A(i,j) = B(i,j) + C(i,j) + D(i,j), f64, three generated matrices "
          "of one kind (seeds 1, 2, 3), rows blocked. *petsc-add* "
          "(benchmarks/baselines/petsc_add.c): MatDuplicate(B), then "
          "MatAXPY(A, 1, C) and MatAXPY(A, 1, D) with "
          "DIFFERENT_NONZERO_PATTERN, and MatDestroy of the previous call's "
          "A, in each timed call (dist's call likewise frees the old output "
          "and assembles a new one). Speedup = PETSc's time / dist's at the "
          "same rank count.")
        w("")
        body = []
        for r in sorted(arows, key=lambda r: (r["shape"],
                                              _num(r["ranks"]) or 0,
                                              r["impl"])):
            med = _num(r["median_s"])
            ratio = _num(r["ratio_petsc"])
            load = _num(r["other_load"])
            body.append((r["shape"], r["param"], r["impl"], str(r["ranks"]),
                         f"{med * 1e3:.1f}" if med is not None else "",
                         f"{ratio:.2f}" if ratio is not None else "",
                         r["status"],
                         f"{load:.2f}" if load is not None else ""))
        w(table(["matrices", "parameters", "implementation", "ranks",
                 "median ms", "speedup vs PETSc", "status", "other load"],
                body))
        w("")
    return L
