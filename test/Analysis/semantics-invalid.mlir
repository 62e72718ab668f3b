// Cases the semantic model refuses: reported as errors, never crashes.
// RUN: dist-opt %s --test-dist-semantics -o /dev/null -verify-diagnostics

// The exact relation of a hierarchical layout has one disjunct per
// outer-level processor; more than 2^14 of them is refused.
dist.grid @huge node[200, 100], cpu[2]

func.func @too_many_outer_processors() {
  // expected-error @below {{the outer levels of the machine have 20000 processors; the exact relation of a hierarchical layout is built for at most 16384}}
  %a = dist.alloc : !dist.tensor<400x200xf64, #dist.layout<@huge, "xy -> xy", "xy -> x*">>
  return
}
