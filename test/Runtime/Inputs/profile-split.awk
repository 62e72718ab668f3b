# Checks the per-rank rows of the profile report (test/Runtime/
# profile-categories.test): rank `last` computed for 0.3 s while the others
# waited for it at a barrier. Fields: rank total compute % comm % barrier %
# packing % [other %]. Prints "SPLIT OK" or the offending row.
/^dist: profile: +[0-9]+ / {
  n++
  r = $3; tot = $4; c = $5; w = $7; b = $9; p = $11; o = kernels ? 0 : $13
  if (c < 0 || w < 0 || b < 0 || p < 0 || o < 0) { print "NEGATIVE", $0; bad = 1 }
  # The columns add up to the total (each is rounded to 1e-6 s).
  d = c + w + b + p + o - tot
  if (d > 1e-5 || d < -1e-5) { print "SUM", $0; bad = 1 }
  # A little communication (one small allreduce), never the barrier's wait.
  if (w > 0.1) { print "COMM", $0; bad = 1 }
  if (r == last) {
    # The last rank's loop: compute in a computation, "other" outside one.
    loop = kernels ? c : o
    if (loop < 0.25) { print "LOOP", $0; bad = 1 }
    if (b > 0.1) { print "LAST-WAITED", $0; bad = 1 }
  } else if (b < 0.15) {
    print "BARRIER", $0; bad = 1
  }
}
END {
  if (n != last + 1) { print "rows:", n; bad = 1 }
  if (!bad) print "SPLIT OK"
}
