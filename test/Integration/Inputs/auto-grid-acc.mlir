// A product that reads its output (+=) on a 1-D grid of 4, left to
// dist-auto-schedule: a candidate on another grid redistributes A onto it
// before the computation as well as back after it
// (test/Integration/auto-schedule-grids.test).
dist.grid @m [4]
!A = !dist.tensor<30x26xf64, #dist.layout<@m, "xy -> x">>
!B = !dist.tensor<30x22xf64, #dist.layout<@m, "xy -> x">>
!C = !dist.tensor<22x26xf64, #dist.layout<@m, "xy -> x">>
func.func @kernel(%a: !A, %b: !B, %c: !C) {
  dist.compute "A(i,j) += B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto : !A, !B, !C
  return
}
func.func @main() -> i32 {
  %a = dist.alloc : !A
  %b = dist.alloc : !B
  %c = dist.alloc : !C
  dist.fill %a seed 3 : !A
  dist.fill %b seed 1 : !B
  dist.fill %c seed 2 : !C
  func.call @kernel(%a, %b, %c) : (!A, !B, !C) -> ()
  func.call @kernel(%a, %b, %c) : (!A, !B, !C) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
