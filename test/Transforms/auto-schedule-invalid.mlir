// RUN: dist-opt %s --dist-auto-schedule=grid-shapes=0 -split-input-file -verify-diagnostics
// (On the tensors' own grids: with other shapes, the second case runs on a
// grid of 4, test/Transforms/auto-schedule-grids.mlir.)

// A machine of nodes is flattened first (dist-flatten-machines, which
// dist-to-llvm runs before this pass); alone, the pass refuses it.
dist.grid @h node[2], cpu[2]
!H = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> x", "xy -> x">>
func.func @nodes(%a: !H, %b: !H) {
  // expected-error @below {{'dist.compute' op schedule auto needs the output on a one-level machine in scope (dist-flatten-machines flattens machines of nodes first)}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b) schedule auto : !H, !H
  return
}

// -----

// More grid dimensions of extent above 1 than the statement has variables:
// no candidate distributes a loop on each.
dist.grid @m [2, 2]
!V = !dist.tensor<8xf64, #dist.layout<@m, "x -> x*">>
func.func @few(%a: !V, %b: !V) {
  // expected-error @below {{'dist.compute' op schedule auto: none of the 1 candidate schedules verifies and lowers for this statement on this machine; write a schedule (docs/autoschedule.md)}}
  dist.compute "A(i) = B(i)" (A = %a, B = %b) schedule auto : !V, !V
  return
}
