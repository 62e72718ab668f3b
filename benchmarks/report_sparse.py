"""The sparse section of docs/performance.md (imported by report.py).

Rows of suite "sparse" (bench.py --only sparse): per matrix and rank count,
the median time of SpMV and SpMM (k columns) for PETSc, Tpetra and dist,
dist's speedup over each (baseline time / dist time, above 1: dist is
faster), and the achieved bandwidth of the CSR model against an MPI triad
measured in the same run.
"""

import os
import re


def _f(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _key(r):
    return (r["shape"], r["kernel"], r["ranks"])


def sparse_rows(rows):
    return [r for r in rows if r.get("suite") == "sparse"
            and r.get("status") == "ok"]


def _by_impl(rows):
    """{(shape, kernel, ranks): {impl: row}}"""
    out = {}
    for r in rows:
        if r["kernel"] == "triad":
            continue
        out.setdefault(_key(r), {})[r["impl"]] = r
    return out


def sparse_plots(rows, plotdir, docdir, plt):
    """One bar chart per kernel: dist's speedup over PETSc and Tpetra at
    every matrix and rank count."""
    made = []
    rel = os.path.relpath(plotdir, docdir)
    groups = _by_impl(sparse_rows(rows))
    for kernel in ("spmv", "spmm"):
        keys = sorted(k for k in groups if k[1] == kernel
                      and "dist" in groups[k])
        if not keys:
            continue
        labels, petsc, tpetra = [], [], []
        for k in keys:
            g = groups[k]
            d = _f(g["dist"]["median_s"])
            labels.append(f"{k[0].split('-')[0][:10]}\n{k[2]} rk")
            petsc.append(_f(g["petsc"]["median_s"]) / d
                         if "petsc" in g and d else 0)
            tpetra.append(_f(g["tpetra"]["median_s"]) / d
                          if "tpetra" in g and d else 0)
        fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(keys)), 3.6))
        xs = range(len(keys))
        ax.bar([x - 0.2 for x in xs], petsc, 0.4, label="PETSc time / dist time")
        ax.bar([x + 0.2 for x in xs], tpetra, 0.4,
               label="Tpetra time / dist time")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("speedup of dist")
        ax.set_title(f"{kernel.upper()}: dist against PETSc and Tpetra "
                     "(above 1: dist faster)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        name = f"sparse-{kernel}.png"
        fig.savefig(os.path.join(plotdir, name), dpi=110)
        plt.close(fig)
        made.append(f"{rel}/{name}")
    return made


def sparse_section(rows, made, table):
    """The lines of the sparse section (empty without sparse rows)."""
    srows = sparse_rows(rows)
    if not srows:
        return []
    L = []
    w = L.append
    # Rounds per matrix, from the notes bench.py writes.
    by_rounds = {}
    for r in srows:
        if r.get("kernel") not in ("spmv", "spmm"):
            continue
        m = re.search(r"the least disturbed of (\d+) alternating",
                      r.get("note", ""))
        by_rounds.setdefault(int(m.group(1)) if m else 1, set()).add(
            r["shape"])
    rounds = "; ".join(f"{n} for {', '.join(sorted(shapes))}"
                       for n, shapes in sorted(by_rounds.items(),
                                               reverse=True))
    w("## Sparse SpMV and SpMM (f64)")
    w("")
    w("`bench.py --only sparse`: PETSc `MatMult` (MATMPIAIJ) and "
      "`MatMatMult` (MATMPIDENSE), Tpetra `CrsMatrix::apply`, and dist's "
      "compiled program (benchmarks/sparse/dist-product.mlir: the exchange "
      "plan with overlap, sparsifier leaves, 32-bit indices) on the same "
      "matrices with the same row blocks, in one run. Times are medians of "
      "the timed calls after a warm-up (each call's time is the maximum "
      "over the ranks): 20 calls for the big matrices, up to 500 (about "
      "0.25 s of SpMV) for the small ones. Each matrix is measured in "
      f"rounds ({rounds}) with the implementations taking turns, each "
      "keeping its lowest median (the notes of results.csv list every "
      "round). Speedup = baseline time / dist time (above 1: dist "
      "is faster). GB/s counts the CSR model (12 bytes an entry, the "
      "vectors once) against an MPI triad at the same rank count; small "
      "matrices fit in cache and can exceed it.")
    w("")
    for p in made:
        if "sparse-" in p:
            w(f"![{os.path.basename(p)}]({p})")
            w("")
    groups0 = _by_impl(srows)

    def speed(shape_prefix, kernel):
        out = []
        for (shape, kern, ranks), g in sorted(groups0.items()):
            if (kern == kernel and ranks == 2 and shape.startswith(shape_prefix)
                    and "dist" in g and "petsc" in g):
                out.append((shape, _f(g["petsc"]["median_s"])
                            / _f(g["dist"]["median_s"])))
        return out

    def verdict(items, goal):
        return "; ".join(f"{n}: {v:.2f}× ({'met' if v >= goal else 'not met'})"
                         for n, v in items) or "not measured"
    files = [n for (n, k, r) in groups0 if not n.startswith(("banded", "rmat"))]
    w("Targets of issue 14 (2 ranks, f64, speed = PETSc time / dist time):")
    w("")
    w(f"- SpMV on the banded matrix, at least 1.0×: {verdict(speed('banded', 'spmv'), 1.0)}.")
    w(f"- SpMV on R-MAT, at least 1.3×: {verdict(speed('rmat', 'spmv'), 1.3)}.")
    real = [x for f in sorted(set(files)) for x in speed(f, "spmv")]
    w(f"- SpMV on the real matrices, at least 1.3×: {verdict(real, 1.3)}.")
    w(f"- SpMM (k = 32), at least 1.5×: {verdict(speed('', 'spmm'), 1.5)}.")
    w("")
    triad = {r["ranks"]: _f(r.get("rate")) for r in srows
             if r["kernel"] == "triad"}
    groups = _by_impl(srows)
    body = []
    for k in sorted(groups):
        g = groups[k]
        d = g.get("dist")

        def ms(impl):
            r = g.get(impl)
            return f"{_f(r['median_s']) * 1e3:.3f}" if r else "-"

        def sp(impl):
            r = g.get(impl)
            if not (r and d and _f(d["median_s"])):
                return "-"
            return f"{_f(r['median_s']) / _f(d['median_s']):.2f}"
        gbs = ""
        if d and d.get("note"):
            gbs = d["note"].split(" GB/s")[0]
        nz = g.get("dist-nz")
        nz_sp = (f"{_f(g['petsc']['median_s']) / _f(nz['median_s']):.2f}"
                 if nz and g.get("petsc") and _f(nz["median_s"]) else "-")
        body.append([k[0], k[1], str(k[2]), ms("petsc"), ms("tpetra"),
                     ms("dist"), sp("petsc"), sp("tpetra"),
                     ms("dist-nz"), nz_sp,
                     gbs or "-",
                     f"{triad[k[2]]:.1f}" if triad.get(k[2]) else "-"])
    w(table(["matrix", "kernel", "ranks", "PETSc ms", "Tpetra ms", "dist ms",
             "speedup vs PETSc", "vs Tpetra", "dist nz ms", "nz vs PETSc",
             "dist GB/s", "triad GB/s"],
            body))
    w("")
    w("The R-MAT matrices are not permuted: with rows blocked, the first "
      "rank holds most entries (the per-rank counts are in results.csv's "
      "note column), which bounds every library's scaling on them. "
      "\"dist nz\" is dist with the matrix stored with SpDISTAL's "
      "non-zero partition (\"xy -> x~\", scheduled by positions: every "
      "rank holds ceil(nnz / P) entries). 4 ranks oversubscribe this "
      "2-core machine.")
    w("")
    return L
