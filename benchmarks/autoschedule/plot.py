#!/usr/bin/env python3
"""The sweep's plot (docs/autoschedule.md): from sweep.py's results.csv,

  left:  every candidate's measured time against its predicted time
         (log-log), one colour per shape and rank count, the automatic
         choice ringed, the best measured candidate a cross (the best of
         the finalists, rows noted "final", when there are any);
  right: the automatic choice's time over the best measured one per shape
         and rank count, with the targets' 1.1x and 1.5x lines.

  benchmarks/autoschedule/plot.py RESULTS.csv OUT.png

Needs matplotlib (Debian's python3-matplotlib; run it with /usr/bin/python3).
"""
import collections
import csv
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = collections.OrderedDict()
    with open(sys.argv[1]) as f:
        for row in csv.DictReader(f):
            if not row["measured_s"]:
                continue
            key = "%s, %s rank(s)" % (row["shape"], row["ranks"])
            groups.setdefault(key, []).append(
                (int(row["rank"]), float(row["predicted_s"]), float(row["measured_s"]),
                 row["note"] == "final"))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5.5))
    cmap = plt.get_cmap("tab20")
    names, ratios = [], []
    for n, (key, pts) in enumerate(groups.items()):
        colour = cmap(n % 20)
        ax.scatter([p for _, p, _, _ in pts], [m for _, _, m, _ in pts], s=10,
                   color=colour, label=key, alpha=0.7)
        chosen = min(pts, key=lambda x: x[0])
        # The best of the finalists (note "final": measured again, their
        # median), as sweep.py compares them; results from before the final
        # rounds kept fresh medians have none: the best of all.
        final = [p for p in pts if p[3]] or pts
        best = min(final, key=lambda x: x[2])
        ax.scatter([chosen[1]], [chosen[2]], s=90, facecolors="none",
                   edgecolors=colour, linewidths=1.5)
        ax.scatter([best[1]], [best[2]], s=60, marker="x", color=colour)
        names.append(key)
        ratios.append(chosen[2] / best[2])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("predicted seconds per call")
    ax.set_ylabel("measured seconds per call")
    ax.set_title("every candidate (ring: chosen, cross: best measured)")
    ax.legend(fontsize=6, ncol=2)
    bx.barh(range(len(names)), ratios, color=[cmap(i % 20) for i in range(len(names))])
    bx.set_yticks(range(len(names)))
    bx.set_yticklabels(names, fontsize=7)
    bx.invert_yaxis()
    for x, style in ((1.1, "--"), (1.5, ":")):
        bx.axvline(x, color="black", linestyle=style, linewidth=1)
    bx.set_xlabel("chosen / best measured (targets: 1.1x on 90 %, never 1.5x)")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
