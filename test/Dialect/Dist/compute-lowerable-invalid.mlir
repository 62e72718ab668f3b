// RUN: dist-opt %s -split-input-file -verify-diagnostics
// What verifies lowers: distributions that no lowering can run are verifier
// errors, with the lowering's own message (they used to verify and then
// fail in dist-opt --dist-to-llvm).

dist.grid @m [3]
!T = !dist.tensor<12xf64, #dist.layout<@m, "x -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: distributed loop 'io' has 4 iterations but grid dimension 0 of @m has extent 3}}
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(4))] : !T, !T
  return
}

// -----

dist.grid @m [2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: loop 'io' is distributed but sits inside loop 'j'; distributed loops must be the outermost loops}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [divide(i, io, ii, 2), reorder({j, io, ii}), distribute(io)] : !T, !T
  return
}

// -----

dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: it distributes 1 loop(s) but the tensors' machine @m has 2 dimension(s)}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  return
}

// -----

// Machines of nodes over GPUs are checked through their flattened axes,
// as machines of nodes over CPUs are.
dist.grid @h node[2], gpu[2]
!H = !dist.tensor<8xf64, #dist.layout<@h, "x -> x", "x -> x">>
func.func @f(%a: !H, %b: !H) {
  // expected-error @+1 {{schedule cannot be lowered: it distributes 1 loop(s) but the tensors' machine @h has 2 dimension(s)}}
  dist.compute "A(i) = B(i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !H, !H
  return
}

// -----

// One tensor read through two index lists: the lowering moves one box per
// tensor (with or without a schedule).
dist.grid @m [2]
!T = !dist.tensor<4x4xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{cannot be lowered: tensor 'B' is accessed with different index variables in one statement}}
  dist.compute "A(i,j) = B(i,j) + B(j,i)" (A = %a, B = %b)
      schedule [distribute({i}, {io}, {ii}, Grid(2))] : !T, !T
  return
}

// -----

dist.grid @m [1]
!T = !dist.tensor<4x4xf64, #dist.layout<@m, "xy -> x">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{cannot be lowered: tensor 'B' is accessed with different index variables in one statement}}
  dist.compute "A(i,j) = B(i,j) * B(j,i)" (A = %a, B = %b) : !T, !T
  return
}

// -----

// No distributed loop on a machine of more than one process: every process
// would compute everything.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @f(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: no loop is distributed, so every processor of @m would compute everything; distribute the loops onto the machine}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b) : !T, !T
  return
}
