// Leaves that are not library calls, for generated GPU kernels
// (gpu-kernels.test): a linalg.generic with free indices (a thread per
// output point), the same statement at sizes that do not divide the grid
// (a linalg.generic over the exact boxes), a split whose chunk does not
// divide (scalar loops with bounds checks: a thread per output point, the
// reduction in the thread), a point update below the
// innermost communicate, an element-wise sum, and an f32 TTV.

dist.grid @m [2, 2]

!A = !dist.tensor<32x24xf64, #dist.layout<@m, "xy -> xy">>
!B = !dist.tensor<32x24x20xf64, #dist.layout<@m, "xyz -> xy">>
!c = !dist.tensor<20xf64, #dist.layout<@m, "z -> **">>
!Au = !dist.tensor<31x29xf64, #dist.layout<@m, "xy -> xy">>
!Bu = !dist.tensor<31x29x7xf64, #dist.layout<@m, "xyz -> xy">>
!cu = !dist.tensor<7xf64, #dist.layout<@m, "z -> **">>
!P = !dist.tensor<10x9xf64, #dist.layout<@m, "ij -> ij">>
!Af = !dist.tensor<18x14xf32, #dist.layout<@m, "xy -> xy">>
!Bf = !dist.tensor<18x14x9xf32, #dist.layout<@m, "xyz -> xy">>
!cf = !dist.tensor<9xf32, #dist.layout<@m, "z -> **">>

func.func @ttv(%a: !A, %b: !B, %c: !c) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo)]
      : !A, !B, !c
  return
}

func.func @ttv_uneven(%a: !Au, %b: !Bu, %c: !cu) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo)]
      : !Au, !Bu, !cu
  return
}

func.func @ttv_split(%a: !Au, %b: !Bu, %c: !cu) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                split(ji, jio, jii, 4),
                communicate({A, B, c}, jo)]
      : !Au, !Bu, !cu
  return
}

func.func @point(%a: !P, %b: !P) {
  dist.compute "A(i,j) = B(i,j)" (A = %a, B = %b)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B}, ji)]
      : !P, !P
  return
}

func.func @add(%a: !A, %b: !A, %c: !A) {
  dist.compute "A(i,j) = B(i,j) + C(i,j)" (A = %a, B = %b, C = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, C}, jo)]
      : !A, !A, !A
  return
}

func.func @ttv_f32(%a: !Af, %b: !Bf, %c: !cf) {
  dist.compute "A(i,j) = B(i,j,k) * c(k)" (A = %a, B = %b, c = %c)
      schedule [distribute({i, j}, {io, jo}, {ii, ji}, Grid(2, 2)),
                communicate({A, B, c}, jo)]
      : !Af, !Bf, !cf
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !c
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !c
  func.call @ttv(%a, %b, %c) : (!A, !B, !c) -> ()
  %au = dist.alloc : !Au
  %bu = dist.alloc : !Bu
  %cu = dist.alloc : !cu
  dist.fill %bu seed 3 : !Bu
  dist.fill %cu seed 4 : !cu
  func.call @ttv_uneven(%au, %bu, %cu) : (!Au, !Bu, !cu) -> ()
  %as = dist.alloc : !Au
  func.call @ttv_split(%as, %bu, %cu) : (!Au, !Bu, !cu) -> ()
  %p = dist.alloc : !P
  %q = dist.alloc : !P
  dist.fill %q seed 5 : !P
  func.call @point(%p, %q) : (!P, !P) -> ()
  %s = dist.alloc : !A
  %t = dist.alloc : !A
  dist.fill %t seed 6 : !A
  dist.fill %a seed 7 : !A
  func.call @add(%s, %t, %a) : (!A, !A, !A) -> ()
  %af = dist.alloc : !Af
  %bf = dist.alloc : !Bf
  %cf = dist.alloc : !cf
  dist.fill %bf seed 8 : !Bf
  dist.fill %cf seed 9 : !cf
  func.call @ttv_f32(%af, %bf, %cf) : (!Af, !Bf, !cf) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
