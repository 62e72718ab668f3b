// A(i,j) = sum_k B(i,k) * C(k,j) with the schedule left to the compiler
// (docs/autoschedule.md): dist-auto-schedule, which dist-run runs, writes
// the cheapest of its candidate schedules by the cost model.
//
//   dist-opt --dist-auto-schedule=report=3 examples/autoschedule/gemm.mlir
//   dist-run -np 4 --check examples/autoschedule/gemm.mlir
//   dist-run -np 4 --check --cost-file benchmarks/results/costs.txt \
//       examples/autoschedule/gemm.mlir      (after benchmarks/calibrate)

dist.grid @m [2, 2]

!T = !dist.tensor<256x256xf64, #dist.layout<@m, "xy -> xy">>

func.func @gemm(%a: !T, %b: !T, %c: !T) {
  dist.compute "A(i,j) = B(i,k) * C(k,j)" (A = %a, B = %b, C = %c)
      schedule auto
      : !T, !T, !T
  return
}

func.func @main() -> i32 {
  %a = dist.alloc : !T
  %b = dist.alloc : !T
  %c = dist.alloc : !T
  dist.fill %b seed 1 : !T
  dist.fill %c seed 2 : !T
  func.call @gemm(%a, %b, %c) : (!T, !T, !T) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
