// Schedules that distribute at several levels (one Grid(...) per level of a
// machine of nodes): what the verifier rejects.
// RUN: dist-opt %s --split-input-file --verify-diagnostics

dist.grid @h node[2, 2], cpu[1, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
func.func @wrong_inner(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: its 2 distribute commands onto Grid(...) distribute onto the levels of one machine, together [2, 2, 2, 1], but @h has the axes [2, 2, 1, 2] (all levels, outermost first); a second Grid(...) continues with the next level of a machine of nodes}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2)),
                distribute({il, jl}, {ip, jp}, {ii, ji}, Grid(2, 1))] : !T, !T
  return
}

// -----

// Only the outer level distributed: the CPUs of a node would repeat work.
dist.grid @h node[2, 2], cpu[1, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> xy", "xy -> xy">>
func.func @one_level_only(%a: !T, %b: !T) {
  // expected-error @+1 {{schedule cannot be lowered: it distributes 2 loop(s) but the tensors' machine @h has 4 dimension(s)}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {in, jn}, {il, jl}, Grid(2, 2))] : !T, !T
  return
}

// -----

// The named machine stands for all its levels: it is the only distribute.
dist.grid @h node[2], cpu[2]
!T = !dist.tensor<8x8xf64, #dist.layout<@h, "xy -> x", "xy -> y">>
func.func @named_then_grid(%a: !T, %b: !T) {
  // expected-error @+1 {{a schedule that distributes onto a named machine ('@h', all its levels at once) distributes once; write one Grid(...) per level instead}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, @h),
                distribute({ii}, {iio}, {iii}, Grid(1))] : !T, !T
  return
}

// -----

// Two Grid(...) on a one-level machine: still one machine's axes.
dist.grid @m [2, 2]
!T = !dist.tensor<8x8xf64, #dist.layout<@m, "xy -> xy">>
func.func @flat_machine(%a: !T, %b: !T) {
  // expected-error @+1 {{its 2 distribute commands onto Grid(...) distribute onto the levels of one machine, together [2, 2, 1, 1], but @m has the axes [2, 2]}}
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                distribute({ii, ji}, {iio, jio}, {iii, jii}, Grid(1, 1))] : !T, !T
  return
}
