"""Reads dist-auto-schedule's report (report=N) on stdin and prints the
ranks (for pick=K) of the first N candidates of every other grid
(" on @auto_grid_..."), N the first argument."""
import re
import sys

per = int(sys.argv[1])
seen = {}
picks = []
for line in sys.stdin:
    m = re.search(r"schedule auto: (?:chosen|rank (\d+)) of \d+: .* on @(\S+)$", line)
    if not m:
        continue
    grid = m.group(2)
    if seen.get(grid, 0) < per:
        seen[grid] = seen.get(grid, 0) + 1
        picks.append(m.group(1) or "1")
print(" ".join(picks))
