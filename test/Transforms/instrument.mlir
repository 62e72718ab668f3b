// RUN: dist-opt %s --dist-instrument=timing=1 | FileCheck %s --check-prefix=TIME
// RUN: dist-opt %s --dist-instrument=check=1 | FileCheck %s --check-prefix=CHECK
// RUN: dist-opt %s --dist-instrument | FileCheck %s --check-prefix=NONE
// dist-instrument alone, on dist IR: timing puts a barrier and the clock
// before a computation and the report after it; check gathers the inputs
// before it and computes and compares the reference after it, and checks a
// redistribution against its gathered source. The computation and the
// redistribution stay for the lowerings. A redistribution onto another grid
// (of as many processes: dist-auto-schedule's other grid shapes) is timed
// too, with the destination grid's barrier.

dist.grid @m [2, 2]
dist.grid @l [4]
!T = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> xy">>
!R = !dist.tensor<64x64xf64, #dist.layout<@m, "xy -> yx">>
!L = !dist.tensor<64x64xf64, #dist.layout<@l, "xy -> x">>

// TIME-LABEL: func.func @summa
// TIME: dist.barrier on @m axes [0, 1]
// TIME: dist.wtime
// TIME: dist.compute
// TIME: dist.barrier on @m axes [0, 1]
// TIME: dist.report_time "A(i,j) = B(i,k) * C(k,j)"
// TIME: return

// CHECK-LABEL: func.func @summa
// CHECK: dist.local_tile
// CHECK: dist.gather_tile
// CHECK: dist.compute
// CHECK: dist.grid_rank @m
// CHECK: dist.reference "A(i,j) = B(i,k) * C(k,j)"
// CHECK: dist.check_result
// CHECK: dist.check_unchanged
// CHECK: dist.redistribute
// CHECK: dist.gather_tile
// CHECK: dist.check_result {{.*}} label "redistribute"
// CHECK: return

// NONE-LABEL: func.func @summa
// NONE-NEXT: dist.compute
// NONE-NEXT: dist.redistribute
// NONE-NEXT: return
func.func @summa(%a: !T, %b: !T, %c: !T, %r: !R) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(k, ko, ki, 16), reorder({ko, ii, ji, ki}),
                communicate(A, jo), communicate({B, C}, ko),
                substitute({ii, ji, ki}, gemm)] : !T, !T, !T
  dist.redistribute %a into %r : !T into !R
  return
}

// TIME-LABEL: func.func @grids
// TIME:      dist.barrier on @l axes [0]
// TIME:      dist.wtime
// TIME-NEXT: dist.redistribute %{{.*}} into %{{.*}} : !dist.tensor<64x64xf64, #dist.layout<@m, [(0) blocked, (1) blocked]>> into !dist.tensor<64x64xf64, #dist.layout<@l, [(0) blocked, ()]>>
// TIME:      dist.barrier on @l axes [0]
// TIME:      dist.report_time "redistribute 64x64 #dist.layout<@m, [(0) blocked, (1) blocked]> -> #dist.layout<@l, [(0) blocked, ()]>"
// TIME-NEXT: return
func.func @grids(%a: !T, %l: !L) {
  dist.redistribute %a into %l : !T into !L
  return
}
