"""The sparse III section of docs/performance.md (report.py), from the rows
bench_sparse3.py writes (suite "sparse3"): SpTTV and SpMTTKRP on an
order-3 sparse tensor against the single-process reference."""

KERNELS = {"ttv": "SpTTV A(i,j) = B(i,j,k) * c(k)",
           "mttkrp": "SpMTTKRP A(i,l) = B(i,j,k) * C(j,l) * D(k,l)"}


def _num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _impl_key(impl):
    return (0 if impl.startswith("ref-") else 1 if impl == "dist" else 2,
            impl)


def sparse3_section(rows, table):
    """The lines of the section (empty without sparse3 rows)."""
    srows = [r for r in rows if r["suite"] == "sparse3"]
    if not srows:
        return []
    L = []
    w = L.append
    w("## Sparse III: SpTTV and SpMTTKRP")
    w("")
    w("`bench.py --only sparse3` (benchmarks/bench_sparse3.py): SpTTV "
      "A(i,j) = B(i,j,k) * c(k) (A sparse with B's (i,j) pattern) and "
      "SpMTTKRP A(i,l) = B(i,j,k) * C(j,l) * D(k,l) (A dense, L columns), "
      "f64, on 3-tensors of about 10M non-zeros: uniform random "
      "(dist.generate uniform) and power-law in every mode like FROSTT's "
      "tensors (dist.generate rmat: distrt_coo_gen_kronecker); dist and "
      "the reference build the same tensor from the same seed; stored as "
      "CSF with a dense root and 32-bit positions and "
      "coordinates. *dist*: B (and TTV's A) rows blocked, c, C and D "
      "replicated, MTTKRP's A rows blocked; *dist-nz*: B (and TTV's A) "
      "split by non-zeros (its (i,j) fibers), scheduled by the fused (i,j) "
      "positions; *dist-ent*: stored as for dist-nz, computed on B's "
      "entries split equally (all three levels fused; fibers split between "
      "processes summed). *ref-ttv*, "
      "*ref-mttkrp* (benchmarks/baselines/sptensor_ref.c): one process, a "
      "hand CSF loop over OpenMP threads (dynamic chunks of rows, not "
      "bound to one core); MTTKRP sums B(i,j,k) D(k,l) per fiber, "
      "vectorized over l with L a compile-time constant, then scales by "
      "C(j,l) (gcc -O3 -march=native); PETSc has no such kernels. Times "
      "are medians of the timed calls after a warm-up. Speedup = the "
      "reference's time at as many threads as dist has ranks / dist's "
      "time.")
    w("")
    body = []
    order = list(KERNELS)
    for r in sorted(srows, key=lambda r: (
            order.index(r["kernel"]) if r["kernel"] in order else 9,
            r["shape"], _num(r["threads"]) or 0, _impl_key(r["impl"]))):
        med = _num(r["median_s"])
        ratio = _num(r["ratio_blas"])
        load = _num(r["other_load"])
        body.append((r["kernel"], r["param"], r["impl"], str(r["ranks"]),
                     str(r["threads"]),
                     f"{med * 1e3:.1f}" if med is not None else "",
                     f"{ratio:.2f}" if ratio is not None else "",
                     r["status"], f"{load:.2f}" if load is not None else ""))
    w(table(["kernel", "tensor", "implementation", "ranks", "threads",
             "median ms", "speedup", "status", "other load"], body))
    w("")
    verdicts = []
    for r in srows:
        ratio = _num(r["ratio_blas"])
        if ratio is None or str(r["ranks"]) != "2":
            continue
        verdicts.append(f"- {r['kernel']}, {r['impl']} on 2 ranks, "
                        f"{r['shape']}: "
                        f"{ratio:.2f}x the reference with 2 threads "
                        f"(target 0.8x: {'met' if ratio >= 0.8 else 'not met'}).")
    if verdicts:
        w("Issue 15's target, on 2 ranks at least 0.8x the single-process "
          "reference with 2 threads:")
        w("")
        L.extend(sorted(verdicts))
        w("")
    return L
